//! Functions: a signature, the data-flow graph (what each instruction and value is) and the
//! layout (which blocks come in which order, which instructions in which block, in which order).
//!
//! As in Cranelift, data is separated from order: `DataFlowGraph` owns instruction data, value
//! types and block parameters; `Layout` owns only orderings. The entry block is the first block of
//! the layout and its parameters are the function's parameters.

use crate::{Block, Inst, InstData, Type, Value};

/// Parameter and result types of a function.
#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub struct Signature {
    pub params: Vec<Type>,
    pub ret: Option<Type>,
}

/// Where a value comes from.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum ValueDef {
    /// The result of an instruction.
    Result(Inst),
    /// Parameter number `index` of a block.
    Param(Block, usize),
}

/// A value's type and definition.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct ValueData {
    pub ty: Type,
    pub def: ValueDef,
}

/// Instruction data, value types and block parameters of one function.
#[derive(Clone, PartialEq, Debug, Default)]
pub struct DataFlowGraph {
    /// Indexed by `Inst`.
    pub insts: Vec<InstData>,
    /// Indexed by `Inst`: the result value, if any.
    pub results: Vec<Option<Value>>,
    /// Indexed by `Value`.
    pub values: Vec<ValueData>,
    /// Indexed by `Block`: its parameters.
    pub block_params: Vec<Vec<Value>>,
}

impl DataFlowGraph {
    /// Creates a block with no parameters (not yet placed in the layout).
    pub fn make_block(&mut self) -> Block {
        self.block_params.push(Vec::new());
        Block::new(self.block_params.len() - 1)
    }

    /// Appends a parameter of type `ty` to `block`.
    pub fn append_block_param(&mut self, block: Block, ty: Type) -> Value {
        let value = Value::new(self.values.len());
        let params = &mut self.block_params[block.index()];
        self.values.push(ValueData {
            ty,
            def: ValueDef::Param(block, params.len()),
        });
        params.push(value);
        value
    }

    /// Creates an instruction (not yet placed in the layout) with a result of type `result`.
    pub fn make_inst(&mut self, data: InstData, result: Option<Type>) -> (Inst, Option<Value>) {
        let inst = Inst::new(self.insts.len());
        self.insts.push(data);
        let value = result.map(|ty| {
            let value = Value::new(self.values.len());
            self.values.push(ValueData {
                ty,
                def: ValueDef::Result(inst),
            });
            value
        });
        self.results.push(value);
        (inst, value)
    }

    pub fn inst(&self, inst: Inst) -> &InstData {
        &self.insts[inst.index()]
    }

    pub fn inst_mut(&mut self, inst: Inst) -> &mut InstData {
        &mut self.insts[inst.index()]
    }

    /// The result of `inst`, if it has one.
    pub fn inst_result(&self, inst: Inst) -> Option<Value> {
        self.results.get(inst.index()).copied().flatten()
    }

    pub fn value_type(&self, value: Value) -> Type {
        self.values[value.index()].ty
    }

    pub fn value_def(&self, value: Value) -> ValueDef {
        self.values[value.index()].def
    }

    /// Whether `value` names an existing value.
    pub fn value_is_valid(&self, value: Value) -> bool {
        value.index() < self.values.len()
    }

    /// Whether `block` names an existing block.
    pub fn block_is_valid(&self, block: Block) -> bool {
        block.index() < self.block_params.len()
    }

    pub fn block_params(&self, block: Block) -> &[Value] {
        &self.block_params[block.index()]
    }

    pub fn num_values(&self) -> usize {
        self.values.len()
    }

    pub fn num_blocks(&self) -> usize {
        self.block_params.len()
    }

    pub fn num_insts(&self) -> usize {
        self.insts.len()
    }
}

/// Block order and per-block instruction order.
#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub struct Layout {
    /// Blocks in layout order; the first is the entry block.
    pub blocks: Vec<Block>,
    /// Indexed by `Block`: its instructions in order (empty for blocks not in the layout).
    pub block_insts: Vec<Vec<Inst>>,
}

impl Layout {
    /// Places `block` at the end of the layout (once).
    pub fn append_block(&mut self, block: Block) {
        if !self.blocks.contains(&block) {
            self.blocks.push(block);
        }
        if self.block_insts.len() <= block.index() {
            self.block_insts.resize(block.index() + 1, Vec::new());
        }
    }

    /// Appends `inst` to the end of `block`.
    pub fn append_inst(&mut self, block: Block, inst: Inst) {
        if self.block_insts.len() <= block.index() {
            self.block_insts.resize(block.index() + 1, Vec::new());
        }
        self.block_insts[block.index()].push(inst);
    }

    /// The instructions of `block` in order.
    pub fn insts(&self, block: Block) -> &[Inst] {
        self.block_insts
            .get(block.index())
            .map_or(&[], Vec::as_slice)
    }

    pub fn entry_block(&self) -> Option<Block> {
        self.blocks.first().copied()
    }

    pub fn is_in_layout(&self, block: Block) -> bool {
        self.blocks.contains(&block)
    }
}

/// A function of a module.
#[derive(Clone, PartialEq, Debug, Default)]
pub struct Function {
    /// The name (SPIR-V OpName or linkage name); may be empty. Printed as `%name`.
    pub name: String,
    pub sig: Signature,
    pub dfg: DataFlowGraph,
    pub layout: Layout,
}

impl Function {
    /// An empty function with this signature (no blocks yet).
    pub fn new(name: impl Into<String>, sig: Signature) -> Function {
        Function {
            name: name.into(),
            sig,
            dfg: DataFlowGraph::default(),
            layout: Layout::default(),
        }
    }

    /// The entry block, if the function has a body.
    pub fn entry_block(&self) -> Option<Block> {
        self.layout.entry_block()
    }

    /// The function's parameters: the entry block's parameters.
    pub fn params(&self) -> &[Value] {
        match self.entry_block() {
            Some(block) if self.dfg.block_is_valid(block) => self.dfg.block_params(block),
            _ => &[],
        }
    }

    /// The terminator of `block` (its last instruction, if that is a terminator).
    pub fn terminator(&self, block: Block) -> Option<Inst> {
        let last = *self.layout.insts(block).last()?;
        self.dfg.inst(last).is_terminator().then_some(last)
    }
}
