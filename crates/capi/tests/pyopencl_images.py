"""Image kernels on oxcl and on PoCL through pyopencl, outputs compared.

PoCL is the independent reference. Tolerances follow the image rules of the numerical
compliance chapter: linear filtering weights have implementation-defined precision (unorm8
results within 2/255, float results within a small relative error); float to normalized
integer conversions may differ by one step (0.6 ulp rule); integer formats are exact.
Prints the largest difference measured for each comparison and "images ok" at the end.
"""
import sys
import numpy as np
import pyopencl as cl

mf = cl.mem_flags
AM = cl.addressing_mode
FM = cl.filter_mode
CO = cl.channel_order
CT = cl.channel_type


def platform(name_part):
    for p in cl.get_platforms():
        if name_part in p.name:
            return p
    return None


ox_p = platform("oxcl")
pocl_p = platform("Portable Computing Language")
if ox_p is None:
    print("FAIL no oxcl platform")
    sys.exit(1)
if pocl_p is None:
    print("SKIP PoCL platform not visible through the loader")
    sys.exit(0)


class Target:
    def __init__(self, p):
        self.dev = p.get_devices()[0]
        self.ctx = cl.Context([self.dev])
        self.q = cl.CommandQueue(self.ctx)
        self.name = p.name

    def build(self, src):
        return cl.Program(self.ctx, src).build()


OX = Target(ox_p)
PO = Target(pocl_p)
if not PO.dev.image_support:
    print("SKIP PoCL device has no image support")
    sys.exit(0)

failures = []
report = []


def compare(label, ox, po, atol, rtol=0.0, mask=None):
    ox = np.asarray(ox, dtype=np.float64)
    po = np.asarray(po, dtype=np.float64)
    if mask is not None:
        ox = ox[mask]
        po = po[mask]
    both_nan = np.isnan(ox) & np.isnan(po)
    diff = np.where(both_nan, 0.0, np.abs(ox - po))
    diff = np.where(np.isnan(diff), np.inf, diff)
    limit = atol + rtol * np.abs(po)
    bad = diff > limit
    worst = float(diff.max()) if diff.size else 0.0
    report.append(f"{label}: max diff {worst:.3g} over {diff.size} values")
    if bad.any():
        idx = np.argwhere(bad)[:5]
        failures.append(
            f"{label}: {int(bad.sum())} values beyond tolerance, first at {idx.tolist()}: "
            f"oxcl {ox[bad][:5].tolist()} pocl {po[bad][:5].tolist()}"
        )


rng = np.random.default_rng(2026)

# ---------------------------------------------------------------- convolution
CONV_SRC = """
__kernel void conv(read_only image2d_t src, sampler_t s, __global const float *w,
                   __global float4 *out, float step) {
    int x = get_global_id(0), y = get_global_id(1);
    int width = get_image_width(src), height = get_image_height(src);
    float4 acc = (float4)(0.0f);
    for (int j = -2; j <= 2; j++)
        for (int i = -2; i <= 2; i++) {
            float2 c = (float2)(((float)x + 0.5f + (float)i * step) / (float)width,
                                ((float)y + 0.5f + (float)j * step) / (float)height);
            acc += w[(j + 2) * 5 + i + 2] * read_imagef(src, s, c);
        }
    out[y * width + x] = acc;
}
"""
conv_w, conv_h = 37, 29
conv_pixels = rng.integers(0, 256, size=(conv_h, conv_w, 4), dtype=np.uint8)
conv_weights = rng.random(25).astype(np.float32)
conv_weights /= conv_weights.sum()


