__kernel void c11(__global atomic_int *counter, __global atomic_uint *mx, __local atomic_int *l, __global int *out, __global atomic_flag *flag, __global atomic_float *af)
{
    if (get_local_id(0) == 0) atomic_init(l, 0);
    work_group_barrier(CLK_LOCAL_MEM_FENCE);
    int old = atomic_fetch_add(counter, 1);
    atomic_fetch_max_explicit(mx, (uint)old, memory_order_relaxed);
    atomic_fetch_sub_explicit(l, 1, memory_order_acq_rel, memory_scope_work_group);
    int expected = 5;
    bool ok = atomic_compare_exchange_strong(counter, &expected, 10);
    atomic_store(counter, atomic_load(counter) + ok);
    int prev = atomic_exchange_explicit(counter, 3, memory_order_seq_cst, memory_scope_device);
    atomic_work_item_fence(CLK_GLOBAL_MEM_FENCE, memory_order_release, memory_scope_work_group);
    if (!atomic_flag_test_and_set(flag)) atomic_flag_clear(flag);
    atomic_store(af, 1.5f);
    out[get_global_id(0)] = prev + expected + (int)atomic_load(af);
}
