__kernel void loops(__global int *out, int n)
{
    size_t gid = get_global_id(0);
    int sum = 0;
    for (int i = 0; i < n; ++i) {
        if (i == 3)
            continue;
        if (i > 100)
            break;
        sum += i;
    }
    int j = 0;
    while (j < 10) {
        j += 2;
        if (j == 8) break;
    }
    int k = 0;
    do {
        k++;
        if (k & 1) continue;
        sum ^= k;
    } while (k < 7);
    for (;;) {
        if (sum > 0) break;
        sum = 1;
    }
    for (int a = 0, b = 10; a < b; a++, b--)
        sum += a * b;
    out[gid] = sum + j + k;
}
