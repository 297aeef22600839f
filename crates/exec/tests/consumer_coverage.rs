//! Opcode coverage of the consumer (issue 3): every opcode of the SPIR-V grammar that an OpenCL
//! full-profile environment admits must appear in a corpus module that `spv::valid` accepts,
//! `kir::lower` lowers and the interpreter runs with the expected output.
//!
//! *Admitted* opcodes: those of the core grammar that exist in SPIR-V 1.0–1.6 (the versions an
//! OpenCL 3.0 device may accept) and are enabled by no capability or by one of [`CL_CAPS`] — the
//! capabilities of a full-profile device with every optional feature and every extension the
//! environment knows (env 3–7, 3.0 "Required Capabilities"). Opcodes only an extension provides
//! are out of scope. Image opcodes no valid module of an OpenCL environment without GL sharing
//! can contain are listed in [`IMAGE_OPS_OUTSIDE_OPENCL`].
//! What the consumer cannot run yet is listed in [`KNOWN_GAPS`]; the test fails when an admitted
//! opcode is neither covered nor listed, and also when a listed gap becomes covered (so the list
//! stays true).
//!
//! The corpus: OpenCL C kernels compiled by clang-15 + llvm-spirv-15 (`cl_cases`) and hand-written
//! SPIR-V assembly (`asm_cases`), each with outputs computed in Rust. Skips with a printed reason
//! when clang-15 or llvm-spirv-15 is absent.

#[path = "consumer_coverage/asm_cases.rs"]
mod asm_cases;
#[path = "consumer_coverage/cl_cases.rs"]
mod cl_cases;
#[path = "consumer_coverage/enqueue_cases.rs"]
mod enqueue_cases;
#[path = "consumer_coverage/harness.rs"]
mod harness;
#[path = "consumer_coverage/image_cases.rs"]
mod image_cases;
#[path = "consumer_coverage/named_barrier_cases.rs"]
mod named_barrier_cases;
#[path = "consumer_coverage/pipe_cases.rs"]
mod pipe_cases;

use std::collections::BTreeSet;

use spv::{Capability as C, Op};

/// Capabilities of a full-profile OpenCL device with every optional feature and extension.
const CL_CAPS: &[C] = &[
    C::Addresses,
    C::Linkage,
    C::Kernel,
    C::Vector16,
    C::Float16Buffer,
    C::Float16,
    C::Int64,
    C::Int8,
    C::Int16,
    C::Float64,
    C::Int64Atomics,
    C::Groups,
    C::GenericPointer,
    C::DeviceEnqueue,
    C::Pipes,
    C::PipeStorage,
    C::SubgroupDispatch,
    C::NamedBarrier,
    C::GroupNonUniform,
    C::GroupNonUniformVote,
    C::GroupNonUniformBallot,
    C::GroupNonUniformArithmetic,
    C::GroupNonUniformShuffle,
    C::GroupNonUniformShuffleRelative,
    C::GroupNonUniformClustered,
    C::ImageBasic,
    C::ImageReadWrite,
    C::ImageMipmap,
    C::LiteralSampler,
    C::Sampled1D,
    C::Image1D,
    C::SampledBuffer,
    C::ImageBuffer,
];

/// Image opcodes an OpenCL environment admits by capability but no valid module can use:
/// `OpImageFetch` needs an image type with `Sampled` 1 and env 2.4.2 requires `Sampled` 0;
/// `OpImageQuerySamples` needs `MS` 1, which only cl_khr_gl_msaa_sharing allows (GL sharing is
/// not supported); `OpImageTexelPointer` needs a pointer in the `Image` storage class, which no
/// OpenCL instruction consumes (OpenCL has no image atomics). The lowering still handles
/// `OpImageFetch` and `OpImageQuerySamples` like `OpImageRead` and a sample count of 1.
const IMAGE_OPS_OUTSIDE_OPENCL: &[Op] =
    &[Op::ImageFetch, Op::ImageQuerySamples, Op::ImageTexelPointer];

