__kernel void bi(__global float4 *f, __global int4 *i, __global uint *u, __global float *s)
{
    float4 v = f[0];
    f[1] = clamp(v, 0.0f, 1.0f) + fmax(v, 0.0f) + fmin(v, v) + mix(v, v, 0.5f) + step(0.5f, v) + smoothstep(0.0f, 1.0f, v);
    f[2] = cross(v, v) + normalize(v) + fabs(v) + sqrt(v) + native_sqrt(v) + half_exp(v) + pow(v, v) + pown(v, (int4)(2)) + rootn(v, (int4)(3)) + ldexp(v, (int4)(1));
    int4 iv = i[0];
    i[1] = min(iv, 3) + max(iv, iv) + clamp(iv, 0, 5) + abs_diff(iv, iv).x + (int4)mad24(iv, iv, iv) + isequal(v, v) + isgreater(v, v) + isnan(v) + signbit(v) + select(iv, iv, iv) + bitselect(iv, iv, iv);
    u[0] = abs(-5) + abs(iv).y + clz(u[1]) + popcount(u[2]) + mul_hi(u[1], u[2]) + add_sat(u[1], 1u) + upsample((ushort)1, (ushort)2) + any(iv) + all(iv) + isfinite(s[0]) + isinf(1.0f);
    float fr;
    float ip_;
    s[0] = length(v.xyz) + distance(v.xy, v.zw) + dot(v.xyz, v.xyz) + fract(s[1], &fr) + modf(s[2], &ip_) + fr + ip_ + sign(s[3]) + degrees(1.0f) + radians(180.0f) + atan2(1.0f, 2.0f) + hypot(3.0f, 4.0f) + fast_length(v) + native_divide(1.0f, 3.0f);
    int e;
    s[1] = frexp(s[2], &e) + e + ilogb(s[3]) + nan(1u) + maxmag(1.0f, -2.0f) + remquo(5.0f, 3.0f, &e);
    s[2] = get_local_linear_id() + get_global_linear_id() + get_enqueued_local_size(0);
}
