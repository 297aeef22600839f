//! kernel: private_array
//! global: 256
//! arg: int[256] rand(0,15)
//! arg: int[256] zeros
// A private array indexed dynamically (its address escapes to memory), pointer walk and difference.
__kernel void private_array(__global const int *in, __global int *out)
{
    int i = get_global_id(0);
    int table[16];
    for (int k = 0; k < 16; k++) table[k] = k * k - i;
    int *p = &table[in[i]];
    int *q = table + 3;
    int s = *p + p[-0] + (int)(p - q);
    for (int *it = table; it < table + 16; it += 4) s += *it;
    out[i] = s;
}
