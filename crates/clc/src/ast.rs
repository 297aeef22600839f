//! Syntax tree of an OpenCL C translation unit, as written (before type checking), with spans.
//!
//! Declarators follow C: a [`Declarator`] lists its derivations from the name outward, so
//! `int *a[3]` is `[Array(3), Pointer]` (an array of three pointers to int).

use crate::source::Span;

/// Address-space qualifiers (OpenCL C 2.0 §6.5).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum AddrSpace {
    Private,
    Global,
    Local,
    Constant,
    Generic,
}

impl AddrSpace {
    pub fn keyword(self) -> &'static str {
        match self {
            AddrSpace::Private => "__private",
            AddrSpace::Global => "__global",
            AddrSpace::Local => "__local",
            AddrSpace::Constant => "__constant",
            AddrSpace::Generic => "__generic",
        }
    }
}

/// Type qualifiers (C99 6.7.3).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Quals {
    pub is_const: bool,
    pub is_volatile: bool,
    pub is_restrict: bool,
    /// Image access qualifier (§6.7): `read_only` (the default), `write_only`, `read_write`.
    pub access: Option<ImageAccess>,
}

/// The access qualifier of an image (OpenCL C 2.0 §6.7).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum ImageAccess {
    ReadOnly,
    WriteOnly,
    ReadWrite,
}

/// Scalar types spelled by keywords (OpenCL C 2.0 §6.1.1).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum ScalarName {
    Bool,
    Char,
    UChar,
    Short,
    UShort,
    Int,
    UInt,
    Long,
    ULong,
    Half,
    Float,
    Double,
}

/// The type named by the specifiers of a declaration.
#[derive(Clone, Debug, PartialEq)]
pub enum TypeSpec {
    Void,
    Scalar(ScalarName),
    Vector(ScalarName, u8),
    /// A typedef name (including the predefined `size_t`, `ptrdiff_t`, …).
    Named(String),
    Struct(RecordSpec),
    Enum(EnumSpec),
}

