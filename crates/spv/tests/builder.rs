//! The builder puts instructions in the layout order of spec 2.4 whatever the call order,
//! deduplicates types and constants, hoists local variables; spirv-val accepts what it builds.

use spv::{
    AddressingModel, Builder, Capability, Decoration, ExecutionMode, ExecutionModel,
    FunctionControl, MemoryAccess, MemoryModel, Op, OpenClStd, Operand, StorageClass,
};

fn build_kernel() -> spv::Module {
    let mut b = Builder::new((1, 0));
    // Deliberately out of layout order: function first, then mode setting.
    let void = b.type_void();
    let uint = b.type_int(32, false);
    let float = b.type_float(32);
    let ptr_global = b.type_pointer(StorageClass::CrossWorkgroup, float);
    let ptr_fn = b.type_pointer(StorageClass::Function, uint);
    let fn_ty = b.type_function(void, &[ptr_global]);
    assert_eq!(b.type_int(32, false), uint, "types are deduplicated");
    let kernel = b.begin_function(void, None, FunctionControl::NONE, fn_ty);
    let param = b.function_parameter(ptr_global);
    b.begin_block(None);
    let zero = b.constant_u32(uint, 0);
    assert_eq!(b.constant_u32(uint, 0), zero, "constants are deduplicated");
    let x = b
        .inst(
            Op::Load,
            Some(float),
            vec![
                Operand::Id(param),
                Operand::Int(MemoryAccess::ALIGNED.0),
                Operand::Int(4),
            ],
        )
        .expect("OpLoad has a result");
    let y = b.opencl_std(float, OpenClStd::Fabs, &[x]);
    b.inst_no_result(
        Op::Store,
        vec![
            Operand::Id(param),
            Operand::Id(y),
            Operand::Int(MemoryAccess::ALIGNED.0),
            Operand::Int(4),
        ],
    );
    // Called after other instructions: must still land at the start of the entry block.
    let local = b.local_variable(ptr_fn);
    b.inst_no_result(Op::Store, vec![Operand::Id(local), Operand::Id(zero)]);
    assert!(!b.block_terminated());
    b.inst_no_result(Op::Return, vec![]);
    assert!(b.block_terminated());
    b.end_function();
    b.name(kernel, "k");
    b.decorate(param, Decoration::FuncParamAttr, &[Operand::Int(5)]); // NoCapture
    b.entry_point(ExecutionModel::Kernel, kernel, "k", &[]);
    b.execution_mode(kernel, ExecutionMode::LocalSize, &[8, 1, 1]);
    b.memory_model(AddressingModel::Physical64, MemoryModel::OpenCL);
    b.capability(Capability::Addresses);
    b.capability(Capability::Kernel);
    b.capability(Capability::Kernel);
    b.finish()
}

#[test]
fn layout_order_and_hoisting() {
    let m = build_kernel();
    let ops: Vec<Op> = m.instructions.iter().map(|i| i.op).collect();
    let pos = |op: Op| ops.iter().position(|&o| o == op).unwrap();
    assert_eq!(ops.iter().filter(|&&o| o == Op::Capability).count(), 2);
    assert!(pos(Op::Capability) < pos(Op::ExtInstImport));
    assert!(pos(Op::ExtInstImport) < pos(Op::MemoryModel));
    assert!(pos(Op::MemoryModel) < pos(Op::EntryPoint));
    assert!(pos(Op::EntryPoint) < pos(Op::ExecutionMode));
    assert!(pos(Op::ExecutionMode) < pos(Op::Name));
    assert!(pos(Op::Name) < pos(Op::Decorate));
    assert!(pos(Op::Decorate) < pos(Op::TypeVoid));
    assert!(pos(Op::Constant) < pos(Op::Function));
    assert_eq!(ops[pos(Op::Label) + 1], Op::Variable);
    assert_eq!(*ops.last().unwrap(), Op::FunctionEnd);
    let max = m
        .instructions
        .iter()
        .filter_map(|i| i.result)
        .map(|i| i.0)
        .max()
        .unwrap();
    assert_eq!(m.header.bound, max + 1);
    // Reads back identically.
    let words = m.to_words();
    assert_eq!(spv::read_words(&words).unwrap().to_words(), words);
}

#[test]
fn spirv_val_accepts_built_kernel() {
    let m = build_kernel();
    let dir = std::env::temp_dir().join(format!("spv-builder-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("k.spv");
    std::fs::write(&path, m.to_bytes()).unwrap();
    let out = match std::process::Command::new("spirv-val")
        .args(["--target-env", "opencl2.0"])
        .arg(&path)
        .output()
    {
        Ok(o) => o,
        Err(e) => {
            eprintln!("skipping: spirv-val not runnable: {e}");
            return;
        }
    };
    let _ = std::fs::remove_dir_all(&dir);
    assert!(
        out.status.success(),
        "spirv-val: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}
