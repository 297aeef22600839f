//! The fuzz target's function (`kir::lower::fuzz::read_validate_lower`: read → validate → lower)
//! on a few thousand mutated modules: nothing may panic. Seeds are hand-written SPIR-V assembly
//! and, when clang-15 and llvm-spirv-15 are installed, compiled OpenCL C. Mutations (seeded
//! xorshift, so every run is the same) replace, flip, delete, duplicate, swap and truncate
//! words and whole instructions. A panicking input is written to the temp directory and named in
//! the failure.

mod lower_common;

use kir::lower::fuzz::{read_validate_lower, Stage};

/// Selector byte of a full-profile OpenCL 3.0 64-bit device with every extension and feature.
const FULL_30: u8 = 4 | 0x20 | 0x40;

const SEED_ARITH: &str = "
; Version: 1.4
OpCapability Addresses
OpCapability Kernel
OpCapability Int64
OpCapability Int8
%std = OpExtInstImport \"OpenCL.std\"
OpMemoryModel Physical64 OpenCL
OpEntryPoint Kernel %main \"k\" %gid
OpDecorate %gid BuiltIn GlobalInvocationId
OpDecorate %gid Constant
%void = OpTypeVoid
%bool = OpTypeBool
%uchar = OpTypeInt 8 0
%uint = OpTypeInt 32 0
%ulong = OpTypeInt 64 0
%float = OpTypeFloat 32
%v3ulong = OpTypeVector %ulong 3
%v4uint = OpTypeVector %uint 4
%ptr_in_v3 = OpTypePointer Input %v3ulong
%ptr_cw_uint = OpTypePointer CrossWorkgroup %uint
%ptr_fn_uint = OpTypePointer Function %uint
%kfn = OpTypeFunction %void %ptr_cw_uint %uint
%u0 = OpConstant %uint 0
%u1 = OpConstant %uint 1
%u3 = OpConstant %uint 3
%u4 = OpConstant %uint 4
%arr = OpTypeArray %uint %u4
%ptr_fn_arr = OpTypePointer Function %arr
%u31 = OpConstant %uint 31
%f2 = OpConstant %float 2.5
%vc = OpConstantComposite %v4uint %u0 %u1 %u3 %u4
%gid = OpVariable %ptr_in_v3 Input
%main = OpFunction %void None %kfn
%out = OpFunctionParameter %ptr_cw_uint
%n = OpFunctionParameter %uint
%entry = OpLabel
%tmp = OpVariable %ptr_fn_arr Function
%ids = OpLoad %v3ulong %gid
%id = OpCompositeExtract %ulong %ids 0
%i = OpUConvert %uint %id
OpBranch %head
%head = OpLabel
%k = OpPhi %uint %u0 %entry %k2 %body
%acc = OpPhi %uint %i %entry %acc2 %body
%more = OpULessThan %bool %k %n
OpLoopMerge %exit %body None
OpBranchConditional %more %body %exit
%body = OpLabel
%sh = OpShiftLeftLogical %uint %acc %u3
%x = OpBitwiseXor %uint %sh %k
%d = OpUDiv %uint %x %u3
%acc2 = OpIAdd %uint %d %u1
%slot = OpAccessChain %ptr_fn_uint %tmp %u3
OpStore %slot %acc2
%k2 = OpIAdd %uint %k %u1
OpBranch %head
%exit = OpLabel
%lane = OpVectorExtractDynamic %uint %vc %i
%fl = OpConvertUToF %float %acc
%fm = OpExtInst %float %std fma %fl %f2 %fl
%back = OpConvertFToU %uint %fm
%sum = OpIAdd %uint %back %lane
%sel = OpSelect %uint %more %sum %u31
OpSwitch %sel %def 0 %case0 7 %case7
%case0 = OpLabel
OpBranch %def
%case7 = OpLabel
OpBranch %def
%def = OpLabel
%p = OpInBoundsPtrAccessChain %ptr_cw_uint %out %id
OpStore %p %sel Aligned 4
OpReturn
OpFunctionEnd
";

