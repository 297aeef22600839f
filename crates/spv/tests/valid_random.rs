//! The validator never panics: random instruction sequences built from the grammar (random
//! opcodes with operands of the kinds the grammar gives, random ids), random edits of a valid
//! kernel, and every truncation of a valid kernel all get a verdict.

use spv::valid::{validate, ClVersion, Env, Profile};
use spv::{
    Header, Id, Instruction, Module, Op, Operand, OperandCategory, OperandKind, OperandSpec,
    Quantifier, INSTRUCTIONS,
};

/// xorshift64*: a small deterministic generator, so failures reproduce from the seed.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    fn below(&mut self, n: u64) -> u64 {
        if n == 0 {
            0
        } else {
            self.next() % n
        }
    }
    fn chance(&mut self, percent: u64) -> bool {
        self.below(100) < percent
    }
}

fn random_id(rng: &mut Rng, bound: u32) -> Id {
    if rng.chance(3) {
        Id(rng.below(u64::from(u32::MAX)) as u32)
    } else {
        Id(rng.below(u64::from(bound) + 2) as u32)
    }
}

fn push_kind(rng: &mut Rng, kind: OperandKind, bound: u32, out: &mut Vec<Operand>, depth: u32) {
    if depth > 6 {
        return;
    }
    match kind.category() {
        OperandCategory::Id => out.push(Operand::Id(random_id(rng, bound))),
        OperandCategory::Literal => match kind {
            OperandKind::LiteralString => {
                let names = [
                    "OpenCL.std",
                    "main",
                    "",
                    "GLSL.std.450",
                    "SPV_KHR_foo",
                    "%d %f\n",
                ];
                out.push(Operand::Str(
                    names[rng.below(names.len() as u64) as usize].to_string(),
                ))
            }
            OperandKind::LiteralContextDependentNumber if rng.chance(30) => {
                out.push(Operand::Wide(rng.next()))
            }
            _ => out.push(Operand::Int(if rng.chance(50) {
                rng.below(70) as u32
            } else {
                rng.next() as u32
            })),
        },
        OperandCategory::ValueEnum => {
            let table = kind.enumerants();
            if table.is_empty() || rng.chance(5) {
                out.push(Operand::Int(rng.next() as u32));
                return;
            }
            let e = &table[rng.below(table.len() as u64) as usize];
            out.push(Operand::Int(e.value));
            push_specs(rng, e.parameters, bound, out, depth + 1);
        }
        OperandCategory::BitEnum => {
            let table = kind.enumerants();
            let mut mask = 0u32;
            for e in table {
                if e.value != 0 && rng.chance(15) {
                    mask |= e.value;
                }
            }
            if rng.chance(3) {
                mask = rng.next() as u32;
            }
            out.push(Operand::Int(mask));
            for bit in 0..32 {
                if mask & (1 << bit) != 0 {
                    if let Some(e) = kind.enumerant(1 << bit) {
                        push_specs(rng, e.parameters, bound, out, depth + 1);
                    }
                }
            }
        }
        OperandCategory::Composite => {
            for &b in kind.bases() {
                push_kind(rng, b, bound, out, depth + 1);
            }
        }
    }
}

fn push_specs(
    rng: &mut Rng,
    specs: &[OperandSpec],
    bound: u32,
    out: &mut Vec<Operand>,
    depth: u32,
) {
    for s in specs {
        if matches!(s.kind, OperandKind::IdResult | OperandKind::IdResultType) {
            continue;
        }
        let times = match s.quantifier {
            Quantifier::One => 1,
            Quantifier::Optional => rng.below(2),
            Quantifier::Many => rng.below(4),
        };
        for _ in 0..times {
            push_kind(rng, s.kind, bound, out, depth);
        }
    }
}

fn random_instruction(rng: &mut Rng, bound: u32) -> Instruction {
    let info = &INSTRUCTIONS[rng.below(INSTRUCTIONS.len() as u64) as usize];
    let op = Op::from_u16(info.opcode).expect("grammar opcode");
    let mut operands = Vec::new();
    push_specs(rng, info.operands, bound, &mut operands, 0);
    if rng.chance(5) {
        operands.pop();
    }
    Instruction::new(
        op,
        op.has_result_type().then(|| random_id(rng, bound)),
        op.has_result().then(|| random_id(rng, bound)),
        operands,
    )
}

