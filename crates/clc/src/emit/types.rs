//! Resolving written types (specifiers + declarators) to [`Type`], and [`Type`] to SPIR-V types
//! with the capabilities they need (env 3: Int8, Int16, Int64, Float16Buffer, Float64, Vector16).

use spv::{Capability, Id, StorageClass};

use super::Emitter;
use crate::ast::{AddrSpace, DeclSpec, Declarator, Derived, TypeName, TypeSpec};
use crate::sema::scope::Tag;
use crate::sema::{Record, Scalar, Symbol, Type};

/// Storage class of an address space (env 2.9 / SPIR-V mapping of OpenCL address spaces).
pub fn storage_class(space: AddrSpace) -> StorageClass {
    match space {
        AddrSpace::Private => StorageClass::Function,
        AddrSpace::Global => StorageClass::CrossWorkgroup,
        AddrSpace::Local => StorageClass::Workgroup,
        AddrSpace::Constant => StorageClass::UniformConstant,
        AddrSpace::Generic => StorageClass::Generic,
    }
}

impl<'a> Emitter<'a> {
    /// The address space of unqualified pointees: generic from OpenCL C 2.0 on (§6.5), else
    /// private.
    pub fn default_pointee_space(&self) -> AddrSpace {
        if self.opts.generic_address_space {
            AddrSpace::Generic
        } else {
            AddrSpace::Private
        }
    }

    /// The type named by declaration specifiers (without the declarator).
    pub fn base_type(&mut self, spec: &DeclSpec) -> Option<Type> {
        if spec.addr == Some(AddrSpace::Generic) && !self.opts.generic_address_space {
            // OpenCL C 2.0 §6.5.5; 3.0 needs `__opencl_c_generic_address_space`.
            let v = self.opts.cl_version;
            let msg = format!(
                "OpenCL C version {}.{} does not support the '__generic' type qualifier",
                v / 100,
                (v / 10) % 10
            );
            self.error(spec.span, msg);
            return None;
        }
        let t = self.base_type_no_pipe(spec)?;
        if !spec.pipe {
            // OpenCL C 2.0 §6.6: access qualifiers are for images (and pipes).
            if spec.quals.access.is_some() && !matches!(t, Type::Image(_)) {
                self.error(
                    spec.span,
                    "access qualifier can only be used for pipe and image type",
                );
                return None;
            }
            return Some(t);
        }
        // §6.13.16: pipes need OpenCL C 2.0 (or 3.0 with `__opencl_c_pipes`).
        if !self.pipes_allowed() {
            self.error(
                spec.span,
                "pipes are not supported by this OpenCL C version or device",
            );
            return None;
        }
        let write = match spec.quals.access {
            None | Some(crate::ast::ImageAccess::ReadOnly) => false,
            Some(crate::ast::ImageAccess::WriteOnly) => true,
            Some(crate::ast::ImageAccess::ReadWrite) => {
                // §6.6: read_write is for images only.
                let msg = format!(
                    "access qualifier 'read_write' can not be used for 'read_only pipe {}'",
                    self.type_name(&t)
                );
                self.error(spec.span, msg);
                return None;
            }
        };
        if matches!(
            t,
            Type::Void
                | Type::Pipe(..)
                | Type::Image(_)
                | Type::Sampler
                | Type::Event
                | Type::ReserveId
        ) {
            let msg = format!(
                "'{}' cannot be the packet type of a pipe",
                self.type_name(&t)
            );
            self.error(spec.span, msg);
            return None;
        }
        Some(Type::Pipe(Box::new(t), write))
    }

    /// Read-write images: OpenCL C 2.0, or 3.0 with `__opencl_c_read_write_images`.
    pub fn read_write_images_allowed(&self) -> bool {
        self.opts.cl_version == 200
            || (self.opts.cl_version >= 300
                && self
                    .target
                    .features
                    .iter()
                    .any(|f| f == "__opencl_c_read_write_images"))
    }

    /// Writes to 3D images: `cl_khr_3d_image_writes` (OpenCL C 1.x/2.0), the
    /// `__opencl_c_3d_image_writes` feature in 3.0.
    /// The target device supports extension `name`.
    pub fn has_extension(&self, name: &str) -> bool {
        self.target.extensions.iter().any(|e| e == name)
    }

