//! The corpus of invalid programs: one small program per rule of OpenCL C 2.0 chapter 1
//! (seed 003 numbering; 2.0's 6.x) that says "must", "is not supported" or "is an error",
//! each checked for its diagnostic (`line:col: error: text`). The expected texts are
//! clang-15's for the same program where our wording is clang's; where clang words it
//! differently (or spells types with their address space), the rule's own wording, checked by
//! hand against the rule. The few rules clang-15 does not diagnose (recursion, a printf format
//! that is not a literal, `double` in OpenCL C 1.2 without the pragma) are written from the
//! specification's text.

use clc::options::BuildOptions;
use clc::pp::Target;

struct Rule {
    section: &'static str,
    rule: &'static str,
    std: &'static str,
    images: bool,
    source: &'static str,
    diagnostic: &'static str,
}

const RULES: &[Rule] = &[
    Rule {
        section: "1.9.11",
        rule: "kernel arguments cannot be bool",
        std: "CL2.0",
        images: false,
        source: "__kernel void k(bool b) {}",
        diagnostic: "1:22: error: 'bool' cannot be used as the type of a kernel parameter",
    },
    Rule {
        section: "1.9.11",
        rule: "kernel arguments cannot be size_t",
        std: "CL2.0",
        images: false,
        source: "__kernel void k(size_t n) {}",
        diagnostic: "1:24: error: 'size_t' cannot be used as the type of a kernel parameter",
    },
    Rule {
        section: "1.9.12",
        rule: "half values need cl_khr_fp16",
        std: "CL2.0",
        images: false,
        source: "__kernel void k(half h) {}",
        diagnostic: "1:22: error: declaring function parameter of type 'half' is not allowed; did you forget * ?",
    },
    Rule {
        section: "1.9.11",
        rule: "kernel arguments cannot be event_t",
        std: "CL2.0",
        images: false,
        source: "__kernel void k(event_t e) {}",
        diagnostic: "1:25: error: 'event_t' cannot be used as the type of a kernel parameter",
    },
    Rule {
        section: "1.9.1",
        rule: "kernel arguments cannot be pointers to pointers",
        std: "CL2.0",
        images: false,
        source: "__kernel void k(__global int **p) {}",
        diagnostic: "1:32: error: kernel parameter cannot be declared as a pointer to the __private address space",
    },
    Rule {
        section: "1.9.1",
        rule: "kernel pointer arguments must be global, constant or local",
        std: "CL2.0",
        images: false,
        source: "__kernel void k(__private int *p) {}",
        diagnostic: "1:32: error: kernel parameter cannot be declared as a pointer to the __private address space",
    },
    Rule {
        section: "1.9.10",
        rule: "a kernel must return void",
        std: "CL2.0",
        images: false,
        source: "__kernel int k(__global int *p) { return 0; }",
        diagnostic: "error: kernel must have void return type",
    },
    Rule {
        section: "1.1.1",
        rule: "double needs cl_khr_fp64",
        std: "CL1.2",
        images: false,
        source: "__kernel void k(__global float *p) { double d = 1.0; p[0] = d; }",
        diagnostic: "1:38: error: use of type 'double' requires cl_khr_fp64 support",
    },
    Rule {
        section: "1.9.12",
        rule: "half arithmetic needs cl_khr_fp16",
        std: "CL1.2",
        images: false,
        source: "__kernel void k(__global half *p) { half a = p[0]; p[1] = a + a; }",
        diagnostic: "error: loading directly from pointer to type 'half' requires cl_khr_fp16",
    },
    Rule {
        section: "1.2.1",
        rule: "implicit conversions between vector types are not allowed",
        std: "CL2.0",
        images: false,
        source: "__kernel void k(__global float4 *o, __global int4 *i) { o[0] = i[0]; }",
        diagnostic: "error: assigning to 'float4' from incompatible type 'int4'",
    },
    Rule {
        section: "1.2.2",
        rule: "explicit casts between vector types are not allowed",
        std: "CL2.0",
        images: false,
        source: "__kernel void k(__global float4 *o, __global int4 *i) { o[0] = (float4)i[0]; }",
        diagnostic: "1:64: error: invalid conversion between vector type 'int4' and 'float4'",
    },
    Rule {
        section: "1.2.4.2",
        rule: "as_type operand and result must have the same size",
        std: "CL2.0",
        images: false,
        source: "__kernel void k(__global int *o, __global char *i) { o[0] = as_int(i[0]); }",
        diagnostic: "1:61: error: invalid reinterpretation: sizes of 'int' and 'char' must match",
    },
    Rule {
        section: "1.3",
        rule: "binary operators need vectors of the same size",
        std: "CL2.0",
        images: false,
        source: "__kernel void k(__global int4 *o, __global int2 *i) { o[0] = o[0] + i[0]; }",
        diagnostic: "error: cannot convert between vector values of different size or element type ('int4' and 'int2')",
    },
    Rule {
        section: "1.3.d",
        rule: "% needs integer operands",
        std: "CL2.0",
        images: false,
        source: "__kernel void k(__global float *o) { o[0] = o[1] % o[2]; }",
        diagnostic: "error: invalid operands to binary expression ('float' and 'float')",
    },
    Rule {
        section: "1.3.f",
        rule: "bitwise operators need integer operands",
        std: "CL2.0",
        images: false,
        source: "__kernel void k(__global float *o) { o[0] = o[1] & o[2]; }",
        diagnostic: "error: invalid operands to binary expression ('float' and 'float')",
    },
    Rule {
        section: "1.3.g",
        rule: "~ needs an integer operand",
        std: "CL2.0",
        images: false,
        source: "__kernel void k(__global float *o) { o[0] = ~o[1]; }",
        diagnostic: "1:45: error: invalid argument type 'float' to unary expression",
    },
    Rule {
        section: "1.3.j",
        rule: "shifts need integer operands",
        std: "CL2.0",
        images: false,
        source: "__kernel void k(__global float *o) { o[0] = o[1] << 2; }",
        diagnostic: "error: invalid operands to binary expression ('float' and 'int')",
    },
    Rule {
        section: "1.1.6",
        rule: "a vector literal needs exactly the vector's components",
        std: "CL2.0",
        images: false,
        source: "__kernel void k(__global float4 *o) { o[0] = (float4)(1.0f, 2.0f, 3.0f); }",
        diagnostic: "error: too few elements in vector initialization (expected 4 elements, have 3)",
    },
    Rule {
        section: "1.1.7",
        rule: "vector components beyond the vector's size are an error",
        std: "CL2.0",
        images: false,
        source: "__kernel void k(__global float2 *o) { o[0].x = o[1].z; }",
        diagnostic: "error: vector component access exceeds type",
    },
    Rule {
        section: "1.1.7",
        rule: "xyzw and s-digit selectors cannot be mixed",
        std: "CL2.0",
        images: false,
        source: "__kernel void k(__global float4 *o) { o[0].x = o[1].xs1; }",
        diagnostic: "error: illegal vector component name 's'",
    },
    Rule {
        section: "1.1.7",
        rule: "a swizzle assigned to cannot repeat components",
        std: "CL2.0",
        images: false,
        source: "__kernel void k(__global float4 *o) { o[0].xx = (float2)(1.0f, 2.0f); }",
        diagnostic: "error: vector is not assignable (contains duplicate components)",
    },
    Rule {
        section: "1.5",
        rule: "program-scope variables must be in __constant (1.2)",
        std: "CL1.2",
        images: false,
        source: "int g;\n__kernel void k(__global int *o) { o[0] = g; }",
        diagnostic: "1:5: error: program scope variable must reside in constant address space",
    },
    Rule {
        section: "1.5.3",
        rule: "program-scope __constant variables must be initialized",
        std: "CL2.0",
        images: false,
        source: "__constant int c;\n__kernel void k(__global int *o) { o[0] = c; }",
        diagnostic: "1:16: error: variable in constant address space must be initialized",
    },
    Rule {
        section: "1.5.3",
        rule: "__constant memory is read-only",
        std: "CL2.0",
        images: false,
        source: "__kernel void k(__constant int *c) { c[0] = 1; }",
        diagnostic: "error: cannot assign to lvalue with const-qualified type 'const int'",
    },
    Rule {
        section: "1.5.2",
        rule: "__local variables cannot be initialized",
        std: "CL2.0",
        images: false,
        source: "__kernel void k(__global int *o) { __local int x = 1; o[0] = x; }",
        diagnostic: "error: '__local' variable cannot have an initializer",
    },
    Rule {
        section: "1.5.2",
        rule: "__local variables may be declared only in kernels",
        std: "CL2.0",
        images: false,
        source: "void f(__global int *o) { __local int x; x = 1; o[0] = x; }\n__kernel void k(__global int *o) { f(o); }",
        diagnostic: "1:39: error: non-kernel function variable cannot be declared in local address space",
    },
    Rule {
        section: "1.5.5",
        rule: "pointers to different named address spaces do not convert",
        std: "CL2.0",
        images: false,
        source: "__kernel void k(__global int *g, __local int *l) { g = l; }",
        diagnostic: "error: assigning to '__global int *' changes address space of pointer",
    },
    Rule {
        section: "1.5.5",
        rule: "no generic address space in 1.2",
        std: "CL1.2",
        images: false,
        source: "__kernel void k(__global int *g) { __generic int *p = g; }",
        diagnostic: "1:36: error: OpenCL C version 1.2 does not support the '__generic' type qualifier",
    },
    Rule {
        section: "1.5",
        rule: "a function-scope variable cannot be __global",
        std: "CL2.0",
        images: false,
        source: "__kernel void k(__global int *o) { __global int x; o[0] = x; }",
        diagnostic: "1:49: error: function scope variable cannot be declared in global address space",
    },
    Rule {
        section: "1.9.9",
        rule: "recursion is not supported",
        std: "CL2.0",
        images: false,
        source: "int f(int n) { return n ? f(n - 1) : 0; }\n__kernel void k(__global int *o) { o[0] = f(3); }",
        diagnostic: "1:27: error: recursive call to 'f': recursion is not allowed in OpenCL C",
    },
    Rule {
        section: "1.9.3",
        rule: "bit-fields are not supported",
        std: "CL2.0",
        images: false,
        source: "struct S { int a : 3; };\n__kernel void k(__global int *o) { struct S s; s.a = 1; o[0] = s.a; }",
        diagnostic: "error: bit-fields are not supported in OpenCL",
    },
    Rule {
        section: "1.9.4",
        rule: "variable length arrays are not supported",
        std: "CL2.0",
        images: false,
        source: "__kernel void k(__global int *o, int n) { int a[n]; a[0] = 1; o[0] = a[0]; }",
        diagnostic: "1:49: error: variable length arrays are not supported in OpenCL",
    },
    Rule {
        section: "1.9.5",
        rule: "variadic functions other than printf are not supported",
        std: "CL2.0",
        images: false,
        source: "int f(int n, ...) { return n; }\n__kernel void k(__global int *o) { o[0] = f(1, 2); }",
        diagnostic: "1:5: error: variadic functions are not supported in OpenCL C",
    },
    Rule {
        section: "1.9.1",
        rule: "function pointers are not allowed",
        std: "CL2.0",
        images: false,
        source: "int f(int n) { return n; }\n__kernel void k(__global int *o) { int (*p)(int) = f; o[0] = p(1); }",
        diagnostic: "error: function types are only allowed for function declarations",
    },
    Rule {
        section: "1.11.2",
        rule: "reqd_work_group_size values must be positive",
        std: "CL2.0",
        images: false,
        source: "__kernel __attribute__((reqd_work_group_size(0, 1, 1))) void k(__global int *o) {}",
        diagnostic: "1:25: error: 'reqd_work_group_size' attribute requires exactly 3 positive integer constant arguments",
    },
    Rule {
        section: "1.7.1",
        rule: "static kernels are not allowed",
        std: "CL2.0",
        images: false,
        source: "static __kernel void k(__global int *o) {}",
        diagnostic: "1:22: error: kernel functions cannot be declared static",
    },
    Rule {
        section: "1.13.13",
        rule: "printf format must be a string literal",
        std: "CL2.0",
        images: false,
        source: "__kernel void k(__global int *o, __constant char *f) { printf(f); }",
        diagnostic: "1:63: error: format string argument of printf must be a string literal",
    },
    Rule {
        section: "1.13.11",
        rule: "atomic functions need global or local pointers",
        std: "CL1.2",
        images: false,
        source: "__kernel void k(__global int *o) { int x = 0; atomic_add(&x, 1); o[0] = x; }",
        diagnostic: "error: no matching function for call to 'atomic_add'",
    },
    Rule {
        section: "1.x/C99",
        rule: "assignment to const",
        std: "CL2.0",
        images: false,
        source: "__kernel void k(__global const int *o) { o[0] = 1; }",
        diagnostic: "error: cannot assign to lvalue with const-qualified type 'const int'",
    },
    Rule {
        section: "1.13.8",
        rule: "barrier needs cl_mem_fence_flags",
        std: "CL2.0",
        images: false,
        source: "__kernel void k(__global int *o) { barrier(); }",
        diagnostic: "error: no matching function for call to 'barrier'",
    },
    Rule {
        section: "1.7.1",
        rule: "a kernel cannot be named main",
        std: "CL2.0",
        images: false,
        source: "__kernel void main(__global int *o) {}",
        diagnostic: "1:15: error: kernel cannot be called 'main'",
    },
    Rule {
        section: "1.5.2",
        rule: "__local variables must be at kernel function scope",
        std: "CL2.0",
        images: false,
        source: "__kernel void k(__global int *o) { if (o[0]) { __local int x; x = 1; o[1] = x; } }",
        diagnostic: "1:60: error: variables in the local address space can only be declared in the outermost scope of a kernel function",
    },
    Rule {
        section: "1.9.11",
        rule: "arguments to kernels that are structs cannot contain pointers",
        std: "CL2.0",
        images: false,
        source: "struct S { __global int *p; };\n__kernel void k(struct S s) {}",
        diagnostic: "2:26: error: struct kernel parameters may not contain pointers",
    },
    Rule {
        section: "1.9.12",
        rule: "half pointers can only be used with vload/vstore without fp16",
        std: "CL1.2",
        images: false,
        source: "__kernel void k(__global half *p, __global float *o) { o[0] = p[0]; }",
        diagnostic: "1:63: error: loading directly from pointer to type 'half' requires cl_khr_fp16",
    },
    Rule {
        section: "1.9.2",
        rule: "image types cannot be array elements",
        std: "CL2.0",
        images: true,
        source: "__kernel void k(read_only image2d_t a[2]) {}",
        diagnostic: "error: array of '__read_only image2d_t' type is invalid in OpenCL",
    },
    Rule {
        section: "1.9.2",
        rule: "sampler_t cannot be a struct or union member",
        std: "CL2.0",
        images: true,
        source: "struct S { sampler_t s; };\n__kernel void k(__global int *o) {}",
        diagnostic: "1:22: error: the 'sampler_t' type cannot be used to declare a structure or union field",
    },
    Rule {
        section: "1.9.2",
        rule: "image types cannot be returned",
        std: "CL2.0",
        images: true,
        source: "image2d_t f(image2d_t i) { return i; }\n__kernel void k(__global int *o) {}",
        diagnostic: "1:11: error: declaring function return value of type '__read_only image2d_t' is not allowed",
    },
    Rule {
        section: "1.9.2",
        rule: "image variables cannot be declared in a function body",
        std: "CL2.0",
        images: true,
        source: "__kernel void k(read_only image2d_t a) { image2d_t b; }",
        diagnostic: "1:52: error: type '__read_only image2d_t' can only be used as a function parameter in OpenCL",
    },
    Rule {
        section: "1.9.2",
        rule: "pointers to sampler_t are not allowed",
        std: "CL2.0",
        images: true,
        source: "__kernel void k(sampler_t *s) {}",
        diagnostic: "1:28: error: pointer to type 'sampler_t' is invalid in OpenCL",
    },
    Rule {
        section: "1.13.14.4",
        rule: "write_image to a read_only image",
        std: "CL2.0",
        images: true,
        source: "__kernel void k(read_only image2d_t a) { write_imagef(a, (int2)(0), (float4)(0)); }",
        diagnostic: "error: 'write_imagef' cannot write a read_only image",
    },
    Rule {
        section: "1.6",
        rule: "read_write images need OpenCL C 2.0",
        std: "CL1.2",
        images: true,
        source: "__kernel void k(read_write image2d_t a) {}",
        diagnostic: "1:17: error: access qualifier 'read_write' can not be used for '__read_write image2d_t' prior to OpenCL C version 2.0",
    },
];

#[test]
fn every_rule_is_diagnosed() {
    let mut failures = Vec::new();
    for r in RULES {
        let opts = BuildOptions::parse(&format!("-cl-std={}", r.std)).expect("options");
        let target = Target {
            image_support: r.images,
            ..Target::default()
        };
        match clc::compile(r.source, "t.cl", &opts, &target) {
            Ok(_) => failures.push(format!(
                "§{} {}: accepted:\n{}",
                r.section, r.rule, r.source
            )),
            Err(e) => {
                if !e.log.contains(r.diagnostic) {
                    failures.push(format!(
                        "§{} {}: missing `{}` in:\n{}",
                        r.section, r.rule, r.diagnostic, e.log
                    ));
                }
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
    assert!(RULES.len() >= 50);
}
