//! The JIT's on-disk cache: native code of compiled kernels kept between processes, so a second
//! process does not run Cranelift's compiler again.
//!
//! One file per kernel, named by a key over the module's text, the kernel's index, oxcl's
//! version, the exec crate's build id (a hash of its sources, `Cargo.lock` and the compiler,
//! from `build.rs`), Cranelift's version and the target ISA with its flags. The file holds, for
//! every function defined in the kernel's Cranelift module, its machine code, alignment and
//! relocations, the targets of which are recorded by symbol name (runtime helpers, other kir
//! functions, wrappers) or by Cranelift libcall, and resolved against the current process when
//! loaded.
//!
//! The kir → Cranelift IR translation still runs on a warm start (it also yields the barrier
//! sites and spill sizes the engine needs); only Cranelift's compilation is skipped. Each
//! function's cached code is found by a hash of its Cranelift IR (the function stencil plus the
//! names of the functions it references), so code is reused only for exactly the IR it was
//! compiled from, whatever the file key missed. The loaded code is placed in the same
//! `JITModule` as freshly compiled code (`define_function_bytes`), which maps it executable and
//! applies the relocations, so the engine gets the same function pointers either way.
//!
//! Files have a magic, a format version, the key and a checksum of the payload: unreadable,
//! truncated, corrupt or foreign files are ignored (the kernel is compiled and the file
//! rewritten). Writers write a temporary file and rename it over the final name, so concurrent
//! processes never see a partial file.
//!
//! Location: `OXCL_CACHE_DIR`, else `$XDG_CACHE_HOME/oxcl`, else `$HOME/.cache/oxcl`;
//! `OXCL_CACHE=0` disables the cache (see `DiskCache`). After each write the directory's cache
//! files are trimmed to 256 MiB, least recently written first.

use std::collections::HashMap;
use std::hash::{Hash, Hasher};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

use cranelift_codegen::binemit::Reloc;
use cranelift_codegen::control::ControlPlane;
use cranelift_codegen::ir::LibCall;
use cranelift_codegen::Context;
use cranelift_jit::JITModule;
use cranelift_module::{FuncId, FuncOrDataId, Module as _, ModuleReloc, ModuleRelocTarget};

/// File magic and format version (bump on any change of the layout below).
const MAGIC: &[u8; 8] = b"OXCLJIT\0";
const FORMAT: u32 = 1;

/// Where the JIT keeps compiled code between processes.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum DiskCache {
    /// Read the environment at each compilation: `OXCL_CACHE=0` disables the cache; the
    /// directory is `OXCL_CACHE_DIR`, else `$XDG_CACHE_HOME/oxcl`, else `$HOME/.cache/oxcl`.
    #[default]
    FromEnv,
    /// This directory.
    Dir(PathBuf),
    /// No on-disk cache.
    Off,
}

impl DiskCache {
    /// The cache directory, or `None` when the cache is off.
    pub fn dir(&self) -> Option<PathBuf> {
        match self {
            DiskCache::Off => None,
            DiskCache::Dir(d) => Some(d.clone()),
            DiskCache::FromEnv => {
                let var = |name: &str| std::env::var_os(name).filter(|v| !v.is_empty());
                if var("OXCL_CACHE").is_some_and(|v| v == "0") {
                    return None;
                }
                if let Some(d) = var("OXCL_CACHE_DIR") {
                    return Some(PathBuf::from(d));
                }
                if let Some(d) = var("XDG_CACHE_HOME") {
                    return Some(PathBuf::from(d).join("oxcl"));
                }
                var("HOME").map(|h| PathBuf::from(h).join(".cache").join("oxcl"))
            }
        }
    }
}

/// What the JIT's compilations did (counts since the engine was created).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct JitStats {
    /// Functions Cranelift compiled to machine code.
    pub functions_compiled: u64,
    /// Functions whose machine code came from the on-disk cache.
    pub functions_loaded: u64,
    /// Cache files written.
    pub files_written: u64,
    /// Cache files ignored as unreadable, truncated, corrupt or written for another key.
    pub files_rejected: u64,
}

/// Thread-safe counters behind `JitStats`.
#[derive(Debug, Default)]
pub(super) struct Counters {
    functions_compiled: AtomicU64,
    functions_loaded: AtomicU64,
    files_written: AtomicU64,
    files_rejected: AtomicU64,
}