    pub fn image3d_writes_allowed(&self) -> bool {
        if self.opts.cl_version >= 300 {
            self.target
                .features
                .iter()
                .any(|f| f == "__opencl_c_3d_image_writes")
        } else {
            self.target
                .extensions
                .iter()
                .any(|e| e == "cl_khr_3d_image_writes")
        }
    }

    /// Pipes exist in OpenCL C 2.0, and in 3.0 with the `__opencl_c_pipes` feature.
    pub fn pipes_allowed(&self) -> bool {
        self.opts.cl_version == 200
            || (self.opts.cl_version >= 300
                && self.target.features.iter().any(|f| f == "__opencl_c_pipes"))
    }

    fn base_type_no_pipe(&mut self, spec: &DeclSpec) -> Option<Type> {
        Some(match &spec.ty {
            TypeSpec::Void => Type::Void,
            TypeSpec::Scalar(s) => {
                let s = Scalar::from_name(*s);
                self.check_scalar_allowed(s, spec.span)?;
                Type::Scalar(s)
            }
            TypeSpec::Vector(s, n) => {
                let s = Scalar::from_name(*s);
                self.check_scalar_allowed(s, spec.span)?;
                Type::Vector(s, *n)
            }
            TypeSpec::Named(name) => {
                match name.as_str() {
                    "size_t" | "uintptr_t" => self.size_t(),
                    "ptrdiff_t" | "intptr_t" => {
                        if self.pointer_bits() == 32 {
                            Type::INT
                        } else {
                            Type::Scalar(Scalar::Long)
                        }
                    }
                    "event_t" => Type::Event,
                    "image1d_t"
                    | "image1d_array_t"
                    | "image1d_buffer_t"
                    | "image2d_t"
                    | "image2d_array_t"
                    | "image2d_depth_t"
                    | "image2d_array_depth_t"
                    | "image3d_t"
                    | "sampler_t"
                        if !self.target.image_support =>
                    {
                        self.error(
                        spec.span,
                        format!("type '{name}' requires image support, which this device does not have"),
                    );
                        return None;
                    }
                    "sampler_t" => Type::Sampler,
                    n if n.starts_with("image") && n.ends_with("_t") => {
                        let access = spec
                            .quals
                            .access
                            .unwrap_or(crate::ast::ImageAccess::ReadOnly);
                        if access == crate::ast::ImageAccess::ReadWrite
                            && !self.read_write_images_allowed()
                        {
                            // OpenCL C 2.0 §6.6; 3.0 §6.7.1: read_write images need 2.0, or
                            // 3.0 with `__opencl_c_read_write_images`.
                            self.error(spec.span, format!("access qualifier 'read_write' can not be used for '__read_write {n}' prior to OpenCL C version 2.0 or in version 3.0 and without __opencl_c_read_write_images feature"));
                            return None;
                        }
                        match crate::sema::types::ImageType::from_name(n, access) {
                            Some(i) => Type::Image(i),
                            None => {
                                self.error(spec.span, format!("unknown type name '{name}'"));
                                return None;
                            }
                        }
                    }
                    "reserve_id_t" if self.pipes_allowed() => Type::ReserveId,
                    // OpenCL C 2.0 §6.13.17 (3.0: with `__opencl_c_device_enqueue`).
                    "queue_t" if self.device_enqueue_allowed() => Type::Queue,
                    "clk_event_t" if self.device_enqueue_allowed() => Type::ClkEvent,
                    "ndrange_t" if self.device_enqueue_allowed() => Type::NdRange,
                    // clang's opencl-c-base.h: `typedef int kernel_enqueue_flags_t;` and
                    // `typedef int clk_profiling_info;`.
                    "kernel_enqueue_flags_t" | "clk_profiling_info"
                        if self.device_enqueue_allowed() =>
                    {
                        Type::INT
                    }
                    "queue_t"
                    | "clk_event_t"
                    | "reserve_id_t"
                    | "ndrange_t"
                    | "kernel_enqueue_flags_t"
                    | "clk_profiling_info" => {
                        self.error(spec.span, format!("use of type '{name}' requires OpenCL C 2.0, or 3.0 with the __opencl_c_device_enqueue (or __opencl_c_pipes) feature"));
                        return None;
                    }
                    "memory_order" | "memory_scope" => Type::INT,
                    "cl_mem_fence_flags" => Type::UINT,
                    // OpenCL C 2.0 atomic types (§6.13.11.6); clang: `atomic_flag` is
                    // `_Atomic(int)`.
                    "atomic_int" | "atomic_flag" => Type::Atomic(Scalar::Int),
                    "atomic_uint" => Type::Atomic(Scalar::UInt),
                    "atomic_long" => Type::Atomic(Scalar::Long),
                    "atomic_ulong" => Type::Atomic(Scalar::ULong),
                    "atomic_float" => Type::Atomic(Scalar::Float),
                    "atomic_double" => Type::Atomic(Scalar::Double),
                    "atomic_size_t" | "atomic_uintptr_t" => {
                        Type::Atomic(Scalar::int_of(self.pointer_bits(), false))
                    }
                    "atomic_intptr_t" | "atomic_ptrdiff_t" => {
                        Type::Atomic(Scalar::int_of(self.pointer_bits(), true))
                    }
                    _ => match self.scopes.lookup(name) {
                        Some(Symbol::Typedef(t)) => t.clone(),
                        _ => {
                            self.error_undeclared(
                                name,
                                spec.span,
                                format!("unknown type name '{name}'"),
                            );
                            return None;
                        }
                    },
                }
            }
            TypeSpec::Struct(r) => Type::Record(self.record_type(r)?),
            TypeSpec::Enum(e) => {
                self.enum_type(e);
                Type::INT
            }
        })
    }

