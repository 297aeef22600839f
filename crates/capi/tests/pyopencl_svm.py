"""Shared virtual memory on oxcl and on PoCL through pyopencl, results compared.

The same kernels run on both platforms: a linked list the host builds in coarse-grained SVM
(mapped for writing, then walked by a kernel), a kernel that links nodes so the host follows
the pointers it stored, atomics on a fine-grained SVM counter, and svm memcpy/fill. Each result
is checked against numpy (the expected values) and oxcl's against PoCL's; an out-of-range SVM
access on oxcl must raise a CL error, not crash. Prints "svm ok" at the end.
"""
import sys
import numpy as np
import pyopencl as cl

SMF = cl.svm_mem_flags

SRC = """
typedef struct node { long value; global struct node *next; } node;
kernel void walk(global node *head, global long *out) {
    long sum = 0;
    long hops = 0;
    for (global node *n = head; n; n = n->next) { sum += n->value; hops++; }
    out[2 * get_global_id(0)] = sum;
    out[2 * get_global_id(0) + 1] = hops;
}
kernel void link(global node *nodes, int n) {
    int i = get_global_id(0);
    nodes[i].value = (long)i * 7 - 3;
    nodes[i].next = i + 1 < n ? &nodes[(i + 1) % n] : 0;
}
kernel void count(global int *counter, global int *hist) {
    atomic_inc(counter);
    atomic_add(&hist[get_global_id(0) % 8], (int)get_global_id(0));
}
kernel void poke(global int *p, long index) { p[index] = 1; }
"""


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

failures = []


def check(label, cond, detail=""):
    if not cond:
        failures.append(f"{label}: {detail}")


def addr(ary):
    return ary.__array_interface__["data"][0]


def run(p):
    dev = p.get_devices()[0]
    ctx = cl.Context([dev])
    q = cl.CommandQueue(ctx)
    prg = cl.Program(ctx, SRC).build()
    caps = dev.svm_capabilities
    results = {"caps": caps}

    # The host builds a list in coarse-grained SVM: node i at words 2i, 2i+1.
    n = 12
    order = [5, 0, 11, 3, 8, 1, 9]
    nodes = cl.svm_empty(ctx, SMF.READ_WRITE, 2 * n, np.int64)
    base = addr(nodes)
    with cl.SVM(nodes).map_rw(q) as host:
        host[:] = 0
        for k, i in enumerate(order):
            host[2 * i] = 100 + i * i
            host[2 * i + 1] = base + 16 * order[k + 1] if k + 1 < len(order) else 0
    items = 4
    out = cl.svm_empty(ctx, SMF.READ_WRITE, 2 * items, np.int64)
    # Start at the head node: its address through a view of the allocation.
    prg.walk(q, (items,), None, cl.SVM(nodes[2 * order[0]:]), cl.SVM(out))
    with cl.SVM(out).map_ro(q) as host:
        results["walk"] = np.array(host).copy()

    # A kernel links nodes; the host follows the stored pointers.
    m = 20
    chain = cl.svm_empty(ctx, SMF.READ_WRITE | SMF.SVM_FINE_GRAIN_BUFFER, 2 * m, np.int64)
    chain[:] = -1
    prg.link(q, (m,), None, cl.SVM(chain), np.int32(m))
    q.finish()
    cbase = addr(chain)
    values = []
    at = cbase
    while at != 0 and len(values) <= m:
        check(f"{p.name} link pointer in range", cbase <= at < cbase + 16 * m, hex(at))
        if not (cbase <= at < cbase + 16 * m):
            break
        i = (at - cbase) // 16
        values.append(int(chain[2 * i]))
        at = int(chain[2 * i + 1]) & 0xFFFFFFFFFFFFFFFF
    results["link"] = np.array(values)

    # Atomics on fine-grained SVM.
    if caps & cl.device_svm_capabilities.ATOMICS:
        flags = SMF.READ_WRITE | SMF.SVM_FINE_GRAIN_BUFFER | SMF.SVM_ATOMICS
        counter = cl.svm_empty(ctx, flags, 1, np.int32)
        hist = cl.svm_empty(ctx, flags, 8, np.int32)
        counter[:] = 0
        hist[:] = 0
        prg.count(q, (4096,), (64,), cl.SVM(counter), cl.SVM(hist))
        q.finish()
        results["count"] = np.concatenate([np.array(counter), np.array(hist)])

    # svm memcpy and fill.
    src = cl.svm_empty(ctx, SMF.READ_WRITE | SMF.SVM_FINE_GRAIN_BUFFER, 64, np.int32)
    dst = cl.svm_empty(ctx, SMF.READ_WRITE | SMF.SVM_FINE_GRAIN_BUFFER, 64, np.int32)
    src[:] = np.arange(64, dtype=np.int32) * 3
    cl.enqueue_copy(q, cl.SVM(dst), cl.SVM(src))
    cl.enqueue_svm_memfill(q, cl.SVM(dst[32:]), np.int32(-7))
    q.finish()
    results["copy"] = np.array(dst).copy()

    # Out of range: a CL error, and the platform still works afterwards.
    if "oxcl" in p.name:
        small = cl.svm_empty(ctx, SMF.READ_WRITE | SMF.SVM_FINE_GRAIN_BUFFER, 4, np.int32)
        evt = prg.poke(q, (1,), None, cl.SVM(small), np.int64(1 << 20))
        try:
            evt.wait()
            failures.append("out-of-range SVM store did not fail")
        except cl.Error as e:
            results["oob"] = str(e)
        check("failed command status", evt.command_execution_status < 0,
              str(evt.command_execution_status))
        q2 = cl.CommandQueue(ctx)
        small[:] = 0
        prg.poke(q2, (1,), None, cl.SVM(small), np.int64(2))
        q2.finish()
        check("in-range store after a fault", list(small) == [0, 0, 1, 0], str(list(small)))
    return results


