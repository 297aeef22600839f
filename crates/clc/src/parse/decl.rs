//! Declarations (C99 6.7): specifiers, declarators, initializers, struct/union/enum
//! specifiers, `__attribute__((…))`, type names, and function definitions.

use super::lit::{scalar_name, vector_type_name};
use super::{is_decl_start_keyword, Bail, PResult, Parser};
use crate::ast::*;
use crate::lex::TokenKind;
use crate::source::Span;

impl<'a> Parser<'a> {
    /// Whether the current token starts a declaration (or a type name).
    pub(crate) fn starts_decl(&self) -> bool {
        if !self.is_ident() {
            return false;
        }
        let t = self.text();
        // `pipe T name` (§6.13.16); `pipe` alone is an ordinary identifier.
        let pipe = t == "pipe" && self.is_ident_at(1) && self.is_ident_at(2);
        is_decl_start_keyword(t) || self.is_typedef_name(t) || pipe
    }

    /// An external declaration: a function definition or a declaration.
    pub(crate) fn external_decl(&mut self) -> PResult<Option<ExternalDecl>> {
        let start = self.span();
        if self.is_keyword("_Static_assert") {
            return Ok(Some(ExternalDecl::StaticAssert(self.static_assert()?)));
        }
        if !self.starts_decl() {
            let msg = if self.is_ident() {
                format!("unknown type name '{}'", self.text())
            } else {
                "expected external declaration".to_string()
            };
            return Err(self.error_here(msg));
        }
        let spec = self.decl_spec()?;
        if self.eat_punct(";") {
            return Ok(Some(ExternalDecl::Declaration(Declaration {
                spec,
                declarators: Vec::new(),
                span: start.to(self.prev_span()),
            })));
        }
        let declarator = self.declarator(false)?;
        let is_function = matches!(declarator.derived.first(), Some(Derived::Function { .. }));
        if is_function && self.is_punct("{") {
            // Parameter names are visible in the body; typedef scope for the body.
            let body = self.compound_stmt()?;
            let span = start.to(self.prev_span());
            return Ok(Some(ExternalDecl::Function(Box::new(FunctionDef {
                spec,
                declarator,
                body,
                span,
            }))));
        }
        let decl = self.rest_of_declaration(spec, declarator, start)?;
        Ok(Some(ExternalDecl::Declaration(decl)))
    }

    /// A block-scope declaration.
    pub(crate) fn declaration(&mut self) -> PResult<Declaration> {
        let start = self.span();
        let spec = self.decl_spec()?;
        if self.eat_punct(";") {
            return Ok(Declaration {
                spec,
                declarators: Vec::new(),
                span: start.to(self.prev_span()),
            });
        }
        let declarator = self.declarator(false)?;
        self.rest_of_declaration(spec, declarator, start)
    }

    fn rest_of_declaration(
        &mut self,
        spec: DeclSpec,
        first: Declarator,
        start: Span,
    ) -> PResult<Declaration> {
        let mut declarators = Vec::new();
        let mut current = first;
        loop {
            if spec.storage == Storage::Typedef {
                if let Some((name, _)) = &current.name {
                    let name = name.clone();
                    self.add_typedef(&name);
                }
            }
            let init = if self.eat_punct("=") {
                Some(self.initializer()?)
            } else {
                None
            };
            declarators.push(InitDeclarator {
                declarator: current,
                init,
            });
            if self.eat_punct(",") {
                current = self.declarator(false)?;
                continue;
            }
            break;
        }
        self.expect_semi("at end of declaration")?;
        Ok(Declaration {
            spec,
            declarators,
            span: start.to(self.prev_span()),
        })
    }

    /// `designator-list = initializer` (C99 6.7.8p1).
    fn designated_initializer(&mut self) -> PResult<Initializer> {
        let start = self.span();
        let mut path = Vec::new();
        loop {
            if self.eat_punct(".") {
                let (name, sp) = self.expect_ident()?;
                path.push(Designator::Field(name, sp));
            } else if self.eat_punct("[") {
                let index = self.conditional_expr()?;
                self.expect_punct("]")?;
                path.push(Designator::Index(index));
            } else {
                break;
            }
        }
        self.expect_punct("=")?;
        let value = self.initializer()?;
        let sp = start.to(value.span());
        Ok(Initializer::Designated(path, Box::new(value), sp))
    }

