//! `Builder`: constructs a module for the compiler, keeping each instruction in its section of the
//! logical layout (spec 2.4) whatever the order of the calls, deduplicating types and constants,
//! and hoisting function-storage variables to the start of the entry block.

use crate::write::encode_operand;
use crate::{
    AccessQualifier, AddressingModel, Capability, Decoration, Dim, ExecutionMode, ExecutionModel,
    FunctionControl, Header, Id, ImageFormat, Instruction, MemoryModel, Module, Op, OpenClStd,
    Operand, SourceLanguage, StorageClass,
};
use std::collections::HashMap;

/// Generator word written into built modules (spec 2.3: 0 is allowed for an unregistered tool).
pub const GENERATOR: u32 = 0;

/// Numeric type facts the builder remembers to encode constants.
#[derive(Copy, Clone, Debug)]
struct Scalar {
    width: u32,
    signed: bool,
}

#[derive(Debug)]
struct Block {
    label: Id,
    insts: Vec<Instruction>,
}

#[derive(Debug)]
struct Function {
    def: Instruction,
    params: Vec<Instruction>,
    locals: Vec<Instruction>,
    blocks: Vec<Block>,
}

/// Incremental module construction. Sections are kept apart and joined in layout order by
/// [`Builder::finish`].
#[derive(Debug)]
pub struct Builder {
    version: (u8, u8),
    next_id: u32,
    capabilities: Vec<Capability>,
    extensions: Vec<String>,
    ext_imports: Vec<(String, Id)>,
    memory_model: Option<Instruction>,
    entry_points: Vec<Instruction>,
    execution_modes: Vec<Instruction>,
    debug_sources: Vec<Instruction>,
    debug_names: Vec<Instruction>,
    debug_processed: Vec<Instruction>,
    annotations: Vec<Instruction>,
    globals: Vec<Instruction>,
    dedup: HashMap<Vec<u32>, Id>,
    scalars: HashMap<Id, Scalar>,
    functions: Vec<Function>,
    current: Option<Function>,
}

fn dedup_key(op: Op, result_type: Option<Id>, operands: &[Operand]) -> Vec<u32> {
    let mut key = vec![op as u32, result_type.map_or(0, |t| t.0)];
    for o in operands {
        // Strings and numbers could collide in words; tag each operand with its variant.
        key.push(match o {
            Operand::Id(_) => 1,
            Operand::Int(_) => 2,
            Operand::Wide(_) => 3,
            Operand::Str(_) => 4,
        });
        encode_operand(o, &mut key);
    }
    key
}

impl Builder {
    /// An empty module of the given SPIR-V version.
    pub fn new(version: (u8, u8)) -> Self {
        Builder {
            version,
            next_id: 1,
            capabilities: Vec::new(),
            extensions: Vec::new(),
            ext_imports: Vec::new(),
            memory_model: None,
            entry_points: Vec::new(),
            execution_modes: Vec::new(),
            debug_sources: Vec::new(),
            debug_names: Vec::new(),
            debug_processed: Vec::new(),
            annotations: Vec::new(),
            globals: Vec::new(),
            dedup: HashMap::new(),
            scalars: HashMap::new(),
            functions: Vec::new(),
            current: None,
        }
    }

    /// A fresh id.
    pub fn id(&mut self) -> Id {
        let id = Id(self.next_id);
        self.next_id += 1;
        id
    }

    // ---- mode setting (spec 2.4 sections 1-6)

    /// Declares a capability (once, whatever the number of calls).
    pub fn capability(&mut self, cap: Capability) {
        if !self.capabilities.contains(&cap) {
            self.capabilities.push(cap);
        }
    }

    /// Declares an extension (once).
    pub fn extension(&mut self, name: &str) {
        if !self.extensions.iter().any(|e| e == name) {
            self.extensions.push(name.to_string());
        }
    }

    /// Imports an extended instruction set (once per name) and returns its id.
    pub fn ext_inst_import(&mut self, name: &str) -> Id {
        if let Some((_, id)) = self.ext_imports.iter().find(|(n, _)| n == name) {
            return *id;
        }
        let id = self.id();
        self.ext_imports.push((name.to_string(), id));
        id
    }

