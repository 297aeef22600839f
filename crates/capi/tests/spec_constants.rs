//! `clSetProgramSpecializationConstant` (API 5.8.6) on a module assembled by `spirv-as` with
//! `OpSpecConstant`/`OpSpecConstantFalse` of four types, and the program-scope variable queries
//! (`CL_PROGRAM_BUILD_GLOBAL_VARIABLE_TOTAL_SIZE`, `CL_PROGRAM_SCOPE_GLOBAL_*_PRESENT`).
//! Expected values are computed in the test from the kernel's formula.

mod direct;

use std::ffi::c_void;
use std::ptr::null_mut;

use direct::{check, spirv_as, Session};
use oxcl::consts::*;
use oxcl::kernel::*;
use oxcl::memory::*;
use oxcl::program::*;

/// `p[i] = sel(neg, -(p[i]*scale + offset), p[i]*scale + offset)`, `q[i] = q[i] * fscale`
/// with `scale` (SpecId 3, uint, default 2), `offset` (SpecId 7, ulong, default 100),
/// `neg` (SpecId 9, bool, default false), `fscale` (SpecId 11, float, default 1.5).
const MODULE: &str = r#"
OpCapability Addresses
OpCapability Kernel
OpCapability Int64
OpMemoryModel Physical64 OpenCL
OpEntryPoint Kernel %k "spec" %gid
OpDecorate %gid BuiltIn GlobalInvocationId
OpDecorate %gid Constant
OpDecorate %scale SpecId 3
OpDecorate %offset SpecId 7
OpDecorate %neg SpecId 9
OpDecorate %fscale SpecId 11
%void = OpTypeVoid
%bool = OpTypeBool
%uint = OpTypeInt 32 0
%ulong = OpTypeInt 64 0
%float = OpTypeFloat 32
%v3ulong = OpTypeVector %ulong 3
%ptr_in = OpTypePointer Input %v3ulong
%ptr_u = OpTypePointer CrossWorkgroup %uint
%ptr_f = OpTypePointer CrossWorkgroup %float
%fn = OpTypeFunction %void %ptr_u %ptr_f
%scale = OpSpecConstant %uint 2
%offset = OpSpecConstant %ulong 100
%neg = OpSpecConstantFalse %bool
%fscale = OpSpecConstant %float 1.5
%gid = OpVariable %ptr_in Input
%k = OpFunction %void None %fn
%p = OpFunctionParameter %ptr_u
%q = OpFunctionParameter %ptr_f
%entry = OpLabel
%ids = OpLoad %v3ulong %gid Aligned 32
%i = OpCompositeExtract %ulong %ids 0
%pa = OpInBoundsPtrAccessChain %ptr_u %p %i
%v = OpLoad %uint %pa Aligned 4
%m = OpIMul %uint %v %scale
%o = OpUConvert %uint %offset
%s = OpIAdd %uint %m %o
%n = OpSNegate %uint %s
%r = OpSelect %uint %neg %n %s
OpStore %pa %r Aligned 4
%qa = OpInBoundsPtrAccessChain %ptr_f %q %i
%f = OpLoad %float %qa Aligned 4
%g = OpFMul %float %f %fscale
OpStore %qa %g Aligned 4
OpReturn
OpFunctionEnd
"#;

const N: usize = 64;

fn inputs() -> (Vec<u32>, Vec<f32>) {
    (
        (0..N as u32).map(|i| i * 3 + 1).collect(),
        (0..N).map(|i| i as f32 - 20.0).collect(),
    )
}

/// Builds `program` and runs its kernel on fresh inputs.
fn run(session: &Session, program: *mut c_void) -> (Vec<u32>, Vec<f32>) {
    session.build(program, "");
    let kernel = session.kernel(program, "spec");
    let (ints, floats) = inputs();
    let (p, q) = (session.buffer(&ints), session.buffer(&floats));
    session.arg_mem(kernel, 0, p);
    session.arg_mem(kernel, 1, q);
    session.run(kernel, N, None);
    let out = (session.read(p, N), session.read(q, N));
    // SAFETY: handles created here.
    unsafe {
        clReleaseKernel(kernel);
        clReleaseMemObject(p);
        clReleaseMemObject(q);
    }
    out
}

fn expected(scale: u32, offset: u64, neg: bool, fscale: f32) -> (Vec<u32>, Vec<f32>) {
    let (ints, floats) = inputs();
    let ints = ints
        .iter()
        .map(|v| {
            let s = v.wrapping_mul(scale).wrapping_add(offset as u32);
            if neg {
                s.wrapping_neg()
            } else {
                s
            }
        })
        .collect();
    (ints, floats.iter().map(|f| f * fscale).collect())
}

fn set<T>(program: *mut c_void, id: u32, value: &T) -> i32 {
    // SAFETY: `value` is readable for its size.
    unsafe {
        clSetProgramSpecializationConstant(
            program,
            id,
            std::mem::size_of::<T>(),
            value as *const T as *const c_void,
        )
    }
}