    /// `double` needs cl_khr_fp64 (§6.1.1); `half` arithmetic needs cl_khr_fp16 but the type may
    /// be used for pointers (checked where values are made).
    fn check_scalar_allowed(&mut self, s: Scalar, span: crate::source::Span) -> Option<()> {
        if s == Scalar::Double && !self.opts.fp64 {
            self.error(span, "use of type 'double' requires cl_khr_fp64 support");
            return None;
        }
        Some(())
    }

    /// Applies a declarator's derivations to `base`. Returns the type and, for the outermost
    /// pointer, its own qualifiers.
    pub fn apply_declarator(
        &mut self,
        base: Type,
        spec: &DeclSpec,
        d: &Declarator,
    ) -> Option<Type> {
        let mut ty = base;
        // Pointee qualifiers come from the specifiers for the innermost pointer, then from the
        // qualifiers after each `*`.
        let mut quals_const = spec.quals.is_const;
        let mut quals_volatile = spec.quals.is_volatile;
        let mut space = spec.addr;
        let at = d.name.as_ref().map(|n| n.1).unwrap_or(d.span);
        let mut skip_block_pointer = false;
        for (k, der) in d.derived.iter().enumerate().rev() {
            if matches!(ty, Type::Block(_)) && !matches!(der, Derived::BlockPointer) {
                // §1.12.5: no pointers to Blocks, no arrays of Blocks.
                let msg = match der {
                    Derived::Pointer { .. } => format!(
                        "pointer to type '{}' is invalid in OpenCL",
                        self.type_name(&ty)
                    ),
                    Derived::Array(_) => format!(
                        "array of '{}' type is invalid in OpenCL",
                        self.type_name(&ty)
                    ),
                    _ => format!(
                        "declaring function return value of type '{}' is not allowed",
                        self.type_name(&ty)
                    ),
                };
                self.error(at, msg);
                return None;
            }
            match der {
                Derived::BlockPointer if skip_block_pointer => skip_block_pointer = false,
                Derived::BlockPointer => {
                    self.error(at, "block pointer to non-function type is invalid");
                    return None;
                }
                Derived::Function { params, variadic }
                    if k > 0 && matches!(d.derived[k - 1], Derived::BlockPointer) =>
                {
                    // §1.12.2: `ret (^name)(params)`.
                    if !self.blocks_allowed() {
                        self.error(at, "blocks support disabled - compile with -fblocks or for OpenCL C 2.0 or OpenCL C 3.0 with __opencl_c_device_enqueue feature");
                        return None;
                    }
                    // §1.12.5: no variadic Blocks.
                    if *variadic {
                        self.error(
                            at,
                            "invalid prototype, variadic arguments are not allowed in OpenCL",
                        );
                        return None;
                    }
                    if matches!(ty, Type::Block(_)) {
                        self.error(at, "a Block cannot be the return value of a Block");
                        return None;
                    }
                    let mut ps = Vec::new();
                    for p in params {
                        let base = self.base_type(&p.spec)?;
                        let t = self.apply_declarator(base, &p.spec, &p.declarator)?;
                        if t == Type::Void {
                            self.error(p.span, "argument may not have 'void' type");
                            return None;
                        }
                        ps.push(t);
                    }
                    ty = Type::Block(Box::new(crate::sema::types::BlockSig {
                        ret: ty,
                        params: ps,
                        literal: None,
                    }));
                    skip_block_pointer = true;
                }
                Derived::Pointer { quals, addr } => {
                    // OpenCL C 2.0 §6.13.14 / §6.9.b: no pointers to images or samplers.
                    if matches!(ty, Type::Image(_) | Type::Sampler) {
                        let msg = format!(
                            "pointer to type '{}' is invalid in OpenCL",
                            self.type_name(&ty)
                        );
                        self.error(d.name.as_ref().map(|n| n.1).unwrap_or(d.span), msg);
                        return None;
                    }
                    let pointee_space = space.unwrap_or_else(|| self.default_pointee_space());
                    ty = Type::Pointer(Box::new(crate::sema::Pointee {
                        ty,
                        space: pointee_space,
                        is_const: quals_const,
                        is_volatile: quals_volatile,
                    }));
                    quals_const = quals.is_const;
                    quals_volatile = quals.is_volatile;
                    space = *addr;
                }
                Derived::Array(len) => {
                    let n = match len {
                        Some(e) => match self.const_int(e) {
                            Some(v) if v > 0 && v <= u32::MAX as i128 => v as u32,
                            Some(_) => {
                                self.error(e.span, "array size must be positive");
                                return None;
                            }
                            None => {
                                self.error(
                                    e.span,
                                    "variable length arrays are not supported in OpenCL",
                                );
                                return None;
                            }
                        },
                        None => 0,
                    };
                    // OpenCL C 2.0 §6.13.14: no arrays of images or samplers.
                    if matches!(ty, Type::Image(_) | Type::Sampler | Type::Pipe(..)) {
                        let msg = format!(
                            "array of '{}' type is invalid in OpenCL",
                            self.type_name(&ty)
                        );
                        self.error(d.name.as_ref().map(|n| n.1).unwrap_or(d.span), msg);
                        return None;
                    }
                    if ty == Type::Void {
                        self.error(d.span, "array has incomplete element type 'void'");
                        return None;
                    }
                    ty = Type::Array(Box::new(ty), n);
                }
                Derived::Function { .. } => {
                    self.error(
                        d.span,
                        "function types are only allowed for function declarations",
                    );
                    return None;
                }
            }
        }
        Some(ty)
    }

