#pragma OPENCL EXTENSION cl_khr_fp16 : enable
__kernel void h(__global half *p, __global float *f) {
  half a = p[0];
  half b = a * 2.0h + (half)f[0];
  p[1] = b;
  f[1] = (float)b + convert_float(a);
  half4 v = (half4)(a);
  p[2] = v.y;
}