    /// Sets the addressing and memory model (the last call wins).
    pub fn memory_model(&mut self, addressing: AddressingModel, memory: MemoryModel) {
        self.memory_model = Some(Instruction::new(
            Op::MemoryModel,
            None,
            None,
            vec![Operand::Int(addressing as u32), Operand::Int(memory as u32)],
        ));
    }

    pub fn entry_point(
        &mut self,
        model: ExecutionModel,
        function: Id,
        name: &str,
        interface: &[Id],
    ) {
        let mut operands = vec![
            Operand::Int(model as u32),
            Operand::Id(function),
            Operand::Str(name.to_string()),
        ];
        operands.extend(interface.iter().map(|&i| Operand::Id(i)));
        self.entry_points
            .push(Instruction::new(Op::EntryPoint, None, None, operands));
    }

    /// `OpExecutionMode` with literal parameters.
    pub fn execution_mode(&mut self, entry: Id, mode: ExecutionMode, literals: &[u32]) {
        let mut operands = vec![Operand::Id(entry), Operand::Int(mode as u32)];
        operands.extend(literals.iter().map(|&l| Operand::Int(l)));
        self.execution_modes
            .push(Instruction::new(Op::ExecutionMode, None, None, operands));
    }

    /// `OpExecutionModeId` with id parameters (SPIR-V 1.2).
    pub fn execution_mode_id(&mut self, entry: Id, mode: ExecutionMode, ids: &[Id]) {
        let mut operands = vec![Operand::Id(entry), Operand::Int(mode as u32)];
        operands.extend(ids.iter().map(|&l| Operand::Id(l)));
        self.execution_modes
            .push(Instruction::new(Op::ExecutionModeId, None, None, operands));
    }

    // ---- debug information (spec 2.4 section 7)

    pub fn source(&mut self, language: SourceLanguage, version: u32) {
        self.debug_sources.push(Instruction::new(
            Op::Source,
            None,
            None,
            vec![Operand::Int(language as u32), Operand::Int(version)],
        ));
    }

    pub fn source_extension(&mut self, extension: &str) {
        self.debug_sources.push(Instruction::new(
            Op::SourceExtension,
            None,
            None,
            vec![Operand::Str(extension.to_string())],
        ));
    }

    /// `OpString`, deduplicated.
    pub fn string(&mut self, text: &str) -> Id {
        let operands = vec![Operand::Str(text.to_string())];
        let key = dedup_key(Op::String, None, &operands);
        if let Some(&id) = self.dedup.get(&key) {
            return id;
        }
        let id = self.id();
        self.dedup.insert(key, id);
        self.debug_sources
            .push(Instruction::new(Op::String, None, Some(id), operands));
        id
    }

    pub fn name(&mut self, target: Id, name: &str) {
        self.debug_names.push(Instruction::new(
            Op::Name,
            None,
            None,
            vec![Operand::Id(target), Operand::Str(name.to_string())],
        ));
    }

    pub fn member_name(&mut self, ty: Id, member: u32, name: &str) {
        self.debug_names.push(Instruction::new(
            Op::MemberName,
            None,
            None,
            vec![
                Operand::Id(ty),
                Operand::Int(member),
                Operand::Str(name.to_string()),
            ],
        ));
    }

    pub fn module_processed(&mut self, process: &str) {
        self.debug_processed.push(Instruction::new(
            Op::ModuleProcessed,
            None,
            None,
            vec![Operand::Str(process.to_string())],
        ));
    }

    // ---- annotations (spec 2.4 section 8)

    /// `OpDecorate target decoration parameters…`.
    pub fn decorate(&mut self, target: Id, decoration: Decoration, parameters: &[Operand]) {
        let mut operands = vec![Operand::Id(target), Operand::Int(decoration as u32)];
        operands.extend_from_slice(parameters);
        self.annotations
            .push(Instruction::new(Op::Decorate, None, None, operands));
    }