    pub(crate) fn initializer(&mut self) -> PResult<Initializer> {
        if self.is_punct("{") {
            self.enter()?;
            let start = self.span();
            self.bump();
            let mut items = Vec::new();
            while !self.is_punct("}") {
                if self.at_eof() {
                    self.leave();
                    return Err(self.error_here("expected '}'"));
                }
                if self.is_punct(".") || self.is_punct("[") {
                    let item = self.designated_initializer();
                    match item {
                        Ok(item) => items.push(item),
                        Err(e) => {
                            self.leave();
                            return Err(e);
                        }
                    }
                } else {
                    items.push(self.initializer()?);
                }
                if !self.eat_punct(",") {
                    break;
                }
            }
            let end = self.expect_punct("}");
            self.leave();
            let end = end?;
            Ok(Initializer::List(items, start.to(end)))
        } else {
            Ok(Initializer::Expr(self.assignment_expr()?))
        }
    }

    /// Declaration specifiers (C99 6.7), OpenCL address spaces and `__kernel`.
    pub(crate) fn decl_spec(&mut self) -> PResult<DeclSpec> {
        let start = self.span();
        let mut spec = DeclSpec {
            storage: Storage::None,
            is_kernel: false,
            is_inline: false,
            quals: Quals::default(),
            addr: None,
            ty: TypeSpec::Void,
            pipe: false,
            attrs: Vec::new(),
            span: start,
        };
        let mut have_type = false;
        let mut signedness: Option<bool> = None; // Some(true) = unsigned
        let mut base: Option<&'static str> = None; // char/short/int/long
        let mut seen_any = false;
        loop {
            if !self.is_ident() {
                break;
            }
            let t = self.text();
            let sp = self.span();
            // OpenCL C 2.0 §6.13.16: `pipe T name`.
            if t == "pipe"
                && !have_type
                && !spec.pipe
                && self.peek_at(1).is_some_and(|n| n.kind == TokenKind::Ident)
            {
                spec.pipe = true;
                seen_any = true;
                self.bump();
                continue;
            }
            match t {
                "typedef" => spec.storage = Storage::Typedef,
                "extern" => spec.storage = Storage::Extern,
                "static" => spec.storage = Storage::Static,
                "__kernel" | "kernel" => spec.is_kernel = true,
                "inline" | "__inline" => spec.is_inline = true,
                "const" => spec.quals.is_const = true,
                "volatile" => spec.quals.is_volatile = true,
                "restrict" | "__restrict" => spec.quals.is_restrict = true,
                "__read_only" | "read_only" => spec.quals.access = Some(ImageAccess::ReadOnly),
                "__write_only" | "write_only" => spec.quals.access = Some(ImageAccess::WriteOnly),
                "__read_write" | "read_write" => spec.quals.access = Some(ImageAccess::ReadWrite),
                "__attribute__" => {
                    let attrs = self.attributes()?;
                    spec.attrs.extend(attrs);
                    seen_any = true;
                    continue;
                }
                "unsigned" | "signed" => {
                    if signedness.is_some() || have_type {
                        return Err(self.error_here(format!(
                            "cannot combine with previous '{t}' declaration specifier"
                        )));
                    }
                    signedness = Some(t == "unsigned");
                }
                "char" | "short" | "int" | "long" if !have_type || base.is_some() => {
                    match (base, t) {
                        (None, _) => {
                            base = Some(match t {
                                "char" => "char",
                                "short" => "short",
                                "int" => "int",
                                _ => "long",
                            })
                        }
                        (Some("short"), "int") | (Some("long"), "int") => {}
                        (Some("int"), "short") => base = Some("short"),
                        (Some("int"), "long") | (Some("long"), "long") => base = Some("long"),
                        _ => {
                            return Err(self.error_here(format!(
                                "cannot combine with previous declaration specifier '{t}'"
                            )))
                        }
                    }
                    have_type = true;
                }
                "struct" | "union" => {
                    if have_type {
                        return Err(
                            self.error_here("cannot combine with previous declaration specifier")
                        );
                    }
                    spec.ty = TypeSpec::Struct(self.record_spec()?);
                    have_type = true;
                    seen_any = true;
                    continue;
                }
                "enum" => {
                    if have_type {
                        return Err(
                            self.error_here("cannot combine with previous declaration specifier")
                        );
                    }
                    spec.ty = TypeSpec::Enum(self.enum_spec()?);
                    have_type = true;
                    seen_any = true;
                    continue;
                }
                _ => {
                    if let Some(a) = addr_space_keyword(t) {
                        // OpenCL C 2.0 §6.5: "a type … cannot be qualified with more than one
                        // address space qualifier".
                        if spec.addr.is_some_and(|b| b != a) {
                            let sp = self.span();
                            self.error_at(sp, "multiple address spaces specified for type");
                        }
                        spec.addr = Some(a);
                    } else if have_type || signedness.is_some() {
                        break;
                    } else if t == "void" {
                        spec.ty = TypeSpec::Void;
                        have_type = true;
                    } else if let Some(s) = scalar_name(t) {
                        spec.ty = TypeSpec::Scalar(s);
                        have_type = true;
                    } else if let Some((s, n)) = vector_type_name(t) {
                        spec.ty = TypeSpec::Vector(s, n);
                        have_type = true;
                    } else if self.is_typedef_name(t) {
                        spec.ty = TypeSpec::Named(t.to_string());
                        have_type = true;
                    } else {
                        break;
                    }
                }
            }
            let _ = sp;
            seen_any = true;
            self.bump();
        }
        if let Some(b) = base {
            let unsigned = signedness == Some(true);
            spec.ty = TypeSpec::Scalar(match (b, unsigned) {
                ("char", false) => ScalarName::Char,
                ("char", true) => ScalarName::UChar,
                ("short", false) => ScalarName::Short,
                ("short", true) => ScalarName::UShort,
                ("int", false) => ScalarName::Int,
                ("int", true) => ScalarName::UInt,
                (_, false) => ScalarName::Long,
                (_, true) => ScalarName::ULong,
            });
        } else if let Some(unsigned) = signedness {
            if have_type {
                return Err(self.error_here("'signed'/'unsigned' cannot be applied to this type"));
            }
            spec.ty = TypeSpec::Scalar(if unsigned {
                ScalarName::UInt
            } else {
                ScalarName::Int
            });
            have_type = true;
        }
        if !have_type {
            if !seen_any {
                return Err(self.error_here("expected a type"));
            }
            // `__global foo *p`: an unknown name where the type belongs.
            if self.is_ident() && (self.is_ident_at(1) || self.is_punct_at(1, "*")) {
                let msg = format!("unknown type name '{}'", self.text());
                let sp = self.span();
                self.error_at(sp, msg);
                self.bump();
                spec.ty = TypeSpec::Scalar(ScalarName::Int);
                spec.span = start.to(self.prev_span());
                return Ok(spec);
            }
            // C89 implicit int is not valid OpenCL C.
            let sp = self.span();
            self.error_at(sp, "type specifier missing, defaults to 'int'; ISO C99 and later do not support implicit int");
            spec.ty = TypeSpec::Scalar(ScalarName::Int);
        }
        spec.span = start.to(self.prev_span());
        Ok(spec)
    }

