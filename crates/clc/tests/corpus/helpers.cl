float square(float x) { return x * x; }

int gcd(int a, int b)
{
    while (b != 0) {
        int t = a % b;
        a = b;
        b = t;
    }
    return a;
}

void store2(__global float *p, float a, float b)
{
    p[0] = a;
    p[1] = b;
}

float4 lerp4(float4 a, float4 b, float t) { return a + (b - a) * t; }

__kernel void helpers(__global float *out, __global int *iout)
{
    size_t i = get_global_id(0);
    float v = square((float)i) + sqrt(2.0f) + rsqrt(4.0f) + sin(0.5f) * cos(0.5f);
    v += exp(1.0f) + log(2.0f) + pow(2.0f, 3.0f) + fabs(-1.0f) + floor(1.5f) + ceil(1.5f);
    v += fma(1.0f, 2.0f, 3.0f) + fmin(v, 1.0f) + fmax(v, 0) + mix(1.0f, 2.0f, 0.5f);
    float4 a = (float4)(1.0f, 2.0f, 3.0f, 4.0f);
    float4 b = lerp4(a, a * 2.0f, 0.25f);
    v += dot(a, b) + length(b) + dot(1.0f, 2.0f) + distance(a, b);
    float4 n = normalize(b);
    float4 sel = select(a, b, (int4)(-1, 0, -1, 0));
    v += n.x + sel.y + clamp(v, 0.0f, 10.0f);
    iout[i] = gcd((int)i + 12, 18) + select(1, 2, (int)i) + isnan(v) + any((int4)(0, -1, 0, 0)) + all((int2)(-1, -1));
    store2(out + 2 * i, v, (float)iout[i]);
}