def run_conv(t, fmt_type, pixels):
    img = cl.Image(t.ctx, mf.READ_ONLY | mf.COPY_HOST_PTR,
                   cl.ImageFormat(CO.RGBA, fmt_type), shape=(conv_w, conv_h), hostbuf=pixels)
    smp = cl.Sampler(t.ctx, True, AM.CLAMP_TO_EDGE, FM.LINEAR)
    w = cl.Buffer(t.ctx, mf.READ_ONLY | mf.COPY_HOST_PTR, hostbuf=conv_weights)
    out = cl.Buffer(t.ctx, mf.WRITE_ONLY, conv_w * conv_h * 16)
    t.build(CONV_SRC).conv(t.q, (conv_w, conv_h), None, img, smp, w, out, np.float32(0.7))
    res = np.empty((conv_h, conv_w, 4), np.float32)
    cl.enqueue_copy(t.q, res, out)
    return res


compare("convolution 5x5 linear normalized rgba unorm8",
        run_conv(OX, CT.UNORM_INT8, conv_pixels), run_conv(PO, CT.UNORM_INT8, conv_pixels),
        atol=2.0 / 255)
conv_float = rng.standard_normal((conv_h, conv_w, 4)).astype(np.float32)
compare("convolution 5x5 linear normalized rgba float",
        run_conv(OX, CT.FLOAT, conv_float), run_conv(PO, CT.FLOAT, conv_float),
        atol=1e-5, rtol=1e-4)

# ---------------------------------------------------------------- rotation
ROT_SRC = """
__kernel void sample(read_only image2d_t src, sampler_t s, __global const float2 *coord,
                     __global float4 *out) {
    size_t i = get_global_id(0);
    out[i] = read_imagef(src, s, coord[i]);
}
"""
rot_w, rot_h = 31, 23
rot_out_w, rot_out_h = 48, 40
angle, scale = 0.37, 1.45
ys, xs = np.mgrid[0:rot_out_h, 0:rot_out_w].astype(np.float64)
cx, cy = (rot_out_w - 1) / 2.0, (rot_out_h - 1) / 2.0
dx, dy = (xs - cx) * scale, (ys - cy) * scale
u = np.cos(angle) * dx - np.sin(angle) * dy + rot_w / 2.0
v = np.sin(angle) * dx + np.cos(angle) * dy + rot_h / 2.0
unnorm_coords = np.stack([u, v], axis=-1).astype(np.float32).reshape(-1, 2)
norm_coords = np.stack([u / rot_w, v / rot_h], axis=-1).astype(np.float32).reshape(-1, 2)
rot_unorm8 = rng.integers(0, 256, size=(rot_h, rot_w, 4), dtype=np.uint8)
rot_float = rng.standard_normal((rot_h, rot_w, 4)).astype(np.float32)


def run_sample(t, fmt_type, pixels, normalized, am, fm, coords):
    img = cl.Image(t.ctx, mf.READ_ONLY | mf.COPY_HOST_PTR,
                   cl.ImageFormat(CO.RGBA, fmt_type), shape=(rot_w, rot_h), hostbuf=pixels)
    smp = cl.Sampler(t.ctx, normalized, am, fm)
    c = cl.Buffer(t.ctx, mf.READ_ONLY | mf.COPY_HOST_PTR, hostbuf=coords)
    out = cl.Buffer(t.ctx, mf.WRITE_ONLY, coords.shape[0] * 16)
    t.build(ROT_SRC).sample(t.q, (coords.shape[0],), None, img, smp, c, out)
    res = np.empty((coords.shape[0], 4), np.float32)
    cl.enqueue_copy(t.q, res, out)
    return res


def in_range_mask(coords, fm):
    # Addressing mode none: only coordinates whose texels are all inside the image are defined.
    uu, vv = coords[:, 0].astype(np.float64), coords[:, 1].astype(np.float64)
    if fm == FM.NEAREST:
        ok = (uu >= 0) & (uu < rot_w) & (vv >= 0) & (vv < rot_h)
    else:
        ok = (uu >= 0.5) & (uu < rot_w - 0.5) & (vv >= 0.5) & (vv < rot_h - 0.5)
    return np.repeat(ok[:, None], 4, axis=1)