impl Counters {
    pub(super) fn stats(&self) -> JitStats {
        JitStats {
            functions_compiled: self.functions_compiled.load(Ordering::Relaxed),
            functions_loaded: self.functions_loaded.load(Ordering::Relaxed),
            files_written: self.files_written.load(Ordering::Relaxed),
            files_rejected: self.files_rejected.load(Ordering::Relaxed),
        }
    }

    fn add(&self, store: &CodeStore) {
        self.functions_compiled
            .fetch_add(store.compiled, Ordering::Relaxed);
        self.functions_loaded
            .fetch_add(store.loaded, Ordering::Relaxed);
        self.files_written
            .fetch_add(u64::from(store.written), Ordering::Relaxed);
        self.files_rejected
            .fetch_add(u64::from(store.rejected), Ordering::Relaxed);
    }
}

/// A 128-bit hash: two SipHash states fed the same bytes after different prefixes.
struct Hash128(
    std::collections::hash_map::DefaultHasher,
    std::collections::hash_map::DefaultHasher,
);

impl Hash128 {
    fn new() -> Hash128 {
        let mut a = std::collections::hash_map::DefaultHasher::new();
        let mut b = std::collections::hash_map::DefaultHasher::new();
        a.write_u8(0xa5);
        b.write_u8(0x5a);
        Hash128(a, b)
    }

    fn finish128(&self) -> [u64; 2] {
        [self.0.finish(), self.1.finish()]
    }
}

impl Hasher for Hash128 {
    fn write(&mut self, bytes: &[u8]) {
        self.0.write(bytes);
        self.1.write(bytes);
    }

    fn finish(&self) -> u64 {
        self.0.finish()
    }
}

fn hash128(bytes: &[u8]) -> [u64; 2] {
    let mut h = Hash128::new();
    h.write(bytes);
    h.finish128()
}

/// Relocation kinds the cache stores (others make a kernel uncacheable), with the bytes each
/// patches.
const RELOC_KINDS: [(Reloc, u32); 12] = [
    (Reloc::Abs4, 4),
    (Reloc::Abs8, 8),
    (Reloc::X86PCRel4, 4),
    (Reloc::X86CallPCRel4, 4),
    (Reloc::X86CallPLTRel4, 4),
    (Reloc::X86GOTPCRel4, 4),
    (Reloc::Arm64Call, 4),
    (Reloc::Aarch64AdrGotPage21, 4),
    (Reloc::Aarch64AdrPrelPgHi21, 4),
    (Reloc::Aarch64AddAbsLo12Nc, 4),
    (Reloc::Aarch64Ld64GotLo12Nc, 4),
    (Reloc::RiscvCallPlt, 8),
];

/// What a stored relocation refers to.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Target {
    /// A function of the module, by its symbol name.
    Func(String),
    /// A Cranelift libcall, by its index in `LibCall::all_libcalls`.
    LibCall(u16),
    /// An offset in a function of the module, by its symbol name.
    FuncOffset(String, u32),
}

#[derive(Clone, Debug, PartialEq, Eq)]
struct StoredReloc {
    offset: u32,
    kind: u8,
    target: Target,
    addend: i64,
}

/// One function's machine code.
#[derive(Clone, Debug, PartialEq, Eq)]
struct CachedFn {
    align: u64,
    code: Vec<u8>,
    relocs: Vec<StoredReloc>,
}

/// A file's functions by the hash of their IR.
type FileFunctions = HashMap<[u64; 2], CachedFn>;

/// The cache seen by one kernel compilation: looks up each function Cranelift would compile
/// and records every function defined, to be saved when the kernel compiled.
pub(super) struct CodeStore {
    /// Cache directory and the key of the module, kernel and build (no directory: off).
    base: Option<(PathBuf, [u64; 2])>,
    /// The file, its key (base + ISA) and its functions, read at the first definition.
    file: Option<(PathBuf, [u64; 2], FileFunctions)>,
    /// Every function defined, by IR hash, in definition order.
    defined: Vec<([u64; 2], CachedFn)>,
    /// Some function could not be recorded (an unknown relocation kind or target).
    uncacheable: bool,
    compiled: u64,
    loaded: u64,
    written: bool,
    rejected: bool,
}

