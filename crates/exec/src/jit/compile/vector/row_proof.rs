//! Row versioning of the vectorised loop: checks proven once per row instead of once per
//! iteration.
//!
//! A contiguous access (`contiguous`: an affine pointer whose stride is the access size)
//! whose pointer is computed only from the kernel's parameters, constants, work-item queries
//! and pure integer arithmetic (no loads, no loop-carried values) has, along the row, the
//! address `p(x) = p(0) + x × size` for every work-item x the vectorised loop runs, provided
//! that no widening conversion, narrow `PtrAdd` offset or `clamp` in its computation departs
//! from the affine form anywhere in the row (the conditions the per-iteration guards check
//! for one iteration). All those values are affine in x, so they lie between their values at
//! the row's first and last work-items: evaluating the computation at both ends (with the
//! scalar translator, in the block before the loop) proves the guards for the whole row, and
//! `offset(p(0)) + m × size ≤ length` (m the work-items the loop runs) proves every
//! iteration's range in bounds.
//!
//! When every such proof holds, the row runs a second copy of the loop in which those
//! accesses are direct (address `p(0) + first × size`, no check, no slow path); otherwise the
//! checked loop runs, which reports errors exactly as before. Accesses without a proof keep
//! their checks in both copies.

use std::collections::HashMap;

use cranelift_codegen::entity::packed_option::ReservedValue;
use cranelift_codegen::ir::condcodes::IntCC;
use cranelift_codegen::ir::{types, InstBuilder, MemFlagsData};
use kir::{BinaryOp, BuiltinFn, ConvertOp, InstData, Value, ValueDef};

use super::super::{lanes_of, ClValue, RootEntry, RowLoop, Translator, Unsupported};
use super::row_prefix::Border;
use super::shared_base::Sharing;
use super::{int_bits, Shape, WIDTH};

/// Strides and access sizes the proof accepts stay below this, and so does the row length
/// (checked at run time): every product it computes stays far from `i64` overflow.
const LIMIT: i64 = 1 << 31;

/// What the block before the loops proved about the row, when `ok` holds.
pub(super) struct RowProof {
    pub(super) ok: ClValue,
    /// Work-item 0's address of each proven contiguous access, in program order.
    pub(super) addrs: Vec<(kir::Inst, ClValue)>,
    /// Proven accesses using another one's address plus a constant (`shared_base`).
    pub(super) shared: Sharing,
    /// Comparisons with the same value for every work-item of the row.
    pub(super) cmps: Vec<(kir::Inst, bool)>,
    /// The shapes with those comparisons uniform (`None`: no comparison).
    pub(super) shapes: Option<Vec<Shape>>,
    /// Contiguous accesses in counted loops proven by intervals (`range_proof`).
    pub(super) ranged: Vec<kir::Inst>,
    /// The work-items the proof covers (`row_prefix`), a prefix of the `whole` vectorised
    /// part of the row (`None`: no border, the prefix is the whole).
    pub(super) prefix: ClValue,
    pub(super) whole: Option<ClValue>,
}

/// `a == b` (or `!=`) of an affine `a` and a uniform `b`: false (true) for the whole row when
/// `b` lies outside the range `a` covers along it.
struct RowCmp {
    inst: kir::Inst,
    a: Value,
    b: Value,
    stride: i64,
    bits: u32,
    eq: bool,
}

/// A contiguous access the proof covers.
pub(super) struct Access {
    inst: kir::Inst,
    pub(super) ptr: Value,
    pub(super) size: i64,
    pub(super) write: bool,
    pub(super) root: RootEntry,
}

/// A place where the affine form needs a guard (see `affine_guards`): `arg`, affine with
/// `stride`, must not wrap as a `bits`-bit integer (signed or not) along the row, and for a
/// `clamp` must lie within `[lo, hi]`.
struct Site {
    arg: Value,
    stride: i64,
    bits: u32,
    signed: bool,
    clamp: Option<(Value, Value)>,
}

