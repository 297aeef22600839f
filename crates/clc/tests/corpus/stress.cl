__constant float coeffs[4] = { 0.5f, 0.25f, 0.125f, 0.0625f };
__constant int4 masks = (int4)(1, 2, 4, 8);
__constant struct { int a; float b; } cst = { 3, 4.0f };

typedef struct Node { int value; float4 pos; int kids[2]; } Node;

float accum(const float *v, int n)
{
    float s = 0.0f;
    for (const float *p = v; p < v + n; ++p)
        s += *p;
    return s;
}

__kernel void stress(__global float *out, __global const int *in, __local int *lbuf, uint n)
{
    size_t gid = get_global_id(0), lid = get_local_id(0);
    float arr[8];
    int grid[3][4];
    Node nodes[2];
    for (int i = 0; i < 8; i++) arr[i] = coeffs[i & 3] * i;
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 4; j++)
            grid[i][j] = i * j;
    nodes[0].value = grid[2][3];
    nodes[0].pos = (float4)(1.0f);
    nodes[0].pos.y = 2.0f;
    nodes[0].kids[1] = masks.w + cst.a;
    nodes[1] = nodes[0];
    float s = accum(arr, 8);
    __global float *o = out + gid;
    *o = s;
    o[0] += nodes[1].pos.y;
    const __global int *ip = in;
    ip += 2;
    int diff = (int)(ip - in);
    lbuf[lid] = diff ? in[gid] : -in[gid];
    barrier(CLK_LOCAL_MEM_FENCE);
    int v = lbuf[(lid + 1) % get_local_size(0)];
    v = v > 0 ? (v < 10 ? v : 10) : 0;
    if (n == 0u) goto done;
    v <<= 1;
done:
    out[gid] += (float)v + cst.b;
    float4 f4 = vload4(0, out);
    vstore4(f4 * 2.0f, 1, out);
    uint idx = gid;
    out[idx] = (idx & 1) ? f4.x : f4.y;
    int dim = get_work_dim();
    size_t gs = get_global_size(dim - 1) + get_global_offset(0) + get_num_groups(0) + get_group_id(dim);
    out[0] = (float)gs;
    bool flag = gid > 3;
    if (flag && !(v == 2) || n != 5) out[1] = 1.0f;
    char c = 'A';
    short sh = c + 1;
    ulong big = 0xFFFFFFFFFFFFFFFFul;
    long neg = -1;
    out[2] = (float)(big >> 60) + (float)(neg >> 63) + sh;
    float h = vload_half(0, (__global half *)out);
    vstore_half(h, 1, (__global half *)out);
    vstore_half_rtz(h, 2, (__global half *)out);
    float2 h2 = vload_half2(0, (__global half *)out);
    vstore_half2(h2, 0, (__global half *)out);
}
