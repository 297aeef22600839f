__kernel void intops(__global uint *u, __global int *s, __global ulong *l, __global uchar4 *c)
{
    size_t i = get_global_id(0);
    uint a = u[i];
    int b = s[i];
    u[i] = (a << 3) | (a >> 29) ^ ~a & 0xF0F0u;
    s[i] = (b >> (b & 7)) + b % 7 - b / 3 + (b << 33);
    l[i] = ((ulong)a << 32) | (ulong)(uint)b;
    l[i] += popcount(a) + clz(a) + rotate(a, 5u) + abs(b) + max(a, 3u) + min(b, -2) + clamp(b, 0, 10);
    uchar4 v = c[i];
    v = (v << (uchar4)(1)) | (v >> 7);
    v.x = !v.y;
    int4 cmp = (int4)(1, 2, 3, 4) < (int4)(4, 3, 2, 1);
    c[i] = v + convert_uchar4(cmp & 1);
    s[i] += a > 5 && b < 3 || !b;
    s[i] -= (b > 0) ? b : -b;
    s[i]++;
    --s[i];
    s[i] *= 2;
    s[i] >>= 1;
    s[i] %= 1000;
}