impl Translator<'_, '_> {
    /// The load or store `inst` when `contiguous` would translate it as one range.
    pub(super) fn contiguous_access(&self, inst: kir::Inst) -> Option<Access> {
        let func = self.func;
        let (ptr, ty, write) = match func.dfg.inst(inst) {
            InstData::Load { ptr, .. } => (*ptr, self.ty(func.dfg.inst_result(inst)?), false),
            InstData::Store { ptr, value, .. } => (*ptr, self.ty(*value), true),
            _ => return None,
        };
        let Shape::Affine(stride) = self.shape(ptr) else {
            return None;
        };
        let lanes = lanes_of(ty).ok()?;
        if lanes
            .iter()
            .any(|&(_, s)| s.is_none() || s == Some(kir::ScalarType::Bool))
        {
            return None;
        }
        let size: i64 = lanes
            .iter()
            .map(|&(cl, s)| i64::from(self.mem_width(cl, s)))
            .sum();
        let root = self.root_entry(ptr)?;
        (stride == size && size < LIMIT).then_some(Access {
            inst,
            ptr,
            size,
            write,
            root,
        })
    }

    /// Appends to `chain` the instructions computing `v` (operands first), when they are all
    /// pure, cannot fail and depend on nothing but parameters, constants and work-item
    /// queries; returns whether they do.
    fn row_chain(&self, v: Value, chain: &mut Vec<kir::Inst>) -> bool {
        let func = self.func;
        let inst = match func.dfg.value_def(v) {
            ValueDef::Result(inst) => inst,
            ValueDef::Param(block, _) => return Some(block) == func.entry_block(),
        };
        if chain.contains(&inst) {
            return true;
        }
        let data = func.dfg.inst(inst);
        let pure = match data {
            InstData::Const { .. } | InstData::WorkItem { .. } | InstData::PtrAdd { .. } => true,
            InstData::Binary { op, .. } => matches!(
                op,
                BinaryOp::IAdd
                    | BinaryOp::ISub
                    | BinaryOp::IMul
                    | BinaryOp::Shl
                    | BinaryOp::LShr
                    | BinaryOp::AShr
                    | BinaryOp::And
                    | BinaryOp::Or
                    | BinaryOp::Xor
            ),
            InstData::Convert {
                op,
                saturate: false,
                ..
            } => matches!(
                op,
                ConvertOp::SConvert
                    | ConvertOp::UConvert
                    | ConvertOp::SToU
                    | ConvertOp::UToS
                    | ConvertOp::Bitcast
            ),
            InstData::Builtin {
                func: BuiltinFn::SClamp | BuiltinFn::UClamp,
                ..
            } => true,
            _ => false,
        };
        let scalar = data
            .operands()
            .iter()
            .chain(func.dfg.inst_result(inst).iter())
            .all(|&x| int_bits(self.ty(x)).is_some() || matches!(self.ty(x), kir::Type::Ptr(_)));
        if !pure || !scalar {
            return false;
        }
        if !data.operands().iter().all(|&a| self.row_chain(a, chain)) {
            return false;
        }
        chain.push(inst);
        true
    }

    /// The guard sites of `chain` (see `affine_guards`), or `None` when a stride is too large
    /// for the proof.
    fn guard_sites(&self, chain: &[kir::Inst]) -> Option<Vec<Site>> {
        let func = self.func;
        let mut sites = Vec::new();
        for &inst in chain {
            let data = func.dfg.inst(inst);
            let (arg, signed, clamp) = match data {
                InstData::Builtin {
                    func: bf @ (BuiltinFn::SClamp | BuiltinFn::UClamp),
                    args,
                } => (
                    args[0],
                    *bf == BuiltinFn::SClamp,
                    Some((*args.get(1)?, *args.get(2)?)),
                ),
                InstData::Convert { op, arg, .. } => {
                    let rbits = int_bits(self.ty(func.dfg.inst_result(inst)?));
                    let from = int_bits(self.ty(*arg));
                    match (from, rbits) {
                        (Some(f), Some(r)) if r > f => {}
                        _ => continue,
                    }
                    (
                        *arg,
                        matches!(op, ConvertOp::SConvert | ConvertOp::SToU),
                        None,
                    )
                }
                InstData::PtrAdd { offset, .. } => (*offset, true, None),
                _ => continue,
            };
            let Shape::Affine(stride) = self.shape(arg) else {
                continue;
            };
            let bits = int_bits(self.ty(arg))?;
            if bits >= 64 && clamp.is_none() {
                continue;
            }
            if stride.unsigned_abs() >= LIMIT as u64 {
                return None;
            }
            sites.push(Site {
                arg,
                stride,
                bits,
                signed,
                clamp,
            });
        }
        Some(sites)
    }

