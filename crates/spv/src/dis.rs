//! Disassembler: `Module` → text in the exact format of `spirv-dis --raw-id` (SPIRV-Tools), so
//! the two can be compared line by line and `spirv-as --preserve-numeric-ids` reads ours back.
//!
//! Format facts copied from spirv-dis: header comment lines; `%N = ` right-aligned so opnames
//! start in column 16; enumerant names, masks as `A|B` in bit order (`None` for 0); strings
//! quoted with `"` and `\` escaped; constants printed by their type (signed integers signed,
//! 32/64-bit floats with 9/17 significant digits like C++ `%g` when normal or zero and as hex
//! floats otherwise, 16-bit floats always as hex floats).

use crate::grammar::{OperandSpec, Quantifier};
use crate::{ExtInstSet, Id, Instruction, Module, Op, Operand, OperandCategory, OperandKind};
use std::collections::HashMap;
use std::fmt::Write as _;

/// The module as `spirv-dis --raw-id` prints it, header comments included.
pub fn disassemble(module: &Module) -> String {
    let ctx = TypeContext::new(module);
    let h = &module.header;
    let mut out = String::new();
    let _ = writeln!(out, "; SPIR-V");
    let _ = writeln!(out, "; Version: {}.{}", h.version.0, h.version.1);
    let _ = writeln!(out, "; Generator: {}", generator_text(h.generator));
    let _ = writeln!(out, "; Bound: {}", h.bound);
    let _ = writeln!(out, "; Schema: {}", h.schema);
    for inst in &module.instructions {
        let body = ctx.body(inst);
        match inst.result {
            Some(r) => {
                let id = r.to_string();
                let pad = 12usize.saturating_sub(id.len());
                let _ = writeln!(out, "{:pad$}{id} = {body}", "");
            }
            None => {
                let _ = writeln!(out, "{:15}{body}", "");
            }
        }
    }
    out
}

/// One instruction as one line without indentation (`%5 = OpIAdd %3 %4 %4`), for messages.
/// Scans the module for types each call; use [`TextPrinter`] to print many instructions.
pub fn instruction_text(module: &Module, inst: &Instruction) -> String {
    TextPrinter::new(module).instruction_text(inst)
}

/// Prints instructions of one module as single lines, scanning the module's types once.
pub struct TextPrinter {
    ctx: TypeContext,
}

impl TextPrinter {
    pub fn new(module: &Module) -> Self {
        TextPrinter {
            ctx: TypeContext::new(module),
        }
    }

    /// Same text as [`instruction_text`].
    pub fn instruction_text(&self, inst: &Instruction) -> String {
        let body = self.ctx.body(inst);
        match inst.result {
            Some(r) => format!("{r} = {body}"),
            None => body,
        }
    }
}

/// `; Generator: ` text: tool name by vendor id (SPIRV-Tools' table), then the low 16 bits.
pub(crate) fn generator_text(generator: u32) -> String {
    const TOOLS: [&str; 37] = [
        "Khronos",
        "LunarG",
        "Valve",
        "Codeplay",
        "NVIDIA",
        "ARM",
        "Khronos LLVM/SPIR-V Translator",
        "Khronos SPIR-V Tools Assembler",
        "Khronos Glslang Reference Front End",
        "Qualcomm",
        "AMD",
        "Intel",
        "Imagination",
        "Google Shaderc over Glslang",
        "Google spiregg",
        "Google rspirv",
        "X-LEGEND Mesa-IR/SPIR-V Translator",
        "Khronos SPIR-V Tools Linker",
        "Wine VKD3D Shader Compiler",
        "Tellusim Clay Shader Compiler",
        "W3C WebGPU Group WHLSL Shader Translator",
        "Google Clspv",
        "Google MLIR SPIR-V Serializer",
        "Google Tint Compiler",
        "Google ANGLE Shader Compiler",
        "Netease Games Messiah Shader Compiler",
        "Xenia Xenia Emulator Microcode Translator",
        "Embark Studios Rust GPU Compiler Backend",
        "gfx-rs community Naga",
        "Mikkosoft Productions MSP Shader Compiler",
        "SpvGenTwo community SpvGenTwo SPIR-V IR Tools",
        "Google Skia SkSL",
        "TornadoVM SPIRV Beehive Toolkit",
        "DragonJoker ShaderWriter",
        "Rayan Hatout SPIRVSmith",
        "Saarland University Shady",
        "Taichi Graphics Taichi",
    ];
    let tool = generator >> 16;
    let misc = generator & 0xffff;
    match TOOLS.get(tool as usize) {
        Some(name) => format!("{name}; {misc}"),
        None => format!("Unknown({tool}); {misc}"),
    }
}

#[derive(Copy, Clone, Debug)]
enum Scalar {
    Int { width: u32, signed: bool },
    Float { width: u32 },
}

