//! The capability lists of the OpenCL SPIR-V environment specification, typed here from its
//! text (chapters 3–6 of 2.2-7 and the 3.0 "Required Capabilities"), checked against `Env`:
//! every guaranteed capability is accepted by the minimal device of its version and profile,
//! optional ones only with their extension or feature. Modules are built in the model, so no
//! external tool is needed.

use spv::valid::{feature, validate, ClVersion, Env, Profile};
use spv::{Capability, Header, Id, Instruction, Module, Op, Operand};

/// A kernel module of SPIR-V `version` declaring `caps` (plus Addresses and Kernel).
fn module(version: (u8, u8), caps: &[Capability]) -> Module {
    let i = |op, rt: Option<u32>, r: Option<u32>, ops: Vec<Operand>| {
        Instruction::new(op, rt.map(Id), r.map(Id), ops)
    };
    let mut instructions: Vec<Instruction> = [Capability::Addresses, Capability::Kernel]
        .iter()
        .chain(caps)
        .map(|c| i(Op::Capability, None, None, vec![Operand::Int(*c as u32)]))
        .collect();
    instructions.extend([
        i(
            Op::MemoryModel,
            None,
            None,
            vec![Operand::Int(2), Operand::Int(2)],
        ),
        i(
            Op::EntryPoint,
            None,
            None,
            vec![
                Operand::Int(6),
                Operand::Id(Id(3)),
                Operand::Str("k".into()),
            ],
        ),
        i(Op::TypeVoid, None, Some(1), vec![]),
        i(Op::TypeFunction, None, Some(2), vec![Operand::Id(Id(1))]),
        i(
            Op::Function,
            Some(1),
            Some(3),
            vec![Operand::Int(0), Operand::Id(Id(2))],
        ),
        i(Op::Label, None, Some(4), vec![]),
        i(Op::Return, None, None, vec![]),
        i(Op::FunctionEnd, None, None, vec![]),
    ]);
    Module {
        header: Header {
            version,
            generator: 0,
            bound: 5,
            schema: 0,
        },
        instructions,
    }
}

#[track_caller]
fn accepts(env: &Env, version: (u8, u8), caps: &[Capability]) {
    if let Err(e) = validate(module(version, caps), env) {
        panic!("{env} should accept {caps:?}:\n{e}");
    }
}

#[track_caller]
fn rejects(env: &Env, version: (u8, u8), caps: &[Capability]) {
    match validate(module(version, caps), env) {
        Ok(_) => panic!("{env} should reject {caps:?}"),
        Err(e) => assert!(
            e.has_rule("capabilities an OpenCL environment supports"),
            "{e}"
        ),
    }
}

use Capability as C;

/// Guaranteed in every version and profile (chapters 3–6 and 3.0 "SPIR-V 1.0").
const BASE: &[Capability] = &[
    C::Addresses,
    C::Float16Buffer,
    C::Int16,
    C::Int8,
    C::Kernel,
    C::Linkage,
    C::Vector16,
];
/// Guaranteed by OpenCL 2.0, 2.1 and 2.2 (chapters 3.1, 4.1, 5.1).
const TWO_X: &[Capability] = &[C::DeviceEnqueue, C::GenericPointer, C::Groups, C::Pipes];

#[test]
fn guaranteed_capabilities() {
    for v in [
        ClVersion::Cl12,
        ClVersion::Cl20,
        ClVersion::Cl21,
        ClVersion::Cl22,
    ] {
        for p in [Profile::Full, Profile::Embedded] {
            let env = Env::opencl(v, p, 64);
            let spirv = env.max_spirv_version();
            for &c in BASE {
                accepts(&env, spirv, &[c]);
            }
            // Int64: full profile only (cles_khr_int64 in the embedded profile, env 7.3.1).
            if p == Profile::Full {
                accepts(&env, spirv, &[C::Int64]);
            } else {
                rejects(&env, spirv, &[C::Int64]);
                accepts(
                    &env.clone().with_extension("cles_khr_int64"),
                    spirv,
                    &[C::Int64],
                );
            }
            for &c in TWO_X {
                if v == ClVersion::Cl12 {
                    rejects(&env, spirv, &[c]);
                } else {
                    accepts(&env, spirv, &[c]);
                }
            }
            // SubgroupDispatch and PipeStorage (SPIR-V 1.1): OpenCL 2.2 only (chapter 3.1).
            for c in [C::SubgroupDispatch, C::PipeStorage] {
                if v == ClVersion::Cl22 {
                    accepts(&env, (1, 1), &[c]);
                } else {
                    rejects(&env, (1, 0), &[c]);
                }
            }
        }
    }
}