    /// Evaluates `chain` (in the current block) for work-item `i` of the row: every value's
    /// single lane, with the kir entry block's parameters from `args`.
    pub(super) fn eval_chain(
        &mut self,
        chain: &[kir::Inst],
        args: &[ClValue],
        row_base: [ClValue; 4],
        i: ClValue,
    ) -> Result<HashMap<Value, ClValue>, Unsupported> {
        let func = self.func;
        let entry = func.entry_block().ok_or("function without a body")?;
        let mut out = HashMap::new();
        let mut saved = Vec::new();
        let mut k = 0;
        for &p in func.dfg.block_params(entry) {
            let n = lanes_of(self.ty(p))?.len();
            let lanes = args
                .get(k..k + n)
                .ok_or("missing parameter lanes")?
                .to_vec();
            k += n;
            out.insert(p, lanes[0]);
            saved.push((p, self.vals[p.index()].replace(lanes)));
        }
        let row = self.row.replace(RowLoop {
            i,
            base: row_base,
            latch: cranelift_codegen::ir::Block::reserved_value(),
        });
        let mut result = Ok(());
        for &inst in chain {
            result = self.inst(inst);
            if result.is_err() {
                break;
            }
        }
        for &inst in chain {
            if let Some(r) = func.dfg.inst_result(inst) {
                self.ptr_offsets.remove(&r);
                if let Some(l) = self.vals[r.index()].take() {
                    out.insert(r, l[0]);
                }
            }
        }
        self.row = row;
        for (p, old) in saved {
            self.vals[p.index()] = old;
        }
        result.map(|_| out)
    }

