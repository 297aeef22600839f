//! kernel: typedef_enum
//! global: 128
//! arg: int[128] rand(0,3)
//! arg: int[128] zeros
// typedefs, enums with explicit values, a struct array in private memory.
typedef enum { RED = 1, GREEN = 4, BLUE } color;
typedef unsigned int u32;
typedef struct { color c; u32 weight; } entry;

__kernel void typedef_enum(__global const int *in, __global int *out)
{
    int i = get_global_id(0);
    entry e[3] = { { RED, 10u }, { GREEN, 20u }, { BLUE, 30u } };
    int k = in[i] % 3;
    u32 w = e[k].weight + (u32)e[k].c;
    color c = (in[i] == 3) ? BLUE : RED;
    out[i] = (int)w * 10 + c;
}
