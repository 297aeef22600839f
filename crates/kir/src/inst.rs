//! Instructions: `InstData` and the operation enums it uses.
//!
//! Every instruction has at most one result, whose type is recorded in the data-flow graph
//! (`DataFlowGraph::value_type`). Operations on vectors are component-wise unless stated. Each op
//! enum has a `name()` that is its text syntax and a `from_name` that reads it back.

use crate::{Block, BuiltinFn, FuncRef, GlobalRef, Type, Value};

/// Defines an enum of unit variants with a text name for each.
macro_rules! named_enum {
    ($(#[$doc:meta])* $name:ident { $($(#[$vdoc:meta])* $variant:ident = $text:literal,)* }) => {
        $(#[$doc])*
        #[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
        pub enum $name {
            $($(#[$vdoc])* $variant,)*
        }

        impl $name {
            /// All variants.
            pub const ALL: &'static [$name] = &[$($name::$variant,)*];

            /// The text syntax of this variant.
            pub fn name(self) -> &'static str {
                match self {
                    $($name::$variant => $text,)*
                }
            }

            /// The variant whose text syntax is `text`.
            pub fn from_name(text: &str) -> Option<Self> {
                match text {
                    $($text => Some($name::$variant),)*
                    _ => None,
                }
            }
        }

        impl std::fmt::Display for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(self.name())
            }
        }
    };
}

named_enum!(
    /// One-operand operations; the result has the operand's type.
    UnaryOp {
        /// Two's-complement negation (OpSNegate).
        INeg = "ineg",
        /// Bitwise complement of integers; logical not of bools (OpNot, OpLogicalNot).
        Not = "not",
        /// Float negation: flips the sign bit, NaNs included (OpFNegate).
        FNeg = "fneg",
        /// Number of set bits per component (OpBitCount).
        BitCount = "bitcount",
        /// Bit order reversed per component (OpBitReverse).
        BitReverse = "bitreverse",
    }
);

named_enum!(
    /// Two-operand arithmetic and bitwise operations. Both operands and the result have one type,
    /// except shifts, whose amount may be any integer type with the same lane count. Shift amounts
    /// are taken as given: SPIR-V leaves amounts ≥ width undefined and the compiler masks them
    /// (OpenCL C 6.3.j), so engines may do anything deterministic. Integer division by zero is
    /// undefined too and must not trap: engines return a deterministic value.
    BinaryOp {
        IAdd = "iadd",
        ISub = "isub",
        IMul = "imul",
        UDiv = "udiv",
        SDiv = "sdiv",
        URem = "urem",
        /// Remainder with the sign of the dividend (OpSRem).
        SRem = "srem",
        /// Remainder with the sign of the divisor (OpSMod).
        SMod = "smod",
        FAdd = "fadd",
        FSub = "fsub",
        FMul = "fmul",
        FDiv = "fdiv",
        /// Remainder with the sign of the dividend (OpFRem, C `fmod`).
        FRem = "frem",
        /// Remainder with the sign of the divisor (OpFMod).
        FMod = "fmod",
        Shl = "shl",
        LShr = "lshr",
        AShr = "ashr",
        /// Bitwise and of integers; logical and of bools.
        And = "and",
        /// Bitwise or of integers; logical or of bools.
        Or = "or",
        /// Bitwise xor of integers; logical inequality of bools.
        Xor = "xor",
    }
);

named_enum!(
    /// Comparisons; the result is `bool` or a bool vector with the operands' lane count.
    /// `FOrd*` are false when either operand is NaN, `FUnord*` true.
    CmpOp {
        IEq = "ieq",
        INe = "ine",
        ULt = "ult",
        ULe = "ule",
        UGt = "ugt",
        UGe = "uge",
        SLt = "slt",
        SLe = "sle",
        SGt = "sgt",
        SGe = "sge",
        FOrdEq = "foeq",
        FOrdNe = "fone",
        FOrdLt = "folt",
        FOrdLe = "fole",
        FOrdGt = "fogt",
        FOrdGe = "foge",
        FUnordEq = "fueq",
        FUnordNe = "fune",
        FUnordLt = "fult",
        FUnordLe = "fule",
        FUnordGt = "fugt",
        FUnordGe = "fuge",
        /// Both operands NaN-free (OpOrdered).
        FOrd = "ford",
        /// Either operand NaN (OpUnordered).
        FUnord = "funord",
        LogicalEq = "leq",
        LogicalNe = "lne",
    }
);

named_enum!(
    /// Float classification; the result is `bool` or a bool vector (OpIsNan …, OpSignBitSet).
    TestOp {
        IsNan = "isnan",
        IsInf = "isinf",
        IsFinite = "isfinite",
        IsNormal = "isnormal",
        SignBitSet = "signbitset",
    }
);

named_enum!(
    /// Reductions of a bool vector to one bool (OpAny, OpAll).
    ReduceOp {
        Any = "any",
        All = "all",
    }
);

named_enum!(
    /// Conversions; the result type is the target type, lane counts agree.
    ConvertOp {
        /// Signed integer to float (OpConvertSToF).
        SToF = "stof",
        /// Unsigned integer to float (OpConvertUToF).
        UToF = "utof",
        /// Float to signed integer (OpConvertFToS); rounds toward zero unless `rounding` says.
        FToS = "ftos",
        /// Float to unsigned integer (OpConvertFToU).
        FToU = "ftou",
        /// Float to float of another width (OpFConvert).
        FConvert = "fconvert",
        /// Signed integer widening or narrowing (OpSConvert); with `saturate`, clamps.
        SConvert = "sconvert",
        /// Unsigned integer widening or narrowing (OpUConvert); with `saturate`, clamps.
        UConvert = "uconvert",
        /// Signed integer to unsigned integer of any width: with `saturate` clamps to the
        /// unsigned range (OpSatConvertSToU), otherwise keeps the low bits of the sign-extended value.
        SToU = "stou",
        /// Unsigned integer to signed integer of any width: with `saturate` clamps to the signed
        /// range (OpSatConvertUToS), otherwise keeps the low bits of the zero-extended value.
        UToS = "utos",
        /// Reinterpret the bits: same total size (OpBitcast).
        Bitcast = "bitcast",
        /// Pointer to integer (OpConvertPtrToU).
        PtrToInt = "ptrtoint",
        /// Integer to pointer (OpConvertUToPtr).
        IntToPtr = "inttoptr",
        /// Pointer to another address space (OpPtrCastToGeneric, OpGenericCastToPtr).
        PtrCast = "ptrcast",
        /// Generic pointer to a named space, null if it does not point there
        /// (OpGenericCastToPtrExplicit).
        PtrCastChecked = "ptrcastchecked",
    }
);

named_enum!(
    /// Rounding modes of conversions (SPIR-V FPRoundingMode).
    Rounding {
        /// Round to nearest even.
        Rte = "rte",
        /// Round toward zero.
        Rtz = "rtz",
        /// Round toward positive infinity.
        Rtp = "rtp",
        /// Round toward negative infinity.
        Rtn = "rtn",
    }
);

named_enum!(
    /// Work-item queries (OpenCL C 6.15.1 / SPIR-V BuiltIn variables).
    WorkItemQuery {
        GlobalId = "global_id",
        LocalId = "local_id",
        GroupId = "group_id",
        GlobalSize = "global_size",
        LocalSize = "local_size",
        EnqueuedLocalSize = "enqueued_local_size",
        NumGroups = "num_groups",
        GlobalOffset = "global_offset",
        WorkDim = "work_dim",
        GlobalLinearId = "global_linear_id",
        LocalLinearId = "local_linear_id",
        SubgroupSize = "subgroup_size",
        SubgroupMaxSize = "subgroup_max_size",
        NumSubgroups = "num_subgroups",
        EnqueuedNumSubgroups = "enqueued_num_subgroups",
        SubgroupId = "subgroup_id",
        SubgroupLocalId = "subgroup_local_id",
    }
);

named_enum!(
    /// Memory and execution scopes (SPIR-V Scope).
    Scope {
        CrossDevice = "cross_device",
        Device = "device",
        Workgroup = "workgroup",
        Subgroup = "subgroup",
        Invocation = "invocation",
    }
);

named_enum!(
    /// Image operations (OpenCL C 6.13.14; env §9). An image operand is the image's handle (a
    /// pointer-sized integer the engine binds to an image argument), a sampler its 32-bit
    /// encoded value (`ArgKind::Sampler`), coordinates an int or float scalar or vector.
    ImageOp {
        /// `vN = image.T read(img, coord)` / `read(img, coord, lod)`: a sampler-less read
        /// (env §9.7; OpImageRead, OpImageFetch); `lod` an integer mip level. `T` is a 4-vector
        /// of f32, f16 or i32, or f32 (depth images).
        Read = "read",
        /// `vN = image.T sample(img, sampler, coord, lod)`: a sampled read with an explicit float
        /// level of detail (OpImageSampleExplicitLod).
        Sample = "sample",
        /// `image write(img, coord, texel)` / `write(img, coord, texel, lod)` (OpImageWrite).
        Write = "write",
        /// `vN = image.T size(img)` / `size(img, lod)`: width, height, depth, then layers, as
        /// many as `T` has lanes (OpImageQuerySize, OpImageQuerySizeLod).
        Size = "size",
        /// Mip levels (OpImageQueryLevels).
        Levels = "levels",
        /// Samples: 1 (OpImageQuerySamples).
        Samples = "samples",
        /// The SPIR-V Image Channel Data Type (env 2.6; OpImageQueryFormat).
        Format = "format",
        /// The SPIR-V Image Channel Order (env 2.5; OpImageQueryOrder).
        Order = "order",
    }
);

impl ImageOp {
    /// Operand counts (least, most).
    pub fn arity(self) -> (usize, usize) {
        match self {
            ImageOp::Read => (2, 3),
            ImageOp::Sample => (4, 4),
            ImageOp::Write => (3, 4),
            ImageOp::Size => (1, 2),
            _ => (1, 1),
        }
    }
}

impl Scope {
    /// The SPIR-V Scope enumerant value.
    pub fn from_spirv(value: u32) -> Option<Scope> {
        match value {
            0 => Some(Scope::CrossDevice),
            1 => Some(Scope::Device),
            2 => Some(Scope::Workgroup),
            3 => Some(Scope::Subgroup),
            4 => Some(Scope::Invocation),
            _ => None,
        }
    }
}

named_enum!(
    /// Atomic read-modify-write operations (SPIR-V OpAtomic*). `args` of `InstData::Atomic`:
    /// none for Load/IIncrement/IDecrement/FlagTestAndSet/FlagClear, `[value]` for Store and the
    /// binary ops, `[value, comparator]` for CmpXchg (OpAtomicCompareExchange).
    AtomicOp {
        Load = "load",
        Store = "store",
        Exchange = "xchg",
        CmpXchg = "cmpxchg",
        IIncrement = "iinc",
        IDecrement = "idec",
        IAdd = "iadd",
        ISub = "isub",
        SMin = "smin",
        UMin = "umin",
        SMax = "smax",
        UMax = "umax",
        And = "and",
        Or = "or",
        Xor = "xor",
        FAdd = "fadd",
        FMin = "fmin",
        FMax = "fmax",
        FlagTestAndSet = "flag_test_and_set",
        FlagClear = "flag_clear",
    }
);

named_enum!(
    /// Pipe operations (SPIR-V 3.42.23 pipe instructions; OpenCL C 6.13.16). `pipe` is the pipe
    /// memory object (a `ptr_global`, laid out as `exec::pipe` says); `size` and `align` are the
    /// packet size and alignment (i32). `args` of `InstData::Pipe`, and result:
    /// - `read`/`write`: `[pipe, ptr, size, align]` → i32 (0 on success, negative otherwise);
    /// - `reserved_read`/`reserved_write`: `[pipe, reserve_id, index, ptr, size, align]` → i32;
    /// - `reserve_read`/`reserve_write`: `[pipe, num_packets, size, align]` → a reserve id (an
    ///   integer, 0 when the reservation failed);
    /// - `commit_read`/`commit_write`: `[pipe, reserve_id, size, align]`, no result;
    /// - `num_packets`/`max_packets`: `[pipe, size, align]` → i32.
    PipeOp {
        Read = "read",
        Write = "write",
        ReservedRead = "reserved_read",
        ReservedWrite = "reserved_write",
        ReserveRead = "reserve_read",
        ReserveWrite = "reserve_write",
        CommitRead = "commit_read",
        CommitWrite = "commit_write",
        NumPackets = "num_packets",
        MaxPackets = "max_packets",
    }
);

impl PipeOp {
    /// How many value operands the operation takes.
    pub fn arg_count(self) -> usize {
        match self {
            PipeOp::Read | PipeOp::Write => 4,
            PipeOp::ReservedRead | PipeOp::ReservedWrite => 6,
            PipeOp::ReserveRead
            | PipeOp::ReserveWrite
            | PipeOp::CommitRead
            | PipeOp::CommitWrite => 4,
            PipeOp::NumPackets | PipeOp::MaxPackets => 3,
        }
    }

    /// Whether the operation has a result.
    pub fn has_result(self) -> bool {
        !matches!(self, PipeOp::CommitRead | PipeOp::CommitWrite)
    }
}

named_enum!(
    /// Device-side enqueue operations (SPIR-V 3.42.22 device-side enqueue instructions; OpenCL
    /// C 2.0 §6.13.17). Queues and events are pointer-sized integer handles (`CLK_NULL_QUEUE` is
    /// 0, `CLK_NULL_EVENT` all ones); `nd` is a pointer to an `ndrange_t` (OpBuildNDRange's
    /// layout: `u32 dim`, then `size_t offset[3], global[3], local[3]`); `events` a pointer to
    /// `num` event handles. `args` of `InstData::Enqueue`, and result:
    /// - `kernel`: `[queue, flags, nd, num, events, event_ret, param, param_size, param_align,
    ///   local_size...]` → i32 (`CLK_SUCCESS` or an error code); `invoke` is the block's invoke
    ///   function (first parameter the block literal, then one `__local` pointer per local size);
    /// - `marker`: `[queue, num, events, event_ret]` → i32;
    /// - `default_queue`, `create_user_event`: `[]` → handle;
    /// - `retain`, `release`: `[event]`; `set_status`: `[event, status]`;
    /// - `is_valid`: `[event]` → i32 (0 or 1);
    /// - `capture_profiling`: `[event, name, ptr]`;
    /// - `work_group_size`, `preferred_multiple`: `[]` → i32 (the `invoke`'s limits);
    /// - `subgroup_count`, `max_subgroup_size`: `[nd]` → i32.
    EnqueueOp {
        Kernel = "kernel",
        Marker = "marker",
        DefaultQueue = "default_queue",
        CreateUserEvent = "create_user_event",
        Retain = "retain",
        Release = "release",
        IsValid = "is_valid",
        SetStatus = "set_status",
        CaptureProfiling = "capture_profiling",
        WorkGroupSize = "work_group_size",
        PreferredMultiple = "preferred_multiple",
        SubgroupCount = "subgroup_count",
        MaxSubgroupSize = "max_subgroup_size",
    }
);

impl EnqueueOp {
    /// How many value operands the operation takes (`kernel`: at least this many).
    pub fn arg_count(self) -> usize {
        match self {
            EnqueueOp::Kernel => 9,
            EnqueueOp::Marker => 4,
            EnqueueOp::DefaultQueue
            | EnqueueOp::CreateUserEvent
            | EnqueueOp::WorkGroupSize
            | EnqueueOp::PreferredMultiple => 0,
            EnqueueOp::Retain
            | EnqueueOp::Release
            | EnqueueOp::IsValid
            | EnqueueOp::SubgroupCount
            | EnqueueOp::MaxSubgroupSize => 1,
            EnqueueOp::SetStatus => 2,
            EnqueueOp::CaptureProfiling => 3,
        }
    }

    /// Whether the operation names an invoke function.
    pub fn has_invoke(self) -> bool {
        matches!(
            self,
            EnqueueOp::Kernel
                | EnqueueOp::WorkGroupSize
                | EnqueueOp::PreferredMultiple
                | EnqueueOp::SubgroupCount
                | EnqueueOp::MaxSubgroupSize
        )
    }

    /// Whether the operation has a result.
    pub fn has_result(self) -> bool {
        !matches!(
            self,
            EnqueueOp::Retain
                | EnqueueOp::Release
                | EnqueueOp::SetStatus
                | EnqueueOp::CaptureProfiling
        )
    }
}

/// SPIR-V MemorySemantics bits (kept as the raw mask).
pub type MemorySemantics = u32;

/// A branch target with the arguments passed to its block parameters.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct BlockCall {
    pub block: Block,
    pub args: Vec<Value>,
}