    /// In the block before the loops: the condition under which the row's contiguous accesses
    /// with a proof are in bounds and affine along the whole row, and their work-item 0
    /// addresses; `None` when no access has a proof.
    #[allow(clippy::type_complexity)]
    pub(super) fn row_proofs(
        &mut self,
        order: &[kir::Block],
        args: &[ClValue],
        row_base: [ClValue; 4],
        n: ClValue,
    ) -> Result<Option<RowProof>, Unsupported> {
        let func = self.func;
        let mut accesses = Vec::new();
        let mut chain = Vec::new();
        let mut sites = Vec::new();
        for &kb in order {
            for &inst in func.layout.insts(kb) {
                let Some(access) = self.contiguous_access(inst) else {
                    continue;
                };
                let mut mine = chain.clone();
                if !self.row_chain(access.ptr, &mut mine) {
                    continue;
                }
                let Some(s) = self.guard_sites(&mine[chain.len()..]) else {
                    continue;
                };
                chain = mine;
                sites.extend(s);
                accesses.push(access);
            }
        }
        let mut cmps = Vec::new();
        for &kb in order {
            for &inst in func.layout.insts(kb) {
                let Some(cmp) = self.row_cmp(inst) else {
                    continue;
                };
                let mut mine = chain.clone();
                if !self.row_chain(cmp.a, &mut mine) || !self.row_chain(cmp.b, &mut mine) {
                    continue;
                }
                let Some(s) = self.guard_sites(&mine[chain.len()..]) else {
                    continue;
                };
                chain = mine;
                sites.extend(s);
                cmps.push(cmp);
            }
        }
        let proven: Vec<kir::Inst> = accesses.iter().map(|a| a.inst).collect();
        let ranged = self.range_candidates(order, &proven);
        if accesses.is_empty() && cmps.is_empty() && ranged.is_empty() {
            return Ok(None);
        }
        // The loop's shapes with the proven comparisons uniform.
        let results: Vec<Value> = cmps
            .iter()
            .filter_map(|c| func.dfg.inst_result(c.inst))
            .collect();
        let shapes = match results.is_empty() {
            true => None,
            false => match super::analyse_with(func, order, &results) {
                Ok(analysis) => Some(analysis.shapes),
                Err(_) => {
                    cmps.clear();
                    None
                }
            },
        };
        // m: the work-items the loop runs; the proof is about work-items 0 and m − 1.
        let whole = self.b.ins().band_imm_s(n, !(WIDTH as i64 - 1));
        let zero = self.b.ins().iconst(types::I64, 0);
        let at0 = self.eval_chain(&chain, args, row_base, zero)?;
        let mut ok = self
            .b
            .ins()
            .icmp_imm_u(IntCC::UnsignedLessThan, whole, LIMIT);
        // The proof is about the prefix before the first border (`row_prefix`).
        let Some(mut borders) = self.borders(&at0, &sites, &cmps) else {
            return Ok(None);
        };
        borders.extend(self.range_borders(&ranged, args, row_base)?);
        let m = match borders.is_empty() {
            true => whole,
            false => self.prefix_len(whole, &borders),
        };
        let last = self.b.ins().iadd_imm_s(m, -1);
        let at1 = self.eval_chain(&chain, args, row_base, last)?;
        let (in_range, ranged) = self.range_proofs(&ranged, args, row_base, last)?;
        ok = self.b.ins().band(ok, in_range);
        if !borders.is_empty() {
            // An empty prefix: the unchecked loop runs nothing and abandons the row at its
            // first iteration (`row_prefix`), which needs no proof.
            let empty = self.b.ins().icmp_imm_s(IntCC::Equal, m, 0);
            ok = self.b.ins().bor(ok, empty);
        }
        for site in &sites {
            let (Some(&a0), Some(&a1)) = (at0.get(&site.arg), at1.get(&site.arg)) else {
                return Ok(None);
            };
            let wide = |t: &mut Self, v: ClValue| {
                if site.bits == 64 {
                    v
                } else if site.signed {
                    t.b.ins().sextend(types::I64, v)
                } else {
                    t.b.ins().uextend(types::I64, v)
                }
            };
            let (w0, w1) = (wide(self, a0), wide(self, a1));
            // No wrap anywhere in the row: the last work-item's value is the affine one.
            let span = self.b.ins().imul_imm_s(last, site.stride);
            let expect = self.b.ins().iadd(w0, span);
            let linear = self.b.ins().icmp(IntCC::Equal, w1, expect);
            ok = self.b.ins().band(ok, linear);
            let Some((lo, hi)) = site.clamp else {
                continue;
            };
            let (Some(&lo), Some(&hi)) = (at0.get(&lo), at0.get(&hi)) else {
                return Ok(None);
            };
            let (lo, hi) = (wide(self, lo), wide(self, hi));
            let (min, max) = if site.stride >= 0 { (w0, w1) } else { (w1, w0) };
            let (ge, le) = if site.signed {
                (
                    IntCC::SignedGreaterThanOrEqual,
                    IntCC::SignedLessThanOrEqual,
                )
            } else {
                (
                    IntCC::UnsignedGreaterThanOrEqual,
                    IntCC::UnsignedLessThanOrEqual,
                )
            };
            // Every value within [lo, hi]: clamp is the identity along the row.
            let a = self.b.ins().icmp(ge, min, lo);
            let b = self.b.ins().icmp(le, max, hi);
            let ordered = self.b.ins().icmp(ge, max, min);
            let inside = self.b.ins().band(a, b);
            let inside = self.b.ins().band(inside, ordered);
            ok = self.b.ins().band(ok, inside);
        }
        let mut proven_cmps = Vec::new();
        for cmp in cmps {
            let (Some(&a0), Some(&a1), Some(&b)) =
                (at0.get(&cmp.a), at1.get(&cmp.a), at0.get(&cmp.b))
            else {
                return Ok(None);
            };
            let wide = |t: &mut Self, v: ClValue| {
                if cmp.bits == 64 {
                    v
                } else {
                    t.b.ins().sextend(types::I64, v)
                }
            };
            let (w0, w1, b) = (wide(self, a0), wide(self, a1), wide(self, b));
            // `a` takes every value between w0 and w1 exactly (no wrap), and `b` none of them.
            let span = self.b.ins().imul_imm_s(last, cmp.stride);
            let expect = self.b.ins().iadd(w0, span);
            let linear = self.b.ins().icmp(IntCC::Equal, w1, expect);
            let (min, max) = if cmp.stride > 0 { (w0, w1) } else { (w1, w0) };
            let ordered = self.b.ins().icmp(IntCC::SignedGreaterThanOrEqual, max, min);
            let below = self.b.ins().icmp(IntCC::SignedLessThan, b, min);
            let above = self.b.ins().icmp(IntCC::SignedGreaterThan, b, max);
            let outside = self.b.ins().bor(below, above);
            let holds = self.b.ins().band(linear, ordered);
            let holds = self.b.ins().band(holds, outside);
            ok = self.b.ins().band(ok, holds);
            proven_cmps.push((cmp.inst, !cmp.eq));
        }
        let mask = self.layout.offset_mask() as i64;
        // In program order (the translation must not depend on hash order: the disk cache
        // compares it between processes).
        let mut addrs = Vec::new();
        for access in accesses {
            let (Some(&p0), Some(&p1)) = (at0.get(&access.ptr), at1.get(&access.ptr)) else {
                return Ok(None);
            };
            let off0 = self.b.ins().band_imm_s(p0, mask);
            let off1 = self.b.ins().band_imm_s(p1, mask);
            // Every iteration's range lies in [off0, off0 + m × size) ⊆ the region.
            let bytes = self.b.ins().imul_imm_s(m, access.size);
            let end = self.b.ins().iadd(off0, bytes);
            let len = if access.write {
                access.root.write_len
            } else {
                access.root.read_len
            };
            let fits = self.b.ins().icmp(IntCC::UnsignedLessThanOrEqual, end, len);
            ok = self.b.ins().band(ok, fits);
            let span = self.b.ins().imul_imm_s(last, access.size);
            let expect = self.b.ins().iadd(off0, span);
            let linear = self.b.ins().icmp(IntCC::Equal, off1, expect);
            ok = self.b.ins().band(ok, linear);
            let addr = self.b.ins().iadd(access.root.base, off0);
            addrs.push((access.inst, access.ptr, addr));
        }
        let (addrs, shared, ok) = self.share_bases(addrs, ok);
        Ok(Some(RowProof {
            ok,
            addrs,
            shared,
            cmps: proven_cmps,
            shapes,
            ranged,
            prefix: m,
            whole: (!borders.is_empty()).then_some(whole),
        }))
    }