    /// The address space qualifier that applies to the declared object itself: the one after
    /// the outermost `*`, or the specifiers' one when the type is not a pointer.
    pub fn object_space(spec: &DeclSpec, d: &Declarator) -> Option<AddrSpace> {
        let mut space = spec.addr;
        for der in d.derived.iter().rev() {
            if let Derived::Pointer { addr, .. } = der {
                space = *addr;
            }
        }
        space
    }

    /// Whether the declared object itself is const.
    pub fn object_const(spec: &DeclSpec, d: &Declarator) -> bool {
        let mut c = spec.quals.is_const;
        for der in d.derived.iter().rev() {
            if let Derived::Pointer { quals, .. } = der {
                c = quals.is_const;
            }
        }
        c
    }

    pub fn resolve_type_name(&mut self, tn: &TypeName) -> Option<Type> {
        let base = self.base_type(&tn.spec)?;
        let ty = self.apply_declarator(base, &tn.spec, &tn.declarator)?;
        // An address space on a non-pointer type name is ignored for casts.
        Some(ty)
    }

    /// The field indices leading to member `name` of record `ri`: the member itself, or a
    /// member of an anonymous struct/union member, searched depth-first (C11 6.7.2.1p13).
    pub(crate) fn member_path(&self, ri: u32, name: &str) -> Option<Vec<usize>> {
        let rec = self.records.get(ri as usize)?;
        if let Some(k) = rec.fields.iter().position(|(n, _)| n == name) {
            return Some(vec![k]);
        }
        rec.fields
            .iter()
            .enumerate()
            .find_map(|(k, (n, t))| match t {
                Type::Record(inner) if n.is_empty() && *inner != ri => {
                    let mut path = self.member_path(*inner, name)?;
                    path.insert(0, k);
                    Some(path)
                }
                _ => None,
            })
    }

