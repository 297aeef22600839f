__constant int tbl[2][3] = { 1, 2, 3, 4, 5, 6 };
__constant float4 vt[2] = { (float4)(1.0f), (float4)(2.0f) };
typedef struct { int a; int b[2]; } S;
__constant S cs[2] = { 1, 2, 3, 4, 5, 6 };
__kernel void init(__global int *o) {
  int m[2][2] = { 1, 2, 3, 4 };
  S s = { 7, 8, 9 };
  int4 v = { 1, 2, 3, 4 };
  o[0] = tbl[1][2] + m[1][0] + s.b[1] + v.w + cs[1].b[0] + (int)vt[1].x;
}
