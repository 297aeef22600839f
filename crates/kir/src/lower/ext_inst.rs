//! `OpExtInst` of the OpenCL.std set (SPIR-V OpenCL extended instruction set, version 100):
//! most instructions become `builtin` calls to the device library; the vector load/store family
//! becomes loads, stores and conversions (OpenCL C 6.15.11); `mad`, `select` and the
//! `shuffle` family become plain kir instructions; `prefetch` does nothing; `printf` is a
//! `builtin` whose first argument points to the format string (in `constant` memory).

use spv::{Instruction, OpenClStd};

use super::function::FnLower;
use super::layout::TypeKind;
use super::{InstExt, LowerError};
use crate::{BinaryOp, BuiltinFn, CmpOp, ConvertOp, InstData, Rounding, ScalarType, Type, Value};

impl FnLower<'_, '_> {
    pub(crate) fn lower_ext_inst(&mut self, inst: &Instruction) -> Result<(), LowerError> {
        let set = inst.id_op(0)?;
        // Debug information has no effect on execution.
        if self.m.info.is_debug_ext_inst(inst) {
            return Ok(());
        }
        if !self.m.info.opencl_std.contains(&set) {
            let name = self.m.info.other_ext.get(&set).cloned().unwrap_or_default();
            return Err(inst.unsupported(&format!("extended instruction set \"{name}\"")));
        }
        let number = inst.lit(1)?;
        let ext = OpenClStd::from_u32(number)
            .ok_or_else(|| inst.malformed("unknown OpenCL.std instruction"))?;
        let arg = |k: usize| inst.id_op(2 + k);
        match ext {
            // OpenCL C 6.15.2: mad may compute a * b + c with any accuracy; multiply then add.
            OpenClStd::Mad => {
                let a = self.value(arg(0)?, inst)?;
                let b = self.value(arg(1)?, inst)?;
                let c = self.value(arg(2)?, inst)?;
                let ty = self.m.value_type(inst.rty()?, inst)?;
                let p = self.emit(
                    InstData::Binary {
                        op: BinaryOp::FMul,
                        a,
                        b,
                    },
                    ty,
                );
                let v = self.emit(
                    InstData::Binary {
                        op: BinaryOp::FAdd,
                        a: p,
                        b: c,
                    },
                    ty,
                );
                self.vals.insert(inst.res()?, v);
                Ok(())
            }
            // OpenCL C 6.15.6 select(a, b, c): b where c (scalar) is nonzero or the MSB of the
            // component of c (vector) is set, else a.
            OpenClStd::Select => {
                let a = self.value(arg(0)?, inst)?;
                let b = self.value(arg(1)?, inst)?;
                let c = self.value(arg(2)?, inst)?;
                let ty = self.m.value_type(inst.rty()?, inst)?;
                let cty = self.func.dfg.value_type(c);
                let zero = self.zero(cty);
                let (op, cond_ty) = match cty {
                    Type::Vec(_, n) => (CmpOp::SLt, Type::Vec(ScalarType::Bool, n)),
                    _ => (CmpOp::INe, Type::Bool),
                };
                let cond = self.emit(InstData::Cmp { op, a: c, b: zero }, cond_ty);
                let v = self.emit(InstData::Select { cond, a: b, b: a }, ty);
                self.vals.insert(inst.res()?, v);
                Ok(())
            }
            OpenClStd::Prefetch => Ok(()),
            OpenClStd::Shuffle | OpenClStd::Shuffle2 => self.lower_shuffle(inst, ext),
            OpenClStd::Vloadn => {
                // vloadn(offset, p, n): p + offset * n elements.
                let ty = self.m.value_type(inst.rty()?, inst)?;
                let lane = ty.lane_type().unwrap_or(ScalarType::I8);
                let n = u64::from(inst.lit(4)?);
                let offset = self.value(arg(0)?, inst)?;
                let p = self.value(arg(1)?, inst)?;
                let addr = self.scaled_address(p, offset, n * u64::from(lane.bytes()));
                let v = self.emit(
                    InstData::Load {
                        ptr: addr,
                        align: lane.bytes(),
                    },
                    ty,
                );
                self.vals.insert(inst.res()?, v);
                Ok(())
            }
            OpenClStd::Vstoren => {
                // vstoren(data, offset, p).
                let data = self.value(arg(0)?, inst)?;
                let ty = self.func.dfg.value_type(data);
                let lane = ty.lane_type().unwrap_or(ScalarType::I8);
                let offset = self.value(arg(1)?, inst)?;
                let p = self.value(arg(2)?, inst)?;
                let addr =
                    self.scaled_address(p, offset, u64::from(ty.lanes()) * u64::from(lane.bytes()));
                self.emit_void(InstData::Store {
                    ptr: addr,
                    value: data,
                    align: lane.bytes(),
                });
                Ok(())
            }
            OpenClStd::VloadHalf | OpenClStd::VloadHalfn | OpenClStd::VloadaHalfn => {
                let ty = self.m.value_type(inst.rty()?, inst)?;
                let n = ty.lanes();
                let offset = self.value(arg(0)?, inst)?;
                let p = self.value(arg(1)?, inst)?;
                // vloada_half3 steps over 4 halves (OpenCL C 6.15.11).
                let step = if ext == OpenClStd::VloadaHalfn && n == 3 {
                    4
                } else {
                    n
                };
                let align = if ext == OpenClStd::VloadaHalfn {
                    Type::vector(ScalarType::F16, n as u8).size(self.m.address_bits)
                } else {
                    2
                };
                let addr = self.scaled_address(p, offset, u64::from(step) * 2);
                let half_ty = Type::vector(ScalarType::F16, n as u8);
                let h = self.emit(InstData::Load { ptr: addr, align }, half_ty);
                let v = self.emit(
                    InstData::Convert {
                        op: ConvertOp::FConvert,
                        arg: h,
                        rounding: None,
                        saturate: false,
                    },
                    ty,
                );
                self.vals.insert(inst.res()?, v);
                Ok(())
            }
            OpenClStd::VstoreHalf
            | OpenClStd::VstoreHalfR
            | OpenClStd::VstoreHalfn
            | OpenClStd::VstoreHalfnR
            | OpenClStd::VstoreaHalfn
            | OpenClStd::VstoreaHalfnR => {
                let data = self.value(arg(0)?, inst)?;
                let ty = self.func.dfg.value_type(data);
                let n = ty.lanes();
                let offset = self.value(arg(1)?, inst)?;
                let p = self.value(arg(2)?, inst)?;
                let with_mode = matches!(
                    ext,
                    OpenClStd::VstoreHalfR | OpenClStd::VstoreHalfnR | OpenClStd::VstoreaHalfnR
                );
                // The default rounding of vstore_half is round to nearest even.
                let rounding = if with_mode {
                    match inst.lit(5)? {
                        0 => Rounding::Rte,
                        1 => Rounding::Rtz,
                        2 => Rounding::Rtp,
                        3 => Rounding::Rtn,
                        _ => return Err(inst.malformed("unknown rounding mode")),
                    }
                } else {
                    Rounding::Rte
                };
                let aligned = matches!(ext, OpenClStd::VstoreaHalfn | OpenClStd::VstoreaHalfnR);
                let step = if aligned && n == 3 { 4 } else { n };
                let half_ty = Type::vector(ScalarType::F16, n as u8);
                let align = if aligned {
                    half_ty.size(self.m.address_bits)
                } else {
                    2
                };
                let addr = self.scaled_address(p, offset, u64::from(step) * 2);
                let h = self.emit(
                    InstData::Convert {
                        op: ConvertOp::FConvert,
                        arg: data,
                        rounding: Some(rounding),
                        saturate: false,
                    },
                    half_ty,
                );
                self.emit_void(InstData::Store {
                    ptr: addr,
                    value: h,
                    align,
                });
                Ok(())
            }
            _ => {
                let func = BuiltinFn::from_opcode(number)
                    .ok_or_else(|| inst.unsupported("this OpenCL.std instruction"))?;
                let mut args = Vec::new();
                for k in 2..inst.operands.len() {
                    match inst.id(k) {
                        Some(id) => args.push(self.value(id.0, inst)?),
                        None => {
                            return Err(inst.unsupported("literal operands of this instruction"))
                        }
                    }
                }
                let rty = inst.rty()?;
                let data = InstData::Builtin { func, args };
                if matches!(
                    self.m.info.types.get(rty).map(|t| &t.kind),
                    Some(TypeKind::Void)
                ) {
                    self.emit_void(data);
                } else {
                    let ty = self.m.value_type(rty, inst)?;
                    let v = self.emit(data, ty);
                    self.vals.insert(inst.res()?, v);
                }
                Ok(())
            }
        }
    }