#[test]
fn specialization_constants_take_the_values_set_before_the_build() {
    let Some(il) = spirv_as(MODULE, "spec") else {
        return;
    };
    let session = Session::new();
    let program = session.program_from_il(&il);
    // Defaults when nothing is set.
    assert_eq!(run(&session, program), expected(2, 100, false, 1.5));

    // Values of each type; the last value set wins; a bool is any non-zero byte.
    check(set(program, 3, &5u32), "set scale");
    check(set(program, 3, &7u32), "set scale again");
    check(set(program, 7, &(1u64 << 40 | 9)), "set offset");
    check(set(program, 9, &0x20u8), "set neg");
    check(set(program, 11, &-0.25f32), "set fscale");
    assert_eq!(run(&session, program), expected(7, 9, true, -0.25));

    // Errors (API 5.8.6).
    // "CL_INVALID_SPEC_ID if spec_id is not a valid specialization constant identifier."
    assert_eq!(set(program, 4, &1u32), CL_INVALID_SPEC_ID);
    // "CL_INVALID_VALUE if spec_size does not match the size of the specialization constant in
    // the module, or if spec_value is NULL."
    assert_eq!(set(program, 3, &1u64), CL_INVALID_VALUE);
    assert_eq!(set(program, 7, &1u32), CL_INVALID_VALUE);
    assert_eq!(set(program, 9, &1u32), CL_INVALID_VALUE);
    // SAFETY: a null value is the case under test.
    let null_value = unsafe { clSetProgramSpecializationConstant(program, 3, 4, std::ptr::null()) };
    assert_eq!(null_value, CL_INVALID_VALUE);
    // "CL_INVALID_PROGRAM if program is not a valid program object created from an
    // intermediate language".
    let from_source = session.build_source("__kernel void k(__global int *p) { p[0] = 1; }", "");
    assert_eq!(set(from_source, 3, &1u32), CL_INVALID_PROGRAM);
    assert_eq!(set(null_mut(), 3, &1u32), CL_INVALID_PROGRAM);
    // The failed calls changed nothing.
    assert_eq!(run(&session, program), expected(7, 9, true, -0.25));
    // SAFETY: handles created here.
    unsafe {
        clReleaseProgram(program);
        clReleaseProgram(from_source);
    }
}

fn program_info_usize(session: &Session, program: *mut c_void, name: u32) -> (i32, usize) {
    let mut value = 0usize;
    // SAFETY: a size_t out-value.
    let status = unsafe {
        clGetProgramBuildInfo(
            program,
            session.device,
            name,
            std::mem::size_of::<usize>(),
            &mut value as *mut usize as *mut c_void,
            null_mut(),
        )
    };
    (status, value)
}

fn scope_flag(program: *mut c_void, name: u32) -> (i32, u32) {
    let mut value = 7u32;
    // SAFETY: a cl_bool out-value.
    let status = unsafe {
        clGetProgramInfo(
            program,
            name,
            4,
            &mut value as *mut u32 as *mut c_void,
            null_mut(),
        )
    };
    (status, value)
}

#[test]
fn program_scope_variables_are_counted_and_no_constructors_are_reported() {
    let session = Session::new();
    // 16 ints + one long in the global address space (64 + 8 bytes); the constant table is
    // not in the global address space.
    let source = "__global int counters[16];\n__global long total = 5;\n\
                  __constant int table[4] = {1, 2, 3, 4};\n\
                  __kernel void bump(__global long *out) {\n\
                    counters[get_global_id(0) % 16] += table[1];\n\
                    total += 1; out[0] = total + counters[0]; }\n";
    let text = std::ffi::CString::new(source).expect("source");
    let ptr = text.as_ptr();
    let mut err = 0;
    // SAFETY: one NUL-terminated string.
    let program =
        unsafe { clCreateProgramWithSource(session.context, 1, &ptr, std::ptr::null(), &mut err) };
    check(err, "clCreateProgramWithSource");
    // Before a build: "CL_INVALID_PROGRAM_EXECUTABLE if param_name is ...
    // CL_PROGRAM_SCOPE_GLOBAL_CTORS_PRESENT ... and a successful program executable has not been
    // built".
    for name in [
        CL_PROGRAM_SCOPE_GLOBAL_CTORS_PRESENT,
        CL_PROGRAM_SCOPE_GLOBAL_DTORS_PRESENT,
    ] {
        assert_eq!(scope_flag(program, name).0, CL_INVALID_PROGRAM_EXECUTABLE);
    }
    assert_eq!(
        program_info_usize(
            &session,
            program,
            CL_PROGRAM_BUILD_GLOBAL_VARIABLE_TOTAL_SIZE
        ),
        (CL_SUCCESS, 0)
    );
    session.build(program, "-cl-std=CL2.0");
    assert_eq!(
        program_info_usize(
            &session,
            program,
            CL_PROGRAM_BUILD_GLOBAL_VARIABLE_TOTAL_SIZE
        ),
        (CL_SUCCESS, 72)
    );
    for name in [
        CL_PROGRAM_SCOPE_GLOBAL_CTORS_PRESENT,
        CL_PROGRAM_SCOPE_GLOBAL_DTORS_PRESENT,
    ] {
        assert_eq!(scope_flag(program, name), (CL_SUCCESS, CL_FALSE));
    }
    // The variables keep their values between launches (OpenCL C 2.0 6.5.1).
    let kernel = session.kernel(program, "bump");
    let out = session.buffer(&[0i64]);
    session.arg_mem(kernel, 0, out);
    session.run(kernel, 1, None);
    assert_eq!(session.read::<i64>(out, 1), [6 + 2]);
    session.run(kernel, 1, None);
    assert_eq!(session.read::<i64>(out, 1), [7 + 4]);
    // SAFETY: handles created here.
    unsafe {
        clReleaseKernel(kernel);
        clReleaseMemObject(out);
        clReleaseProgram(program);
    }
}