modes = [
    (True, AM.CLAMP_TO_EDGE, "clamp_to_edge"), (True, AM.CLAMP, "clamp"),
    (True, AM.REPEAT, "repeat"), (True, AM.MIRRORED_REPEAT, "mirrored_repeat"),
    (True, AM.NONE, "none"), (False, AM.CLAMP_TO_EDGE, "clamp_to_edge"),
    (False, AM.CLAMP, "clamp"), (False, AM.NONE, "none"),
]
for normalized, am, am_name in modes:
    coords = norm_coords if normalized else unnorm_coords
    for fm, fm_name in [(FM.NEAREST, "nearest"), (FM.LINEAR, "linear")]:
        mask = None
        if am == AM.NONE:
            mask = in_range_mask(unnorm_coords, fm)
        kind = "normalized" if normalized else "unnormalized"
        for fmt_type, pixels, atol, rtol, tname in [
            (CT.UNORM_INT8, rot_unorm8, 2.0 / 255, 0.0, "unorm8"),
            (CT.FLOAT, rot_float, 1e-5, 1e-4, "float"),
        ]:
            if fm == FM.NEAREST:
                # unorm8 to float may differ by an ulp (PoCL multiplies by 1/255).
                atol, rtol = 0.0, (2.5e-7 if tname == "unorm8" else 0.0)
            compare(f"rotation {kind} {am_name} {fm_name} {tname}",
                    run_sample(OX, fmt_type, pixels, normalized, am, fm, coords),
                    run_sample(PO, fmt_type, pixels, normalized, am, fm, coords),
                    atol=atol, rtol=rtol, mask=mask)

# ---------------------------------------------------------------- format round trips
RT_SRC = """
__kernel void wf(write_only image2d_t img, __global const float4 *v) {
    int x = get_global_id(0), y = get_global_id(1);
    write_imagef(img, (int2)(x, y), v[y * get_image_width(img) + x]);
}
__kernel void rf(read_only image2d_t img, __global float4 *v) {
    int x = get_global_id(0), y = get_global_id(1);
    v[y * get_image_width(img) + x] = read_imagef(img, (int2)(x, y));
}
__kernel void wi(write_only image2d_t img, __global const int4 *v) {
    int x = get_global_id(0), y = get_global_id(1);
    write_imagei(img, (int2)(x, y), v[y * get_image_width(img) + x]);
}
__kernel void ri(read_only image2d_t img, __global int4 *v) {
    int x = get_global_id(0), y = get_global_id(1);
    v[y * get_image_width(img) + x] = read_imagei(img, (int2)(x, y));
}
__kernel void wu(write_only image2d_t img, __global const uint4 *v) {
    int x = get_global_id(0), y = get_global_id(1);
    write_imageui(img, (int2)(x, y), v[y * get_image_width(img) + x]);
}
__kernel void ru(read_only image2d_t img, __global uint4 *v) {
    int x = get_global_id(0), y = get_global_id(1);
    v[y * get_image_width(img) + x] = read_imageui(img, (int2)(x, y));
}
"""
rt_w, rt_h = 13, 7
SIGNED_INT = {CT.SIGNED_INT8: 8, CT.SIGNED_INT16: 16, CT.SIGNED_INT32: 32}
UNSIGNED_INT = {CT.UNSIGNED_INT8: 8, CT.UNSIGNED_INT16: 16, CT.UNSIGNED_INT32: 32}
NORM_STEP = {
    CT.UNORM_INT8: 1 / 255, CT.UNORM_INT16: 1 / 65535, CT.SNORM_INT8: 1 / 127,
    CT.SNORM_INT16: 1 / 32767, CT.UNORM_SHORT_565: 1 / 31, CT.UNORM_SHORT_555: 1 / 31,
    CT.UNORM_INT_101010: 1 / 1023,
}
SNORM = {CT.SNORM_INT8, CT.SNORM_INT16}


