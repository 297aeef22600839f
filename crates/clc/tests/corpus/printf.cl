__kernel void pf(__global float *f) { 
  int i = get_global_id(0);
  printf("hello %d %f %s\n", i, f[i], "x");
  __constant char *msg = "abc";
}
