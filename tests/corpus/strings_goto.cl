//! kernel: strings_goto
//! global: 64
//! arg: int[64] rand(0,100)
//! arg: int[64] zeros
// Character arrays initialized by string literals (C99 6.7.8p14: bare, in braces, nested in
// arrays and structs, in __constant and private memory) and `goto` into a loop body.
struct named { char name[4]; int value; };
constant char greeting[] = "hello";
constant char words[2][4] = {"abc", "de"};
constant struct named table[2] = {{"ab", 1}, {{"cd"}, 2}};

__kernel void strings_goto(__global const int *in, __global int *out)
{
    int i = get_global_id(0);
    char s[] = "wxyz";
    char t[4] = {"pqr"};
    char u[2][3] = {"ab", {"c"}};
    struct named n = {"hi", 5};
    struct named m[2] = {{"ef", 1}, {"gh", 2}};
    int acc = s[i % 5] + t[i & 3] + u[(i >> 1) & 1][i % 3] + n.name[i & 3] + m[i & 1].name[(i >> 2) & 3];
    acc += greeting[i % 6] + words[i & 1][(i >> 1) & 3] + table[(i >> 3) & 1].name[i % 3];
    acc += sizeof(s) * 1000 + sizeof(u) * 100;
    int j = 0;
    int x = in[i];
    if (x > 50)
        goto inside;
    for (j = 0; j < 4; j++) {
        acc += j;
inside:
        acc += 3 * j + 1;
    }
    // A backward goto into the middle of a while loop.
    while (j < 10) {
      again:
        j += 3;
        acc ^= j;
    }
    if (j < 20)
        goto again;
    out[i] = acc;
}