    fn record_spec(&mut self) -> PResult<RecordSpec> {
        let start = self.span();
        let is_union = self.text() == "union";
        self.bump();
        while self.is_keyword("__attribute__") {
            self.attributes()?;
        }
        let tag = if self.is_ident() {
            Some(self.expect_ident()?.0)
        } else {
            None
        };
        let mut fields = None;
        let mut static_asserts = Vec::new();
        if self.is_punct("{") {
            self.enter()?;
            self.bump();
            let mut list = Vec::new();
            while !self.is_punct("}") {
                if self.at_eof() {
                    self.leave();
                    return Err(self.error_here("expected '}'"));
                }
                let before = self.pos;
                if self.is_keyword("_Static_assert") {
                    match self.static_assert() {
                        Ok(a) => static_asserts.push(a),
                        Err(Bail) => {
                            self.recover_to_semi();
                            self.note_dropped(before);
                        }
                    }
                    continue;
                }
                match self.field_decl() {
                    Ok(f) => list.push(f),
                    Err(Bail) => {
                        self.recover_to_semi();
                        self.note_dropped(before);
                    }
                }
            }
            self.bump();
            self.leave();
            fields = Some(list);
        } else if tag.is_none() {
            return Err(self.error_here("expected '{' or a tag name"));
        }
        while self.is_keyword("__attribute__") {
            self.attributes()?;
        }
        Ok(RecordSpec {
            is_union,
            tag,
            fields,
            static_asserts,
            span: start.to(self.prev_span()),
        })
    }