impl BlockCall {
    pub fn new(block: Block, args: Vec<Value>) -> BlockCall {
        BlockCall { block, args }
    }
}

impl From<Block> for BlockCall {
    fn from(block: Block) -> BlockCall {
        BlockCall {
            block,
            args: Vec::new(),
        }
    }
}

/// The data of one instruction. The comment on each variant gives its text syntax; `.T` is the
/// result type, printed for every instruction with a result.
#[derive(Clone, PartialEq, Debug)]
pub enum InstData {
    /// `vN = const.T lit`: little-endian bytes of a value of the result type (scalars, vectors,
    /// pointers (only null, all zero) and aggregates). `bytes.len()` is the type's size.
    Const { bytes: Vec<u8> },
    /// `vN = ineg.T v1`
    Unary { op: UnaryOp, arg: Value },
    /// `vN = iadd.T v1, v2`
    Binary { op: BinaryOp, a: Value, b: Value },
    /// `vN = cmp.boolxN slt v1, v2`
    Cmp { op: CmpOp, a: Value, b: Value },
    /// `vN = test.bool isnan v1`
    Test { op: TestOp, arg: Value },
    /// `vN = reduce.bool any v1`
    Reduce { op: ReduceOp, arg: Value },
    /// `vN = select.T c, a, b`: `c` is a bool (whole-value choice) or a bool vector with the lane
    /// count of `a` (per-lane choice).
    Select { cond: Value, a: Value, b: Value },
    /// `vN = ftos.i32 [rte] [sat] v1`
    Convert {
        op: ConvertOp,
        arg: Value,
        rounding: Option<Rounding>,
        saturate: bool,
    },
    /// `vN = load.T v1 align 4`: reads a value of the result type.
    Load { ptr: Value, align: u32 },
    /// `store v_ptr, v_value align 4`
    Store {
        ptr: Value,
        value: Value,
        align: u32,
    },
    /// `vN = ptradd.ptr_global v_ptr, v_offset`: adds a signed byte offset (an integer of any width,
    /// sign-extended).
    PtrAdd { ptr: Value, offset: Value },
    /// `vN = stackalloc.ptr_private 16 align 8`: fresh private memory of the calling work-item,
    /// live until the function returns; contents undefined (engines zero it).
    StackAlloc { size: u32, align: u32 },
    /// `vN = globaladdr.ptr_global g0`: the address of a module-scope variable.
    GlobalAddr { global: GlobalRef },
    /// `memcpy v_dst, v_src, v_size`: copies `size` bytes (an integer value); regions must not
    /// overlap.
    Memcpy { dst: Value, src: Value, size: Value },
    /// `memset v_dst, v_byte, v_size`: fills `size` bytes with the low byte of `byte` (an i8).
    Memset {
        dst: Value,
        byte: Value,
        size: Value,
    },
    /// `vN = extractlane.T v1, 2`
    ExtractLane { vec: Value, lane: u8 },
    /// `vN = insertlane.T v1, 2, v2`
    InsertLane { vec: Value, lane: u8, value: Value },
    /// `vN = extractlanedyn.T v1, v2`: index out of range gives an undefined (deterministic) value.
    ExtractLaneDyn { vec: Value, index: Value },
    /// `vN = insertlanedyn.T v1, v2, v3`: index out of range leaves the vector as is.
    InsertLaneDyn {
        vec: Value,
        index: Value,
        value: Value,
    },
    /// `vN = shuffle.T v1, v2, [0, 5, undef]`: lane `i` of the result is lane `mask[i]` of
    /// `a ++ b`; `u32::MAX` (printed `undef`) is an undefined lane.
    Shuffle { a: Value, b: Value, mask: Vec<u32> },
    /// `vN = splat.T v1`: a vector with every lane `v1`.
    Splat { value: Value },
    /// `vN = extractbytes.T v_agg, 8`: the value of the result type stored at byte `offset`.
    ExtractBytes { agg: Value, offset: u32 },
    /// `vN = insertbytes.T v_agg, 8, v_value`: `agg` with the bytes at `offset` replaced.
    InsertBytes {
        agg: Value,
        offset: u32,
        value: Value,
    },
    /// `vN = workitem.i64 global_id 0`: a work-item query; `dim` ≥ work_dim gives the spec's
    /// out-of-range value (0 for ids, 1 for sizes). The result is i32 or i64.
    WorkItem { query: WorkItemQuery, dim: u8 },
    /// `vN = workitemdyn.i64 global_id v1`: a query whose dimension is a run-time value.
    WorkItemDyn { query: WorkItemQuery, dim: Value },
    /// `vN = call.T fn1(v1, v2)` or `call fn1(v1)`.
    Call { func: FuncRef, args: Vec<Value> },
    /// `vN = builtin.T sqrt(v1)`: a device-library function; `.T` says which overload.
    Builtin { func: BuiltinFn, args: Vec<Value> },
    /// `vN = image.T read(v1, v2)`: an image operation ([`ImageOp`] lists the operands).
    Image { op: ImageOp, args: Vec<Value> },
    /// `barrier workgroup, workgroup, 0x110`: execution scope, memory scope, semantics.
    Barrier {
        exec_scope: Scope,
        mem_scope: Scope,
        semantics: MemorySemantics,
    },
    /// `namedbarrier workgroup, 0x110 v1`: waits at the named barrier `barrier` (an i64 handle:
    /// the work-item's sequence number of the barrier's initialization in the high 32 bits,
    /// its sub-group count in the low 32; SPIR-V `OpMemoryNamedBarrier`), then orders memory
    /// as a fence of `mem_scope` and `semantics` would.
    NamedBarrier {
        barrier: Value,
        mem_scope: Scope,
        semantics: MemorySemantics,
    },
    /// `fence workgroup, 0x110`
    Fence {
        scope: Scope,
        semantics: MemorySemantics,
    },
    /// `vN = atomic.T iadd device 0x0 v_ptr, v_value` (`cmpxchg` prints two semantics:
    /// `cmpxchg device 0x0 0x0 v_ptr, v_value, v_comparator`). `ty` is the memory type; the result
    /// has type `ty` except `flag_test_and_set` (bool); `store` and `flag_clear` have no result.
    Atomic {
        op: AtomicOp,
        ty: Type,
        ptr: Value,
        scope: Scope,
        semantics: MemorySemantics,
        semantics_unequal: MemorySemantics,
        args: Vec<Value>,
    },
    /// `vN = pipe.i32 read(v_pipe, v_ptr, v_size, v_align)` (see [`PipeOp`] for the operands of
    /// each operation; `commit_*` have no result).
    Pipe { op: PipeOp, args: Vec<Value> },
    /// `vN = enqueue.i32 kernel fn3(v_queue, …)` (see [`EnqueueOp`]; `invoke` is set exactly
    /// for the operations that name one).
    Enqueue {
        op: EnqueueOp,
        invoke: Option<FuncRef>,
        args: Vec<Value>,
    },
    /// `jump block2(v1, v2)` (terminator)
    Jump { dest: BlockCall },
    /// `brif v4, block2(v5), block3` (terminator)
    Brif {
        cond: Value,
        then_dest: BlockCall,
        else_dest: BlockCall,
    },
    /// `switch v1, block9, [1: block2, 5: block3(v7)]` (terminator): case values compare with
    /// the selector's bits (zero-extended).
    Switch {
        value: Value,
        default: BlockCall,
        cases: Vec<(u64, BlockCall)>,
    },
    /// `return` / `return v1` (terminator)
    Return { value: Option<Value> },
    /// `unreachable` (terminator)
    Unreachable,
}

