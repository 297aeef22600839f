//! Row proofs of uniform loads from `__constant` memory: a load whose pointer is computed from
//! the kernel's parameters and constants only (a convolution's `filt[(dy + 2) * 5 + dx + 2]`
//! once its loops are unrolled, `counted_unroll`) reads the same bytes in every iteration of
//! the row. Its address is evaluated once in the block before the loops and checked against
//! the region's length with the row's other proofs (`row_proof`); the unchecked loop then
//! loads it directly, without the per-iteration check and slow path, as a pure value
//! (`readonly`: `__constant` memory does not change while a kernel runs). The checked loop
//! keeps the check, so an out-of-bounds constant read is reported as before.

use cranelift_codegen::ir::{types, InstBuilder, MemFlagsData};
use kir::{AddrSpace, InstData, Type, Value, ValueDef};

use super::super::{lanes_of, ClValue, Translator, Unsupported};
use super::Shape;

impl Translator<'_, '_> {
    /// The uniform `__constant` loads of `order` whose pointer depends only on parameters and
    /// constants, with the instructions computing it (operands first).
    fn uniform_loads(&self, order: &[kir::Block]) -> Vec<(kir::Inst, Value, Vec<kir::Inst>)> {
        let func = self.func;
        let mut out = Vec::new();
        for &kb in order {
            for &inst in func.layout.insts(kb) {
                let InstData::Load { ptr, .. } = func.dfg.inst(inst) else {
                    continue;
                };
                let Some(r) = func.dfg.inst_result(inst) else {
                    continue;
                };
                if self.ty(*ptr) != Type::Ptr(AddrSpace::Constant)
                    || self.shape(*ptr) != Shape::Uniform
                    || self.shape(r) != Shape::Uniform
                    || !matches!(self.ty(r), Type::F32 | Type::I32 | Type::F64 | Type::I64)
                    || self.root_entry(*ptr).is_none()
                {
                    continue;
                }
                let mut chain = Vec::new();
                if self.invariant_chain(*ptr, &mut chain) {
                    out.push((inst, *ptr, chain));
                }
            }
        }
        out
    }

    /// Appends the instructions computing `v` when they are constants, `PtrAdd`s and integer
    /// `iadd`/`isub`/`imul`/`shl`/conversions of values computed from the kernel's parameters
    /// and constants only.
    fn invariant_chain(&self, v: Value, chain: &mut Vec<kir::Inst>) -> bool {
        let func = self.func;
        let inst = match func.dfg.value_def(v) {
            ValueDef::Result(inst) => inst,
            ValueDef::Param(block, _) => return Some(block) == func.entry_block(),
        };
        if chain.contains(&inst) {
            return true;
        }
        let data = func.dfg.inst(inst);
        let ok = match data {
            InstData::Const { .. } | InstData::PtrAdd { .. } => true,
            InstData::Unary {
                op: kir::UnaryOp::INeg,
                ..
            } => true,
            InstData::Binary { op, .. } => matches!(
                op,
                kir::BinaryOp::IAdd
                    | kir::BinaryOp::ISub
                    | kir::BinaryOp::IMul
                    | kir::BinaryOp::Shl
            ),
            InstData::Convert {
                op,
                saturate: false,
                ..
            } => matches!(
                op,
                kir::ConvertOp::SConvert | kir::ConvertOp::UConvert | kir::ConvertOp::Bitcast
            ),
            _ => false,
        };
        let scalar = data
            .operands()
            .iter()
            .chain(func.dfg.inst_result(inst).iter())
            .all(|&x| {
                matches!(
                    self.ty(x),
                    Type::I8 | Type::I16 | Type::I32 | Type::I64 | Type::Ptr(_)
                )
            });
        if !ok
            || !scalar
            || !data
                .operands()
                .iter()
                .all(|&a| self.invariant_chain(a, chain))
        {
            return false;
        }
        chain.push(inst);
        true
    }

    /// In the block before the loops: the condition under which every uniform `__constant`
    /// load of the row is in bounds, and each one's address; `None` when there is none.
    #[allow(clippy::type_complexity)]
    pub(super) fn uniform_proofs(
        &mut self,
        order: &[kir::Block],
        args: &[ClValue],
        row_base: [ClValue; 4],
    ) -> Result<Option<(ClValue, Vec<(kir::Inst, ClValue)>)>, Unsupported> {
        if std::env::var("OXCL_UNIFORM_PROOF").is_ok_and(|v| v == "0") {
            return Ok(None);
        }
        let loads = self.uniform_loads(order);
        if loads.is_empty() {
            return Ok(None);
        }
        let mut chain: Vec<kir::Inst> = Vec::new();
        for (_, _, c) in &loads {
            for &i in c {
                if !chain.contains(&i) {
                    chain.push(i);
                }
            }
        }
        let zero = self.b.ins().iconst(types::I64, 0);
        let at0 = self.eval_chain(&chain, args, row_base, zero)?;
        let mask = self.layout.offset_mask() as i64;
        let mut ok = self.b.ins().iconst(types::I8, 1);
        let mut addrs = Vec::new();
        for (inst, ptr, _) in loads {
            let (Some(&p0), Some(root)) = (at0.get(&ptr), self.root_entry(ptr)) else {
                return Ok(None);
            };
            let r = self
                .func
                .dfg
                .inst_result(inst)
                .ok_or("load without result")?;
            let size = i64::from(lanes_of(self.ty(r))?.first().map_or(8, |l| l.0.bytes()));
            let off = self.b.ins().band_imm_s(p0, mask);
            let end = self.b.ins().iadd_imm_s(off, size);
            let fits = self.b.ins().icmp(
                cranelift_codegen::ir::condcodes::IntCC::UnsignedLessThanOrEqual,
                end,
                root.read_len,
            );
            ok = self.b.ins().band(ok, fits);
            let addr = self.b.ins().iadd(root.base, off);
            addrs.push((inst, addr));
        }
        Ok(Some((ok, addrs)))
    }

    /// A uniform load proven by `uniform_proofs` (its address in `proven`): a direct, pure
    /// load. Returns whether `inst` was one.
    pub(super) fn uniform_proven_load(&mut self, inst: kir::Inst) -> Result<bool, Unsupported> {
        let func = self.func;
        if !matches!(func.dfg.inst(inst), InstData::Load { .. }) {
            return Ok(false);
        }
        let Some(&addr) = self.vs().proven.get(&inst) else {
            return Ok(false);
        };
        let r = func.dfg.inst_result(inst).ok_or("load without result")?;
        let cl = lanes_of(self.ty(r))?
            .first()
            .map(|l| l.0)
            .ok_or("load without lanes")?;
        let addr = match self.vs().proven_reload {
            true => self
                .b
                .ins()
                .load(types::I64, MemFlagsData::trusted(), addr, 0),
            false => addr,
        };
        let flags = MemFlagsData::new()
            .with_notrap()
            .with_readonly()
            .with_can_move();
        let x = self.b.ins().load(cl, flags, addr, 0);
        self.vals[r.index()] = Some(vec![x]);
        Ok(true)
    }
}
