//! The reader never panics: truncated modules, mutated words and random words all give `Ok` or
//! `Err`, and whatever reads back writes back to the identical words, disassembles, and
//! assembles again without panicking. The assembler never panics on mutated text either.

use spv::{read_bytes, read_words, MAGIC};

/// xorshift64*: a small deterministic PRNG so failures reproduce.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

fn word(op: u32, rest: &[u32]) -> Vec<u32> {
    let mut v = vec![((rest.len() as u32 + 1) << 16) | op];
    v.extend_from_slice(rest);
    v
}

/// A hand-encoded module (opcode numbers from the SPIR-V spec 3.x tables) used as the fuzz seed.
fn seed() -> Vec<u32> {
    let s = |t: &str| -> Vec<u32> {
        let mut b = t.as_bytes().to_vec();
        let zeros = 4 - b.len() % 4;
        b.resize(b.len() + zeros, 0);
        b.chunks(4)
            .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect()
    };
    let mut w = vec![MAGIC, 0x0001_0000, 0, 20, 0];
    w.extend(word(17, &[6])); // OpCapability Addresses
    w.extend(word(17, &[4])); // OpCapability Kernel
    w.extend(word(17, &[11])); // OpCapability Int64
    let mut imp = vec![1];
    imp.extend(s("OpenCL.std"));
    w.extend(word(11, &imp)); // %1 = OpExtInstImport "OpenCL.std"
    w.extend(word(14, &[2, 2])); // OpMemoryModel Physical64 OpenCL
    let mut ep = vec![6, 5];
    ep.extend(s("k"));
    w.extend(word(15, &ep)); // OpEntryPoint Kernel %5 "k"
    w.extend(word(16, &[5, 17, 1, 1, 1])); // OpExecutionMode %5 LocalSize 1 1 1
    w.extend(word(71, &[5, 44, 4])); // OpDecorate %5 Alignment 4
    w.extend(word(19, &[2])); // %2 = OpTypeVoid
    w.extend(word(21, &[3, 32, 0])); // %3 = OpTypeInt 32 0
    w.extend(word(21, &[7, 64, 0])); // %7 = OpTypeInt 64 0
    w.extend(word(33, &[4, 2])); // %4 = OpTypeFunction %2
    w.extend(word(43, &[3, 8, 42])); // %8 = OpConstant %3 42
    w.extend(word(43, &[7, 9, 1, 2])); // %9 = OpConstant %7 0x200000001
    w.extend(word(32, &[10, 7, 3])); // %10 = OpTypePointer Function %3
    w.extend(word(54, &[2, 5, 0, 4])); // %5 = OpFunction %2 None %4
    w.extend(word(248, &[11])); // %11 = OpLabel
    w.extend(word(59, &[10, 12, 7])); // %12 = OpVariable %10 Function
    w.extend(word(62, &[12, 8, 3, 4])); // OpStore %12 %8 Volatile|Aligned 4
    w.extend(word(12, &[3, 13, 1, 141, 8])); // %13 = OpExtInst %3 %1 s_abs %8
    w.extend(word(251, &[8, 14, 1, 15])); // OpSwitch %8 %14 1 %15
    w.extend(word(248, &[14])); // %14 = OpLabel
    w.extend(word(253, &[])); // OpReturn
    w.extend(word(248, &[15])); // %15 = OpLabel
    w.extend(word(253, &[])); // OpReturn
    w.extend(word(56, &[])); // OpFunctionEnd
    w
}

fn check(words: &[u32]) {
    if let Ok(m) = read_words(words) {
        assert_eq!(m.to_words(), words, "read/write round trip");
        let text = spv::disassemble(&m);
        let _ = spv::assemble(&text);
        if let Some(i) = m.instructions.last() {
            let _ = spv::instruction_text(&m, i);
        }
    }
}

#[test]
fn seed_reads_and_round_trips() {
    let w = seed();
    let m = read_words(&w).expect("seed module reads");
    assert_eq!(m.instructions.len(), 26);
    assert_eq!(m.to_words(), w);
}

#[test]
fn truncations_never_panic() {
    let w = seed();
    for len in 0..w.len() {
        check(&w[..len]);
        let bytes: Vec<u8> = w.iter().flat_map(|x| x.to_le_bytes()).collect();
        let _ = read_bytes(&bytes[..len * 4 + len % 4]);
    }
}

#[test]
fn mutations_never_panic() {
    let base = seed();
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    for _ in 0..20_000 {
        let mut w = base.clone();
        let n = 1 + rng.below(4);
        for _ in 0..n {
            let i = 5 + rng.below(w.len() - 5);
            match rng.below(5) {
                0 => w[i] = rng.next() as u32,
                1 => w[i] ^= 1 << rng.below(32),
                2 => w[i] = (w[i] & 0xffff) | ((rng.below(8) as u32) << 16),
                3 => w.insert(i, rng.below(32) as u32),
                _ => {
                    w.remove(i);
                }
            }
        }
        check(&w);
    }
}

#[test]
fn random_words_never_panic() {
    let mut rng = Rng(12345);
    for _ in 0..5_000 {
        let len = rng.below(40);
        let mut w: Vec<u32> = (0..len)
            .map(|_| {
                // Mostly small instruction-like words so parsing gets past the first check.
                let r = rng.next();
                if r % 3 < 1 {
                    ((r >> 8) % 6 + 1) as u32 * 0x1_0000 + ((r >> 16) % 400) as u32
                } else {
                    (r >> 32) as u32 % 64
                }
            })
            .collect();
        if len >= 5 {
            w[0] = MAGIC;
            w[1] = 0x0001_0000 | ((rng.below(8) as u32) << 8);
            w[3] = 64;
        }
        check(&w);
    }
}

#[test]
fn assembler_never_panics_on_mutated_text() {
    let m = read_words(&seed()).unwrap();
    let text = spv::disassemble(&m);
    assert_eq!(spv::assemble(&text).unwrap().to_words(), seed());
    let pieces = [
        "%",
        "=",
        "\"",
        "\\",
        ";",
        "\n",
        " ",
        "0x",
        "-",
        "|",
        "Op",
        "OpConstant",
        "%3",
        "1e99",
        "0x1p+99999",
        "-0x1.fffffffffffffffffp+3",
        "Aligned",
        "None",
        "%7 = ",
        "OpSwitch %8 %14",
        "4294967296",
        "-9223372036854775809",
        "é",
        "OpExtInst %3 %1 ",
    ];
    let chars: Vec<char> = text.chars().collect();
    let mut rng = Rng(777);
    for _ in 0..3_000 {
        let mut t = chars.clone();
        for _ in 0..1 + rng.below(3) {
            if t.is_empty() {
                break;
            }
            let i = rng.below(t.len());
            match rng.below(3) {
                0 => {
                    t.remove(i);
                }
                1 => {
                    let p = pieces[rng.below(pieces.len())];
                    for (k, c) in p.chars().enumerate() {
                        t.insert(i + k, c);
                    }
                }
                _ => t.truncate(i),
            }
        }
        let s: String = t.into_iter().collect();
        let _ = spv::assemble(&s);
    }
    for _ in 0..2_000 {
        let s: String = (0..rng.below(30))
            .map(|_| pieces[rng.below(pieces.len())])
            .collect::<Vec<_>>()
            .join(" ");
        let _ = spv::assemble(&s);
    }
}