def formats(t):
    try:
        got = cl.get_supported_image_formats(t.ctx, mf.READ_WRITE, cl.mem_object_type.IMAGE2D)
    except cl.Error:
        return set()
    return {(f.channel_order, f.channel_data_type) for f in got}


def cl_name(enum, value):
    try:
        return enum.to_string(value)
    except ValueError:
        return hex(value)


def skip_order(order):
    # sRGB writes need cl_khr_srgb_image_writes; depth formats need depth image kernels.
    name = cl_name(CO, order)
    return name.startswith("s") or name.startswith("S") or "DEPTH" in name


common = sorted(formats(OX) & formats(PO))
only_pocl = sorted(formats(PO) - formats(OX))
report.append(f"round trips: {len(common)} formats both support; PoCL only: "
              f"{[(cl_name(CO, o), cl_name(CT, t)) for o, t in only_pocl]}")
rt_prg = {}
PRESENT = {CO.R: [0], CO.A: [3], CO.RG: [0, 1], CO.RA: [0, 3]}


def run_round_trip(t, order, ctype, values, kind):
    prg = rt_prg.setdefault(t.name, t.build(RT_SRC))
    fmt = cl.ImageFormat(order, ctype)
    img = cl.Image(t.ctx, mf.READ_WRITE, fmt, shape=(rt_w, rt_h))
    src = cl.Buffer(t.ctx, mf.READ_ONLY | mf.COPY_HOST_PTR, hostbuf=values)
    dst = cl.Buffer(t.ctx, mf.WRITE_ONLY, values.nbytes)
    getattr(prg, "w" + kind)(t.q, (rt_w, rt_h), None, img, src)
    getattr(prg, "r" + kind)(t.q, (rt_w, rt_h), None, img, dst)
    back = np.empty_like(values)
    cl.enqueue_copy(t.q, back, dst)
    return back


for order, ctype in common:
    if skip_order(order):
        continue
    label = f"round trip {cl_name(CO, order)} {cl_name(CT, ctype)}"
    n = rt_w * rt_h * 4
    if ctype in SIGNED_INT:
        bits = SIGNED_INT[ctype]
        lim = 2 ** (bits - 1)
        values = rng.integers(-lim - 50 if bits < 32 else -2**31, lim + 50 if bits < 32 else 2**31 - 1,
                              size=n, dtype=np.int64).astype(np.int32)
        kind, atol, rtol = "i", 0.0, 0.0
    elif ctype in UNSIGNED_INT:
        bits = UNSIGNED_INT[ctype]
        hi = 2 ** bits + 100 if bits < 32 else 2**32 - 1
        values = rng.integers(0, hi, size=n, dtype=np.int64).astype(np.uint32)
        kind, atol, rtol = "u", 0.0, 0.0
    elif ctype in NORM_STEP:
        lo = -1.3 if ctype in SNORM else -0.3
        values = rng.uniform(lo, 1.3, size=n).astype(np.float32)
        kind, atol, rtol = "f", NORM_STEP[ctype] * 1.0001, 0.0
    elif ctype == CT.HALF_FLOAT:
        values = (rng.standard_normal(n) * 100).astype(np.float32)
        kind, atol, rtol = "f", 0.0, 1e-3
    elif ctype == CT.FLOAT:
        values = (rng.standard_normal(n) * 1e3).astype(np.float32)
        kind, atol, rtol = "f", 0.0, 0.0
    else:
        report.append(f"{label}: not compared (no rule for this type)")
        continue
    values = values.reshape(rt_h, rt_w, 4)
    ox = run_round_trip(OX, order, ctype, values, kind)
    present = PRESENT.get(order, [0, 1, 2, 3])
    missing = [c for c in range(4) if c not in present]
    # Missing channels read as (0, 0, 0, 1) (env Table "image channel order"); PoCL 3.1 reads
    # alpha 0 for integer R images, so these are checked against the rule, not PoCL.
    for c in missing:
        compare(f"{label} missing channel {c}", ox[..., c],
                np.full(ox[..., c].shape, 1 if c == 3 else 0), atol=0.0)
    if ctype == CT.HALF_FLOAT:
        # PoCL 3.1 returns garbage for one-channel half images: numpy's float16 (round to
        # nearest even) is the reference instead.
        ref = values.astype(np.float16).astype(np.float32)
        compare(label + " (numpy float16)", ox[..., present], ref[..., present], atol=0.0)
        continue
    compare(label, ox[..., present], run_round_trip(PO, order, ctype, values, kind)[..., present],
            atol=atol, rtol=rtol)