#[derive(Clone, Debug, PartialEq)]
pub struct RecordSpec {
    pub is_union: bool,
    pub tag: Option<String>,
    /// `None` for a reference `struct S`, `Some` for a definition.
    pub fields: Option<Vec<FieldDecl>>,
    /// `_Static_assert`s among the member declarations (C11 6.7.2.1p1).
    pub static_asserts: Vec<StaticAssert>,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub struct FieldDecl {
    pub spec: DeclSpec,
    pub declarators: Vec<Declarator>,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub struct EnumSpec {
    pub tag: Option<String>,
    pub variants: Option<Vec<(String, Option<Expr>, Span)>>,
    pub span: Span,
}

#[derive(Copy, Clone, Debug, PartialEq, Eq, Default)]
pub enum Storage {
    #[default]
    None,
    Typedef,
    Extern,
    Static,
}

/// `__attribute__((name(args)))`.
#[derive(Clone, Debug, PartialEq)]
pub struct Attribute {
    pub name: String,
    pub args: Vec<AttrArg>,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub enum AttrArg {
    Expr(Expr),
    Type(TypeName),
}

/// Declaration specifiers: storage class, function specifiers, qualifiers and the base type.
#[derive(Clone, Debug, PartialEq)]
pub struct DeclSpec {
    pub storage: Storage,
    pub is_kernel: bool,
    pub is_inline: bool,
    pub quals: Quals,
    pub addr: Option<AddrSpace>,
    pub ty: TypeSpec,
    /// `pipe T` (OpenCL C 2.0 §6.13.16): the declared object is a pipe of `T` packets.
    pub pipe: bool,
    pub attrs: Vec<Attribute>,
    pub span: Span,
}

/// One step of a declarator, from the name outward.
#[derive(Clone, Debug, PartialEq)]
pub enum Derived {
    Pointer {
        quals: Quals,
        addr: Option<AddrSpace>,
    },
    Array(Option<Box<Expr>>),
    Function {
        params: Vec<ParamDecl>,
        variadic: bool,
    },
    /// `^` (OpenCL C 2.0 §1.12.2): a Block reference; applies to the function type outside it.
    BlockPointer,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Declarator {
    pub name: Option<(String, Span)>,
    pub derived: Vec<Derived>,
    pub attrs: Vec<Attribute>,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub struct ParamDecl {
    pub spec: DeclSpec,
    pub declarator: Declarator,
    pub span: Span,
}

/// A type written in a cast, `sizeof` or attribute: specifiers plus an abstract declarator.
#[derive(Clone, Debug, PartialEq)]
pub struct TypeName {
    pub spec: DeclSpec,
    pub declarator: Declarator,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub enum Initializer {
    Expr(Expr),
    List(Vec<Initializer>, Span),
    /// `.field = x` / `[index] = x` inside a braced list (C99 6.7.8p6).
    Designated(Vec<Designator>, Box<Initializer>, Span),
}

/// One step of a designation: `.name` or `[constant-expression]`.
#[derive(Clone, Debug, PartialEq)]
pub enum Designator {
    Field(String, Span),
    Index(Expr),
}

impl Initializer {
    pub fn span(&self) -> Span {
        match self {
            Initializer::Expr(e) => e.span,
            Initializer::List(_, s) | Initializer::Designated(_, _, s) => *s,
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct InitDeclarator {
    pub declarator: Declarator,
    pub init: Option<Initializer>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Declaration {
    pub spec: DeclSpec,
    pub declarators: Vec<InitDeclarator>,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub struct FunctionDef {
    pub spec: DeclSpec,
    pub declarator: Declarator,
    pub body: Stmt,
    pub span: Span,
}

/// `_Static_assert(constant-expression [, string-literal]);` (C11 6.7.10; the message is
/// optional as in C2x, which clang-15 accepts with a warning).
#[derive(Clone, Debug, PartialEq)]
pub struct StaticAssert {
    pub cond: Expr,
    pub message: Option<String>,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub enum ExternalDecl {
    Function(Box<FunctionDef>),
    Declaration(Declaration),
    StaticAssert(StaticAssert),
}

#[derive(Clone, Debug, PartialEq, Default)]
pub struct TranslationUnit {
    pub items: Vec<ExternalDecl>,
    /// Identifiers that occurred in code dropped by parse-error recovery: a declaration of
    /// one of them may have been lost, so sema does not report them as undeclared (no
    /// cascade of spurious errors after a syntax error).
    pub recovered_names: std::collections::HashSet<String>,
}

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum UnaryOp {
    Plus,
    Neg,
    Not,
    BitNot,
    Deref,
    AddrOf,
    PreInc,
    PreDec,
    PostInc,
    PostDec,
}

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum BinOp {
    Mul,
    Div,
    Rem,
    Add,
    Sub,
    Shl,
    Shr,
    Lt,
    Gt,
    Le,
    Ge,
    Eq,
    Ne,
    BitAnd,
    BitXor,
    BitOr,
    LogAnd,
    LogOr,
}

impl BinOp {
    pub fn symbol(self) -> &'static str {
        match self {
            BinOp::Mul => "*",
            BinOp::Div => "/",
            BinOp::Rem => "%",
            BinOp::Add => "+",
            BinOp::Sub => "-",
            BinOp::Shl => "<<",
            BinOp::Shr => ">>",
            BinOp::Lt => "<",
            BinOp::Gt => ">",
            BinOp::Le => "<=",
            BinOp::Ge => ">=",
            BinOp::Eq => "==",
            BinOp::Ne => "!=",
            BinOp::BitAnd => "&",
            BinOp::BitXor => "^",
            BinOp::BitOr => "|",
            BinOp::LogAnd => "&&",
            BinOp::LogOr => "||",
        }
    }
}

/// Floating literal suffix: none (double), `f` (float), `h` (half).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum FloatSuffix {
    None,
    F,
    H,
}

#[derive(Clone, Debug, PartialEq)]
pub enum ExprKind {
    IntLit {
        value: u64,
        unsigned: bool,
        long: bool,
        /// Written in hex or octal (C99 6.4.4.1 picks unsigned types for those too).
        non_decimal: bool,
    },
    FloatLit {
        value: f64,
        suffix: FloatSuffix,
    },
    CharLit(i64),
    StringLit(String),
    Ident(String),
    Unary(UnaryOp, Box<Expr>),
    /// `a op b`; the last span is the operator's (where clang points its diagnostics).
    Binary(BinOp, Box<Expr>, Box<Expr>, Span),
    /// `a = b` (op `None`) or `a op= b`; the last span is the operator's.
    Assign(Option<BinOp>, Box<Expr>, Box<Expr>, Span),
    Cond(Box<Expr>, Box<Expr>, Box<Expr>),
    /// GNU `a ?: b`: `a` if it is nonzero, else `b`; `a` is evaluated once.
    CondOmitted(Box<Expr>, Box<Expr>),
    /// GNU statement expression `({ … })`: the value of its last expression statement.
    StmtExpr(Box<Stmt>),
    Comma(Box<Expr>, Box<Expr>),
    Call(Box<Expr>, Vec<Expr>),
    Index(Box<Expr>, Box<Expr>),
    Member {
        base: Box<Expr>,
        name: String,
        name_span: Span,
        arrow: bool,
    },
    Cast(Box<TypeName>, Box<Expr>),
    /// `(float4)(a, b.xy, c)` (OpenCL C 2.0 §6.1.6).
    VectorLit(Box<TypeName>, Vec<Expr>),
    SizeofExpr(Box<Expr>),
    SizeofType(Box<TypeName>),
    AlignofType(Box<TypeName>),
    VecStep(Box<Expr>),
    VecStepType(Box<TypeName>),
    /// `(T){ … }` (C99 6.5.2.5): an unnamed object of type `T`.
    CompoundLit(Box<TypeName>, Box<Initializer>),
    /// `^ (params) { … }` (OpenCL C 2.0 §1.12.3): a Block literal.
    BlockLit(Box<BlockLiteral>),
    /// Placeholder after a syntax error (already diagnosed).
    Error,
}

/// A Block literal `^ ret (params) { body }`; the return type is optional (inferred from the
/// `return` statements) and so is an empty or `(void)` parameter list (§1.12.3).
#[derive(Clone, Debug, PartialEq)]
pub struct BlockLiteral {
    pub ret: Option<TypeName>,
    pub params: Vec<ParamDecl>,
    pub variadic: bool,
    pub body: Stmt,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Expr {
    pub kind: ExprKind,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub enum ForInit {
    Decl(Declaration),
    Expr(Expr),
}

#[derive(Clone, Debug, PartialEq)]
pub enum StmtKind {
    Compound(Vec<Stmt>),
    Decl(Declaration),
    Expr(Option<Expr>),
    If(Expr, Box<Stmt>, Option<Box<Stmt>>),
    While(Expr, Box<Stmt>),
    DoWhile(Box<Stmt>, Expr),
    For(Option<Box<ForInit>>, Option<Expr>, Option<Expr>, Box<Stmt>),
    Switch(Expr, Box<Stmt>),
    Case(Expr, Box<Stmt>),
    /// GNU case range `case lo ... hi:`.
    CaseRange(Expr, Expr, Box<Stmt>),
    /// `_Static_assert(cond, "message")` (C11 6.7.10) at block scope.
    StaticAssert(StaticAssert),
    Default(Box<Stmt>),
    Break,
    Continue,
    Return(Option<Expr>),
    Goto(String),
    Label(String, Box<Stmt>),
    /// Placeholder after a syntax error (already diagnosed).
    Error,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Stmt {
    pub kind: StmtKind,
    pub span: Span,
}
