//! Blocks (OpenCL C 2.0 §1.12) and device-side enqueue (§6.13.17): every `enqueue_kernel`
//! form, the kernel queries, markers, events, `ndrange_ND`, Block variables and calls,
//! compiled and checked with `spv::valid` and `spirv-val --target-env opencl2.0/2.2`, and
//! compared with clang-15 + llvm-spirv-15 (the sequence of device-enqueue instructions with
//! their constant operands — literal sizes and alignments, flags, NDRange sizes — and the
//! Block kernels' entry points); plus the rules of §1.12.5 diagnosed (messages as clang's).

use std::process::Command;

use clc::options::BuildOptions;
use clc::pp::Target;

const SOURCE: &str = r#"
typedef struct { int a; float b; } pair_t;
kernel void child(global int *a) { a[get_global_id(0)] = 1; }
kernel void parent(global int *a, int n, global ulong *prof) {
  queue_t q = get_default_queue();
  ndrange_t nd = ndrange_1D(n);
  pair_t pr = { n, 2.0f };
  void (^b)(void) = ^{ a[get_global_id(0)] = n + pr.a; };
  int r0 = enqueue_kernel(q, CLK_ENQUEUE_FLAGS_WAIT_KERNEL, nd, b);
  clk_event_t ev, ev2;
  int r1 = enqueue_kernel(q, CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_1D(8, 4), 0, 0, &ev, ^{ a[0] = 1; });
  int r2 = enqueue_kernel(q, CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_1D(1, 8, 4),
                          ^(local void *p){ ((local int*)p)[0] = n; }, 16u);
  int r3 = enqueue_kernel(q, CLK_ENQUEUE_FLAGS_WAIT_WORK_GROUP, nd, 1, &ev, &ev2,
                          ^(local void *p, local void *p2){ ((local int*)p)[0] = ((local int*)p2)[1]; }, 4u, 8u);
  a[1] = r0 + r1 + r2 + r3;
  size_t g2[2] = {4, 4}; size_t l2[2] = {2, 2};
  size_t o3[3] = {0, 0, 0}; size_t g3[3] = {1, 2, 3}; size_t l3[3] = {1, 1, 1};
  ndrange_t n2 = ndrange_2D(g2, l2);
  ndrange_t n3 = ndrange_3D(o3, g3, l3);
  enqueue_kernel(q, CLK_ENQUEUE_FLAGS_NO_WAIT, n2, ^{ a[2] = 2; });
  enqueue_kernel(q, CLK_ENQUEUE_FLAGS_NO_WAIT, n3, ^{ a[3] = 3; });
  clk_event_t ue = create_user_event();
  clk_event_t mk;
  a[4] = enqueue_marker(q, 1, &ue, &mk);
  retain_event(ue);
  a[5] = is_valid_event(ue);
  set_user_event_status(ue, 0);
  capture_event_profiling_info(mk, CLK_PROFILING_COMMAND_EXEC_TIME, prof);
  release_event(ue);
  release_event(mk);
  a[6] = get_kernel_work_group_size(b);
  a[7] = get_kernel_preferred_work_group_size_multiple(^(local void *p){ a[8] = 1; });
  int (^twice)(int) = ^(int x) { return 2 * x + n; };
  a[9] = twice(a[10]);
}
"#;

fn tool(name: &str) -> bool {
    Command::new(name).arg("--version").output().is_ok()
}

fn dis(file: &std::path::Path) -> String {
    let out = Command::new("spirv-dis")
        .arg(file)
        .output()
        .expect("spirv-dis");
    String::from_utf8_lossy(&out.stdout).into_owned()
}

const ENQUEUE_OPS: &[&str] = &[
    "OpEnqueueKernel",
    "OpEnqueueMarker",
    "OpBuildNDRange",
    "OpGetKernel",
    "OpRetainEvent",
    "OpReleaseEvent",
    "OpCreateUserEvent",
    "OpIsValidEvent",
    "OpSetUserEventStatus",
    "OpCaptureEventProfilingInfo",
    "OpGetDefaultQueue",
];

