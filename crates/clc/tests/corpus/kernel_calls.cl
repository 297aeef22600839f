__kernel void inner(__global int *p) { p[0] = 1; }
__kernel void outer(__global int *p) { inner(p); p[1] = 2; }
typedef struct { int a; float b; } S;
__kernel void byval(S s, __global float *o, int4 v) { o[0] = s.a + s.b + v.y; }
__kernel void byval_caller(__global float *o)
{
    S s = { 1, 2.0f };
    byval(s, o, (int4)(3));
}