/// Admitted opcodes the consumer does not run: none (pipe storage, the last family, runs since
/// issue 3's pipe-storage work: `pipe_cases::pipe_storage`, `tests/pipe_storage.rs`).
const KNOWN_GAPS: &[Op] = &[];

/// Every opcode an OpenCL full-profile environment admits (see the module documentation).
fn admitted_opcodes() -> BTreeSet<Op> {
    (0..=u16::MAX)
        .filter_map(Op::from_u16)
        .filter(|op| {
            let info = op.info();
            info.version <= (1, 6)
                && (info.capabilities.is_empty()
                    || info.capabilities.iter().any(|c| CL_CAPS.contains(c)))
        })
        .collect()
}

fn names(ops: impl IntoIterator<Item = Op>) -> String {
    ops.into_iter()
        .map(|op| op.name())
        .collect::<Vec<_>>()
        .join(" ")
}

#[test]
fn the_admitted_set_is_the_grammar_s() {
    // Independent spot checks against the SPIR-V specification's capability column.
    let admitted = admitted_opcodes();
    for op in [
        Op::IAdd,
        Op::SizeOf,
        Op::PtrDiff,
        Op::GroupNonUniformBallot,
        Op::EnqueueKernel,
        Op::ReadPipe,
        Op::AtomicFlagTestAndSet,
    ] {
        assert!(admitted.contains(&op), "{}", op.name());
    }
    // Shader-only, extension-only, and Matrix instructions are not admitted.
    for op in [
        Op::Kill,
        Op::DPdx,
        Op::MatrixTimesVector,
        Op::BitFieldInsert,
        Op::BitReverse,
        Op::SubgroupBallotKHR,
        Op::ImageSampleImplicitLod,
    ] {
        assert!(!admitted.contains(&op), "{}", op.name());
    }
    for op in IMAGE_OPS_OUTSIDE_OPENCL.iter().chain(KNOWN_GAPS) {
        assert!(
            admitted.contains(op),
            "{} is listed but not admitted",
            op.name()
        );
    }
}

#[test]
fn every_admitted_opcode_runs() {
    if !harness::tools_available() || !named_barrier_cases::tools_available() {
        eprintln!("skipping: clang-15, llvm-spirv-15, spirv-as or spirv-val is not installed");
        return;
    }
    let mut covered = cl_cases::run_all();
    covered.extend(asm_cases::run_all());
    covered.extend(image_cases::run_all());
    covered.extend(pipe_cases::run_all());
    covered.extend(enqueue_cases::run_all());
    covered.extend(named_barrier_cases::run_all());
    let admitted = admitted_opcodes();
    let excepted: BTreeSet<Op> = IMAGE_OPS_OUTSIDE_OPENCL
        .iter()
        .chain(KNOWN_GAPS)
        .copied()
        .collect();
    let missing: Vec<Op> = admitted
        .iter()
        .filter(|op| !covered.contains(op) && !excepted.contains(op))
        .copied()
        .collect();
    let stale: Vec<Op> = KNOWN_GAPS
        .iter()
        .chain(IMAGE_OPS_OUTSIDE_OPENCL)
        .filter(|op| covered.contains(op))
        .copied()
        .collect();
    let covered_admitted: Vec<Op> = admitted
        .iter()
        .filter(|op| covered.contains(op))
        .copied()
        .collect();
    eprintln!(
        "admitted {}, covered {}, image opcodes outside OpenCL {}, known gaps {}",
        admitted.len(),
        covered_admitted.len(),
        IMAGE_OPS_OUTSIDE_OPENCL.len(),
        KNOWN_GAPS.len()
    );
    assert!(
        missing.is_empty(),
        "admitted opcodes no corpus module runs: {}",
        names(missing)
    );
    assert!(
        stale.is_empty(),
        "KNOWN_GAPS lists opcodes that now run: {}",
        names(stale)
    );
}