/// Device-enqueue instructions in order: opcode, then each operand kept when it is a
/// constant (`%uint_28`), a named function (`%__parent_block_invoke_kernel`) or a type
/// spirv-dis names by kind; other ids become `%`.
fn enqueue_facts(text: &str) -> Vec<String> {
    let mut seq = Vec::new();
    for l in text.lines() {
        let rhs = match l.split_once('=') {
            Some((lhs, r)) if !lhs.contains("Op") => r.trim(),
            _ => l.trim(),
        };
        let toks: Vec<&str> = rhs.split_whitespace().collect();
        let Some(op) = toks.first() else { continue };
        if !ENQUEUE_OPS.iter().any(|p| op.starts_with(p)) {
            continue;
        }
        let kept: Vec<&str> = toks
            .iter()
            .map(|t| {
                let keep = !t.starts_with('%')
                    || t.starts_with("%uint_")
                    || t.starts_with("%ulong_")
                    || t.starts_with("%__")
                    || matches!(
                        *t,
                        "%uint" | "%bool" | "%Queue" | "%DeviceEvent" | "%struct_ndrange_t"
                    );
                if keep {
                    t
                } else {
                    "%"
                }
            })
            .collect();
        seq.push(kept.join(" "));
    }
    seq
}

fn entry_points(text: &str) -> Vec<String> {
    let mut names: Vec<String> = text
        .lines()
        .filter(|l| l.trim_start().starts_with("OpEntryPoint"))
        .filter_map(|l| l.split('"').nth(1).map(str::to_string))
        .collect();
    names.sort();
    names
}

fn compile_2_0(src: &str) -> Result<clc::Compiled, clc::CompileError> {
    let opts = BuildOptions::parse("-cl-std=CL2.0").expect("options");
    clc::compile(src, "enq.cl", &opts, &Target::default())
}

