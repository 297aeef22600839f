//! kernel: loops
//! global: 1024
//! arg: uint[1024] rand(1,100000)
//! arg: uint[1024] zeros
//! arg: uint[1024] zeros
// while, for and do-while loops with break and continue: Collatz step counts and digit sums.
__kernel void loops(__global const uint *in, __global uint *steps, __global uint *digits)
{
    size_t i = get_global_id(0);
    uint n = in[i];
    uint count = 0;
    while (n != 1) {
        n = (n & 1) ? 3 * n + 1 : n / 2;
        count++;
        if (count > 1000) break;
    }
    steps[i] = count;
    uint d = 0, m = in[i];
    do {
        d += m % 10;
        m /= 10;
    } while (m);
    for (uint k = 0;; k++) {
        if (k == 3) break;
        if (k == 1) continue;
        d += k;
    }
    digits[i] = d;
}
