//! kernel: struct_buffer
//! global: 32
//! arg: float[256] rand(-4,4)
//! arg: float[256] zeros
// Structs with padding (char then float4 at offset 16), copied, passed to helpers, written back.
typedef struct {
    char tag;
    float4 v;
    int n;
} item_t;

float4 scale(item_t it) { return it.v * (float)it.n; }

__kernel void struct_buffer(__global const float *in, __global float *out)
{
    size_t i = get_global_id(0);
    __global item_t *items = (__global item_t *)out;
    item_t it;
    it.tag = (char)i;
    it.v = (float4)(in[i * 4], in[i * 4 + 1], in[i * 4 + 2], in[i * 4 + 3]);
    it.n = (int)i - 16;
    item_t copy = it;
    copy.v = scale(it);
    if (i < 5) {
        items[i].tag = copy.tag;
        items[i].v = copy.v;
        items[i].n = copy.n;
    }
}
