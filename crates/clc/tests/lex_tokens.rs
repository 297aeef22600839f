//! The lexer (C99 6.4): token kinds, spellings, spans, spacing flags, comments, line splices,
//! literals, punctuators and digraphs, errors.

use clc::diag::Diagnostics;
use clc::lex::{lex, tokens_to_string, Punct, Token, TokenKind};
use clc::source::FileId;

fn toks(src: &str) -> Vec<Token> {
    let mut d = Diagnostics::new();
    let t = lex(FileId(0), src, &mut d);
    assert!(d.is_empty(), "{src:?}: {:?}", d.iter().collect::<Vec<_>>());
    t
}

fn kinds_texts(src: &str) -> Vec<(TokenKind, String)> {
    toks(src).into_iter().map(|t| (t.kind, t.text)).collect()
}

fn errors(src: &str) -> Vec<String> {
    let mut d = Diagnostics::new();
    lex(FileId(0), src, &mut d);
    d.iter().map(|d| d.message.clone()).collect()
}

#[test]
fn identifiers_and_keywords_are_idents() {
    use TokenKind::*;
    assert_eq!(
        kinds_texts("kernel void _x1 $y float4 __global"),
        vec![
            (Ident, "kernel".into()),
            (Ident, "void".into()),
            (Ident, "_x1".into()),
            (Ident, "$y".into()),
            (Ident, "float4".into()),
            (Ident, "__global".into()),
        ]
    );
}

#[test]
fn pp_numbers() {
    // C99 6.4.8: includes things that are not valid constants, like 1.2.3 and 0x1e+1.
    let texts: Vec<String> =
        toks("0 123u 0x1Ful 1.5f .5 1e-3 0x1p+4 1.2.3 0x1e+1 1..2 08 1_000 5.f")
            .into_iter()
            .map(|t| {
                assert_eq!(t.kind, TokenKind::Number, "{}", t.text);
                t.text
            })
            .collect();
    assert_eq!(
        texts,
        [
            "0", "123u", "0x1Ful", "1.5f", ".5", "1e-3", "0x1p+4", "1.2.3", "0x1e+1", "1..2", "08",
            "1_000", "5.f"
        ]
    );
    // `+` after a non-exponent letter ends the number.
    assert_eq!(kinds_texts("1a+2").len(), 3);
}