    /// The borders of the row proof's comparisons and clamps, from work-item 0's values
    /// `at0` (see `row_prefix`); `None` when a value is missing.
    fn borders(
        &mut self,
        at0: &HashMap<Value, ClValue>,
        sites: &[Site],
        cmps: &[RowCmp],
    ) -> Option<Vec<Border>> {
        let mut out = Vec::new();
        for site in sites {
            let Some((lo, hi)) = site.clamp else {
                continue;
            };
            let (a0, lo, hi) = (*at0.get(&site.arg)?, *at0.get(&lo)?, *at0.get(&hi)?);
            let wide = |t: &mut Self, v: ClValue| {
                if site.bits == 64 {
                    v
                } else if site.signed {
                    t.b.ins().sextend(types::I64, v)
                } else {
                    t.b.ins().uextend(types::I64, v)
                }
            };
            if site.bits == 64 && !site.signed {
                // Unsigned 64-bit bounds do not fit the signed arithmetic of `row_prefix`:
                // the whole row, as before.
                continue;
            }
            out.push(Border::Within {
                a0: wide(self, a0),
                lo: wide(self, lo),
                hi: wide(self, hi),
                stride: site.stride,
                signed: site.signed,
            });
        }
        for cmp in cmps {
            let (a0, b) = (*at0.get(&cmp.a)?, *at0.get(&cmp.b)?);
            let wide = |t: &mut Self, v: ClValue| {
                if cmp.bits == 64 {
                    v
                } else {
                    t.b.ins().sextend(types::I64, v)
                }
            };
            out.push(Border::Avoid {
                a0: wide(self, a0),
                b: wide(self, b),
                stride: cmp.stride,
            });
        }
        Some(out)
    }