/// What printing needs to know about ids defined elsewhere in the module.
struct TypeContext {
    scalars: HashMap<Id, Scalar>,
    value_types: HashMap<Id, Id>,
    ext_sets: HashMap<Id, String>,
}

impl TypeContext {
    fn new(module: &Module) -> Self {
        let mut ctx = TypeContext {
            scalars: HashMap::new(),
            value_types: HashMap::new(),
            ext_sets: HashMap::new(),
        };
        for inst in &module.instructions {
            let Some(r) = inst.result else { continue };
            match inst.op {
                Op::TypeInt => {
                    if let (Some(width), Some(s)) = (inst.int(0), inst.int(1)) {
                        ctx.scalars.insert(
                            r,
                            Scalar::Int {
                                width,
                                signed: s != 0,
                            },
                        );
                    }
                }
                Op::TypeFloat => {
                    if let Some(width) = inst.int(0) {
                        ctx.scalars.insert(r, Scalar::Float { width });
                    }
                }
                Op::ExtInstImport => {
                    if let Some(name) = inst.str(0) {
                        ctx.ext_sets.insert(r, name.to_string());
                    }
                }
                _ => {}
            }
            if let Some(t) = inst.result_type {
                ctx.value_types.insert(r, t);
            }
        }
        ctx
    }

    /// The instruction text after `%N = `.
    fn body(&self, inst: &Instruction) -> String {
        let mut out = String::from(inst.op.name());
        if let Some(t) = inst.result_type {
            let _ = write!(out, " {t}");
        }
        let mut p = Printer {
            ctx: self,
            inst,
            operands: &inst.operands,
            next: 0,
            tokens: Vec::new(),
        };
        p.instruction();
        for t in p.tokens {
            out.push(' ');
            out.push_str(&t);
        }
        out
    }
}

/// Walks the flattened operands alongside the grammar, producing one token per printed item.
struct Printer<'a> {
    ctx: &'a TypeContext,
    inst: &'a Instruction,
    operands: &'a [Operand],
    next: usize,
    tokens: Vec<String>,
}