const SEED_MEMORY: &str = "
; Version: 1.2
OpCapability Addresses
OpCapability Kernel
OpCapability Int64
OpCapability Groups
OpCapability GenericPointer
OpMemoryModel Physical64 OpenCL
OpEntryPoint Kernel %main \"k\"
%void = OpTypeVoid
%bool = OpTypeBool
%uint = OpTypeInt 32 0
%ulong = OpTypeInt 64 0
%st = OpTypeStruct %uint %ulong
%ptr_cw_uint = OpTypePointer CrossWorkgroup %uint
%ptr_wg_uint = OpTypePointer Workgroup %uint
%ptr_gen_uint = OpTypePointer Generic %uint
%ptr_fn_st = OpTypePointer Function %st
%ptr_fn_uint = OpTypePointer Function %uint
%kfn = OpTypeFunction %void %ptr_cw_uint %ptr_wg_uint
%u0 = OpConstant %uint 0
%u1 = OpConstant %uint 1
%u2 = OpConstant %uint 2
%u3 = OpConstant %uint 3
%u272 = OpConstant %uint 272
%l2 = OpConstant %ulong 2
%main = OpFunction %void None %kfn
%out = OpFunctionParameter %ptr_cw_uint
%loc = OpFunctionParameter %ptr_wg_uint
%entry = OpLabel
%v = OpVariable %ptr_fn_st Function
%f0 = OpAccessChain %ptr_fn_uint %v %u0
OpStore %f0 %u3
%old = OpAtomicIAdd %uint %out %u1 %u0 %u2
OpStore %loc %old
OpControlBarrier %u2 %u2 %u272
%g = OpPtrCastToGeneric %ptr_gen_uint %loc
%gv = OpLoad %uint %g
%sum = OpGroupIAdd %uint %u2 Reduce %gv
%p = OpPtrAccessChain %ptr_cw_uint %out %l2
%w = OpLoad %uint %f0
%t = OpIAdd %uint %sum %w
OpStore %p %t
OpReturn
OpFunctionEnd
";

const SEED_CL: &str = r#"
typedef struct { int a; float b[3]; } S;
constant int table[3] = {1, 2, 3};
int helper(S *s, int k) { return s->a * table[k % 3] + (int)s->b[k % 3]; }
kernel void k(global int *out, global float4 *v, local int *tmp, int n) {
    int i = get_global_id(0);
    S s = { i, { 1.0f, 2.0f, 3.0f } };
    tmp[get_local_id(0)] = helper(&s, n);
    barrier(CLK_LOCAL_MEM_FENCE);
    float4 x = v[i];
    v[i] = x.wzyx * (float4)(sqrt(x.x)) + (float4)(dot(x, x));
    switch (n & 3) { case 0: out[i] = tmp[0]; break; case 1: out[i] = atomic_add(out, i); break; default: out[i] = work_group_reduce_max(i); }
    printf("%d %v4hlf\n", i, x);
}
"#;

/// xorshift64*: a small deterministic generator.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            0
        } else {
            (self.next() % n as u64) as usize
        }
    }
}

fn to_words(bytes: &[u8]) -> Vec<u32> {
    bytes
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect()
}

/// Word ranges of the instructions after the 5-word header (stops at a malformed count).
fn instruction_ranges(words: &[u32]) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut k = 5;
    while k < words.len() {
        let count = (words[k] >> 16) as usize;
        if count == 0 || k + count > words.len() {
            break;
        }
        out.push((k, k + count));
        k += count;
    }
    out
}

fn mutate(rng: &mut Rng, words: &mut Vec<u32>) {
    let insts = instruction_ranges(words);
    match rng.below(9) {
        0 | 1 => {
            // An operand word of an instruction := an interesting value.
            if let Some(&(s, e)) = insts.get(rng.below(insts.len())) {
                if e > s + 1 {
                    let at = s + 1 + rng.below(e - s - 1);
                    let bound = words.get(3).copied().unwrap_or(0);
                    let choices = [
                        0,
                        1,
                        2,
                        3,
                        4,
                        5,
                        16,
                        31,
                        32,
                        63,
                        64,
                        u32::MAX,
                        0x8000_0000,
                        0x7fff_ffff,
                        words[at].wrapping_add(1),
                        words[at].wrapping_sub(1),
                        bound.wrapping_sub(1),
                        bound,
                        rng.below(bound.max(1) as usize) as u32,
                    ];
                    words[at] = choices[rng.below(choices.len())];
                }
            }
        }
        2 => {
            let at = rng.below(words.len());
            words[at] ^= 1 << rng.below(32);
        }
        3 => {
            if let Some(&(s, e)) = insts.get(rng.below(insts.len())) {
                words.drain(s..e);
            }
        }
        4 => {
            if let Some(&(s, e)) = insts.get(rng.below(insts.len())) {
                let copy: Vec<u32> = words[s..e].to_vec();
                let at = insts.get(rng.below(insts.len())).map_or(s, |r| r.0);
                words.splice(at..at, copy);
            }
        }
        5 => {
            if insts.len() >= 2 {
                let a = rng.below(insts.len() - 1);
                let (s1, e1) = insts[a];
                let (s2, e2) = insts[a + 1];
                let mut swapped: Vec<u32> = words[s2..e2].to_vec();
                swapped.extend_from_slice(&words[s1..e1]);
                words.splice(s1..e2, swapped);
            }
        }
        6 => {
            let len = 5 + rng.below(words.len().saturating_sub(5) + 1);
            words.truncate(len);
        }
        7 => {
            // The opcode of an instruction := another opcode with the same word count.
            if let Some(&(s, _)) = insts.get(rng.below(insts.len())) {
                let op = 1 + rng.below(400) as u32;
                words[s] = (words[s] & 0xffff_0000) | op;
            }
        }
        _ => {
            // A literal of a 32-bit constant.
            let consts: Vec<usize> = insts
                .iter()
                .filter(|(s, e)| words[*s] & 0xffff == 43 && e - s == 4)
                .map(|(s, _)| s + 3)
                .collect();
            if let Some(&at) = consts.get(rng.below(consts.len())) {
                words[at] = rng.next() as u32;
            }
        }
    }
}

