__kernel void add(__global float *a, __global const float *b, float c, __local int *l) {
  size_t i = get_global_id(0);
  a[i] = fma(b[i], c, sqrt(a[i])) + (float)i;
  l[get_local_id(0)] = atomic_add((volatile __global int*)a, 3);
  barrier(CLK_LOCAL_MEM_FENCE);
  double d = 1.0 / 3.0;
  long x = 0x123456789abcLL;
  switch ((int)i) { case 1: a[0] = 2.5f; break; case 7: a[1] = (float)d; break; default: break; }
  vstore4(vload4(0, b), 1, a);
  printf("hi %d\n", (int)x);
}