impl CodeStore {
    /// A store for kernel `kernel` of `module` in `dir` (`None`: compile everything, save
    /// nothing).
    pub(super) fn new(dir: Option<PathBuf>, module: &kir::Module, kernel: usize) -> CodeStore {
        let base = dir.map(|dir| {
            let mut h = Hash128::new();
            module.to_string().hash(&mut h);
            kernel.hash(&mut h);
            env!("CARGO_PKG_VERSION").hash(&mut h);
            env!("OXCL_EXEC_BUILD_ID").hash(&mut h);
            cranelift_codegen::VERSION.hash(&mut h);
            (dir, h.finish128())
        });
        CodeStore {
            base,
            file: None,
            defined: Vec::new(),
            uncacheable: false,
            compiled: 0,
            loaded: 0,
            written: false,
            rejected: false,
        }
    }

    /// Reads the kernel's file (once), keyed also by the target ISA.
    fn open(&mut self, jm: &JITModule) {
        if self.file.is_some() {
            return;
        }
        let Some((dir, base)) = &self.base else {
            return;
        };
        let isa = jm.isa();
        let mut h = Hash128::new();
        base.hash(&mut h);
        isa.triple().to_string().hash(&mut h);
        isa.flags().to_string().hash(&mut h);
        for flag in isa.isa_flags() {
            flag.to_string().hash(&mut h);
        }
        let key = h.finish128();
        let path = dir.join(format!("{:016x}{:016x}.oxjit", key[0], key[1]));
        let functions = match std::fs::read(&path) {
            Ok(bytes) => decode(&bytes, key).unwrap_or_else(|| {
                self.rejected = true;
                HashMap::new()
            }),
            Err(_) => HashMap::new(),
        };
        self.file = Some((path, key, functions));
    }

    /// The key of the function in `cctx`: its IR and the names of the functions it references.
    fn function_key(jm: &JITModule, cctx: &Context) -> [u64; 2] {
        let mut h = Hash128::new();
        cctx.func.stencil.hash(&mut h);
        for (_, name) in cctx.func.params.user_named_funcs().iter() {
            name.namespace.hash(&mut h);
            func_name(jm, name.index).hash(&mut h);
        }
        h.finish128()
    }

    /// Defines function `id` of `jm` from the IR in `cctx`: with the cached machine code when
    /// the cache has code for exactly this IR, else compiled by Cranelift.
    pub(super) fn define(
        &mut self,
        jm: &mut JITModule,
        id: FuncId,
        cctx: &mut Context,
    ) -> Result<(), String> {
        self.open(jm);
        let key = self
            .base
            .is_some()
            .then(|| CodeStore::function_key(jm, cctx));
        if let Some(hit) = key.and_then(|k| self.file.as_ref()?.2.get(&k)) {
            if let Some(relocs) = resolve(jm, &hit.relocs) {
                let hit = hit.clone();
                jm.define_function_bytes(id, hit.align, &hit.code, &relocs)
                    .map_err(|e| e.to_string())?;
                self.loaded += 1;
                if let Some(k) = key {
                    self.defined.push((k, hit));
                }
                return Ok(());
            }
        }
        // `OXCL_JIT_DUMP=1`: print each compiled function's optimised IR and machine code.
        let dump = std::env::var_os("OXCL_JIT_DUMP").is_some_and(|v| v != "0");
        cctx.set_disasm(dump);
        let alignment = cctx
            .compile(jm.isa(), &mut ControlPlane::default())
            .map_err(|e| format!("{:?}", e.inner))?
            .buffer
            .alignment;
        self.compiled += 1;
        let code = cctx.compiled_code().ok_or("Cranelift returned no code")?;
        if dump {
            eprintln!(
                "== {}\n{}\n{}",
                jm.declarations()
                    .get_function_decl(id)
                    .name
                    .as_deref()
                    .unwrap_or("?"),
                cctx.func.display(),
                code.vcode.as_deref().unwrap_or("")
            );
        }
        let relocs: Vec<ModuleReloc> = code
            .buffer
            .relocs()
            .iter()
            .map(|r| ModuleReloc::from_mach_reloc(r, &cctx.func, id))
            .collect();
        let bytes = code.code_buffer();
        jm.define_function_bytes(id, u64::from(alignment), bytes, &relocs)
            .map_err(|e| e.to_string())?;
        if let Some(k) = key {
            match record(jm, &relocs) {
                Some(relocs) => self.defined.push((
                    k,
                    CachedFn {
                        align: u64::from(alignment),
                        code: bytes.to_vec(),
                        relocs,
                    },
                )),
                None => self.uncacheable = true,
            }
        }
        Ok(())
    }