impl Printer<'_> {
    fn remaining(&self) -> bool {
        self.next < self.operands.len()
    }

    fn take(&mut self) -> Option<&Operand> {
        let o = self.operands.get(self.next);
        self.next += 1;
        o
    }

    fn instruction(&mut self) {
        let op = self.inst.op;
        if op == Op::ExtInst {
            self.ext_inst();
        } else {
            for spec in op.operand_specs() {
                self.spec(spec, op);
            }
        }
        // Whatever the grammar did not account for is printed as it is.
        while let Some(o) = self.take().cloned() {
            self.tokens.push(generic(&o));
        }
    }

    fn ext_inst(&mut self) {
        let Some(set_op) = self.take().cloned() else {
            return;
        };
        self.tokens.push(generic(&set_op));
        let Some(number) = self.take().cloned() else {
            return;
        };
        let set = set_op
            .as_id()
            .and_then(|s| self.ctx.ext_sets.get(&s))
            .and_then(|name| ExtInstSet::from_import_name(name));
        let inst = match (set, number.as_int()) {
            (Some(set), Some(n)) => set.instruction(n),
            _ => None,
        };
        match inst {
            Some((name, specs)) => {
                self.tokens.push(name.to_string());
                for spec in specs {
                    self.spec(spec, Op::ExtInst);
                }
            }
            None => self.tokens.push(generic(&number)),
        }
    }

    fn spec(&mut self, spec: &OperandSpec, op: Op) {
        match spec.quantifier {
            Quantifier::One => self.operand(spec.kind, op),
            Quantifier::Optional => {
                if self.remaining() {
                    self.operand(spec.kind, op);
                }
            }
            Quantifier::Many => {
                while self.remaining() {
                    self.operand(spec.kind, op);
                }
            }
        }
    }

    fn operand(&mut self, kind: OperandKind, op: Op) {
        let Some(o) = self.take().cloned() else {
            return;
        };
        match kind {
            OperandKind::LiteralContextDependentNumber => {
                let ty = self.inst.result_type;
                let text = self.number(ty, &o);
                self.tokens.push(text);
            }
            OperandKind::LiteralSpecConstantOpInteger => {
                let inner = o
                    .as_int()
                    .and_then(|c| u16::try_from(c).ok())
                    .and_then(Op::from_u16);
                match inner {
                    Some(inner) => {
                        self.tokens.push(inner.name()[2..].to_string());
                        for spec in inner.operand_specs() {
                            self.spec(spec, inner);
                        }
                    }
                    None => self.tokens.push(generic(&o)),
                }
            }
            OperandKind::PairLiteralIntegerIdRef if op == Op::Switch => {
                let selector_type = self
                    .operands
                    .first()
                    .and_then(Operand::as_id)
                    .and_then(|s| self.ctx.value_types.get(&s).copied());
                let text = self.number(selector_type, &o);
                self.tokens.push(text);
                if let Some(target) = self.take().cloned() {
                    self.tokens.push(generic(&target));
                }
            }
            OperandKind::LiteralFloat => {
                let text = match o {
                    Operand::Int(bits) => fmt_f32(bits),
                    _ => generic(&o),
                };
                self.tokens.push(text);
            }
            _ => match kind.category() {
                OperandCategory::Composite => {
                    // The first base was taken already.
                    self.next -= 1;
                    for &base in kind.bases() {
                        self.operand(base, op);
                    }
                }
                OperandCategory::ValueEnum => match o {
                    Operand::Int(v) => match kind.enumerant(v) {
                        Some(e) => {
                            self.tokens.push(e.name.to_string());
                            for p in e.parameters {
                                self.spec(p, op);
                            }
                        }
                        None => self.tokens.push(v.to_string()),
                    },
                    _ => self.tokens.push(generic(&o)),
                },
                OperandCategory::BitEnum => match o {
                    Operand::Int(mask) => self.mask(kind, mask, op),
                    _ => self.tokens.push(generic(&o)),
                },
                _ => self.tokens.push(generic(&o)),
            },
        }
    }

    fn mask(&mut self, kind: OperandKind, mask: u32, op: Op) {
        if mask == 0 {
            let none = kind.enumerant(0).map_or("0", |e| e.name);
            self.tokens.push(none.to_string());
            return;
        }
        let mut names = Vec::new();
        let mut params = Vec::new();
        let mut unknown = 0;
        for bit in 0..32 {
            let b = 1u32 << bit;
            if mask & b == 0 {
                continue;
            }
            match kind.enumerant(b) {
                Some(e) => {
                    names.push(e.name.to_string());
                    params.push(e.parameters);
                }
                None => unknown |= b,
            }
        }
        if unknown != 0 {
            names.push(format!("{unknown:#x}"));
        }
        self.tokens.push(names.join("|"));
        for ps in params {
            for p in ps {
                self.spec(p, op);
            }
        }
    }

    /// A literal number printed by the scalar type `ty`.
    fn number(&self, ty: Option<Id>, o: &Operand) -> String {
        let bits = match o {
            Operand::Int(v) => u64::from(*v),
            Operand::Wide(v) => *v,
            _ => return generic(o),
        };
        match ty.and_then(|t| self.ctx.scalars.get(&t)) {
            Some(Scalar::Int { width, signed }) => {
                let width = (*width).clamp(1, 64);
                let mask = if width == 64 {
                    u64::MAX
                } else {
                    (1u64 << width) - 1
                };
                let v = bits & mask;
                if *signed && width < 64 && v >> (width - 1) & 1 == 1 {
                    ((v | !mask) as i64).to_string()
                } else if *signed {
                    (v as i64).to_string()
                } else {
                    v.to_string()
                }
            }
            Some(Scalar::Float { width: 16 }) => fmt_f16(bits as u16),
            Some(Scalar::Float { width: 32 }) => fmt_f32(bits as u32),
            Some(Scalar::Float { width: 64 }) => fmt_f64(bits),
            _ => bits.to_string(),
        }
    }
}

/// An operand printed without grammar knowledge.
fn generic(o: &Operand) -> String {
    match o {
        Operand::Id(id) => id.to_string(),
        Operand::Int(v) => v.to_string(),
        Operand::Wide(v) => v.to_string(),
        Operand::Str(s) => quote(s),
    }
}

/// A string literal as spirv-dis prints it: `"` and `\` escaped by a backslash.
pub fn quote(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        if c == '"' || c == '\\' {
            out.push('\\');
        }
        out.push(c);
    }
    out.push('"');
    out
}

/// A 16-bit float: always a hex float (SPIRV-Tools prints `Float16` that way).
pub fn fmt_f16(bits: u16) -> String {
    hex_float(u64::from(bits), 5, 10)
}

/// A 32-bit float: `%.9g` when normal or zero, a hex float otherwise.
pub fn fmt_f32(bits: u32) -> String {
    let v = f32::from_bits(bits);
    if v == 0.0 || v.is_normal() {
        fmt_g(f64::from(v), 9)
    } else {
        hex_float(u64::from(bits), 8, 23)
    }
}

/// A 64-bit float: `%.17g` when normal or zero, a hex float otherwise.
pub fn fmt_f64(bits: u64) -> String {
    let v = f64::from_bits(bits);
    if v == 0.0 || v.is_normal() {
        fmt_g(v, 17)
    } else {
        hex_float(bits, 11, 52)
    }
}

