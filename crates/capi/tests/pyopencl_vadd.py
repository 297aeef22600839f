"""pyopencl on oxcl: kernels built from source, run, and compared with numpy."""
import sys
import numpy as np
import pyopencl as cl
platforms = [p for p in cl.get_platforms() if p.name == "oxcl"]
if not platforms:
    print("FAIL no oxcl platform"); sys.exit(1)
dev = platforms[0].get_devices()[0]
ctx = cl.Context([dev])
q = cl.CommandQueue(ctx, properties=cl.command_queue_properties.PROFILING_ENABLE)
src = """
__kernel void vadd(__global const float *a, __global const float *b, __global float *c) {
    size_t i = get_global_id(0);
    c[i] = a[i] * 2.0f + b[i];
}
"""
prg = cl.Program(ctx, src).build()
n = 4096
rng = np.random.default_rng(7)
a = rng.standard_normal(n).astype(np.float32)
b = rng.standard_normal(n).astype(np.float32)
mf = cl.mem_flags
da = cl.Buffer(ctx, mf.READ_ONLY | mf.COPY_HOST_PTR, hostbuf=a)
db = cl.Buffer(ctx, mf.READ_ONLY | mf.COPY_HOST_PTR, hostbuf=b)
dc = cl.Buffer(ctx, mf.WRITE_ONLY, a.nbytes)
ev = prg.vadd(q, (n,), None, da, db, dc)
ev.wait()
c = np.empty_like(a)
cl.enqueue_copy(q, c, dc)
expected = a * np.float32(2.0) + b
assert np.array_equal(c, expected), (c[:4], expected[:4])
assert ev.profile.end >= ev.profile.start
import pyopencl.array as cla
x = cla.to_device(q, a)
y = (x + x).get()
assert np.array_equal(y, a + a)
# Generated kernels: a reduction (local memory, barriers) and a scan. The sum of 0..999 is
# exact in float32 whatever the order of additions.
total = cla.sum(cla.to_device(q, np.arange(1000, dtype=np.float32))).get()
assert total == 499500.0, total
ints = np.arange(10, dtype=np.int32)
assert np.array_equal(cla.cumsum(cla.to_device(q, ints)).get(), np.cumsum(ints))
# Fill and map.
buf = cl.Buffer(ctx, mf.READ_WRITE, 64)
cl.enqueue_fill_buffer(q, buf, np.uint32(7), 0, 64)
mapped, _ = cl.enqueue_map_buffer(q, buf, cl.map_flags.READ, 0, (16,), np.uint32)
assert (mapped == 7).all()
del mapped
print("pyopencl ok", dev.name)