    /// `OpMemberDecorate struct_type member decoration parameters…`.
    pub fn member_decorate(
        &mut self,
        struct_type: Id,
        member: u32,
        decoration: Decoration,
        parameters: &[Operand],
    ) {
        let mut operands = vec![
            Operand::Id(struct_type),
            Operand::Int(member),
            Operand::Int(decoration as u32),
        ];
        operands.extend_from_slice(parameters);
        self.annotations
            .push(Instruction::new(Op::MemberDecorate, None, None, operands));
    }

    // ---- types, constants, global variables (spec 2.4 section 9)

    /// A type or constant instruction in the global section, deduplicated on (op, result type,
    /// operands). Use for the kinds without a dedicated method (`OpTypeImage`, …).
    pub fn global_dedup(&mut self, op: Op, result_type: Option<Id>, operands: Vec<Operand>) -> Id {
        let key = dedup_key(op, result_type, &operands);
        if let Some(&id) = self.dedup.get(&key) {
            return id;
        }
        let id = self.id();
        self.dedup.insert(key, id);
        self.globals
            .push(Instruction::new(op, result_type, Some(id), operands));
        id
    }

    /// An instruction with a fresh result in the global section, never deduplicated.
    pub fn global(&mut self, op: Op, result_type: Option<Id>, operands: Vec<Operand>) -> Id {
        let id = self.id();
        self.globals
            .push(Instruction::new(op, result_type, Some(id), operands));
        id
    }

    pub fn type_void(&mut self) -> Id {
        self.global_dedup(Op::TypeVoid, None, vec![])
    }

    pub fn type_bool(&mut self) -> Id {
        self.global_dedup(Op::TypeBool, None, vec![])
    }

    /// `OpTypeInt width signedness` (the OpenCL environment requires `signed == false`).
    pub fn type_int(&mut self, width: u32, signed: bool) -> Id {
        let id = self.global_dedup(
            Op::TypeInt,
            None,
            vec![Operand::Int(width), Operand::Int(u32::from(signed))],
        );
        self.scalars.insert(id, Scalar { width, signed });
        id
    }

    pub fn type_float(&mut self, width: u32) -> Id {
        let id = self.global_dedup(Op::TypeFloat, None, vec![Operand::Int(width)]);
        self.scalars.insert(
            id,
            Scalar {
                width,
                signed: false,
            },
        );
        id
    }

    pub fn type_vector(&mut self, element: Id, count: u32) -> Id {
        self.global_dedup(
            Op::TypeVector,
            None,
            vec![Operand::Id(element), Operand::Int(count)],
        )
    }

    /// `OpTypeArray element length` where `length` is a constant id.
    pub fn type_array(&mut self, element: Id, length: Id) -> Id {
        self.global_dedup(
            Op::TypeArray,
            None,
            vec![Operand::Id(element), Operand::Id(length)],
        )
    }

    pub fn type_runtime_array(&mut self, element: Id) -> Id {
        self.global_dedup(Op::TypeRuntimeArray, None, vec![Operand::Id(element)])
    }

    /// `OpTypeStruct`; never deduplicated (structs are distinguished by identity).
    pub fn type_struct(&mut self, members: &[Id]) -> Id {
        let operands = members.iter().map(|&m| Operand::Id(m)).collect();
        self.global(Op::TypeStruct, None, operands)
    }

    /// `OpTypeOpaque name`, deduplicated by name.
    pub fn type_opaque(&mut self, name: &str) -> Id {
        self.global_dedup(Op::TypeOpaque, None, vec![Operand::Str(name.to_string())])
    }

    /// `OpTypeForwardPointer`: the id of a pointer type whose `OpTypePointer` comes later
    /// (given by [`Builder::define_forward_pointer`]), for a struct holding a pointer to itself.
    pub fn forward_pointer(&mut self, storage: StorageClass) -> Id {
        let id = self.id();
        self.globals.push(Instruction::new(
            Op::TypeForwardPointer,
            None,
            None,
            vec![Operand::Id(id), Operand::Int(storage as u32)],
        ));
        id
    }

