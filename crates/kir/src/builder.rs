//! `FunctionBuilder`: appends blocks and instructions to a function, computing result types.
//!
//! ```
//! use kir::{Function, FunctionBuilder, Signature, Type, BinaryOp};
//! let mut func = Function::new("add", Signature { params: vec![Type::I32, Type::I32], ret: Some(Type::I32) });
//! let mut b = FunctionBuilder::new(&mut func);
//! let entry = b.create_entry_block();
//! b.switch_to_block(entry);
//! let (x, y) = (b.block_params(entry)[0], b.block_params(entry)[1]);
//! let sum = b.binary(BinaryOp::IAdd, x, y);
//! b.ret(Some(sum));
//! assert_eq!(func.to_string().lines().nth(2).unwrap().trim(), "v2 = iadd.i32 v0, v1");
//! ```
//!
//! Blocks enter the layout in the order they are first switched to. Result types come from the
//! operands where the instruction determines them (`iadd` has its operands' type) and from an
//! explicit argument otherwise (`load`, `const`, conversions). The builder does not check operand
//! types; the verifier does.

use crate::{
    AddrSpace, AtomicOp, BinaryOp, Block, BlockCall, BuiltinFn, CmpOp, ConvertOp, FuncRef,
    Function, GlobalRef, Inst, InstData, MemorySemantics, ReduceOp, Rounding, ScalarType, Scope,
    TestOp, Type, UnaryOp, Value, WorkItemQuery,
};

/// Appends to one function.
pub struct FunctionBuilder<'f> {
    pub func: &'f mut Function,
    current: Option<Block>,
}

