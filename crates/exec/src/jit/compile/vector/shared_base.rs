//! Shared base addresses for the unchecked loop's proven accesses (`row_proof`).
//!
//! Each proven contiguous access of the unchecked loop is `p(0) + first × size`, `p(0)` its
//! work-item 0's address computed before the loop. A stencil reads `in[i - 1]`, `in[i]` and
//! `in[i + 1]` and writes `out[i]` in two branches: one base register per access is more than
//! x86-64 keeps in registers together with the loop's other values, so the register allocator
//! spills them and reloads (and stores back) several of them in every iteration.
//!
//! Accesses whose pointers are the same linear combination of kir values up to a constant
//! (`Form`: sums, differences, products and shifts by constants, integer conversions and
//! `PtrAdd`, everything else a term of its own) share the first one's base: their address is
//! `base + first × size + c`, the constant folded into the access's displacement. The forms
//! ignore wrapping, so before the loop the proof checks `p(0) = base + c` exactly for each
//! sharing access (a wrap makes the check fail and the row run the checked loop): the
//! addresses are then the ones the access would have used on its own, for every iteration.
//!
//! With more than `RELOAD_ABOVE` bases left, the register allocator still keeps them in spill
//! slots, reloading each in the iteration and storing it back at the latch: the unchecked loop
//! then reads each base from the stack slot it goes through (`branch_on_proof`) at its use,
//! a load per use and no store.

use std::collections::BTreeMap;

use cranelift_codegen::ir::condcodes::IntCC;
use cranelift_codegen::ir::InstBuilder;
use kir::{BinaryOp, ConvertOp, Function, InstData, Value, ValueDef};

use super::super::{ClValue, Translator};
use super::{const_int, int_bits};

/// How deep `form` follows operands (kernels' address computations are shallow).
const DEPTH: u32 = 12;

/// Displacements must fit an x86-64 address displacement with room to spare.
const MAX_DISP: i64 = 1 << 30;

/// Most bases the unchecked loop keeps in registers (see the module doc).
const RELOAD_ABOVE: usize = 3;

/// Whether the unchecked loop reads its `bases` proven addresses from their slots at each use.
pub(super) fn reload(bases: usize) -> bool {
    bases > RELOAD_ABOVE
}

/// `Σ coefficient × value + constant`, wrapping, coefficients by value index (no zeros).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(super) struct Form {
    terms: BTreeMap<usize, i64>,
    constant: i64,
}

impl Form {
    fn atom(v: Value) -> Form {
        Form {
            terms: BTreeMap::from([(v.index(), 1)]),
            constant: 0,
        }
    }

    fn add(mut self, other: &Form, sign: i64) -> Form {
        for (&v, &c) in &other.terms {
            let e = self.terms.entry(v).or_insert(0);
            *e = e.wrapping_add(c.wrapping_mul(sign));
            if *e == 0 {
                self.terms.remove(&v);
            }
        }
        self.constant = self
            .constant
            .wrapping_add(other.constant.wrapping_mul(sign));
        self
    }

    fn scale(mut self, k: i64) -> Form {
        if k == 0 {
            return Form::default();
        }
        for c in self.terms.values_mut() {
            *c = c.wrapping_mul(k);
        }
        self.constant = self.constant.wrapping_mul(k);
        self
    }
}

/// The linear form of `v` (see the module doc).
pub(super) fn form(func: &Function, v: Value) -> Form {
    form_at(func, v, DEPTH)
}

fn form_at(func: &Function, v: Value, depth: u32) -> Form {
    if let Some(c) = const_int(func, v) {
        return Form {
            terms: BTreeMap::new(),
            constant: c,
        };
    }
    let ValueDef::Result(inst) = func.dfg.value_def(v) else {
        return Form::atom(v);
    };
    if depth == 0 {
        return Form::atom(v);
    }
    let sub = |x: Value| form_at(func, x, depth - 1);
    match *func.dfg.inst(inst) {
        InstData::Binary { op, a, b } if int_bits(func.dfg.value_type(v)).is_some() => match op {
            BinaryOp::IAdd => sub(a).add(&sub(b), 1),
            BinaryOp::ISub => sub(a).add(&sub(b), -1),
            BinaryOp::IMul => match (const_int(func, a), const_int(func, b)) {
                (_, Some(k)) => sub(a).scale(k),
                (Some(k), _) => sub(b).scale(k),
                _ => Form::atom(v),
            },
            BinaryOp::Shl => match const_int(func, b) {
                Some(k @ 0..=62) => sub(a).scale(1 << k),
                _ => Form::atom(v),
            },
            _ => Form::atom(v),
        },
        InstData::Convert {
            op: ConvertOp::SConvert | ConvertOp::UConvert,
            arg,
            saturate: false,
            ..
        } => sub(arg),
        InstData::PtrAdd { ptr, offset } => sub(ptr).add(&sub(offset), 1),
        _ => Form::atom(v),
    }
}