    /// `inst` when it is a row comparison (`RowCmp`) that decides a branch.
    fn row_cmp(&self, inst: kir::Inst) -> Option<RowCmp> {
        let func = self.func;
        let InstData::Cmp { op, a, b } = func.dfg.inst(inst) else {
            return None;
        };
        let eq = match op {
            kir::CmpOp::IEq => true,
            kir::CmpOp::INe => false,
            _ => return None,
        };
        let r = func.dfg.inst_result(inst)?;
        if self.shape(r) != Shape::Varying {
            return None;
        }
        let (a, b, stride) = match (self.shape(*a), self.shape(*b)) {
            (Shape::Affine(s), Shape::Uniform) => (*a, *b, s),
            (Shape::Uniform, Shape::Affine(s)) => (*b, *a, s),
            _ => return None,
        };
        let bits = int_bits(self.ty(a))?;
        if stride == 0 || stride.unsigned_abs() >= LIMIT as u64 {
            return None;
        }
        let decides = func.layout.blocks.iter().any(|&kb| {
            func.layout
                .insts(kb)
                .iter()
                .any(|&i| match func.dfg.inst(i) {
                    InstData::Brif { cond, .. } => *cond == r,
                    data => data.branch_targets().iter().any(|d| d.args.contains(&r)),
                })
        });
        decides.then_some(RowCmp {
            inst,
            a,
            b,
            stride,
            bits,
            eq,
        })
    }

    /// In the unchecked loop: defines a comparison proven for the row as its constant;
    /// returns whether `inst` is one.
    pub(super) fn proven_cmp(&mut self, inst: kir::Inst) -> bool {
        let Some(value) = self
            .vec
            .as_ref()
            .and_then(|v| v.proven_cmps.iter().find(|(i, _)| *i == inst))
            .map(|&(_, value)| value)
        else {
            return false;
        };
        let Some(r) = self.func.dfg.inst_result(inst) else {
            return false;
        };
        let c = self.b.ins().iconst(types::I8, i64::from(value));
        self.vals[r.index()] = Some(vec![c]);
        true
    }

    /// Ends the block before the loops: to a new block starting the unchecked loop when `ok`
    /// holds, to `checked` otherwise; returns it and the addresses to use there. Each address
    /// goes through a stack slot: Cranelift places pure values again at their uses (inside
    /// the loop, with the masking that computes them), but leaves a load where it is.
    pub(super) fn branch_on_proof(
        &mut self,
        ok: ClValue,
        addrs: Vec<(kir::Inst, ClValue)>,
        shared: Sharing,
        checked: cranelift_codegen::ir::Block,
    ) -> (cranelift_codegen::ir::Block, HashMap<kir::Inst, ClValue>) {
        let fast = self.b.create_block();
        let flags = MemFlagsData::trusted();
        let mut kept = HashMap::new();
        // Many bases are read from their slots at each use (`shared_base::reload`).
        let reload = super::shared_base::reload(addrs.len());
        self.vs().proven_reload = reload;
        for (inst, addr) in addrs {
            let slot = self.slot(8);
            self.b.ins().store(flags, addr, slot, 0);
            let again = match reload {
                true => slot,
                false => self.b.ins().load(types::I64, flags, slot, 0),
            };
            kept.insert(inst, again);
        }
        for (inst, base, disp) in shared.shared {
            if let Some(&addr) = kept.get(&base) {
                kept.insert(inst, addr);
                self.vs().proven_disp.insert(inst, disp);
            }
        }
        self.b.ins().brif(ok, fast, &[], checked, &[]);
        (fast, kept)
    }