/// A valid OpenCL kernel built directly in the model (no external tool needed).
fn template() -> Module {
    let i = |op, rt: Option<u32>, r: Option<u32>, ops: Vec<Operand>| {
        Instruction::new(op, rt.map(Id), r.map(Id), ops)
    };
    let id = |n| Operand::Id(Id(n));
    let int = Operand::Int;
    Module {
        header: Header {
            version: (1, 0),
            generator: 0,
            bound: 20,
            schema: 0,
        },
        instructions: vec![
            i(Op::Capability, None, None, vec![int(4)]),  // Addresses
            i(Op::Capability, None, None, vec![int(6)]),  // Kernel
            i(Op::Capability, None, None, vec![int(11)]), // Int64
            i(
                Op::ExtInstImport,
                None,
                Some(1),
                vec![Operand::Str("OpenCL.std".into())],
            ),
            i(Op::MemoryModel, None, None, vec![int(2), int(2)]), // Physical64 OpenCL
            i(
                Op::EntryPoint,
                None,
                None,
                vec![int(6), id(5), Operand::Str("k".into())],
            ),
            i(Op::TypeVoid, None, Some(2), vec![]),
            i(Op::TypeInt, None, Some(3), vec![int(32), int(0)]),
            i(Op::TypePointer, None, Some(4), vec![int(5), id(3)]), // CrossWorkgroup uint*
            i(Op::TypeFunction, None, Some(6), vec![id(2), id(4)]),
            i(Op::Constant, Some(3), Some(7), vec![int(1)]),
            i(Op::TypeBool, None, Some(12), vec![]),
            i(Op::Function, Some(2), Some(5), vec![int(0), id(6)]),
            i(Op::FunctionParameter, Some(4), Some(8), vec![]),
            i(Op::Label, None, Some(9), vec![]),
            i(Op::Load, Some(3), Some(10), vec![id(8)]),
            i(Op::IAdd, Some(3), Some(11), vec![id(10), id(7)]),
            i(Op::ULessThan, Some(12), Some(13), vec![id(10), id(11)]),
            i(Op::SelectionMerge, None, None, vec![id(15), int(0)]),
            i(
                Op::BranchConditional,
                None,
                None,
                vec![id(13), id(14), id(15)],
            ),
            i(Op::Label, None, Some(14), vec![]),
            i(Op::Store, None, None, vec![id(8), id(11)]),
            i(Op::Branch, None, None, vec![id(15)]),
            i(Op::Label, None, Some(15), vec![]),
            i(
                Op::Phi,
                Some(3),
                Some(16),
                vec![id(7), id(9), id(11), id(14)],
            ),
            i(Op::Return, None, None, vec![]),
            i(Op::FunctionEnd, None, None, vec![]),
        ],
    }
}

fn envs() -> Vec<Env> {
    vec![
        Env::opencl(ClVersion::Cl12, Profile::Full, 64),
        Env::from_target_env("opencl2.0").unwrap(),
        Env::opencl(ClVersion::Cl30, Profile::Embedded, 32),
    ]
}

fn check_no_panic(module: Module, what: &str) {
    for env in envs() {
        let m = module.clone();
        let result = std::panic::catch_unwind(|| validate(m, &env).map(|_| ()));
        if result.is_err() {
            panic!("validate panicked on {what} for {env}:\n{module:#?}");
        }
    }
}

#[test]
fn template_is_valid() {
    for env in envs().into_iter().skip(1).take(1) {
        if let Err(e) = validate(template(), &env) {
            panic!("{e}");
        }
    }
}

#[test]
fn random_instruction_sequences() {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    for case in 0..1500 {
        let bound = 1 + rng.below(40) as u32;
        let n = rng.below(40) as usize;
        let version = (1, rng.below(8) as u8);
        let instructions = (0..n)
            .map(|_| random_instruction(&mut rng, bound))
            .collect();
        let module = Module {
            header: Header {
                version,
                generator: 0,
                bound,
                schema: 0,
            },
            instructions,
        };
        check_no_panic(module, &format!("random module {case}"));
    }
}

#[test]
fn random_instructions_inside_a_kernel() {
    let mut rng = Rng(0x1234_5678_9abc_def1);
    for case in 0..1500 {
        let mut m = template();
        let count = 1 + rng.below(6);
        for _ in 0..count {
            let at = 12 + rng.below((m.instructions.len() - 12) as u64) as usize;
            let inst = random_instruction(&mut rng, 24);
            m.instructions.insert(at, inst);
        }
        m.header.bound = 24;
        check_no_panic(m, &format!("kernel with random instructions {case}"));
    }
}