/// Whether bases are shared (`OXCL_SHARED_BASE=0` turns it off, for comparisons; with
/// `OXCL_CACHE=0`, since the disk cache does not know the setting).
fn enabled() -> bool {
    static ON: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *ON.get_or_init(|| std::env::var("OXCL_SHARED_BASE").map_or(true, |v| v != "0"))
}

/// Which proven accesses share another's base: `(access, base access, displacement)`.
pub(super) struct Sharing {
    pub(super) shared: Vec<(kir::Inst, kir::Inst, i32)>,
}

impl Translator<'_, '_> {
    /// Groups the proven accesses `addrs` (instruction, pointer, work-item 0's address) by
    /// their pointers' forms up to a constant; returns the accesses keeping their own base
    /// (in order), those sharing one, and `ok` and-ed with the checks that the shared
    /// addresses are exact.
    pub(super) fn share_bases(
        &mut self,
        addrs: Vec<(kir::Inst, Value, ClValue)>,
        mut ok: ClValue,
    ) -> (Vec<(kir::Inst, ClValue)>, Sharing, ClValue) {
        let func = self.func;
        let mut bases: Vec<(Form, kir::Inst, ClValue)> = Vec::new();
        let mut own = Vec::new();
        let mut shared = Vec::new();
        for (inst, ptr, addr) in addrs {
            if !enabled() {
                own.push((inst, addr));
                continue;
            }
            let f = form(func, ptr);
            let base = bases.iter().find_map(|(g, b, a)| {
                let d = f.clone().add(g, -1);
                (d.terms.is_empty() && d.constant.abs() < MAX_DISP).then_some((*b, *a, d.constant))
            });
            match base {
                Some((b, a, c)) => {
                    // The form ignores wrapping: the address must be exactly the base's + c.
                    let expect = self.b.ins().iadd_imm_s(a, c);
                    let same = self.b.ins().icmp(IntCC::Equal, addr, expect);
                    ok = self.b.ins().band(ok, same);
                    shared.push((inst, b, c as i32));
                }
                None => {
                    bases.push((f, inst, addr));
                    own.push((inst, addr));
                }
            }
        }
        (own, Sharing { shared }, ok)
    }
}

#[cfg(test)]
mod tests {
    use super::form;
    use kir::{AddrSpace, BinaryOp, ConvertOp, Function, FunctionBuilder, Signature, Type};

    #[test]
    fn neighbours_differ_by_constants() {
        // p + sext(i + k) × 4 for k = -1, 0, 1, and p + sext(i + n) × 4.
        let sig = Signature {
            params: vec![Type::Ptr(AddrSpace::Global), Type::I32, Type::I32],
            ret: None,
        };
        let mut func = Function::new("f", sig);
        let mut b = FunctionBuilder::new(&mut func);
        let entry = b.create_entry_block();
        b.switch_to_block(entry);
        let params = b.block_params(entry).to_vec();
        let (p, i, n) = (params[0], params[1], params[2]);
        let four = b.iconst(Type::I64, 4);
        let one = b.iconst(Type::I32, 1);
        let ptr = |b: &mut FunctionBuilder<'_>, off: kir::Value| {
            let w = b.convert(ConvertOp::SConvert, Type::I64, off);
            let bytes = b.imul(w, four);
            b.ptr_add(p, bytes)
        };
        let left = b.binary(BinaryOp::ISub, i, one);
        let right = b.iadd(i, one);
        let down = b.iadd(i, n);
        let pl = ptr(&mut b, left);
        let pc = ptr(&mut b, i);
        let pr = ptr(&mut b, right);
        let pd = ptr(&mut b, down);
        b.ret(None);
        let c = form(&func, pc);
        let diff = |x| {
            let d = form(&func, x).add(&c, -1);
            d.terms.is_empty().then_some(d.constant)
        };
        assert_eq!(diff(pl), Some(-4));
        assert_eq!(diff(pr), Some(4));
        assert_eq!(diff(pc), Some(0));
        assert_eq!(diff(pd), None);
    }
}