#[test]
fn enqueue_kernels_validate_and_match_llvm_spirv() {
    let m = compile_2_0(SOURCE).unwrap_or_else(|e| panic!("{}", e.log));
    // The Block kernels are entry points but not kernels of the program's interface.
    let names: Vec<&str> = m.kernels.iter().map(|k| k.name.as_str()).collect();
    assert_eq!(names, ["child", "parent"]);
    let bytes = m.module.to_bytes();
    let env = spv::valid::Env::opencl(spv::valid::ClVersion::Cl20, spv::valid::Profile::Full, 64);
    if let Err(e) = spv::valid::validate(m.module, &env) {
        panic!("spv::valid: {e:?}");
    }
    if !tool("spirv-val") || !tool("spirv-dis") {
        eprintln!("spirv-val or spirv-dis not found: skipping");
        return;
    }
    let dir = std::env::temp_dir().join(format!("clc-enqueue-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("dir");
    let ours = dir.join("ours.spv");
    std::fs::write(&ours, &bytes).expect("write");
    for env in ["opencl2.0", "opencl2.2"] {
        let val = Command::new("spirv-val")
            .args(["--target-env", env])
            .arg(&ours)
            .output()
            .expect("spirv-val");
        assert!(
            val.status.success(),
            "{env}: {}\n{}",
            String::from_utf8_lossy(&val.stderr),
            dis(&ours)
        );
    }
    if !tool("clang-15") || !tool("llvm-spirv-15") {
        eprintln!("clang-15 or llvm-spirv-15 not found: skipping the comparison");
        return;
    }
    let (cl, bc, theirs) = (dir.join("e.cl"), dir.join("e.bc"), dir.join("e.spv"));
    std::fs::write(&cl, SOURCE).expect("write");
    let st = Command::new("clang-15")
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
        .expect("clang");
    assert!(st.success());
    let st = Command::new("llvm-spirv-15")
        .arg("--spirv-max-version=1.2")
        .arg(&bc)
        .arg("-o")
        .arg(&theirs)
        .status()
        .expect("llvm-spirv");
    assert!(st.success());
    let (o, t) = (dis(&ours), dis(&theirs));
    let (oseq, tseq) = (enqueue_facts(&o), enqueue_facts(&t));
    assert!(tseq.len() > 20, "{t}");
    assert_eq!(oseq, tseq, "ours:\n{o}\ntheirs:\n{t}");
    assert_eq!(entry_points(&o), entry_points(&t));
    let _ = std::fs::remove_dir_all(&dir);
}

/// `enqueue_kernel` of 3.0 needs `__opencl_c_device_enqueue` (and the generic address space
/// and program-scope globals it implies); 1.2 has neither Blocks nor the built-ins.
#[test]
fn device_enqueue_needs_its_version_or_feature() {
    let src = "kernel void k(global int *a) { enqueue_kernel(get_default_queue(), CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_1D(1), ^{ a[0] = 1; }); }";
    let with = Target {
        features: vec![
            "__opencl_c_device_enqueue".into(),
            "__opencl_c_generic_address_space".into(),
            "__opencl_c_program_scope_global_variables".into(),
        ],
        ..Target::default()
    };
    let opts = BuildOptions::parse("-cl-std=CL3.0").expect("options");
    let m = clc::compile(src, "e.cl", &opts, &with).unwrap_or_else(|e| panic!("{}", e.log));
    let env = spv::valid::Env::opencl(spv::valid::ClVersion::Cl30, spv::valid::Profile::Full, 64)
        .with_feature("__opencl_c_device_enqueue")
        .with_feature("__opencl_c_generic_address_space");
    if let Err(e) = spv::valid::validate(m.module, &env) {
        panic!("spv::valid: {e:?}");
    }
    let err = clc::compile(src, "e.cl", &opts, &Target::default()).expect_err("3.0 without");
    assert!(
        err.log
            .contains("implicit declaration of function 'enqueue_kernel'"),
        "{}",
        err.log
    );
    let block = "kernel void k(global int *a) { void (^b)(void) = ^{ a[0] = 1; }; b(); }";
    let err = clc::compile(block, "e.cl", &opts, &Target::default()).expect_err("3.0 without");
    assert!(err.log.contains("blocks support disabled"), "{}", err.log);
    let opts = BuildOptions::parse("-cl-std=CL1.2").expect("options");
    let err = clc::compile(src, "e.cl", &opts, &Target::default()).expect_err("1.2");
    assert!(err.log.contains("error"), "{}", err.log);
}

/// A sub-group query needs cl_khr_subgroups; with it, it matches llvm-spirv's form.
#[test]
fn sub_group_ndrange_queries() {
    let src = "#pragma OPENCL EXTENSION cl_khr_subgroups : enable\n\
        kernel void p(global uint *a) {\n\
          ndrange_t nd = ndrange_1D(8);\n\
          a[0] = get_kernel_sub_group_count_for_ndrange(nd, ^{ a[2] = 1; });\n\
          a[1] = get_kernel_max_sub_group_size_for_ndrange(nd, ^(local void *x){ a[2] = 1; });\n\
        }\n";
    let err = compile_2_0(src).expect_err("no subgroups");
    assert!(err.log.contains("cl_khr_subgroups"), "{}", err.log);
    let target = Target {
        extensions: vec!["cl_khr_subgroups".into()],
        ..Target::default()
    };
    let opts = BuildOptions::parse("-cl-std=CL2.0").expect("options");
    let m = clc::compile(src, "s.cl", &opts, &target).unwrap_or_else(|e| panic!("{}", e.log));
    let dir = std::env::temp_dir().join(format!("clc-enqueue-sg-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("dir");
    let ours = dir.join("ours.spv");
    std::fs::write(&ours, m.module.to_bytes()).expect("write");
    if !tool("spirv-dis") || !tool("spirv-val") {
        eprintln!("spirv-dis or spirv-val not found: skipping");
        return;
    }
    let val = Command::new("spirv-val")
        .args(["--target-env", "opencl2.0"])
        .arg(&ours)
        .output()
        .expect("spirv-val");
    assert!(
        val.status.success(),
        "{}",
        String::from_utf8_lossy(&val.stderr)
    );
    // Expected from clang-15 -cl-ext=+cl_khr_subgroups + llvm-spirv-15 (literal {size, align,
    // invoke, a} = 24 bytes, 8-aligned).
    assert_eq!(
        enqueue_facts(&dis(&ours)),
        [
            "OpBuildNDRange %struct_ndrange_t %ulong_8 %ulong_0 %ulong_0",
            "OpGetKernelNDrangeSubGroupCount %uint % %__p_block_invoke_kernel % %uint_24 %uint_8",
            "OpGetKernelNDrangeMaxSubGroupSize %uint % %__p_block_invoke_2_kernel % %uint_24 %uint_8",
        ]
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// Calling Blocks: captures are const copies taken when the literal is evaluated; return
/// types are inferred; a struct is captured by value.
#[test]
fn block_calls_compile_and_validate() {
    let src = r#"
typedef struct { int a; float b; } pair_t;
typedef int (^binop)(int, int);
kernel void k(global int *o, int n) {
  pair_t p = { n, 1.5f };
  int arr[2] = { 3, 4 };
  binop add = ^(int x, int y) { return x + y + p.a; };
  float (^scale)(float) = ^float(float x) { return x * p.b; };
  int (^first)(void) = ^{ return arr[0]; };
  o[0] = add(o[1], 2);
  o[1] = (int)scale(2.0f) + first();
  ^{ o[2] = n; }();
}
"#;
    let m = compile_2_0(src).unwrap_or_else(|e| panic!("{}", e.log));
    let env = spv::valid::Env::opencl(spv::valid::ClVersion::Cl20, spv::valid::Profile::Full, 64);
    let bytes = m.module.to_bytes();
    if let Err(e) = spv::valid::validate(m.module, &env) {
        panic!("spv::valid: {e:?}");
    }
    if !tool("spirv-val") {
        eprintln!("spirv-val not found: skipping");
        return;
    }
    let f = std::env::temp_dir().join(format!("clc-blockcall-{}.spv", std::process::id()));
    std::fs::write(&f, bytes).expect("write");
    let val = Command::new("spirv-val")
        .args(["--target-env", "opencl2.0"])
        .arg(&f)
        .output()
        .expect("spirv-val");
    let _ = std::fs::remove_file(&f);
    assert!(
        val.status.success(),
        "{}",
        String::from_utf8_lossy(&val.stderr)
    );
}

/// §1.12.5 restrictions, and the `enqueue_kernel` argument rules; each source is also
/// rejected by clang-15 (except where noted), with the same message.
#[test]
fn block_rules_are_diagnosed() {
    let cases: &[(&str, &str)] = &[
        ("kernel void k(global int *o) { void (^b)(void); }",
         "invalid block variable declaration - must be initialized"),
        ("kernel void k(global int *o) { extern void (^b)(void); }",
         "invalid block variable declaration - using 'extern' storage class is disallowed"),
        ("extern void (^gb)(void);",
         "invalid block variable declaration - using 'extern' storage class is disallowed"),
        ("kernel void k(global int *o) { int (^b)(int, ...) = ^(int x, ...) { return x; }; }",
         "invalid prototype, variadic arguments are not allowed in OpenCL"),
        ("kernel void k(global int *o) { void (^b[2])(void); }",
         "array of 'void (^)(void)' type is invalid in OpenCL"),
        ("struct S { int x; void (^b)(void); }; kernel void k(global int *o) { }",
         "the 'void (^)(void)' type cannot be used to declare a structure or union field"),
        ("kernel void k(global int *o) { void (^b)(void) = ^{}; void (^*p)(void) = &b; }",
         "pointer to type 'void (^)(void)' is invalid in OpenCL"),
        ("kernel void k(global int *o) { void (^b)(void) = ^{}; *b; }",
         "invalid argument type 'void (^)(void)' to unary expression"),
        ("kernel void k(global int *o) { void (^b)(void) = ^{ o[0] = 1; }; void (^c)(void) = ^{ b(); }; }",
         "cannot refer to a block inside block"),
        ("typedef void (^bt)(void); bt f(void);",
         "declaring function return value of type 'void (^)(void)' is not allowed"),
        ("kernel void k(global int *o) { queue_t q = get_default_queue(); enqueue_kernel(q, 0, ndrange_1D(1), ^(int x){}, 1u); }",
         "blocks used in enqueue_kernel call are expected to have parameters of type 'local void*'"),
        ("kernel void k(global int *o) { queue_t q = get_default_queue(); enqueue_kernel(q, 0, ndrange_1D(1), ^(local void *p){}); }",
         "blocks with parameters are not accepted in this prototype of enqueue_kernel call"),
        ("kernel void k(global int *o) { queue_t q = get_default_queue(); enqueue_kernel(q, 0, ndrange_1D(1), ^{}, 4u); }",
         "mismatch in number of block parameters and local size arguments passed"),
        // clang-15 accepts these two; §1.12.5 forbids them.
        ("kernel void k(global int *o, int c) { void (^b)(void) = ^{}; void (^d)(void) = ^{}; void (^e)(void) = c ? b : d; }",
         "blocks cannot be used as expressions of the ternary selection operator"),
        ("kernel void k(global int *o) { int x = 1; void (^b)(void) = ^{ x = 2; }; }",
         "const-qualified"),
    ];
    let clang = tool("clang-15");
    let dir = std::env::temp_dir().join(format!("clc-blockrules-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("dir");
    for (i, (src, want)) in cases.iter().enumerate() {
        let err = compile_2_0(src).expect_err(src);
        assert!(
            err.log.contains(want),
            "{src}\nwant: {want}\ngot: {}",
            err.log
        );
        if clang && i < 13 {
            let f = dir.join(format!("r{i}.cl"));
            std::fs::write(&f, src).expect("write");
            let out = Command::new("clang-15")
                .args([
                    "-c",
                    "-target",
                    "spir64",
                    "-cl-std=CL2.0",
                    "-o",
                    "/dev/null",
                ])
                .arg(&f)
                .output()
                .expect("clang");
            let log = String::from_utf8_lossy(&out.stderr).replace("__generic ^const", "^");
            assert!(!out.status.success(), "clang accepts {src}");
            let key = want.split(" '").next().unwrap_or(want);
            assert!(log.contains(key), "clang: {log}\nwant: {key}");
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// `CL_KERNEL_ARG_TYPE_NAME` of pipe (and other) arguments spelled with typedef names, as
/// clang-15 `-cl-kernel-arg-info` writes `kernel_arg_type` (expected values from
/// `llvm-dis-15` of that output; PoCL 3.1 cannot build pipe kernels to compare with).
#[test]
fn kernel_arg_type_names_keep_typedef_spellings() {
    let src = r#"
typedef struct { int a; float b; } pair;
typedef struct pair_s { int a; } pair2;
typedef int myint;
typedef float4 vec_t;
kernel void w(global size_t *a, myint b, global pair *c, write_only pipe pair q,
              read_only pipe myint r, read_only pipe vec_t s, global pair2 *d,
              struct pair_s e, read_only pipe struct pair_s f, global const uint *g) {}
"#;
    let opts = BuildOptions::parse("-cl-std=CL2.0 -cl-kernel-arg-info").expect("options");
    let m = clc::compile(src, "a.cl", &opts, &Target::default())
        .unwrap_or_else(|e| panic!("{}", e.log));
    let names: Vec<&str> = m.kernels[0]
        .args
        .iter()
        .map(|a| a.type_name.as_str())
        .collect();
    assert_eq!(
        names,
        [
            "size_t*",
            "myint",
            "pair*",
            "pair",
            "myint",
            "vec_t",
            "pair2*",
            "struct pair_s",
            "struct pair_s",
            "uint*"
        ]
    );
    let pipes: Vec<bool> = m.kernels[0].args.iter().map(|a| a.is_pipe).collect();
    assert_eq!(
        pipes,
        [false, false, false, true, true, true, false, false, true, false]
    );
}

/// Nested literals (a Block enqueuing a Block, §1.12.3: captures of the inner one are captured
/// by the outer one too), enqueue from a non-kernel function, and a 32-bit target (where
/// `ndrange_t` holds `uint`s and 8-byte captures need the natural, unpacked literal layout).
#[test]
fn nested_blocks_and_physical32() {
    let src = r#"
void helper(global int *a, int n, long big) {
  queue_t q = get_default_queue();
  for (int i = 0; i < n; ++i) {
    enqueue_kernel(q, CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_1D(4), ^{
      a[i] = i + (int)big;
      int (^sq)(int) = ^(int x) { return x * x + i; };
      a[i + 1] = sq(i);
      if (i == 0)
        enqueue_kernel(get_default_queue(), CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_1D(1),
                       ^{ a[100] = n; });
    });
  }
}
kernel void top(global int *a, int n) { helper(a, n, 5); }
"#;
    for bits in [64u32, 32] {
        let target = Target {
            address_bits: bits,
            ..Target::default()
        };
        let opts = BuildOptions::parse("-cl-std=CL2.0").expect("options");
        let m = clc::compile(src, "n.cl", &opts, &target).unwrap_or_else(|e| panic!("{}", e.log));
        let env =
            spv::valid::Env::opencl(spv::valid::ClVersion::Cl20, spv::valid::Profile::Full, bits);
        let bytes = m.module.to_bytes();
        if let Err(e) = spv::valid::validate(m.module, &env) {
            panic!("{bits}: spv::valid: {e:?}");
        }
        if !tool("spirv-val") || !tool("spirv-dis") {
            eprintln!("spirv-val or spirv-dis not found: skipping");
            continue;
        }
        let f = std::env::temp_dir().join(format!("clc-nested-{bits}-{}.spv", std::process::id()));
        std::fs::write(&f, bytes).expect("write");
        let val = Command::new("spirv-val")
            .args(["--target-env", "opencl2.0"])
            .arg(&f)
            .output()
            .expect("spirv-val");
        assert!(
            val.status.success(),
            "{bits}: {}",
            String::from_utf8_lossy(&val.stderr)
        );
        let text = dis(&f);
        let _ = std::fs::remove_file(&f);
        // The literals' sizes and alignments as clang-15 -target spir64/spir + llvm-spirv-15
        // give them: outer {size, align, invoke, big, a, i, n} = 16+8+8+4+4 = 40 (64-bit),
        // {size, align, invoke, a, big, i, n} = 12+4+8+4+4 = 32 (32-bit: `a` fills the gap
        // before `long big`); inner {…, a, n} = 28 / 20; all 8-aligned.
        let want: [&str; 2] = if bits == 64 {
            ["%uint_40 %uint_8", "%uint_28 %uint_8"]
        } else {
            ["%uint_32 %uint_8", "%uint_20 %uint_8"]
        };
        let facts = enqueue_facts(&text);
        let enqueues: Vec<&String> = facts
            .iter()
            .filter(|f| f.starts_with("OpEnqueueKernel"))
            .collect();
        assert_eq!(enqueues.len(), 2, "{bits}: {facts:?}");
        for (f, w) in enqueues.iter().zip(want) {
            assert!(f.ends_with(w), "{bits}: {f} should end with {w}");
        }
        let entries = entry_points(&text);
        assert_eq!(
            entries,
            [
                "__helper_block_invoke_3_kernel",
                "__helper_block_invoke_kernel",
                "top"
            ]
        );
    }
}