#[test]
fn random_edits_of_a_kernel() {
    let mut rng = Rng(0xdead_beef_cafe_f00d);
    for case in 0..2000 {
        let mut m = template();
        for _ in 0..1 + rng.below(4) {
            let len = m.instructions.len() as u64;
            let k = rng.below(len) as usize;
            match rng.below(7) {
                0 => {
                    m.instructions.remove(k);
                }
                1 => {
                    let dup = m.instructions[k].clone();
                    m.instructions.insert(k, dup);
                }
                2 => {
                    let j = rng.below(len) as usize;
                    m.instructions.swap(k, j);
                }
                3 => {
                    let inst = &mut m.instructions[k];
                    if !inst.operands.is_empty() {
                        let o = rng.below(inst.operands.len() as u64) as usize;
                        inst.operands[o] = if rng.chance(50) {
                            Operand::Id(Id(rng.below(22) as u32))
                        } else {
                            Operand::Int(rng.below(40) as u32)
                        };
                    }
                }
                4 => {
                    let info = &INSTRUCTIONS[rng.below(INSTRUCTIONS.len() as u64) as usize];
                    m.instructions[k].op = Op::from_u16(info.opcode).unwrap();
                }
                5 => {
                    m.instructions[k].operands.truncate(rng.below(3) as usize);
                }
                _ => {
                    let inst = &mut m.instructions[k];
                    inst.result = inst.result.map(|_| Id(rng.below(22) as u32));
                    inst.result_type = inst.result_type.map(|_| Id(rng.below(22) as u32));
                }
            }
            if rng.chance(10) {
                m.header.bound = rng.below(30) as u32;
            }
            if rng.chance(10) {
                m.header.version = (rng.below(3) as u8, rng.below(8) as u8);
            }
        }
        check_no_panic(m, &format!("edited kernel {case}"));
    }
}

#[test]
fn every_truncation_of_a_kernel() {
    let full = template();
    for n in 0..=full.instructions.len() {
        let mut m = full.clone();
        m.instructions.truncate(n);
        check_no_panic(m.clone(), &format!("first {n} instructions"));
        let mut tail = full.clone();
        tail.instructions.drain(..n);
        check_no_panic(tail, &format!("instructions from {n}"));
    }
}

/// Self-referential and cyclic types (which the grammar cannot forbid) end in a verdict.
#[test]
fn cyclic_types() {
    let mut m = template();
    let i = |op, rt: Option<u32>, r: Option<u32>, ops: Vec<Operand>| {
        Instruction::new(op, rt.map(Id), r.map(Id), ops)
    };
    let at = m
        .instructions
        .iter()
        .position(|x| x.op == Op::TypeVoid)
        .unwrap();
    m.header.bound = 40;
    m.instructions.splice(
        at..at,
        [
            i(
                Op::TypeVector,
                None,
                Some(30),
                vec![Operand::Id(Id(30)), Operand::Int(4)],
            ),
            i(
                Op::TypeArray,
                None,
                Some(31),
                vec![Operand::Id(Id(31)), Operand::Id(Id(7))],
            ),
            i(
                Op::TypeStruct,
                None,
                Some(32),
                vec![Operand::Id(Id(32)), Operand::Id(Id(33))],
            ),
            i(
                Op::TypePointer,
                None,
                Some(33),
                vec![Operand::Int(5), Operand::Id(Id(33))],
            ),
            i(
                Op::TypePointer,
                None,
                Some(34),
                vec![Operand::Int(7), Operand::Id(Id(30))],
            ),
            i(
                Op::TypePointer,
                None,
                Some(35),
                vec![Operand::Int(7), Operand::Id(Id(31))],
            ),
        ],
    );
    let fn_at = m
        .instructions
        .iter()
        .position(|x| x.op == Op::Label)
        .unwrap()
        + 1;
    m.instructions.splice(
        fn_at..fn_at,
        [
            i(Op::Variable, Some(34), Some(36), vec![Operand::Int(7)]),
            i(Op::Variable, Some(35), Some(37), vec![Operand::Int(7)]),
        ],
    );
    let dec = m
        .instructions
        .iter()
        .position(|x| x.op == Op::TypeVoid)
        .unwrap()
        - 6;
    m.instructions.splice(
        dec..dec,
        [
            i(
                Op::Decorate,
                None,
                None,
                vec![Operand::Id(Id(36)), Operand::Int(44), Operand::Int(1)],
            ),
            i(
                Op::Decorate,
                None,
                None,
                vec![Operand::Id(Id(37)), Operand::Int(44), Operand::Int(1)],
            ),
        ],
    );
    check_no_panic(m, "cyclic types");
}