    /// A contiguous access proven in bounds for the row (`proven`): direct, no check. `None`
    /// when `inst` has no proof; otherwise what `contiguous` returns.
    #[allow(clippy::type_complexity)]
    pub(super) fn contiguous_proven(
        &mut self,
        inst: kir::Inst,
    ) -> Result<Option<Option<Vec<Vec<ClValue>>>>, Unsupported> {
        let Some(&addr0) = self.vs().proven.get(&inst) else {
            return Ok(None);
        };
        let addr0 = match self.vs().proven_reload {
            true => self
                .b
                .ins()
                .load(types::I64, MemFlagsData::trusted(), addr0, 0),
            false => addr0,
        };
        let access = self
            .contiguous_access(inst)
            .ok_or("proven access is not contiguous")?;
        let func = self.func;
        let value = match func.dfg.inst(inst) {
            InstData::Store { value, .. } => Some(*value),
            _ => None,
        };
        let ty = match (value, func.dfg.inst_result(inst)) {
            (Some(v), _) => self.ty(v),
            (None, Some(r)) => self.ty(r),
            _ => return Ok(None),
        };
        let lanes = lanes_of(ty)?;
        // A copy of the unrolled loop adds its distance from the trip's start (`unroll`).
        let (first, ahead) = match self.vs().unrolled {
            Some((i, ahead)) => (i, ahead * access.size),
            None => (self.vs().first, 0),
        };
        let at = self.b.ins().imul_imm_s(first, access.size);
        let addr = self.b.ins().iadd(addr0, at);
        let flags = super::pure_loads::proven_flags(func, value.is_none());
        // A shared base's accesses add their constant (`shared_base`).
        let disp = self.vs().proven_disp.get(&inst).copied().unwrap_or(0);
        let disp = i32::try_from(ahead)
            .ok()
            .and_then(|a| disp.checked_add(a))
            .ok_or("unrolled access too far ahead")?;
        if lanes.len() == 1 && lanes[0].0 == types::F32 {
            match value {
                Some(v) => {
                    let x = self.simd_of(v)?[0];
                    self.b.ins().store(flags, x, addr, disp);
                }
                None => {
                    let x = self.b.ins().load(types::F32X4, flags, addr, disp);
                    let r = func.dfg.inst_result(inst).ok_or("load without result")?;
                    self.vs().simd.insert(r, vec![x]);
                }
            }
            return Ok(Some(None));
        }
        let widths: Vec<u32> = lanes.iter().map(|&(cl, s)| self.mem_width(cl, s)).collect();
        let mut stored = Vec::new();
        if let Some(v) = value {
            for j in 0..WIDTH {
                stored.push(self.lane(v, j)?);
            }
        }
        let mut per = Vec::new();
        let mut off = disp;
        for j in 0..WIDTH {
            let mut loaded = Vec::new();
            for (k, &(cl, _)) in lanes.iter().enumerate() {
                match stored.get(j) {
                    Some(x) => {
                        self.b.ins().store(flags, x[k], addr, off);
                    }
                    None => loaded.push(self.b.ins().load(cl, flags, addr, off)),
                }
                off += widths[k] as i32;
            }
            per.push(loaded);
        }
        Ok(Some(value.is_none().then_some(per)))
    }
}
