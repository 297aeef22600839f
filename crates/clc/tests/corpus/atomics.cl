__kernel void at(__global int *p, __local uint *l, __global float *f) {
  atomic_add(p, 1); atomic_inc(l); atomic_cmpxchg(p, 1, 2); atomic_min(l, 3u); atomic_xchg(f, 1.0f); atom_add(p, 2);
}