    fn record_type(&mut self, r: &crate::ast::RecordSpec) -> Option<u32> {
        let kind = if r.is_union { "union" } else { "struct" };
        let index = match &r.tag {
            Some(tag) => {
                let existing = if r.fields.is_some() {
                    self.scopes.tag_here(tag)
                } else {
                    self.scopes.lookup_tag(tag)
                };
                match existing {
                    Some(Tag::Record(i)) => {
                        if self
                            .records
                            .get(i as usize)
                            .is_some_and(|rec| rec.is_union != r.is_union)
                        {
                            self.error(r.span, format!("use of '{tag}' with tag type that does not match previous declaration"));
                            return None;
                        }
                        if r.fields.is_some() && self.records[i as usize].complete {
                            self.error(r.span, format!("redefinition of '{tag}'"));
                            return None;
                        }
                        i
                    }
                    _ => {
                        let i = self.records.len() as u32;
                        self.records.push(Record {
                            name: tag.clone(),
                            is_union: r.is_union,
                            fields: Vec::new(),
                            complete: false,
                        });
                        self.scopes.declare_tag(tag, Tag::Record(i));
                        i
                    }
                }
            }
            None => {
                let i = self.records.len() as u32;
                self.records.push(Record {
                    name: "(anonymous)".into(),
                    is_union: r.is_union,
                    fields: Vec::new(),
                    complete: false,
                });
                i
            }
        };
        if let Some(fields) = &r.fields {
            let mut list: Vec<(String, Type)> = Vec::new();
            for f in fields {
                let Some(base) = self.base_type(&f.spec) else {
                    continue;
                };
                if f.declarators.is_empty() {
                    // C11 6.7.2.1p13: an anonymous struct/union member keeps its own layout
                    // (its members overlap in a union, follow each other in a struct); its
                    // members are found through it (`member_path`). It is an unnamed field.
                    if let Type::Record(_) = base {
                        list.push((String::new(), base));
                    }
                    continue;
                }
                for d in &f.declarators {
                    let Some(ty) = self.apply_declarator(base.clone(), &f.spec, d) else {
                        continue;
                    };
                    let Some((name, sp)) = &d.name else { continue };
                    // OpenCL C 2.0 §6.13.14, §6.13.16: opaque types are not members.
                    // §1.12.5: no Blocks as structure or union members.
                    if matches!(
                        ty,
                        Type::Image(_)
                            | Type::Sampler
                            | Type::Pipe(..)
                            | Type::ReserveId
                            | Type::Block(_)
                    ) {
                        let msg = format!(
                            "the '{}' type cannot be used to declare a structure or union field",
                            self.type_name(&ty)
                        );
                        self.error(*sp, msg);
                        continue;
                    }
                    if list.iter().any(|(n, _)| n == name) {
                        self.error(*sp, format!("duplicate member '{name}'"));
                        continue;
                    }
                    if !self.is_complete(&ty) {
                        self.error(
                            *sp,
                            format!("field has incomplete type '{}'", self.type_name(&ty)),
                        );
                        continue;
                    }
                    list.push((name.clone(), ty));
                }
            }
            if list.is_empty() {
                self.warning(r.span, format!("empty {kind} is a GNU extension"));
            }
            let rec = &mut self.records[index as usize];
            rec.fields = list;
            rec.complete = true;
            for a in &r.static_asserts {
                self.static_assert(a);
            }
        }
        Some(index)
    }

    pub fn is_complete(&self, ty: &Type) -> bool {
        match ty {
            Type::Void => false,
            Type::Record(i) => self.records.get(*i as usize).is_some_and(|r| r.complete),
            Type::Array(t, n) => *n > 0 && self.is_complete(t),
            _ => true,
        }
    }

    fn enum_type(&mut self, e: &crate::ast::EnumSpec) {
        if let Some(tag) = &e.tag {
            self.scopes.declare_tag(tag, Tag::Enum);
        }
        if let Some(vs) = &e.variants {
            let mut next: i128 = 0;
            for (name, value, sp) in vs {
                if let Some(v) = value {
                    match self.const_int(v) {
                        Some(x) => next = x,
                        None => {
                            self.error(v.span, "expression is not an integer constant expression")
                        }
                    }
                }
                if self.scopes.declared_here(name).is_some() {
                    self.error(*sp, format!("redefinition of '{name}'"));
                }
                self.scopes.declare(name, Symbol::EnumConst(next as i64));
                next += 1;
            }
        }
    }