#[test]
fn optional_capabilities() {
    for v in [
        ClVersion::Cl12,
        ClVersion::Cl20,
        ClVersion::Cl22,
        ClVersion::Cl30,
    ] {
        let env = Env::opencl(v, Profile::Full, 64);
        let spirv = (1, 0);
        // ImageBasic needs image support; its companions need ImageBasic declared.
        rejects(&env, spirv, &[C::ImageBasic]);
        let images = env.clone().with_feature(feature::IMAGES);
        accepts(
            &images,
            spirv,
            &[
                C::ImageBasic,
                C::LiteralSampler,
                C::Sampled1D,
                C::Image1D,
                C::SampledBuffer,
                C::ImageBuffer,
            ],
        );
        rejects(&images, spirv, &[C::Sampled1D]);
        // ImageReadWrite: OpenCL 2.x with images; 3.0 with read-write images.
        match v {
            ClVersion::Cl12 | ClVersion::Cl30 => {
                rejects(&images, spirv, &[C::ImageBasic, C::ImageReadWrite])
            }
            _ => accepts(&images, spirv, &[C::ImageBasic, C::ImageReadWrite]),
        }
        if v == ClVersion::Cl30 {
            accepts(
                &images.clone().with_feature(feature::READ_WRITE_IMAGES),
                spirv,
                &[C::ImageBasic, C::ImageReadWrite],
            );
        }
        // Float64: cl_khr_fp64 (env 7.2.5) or __opencl_c_fp64.
        rejects(&env, spirv, &[C::Float64]);
        accepts(
            &env.clone().with_extension("cl_khr_fp64"),
            spirv,
            &[C::Float64],
        );
        accepts(
            &env.clone().with_feature(feature::FP64),
            spirv,
            &[C::Float64],
        );
        // Float16: cl_khr_fp16 (env 7.2.4). Int64Atomics: the int64 atomics extensions (7.2.8).
        rejects(&env, spirv, &[C::Float16]);
        accepts(
            &env.clone().with_extension("cl_khr_fp16"),
            spirv,
            &[C::Float16],
        );
        rejects(&env, spirv, &[C::Int64, C::Int64Atomics]);
        accepts(
            &env.clone().with_extension("cl_khr_int64_base_atomics"),
            spirv,
            &[C::Int64, C::Int64Atomics],
        );
        accepts(
            &env.clone().with_extension("cl_khr_int64_extended_atomics"),
            spirv,
            &[C::Int64, C::Int64Atomics],
        );
        // Shader-only capabilities are never accepted.
        for c in [C::Shader, C::Matrix, C::Geometry, C::Tessellation] {
            rejects(
                &env.clone()
                    .with_extension("cl_khr_fp64")
                    .with_feature(feature::IMAGES),
                spirv,
                &[c],
            );
        }
    }
}

#[test]
fn opencl_3_0_features() {
    let env = Env::opencl(ClVersion::Cl30, Profile::Full, 64);
    for (cap, feat) in [
        (C::GenericPointer, feature::GENERIC_ADDRESS_SPACE),
        (C::Pipes, feature::PIPES),
        (C::DeviceEnqueue, feature::DEVICE_ENQUEUE),
        (C::Groups, feature::WORK_GROUP_COLLECTIVE_FUNCTIONS),
        (C::Groups, feature::SUBGROUPS),
    ] {
        rejects(&env, (1, 0), &[cap]);
        accepts(&env.clone().with_feature(feat), (1, 0), &[cap]);
    }
    rejects(&env, (1, 1), &[C::SubgroupDispatch]);
    accepts(
        &env.clone().with_feature(feature::SUBGROUPS),
        (1, 1),
        &[C::SubgroupDispatch],
    );
    // Int64 in the 3.0 embedded profile needs __opencl_c_int64.
    let emb = Env::opencl(ClVersion::Cl30, Profile::Embedded, 64);
    rejects(&emb, (1, 0), &[C::Int64]);
    accepts(
        &emb.clone().with_feature(feature::INT64),
        (1, 0),
        &[C::Int64],
    );
}

#[test]
fn spirv_versions() {
    // env 3–6 / 3.0 "Supported SPIR-V Versions": 1.2, 2.0 and 2.1 accept 1.0; 2.2 accepts 1.0–1.2.
    for (v, accepted) in [
        (ClVersion::Cl12, (1, 0)),
        (ClVersion::Cl20, (1, 0)),
        (ClVersion::Cl21, (1, 0)),
        (ClVersion::Cl22, (1, 2)),
        (ClVersion::Cl30, (1, 6)),
    ] {
        let env = Env::opencl(v, Profile::Full, 64);
        for minor in 0..=6u8 {
            let ok = validate(module((1, minor), &[]), &env).is_ok();
            assert_eq!(ok, (1, minor) <= accepted, "{env} with SPIR-V 1.{minor}");
        }
    }
}

#[test]
fn env_names_and_display() {
    let env: Env = "opencl2.2embedded".parse().unwrap();
    assert_eq!(
        (env.cl_version, env.profile),
        (ClVersion::Cl22, Profile::Embedded)
    );
    assert!(
        env.to_string()
            .starts_with("OpenCL 2.2 Embedded Profile (64-bit"),
        "{env}"
    );
    assert!("cuda".parse::<Env>().is_err());
}
