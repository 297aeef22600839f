//! kernel: helpers
//! global: 300
//! arg: int[300] rand(0,40)
//! arg: long[300] zeros
// Helper functions: calls, pointer parameters, multiple returns, private arrays passed by pointer.
long fib(int n)
{
    long a = 0, b = 1;
    for (int i = 0; i < n; i++) {
        long t = a + b;
        a = b;
        b = t;
    }
    return a;
}

void minmax(const int *v, int n, int *lo, int *hi)
{
    *lo = v[0];
    *hi = v[0];
    for (int i = 1; i < n; i++) {
        if (v[i] < *lo) *lo = v[i];
        if (v[i] > *hi) *hi = v[i];
    }
}

int sign_of(int x)
{
    if (x > 20) return 1;
    if (x < 20) return -1;
    return 0;
}

__kernel void helpers(__global const int *in, __global long *out)
{
    int i = get_global_id(0);
    int v[4] = { in[i], in[(i + 1) % 300], in[(i + 2) % 300], 17 };
    int lo, hi;
    minmax(v, 4, &lo, &hi);
    out[i] = fib(in[i]) * 10 + sign_of(in[i]) + lo * 1000 + hi * 100000;
}