# ---------------------------------------------------------------- 3D and array reads
READS_SRC = """
__kernel void r3(read_only image3d_t img, sampler_t s, __global const float4 *c,
                 __global float4 *out) {
    size_t i = get_global_id(0);
    out[i] = read_imagef(img, s, c[i]);
}
__kernel void r3i(read_only image3d_t img, __global float4 *out) {
    int x = get_global_id(0), y = get_global_id(1), z = get_global_id(2);
    out[(z * get_image_height(img) + y) * get_image_width(img) + x] =
        read_imagef(img, (int4)(x, y, z, 0));
}
__kernel void r2a(read_only image2d_array_t img, sampler_t s, __global const float4 *c,
                  __global float4 *out) {
    size_t i = get_global_id(0);
    out[i] = read_imagef(img, s, c[i]);
}
__kernel void r2ai(read_only image2d_array_t img, __global uint4 *out) {
    int x = get_global_id(0), y = get_global_id(1), z = get_global_id(2);
    out[(z * get_image_height(img) + y) * get_image_width(img) + x] =
        read_imageui(img, (int4)(x, y, z, 0));
}
__kernel void r1a(read_only image1d_array_t img, sampler_t s, __global const float2 *c,
                  __global float4 *out) {
    size_t i = get_global_id(0);
    out[i] = read_imagef(img, s, c[i]);
}
"""
vol = (9, 7, 5)  # width, height, depth
vol_pixels = rng.standard_normal((vol[2], vol[1], vol[0], 4)).astype(np.float32)
n_samples = 500
vol_coords = np.concatenate(
    [rng.uniform(-0.2, 1.2, size=(n_samples, 3)), np.zeros((n_samples, 1))], axis=1
).astype(np.float32)
arr = (13, 11, 4)  # width, height, layers
arr_pixels = rng.integers(0, 256, size=(arr[2], arr[1], arr[0], 4), dtype=np.uint8)
arr_coords = np.stack([rng.uniform(-2, arr[0] + 2, n_samples), rng.uniform(-2, arr[1] + 2, n_samples),
                       rng.uniform(-1.4, arr[2] + 0.4, n_samples), np.zeros(n_samples)],
                      axis=1).astype(np.float32)
arr1 = (17, 3)
arr1_pixels = rng.integers(0, 256, size=(arr1[1], arr1[0], 4), dtype=np.uint8)
arr1_coords = np.stack([rng.uniform(-0.3, 1.3, n_samples), rng.uniform(-1.4, arr1[1] + 0.4, n_samples)],
                       axis=1).astype(np.float32)


