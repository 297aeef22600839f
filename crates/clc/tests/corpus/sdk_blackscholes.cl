#define S_LOWER_LIMIT 10.0f
float phi(float X)
{
    float y, absX, t;
    const float c1 = 0.319381530f, c2 = -0.356563782f, c3 = 1.781477937f, c4 = -1.821255978f, c5 = 1.330274429f;
    const float oneBySqrt2pi = 0.398942280f;
    absX = fabs(X);
    t = 1.0f / (1.0f + 0.2316419f * absX);
    y = 1.0f - oneBySqrt2pi * exp(-X * X / 2.0f) * t * (c1 + t * (c2 + t * (c3 + t * (c4 + t * c5))));
    return (X < 0) ? (1.0f - y) : y;
}
__kernel void blackscholes(const __global float4 *randArray, int width, __global float4 *call, __global float4 *put)
{
    size_t xPos = get_global_id(0), yPos = get_global_id(1);
    float4 r = randArray[yPos * width + xPos];
    float4 S = S_LOWER_LIMIT * r + 100.0f * (1.0f - r);
    float4 sigmaSqrtT = 0.1f * sqrt((float4)1.0f);
    float4 d1 = (log(S / 100.0f) + (0.05f + 0.005f) * 1.0f) / sigmaSqrtT;
    float4 d2 = d1 - sigmaSqrtT;
    float4 KexpMinusRT = 100.0f * exp(-0.05f * 1.0f);
    call[yPos * width + xPos] = S * (float4)(phi(d1.x), phi(d1.y), phi(d1.z), phi(d1.w)) - KexpMinusRT * (float4)(phi(d2.x), phi(d2.y), phi(d2.z), phi(d2.w));
    put[yPos * width + xPos] = KexpMinusRT * (1.0f - (float4)(phi(d2.x), phi(d2.y), phi(d2.z), phi(d2.w))) - S * (1.0f - (float4)(phi(d1.x), phi(d1.y), phi(d1.z), phi(d1.w)));
}
