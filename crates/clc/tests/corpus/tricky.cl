typedef struct { float4 v; int n; } Item;
enum Mode { A, B = 3, C };
__constant float4 table[2] = { (float4)(1.0f), (float4)(1.0f, 2.0f, 3.0f, 4.0f) };

Item make(int n) { Item it; it.v = (float4)((float)n); it.n = n; return it; }
float4 twice(float4 x) { return x * 2; }
void bump(__global int *p) { (*p)++; p[1]--; }

__kernel void tricky(__global int *ip, __global float4 *fp, __global Item *items, uint m)
{
    int x, y, z;
    x = y = z = 3;
    float4 v = fp[0];
    v.xy *= 2.0f;
    v.zw = -v.zw;
    ++v.x;
    v.y--;
    ip[0]++;
    ip[x] += ip[y]--;
    bump(ip + 2);
    Item a = make(5), b = make(6);
    Item c = (m > 2) ? a : b;
    items[0] = c;
    __global Item *ptr = (m & 1) ? items : items + 1;
    ptr->n = (int)sizeof(Item) + vec_step(float3) + vec_step(v);
    float4 vs[3] = { (float4)(1.0f), (float4)(2.0f) };
    int arr2[] = { 1, 2, 3 };
    fp[1] = twice(vs[1]) + table[1] + (float4)(arr2[2]);
    bool flag = x;
    flag = !flag;
    if (flag) ip[3] = 1;
    uchar uc = (uchar)v.x;
    float f = (float)(uint)uc + (float)(char)-1;
    enum Mode mode = B;
    switch (mode) { case A: f += 1.0f; break; case B: f += 2.0f; break; default: break; }
    uint u = 5;
    uint nu = -u;
    int t = 1 ? 2 : 3;
    while (x--, x > 0) { t += x; }
    long big = (long)t * 1000000000L;
    ulong ub = (ulong)big;
    char ch = 'z';
    switch (ch) { case 'a': t = 0; break; case 'z': t = 26; break; }
    switch (ub) { case 0: t++; break; case 1000000000UL: t--; }
    ip[4] = t + (int)nu + (int)f + (int)(big >> 32);
    int *pp = &x;
    int **ppp = &pp;
    **ppp = 7;
    __global float *fe = &fp[2].y;
    *fe = 1.0f;
    float *vx = &v.x;
    *vx = 3.0f;
    ip[5] = x + (pp == &x) + (ip != 0) + (ptr > items);
    fp[3] = v;
    half *hp = 0;
    ip[6] = hp == 0;
}