    /// `_Static_assert ( constant-expression [, string-literal] ) ;` (C11 6.7.10). Without
    /// the message it is C2x, which clang-15 accepts with a warning.
    pub(crate) fn static_assert(&mut self) -> PResult<StaticAssert> {
        let start = self.span();
        self.bump();
        self.expect_punct("(")?;
        let cond = self.conditional_expr()?;
        let message = if self.eat_punct(",") {
            if !matches!(self.peek_at(0), Some(t) if matches!(t.kind, TokenKind::StringLit)) {
                return Err(self.error_here("expected string literal"));
            }
            match self.assignment_expr()?.kind {
                ExprKind::StringLit(s) => Some(s),
                _ => return Err(self.error_here("expected ')'")),
            }
        } else {
            if self.is_punct(")") {
                self.diags.warning(
                    self.span(),
                    "'_Static_assert' with no message is a C2x extension",
                );
            }
            None
        };
        self.expect_punct(")")?;
        let span = start.to(self.prev_span());
        self.expect_semi("after static_assert")?;
        Ok(StaticAssert {
            cond,
            message,
            span,
        })
    }

    fn field_decl(&mut self) -> PResult<FieldDecl> {
        let start = self.span();
        let spec = self.decl_spec()?;
        let mut declarators = Vec::new();
        if !self.is_punct(";") {
            loop {
                let d = self.declarator(false)?;
                if self.is_punct(":") {
                    return Err(self.error_here("bit-fields are not supported in OpenCL C"));
                }
                declarators.push(d);
                if !self.eat_punct(",") {
                    break;
                }
            }
        }
        if self.is_punct("}") {
            // clang accepts the last member without its `;` with a warning.
            let prev = self.prev_span();
            let at = crate::source::Span::new(prev.file, prev.end, prev.end);
            self.diags
                .warning(at, "expected ';' at end of declaration list");
        } else {
            self.expect_punct(";")?;
        }
        Ok(FieldDecl {
            spec,
            declarators,
            span: start.to(self.prev_span()),
        })
    }

    fn enum_spec(&mut self) -> PResult<EnumSpec> {
        let start = self.span();
        self.bump();
        let tag = if self.is_ident() {
            Some(self.expect_ident()?.0)
        } else {
            None
        };
        let mut variants = None;
        if self.eat_punct("{") {
            let mut list = Vec::new();
            while !self.is_punct("}") {
                let (name, sp) = self.expect_ident()?;
                let value = if self.eat_punct("=") {
                    Some(self.conditional_expr()?)
                } else {
                    None
                };
                list.push((name, value, sp));
                if !self.eat_punct(",") {
                    break;
                }
            }
            self.expect_punct("}")?;
            variants = Some(list);
        } else if tag.is_none() {
            return Err(self.error_here("expected '{' or a tag name"));
        }
        Ok(EnumSpec {
            tag,
            variants,
            span: start.to(self.prev_span()),
        })
    }

    /// `__attribute__((a, b(1,2), c(float4)))`.
    pub(crate) fn attributes(&mut self) -> PResult<Vec<Attribute>> {
        self.bump(); // __attribute__
        self.expect_punct("(")?;
        self.expect_punct("(")?;
        let mut out = Vec::new();
        while !self.is_punct(")") {
            if !self.is_ident() {
                return Err(self.error_here("expected attribute name"));
            }
            let (mut name, sp) = self.expect_ident()?;
            if name.starts_with("__") && name.ends_with("__") && name.len() > 4 {
                name = name[2..name.len() - 2].to_string();
            }
            let mut args = Vec::new();
            if self.eat_punct("(") {
                while !self.is_punct(")") {
                    if self.starts_decl() {
                        args.push(AttrArg::Type(self.type_name()?));
                    } else {
                        args.push(AttrArg::Expr(self.assignment_expr()?));
                    }
                    if !self.eat_punct(",") {
                        break;
                    }
                }
                self.expect_punct(")")?;
            }
            out.push(Attribute {
                name,
                args,
                span: sp.to(self.prev_span()),
            });
            if !self.eat_punct(",") {
                break;
            }
        }
        self.expect_punct(")")?;
        self.expect_punct(")")?;
        Ok(out)
    }

    /// A (possibly abstract) declarator.
    pub(crate) fn declarator(&mut self, abstract_ok: bool) -> PResult<Declarator> {
        self.enter()?;
        let r = self.declarator_inner(abstract_ok);
        self.leave();
        r
    }

