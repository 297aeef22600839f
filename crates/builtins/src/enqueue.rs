//! The device-side enqueue built-ins (OpenCL C 2.0 §6.13.17; 3.0 §6.15.16 with
//! `__opencl_c_device_enqueue`): every overload as the spec writes its prototype. Their
//! parameters are opaque types and Blocks rather than [`crate::Ty`]s, so they are spelled
//! here as OpenCL C; the compiler lowers them by name (`clc::emit::enqueue`) and tests walk
//! this list.

/// One overload.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct EnqueueOverload {
    pub name: &'static str,
    pub ret: &'static str,
    /// Parameter types as OpenCL C spells them; a Block is `void (^)(void)` or
    /// `void (^)(local void *, ...)` (any number of `local void *` parameters).
    pub params: &'static [&'static str],
    /// Followed by `uint size0, …`: one local memory size per `local void *` Block parameter.
    pub local_sizes: bool,
    /// Needs sub-groups (`cl_khr_subgroups` or `__opencl_c_subgroups`).
    pub subgroups: bool,
}

const fn o(
    name: &'static str,
    ret: &'static str,
    params: &'static [&'static str],
) -> EnqueueOverload {
    EnqueueOverload {
        name,
        ret,
        params,
        local_sizes: false,
        subgroups: false,
    }
}

const BLOCK: &str = "void (^)(void)";
const LOCAL_BLOCK: &str = "void (^)(local void *, ...)";
const EVENTS: [&str; 3] = ["uint", "const clk_event_t *", "clk_event_t *"];

/// Every overload of the device-side enqueue built-ins.
pub const DEVICE_ENQUEUE: &[EnqueueOverload] = &[
    // §6.13.17.1 (3.0 §6.15.16.1): enqueue_kernel, four forms.
    o(
        "enqueue_kernel",
        "int",
        &[
            "queue_t",
            "kernel_enqueue_flags_t",
            "const ndrange_t",
            BLOCK,
        ],
    ),
    o(
        "enqueue_kernel",
        "int",
        &[
            "queue_t",
            "kernel_enqueue_flags_t",
            "const ndrange_t",
            EVENTS[0],
            EVENTS[1],
            EVENTS[2],
            BLOCK,
        ],
    ),
    EnqueueOverload {
        local_sizes: true,
        ..o(
            "enqueue_kernel",
            "int",
            &[
                "queue_t",
                "kernel_enqueue_flags_t",
                "const ndrange_t",
                LOCAL_BLOCK,
            ],
        )
    },
    EnqueueOverload {
        local_sizes: true,
        ..o(
            "enqueue_kernel",
            "int",
            &[
                "queue_t",
                "kernel_enqueue_flags_t",
                "const ndrange_t",
                EVENTS[0],
                EVENTS[1],
                EVENTS[2],
                LOCAL_BLOCK,
            ],
        )
    },
    // §6.13.17.6: kernel queries.
    o("get_kernel_work_group_size", "uint", &[BLOCK]),
    o("get_kernel_work_group_size", "uint", &[LOCAL_BLOCK]),
    o(
        "get_kernel_preferred_work_group_size_multiple",
        "uint",
        &[BLOCK],
    ),
    o(
        "get_kernel_preferred_work_group_size_multiple",
        "uint",
        &[LOCAL_BLOCK],
    ),
    EnqueueOverload {
        subgroups: true,
        ..o(
            "get_kernel_sub_group_count_for_ndrange",
            "uint",
            &["const ndrange_t", BLOCK],
        )
    },
    EnqueueOverload {
        subgroups: true,
        ..o(
            "get_kernel_sub_group_count_for_ndrange",
            "uint",
            &["const ndrange_t", LOCAL_BLOCK],
        )
    },
    EnqueueOverload {
        subgroups: true,
        ..o(
            "get_kernel_max_sub_group_size_for_ndrange",
            "uint",
            &["const ndrange_t", BLOCK],
        )
    },
    EnqueueOverload {
        subgroups: true,
        ..o(
            "get_kernel_max_sub_group_size_for_ndrange",
            "uint",
            &["const ndrange_t", LOCAL_BLOCK],
        )
    },
    // §6.13.17.3: markers.
    o(
        "enqueue_marker",
        "int",
        &["queue_t", EVENTS[0], EVENTS[1], EVENTS[2]],
    ),
    // §6.13.17.4: events.
    o("retain_event", "void", &["clk_event_t"]),
    o("release_event", "void", &["clk_event_t"]),
    o("create_user_event", "clk_event_t", &[]),
    o("is_valid_event", "bool", &["clk_event_t"]),
    o("set_user_event_status", "void", &["clk_event_t", "int"]),
    o(
        "capture_event_profiling_info",
        "void",
        &["clk_event_t", "clk_profiling_info", "global void *"],
    ),
    // §6.13.17.5: queues.
    o("get_default_queue", "queue_t", &[]),
    // §6.13.17.1: ndrange_t.
    o("ndrange_1D", "ndrange_t", &["size_t"]),
    o("ndrange_1D", "ndrange_t", &["size_t", "size_t"]),
    o("ndrange_1D", "ndrange_t", &["size_t", "size_t", "size_t"]),
    o("ndrange_2D", "ndrange_t", &["const size_t[2]"]),
    o(
        "ndrange_2D",
        "ndrange_t",
        &["const size_t[2]", "const size_t[2]"],
    ),
    o(
        "ndrange_2D",
        "ndrange_t",
        &["const size_t[2]", "const size_t[2]", "const size_t[2]"],
    ),
    o("ndrange_3D", "ndrange_t", &["const size_t[3]"]),
    o(
        "ndrange_3D",
        "ndrange_t",
        &["const size_t[3]", "const size_t[3]"],
    ),
    o(
        "ndrange_3D",
        "ndrange_t",
        &["const size_t[3]", "const size_t[3]", "const size_t[3]"],
    ),
];

/// Whether `name` is a device-side enqueue built-in.
pub fn is_device_enqueue(name: &str) -> bool {
    DEVICE_ENQUEUE.iter().any(|o| o.name == name)
}