    /// OpenCL C 6.15.12 shuffle(x, mask) / shuffle2(x, y, mask): lane i of the result is lane
    /// `mask[i] mod n` of x (shuffle2: of x ++ y, modulo 2n); only the low bits of the mask
    /// components count.
    fn lower_shuffle(&mut self, inst: &Instruction, ext: OpenClStd) -> Result<(), LowerError> {
        let x = self.value(inst.id_op(2)?, inst)?;
        let (y, mask) = if ext == OpenClStd::Shuffle2 {
            (
                Some(self.value(inst.id_op(3)?, inst)?),
                self.value(inst.id_op(4)?, inst)?,
            )
        } else {
            (None, self.value(inst.id_op(3)?, inst)?)
        };
        let ty = self.m.value_type(inst.rty()?, inst)?;
        let lane_ty = Type::scalar(ty.lane_type().unwrap_or(ScalarType::I32));
        let mask_ty = self.func.dfg.value_type(mask);
        let mask_lane = Type::scalar(mask_ty.lane_type().unwrap_or(ScalarType::I32));
        let n = u64::from(self.func.dfg.value_type(x).lanes());
        let total = if y.is_some() { 2 * n } else { n };
        let low_bits = self.int_const(mask_lane, total.next_power_of_two() - 1);
        let n_const = self.int_const(mask_lane, n);
        let mut acc = self.zero(ty);
        for lane in 0..ty.lanes() {
            let m = self.emit(
                InstData::ExtractLane {
                    vec: mask,
                    lane: lane as u8,
                },
                mask_lane,
            );
            let idx = self.emit(
                InstData::Binary {
                    op: BinaryOp::And,
                    a: m,
                    b: low_bits,
                },
                mask_lane,
            );
            let from_x = self.emit(InstData::ExtractLaneDyn { vec: x, index: idx }, lane_ty);
            let value = match y {
                None => from_x,
                Some(y) => {
                    let idx_y = self.emit(
                        InstData::Binary {
                            op: BinaryOp::ISub,
                            a: idx,
                            b: n_const,
                        },
                        mask_lane,
                    );
                    let from_y = self.emit(
                        InstData::ExtractLaneDyn {
                            vec: y,
                            index: idx_y,
                        },
                        lane_ty,
                    );
                    let in_x = self.emit(
                        InstData::Cmp {
                            op: CmpOp::ULt,
                            a: idx,
                            b: n_const,
                        },
                        Type::Bool,
                    );
                    self.emit(
                        InstData::Select {
                            cond: in_x,
                            a: from_x,
                            b: from_y,
                        },
                        lane_ty,
                    )
                }
            };
            acc = self.emit(
                InstData::InsertLane {
                    vec: acc,
                    lane: lane as u8,
                    value,
                },
                ty,
            );
        }
        self.vals.insert(inst.res()?, acc);
        Ok(())
    }

    /// `p + offset * scale` bytes, `offset` a size_t-like integer.
    fn scaled_address(&mut self, p: Value, offset: Value, scale: u64) -> Value {
        let pty = self.ptr_int();
        let oty = self.func.dfg.value_type(offset);
        let offset = if oty == pty {
            offset
        } else {
            self.emit(
                InstData::Convert {
                    op: ConvertOp::UConvert,
                    arg: offset,
                    rounding: None,
                    saturate: false,
                },
                pty,
            )
        };
        let s = self.int_const(pty, scale);
        let bytes = self.emit(
            InstData::Binary {
                op: BinaryOp::IMul,
                a: offset,
                b: s,
            },
            pty,
        );
        if self.int_consts.get(&bytes) == Some(&0) {
            return p;
        }
        let ptr_ty = self.func.dfg.value_type(p);
        self.emit(
            InstData::PtrAdd {
                ptr: p,
                offset: bytes,
            },
            ptr_ty,
        )
    }
}