/// A long chain of blocks, each using a value of the entry block: dominance queries stay cheap
/// (the whole module validates well within a second in a debug build).
#[test]
fn long_block_chain() {
    let mut m = template();
    let body_start = m
        .instructions
        .iter()
        .position(|x| x.op == Op::Label)
        .unwrap()
        + 1;
    let ret = m
        .instructions
        .iter()
        .position(|x| x.op == Op::Return)
        .unwrap();
    // Keep the entry block's load and add; replace the rest of the body by a chain.
    let mut body: Vec<Instruction> = m.instructions[body_start..body_start + 2].to_vec();
    let blocks = 20_000u32;
    let first = 100u32;
    for k in 0..blocks {
        let label = first + 2 * k;
        body.push(Instruction::new(
            Op::Branch,
            None,
            None,
            vec![Operand::Id(Id(label))],
        ));
        body.push(Instruction::new(Op::Label, None, Some(Id(label)), vec![]));
        body.push(Instruction::new(
            Op::IAdd,
            Some(Id(3)),
            Some(Id(label + 1)),
            vec![Operand::Id(Id(11)), Operand::Id(Id(10))],
        ));
    }
    m.instructions.splice(body_start..ret, body);
    m.header.bound = first + 2 * blocks + 1;
    let start = std::time::Instant::now();
    let env = Env::from_target_env("opencl2.0").unwrap();
    if let Err(e) = validate(m, &env) {
        panic!("{e}");
    }
    let took = start.elapsed();
    assert!(took.as_secs_f64() < 5.0, "validation took {took:?}");
}

/// Random edits of modules written by clang-15 + llvm-spirv-15 (richer than the template:
/// decorations, extended instructions, images, atomics, printf); skipped without the tools.
#[test]
fn random_edits_of_clang_modules() {
    let tools = ["clang-15", "llvm-spirv-15"];
    if tools.iter().any(|t| {
        !std::process::Command::new(t)
            .arg("--version")
            .output()
            .map(|o| o.status.success())
            .unwrap_or(false)
    }) {
        eprintln!("skipped: clang-15 or llvm-spirv-15 is not installed");
        return;
    }
    let source = "constant sampler_t cs = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP | CLK_FILTER_NEAREST;\n\
        kernel void k(global float4* f, global int* c, local int* l, read_only image2d_t img, write_only image2d_t out) {\n\
          size_t g = get_global_id(0);\n\
          float4 v = read_imagef(img, cs, (int2)(g, 0)) + fmax(f[g], 1.0f);\n\
          write_imagef(out, (int2)(g, 0), v);\n\
          atomic_add(c, 1); l[0] = c[1]; barrier(CLK_LOCAL_MEM_FENCE);\n\
          for (int k = 0; k < 4; k++) { if (k == c[2]) break; f[k] = convert_float4_rtz(convert_int4_sat(v)); }\n\
          printf(\"%d %v4hlf\\n\", (int)g, v);\n\
        }\n";
    let dir = std::env::temp_dir().join(format!("oxcl-valid-random-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (cl, bc, spv) = (dir.join("k.cl"), dir.join("k.bc"), dir.join("k.spv"));
    std::fs::write(&cl, source).unwrap();
    let ok = std::process::Command::new("clang-15")
        .args([
            "-c",
            "-target",
            "spir64",
            "-cl-std=CL2.0",
            "-O0",
            "-emit-llvm",
            "-o",
        ])
        .arg(&bc)
        .arg(&cl)
        .status()
        .unwrap()
        .success()
        && std::process::Command::new("llvm-spirv-15")
            .arg("--spirv-max-version=1.2")
            .arg(&bc)
            .arg("-o")
            .arg(&spv)
            .status()
            .unwrap()
            .success();
    assert!(ok, "clang-15 / llvm-spirv-15 failed");
    let base = spv::read_bytes(&std::fs::read(&spv).unwrap()).unwrap();
    let env = Env::from_target_env("opencl2.0").unwrap();
    if let Err(e) = validate(base.clone(), &env) {
        panic!("the unedited module must validate: {e}");
    }
    let bound = base.header.bound;
    let mut rng = Rng(0x0bad_cafe_1234_5678);
    for case in 0..600 {
        let mut m = base.clone();
        for _ in 0..1 + rng.below(3) {
            let len = m.instructions.len() as u64;
            let k = rng.below(len) as usize;
            match rng.below(5) {
                0 => {
                    m.instructions.remove(k);
                }
                1 => {
                    let j = rng.below(len) as usize;
                    m.instructions.swap(k, j);
                }
                2 => {
                    let inst = &mut m.instructions[k];
                    if !inst.operands.is_empty() {
                        let o = rng.below(inst.operands.len() as u64) as usize;
                        inst.operands[o] = match inst.operands[o] {
                            Operand::Id(_) => {
                                Operand::Id(Id(rng.below(u64::from(bound) + 1) as u32))
                            }
                            _ => Operand::Int(rng.below(300) as u32),
                        };
                    }
                }
                3 => {
                    let inst = random_instruction(&mut rng, bound);
                    m.instructions.insert(k, inst);
                }
                _ => {
                    let inst = &mut m.instructions[k];
                    inst.result_type = inst
                        .result_type
                        .map(|_| Id(rng.below(u64::from(bound)) as u32));
                }
            }
        }
        check_no_panic(m, &format!("edited clang module {case}"));
    }
}
