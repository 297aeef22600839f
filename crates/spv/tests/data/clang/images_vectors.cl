__constant sampler_t smp = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP | CLK_FILTER_NEAREST;

typedef struct { int a; float b[3]; long c; } S;

__kernel void img(read_only image2d_t src, write_only image2d_t dst, __global S *s, __global half *h,
                  __global double2 *d, __local float4 *tmp) {
  int2 p = (int2)(get_global_id(0), get_global_id(1));
  float4 c = read_imagef(src, smp, p);
  tmp[get_local_id(0)] = c * 0.5f;
  work_group_barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
  write_imagef(dst, p, tmp[0].wzyx);
  s[p.x].b[1] = as_float(0x7f800000) + s->c;
  vstore_half_rtz(c.x, 0, h);
  d[0] = (double2)(-0.0, 1e-310) + convert_double2(p);
  float f = native_sin(c.y) + half_cos(c.z) + clamp(c.w, 0.0f, 1.0f);
  uint u = popcount((uint)p.y) + mad_sat(3u, 4u, (uint)p.x) + rotate(1u, 2u);
  long l = (long)u * -9223372036854775807L;
  s->a = (int)(l >> 3) ^ (int)(f * 2.0f);
  for (int i = 0; i < p.y; ++i) { if (i == 5) continue; s->a += i; }
}

void helper(__global int *x) { atomic_inc(x); }
__kernel void k2(__global int *x) { helper(x); }