/// C's `%.{precision}g`: `precision` significant digits, trailing zeros removed, exponent form
/// when the decimal exponent is below -4 or at least `precision`.
fn fmt_g(v: f64, precision: usize) -> String {
    let sci = format!("{:.*e}", precision - 1, v);
    let (mantissa, exp) = sci.split_once('e').unwrap_or((&sci, "0"));
    let exp: i32 = exp.parse().unwrap_or(0);
    let (sign, mantissa) = match mantissa.strip_prefix('-') {
        Some(m) => ("-", m),
        None => ("", mantissa),
    };
    let digits: String = mantissa.chars().filter(char::is_ascii_digit).collect();
    if exp < -4 || exp >= precision as i32 {
        let mut m = String::new();
        m.push_str(&digits[..1]);
        let frac = digits[1..].trim_end_matches('0');
        if !frac.is_empty() {
            m.push('.');
            m.push_str(frac);
        }
        let esign = if exp < 0 { '-' } else { '+' };
        format!("{sign}{m}e{esign}{:02}", exp.abs())
    } else {
        let mut s = String::new();
        if exp < 0 {
            s.push_str("0.");
            for _ in 0..(-exp - 1) {
                s.push('0');
            }
            s.push_str(&digits);
        } else {
            let point = exp as usize + 1;
            s.push_str(&digits[..point]);
            s.push('.');
            s.push_str(&digits[point..]);
        }
        let s = s.trim_end_matches('0').trim_end_matches('.');
        format!("{sign}{s}")
    }
}

/// SPIRV-Tools' hex float text: `[-]0x1.HHHp±E`, fraction nibbles left-aligned with trailing
/// zeros dropped, denormals normalised, zero as `0x0p+0`.
fn hex_float(bits: u64, exp_bits: u32, frac_bits: u32) -> String {
    let sign = if bits >> (exp_bits + frac_bits) & 1 == 1 {
        "-"
    } else {
        ""
    };
    let exponent = (bits >> frac_bits) & ((1 << exp_bits) - 1);
    let left_shift = (4 - frac_bits % 4) % 4;
    let total = frac_bits + left_shift;
    let mut fraction = (bits & ((1 << frac_bits) - 1)) << left_shift;
    let bias = (1i64 << (exp_bits - 1)) - 1;
    let is_zero = exponent == 0 && fraction == 0;
    let is_denorm = exponent == 0 && !is_zero;
    let mut int_exponent = if is_zero { 0 } else { exponent as i64 - bias };
    let top = 1u64 << (total - 1);
    let represent = (1u64 << total) - 1;
    if is_denorm {
        while fraction & top == 0 {
            fraction <<= 1;
            int_exponent -= 1;
        }
        fraction = (fraction << 1) & represent;
    }
    let mut nibbles = total / 4;
    while nibbles > 0 && fraction & 0xf == 0 {
        fraction >>= 4;
        nibbles -= 1;
    }
    let mut out = format!("{sign}0x{}", if is_zero { '0' } else { '1' });
    if nibbles > 0 {
        let _ = write!(out, ".{:0width$x}", fraction, width = nibbles as usize);
    }
    let _ = write!(
        out,
        "p{}{}",
        if int_exponent >= 0 { "+" } else { "" },
        int_exponent
    );
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn g_format_matches_c() {
        // Expected strings from C printf("%.9g") / ("%.17g").
        assert_eq!(fmt_f32(1.5f32.to_bits()), "1.5");
        assert_eq!(fmt_f32(100f32.to_bits()), "100");
        assert_eq!(fmt_f32(1e10f32.to_bits()), "1e+10");
        assert_eq!(fmt_f32(1e-7f32.to_bits()), "1.00000001e-07");
        assert_eq!(fmt_f32(f32::MAX.to_bits()), "3.40282347e+38");
        assert_eq!(fmt_f32(123456789f32.to_bits()), "123456792");
        assert_eq!(fmt_f32((-0.0f32).to_bits()), "-0");
        assert_eq!(fmt_f32(0.0001f32.to_bits()), "9.99999975e-05");
        assert_eq!(fmt_f64(0.1f64.to_bits()), "0.10000000000000001");
        assert_eq!(
            fmt_f64((-2.25e100f64).to_bits()),
            "-2.2500000000000002e+100"
        );
    }

    #[test]
    fn hex_floats_match_spirv_tools() {
        assert_eq!(fmt_f32(1), "0x1p-149");
        assert_eq!(fmt_f32(f32::INFINITY.to_bits()), "0x1p+128");
        assert_eq!(fmt_f32(0xffc0_0000), "-0x1.8p+128");
        assert_eq!(fmt_f16(0), "0x0p+0");
        assert_eq!(fmt_f16(0x8000), "-0x0p+0");
        assert_eq!(fmt_f16(0x3c00), "0x1p+0");
        assert_eq!(fmt_f16(0x7bff), "0x1.ffcp+15");
        assert_eq!(fmt_f16(1), "0x1p-24");
    }
}
