__kernel void bitonic(__global uint *keys, const uint stage, const uint pass, const uint dir)
{
    uint id = get_global_id(0);
    uint pairDistance = 1 << (stage - pass);
    uint blockWidth = 2 * pairDistance;
    uint left = (id % pairDistance) + (id / pairDistance) * blockWidth;
    uint right = left + pairDistance;
    uint l = keys[left], r = keys[right];
    uint sameDir = dir;
    if ((id / (1u << stage)) % 2 == 1) sameDir = 1 - sameDir;
    uint greater = l > r ? l : r, lesser = l > r ? r : l;
    keys[left] = sameDir ? lesser : greater;
    keys[right] = sameDir ? greater : lesser;
}