    /// The `OpTypePointer` of a forward-declared pointer type `id`; later
    /// [`Builder::type_pointer`] calls with the same storage and pointee return `id`.
    pub fn define_forward_pointer(&mut self, id: Id, storage: StorageClass, pointee: Id) {
        let operands = vec![Operand::Int(storage as u32), Operand::Id(pointee)];
        self.dedup
            .entry(dedup_key(Op::TypePointer, None, &operands))
            .or_insert(id);
        self.globals
            .push(Instruction::new(Op::TypePointer, None, Some(id), operands));
    }

    pub fn type_pointer(&mut self, storage: StorageClass, pointee: Id) -> Id {
        self.global_dedup(
            Op::TypePointer,
            None,
            vec![Operand::Int(storage as u32), Operand::Id(pointee)],
        )
    }

    pub fn type_function(&mut self, return_type: Id, parameters: &[Id]) -> Id {
        let mut operands = vec![Operand::Id(return_type)];
        operands.extend(parameters.iter().map(|&p| Operand::Id(p)));
        self.global_dedup(Op::TypeFunction, None, operands)
    }

    pub fn type_event(&mut self) -> Id {
        self.global_dedup(Op::TypeEvent, None, vec![])
    }

    pub fn type_device_event(&mut self) -> Id {
        self.global_dedup(Op::TypeDeviceEvent, None, vec![])
    }

    pub fn type_reserve_id(&mut self) -> Id {
        self.global_dedup(Op::TypeReserveId, None, vec![])
    }

    pub fn type_queue(&mut self) -> Id {
        self.global_dedup(Op::TypeQueue, None, vec![])
    }

    pub fn type_pipe(&mut self, access: AccessQualifier) -> Id {
        self.global_dedup(Op::TypePipe, None, vec![Operand::Int(access as u32)])
    }

    pub fn type_sampler(&mut self) -> Id {
        self.global_dedup(Op::TypeSampler, None, vec![])
    }

    /// `OpTypeImage sampled_type dim depth arrayed ms sampled format [access]`.
    #[allow(clippy::too_many_arguments)]
    pub fn type_image(
        &mut self,
        sampled_type: Id,
        dim: Dim,
        depth: u32,
        arrayed: bool,
        multisampled: bool,
        sampled: u32,
        format: ImageFormat,
        access: Option<AccessQualifier>,
    ) -> Id {
        let mut operands = vec![
            Operand::Id(sampled_type),
            Operand::Int(dim as u32),
            Operand::Int(depth),
            Operand::Int(u32::from(arrayed)),
            Operand::Int(u32::from(multisampled)),
            Operand::Int(sampled),
            Operand::Int(format as u32),
        ];
        if let Some(a) = access {
            operands.push(Operand::Int(a as u32));
        }
        self.global_dedup(Op::TypeImage, None, operands)
    }

    pub fn type_sampled_image(&mut self, image_type: Id) -> Id {
        self.global_dedup(Op::TypeSampledImage, None, vec![Operand::Id(image_type)])
    }

    /// The literal operand for a scalar constant of type `ty` from its bit pattern: one word up
    /// to 32 bits (sign-extended for signed integer types, spec 2.2.1), two words for 64 bits.
    fn literal(&self, ty: Id, bits: u64) -> Operand {
        let scalar = self.scalars.get(&ty).copied().unwrap_or(Scalar {
            width: if bits > u64::from(u32::MAX) { 64 } else { 32 },
            signed: false,
        });
        if scalar.width > 32 {
            Operand::Wide(bits)
        } else if scalar.width < 32 {
            let mask = (1u64 << scalar.width) - 1;
            let v = bits & mask;
            let sign = 1u64 << (scalar.width - 1);
            if scalar.signed && v & sign != 0 {
                Operand::Int((v | !mask) as u32)
            } else {
                Operand::Int(v as u32)
            }
        } else {
            Operand::Int(bits as u32)
        }
    }

    /// `OpConstant ty bits` for any scalar type made by `type_int`/`type_float`, deduplicated.
    pub fn constant_bits(&mut self, ty: Id, bits: u64) -> Id {
        let lit = self.literal(ty, bits);
        self.global_dedup(Op::Constant, Some(ty), vec![lit])
    }