    fn declarator_inner(&mut self, abstract_ok: bool) -> PResult<Declarator> {
        let start = self.span();
        let mut attrs = Vec::new();
        // Pointers, left to right.
        let mut pointers = Vec::new();
        loop {
            // OpenCL C 2.0 §1.12.2: `^` declares a Block reference, like `*` a pointer.
            if self.eat_punct("^") {
                pointers.push(Derived::BlockPointer);
                continue;
            }
            if !self.eat_punct("*") {
                break;
            }
            let mut quals = Quals::default();
            let mut addr = None;
            loop {
                if !self.is_ident() {
                    break;
                }
                match self.text() {
                    "const" => quals.is_const = true,
                    "volatile" => quals.is_volatile = true,
                    "restrict" | "__restrict" => quals.is_restrict = true,
                    "__attribute__" => {
                        let a = self.attributes()?;
                        attrs.extend(a);
                        continue;
                    }
                    t => match addr_space_keyword(t) {
                        Some(a) => addr = Some(a),
                        None => break,
                    },
                }
                self.bump();
            }
            pointers.push(Derived::Pointer { quals, addr });
        }
        // Direct declarator.
        let mut name = None;
        let mut inner: Vec<Derived> = Vec::new();
        if self.is_ident() && !self.starts_decl() {
            name = Some(self.expect_ident()?);
        } else if self.is_punct("(") && self.paren_is_nested_declarator() {
            self.bump();
            let d = self.declarator(abstract_ok)?;
            self.expect_punct(")")?;
            name = d.name;
            inner = d.derived;
            attrs.extend(d.attrs);
        } else if !abstract_ok {
            return Err(self.error_here("expected identifier or '('"));
        }
        // Suffixes.
        let mut suffixes = Vec::new();
        loop {
            if self.eat_punct("[") {
                if self.eat_punct("]") {
                    suffixes.push(Derived::Array(None));
                } else {
                    let e = self.assignment_expr()?;
                    self.expect_punct("]")?;
                    suffixes.push(Derived::Array(Some(Box::new(e))));
                }
            } else if self.is_punct("(") {
                self.bump();
                let (params, variadic) = self.param_list()?;
                suffixes.push(Derived::Function { params, variadic });
            } else if self.is_keyword("__attribute__") {
                let a = self.attributes()?;
                attrs.extend(a);
            } else {
                break;
            }
        }
        let mut derived = inner;
        derived.extend(suffixes);
        pointers.reverse();
        derived.extend(pointers);
        Ok(Declarator {
            name,
            derived,
            attrs,
            span: start.to(self.prev_span()),
        })
    }

    /// At `(` in a declarator: a nested declarator `(*p)` rather than a parameter list.
    fn paren_is_nested_declarator(&self) -> bool {
        if self.is_punct_at(1, "*")
            || self.is_punct_at(1, "^")
            || self.is_punct_at(1, "(")
            || self.is_punct_at(1, "[")
        {
            return true;
        }
        if self.is_ident_at(1) {
            let t = self.text_at(1);
            return !(is_decl_start_keyword(t) || self.is_typedef_name(t));
        }
        false
    }

    /// After `(`: parameters up to and including `)`.
    pub(crate) fn param_list(&mut self) -> PResult<(Vec<ParamDecl>, bool)> {
        let mut params = Vec::new();
        let mut variadic = false;
        if self.eat_punct(")") {
            return Ok((params, false));
        }
        if self.is_keyword("void") && self.is_punct_at(1, ")") {
            self.bump();
            self.bump();
            return Ok((params, false));
        }
        loop {
            if self.eat_punct("...") {
                variadic = true;
                break;
            }
            let start = self.span();
            if !self.starts_decl() {
                let msg = if self.is_ident() {
                    format!("unknown type name '{}'", self.text())
                } else {
                    "expected parameter declarator".to_string()
                };
                return Err(self.error_here(msg));
            }
            let spec = self.decl_spec()?;
            let declarator = self.declarator(true)?;
            params.push(ParamDecl {
                spec,
                declarator,
                span: start.to(self.prev_span()),
            });
            if !self.eat_punct(",") {
                break;
            }
        }
        self.expect_punct(")")?;
        Ok((params, variadic))
    }

    /// A type name (C99 6.7.6): specifiers and an abstract declarator.
    pub(crate) fn type_name(&mut self) -> PResult<TypeName> {
        let start = self.span();
        let spec = self.decl_spec()?;
        let declarator = self.declarator(true)?;
        if declarator.name.is_some() {
            let sp = declarator.span;
            self.error_at(sp, "unexpected identifier in type name");
            return Err(Bail);
        }
        Ok(TypeName {
            spec,
            declarator,
            span: start.to(self.prev_span()),
        })
    }
}

pub(crate) fn addr_space_keyword(t: &str) -> Option<AddrSpace> {
    Some(match t {
        "__global" | "global" => AddrSpace::Global,
        "__local" | "local" => AddrSpace::Local,
        "__constant" | "constant" => AddrSpace::Constant,
        "__private" | "private" => AddrSpace::Private,
        "__generic" | "generic" => AddrSpace::Generic,
        _ => return None,
    })
}
