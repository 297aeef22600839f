int classify(int x)
{
    switch (x) {
    case 0:
        return 10;
    case 1:
    case 2:
        x += 5;
        /* fallthrough */
    case 3:
        x *= 2;
        break;
    case -1:
        return -1;
    default:
        x = 0;
    }
    return x;
}

__kernel void switch_kernel(__global int *data)
{
    size_t i = get_global_id(0);
    int v = data[i];
    int acc = 0;
    switch (v & 3) {
    case 0: acc = 1; break;
    case 1: { int t = v * 2; acc = t; } break;
    default: acc = classify(v);
    }
    long big = v;
    switch (big) {
    case 5000000000L: acc++; break;
    }
    data[i] = acc;
}