#[test]
fn character_and_string_literals() {
    use TokenKind::*;
    assert_eq!(
        kinds_texts(r#"'a' '\'' '\\' L'x' u'y' U'z' "s" "a\"b" L"w" u8"u" u"v" "" '"'"#),
        vec![
            (CharLit, "'a'".into()),
            (CharLit, r"'\''".into()),
            (CharLit, r"'\\'".into()),
            (CharLit, "L'x'".into()),
            (CharLit, "u'y'".into()),
            (CharLit, "U'z'".into()),
            (StringLit, "\"s\"".into()),
            (StringLit, r#""a\"b""#.into()),
            (StringLit, "L\"w\"".into()),
            (StringLit, "u8\"u\"".into()),
            (StringLit, "u\"v\"".into()),
            (StringLit, "\"\"".into()),
            (CharLit, "'\"'".into()),
        ]
    );
    // A prefix letter not followed by a quote is an identifier.
    assert_eq!(kinds_texts("L u8 U")[1], (Ident, "u8".into()));
}

#[test]
fn all_punctuators_and_digraphs() {
    use Punct::*;
    let src = "[ ] ( ) { } . -> ++ -- & * + - ~ ! / % << >> < > <= >= == != ^ | && || ? : ; ... = *= /= %= += -= <<= >>= &= ^= |= , # ## <: :> <% %> %: %:%:";
    let want = [
        LBracket, RBracket, LParen, RParen, LBrace, RBrace, Dot, Arrow, PlusPlus, MinusMinus, Amp,
        Star, Plus, Minus, Tilde, Bang, Slash, Percent, Shl, Shr, Lt, Gt, Le, Ge, EqEq, Ne, Caret,
        Pipe, AmpAmp, PipePipe, Question, Colon, Semi, Ellipsis, Eq, StarEq, SlashEq, PercentEq,
        PlusEq, MinusEq, ShlEq, ShrEq, AmpEq, CaretEq, PipeEq, Comma, Hash, HashHash, LBracket,
        RBracket, LBrace, RBrace, Hash, HashHash,
    ];
    let got: Vec<TokenKind> = toks(src).into_iter().map(|t| t.kind).collect();
    let want: Vec<TokenKind> = want.iter().map(|p| TokenKind::Punct(*p)).collect();
    assert_eq!(got, want);
    for p in [Arrow, ShlEq, Ellipsis] {
        assert_eq!(toks(p.as_str())[0].kind, TokenKind::Punct(p));
    }
}

#[test]
fn maximal_munch() {
    // C99 6.4p4 and its EXAMPLE 2: x+++++y is x ++ ++ + y.
    let t: Vec<String> = toks("x+++++y a-->b c<<=d ..")
        .into_iter()
        .map(|t| t.text)
        .collect();
    assert_eq!(
        t,
        ["x", "++", "++", "+", "y", "a", "--", ">", "b", "c", "<<=", "d", ".", "."]
    );
}

#[test]
fn comments_are_white_space() {
    let t = toks("a/* x */b // line\nc /* multi\nline */ d e//\n/**/f");
    let texts: Vec<&str> = t.iter().map(|t| t.text.as_str()).collect();
    assert_eq!(texts, ["a", "b", "c", "d", "e", "f"]);
    assert!(t[1].leading_space && !t[1].line_start);
    assert!(t[2].line_start);
    // A comment spanning lines does not start a new line for the next token (it is one space).
    assert!(!t[3].line_start && t[3].leading_space);
    assert!(t[5].line_start && t[5].leading_space);
    // `//` inside a string is not a comment; `/*` inside `//` is nothing.
    assert_eq!(toks("\"//x\" // /* \ny").len(), 2);
}

#[test]
fn line_splices() {
    let t = toks("ab\\\ncd \"x\\\ny\" // comment \\\ncontinues\n#def\\\r\nine");
    let texts: Vec<&str> = t.iter().map(|t| t.text.as_str()).collect();
    assert_eq!(texts, ["abcd", "\"xy\"", "#", "define"]);
    // The span covers the raw text, splice included.
    assert_eq!((t[0].span.start, t[0].span.end), (0, 6));
}

#[test]
fn spans_and_flags() {
    let t = toks("  int x;\n\tfoo");
    let spans: Vec<(u32, u32)> = t.iter().map(|t| (t.span.start, t.span.end)).collect();
    assert_eq!(spans, [(2, 5), (6, 7), (7, 8), (10, 13)]);
    let flags: Vec<(bool, bool)> = t.iter().map(|t| (t.leading_space, t.line_start)).collect();
    assert_eq!(
        flags,
        [(true, true), (true, false), (false, false), (true, true)]
    );
}

#[test]
fn errors_and_unknown_tokens() {
    assert_eq!(errors("a /* never closed"), ["unterminated /* comment"]);
    assert_eq!(errors("'abc\nx"), ["missing terminating ' character"]);
    assert_eq!(errors("\"abc\nx"), ["missing terminating '\"' character"]);
    assert_eq!(
        errors("a @ ` \\ b"),
        [
            "invalid character '@' in source",
            "invalid character '`' in source",
            "invalid character '\\\\' in source"
        ]
    );
    let mut d = Diagnostics::new();
    let t = lex(FileId(0), "x 'unterminated\ny", &mut d);
    assert_eq!(t[1].kind, TokenKind::Unknown);
    assert_eq!(t[1].text, "'unterminated");
    assert_eq!(t[2].text, "y");
}

#[test]
fn non_ascii_is_kept_whole() {
    let t = toks("µs = \"é\";");
    assert_eq!(t[0].text, "µs");
    assert_eq!(t[2].text, "\"é\"");
}

#[test]
fn printing_tokens() {
    assert_eq!(
        tokens_to_string(&toks("a  +b\n  c(d)\n\n e")),
        "a +b\nc(d)\ne"
    );
}

/// Printing never merges or splits tokens: printing a token sequence glued without spaces and
/// lexing it again gives the same spellings (for every pair of a varied set of tokens).
#[test]
fn printing_round_trips_for_all_token_pairs() {
    let samples = [
        "a", "u8", "L", "1", "1e", ".5", "'c'", "\"s\"", "+", "-", "*", "/", "%", "<", ">", "<<",
        ">>", "=", "!", "&", "|", "^", ".", "..", "#", "##", ":", "%:", "<:", "-", "->", "++",
        "--", "?", "(", ")", ";", ",",
    ];
    let mut d = Diagnostics::new();
    for a in samples {
        for b in samples {
            // Tokens as if each came from a macro expansion with no white space between them.
            let mut t = lex(FileId(0), a, &mut d);
            let mut u = lex(FileId(0), b, &mut d);
            for x in u.iter_mut() {
                x.leading_space = false;
                x.line_start = false;
            }
            t.append(&mut u);
            let want: Vec<String> = t.iter().map(|t| t.text.clone()).collect();
            let printed = tokens_to_string(&t);
            let again: Vec<String> = lex(FileId(0), &printed, &mut d)
                .into_iter()
                .map(|t| t.text)
                .collect();
            assert_eq!(again, want, "{a:?} then {b:?} printed as {printed:?}");
        }
    }
}