impl InstData {
    /// Whether this instruction ends a block.
    pub fn is_terminator(&self) -> bool {
        matches!(
            self,
            InstData::Jump { .. }
                | InstData::Brif { .. }
                | InstData::Switch { .. }
                | InstData::Return { .. }
                | InstData::Unreachable
        )
    }

    /// The text name of the instruction's opcode (`iadd`, `load`, `brif`).
    pub fn opcode_name(&self) -> &'static str {
        match self {
            InstData::Const { .. } => "const",
            InstData::Unary { op, .. } => op.name(),
            InstData::Binary { op, .. } => op.name(),
            InstData::Cmp { .. } => "cmp",
            InstData::Test { .. } => "test",
            InstData::Reduce { .. } => "reduce",
            InstData::Select { .. } => "select",
            InstData::Convert { op, .. } => op.name(),
            InstData::Load { .. } => "load",
            InstData::Store { .. } => "store",
            InstData::PtrAdd { .. } => "ptradd",
            InstData::StackAlloc { .. } => "stackalloc",
            InstData::GlobalAddr { .. } => "globaladdr",
            InstData::Memcpy { .. } => "memcpy",
            InstData::Memset { .. } => "memset",
            InstData::ExtractLane { .. } => "extractlane",
            InstData::InsertLane { .. } => "insertlane",
            InstData::ExtractLaneDyn { .. } => "extractlanedyn",
            InstData::InsertLaneDyn { .. } => "insertlanedyn",
            InstData::Shuffle { .. } => "shuffle",
            InstData::Splat { .. } => "splat",
            InstData::ExtractBytes { .. } => "extractbytes",
            InstData::InsertBytes { .. } => "insertbytes",
            InstData::WorkItem { .. } => "workitem",
            InstData::WorkItemDyn { .. } => "workitemdyn",
            InstData::Call { .. } => "call",
            InstData::Builtin { .. } => "builtin",
            InstData::Image { .. } => "image",
            InstData::Barrier { .. } => "barrier",
            InstData::NamedBarrier { .. } => "namedbarrier",
            InstData::Fence { .. } => "fence",
            InstData::Atomic { .. } => "atomic",
            InstData::Pipe { .. } => "pipe",
            InstData::Enqueue { .. } => "enqueue",
            InstData::Jump { .. } => "jump",
            InstData::Brif { .. } => "brif",
            InstData::Switch { .. } => "switch",
            InstData::Return { .. } => "return",
            InstData::Unreachable => "unreachable",
        }
    }

    /// Every value operand, in text order (branch arguments included).
    pub fn operands(&self) -> Vec<Value> {
        let mut out = Vec::new();
        self.for_each_operand(|v| out.push(v));
        out
    }

    /// Calls `f` on every value operand, in text order.
    pub fn for_each_operand(&self, mut f: impl FnMut(Value)) {
        match self {
            InstData::Const { .. }
            | InstData::StackAlloc { .. }
            | InstData::GlobalAddr { .. }
            | InstData::WorkItem { .. }
            | InstData::Barrier { .. }
            | InstData::Fence { .. }
            | InstData::Unreachable => {}
            InstData::Unary { arg, .. }
            | InstData::Test { arg, .. }
            | InstData::Reduce { arg, .. }
            | InstData::Convert { arg, .. } => f(*arg),
            InstData::Binary { a, b, .. }
            | InstData::Cmp { a, b, .. }
            | InstData::Shuffle { a, b, .. } => {
                f(*a);
                f(*b);
            }
            InstData::Select { cond, a, b } => {
                f(*cond);
                f(*a);
                f(*b);
            }
            InstData::Load { ptr, .. } => f(*ptr),
            InstData::Store { ptr, value, .. } => {
                f(*ptr);
                f(*value);
            }
            InstData::PtrAdd { ptr, offset } => {
                f(*ptr);
                f(*offset);
            }
            InstData::Memcpy { dst, src, size } => {
                f(*dst);
                f(*src);
                f(*size);
            }
            InstData::Memset { dst, byte, size } => {
                f(*dst);
                f(*byte);
                f(*size);
            }
            InstData::ExtractLane { vec, .. } => f(*vec),
            InstData::InsertLane { vec, value, .. } => {
                f(*vec);
                f(*value);
            }
            InstData::ExtractLaneDyn { vec, index } => {
                f(*vec);
                f(*index);
            }
            InstData::InsertLaneDyn { vec, index, value } => {
                f(*vec);
                f(*index);
                f(*value);
            }
            InstData::Splat { value } => f(*value),
            InstData::ExtractBytes { agg, .. } => f(*agg),
            InstData::InsertBytes { agg, value, .. } => {
                f(*agg);
                f(*value);
            }
            InstData::WorkItemDyn { dim, .. } => f(*dim),
            InstData::NamedBarrier { barrier, .. } => f(*barrier),
            InstData::Call { args, .. }
            | InstData::Builtin { args, .. }
            | InstData::Image { args, .. } => args.iter().copied().for_each(f),
            InstData::Pipe { args, .. } => args.iter().copied().for_each(f),
            InstData::Enqueue { args, .. } => args.iter().copied().for_each(f),
            InstData::Atomic { ptr, args, .. } => {
                f(*ptr);
                args.iter().copied().for_each(f);
            }
            InstData::Jump { dest } => dest.args.iter().copied().for_each(f),
            InstData::Brif {
                cond,
                then_dest,
                else_dest,
            } => {
                f(*cond);
                then_dest.args.iter().copied().for_each(&mut f);
                else_dest.args.iter().copied().for_each(f);
            }
            InstData::Switch {
                value,
                default,
                cases,
            } => {
                f(*value);
                default.args.iter().copied().for_each(&mut f);
                for (_, dest) in cases {
                    dest.args.iter().copied().for_each(&mut f);
                }
            }
            InstData::Return { value } => {
                if let Some(v) = value {
                    f(*v);
                }
            }
        }
    }

    /// Calls `f` on every value operand (mutably), in text order.
    pub fn for_each_operand_mut(&mut self, mut f: impl FnMut(&mut Value)) {
        match self {
            InstData::Const { .. }
            | InstData::StackAlloc { .. }
            | InstData::GlobalAddr { .. }
            | InstData::WorkItem { .. }
            | InstData::Barrier { .. }
            | InstData::Fence { .. }
            | InstData::Unreachable => {}
            InstData::Unary { arg, .. }
            | InstData::Test { arg, .. }
            | InstData::Reduce { arg, .. }
            | InstData::Convert { arg, .. } => f(arg),
            InstData::Binary { a, b, .. }
            | InstData::Cmp { a, b, .. }
            | InstData::Shuffle { a, b, .. } => {
                f(a);
                f(b);
            }
            InstData::Select { cond, a, b } => {
                f(cond);
                f(a);
                f(b);
            }
            InstData::Load { ptr, .. } => f(ptr),
            InstData::Store { ptr, value, .. } => {
                f(ptr);
                f(value);
            }
            InstData::PtrAdd { ptr, offset } => {
                f(ptr);
                f(offset);
            }
            InstData::Memcpy { dst, src, size } => {
                f(dst);
                f(src);
                f(size);
            }
            InstData::Memset { dst, byte, size } => {
                f(dst);
                f(byte);
                f(size);
            }
            InstData::ExtractLane { vec, .. } => f(vec),
            InstData::InsertLane { vec, value, .. } => {
                f(vec);
                f(value);
            }
            InstData::ExtractLaneDyn { vec, index } => {
                f(vec);
                f(index);
            }
            InstData::InsertLaneDyn { vec, index, value } => {
                f(vec);
                f(index);
                f(value);
            }
            InstData::Splat { value } => f(value),
            InstData::ExtractBytes { agg, .. } => f(agg),
            InstData::InsertBytes { agg, value, .. } => {
                f(agg);
                f(value);
            }
            InstData::WorkItemDyn { dim, .. } => f(dim),
            InstData::NamedBarrier { barrier, .. } => f(barrier),
            InstData::Call { args, .. }
            | InstData::Builtin { args, .. }
            | InstData::Image { args, .. } => args.iter_mut().for_each(f),
            InstData::Pipe { args, .. } => args.iter_mut().for_each(f),
            InstData::Enqueue { args, .. } => args.iter_mut().for_each(f),
            InstData::Atomic { ptr, args, .. } => {
                f(ptr);
                args.iter_mut().for_each(f);
            }
            InstData::Jump { dest } => dest.args.iter_mut().for_each(f),
            InstData::Brif {
                cond,
                then_dest,
                else_dest,
            } => {
                f(cond);
                then_dest.args.iter_mut().for_each(&mut f);
                else_dest.args.iter_mut().for_each(f);
            }
            InstData::Switch {
                value,
                default,
                cases,
            } => {
                f(value);
                default.args.iter_mut().for_each(&mut f);
                for (_, dest) in cases {
                    dest.args.iter_mut().for_each(&mut f);
                }
            }
            InstData::Return { value } => {
                if let Some(v) = value {
                    f(v);
                }
            }
        }
    }

    /// The branch targets of a terminator (empty for other instructions).
    pub fn branch_targets(&self) -> Vec<&BlockCall> {
        match self {
            InstData::Jump { dest } => vec![dest],
            InstData::Brif {
                then_dest,
                else_dest,
                ..
            } => vec![then_dest, else_dest],
            InstData::Switch { default, cases, .. } => {
                let mut out = vec![default];
                out.extend(cases.iter().map(|(_, dest)| dest));
                out
            }
            _ => Vec::new(),
        }
    }
}
