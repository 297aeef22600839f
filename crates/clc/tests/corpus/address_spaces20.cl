void put(int *p, int v) {
    __global int *g = to_global(p);
    if (g) *g = v;
    __local int *l = to_local(p);
    if (l != 0) *l = v + 1;
    int *q = to_private(p);
    if (q) *q = v + 2;
}
__kernel void asq(__global int *out, __local int *tmp) {
    int x = 0;
    put(out, 1);
    put(tmp, 2);
    put(&x, 3);
    out[1] = x + tmp[0];
}