ox = run(ox_p)
po = run(pocl_p)

# Expected values, computed here.
order = [5, 0, 11, 3, 8, 1, 9]
walk_expected = np.array([sum(100 + i * i for i in order), len(order)] * 4, dtype=np.int64)
link_expected = np.array([i * 7 - 3 for i in range(20)], dtype=np.int64)
count_expected = np.concatenate(
    [[4096], [sum(g for g in range(4096) if g % 8 == b) for b in range(8)]]
).astype(np.int32)
copy_expected = np.concatenate([np.arange(32) * 3, np.full(32, -7)]).astype(np.int32)

# oxcl also has fine-grained system SVM (CL_DEVICE_SVM_FINE_GRAIN_SYSTEM = 4), which PoCL lacks.
check("oxcl SVM capabilities include PoCL's", ox["caps"] & po["caps"] == po["caps"],
      f"{ox['caps']} vs {po['caps']}")
for name, expected in [("walk", walk_expected), ("link", link_expected), ("copy", copy_expected),
                       ("count", count_expected)]:
    if name not in po:
        check(f"{name} on oxcl", name not in ox or np.array_equal(ox[name], expected), str(ox.get(name)))
        continue
    check(f"{name} on PoCL matches the expected values", np.array_equal(po[name], expected),
          f"{po[name]} vs {expected}")
    check(f"{name} on oxcl matches PoCL", np.array_equal(ox[name], po[name]),
          f"{ox[name]} vs {po[name]}")
check("out-of-range SVM store raised a CL error", "oob" in ox, "")
if "oob" in ox:
    print("out-of-range store:", ox["oob"].splitlines()[0] if ox["oob"] else "")

if failures:
    for f in failures:
        print("FAIL", f)
    sys.exit(1)
print("svm ok: walk, link, count, copy equal on oxcl and PoCL")
