typedef struct {
    float x, y;
    int tag;
} Point;

struct Pair {
    Point a;
    Point b;
    float w[4];
};

typedef union {
    float f;
    uint u;
} FloatBits;

enum Color { RED, GREEN = 5, BLUE };

static float dist2(Point p, Point q)
{
    float dx = p.x - q.x, dy = p.y - q.y;
    return dx * dx + dy * dy;
}

void scale(Point *p, float s)
{
    p->x *= s;
    p->y *= s;
}

__kernel void structs(__global Point *pts, __global float *out, __global struct Pair *pairs, __global uint *bits)
{
    size_t i = get_global_id(0);
    Point p = pts[i];
    Point q = { 1.0f, 2.0f, BLUE };
    scale(&q, 2.0f);
    struct Pair pr;
    pr.a = p;
    pr.b = q;
    for (int k = 0; k < 4; k++)
        pr.w[k] = (float)k;
    pairs[i] = pr;
    out[i] = dist2(pr.a, pr.b) + pairs[i].w[2] + (float)sizeof(struct Pair);
    __global Point *gp = &pts[i];
    gp->tag = GREEN;
    FloatBits fb;
    fb.f = out[i];
    bits[i] = fb.u;
}