    pub fn constant_u8(&mut self, ty: Id, value: u8) -> Id {
        self.constant_bits(ty, u64::from(value))
    }

    pub fn constant_u16(&mut self, ty: Id, value: u16) -> Id {
        self.constant_bits(ty, u64::from(value))
    }

    pub fn constant_u32(&mut self, ty: Id, value: u32) -> Id {
        self.constant_bits(ty, u64::from(value))
    }

    pub fn constant_u64(&mut self, ty: Id, value: u64) -> Id {
        self.constant_bits(ty, value)
    }

    /// A half constant from its IEEE binary16 bits.
    pub fn constant_f16_bits(&mut self, ty: Id, bits: u16) -> Id {
        self.constant_bits(ty, u64::from(bits))
    }

    pub fn constant_f32(&mut self, ty: Id, value: f32) -> Id {
        self.constant_bits(ty, u64::from(value.to_bits()))
    }

    pub fn constant_f64(&mut self, ty: Id, value: f64) -> Id {
        self.constant_bits(ty, value.to_bits())
    }

    pub fn constant_true(&mut self, bool_type: Id) -> Id {
        self.global_dedup(Op::ConstantTrue, Some(bool_type), vec![])
    }

    pub fn constant_false(&mut self, bool_type: Id) -> Id {
        self.global_dedup(Op::ConstantFalse, Some(bool_type), vec![])
    }

    pub fn constant_null(&mut self, ty: Id) -> Id {
        self.global_dedup(Op::ConstantNull, Some(ty), vec![])
    }

    pub fn constant_composite(&mut self, ty: Id, constituents: &[Id]) -> Id {
        let operands = constituents.iter().map(|&c| Operand::Id(c)).collect();
        self.global_dedup(Op::ConstantComposite, Some(ty), operands)
    }

    /// `OpConstantSampler ty addressing normalized filter`.
    pub fn constant_sampler(
        &mut self,
        ty: Id,
        addressing: crate::SamplerAddressingMode,
        normalized: bool,
        filter: crate::SamplerFilterMode,
    ) -> Id {
        self.global_dedup(
            Op::ConstantSampler,
            Some(ty),
            vec![
                Operand::Int(addressing as u32),
                Operand::Int(u32::from(normalized)),
                Operand::Int(filter as u32),
            ],
        )
    }

    /// `OpSpecConstant ty bits` (never deduplicated: each gets its own `SpecId`).
    pub fn spec_constant_bits(&mut self, ty: Id, bits: u64) -> Id {
        let lit = self.literal(ty, bits);
        self.global(Op::SpecConstant, Some(ty), vec![lit])
    }

    /// `OpSpecConstantTrue`/`OpSpecConstantFalse` (never deduplicated).
    pub fn spec_constant_bool(&mut self, bool_type: Id, value: bool) -> Id {
        let op = if value {
            Op::SpecConstantTrue
        } else {
            Op::SpecConstantFalse
        };
        self.global(op, Some(bool_type), vec![])
    }

    /// `OpUndef ty` in the global section, deduplicated.
    pub fn undef(&mut self, ty: Id) -> Id {
        self.global_dedup(Op::Undef, Some(ty), vec![])
    }

    /// A module-scope `OpVariable ptr_type storage [initializer]`.
    pub fn variable(&mut self, pointer_type: Id, storage: StorageClass, init: Option<Id>) -> Id {
        let mut operands = vec![Operand::Int(storage as u32)];
        if let Some(i) = init {
            operands.push(Operand::Id(i));
        }
        self.global(Op::Variable, Some(pointer_type), operands)
    }

    // ---- functions (spec 2.4 sections 10-11)

    /// Starts a function (ending any open one). `result` is a pre-allocated id or `None` for a
    /// fresh one; returns the function's id.
    pub fn begin_function(
        &mut self,
        return_type: Id,
        result: Option<Id>,
        control: FunctionControl,
        function_type: Id,
    ) -> Id {
        self.end_function();
        let id = result.unwrap_or_else(|| self.id());
        self.current = Some(Function {
            def: Instruction::new(
                Op::Function,
                Some(return_type),
                Some(id),
                vec![Operand::Int(control.0), Operand::Id(function_type)],
            ),
            params: Vec::new(),
            locals: Vec::new(),
            blocks: Vec::new(),
        });
        id
    }

