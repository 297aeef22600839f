int f(int x) { while (1) { if (x > 3) return x; x++; } }
int g(int x) { for (;;) { x++; if (x > 9) return x; } }
#define SWAP(a, b) do { int t = a; a = b; b = t; } while (0)
__kernel void k(__global int *p) { int a = p[0], b = p[1]; SWAP(a, b); p[0] = f(a) + g(b); }
