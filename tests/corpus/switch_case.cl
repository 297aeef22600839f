//! kernel: switch_case
//! global: 512
//! arg: int[512] rand(-3,12)
//! arg: int[512] zeros
// switch with fallthrough, default in the middle, break and a nested loop with continue.
__kernel void switch_case(__global const int *in, __global int *out)
{
    int i = get_global_id(0);
    int x = in[i];
    int r = 0;
    switch (x) {
    case 0:
        r = 100;
        break;
    case 1:
    case 2:
        r += 10;
    case 3:
        r += 3;
        break;
    default:
        r = -1;
    case 7:
        r *= 2;
        break;
    case 9: {
        for (int k = 0; k < 10; k++) {
            if (k % 3 == 0) continue;
            r += k;
        }
        break;
    }
    }
    out[i] = r;
}