    /// Adds an `OpFunctionParameter` to the open function (ignored when none is open).
    pub fn function_parameter(&mut self, ty: Id) -> Id {
        let id = self.id();
        if let Some(f) = &mut self.current {
            f.params.push(Instruction::new(
                Op::FunctionParameter,
                Some(ty),
                Some(id),
                vec![],
            ));
        }
        id
    }

    /// Starts a block (`OpLabel`) in the open function with a pre-allocated or fresh label id.
    /// Later instructions go into it. With no open function the label is only allocated.
    pub fn begin_block(&mut self, label: Option<Id>) -> Id {
        let id = label.unwrap_or_else(|| self.id());
        if let Some(f) = &mut self.current {
            f.blocks.push(Block {
                label: id,
                insts: Vec::new(),
            });
        }
        id
    }

    /// The open function's id.
    pub fn current_function(&self) -> Option<Id> {
        self.current.as_ref().and_then(|f| f.def.result)
    }

    /// The current block's label.
    pub fn current_block(&self) -> Option<Id> {
        self.current
            .as_ref()
            .and_then(|f| f.blocks.last())
            .map(|b| b.label)
    }

    /// Whether the current block already ends with a block terminator (spec 2.2.4).
    pub fn block_terminated(&self) -> bool {
        self.current
            .as_ref()
            .and_then(|f| f.blocks.last())
            .and_then(|b| b.insts.last())
            .is_some_and(|i| is_terminator(i.op))
    }

    /// Pushes an instruction into the current block; it opens an entry block when the function
    /// has none, and goes to the global section when no function is open.
    fn push(&mut self, inst: Instruction) {
        match &mut self.current {
            Some(f) => {
                if f.blocks.is_empty() {
                    let label = Id(self.next_id);
                    self.next_id += 1;
                    f.blocks.push(Block {
                        label,
                        insts: Vec::new(),
                    });
                }
                if let Some(b) = f.blocks.last_mut() {
                    b.insts.push(inst);
                }
            }
            None => self.globals.push(inst),
        }
    }

    /// Emits `op` into the current block, allocating a result id when the opcode has one
    /// (returned) and taking the result type only when the opcode has one.
    pub fn inst(&mut self, op: Op, result_type: Option<Id>, operands: Vec<Operand>) -> Option<Id> {
        let result = if op.has_result() {
            Some(self.id())
        } else {
            None
        };
        let result_type = if op.has_result_type() {
            result_type
        } else {
            None
        };
        self.push(Instruction::new(op, result_type, result, operands));
        result
    }

    /// Emits `op` with a pre-allocated result id (for forward references such as `OpPhi`).
    pub fn inst_to(&mut self, op: Op, result_type: Option<Id>, result: Id, operands: Vec<Operand>) {
        let result_type = if op.has_result_type() {
            result_type
        } else {
            None
        };
        self.push(Instruction::new(op, result_type, Some(result), operands));
    }

    /// Emits an instruction without result (`OpStore`, `OpBranch`, `OpReturn`, …).
    pub fn inst_no_result(&mut self, op: Op, operands: Vec<Operand>) {
        self.push(Instruction::new(op, None, None, operands));
    }

    /// `OpExtInst result_type set instruction operands…` in the current block.
    pub fn ext_inst(
        &mut self,
        result_type: Id,
        set: Id,
        instruction: u32,
        operands: Vec<Operand>,
    ) -> Id {
        let id = self.id();
        let mut all = vec![Operand::Id(set), Operand::Int(instruction)];
        all.extend(operands);
        self.push(Instruction::new(
            Op::ExtInst,
            Some(result_type),
            Some(id),
            all,
        ));
        id
    }