    /// After a successful compilation: writes the file when anything was compiled, then adds
    /// this compilation's counts to `counters`.
    pub(super) fn finish(mut self, counters: &Counters) {
        if self.compiled > 0 && !self.uncacheable {
            if let Some((path, key, _)) = &self.file {
                self.written = write_atomically(path, &encode(*key, &self.defined)).is_ok();
                if self.written {
                    trim(path.parent().unwrap_or(Path::new(".")), MAX_CACHE_BYTES);
                }
            }
        }
        counters.add(&self);
    }

    /// After a failed compilation: only counts.
    pub(super) fn abandon(self, counters: &Counters) {
        counters.add(&self);
    }
}

/// The symbol name of function `index` of `jm`.
fn func_name(jm: &JITModule, index: u32) -> Option<String> {
    jm.declarations()
        .get_functions()
        .find(|(id, _)| id.as_u32() == index)
        .and_then(|(_, decl)| decl.name.clone())
}

/// Relocations in storable form (`None`: one cannot be stored).
fn record(jm: &JITModule, relocs: &[ModuleReloc]) -> Option<Vec<StoredReloc>> {
    relocs
        .iter()
        .map(|r| {
            let kind = RELOC_KINDS.iter().position(|k| k.0 == r.kind)?;
            let target = match &r.name {
                ModuleRelocTarget::User {
                    namespace: 0,
                    index,
                } => Target::Func(func_name(jm, *index)?),
                ModuleRelocTarget::LibCall(lc) => {
                    let i = LibCall::all_libcalls().iter().position(|l| l == lc)?;
                    Target::LibCall(u16::try_from(i).ok()?)
                }
                ModuleRelocTarget::FunctionOffset(f, off) => {
                    Target::FuncOffset(func_name(jm, f.as_u32())?, *off)
                }
                _ => return None,
            };
            Some(StoredReloc {
                offset: r.offset,
                kind: u8::try_from(kind).ok()?,
                target,
                addend: r.addend,
            })
        })
        .collect()
}

/// Stored relocations against the functions of `jm` (`None`: a target is not declared).
fn resolve(jm: &JITModule, relocs: &[StoredReloc]) -> Option<Vec<ModuleReloc>> {
    let func = |name: &str| match jm.get_name(name)? {
        FuncOrDataId::Func(id) => Some(id),
        FuncOrDataId::Data(_) => None,
    };
    relocs
        .iter()
        .map(|r| {
            let name = match &r.target {
                Target::Func(n) => ModuleRelocTarget::user(0, func(n)?.as_u32()),
                Target::LibCall(i) => {
                    ModuleRelocTarget::LibCall(*LibCall::all_libcalls().get(usize::from(*i))?)
                }
                Target::FuncOffset(n, off) => ModuleRelocTarget::FunctionOffset(func(n)?, *off),
            };
            Some(ModuleReloc {
                offset: r.offset,
                kind: RELOC_KINDS.get(usize::from(r.kind))?.0,
                name,
                addend: r.addend,
            })
        })
        .collect()
}

/// The file: magic, format, key, payload length, payload checksum, payload.
fn encode(key: [u64; 2], functions: &[([u64; 2], CachedFn)]) -> Vec<u8> {
    let mut p = Vec::new();
    put_u32(&mut p, functions.len() as u32);
    for (k, f) in functions {
        put_u64(&mut p, k[0]);
        put_u64(&mut p, k[1]);
        put_u64(&mut p, f.align);
        put_bytes(&mut p, &f.code);
        put_u32(&mut p, f.relocs.len() as u32);
        for r in &f.relocs {
            put_u32(&mut p, r.offset);
            p.push(r.kind);
            match &r.target {
                Target::Func(n) => {
                    p.push(0);
                    put_bytes(&mut p, n.as_bytes());
                }
                Target::LibCall(i) => {
                    p.push(1);
                    put_u32(&mut p, u32::from(*i));
                }
                Target::FuncOffset(n, off) => {
                    p.push(2);
                    put_bytes(&mut p, n.as_bytes());
                    put_u32(&mut p, *off);
                }
            }
            put_u64(&mut p, r.addend as u64);
        }
    }
    let mut out = Vec::with_capacity(p.len() + 56);
    out.extend_from_slice(MAGIC);
    put_u32(&mut out, FORMAT);
    put_u64(&mut out, key[0]);
    put_u64(&mut out, key[1]);
    put_u64(&mut out, p.len() as u64);
    let sum = hash128(&p);
    put_u64(&mut out, sum[0]);
    put_u64(&mut out, sum[1]);
    out.extend_from_slice(&p);
    out
}

