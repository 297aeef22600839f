//! Phase loops specialised to one resume point. The generic phase loops (`kir_phase`,
//! `kir_phase_vec`) enter every iteration through a dispatch on `resume` and hold the code of
//! every phase in one function, so the register allocator keeps the values of all phases
//! (parameters, region-table entries, row ids) alive across the whole loop and spills most of
//! them to the stack. A specialised copy is compiled per resume point (the kernel's start and
//! after each barrier): its loop body jumps straight to that point, Cranelift drops the code
//! no iteration reaches (the other phases), and only the values of that phase remain. The
//! group driver (`jit::phase`) calls the copy for the phase's resume value. The copy entering
//! at the kernel's start, translated first, gives every barrier its site (it translates the
//! whole kernel before its other phases are dropped); the later copies report the same sites,
//! so a row can mix the scalar and vectorised copies freely and the generic loops are not
//! compiled at all.

use super::*;

/// Where a specialised phase loop enters the kernel.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum PhaseEntry {
    /// The kernel's start (`resume` 0).
    Start,
    /// After this barrier (`resume` = its site + 1).
    After(kir::Inst),
}

/// The most barriers a kernel may have for its phase loops to be specialised (one copy per
/// resume point: compile time grows with their number).
const MAX_BARRIERS: usize = 8;

/// The resume points to compile specialised phase loops for (none when disabled by
/// `OXCL_PHASE_SPECIALISE=0` or when the kernel has too many barriers).
pub(super) fn phase_entries(func: &Function) -> Vec<PhaseEntry> {
    if std::env::var("OXCL_PHASE_SPECIALISE").is_ok_and(|v| v == "0") {
        return Vec::new();
    }
    let mut barriers = Vec::new();
    for &b in &func.layout.blocks {
        for &i in func.layout.insts(b) {
            if crate::jit::barrier::is_group_barrier(func.dfg.inst(i)) {
                barriers.push(PhaseEntry::After(i));
            }
        }
    }
    if barriers.is_empty() || barriers.len() > MAX_BARRIERS {
        return Vec::new();
    }
    let mut entries = vec![PhaseEntry::Start];
    entries.extend(barriers);
    entries
}

/// The resume value of `entry`: the site the copy entering at the start gave its barrier (the
/// last barrier site of `inst`: that copy is translated after the resumable kernel function).
pub(super) fn resume_of(entry: PhaseEntry, sites: &[Site], func: usize) -> Option<u32> {
    match entry {
        PhaseEntry::Start => Some(0),
        PhaseEntry::After(inst) => sites
            .iter()
            .rposition(|s| s.func == func && s.inst == inst && matches!(s.kind, SiteKind::Barrier))
            .and_then(|s| u32::try_from(s + 1).ok()),
    }
}

impl Translator<'_, '_> {
    /// The resume point this phase loop is specialised to (`None`: the generic loop).
    fn phase_entry(&self) -> Option<PhaseEntry> {
        self.phase.as_ref().and_then(|p| p.entry)
    }

    /// The end of the loop body: enters the kernel at `entry_block` (`resume` 0) or goes to
    /// `dispatch` (the resume blocks); a specialised loop goes straight to its own.
    pub(super) fn phase_enter(
        &mut self,
        resume: ClValue,
        dispatch: cranelift_codegen::ir::Block,
        entry_block: cranelift_codegen::ir::Block,
        args: &[ClValue],
    ) {
        match self.phase_entry() {
            None => {
                self.b
                    .ins()
                    .brif(resume, dispatch, &[], entry_block, &bargs(args));
            }
            Some(PhaseEntry::Start) => {
                self.b.ins().jump(entry_block, &bargs(args));
            }
            Some(PhaseEntry::After(_)) => {
                self.b.ins().jump(dispatch, &[]);
            }
        }
    }

    /// The dispatch block's code (current block): jumps to the resume block of `resume`
    /// (`bad` for an unknown one); a specialised loop jumps to its own resume block.
    pub(super) fn phase_dispatch(
        &mut self,
        resume: ClValue,
        resumes: &[(u32, cranelift_codegen::ir::Block)],
        bad: cranelift_codegen::ir::Block,
    ) {
        let fixed = match self.phase_entry() {
            None => None,
            Some(PhaseEntry::Start) => Some(None),
            Some(PhaseEntry::After(inst)) => Some(
                resumes
                    .iter()
                    .find(|(site, _)| {
                        self.sites
                            .get(*site as usize)
                            .is_some_and(|s| s.inst == inst && s.func == self.func_index)
                    })
                    .map(|&(_, block)| block),
            ),
        };
        match fixed {
            None => {
                let mut sw = cranelift_frontend::Switch::new();
                for &(site, block) in resumes {
                    sw.set_entry(u128::from(site) + 1, block);
                }
                sw.emit(self.b, resume, bad);
            }
            Some(block) => {
                self.b.ins().jump(block.unwrap_or(bad), &[]);
            }
        }
    }

    /// The site of barrier `inst` in the scalar phase loop: a new one in the generic loop and
    /// in the copy entering at the start, that copy's in the others (all report the same stops).
    pub(super) fn phase_barrier_site(&mut self, inst: kir::Inst) -> Result<u32, Unsupported> {
        if matches!(self.phase_entry(), Some(PhaseEntry::After(_))) {
            let f = self.func_index;
            let site = self
                .sites
                .iter()
                .rposition(|s| s.func == f && s.inst == inst && matches!(s.kind, SiteKind::Barrier))
                .ok_or("specialised phase loop: a barrier without a site")?;
            return u32::try_from(site).map_err(|_| "too many sites".into());
        }
        self.sites.push(Site {
            func: self.func_index,
            inst,
            kind: SiteKind::Barrier,
        });
        u32::try_from(self.sites.len() - 1).map_err(|_| "too many sites".into())
    }
}

/// Drops the blocks of a specialised copy that its entry does not reach (the other phases)
/// before Cranelift compiles it, so that its verifier and passes see only the phase's code.
pub(super) fn drop_other_phases(cctx: &mut cranelift_codegen::Context) {
    let mut flags = settings::builder();
    // `compile` verifies what is left right after.
    if flags.set("enable_verifier", "false").is_err() {
        return;
    }
    let flags = settings::Flags::new(flags);
    cctx.flowgraph();
    // Only fails when verifying, which is off.
    let _ = cctx.eliminate_unreachable_code(&flags);
}

/// A compile pass's specialisation: the resume point of a copy and the function it defines.
pub(super) type PhaseCopy = Option<(PhaseEntry, FuncId)>;