    /// An OpenCL.std instruction (importing the set on first use) with id arguments.
    pub fn opencl_std(&mut self, result_type: Id, instruction: OpenClStd, args: &[Id]) -> Id {
        let set = self.ext_inst_import("OpenCL.std");
        let operands = args.iter().map(|&a| Operand::Id(a)).collect();
        self.ext_inst(result_type, set, instruction as u32, operands)
    }

    /// A function-storage `OpVariable`; it is placed at the start of the entry block of the open
    /// function whenever this is called (spec 2.4: all OpVariable in a function come first).
    pub fn local_variable(&mut self, pointer_type: Id) -> Id {
        self.local_variable_init(pointer_type, None)
    }

    /// `local_variable` with an initializer.
    pub fn local_variable_init(&mut self, pointer_type: Id, init: Option<Id>) -> Id {
        let id = self.id();
        let mut operands = vec![Operand::Int(StorageClass::Function as u32)];
        if let Some(i) = init {
            operands.push(Operand::Id(i));
        }
        let inst = Instruction::new(Op::Variable, Some(pointer_type), Some(id), operands);
        match &mut self.current {
            Some(f) => f.locals.push(inst),
            None => self.globals.push(inst),
        }
        id
    }

    /// Ends the open function (`OpFunctionEnd`); does nothing when none is open.
    pub fn end_function(&mut self) {
        if let Some(mut f) = self.current.take() {
            if !f.locals.is_empty() && f.blocks.is_empty() {
                let label = self.id();
                f.blocks.push(Block {
                    label,
                    insts: Vec::new(),
                });
            }
            self.functions.push(f);
        }
    }

    /// The module: every section in the order of spec 2.4, bound = max id + 1.
    pub fn finish(mut self) -> Module {
        self.end_function();
        let mut insts = Vec::new();
        for cap in &self.capabilities {
            insts.push(Instruction::new(
                Op::Capability,
                None,
                None,
                vec![Operand::Int(*cap as u32)],
            ));
        }
        for ext in &self.extensions {
            insts.push(Instruction::new(
                Op::Extension,
                None,
                None,
                vec![Operand::Str(ext.clone())],
            ));
        }
        for (name, id) in &self.ext_imports {
            insts.push(Instruction::new(
                Op::ExtInstImport,
                None,
                Some(*id),
                vec![Operand::Str(name.clone())],
            ));
        }
        insts.extend(self.memory_model.take());
        insts.append(&mut self.entry_points);
        insts.append(&mut self.execution_modes);
        insts.append(&mut self.debug_sources);
        insts.append(&mut self.debug_names);
        insts.append(&mut self.debug_processed);
        insts.append(&mut self.annotations);
        insts.append(&mut self.globals);
        // Declarations (no body) before definitions (spec 2.4 sections 10, 11).
        let (decls, defs): (Vec<Function>, Vec<Function>) =
            self.functions.drain(..).partition(|f| f.blocks.is_empty());
        for f in decls.into_iter().chain(defs) {
            insts.push(f.def);
            insts.extend(f.params);
            let mut locals = Some(f.locals);
            for b in f.blocks {
                insts.push(Instruction::new(Op::Label, None, Some(b.label), vec![]));
                if let Some(l) = locals.take() {
                    insts.extend(l);
                }
                insts.extend(b.insts);
            }
            insts.push(Instruction::new(Op::FunctionEnd, None, None, vec![]));
        }
        let max_id = insts
            .iter()
            .flat_map(|i| i.result.into_iter().chain(i.used_ids()))
            .map(|id| id.0)
            .max()
            .unwrap_or(0);
        let bound = self.next_id.max(max_id.saturating_add(1));
        Module {
            header: Header {
                version: self.version,
                generator: GENERATOR,
                bound,
                schema: 0,
            },
            instructions: insts,
        }
    }
}

/// Block terminators (spec 2.2.4 "Termination Instruction").
pub fn is_terminator(op: Op) -> bool {
    matches!(
        op,
        Op::Branch
            | Op::BranchConditional
            | Op::Switch
            | Op::Return
            | Op::ReturnValue
            | Op::Kill
            | Op::Unreachable
            | Op::TerminateInvocation
    )
}