fn check(input: &[u8], what: &str) -> Stage {
    match std::panic::catch_unwind(|| read_validate_lower(input)) {
        Ok(stage) => stage,
        Err(_) => {
            let path = std::env::temp_dir().join(format!(
                "oxcl_fuzz_crash_{}_{}.bin",
                std::process::id(),
                what
            ));
            let _ = std::fs::write(&path, input);
            panic!(
                "read/validate/lower panicked on {what}; input saved to {}",
                path.display()
            );
        }
    }
}

#[test]
fn mutated_modules_never_panic() {
    let mut seeds: Vec<Vec<u32>> = Vec::new();
    for text in [SEED_ARITH, SEED_MEMORY] {
        let module = spv::assemble(text).expect("seed assembles");
        seeds.push(module.to_words());
    }
    if let Some(bytes) = lower_common::compile(SEED_CL) {
        seeds.push(to_words(&bytes));
    }
    // The seeds themselves lower.
    for (k, seed) in seeds.iter().enumerate() {
        let mut input = vec![FULL_30];
        input.extend(seed.iter().flat_map(|w| w.to_le_bytes()));
        let stage = check(&input, &format!("seed{k}"));
        if stage != Stage::Lowered {
            let module = spv::read_bytes(&input[1..]).expect("seed reads");
            let env = kir::lower::fuzz::env_for(FULL_30);
            match spv::valid::validate(module, &env) {
                Err(e) => panic!("seed {k} does not validate: {e:?}"),
                Ok(valid) => panic!("seed {k} does not lower: {:?}", kir::lower::lower(&valid)),
            }
        }
    }
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let mut counts = [0usize; 4];
    let iterations = 4000;
    for n in 0..iterations {
        let mut words = seeds[n % seeds.len()].clone();
        for _ in 0..1 + rng.below(3) {
            mutate(&mut rng, &mut words);
        }
        let selector = if rng.below(8) == 0 {
            rng.next() as u8
        } else {
            FULL_30
        };
        let mut input = vec![selector];
        input.extend(words.iter().flat_map(|w| w.to_le_bytes()));
        if rng.below(16) == 0 {
            // A ragged tail.
            input.truncate(input.len().saturating_sub(1 + rng.below(3)));
        }
        let stage = check(&input, &format!("iteration{n}"));
        counts[stage as usize] += 1;
    }
    eprintln!(
        "unreadable {}, invalid {}, not lowered {}, lowered {}",
        counts[0], counts[1], counts[2], counts[3]
    );
    // The mutations reach the lowering, not only the reader.
    assert!(counts[3] > iterations / 50, "{counts:?}");
}

#[test]
fn arbitrary_bytes_never_panic() {
    let mut rng = Rng(42);
    for n in 0..2000 {
        let len = rng.below(200);
        let mut input: Vec<u8> = (0..len).map(|_| rng.next() as u8).collect();
        if input.len() > 5 && n % 2 == 0 {
            // Start with a valid header so the reader goes further.
            let header: Vec<u8> = [spv::MAGIC, 0x0001_0000, 0, 100, 0]
                .iter()
                .flat_map(|w| w.to_le_bytes())
                .collect();
            let keep = input.len().min(header.len() + 1);
            input.splice(1..keep, header);
        }
        check(&input, &format!("bytes{n}"));
    }
}