    // ---- SPIR-V types --------------------------------------------------------------------

    pub fn scalar_ty(&mut self, s: Scalar) -> Id {
        match s {
            Scalar::Bool => self.b.type_bool(),
            Scalar::Half => {
                self.b.capability(Capability::Float16Buffer);
                self.b.type_float(16)
            }
            Scalar::Float => self.b.type_float(32),
            Scalar::Double => {
                self.b.capability(Capability::Float64);
                self.b.type_float(64)
            }
            _ => {
                match s.bits() {
                    8 => self.b.capability(Capability::Int8),
                    16 => self.b.capability(Capability::Int16),
                    64 => self.b.capability(Capability::Int64),
                    _ => {}
                }
                self.b.type_int(s.bits(), false)
            }
        }
    }

    pub fn vec_ty(&mut self, s: Scalar, n: u8) -> Id {
        let e = self.scalar_ty(s);
        if n >= 8 {
            self.b.capability(Capability::Vector16);
        }
        self.b.type_vector(e, n as u32)
    }

    /// `bool` or a vector of `bool` with `n` lanes (comparison results).
    pub fn bool_ty(&mut self, n: u8) -> Id {
        if n <= 1 {
            self.b.type_bool()
        } else {
            self.vec_ty(Scalar::Bool, n)
        }
    }

    /// The SPIR-V type of `ty`.
    pub fn spv_type(&mut self, ty: &Type) -> Id {
        match ty {
            Type::Void => self.b.type_void(),
            Type::Scalar(s) | Type::Atomic(s) => self.scalar_ty(*s),
            Type::Vector(s, n) => self.vec_ty(*s, *n),
            Type::Pointer(p) => {
                // A pointer to a struct whose members are being emitted (`struct node { struct
                // node *next; }`): SPIR-V 2.4 needs OpTypeForwardPointer before the struct.
                if let Type::Record(r) = &p.ty {
                    let storage = storage_class(p.space);
                    if let Some(forwards) = self.records_in_progress.get(r) {
                        if let Some(&(_, id)) = forwards.iter().find(|(s, _)| *s == storage) {
                            return id;
                        }
                        let id = self.b.forward_pointer(storage);
                        if let Some(forwards) = self.records_in_progress.get_mut(r) {
                            forwards.push((storage, id));
                        }
                        return id;
                    }
                }
                let pointee = match &p.ty {
                    // void * is a pointer to bytes (like llvm-spirv).
                    Type::Void => self.scalar_ty(Scalar::UChar),
                    t => self.spv_type(&t.clone()),
                };
                if p.space == AddrSpace::Generic {
                    self.b.capability(Capability::GenericPointer);
                }
                self.b.type_pointer(storage_class(p.space), pointee)
            }
            Type::Array(t, n) => {
                let e = self.spv_type(t);
                let u32t = self.scalar_ty(Scalar::UInt);
                let len = self.b.constant_u32(u32t, (*n).max(1));
                self.b.type_array(e, len)
            }
            Type::Record(i) => {
                if let Some(id) = self.record_types.get(i) {
                    return *id;
                }
                let Some(rec) = self.records.get(*i as usize).cloned() else {
                    return self.b.type_void();
                };
                let id = if rec.is_union {
                    // A union is its largest member's storage: an array of bytes of its size,
                    // aligned by an int member when possible.
                    let (size, _) = self.size_align(ty);
                    let u8t = self.scalar_ty(Scalar::UChar);
                    let u32t = self.scalar_ty(Scalar::UInt);
                    let len = self.b.constant_u32(u32t, size.max(1) as u32);
                    let arr = self.b.type_array(u8t, len);
                    self.b
                        .global(spv::Op::TypeStruct, None, vec![spv::Operand::Id(arr)])
                } else {
                    self.records_in_progress.insert(*i, Vec::new());
                    let members: Vec<Id> =
                        rec.fields.iter().map(|(_, t)| self.spv_type(t)).collect();
                    let ops = members.into_iter().map(spv::Operand::Id).collect();
                    let id = self.b.global(spv::Op::TypeStruct, None, ops);
                    let forwards = self.records_in_progress.remove(i).unwrap_or_default();
                    for (storage, pointer) in forwards {
                        self.b.define_forward_pointer(pointer, storage, id);
                    }
                    id
                };
                self.b.name(id, &format!("struct.{}", rec.name));
                self.record_types.insert(*i, id);
                id
            }
            Type::Event => self.b.type_event(),
            Type::Image(i) => self.image_type(i),
            Type::Sampler => {
                self.b.capability(Capability::ImageBasic);
                self.b.global_dedup(spv::Op::TypeSampler, None, vec![])
            }
            // SPIR-V 3.32.6: `OpTypePipe Qualifier` (the packet type is not part of it).
            Type::Pipe(_, write) => {
                self.b.capability(Capability::Pipes);
                let q = if *write {
                    spv::AccessQualifier::WriteOnly
                } else {
                    spv::AccessQualifier::ReadOnly
                };
                self.b
                    .global_dedup(spv::Op::TypePipe, None, vec![spv::Operand::Int(q as u32)])
            }
            Type::ReserveId => {
                self.b.capability(Capability::Pipes);
                self.b.global_dedup(spv::Op::TypeReserveId, None, vec![])
            }
            Type::Queue => {
                self.b.capability(Capability::DeviceEnqueue);
                self.b.type_queue()
            }
            Type::ClkEvent => {
                self.b.capability(Capability::DeviceEnqueue);
                self.b.type_device_event()
            }
            Type::NdRange => {
                // llvm-spirv: `%struct.ndrange_t = { uint, size_t[3], size_t[3], size_t[3] }`.
                if let Some(id) = self.ndrange_ty {
                    return id;
                }
                let size_t = self.size_t();
                let st = self.spv_type(&size_t);
                let u32t = self.scalar_ty(Scalar::UInt);
                let three = self.b.constant_u32(u32t, 3);
                let arr = self.b.type_array(st, three);
                let id = self.b.type_struct(&[u32t, arr, arr, arr]);
                self.b.name(id, "struct.ndrange_t");
                self.ndrange_ty = Some(id);
                id
            }
            // A Block value is the address of its literal (`generic uchar *`).
            Type::Block(_) => self.block_ptr_ty(),
        }
    }