/// The functions of a file written for `key` (`None`: not such a file, or damaged).
fn decode(bytes: &[u8], key: [u64; 2]) -> Option<FileFunctions> {
    let mut r = Reader { bytes, pos: 0 };
    if r.take(MAGIC.len())? != MAGIC || r.u32()? != FORMAT {
        return None;
    }
    if [r.u64()?, r.u64()?] != key {
        return None;
    }
    let len = usize::try_from(r.u64()?).ok()?;
    let sum = [r.u64()?, r.u64()?];
    let payload = r.take(len)?;
    if r.pos != bytes.len() || hash128(payload) != sum {
        return None;
    }
    let mut r = Reader {
        bytes: payload,
        pos: 0,
    };
    let mut functions = HashMap::new();
    for _ in 0..r.u32()? {
        let k = [r.u64()?, r.u64()?];
        let align = r.u64()?;
        let code = r.bytes()?.to_vec();
        let mut relocs = Vec::new();
        for _ in 0..r.u32()? {
            let offset = r.u32()?;
            let kind = r.u8()?;
            let target = match r.u8()? {
                0 => Target::Func(r.string()?),
                1 => Target::LibCall(u16::try_from(r.u32()?).ok()?),
                2 => Target::FuncOffset(r.string()?, r.u32()?),
                _ => return None,
            };
            let addend = r.u64()? as i64;
            // Every relocation must patch bytes inside the code.
            let (_, size) = RELOC_KINDS.get(usize::from(kind))?;
            if u64::from(offset) + u64::from(*size) > code.len() as u64 {
                return None;
            }
            relocs.push(StoredReloc {
                offset,
                kind,
                target,
                addend,
            });
        }
        if !align.is_power_of_two() {
            return None;
        }
        functions.insert(
            k,
            CachedFn {
                align,
                code,
                relocs,
            },
        );
    }
    (r.pos == payload.len()).then_some(functions)
}

fn put_u32(out: &mut Vec<u8>, v: u32) {
    out.extend_from_slice(&v.to_le_bytes());
}

fn put_u64(out: &mut Vec<u8>, v: u64) {
    out.extend_from_slice(&v.to_le_bytes());
}

fn put_bytes(out: &mut Vec<u8>, b: &[u8]) {
    put_u32(out, b.len() as u32);
    out.extend_from_slice(b);
}

/// Bounds-checked reading of a file's fields.
struct Reader<'a> {
    bytes: &'a [u8],
    pos: usize,
}

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize) -> Option<&'a [u8]> {
        let end = self.pos.checked_add(n)?;
        let s = self.bytes.get(self.pos..end)?;
        self.pos = end;
        Some(s)
    }

    fn u8(&mut self) -> Option<u8> {
        Some(self.take(1)?[0])
    }

    fn u32(&mut self) -> Option<u32> {
        Some(u32::from_le_bytes(self.take(4)?.try_into().ok()?))
    }

    fn u64(&mut self) -> Option<u64> {
        Some(u64::from_le_bytes(self.take(8)?.try_into().ok()?))
    }

    fn bytes(&mut self) -> Option<&'a [u8]> {
        let n = usize::try_from(self.u32()?).ok()?;
        self.take(n)
    }

    fn string(&mut self) -> Option<String> {
        String::from_utf8(self.bytes()?.to_vec()).ok()
    }
}

/// The size the cache directory is trimmed to after each write.
const MAX_CACHE_BYTES: u64 = 256 << 20;

/// Temporary files older than this are left over by a writer that died (removed by `trim`).
const STALE_TEMP: std::time::Duration = std::time::Duration::from_secs(3600);

/// Removes the least recently written cache files of `dir` until they take at most `limit`
/// bytes, and temporary files left by writers that died. Best effort: errors are ignored.
fn trim(dir: &Path, limit: u64) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let now = std::time::SystemTime::now();
    let mut files = Vec::new();
    let mut total = 0u64;
    for entry in entries.flatten() {
        let path = entry.path();
        let Ok(meta) = entry.metadata() else { continue };
        let modified = meta.modified().unwrap_or(now);
        let name = entry.file_name();
        let name = name.to_string_lossy();
        if name.starts_with('.') && name.ends_with(".tmp") {
            if now.duration_since(modified).unwrap_or_default() > STALE_TEMP {
                let _ = std::fs::remove_file(&path);
            }
        } else if name.ends_with(".oxjit") && meta.is_file() {
            total += meta.len();
            files.push((modified, meta.len(), path));
        }
    }
    if total <= limit {
        return;
    }
    files.sort();
    for (_, len, path) in files {
        if total <= limit {
            break;
        }
        if std::fs::remove_file(&path).is_ok() {
            total -= len;
        }
    }
}

