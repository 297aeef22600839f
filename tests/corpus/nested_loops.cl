//! kernel: nested_loops
//! global: 64
//! arg: int[64] rand(1,9)
//! arg: int[64] zeros
// Nested loops with labelled-style exits through flags, break out of the inner loop, early return.
__kernel void nested_loops(__global const int *in, __global int *out)
{
    int i = get_global_id(0);
    int n = in[i];
    if (n == 9) {
        out[i] = -9;
        return;
    }
    int total = 0;
    for (int a = 0; a < n; a++) {
        int b = 0;
        while (1) {
            if (b > a) break;
            if ((a + b) % 4 == 3) { b++; continue; }
            total += a * b;
            b++;
        }
        if (total > 200) break;
    }
    out[i] = total;
}