    /// `OpTypeImage %void Dim Depth Arrayed 0 0 Unknown Access`, with the capabilities
    /// llvm-spirv declares (ImageBasic, ImageReadWrite, Sampled1D, SampledBuffer).
    pub fn image_type(&mut self, i: &crate::sema::types::ImageType) -> Id {
        use crate::sema::types::ImageDim;
        self.b.capability(Capability::ImageBasic);
        let dim = match i.dim {
            ImageDim::D1 => {
                self.b.capability(Capability::Sampled1D);
                spv::Dim::Dim1D
            }
            ImageDim::D2 => spv::Dim::Dim2D,
            ImageDim::D3 => spv::Dim::Dim3D,
            ImageDim::Buffer => {
                self.b.capability(Capability::SampledBuffer);
                spv::Dim::Buffer
            }
        };
        let access = match i.access {
            crate::ast::ImageAccess::ReadOnly => spv::AccessQualifier::ReadOnly,
            crate::ast::ImageAccess::WriteOnly => spv::AccessQualifier::WriteOnly,
            crate::ast::ImageAccess::ReadWrite => {
                self.b.capability(Capability::ImageReadWrite);
                spv::AccessQualifier::ReadWrite
            }
        };
        let void = self.b.type_void();
        self.b.global_dedup(
            spv::Op::TypeImage,
            None,
            vec![
                spv::Operand::Id(void),
                spv::Operand::Int(dim as u32),
                spv::Operand::Int(i.depth as u32),
                spv::Operand::Int(i.arrayed as u32),
                spv::Operand::Int(0),
                spv::Operand::Int(0),
                spv::Operand::Int(spv::ImageFormat::Unknown as u32),
                spv::Operand::Int(access as u32),
            ],
        )
    }

    pub fn ptr_ty(&mut self, space: AddrSpace, pointee: &Type) -> Id {
        let p = self.spv_type(pointee);
        if space == AddrSpace::Generic {
            self.b.capability(Capability::GenericPointer);
        }
        self.b.type_pointer(storage_class(space), p)
    }

    pub fn size_align(&self, ty: &Type) -> (u64, u64) {
        crate::sema::types::size_align(ty, &self.records, self.pointer_bits() / 8)
    }
}