impl<'f> FunctionBuilder<'f> {
    pub fn new(func: &'f mut Function) -> FunctionBuilder<'f> {
        FunctionBuilder {
            func,
            current: None,
        }
    }

    // ---- blocks ----

    /// Creates a block (placed in the layout when first switched to).
    pub fn create_block(&mut self) -> Block {
        self.func.dfg.make_block()
    }

    /// Creates the entry block, places it first and gives it one parameter per signature
    /// parameter (these are the function's parameters).
    pub fn create_entry_block(&mut self) -> Block {
        let block = self.create_block();
        let params = self.func.sig.params.clone();
        for ty in params {
            self.func.dfg.append_block_param(block, ty);
        }
        self.func.layout.blocks.insert(0, block);
        self.func.layout.append_block(block);
        block
    }

    /// Appends a parameter of type `ty` to `block`.
    pub fn append_block_param(&mut self, block: Block, ty: Type) -> Value {
        self.func.dfg.append_block_param(block, ty)
    }

    pub fn block_params(&self, block: Block) -> &[Value] {
        self.func.dfg.block_params(block)
    }

    /// Makes `block` the insertion point, appending it to the layout if it is not there yet.
    pub fn switch_to_block(&mut self, block: Block) {
        self.func.layout.append_block(block);
        self.current = Some(block);
    }

    /// The block instructions are appended to.
    pub fn current_block(&self) -> Option<Block> {
        self.current
    }

    /// Whether the current block already ends in a terminator.
    pub fn is_filled(&self) -> bool {
        self.current
            .is_some_and(|block| self.func.terminator(block).is_some())
    }

    pub fn value_type(&self, value: Value) -> Type {
        self.func.dfg.value_type(value)
    }

    // ---- generic insertion ----

    /// Appends `data` with a result of type `result` to the current block. With no current block
    /// a detached block is created first (the verifier reports it if it is unreachable).
    pub fn ins(&mut self, data: InstData, result: Option<Type>) -> (Inst, Option<Value>) {
        let block = match self.current {
            Some(block) => block,
            None => {
                let block = self.create_block();
                self.switch_to_block(block);
                block
            }
        };
        let (inst, value) = self.func.dfg.make_inst(data, result);
        self.func.layout.append_inst(block, inst);
        (inst, value)
    }

    /// Appends an instruction that has a result of type `ty`, returning the result.
    pub fn ins_value(&mut self, data: InstData, ty: Type) -> Value {
        let (inst, value) = self.ins(data, Some(ty));
        value.unwrap_or(Value(inst.0))
    }

    fn ins_void(&mut self, data: InstData) -> Inst {
        self.ins(data, None).0
    }

    // ---- constants ----

    /// A constant from little-endian bytes (`bytes.len()` should be the type's size).
    pub fn const_bytes(&mut self, ty: Type, bytes: Vec<u8>) -> Value {
        self.ins_value(InstData::Const { bytes }, ty)
    }

    /// An integer (or bool) scalar constant; `value` is truncated to the type's width.
    pub fn iconst(&mut self, ty: Type, value: i64) -> Value {
        let size = ty.as_scalar().map_or(8, ScalarType::bytes) as usize;
        let bytes = value.to_le_bytes()[..size.min(8)].to_vec();
        self.const_bytes(ty, bytes)
    }

    pub fn bconst(&mut self, value: bool) -> Value {
        self.const_bytes(Type::Bool, vec![u8::from(value)])
    }

    pub fn f32const(&mut self, value: f32) -> Value {
        self.const_bytes(Type::F32, value.to_bits().to_le_bytes().to_vec())
    }

    pub fn f64const(&mut self, value: f64) -> Value {
        self.const_bytes(Type::F64, value.to_bits().to_le_bytes().to_vec())
    }

    /// The all-zero value of `ty` (also the null pointer).
    pub fn zero(&mut self, ty: Type, address_bits: u32) -> Value {
        self.const_bytes(ty, vec![0; ty.size(address_bits) as usize])
    }

    // ---- arithmetic ----

    pub fn unary(&mut self, op: UnaryOp, arg: Value) -> Value {
        let ty = self.value_type(arg);
        self.ins_value(InstData::Unary { op, arg }, ty)
    }

    pub fn binary(&mut self, op: BinaryOp, a: Value, b: Value) -> Value {
        let ty = self.value_type(a);
        self.ins_value(InstData::Binary { op, a, b }, ty)
    }

    pub fn iadd(&mut self, a: Value, b: Value) -> Value {
        self.binary(BinaryOp::IAdd, a, b)
    }

    pub fn imul(&mut self, a: Value, b: Value) -> Value {
        self.binary(BinaryOp::IMul, a, b)
    }

    /// A comparison; the result is `bool` or a bool vector.
    pub fn cmp(&mut self, op: CmpOp, a: Value, b: Value) -> Value {
        let ty = self.value_type(a).with_lane(ScalarType::Bool);
        self.ins_value(InstData::Cmp { op, a, b }, ty)
    }

    pub fn test(&mut self, op: TestOp, arg: Value) -> Value {
        let ty = self.value_type(arg).with_lane(ScalarType::Bool);
        self.ins_value(InstData::Test { op, arg }, ty)
    }

    pub fn reduce(&mut self, op: ReduceOp, arg: Value) -> Value {
        self.ins_value(InstData::Reduce { op, arg }, Type::Bool)
    }

    pub fn select(&mut self, cond: Value, a: Value, b: Value) -> Value {
        let ty = self.value_type(a);
        self.ins_value(InstData::Select { cond, a, b }, ty)
    }

    /// A conversion to `to` with default rounding and no saturation.
    pub fn convert(&mut self, op: ConvertOp, to: Type, arg: Value) -> Value {
        self.convert_with(op, to, arg, None, false)
    }

    pub fn convert_with(
        &mut self,
        op: ConvertOp,
        to: Type,
        arg: Value,
        rounding: Option<Rounding>,
        saturate: bool,
    ) -> Value {
        self.ins_value(
            InstData::Convert {
                op,
                arg,
                rounding,
                saturate,
            },
            to,
        )
    }

    // ---- memory ----

    pub fn load(&mut self, ty: Type, ptr: Value, align: u32) -> Value {
        self.ins_value(InstData::Load { ptr, align }, ty)
    }

    pub fn store(&mut self, ptr: Value, value: Value, align: u32) -> Inst {
        self.ins_void(InstData::Store { ptr, value, align })
    }

    /// `ptr + offset` bytes; the result has `ptr`'s type.
    pub fn ptr_add(&mut self, ptr: Value, offset: Value) -> Value {
        let ty = self.value_type(ptr);
        self.ins_value(InstData::PtrAdd { ptr, offset }, ty)
    }

    /// Private memory of the work-item, live until the function returns.
    pub fn stack_alloc(&mut self, size: u32, align: u32) -> Value {
        self.ins_value(
            InstData::StackAlloc { size, align },
            Type::Ptr(AddrSpace::Private),
        )
    }

    /// The address of module variable `global`, which lives in `space`.
    pub fn global_addr(&mut self, global: GlobalRef, space: AddrSpace) -> Value {
        self.ins_value(InstData::GlobalAddr { global }, Type::Ptr(space))
    }

    pub fn memcpy(&mut self, dst: Value, src: Value, size: Value) -> Inst {
        self.ins_void(InstData::Memcpy { dst, src, size })
    }

    pub fn memset(&mut self, dst: Value, byte: Value, size: Value) -> Inst {
        self.ins_void(InstData::Memset { dst, byte, size })
    }

    // ---- vectors and aggregates ----

    pub fn extract_lane(&mut self, vec: Value, lane: u8) -> Value {
        let ty = Type::from(self.value_type(vec).lane_type().unwrap_or(ScalarType::I32));
        self.ins_value(InstData::ExtractLane { vec, lane }, ty)
    }

    pub fn insert_lane(&mut self, vec: Value, lane: u8, value: Value) -> Value {
        let ty = self.value_type(vec);
        self.ins_value(InstData::InsertLane { vec, lane, value }, ty)
    }

    pub fn extract_lane_dyn(&mut self, vec: Value, index: Value) -> Value {
        let ty = Type::from(self.value_type(vec).lane_type().unwrap_or(ScalarType::I32));
        self.ins_value(InstData::ExtractLaneDyn { vec, index }, ty)
    }

    pub fn insert_lane_dyn(&mut self, vec: Value, index: Value, value: Value) -> Value {
        let ty = self.value_type(vec);
        self.ins_value(InstData::InsertLaneDyn { vec, index, value }, ty)
    }

    /// Lane `i` of the result is lane `mask[i]` of `a ++ b`.
    pub fn shuffle(&mut self, a: Value, b: Value, mask: Vec<u32>) -> Value {
        let lane = self.value_type(a).lane_type().unwrap_or(ScalarType::I32);
        let ty = Type::vector(lane, u8::try_from(mask.len()).unwrap_or(u8::MAX));
        self.ins_value(InstData::Shuffle { a, b, mask }, ty)
    }

    /// A vector of `lanes` copies of the scalar `value`.
    pub fn splat(&mut self, value: Value, lanes: u8) -> Value {
        let lane = self
            .value_type(value)
            .as_scalar()
            .unwrap_or(ScalarType::I32);
        self.ins_value(InstData::Splat { value }, Type::vector(lane, lanes))
    }

    pub fn extract_bytes(&mut self, ty: Type, agg: Value, offset: u32) -> Value {
        self.ins_value(InstData::ExtractBytes { agg, offset }, ty)
    }

    pub fn insert_bytes(&mut self, agg: Value, offset: u32, value: Value) -> Value {
        let ty = self.value_type(agg);
        self.ins_value(InstData::InsertBytes { agg, offset, value }, ty)
    }

    // ---- work-items, calls, synchronisation ----

    /// A work-item query with a constant dimension; `ty` is `i32` or `i64`.
    pub fn work_item(&mut self, query: WorkItemQuery, dim: u8, ty: Type) -> Value {
        self.ins_value(InstData::WorkItem { query, dim }, ty)
    }

    pub fn work_item_dyn(&mut self, query: WorkItemQuery, dim: Value, ty: Type) -> Value {
        self.ins_value(InstData::WorkItemDyn { query, dim }, ty)
    }

    /// Calls `func`, whose return type is `ret`.
    pub fn call(&mut self, func: FuncRef, args: Vec<Value>, ret: Option<Type>) -> Option<Value> {
        self.ins(InstData::Call { func, args }, ret).1
    }

    /// Calls a device-library function returning `ret`.
    pub fn builtin(
        &mut self,
        func: BuiltinFn,
        args: Vec<Value>,
        ret: Option<Type>,
    ) -> Option<Value> {
        self.ins(InstData::Builtin { func, args }, ret).1
    }

    pub fn barrier(
        &mut self,
        exec_scope: Scope,
        mem_scope: Scope,
        semantics: MemorySemantics,
    ) -> Inst {
        self.ins_void(InstData::Barrier {
            exec_scope,
            mem_scope,
            semantics,
        })
    }

    pub fn fence(&mut self, scope: Scope, semantics: MemorySemantics) -> Inst {
        self.ins_void(InstData::Fence { scope, semantics })
    }

    /// An atomic on memory of type `ty`; see `AtomicOp` for `args`. Returns the result (none for
    /// `store` and `flag_clear`).
    #[allow(clippy::too_many_arguments)] // mirrors the fields of `InstData::Atomic` one to one
    pub fn atomic(
        &mut self,
        op: AtomicOp,
        ty: Type,
        ptr: Value,
        scope: Scope,
        semantics: MemorySemantics,
        semantics_unequal: MemorySemantics,
        args: Vec<Value>,
    ) -> Option<Value> {
        let result = match op {
            AtomicOp::Store | AtomicOp::FlagClear => None,
            AtomicOp::FlagTestAndSet => Some(Type::Bool),
            _ => Some(ty),
        };
        let data = InstData::Atomic {
            op,
            ty,
            ptr,
            scope,
            semantics,
            semantics_unequal,
            args,
        };
        self.ins(data, result).1
    }

    // ---- terminators ----

    pub fn jump(&mut self, block: Block, args: Vec<Value>) -> Inst {
        self.ins_void(InstData::Jump {
            dest: BlockCall::new(block, args),
        })
    }

    pub fn brif(&mut self, cond: Value, then_dest: BlockCall, else_dest: BlockCall) -> Inst {
        self.ins_void(InstData::Brif {
            cond,
            then_dest,
            else_dest,
        })
    }

    pub fn switch(
        &mut self,
        value: Value,
        default: BlockCall,
        cases: Vec<(u64, BlockCall)>,
    ) -> Inst {
        self.ins_void(InstData::Switch {
            value,
            default,
            cases,
        })
    }

    pub fn ret(&mut self, value: Option<Value>) -> Inst {
        self.ins_void(InstData::Return { value })
    }

    pub fn unreachable(&mut self) -> Inst {
        self.ins_void(InstData::Unreachable)
    }
}
