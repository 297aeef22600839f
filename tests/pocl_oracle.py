#!/usr/bin/python3
"""Runs one kernel on PoCL (through pyopencl and the ICD loader) for oxcl's corpus tests.

Usage: pocl_oracle.py SOURCE.cl KERNEL DIR
DIR/job.txt holds, one per line:
  global X[,Y[,Z]]
  local X[,Y[,Z]]            (optional)
  offset X[,Y[,Z]]           (optional)
  options BUILD OPTIONS      (optional)
  arg buffer PATH.npy | arg value HEXBYTES | arg local BYTES
After the run every buffer argument i is written to DIR/pocl_<i>.npy.
Exit status 3 means PoCL is not available (the caller skips).
"""
import sys

try:
    import numpy as np
    import pyopencl as cl
except ImportError as e:  # pragma: no cover
    print(f"pyopencl/numpy not available: {e}", file=sys.stderr)
    sys.exit(3)


def main():
    source_path, kernel_name, job_dir = sys.argv[1:4]
    glob, local, offset, options, args = None, None, None, "", []
    for line in open(f"{job_dir}/job.txt"):
        line = line.rstrip("\n")
        if not line:
            continue
        key, _, rest = line.partition(" ")
        if key == "global":
            glob = tuple(int(v) for v in rest.split(","))
        elif key == "local":
            local = tuple(int(v) for v in rest.split(","))
        elif key == "offset":
            offset = tuple(int(v) for v in rest.split(","))
        elif key == "options":
            options = rest
        elif key == "arg":
            kind, _, value = rest.partition(" ")
            args.append((kind, value))
    platforms = [p for p in cl.get_platforms() if "Portable Computing Language" in p.name]
    if not platforms:
        print("PoCL platform not found", file=sys.stderr)
        sys.exit(3)
    ctx = cl.Context(platforms[0].get_devices())
    queue = cl.CommandQueue(ctx)
    source = open(source_path).read()
    program = cl.Program(ctx, source).build(options=options.split())
    kernel = getattr(program, kernel_name)
    buffers = {}
    for i, (kind, value) in enumerate(args):
        if kind == "buffer":
            host = np.load(value)
            buf = cl.Buffer(ctx, cl.mem_flags.READ_WRITE | cl.mem_flags.COPY_HOST_PTR, hostbuf=host)
            buffers[i] = (buf, host)
            kernel.set_arg(i, buf)
        elif kind == "value":
            kernel.set_arg(i, bytes.fromhex(value))
        elif kind == "local":
            kernel.set_arg(i, cl.LocalMemory(int(value)))
        else:
            raise SystemExit(f"bad arg kind {kind}")
    cl.enqueue_nd_range_kernel(queue, kernel, glob, local, global_work_offset=offset)
    for i, (buf, host) in buffers.items():
        out = np.empty_like(host)
        cl.enqueue_copy(queue, out, buf)
        queue.finish()
        np.save(f"{job_dir}/pocl_{i}.npy", out)


main()