/// Writes `bytes` to a temporary file beside `path`, then renames it to `path` (readers see the
/// old file or the whole new one).
fn write_atomically(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    static SEQ: AtomicU64 = AtomicU64::new(0);
    let dir = path.parent().unwrap_or(Path::new("."));
    std::fs::create_dir_all(dir)?;
    let name = path.file_name().unwrap_or_default().to_string_lossy();
    let tmp = dir.join(format!(
        ".{name}.{}.{}.tmp",
        std::process::id(),
        SEQ.fetch_add(1, Ordering::Relaxed)
    ));
    let result = std::fs::write(&tmp, bytes).and_then(|()| std::fs::rename(&tmp, path));
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    result
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Vec<([u64; 2], CachedFn)> {
        vec![(
            [1, 2],
            CachedFn {
                align: 16,
                code: vec![0x90; 32],
                relocs: vec![
                    StoredReloc {
                        offset: 4,
                        kind: 1,
                        target: Target::Func("jit_fault".into()),
                        addend: -4,
                    },
                    StoredReloc {
                        offset: 12,
                        kind: 3,
                        target: Target::LibCall(2),
                        addend: 0,
                    },
                    StoredReloc {
                        offset: 20,
                        kind: 2,
                        target: Target::FuncOffset("kir_fn0".into(), 8),
                        addend: 0,
                    },
                ],
            },
        )]
    }

    #[test]
    fn a_file_reads_back_as_written() {
        let bytes = encode([7, 9], &sample());
        let back = decode(&bytes, [7, 9]).expect("decodes");
        assert_eq!(back.len(), 1);
        assert_eq!(back.get(&[1, 2]), Some(&sample()[0].1));
    }

    #[test]
    fn damaged_or_foreign_files_are_rejected() {
        let bytes = encode([7, 9], &sample());
        assert!(decode(&bytes, [7, 10]).is_none(), "another key");
        for cut in [0, 5, 20, 60, bytes.len() - 1] {
            assert!(
                decode(&bytes[..cut], [7, 9]).is_none(),
                "truncated at {cut}"
            );
        }
        for at in (0..bytes.len()).step_by(7) {
            let mut bad = bytes.clone();
            bad[at] ^= 0x40;
            assert!(decode(&bad, [7, 9]).is_none(), "byte {at} flipped");
        }
        let mut longer = bytes.clone();
        longer.push(0);
        assert!(decode(&longer, [7, 9]).is_none(), "trailing bytes");
        // A well-formed file whose relocation would patch bytes past the code.
        let mut past_end = sample();
        past_end[0].1.relocs[0].offset = 28;
        assert!(decode(&encode([7, 9], &past_end), [7, 9]).is_none());
    }

    #[test]
    fn trimming_removes_the_oldest_files_first() {
        let dir = std::env::temp_dir().join(format!("oxcl-trim-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("dir");
        let old = std::time::SystemTime::now() - std::time::Duration::from_secs(100);
        for (name, age) in [("a.oxjit", 10), ("b.oxjit", 20), ("c.oxjit", 30)] {
            let path = dir.join(name);
            std::fs::write(&path, [0u8; 100]).expect("write");
            let file = std::fs::File::options()
                .write(true)
                .open(&path)
                .expect("open");
            file.set_modified(old + std::time::Duration::from_secs(age))
                .expect("mtime");
        }
        std::fs::write(dir.join("other.txt"), [0u8; 1000]).expect("write");
        trim(&dir, 250);
        let mut left: Vec<String> = std::fs::read_dir(&dir)
            .expect("read")
            .flatten()
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .collect();
        left.sort();
        assert_eq!(left, ["b.oxjit", "c.oxjit", "other.txt"]);
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn the_environment_chooses_the_directory() {
        assert_eq!(DiskCache::Off.dir(), None);
        let d = PathBuf::from("/x/y");
        assert_eq!(DiskCache::Dir(d.clone()).dir(), Some(d));
    }
}