def run_reads(t):
    prg = t.build(READS_SRC)
    res = {}
    img3 = cl.Image(t.ctx, mf.READ_ONLY | mf.COPY_HOST_PTR, cl.ImageFormat(CO.RGBA, CT.FLOAT),
                    shape=vol, hostbuf=vol_pixels)
    for fm, fm_name in [(FM.NEAREST, "nearest"), (FM.LINEAR, "linear")]:
        for am, am_name in [(AM.CLAMP_TO_EDGE, "clamp_to_edge"), (AM.REPEAT, "repeat"),
                            (AM.MIRRORED_REPEAT, "mirrored_repeat"), (AM.CLAMP, "clamp")]:
            smp = cl.Sampler(t.ctx, True, am, fm)
            c = cl.Buffer(t.ctx, mf.READ_ONLY | mf.COPY_HOST_PTR, hostbuf=vol_coords)
            out = cl.Buffer(t.ctx, mf.WRITE_ONLY, n_samples * 16)
            prg.r3(t.q, (n_samples,), None, img3, smp, c, out)
            r = np.empty((n_samples, 4), np.float32)
            cl.enqueue_copy(t.q, r, out)
            res[f"3d float normalized {am_name} {fm_name}"] = r
    out = cl.Buffer(t.ctx, mf.WRITE_ONLY, vol_pixels.nbytes)
    prg.r3i(t.q, vol, None, img3, out)
    r = np.empty_like(vol_pixels)
    cl.enqueue_copy(t.q, r, out)
    res["3d float integer coordinates"] = r

    img2a = cl.Image(t.ctx, mf.READ_ONLY | mf.COPY_HOST_PTR, cl.ImageFormat(CO.RGBA, CT.UNORM_INT8),
                     shape=arr, hostbuf=arr_pixels, is_array=True)
    for fm, fm_name in [(FM.NEAREST, "nearest"), (FM.LINEAR, "linear")]:
        smp = cl.Sampler(t.ctx, False, AM.CLAMP_TO_EDGE, fm)
        c = cl.Buffer(t.ctx, mf.READ_ONLY | mf.COPY_HOST_PTR, hostbuf=arr_coords)
        out = cl.Buffer(t.ctx, mf.WRITE_ONLY, n_samples * 16)
        prg.r2a(t.q, (n_samples,), None, img2a, smp, c, out)
        r = np.empty((n_samples, 4), np.float32)
        cl.enqueue_copy(t.q, r, out)
        res[f"2d array unorm8 unnormalized clamp_to_edge {fm_name}"] = r
    img2a_u = cl.Image(t.ctx, mf.READ_ONLY | mf.COPY_HOST_PTR,
                       cl.ImageFormat(CO.RGBA, CT.UNSIGNED_INT8), shape=arr, hostbuf=arr_pixels,
                       is_array=True)
    out = cl.Buffer(t.ctx, mf.WRITE_ONLY, arr_pixels.size * 4)
    prg.r2ai(t.q, arr, None, img2a_u, out)
    r = np.empty(arr_pixels.shape, np.uint32)
    cl.enqueue_copy(t.q, r, out)
    res["2d array uint8 integer coordinates"] = r

    img1a = cl.Image(t.ctx, mf.READ_ONLY | mf.COPY_HOST_PTR, cl.ImageFormat(CO.RGBA, CT.UNORM_INT8),
                     shape=arr1, hostbuf=arr1_pixels, is_array=True)
    for fm, fm_name in [(FM.NEAREST, "nearest"), (FM.LINEAR, "linear")]:
        smp = cl.Sampler(t.ctx, True, AM.REPEAT, fm)
        c = cl.Buffer(t.ctx, mf.READ_ONLY | mf.COPY_HOST_PTR, hostbuf=arr1_coords)
        out = cl.Buffer(t.ctx, mf.WRITE_ONLY, n_samples * 16)
        prg.r1a(t.q, (n_samples,), None, img1a, smp, c, out)
        r = np.empty((n_samples, 4), np.float32)
        cl.enqueue_copy(t.q, r, out)
        res[f"1d array unorm8 normalized repeat {fm_name}"] = r
    return res


ox_reads, po_reads = run_reads(OX), run_reads(PO)
for key in ox_reads:
    linear = "linear" in key
    if "unorm8" in key:
        atol, rtol = (2.0 / 255, 0.0) if linear else (0.0, 2.5e-7)
    elif "float" in key:
        atol, rtol = (1e-5, 1e-4) if linear else (0.0, 0.0)
    else:
        atol, rtol = 0.0, 0.0
    compare(key, ox_reads[key], po_reads[key], atol=atol, rtol=rtol)

print("\n".join(report))
if failures:
    print("FAIL\n" + "\n".join(failures))
    sys.exit(1)
print("images ok")
