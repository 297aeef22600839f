//! The inputs tried: special values (±0, ±∞, NaN, subnormals, the extreme normals, small
//! integers and half-integers), known hard cases (huge trigonometric arguments, overflow and
//! underflow thresholds, arguments near 1 and near poles), and seeded random inputs drawn half
//! from each function's interesting interval and half uniformly over bit patterns, one in 16 with a
//! first argument near the subnormal range (subnormal results).

use crate::kind::Kind;
use crate::reference::base_name;
use crate::subject::{Input, Shape};

/// A small, fast, seedable generator (SplitMix64).
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
    /// Uniform in [0, 1).
    pub fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 * 2f64.powi(-53)
    }
    /// Uniform integer in [lo, hi].
    pub fn int(&mut self, lo: i32, hi: i32) -> i32 {
        let span = (i64::from(hi) - i64::from(lo) + 1) as u64;
        (i64::from(lo) + (self.next_u64() % span) as i64) as i32
    }
}

/// The special values of `kind` every function is tried on.
pub fn specials(kind: Kind) -> Vec<f64> {
    let sub = kind.min_subnormal();
    let normal = kind.min_normal();
    let max = kind.max_finite();
    let one_up = kind.from_bits(kind.to_bits(1.0) + 1);
    let one_down = kind.from_bits(kind.to_bits(1.0) - 1);
    let mut values = vec![
        0.0,
        f64::INFINITY,
        f64::NAN,
        sub,
        normal - sub,
        normal,
        max,
        1.0,
        one_up,
        one_down,
    ];
    values.extend([
        0.5,
        1.5,
        2.0,
        2.5,
        3.0,
        0.25,
        0.75,
        10.0,
        100.0,
        core::f64::consts::PI,
        core::f64::consts::FRAC_PI_2,
    ]);
    let mut all: Vec<f64> = values
        .iter()
        .flat_map(|v| [*v, -*v])
        .map(|v| kind.round(v))
        .collect();
    dedup(&mut all);
    all
}

/// A smaller set for three-argument functions (its cube is tried).
fn specials_small(kind: Kind) -> Vec<f64> {
    let mut all: Vec<f64> = [
        0.0,
        f64::INFINITY,
        f64::NAN,
        kind.min_subnormal(),
        kind.max_finite(),
        1.0,
        0.5,
    ]
    .iter()
    .flat_map(|v| [*v, -*v])
    .collect();
    dedup(&mut all);
    all
}

/// Integer arguments of ldexp, pown and rootn.
pub fn int_specials() -> Vec<i32> {
    vec![
        0,
        1,
        -1,
        2,
        -2,
        3,
        -3,
        4,
        5,
        -5,
        7,
        8,
        16,
        31,
        64,
        100,
        -100,
        127,
        128,
        149,
        150,
        1023,
        1074,
        2000,
        -2000,
        i32::MAX,
        i32::MIN,
        i32::MIN + 1,
    ]
}

fn dedup(values: &mut Vec<f64>) {
    let mut seen = std::collections::HashSet::new();
    values.retain(|v| seen.insert(v.to_bits()));
}

/// Arguments known to be hard for the function family of `name` (given in `f64`; each is used
/// rounded to the type together with its two neighbours).
fn hard_values(name: &str) -> Vec<f64> {
    let pi_numerators = [
        22.0,
        355.0,
        103993.0,
        104348.0,
        208341.0,
        312689.0,
        833719.0,
        1146408.0,
        4272943.0,
        5419351.0,
        80143857.0,
        165707065.0,
        245850922.0,
        411557987.0,
        1068966896.0,
        2549491779.0,
        6167950454.0,
        14885392687.0,
        21053343141.0,
        1783366216531.0,
        3587785776203.0,
        8958937768937.0,
    ];
    match base_name(name) {
        "sin" | "cos" | "tan" | "sincos" => {
            let mut v = vec![
                1e22,
                1e300,
                1.7976931348623157e308,
                3.4028234663852886e38,
                65504.0,
                6381956970095103.0 * 2f64.powi(797),
                5.319372648326541e255,
                core::f64::consts::FRAC_PI_2,
                core::f64::consts::PI,
                core::f64::consts::FRAC_PI_4,
                2.356194490192345,
                1.5707963705062866,
                3.1415927410125732,
                6.2831854820251465,
                2f64.powi(24),
                2f64.powi(60),
                2f64.powi(120),
                2f64.powi(1000),
                1e-8,
                7.0,
                16.0,
                33.0,
                100.0,
                1e5,
                1e10,
            ];
            v.extend(pi_numerators);
            v.extend(pi_numerators.iter().map(|n| n / 2.0));
            v
        }
        "sinpi" | "cospi" | "tanpi" => vec![
            0.5,
            0.25,
            0.75,
            1.25,
            0.125,
            1e-8,
            1e15 + 0.5,
            2f64.powi(52) - 0.5,
            2f64.powi(52),
            2f64.powi(53),
            8388607.5,
            8388608.0,
            4194303.75,
            1023.5,
            2047.5,
            1e-300,
            2f64.powi(-30),
        ],
        "exp" | "expm1" | "sinh" | "cosh" => vec![
            709.782712893384,
            709.7827128933841,
            710.4758600739439,
            -708.3964185322641,
            -745.1332191019411,
            -745.1332191019412,
            -744.44007192138,
            88.72283935546875,
            88.72283172607422,
            89.41598629223294,
            -87.33654022216797,
            -103.97207641601562,
            -103.97208404541016,
            11.089866638183594,
            11.7835,
            -9.703125,
            -17.328679513998633,
            -16.635532333438686,
            1e-300,
            2f64.powi(-60),
            2f64.powi(-30),
            1e-5,
            core::f64::consts::LN_2,
            1.0,
            2.0,
            25.0,
            50.0,
            100.0,
        ],
        "exp2" => vec![
            1024.0,
            1023.9999999999999,
            -1074.0,
            -1075.0,
            -1022.0,
            -1022.5,
            128.0,
            127.99999,
            -149.0,
            -150.0,
            -126.0,
            -126.5,
            16.0,
            15.999,
            -24.0,
            -25.0,
            -14.0,
            1e-300,
            2f64.powi(-60),
        ],
        "exp10" => vec![
            308.25471555991675,
            308.2547155599168,
            -323.3062153431158,
            -307.6526555685888,
            38.53183944498959,
            -44.85346,
            -37.92977945308478,
            4.816241,
            -7.22472,
            -4.5154,
            1e-300,
            1.0,
            2.0,
            22.0,
            23.0,
        ],
        "log" | "log2" | "log10" | "log1p" => vec![
            1.0000000000000002,
            0.9999999999999999,
            1.0000001192092896,
            0.9999999403953552,
            1.0009765625,
            0.99951171875,
            core::f64::consts::E,
            10.0,
            1e-300,
            5e-324,
            1.401298464324817e-45,
            5.960464477539063e-8,
            -0.9999999999999999,
            -0.99999994,
            -0.99951171875,
            1e-10,
            1.7976931348623157e308,
            3.4028234663852886e38,
            65504.0,
        ],
        "tgamma" => vec![
            171.6243769563027,
            171.62437695630274,
            171.5,
            35.04010009765625,
            35.040096,
            9.0,
            8.9,
            -1.0000000000000002,
            -0.9999999999999999,
            -2.0000000000000004,
            -170.5,
            -170.99999999999997,
            -41.5,
            -10.5,
            1e-300,
            1e-40,
            0.5,
            1.5,
            -0.5,
            -1.5,
            2.0,
            3.0,
        ],
        "lgamma" | "lgamma_r" => vec![
            -2.4570247382208,
            -2.747682646727412,
            -3.143580375287766,
            -3.955294284917997,
            1.0000000000000002,
            0.9999999999999999,
            2.0000000000000004,
            1.9999999999999998,
            1e-300,
            1e306,
            2.55e305,
            4e36,
            1e300,
            -1e-300,
            -0.5,
            -1.5,
            -100.5,
        ],
        "erf" | "erfc" => vec![
            26.5,
            27.2,
            27.226017111108366,
            9.19,
            10.0,
            10.0546875,
            4.0,
            5.9,
            3.0,
            0.5,
            1e-300,
            2f64.powi(-30),
            -5.9,
            -3.0,
        ],
        "acos" | "asin" | "acospi" | "asinpi" | "atanh" => vec![
            0.9999999999999999,
            0.99999994,
            0.99951171875,
            0.5,
            0.4999999,
            1e-8,
            1e-300,
            core::f64::consts::FRAC_1_SQRT_2,
        ],
        "atan" | "atanpi" | "asinh" | "acosh" => vec![
            1.0000000000000002,
            1e300,
            1e19,
            1e-8,
            1e-300,
            0.9999999999999999,
            3.4028234663852886e38,
            65504.0,
        ],
        "sqrt" | "rsqrt" | "cbrt" | "recip" => vec![
            2.0,
            3.0,
            0.5,
            1e-300,
            5e-324,
            1.401298464324817e-45,
            5.960464477539063e-8,
            1.7976931348623157e308,
            0.9999999999999999,
            1.0000000000000002,
            27.0,
            1e-30,
        ],
        "tanh" => vec![19.0, 19.06, 9.01, 4.5, 2f64.powi(-30), 0.5493061443340549],
        _ => Vec::new(),
    }
}

/// Argument pairs known to be hard for two-argument functions.
fn hard_pairs(name: &str) -> Vec<(f64, f64)> {
    match base_name(name) {
        "pow" | "powr" => vec![
            (1.0000000000000002, 4503599627370496.0),
            (0.9999999999999999, -9007199254740992.0),
            (1.0000001192092896, 16777216.0),
            (0.9999999403953552, -33554432.0),
            (2.0, 1023.9999999999999),
            (2.0, -1074.0),
            (2.0, -1075.0),
            (2.0, 127.99999),
            (2.0, -149.5),
            (10.0, 308.25),
            (0.5, 1074.5),
            (1.0009765625, 1024.0),
            (2.0, 15.99),
            (-1.0, 9007199254740992.0),
            (-1.0, 9007199254740991.0),
            (-8.0, 1.0 / 3.0),
            (-2.0, -1074.0),
            (-2.0, -1073.0),
            (1e300, 1.0000000000000002),
            (1e-300, -1.0000000000000002),
        ],
        "hypot" => vec![
            (1.7976931348623157e308, 1.7976931348623157e308),
            (5e-324, 5e-324),
            (3e-320, 4e-320),
            (3.0, 4.0),
            (1e300, 1e-300),
            (3.4028234663852886e38, 3.4028234663852886e38),
            (65504.0, 65504.0),
        ],
        "fmod" | "remainder" | "remquo" => vec![
            (1.7976931348623157e308, 5e-324),
            (1.7976931348623157e308, 3.0),
            (3.4028234663852886e38, 1.401298464324817e-45),
            (65504.0, 5.960464477539063e-8),
            (7.0, 2.0),
            (5.0, 2.0),
            (-7.5, 2.5),
            (6.5, -2.0),
        ],
        "atan2" | "atan2pi" => vec![
            (1.0, 1.0),
            (1e-300, 1e300),
            (1e300, 1e-300),
            (-1.0, -1.0),
            (5e-324, -1.0),
            (1.0000000000000002, 1.0),
        ],
        _ => Vec::new(),
    }
}

/// The neighbours below and above `x` in `kind` (for finite nonzero x).
fn neighbours(kind: Kind, x: f64) -> [f64; 3] {
    let bits = kind.to_bits(x);
    if !x.is_finite() || x == 0.0 {
        return [x, x, x];
    }
    [x, kind.from_bits(bits - 1), kind.from_bits(bits + 1)]
}

/// The fixed inputs of a function: special values (all combinations for two and three
/// arguments) and hard cases.
pub fn fixed_inputs(name: &str, shape: Shape, kind: Kind) -> Vec<Input> {
    let specials = specials(kind);
    let mut inputs = Vec::new();
    let one = |x: f64| Input {
        x: [x, 0.0, 0.0],
        n: 0,
    };
    match shape {
        Shape::Unary | Shape::Pair | Shape::WithInt | Shape::IntResult => {
            inputs.extend(specials.iter().map(|&x| one(x)));
        }
        Shape::IntArg => {
            for &x in &specials {
                for n in int_specials() {
                    inputs.push(Input {
                        x: [x, 0.0, 0.0],
                        n,
                    });
                }
            }
        }
        Shape::Binary | Shape::Remquo | Shape::Compare => {
            for &x in &specials {
                for &y in &specials {
                    inputs.push(Input {
                        x: [x, y, 0.0],
                        n: 0,
                    });
                }
            }
        }
        Shape::Ternary => {
            let small = specials_small(kind);
            for &x in &small {
                for &y in &small {
                    for &z in &small {
                        inputs.push(Input { x: [x, y, z], n: 0 });
                    }
                }
            }
        }
    }
    for h in hard_values(name) {
        for sign in [1.0, -1.0] {
            for x in neighbours(kind, kind.round(sign * h)) {
                match shape {
                    Shape::IntArg => inputs.extend([2, 3, -3].map(|n| Input {
                        x: [x, 0.0, 0.0],
                        n,
                    })),
                    _ if shape.real_args() == 1 => inputs.push(one(x)),
                    _ => {}
                }
            }
        }
    }
    for (x, y) in hard_pairs(name) {
        for x in neighbours(kind, kind.round(x)) {
            for y in neighbours(kind, kind.round(y)) {
                inputs.push(Input {
                    x: [x, y, 0.0],
                    n: 0,
                });
            }
        }
    }
    inputs
}

/// The interval random real arguments of `name` are drawn from (the other half of the draws
/// are uniform over bit patterns).
fn interval(name: &str, kind: Kind, arg: usize) -> (f64, f64) {
    let ln2 = core::f64::consts::LN_2;
    // log2 of the smallest subnormal and just above log2 of the largest finite value.
    let low_exp = -(kind.bias() + kind.mant_bits() as i32) as f64 - 1.0;
    let high_exp = kind.bias() as f64 + 1.0;
    let max_gamma = match kind {
        Kind::Double => 172.0,
        Kind::Float => 35.5,
        Kind::Half => 9.5,
    };
    match (base_name(name), arg) {
        ("acos" | "asin" | "acospi" | "asinpi" | "atanh", _) => (-1.0, 1.0),
        ("acosh", _) => (1.0, 1e4),
        ("log" | "log2" | "log10" | "sqrt" | "rsqrt", _) => (0.0, 4.0),
        ("log1p", _) => (-1.0, 4.0),
        ("exp" | "expm1", _) => (low_exp * ln2, high_exp * ln2),
        ("exp2", _) => (low_exp, high_exp),
        ("exp10", _) => (
            low_exp * core::f64::consts::LOG10_2,
            high_exp * core::f64::consts::LOG10_2,
        ),
        ("sinh" | "cosh", _) => (-(high_exp + 1.0) * ln2, (high_exp + 1.0) * ln2),
        ("tanh", _) => (-10.0, 10.0),
        ("erf", _) => (-6.0, 6.0),
        ("erfc", _) => (-6.0, (-low_exp * ln2).sqrt() + 1.0),
        ("sin" | "cos" | "tan" | "sincos", _) => (-100.0, 100.0),
        ("sinpi" | "cospi" | "tanpi", _) => (-4.0, 4.0),
        ("tgamma", _) => (-20.0, max_gamma),
        ("lgamma" | "lgamma_r", _) => (-20.0, 40.0),
        ("pow", 0) => (-4.0, 4.0),
        ("pow" | "powr", 1) => (-40.0, 40.0),
        ("powr", 0) => (0.0, 4.0),
        ("pown", 0) => (-4.0, 4.0),
        ("fmod" | "remainder" | "remquo", 0) => (-1000.0, 1000.0),
        ("fmod" | "remainder" | "remquo", _) => (-10.0, 10.0),
        // Where the common functions are defined: a in [0, 1], edge0 < edge1, min <= max.
        ("mix", 2) => (0.0, 1.0),
        ("smoothstep", 0) | ("fclamp", 1) => (-10.0, 0.0),
        ("smoothstep", 1) | ("fclamp", 2) => (0.0, 10.0),
        ("smoothstep", 2) | ("fclamp", 0) => (-12.0, 12.0),
        _ => (-10.0, 10.0),
    }
}

/// A random finite value of `kind` from a uniform bit pattern.
fn random_finite(kind: Kind, rng: &mut Rng) -> f64 {
    loop {
        let x = kind.from_bits(rng.next_u64());
        if x.is_finite() {
            return x;
        }
    }
}

/// One random input for `name`.
pub fn random_input(name: &str, shape: Shape, kind: Kind, rng: &mut Rng) -> Input {
    let mut input = Input::default();
    let from_interval = rng.next_u64() & 1 == 0;
    for arg in 0..shape.real_args() {
        input.x[arg] = if from_interval {
            let (lo, hi) = interval(name, kind, arg);
            kind.round(lo + (hi - lo) * rng.unit())
        } else {
            random_finite(kind, rng)
        };
    }
    if rng.next_u64() & 15 == 0 {
        // One draw in 16: a first argument of magnitude 2^u, u uniform from the smallest
        // subnormal to a little above the smallest normal, where the functions that behave
        // like c·x at 0 have subnormal results (their error is measured in the subnormal ulp).
        let low_exp = -(kind.bias() + kind.mant_bits() as i32) as f64;
        let high_exp = (3 - kind.bias()) as f64;
        let magnitude = kind.round((low_exp + (high_exp - low_exp) * rng.unit()).exp2());
        input.x[0] = if rng.next_u64() & 1 == 0 {
            magnitude
        } else {
            -magnitude
        };
    }
    let base = base_name(name);
    if base == "pow" && from_interval && rng.next_u64() & 3 == 0 {
        // Negative bases need integral exponents.
        input.x[1] = kind.round(input.x[1].round());
    }
    if matches!(base, "fma" | "mad") && rng.next_u64() & 3 == 0 {
        // Cancellation: z close to -x*y.
        input.x[2] = -kind.round(input.x[0] * input.x[1]);
    }
    if shape.has_int_arg() {
        let span = 2 * (kind.bias() + kind.mant_bits() as i32) + 8;
        input.n = match base {
            "ldexp" => rng.int(-span, span),
            "pown" => rng.int(-100, 100),
            _ => rng.int(-20, 20),
        };
    }
    input
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn specials_are_values_of_the_type() {
        for kind in Kind::ALL {
            let values = specials(kind);
            assert!(values.iter().all(|v| kind.holds(*v)), "{kind:?}");
            assert!(values.iter().any(|v| v.is_nan()));
            assert!(values.contains(&kind.min_subnormal()) && values.contains(&-kind.max_finite()));
            assert!(values.iter().any(|v| *v == 0.0 && v.is_sign_negative()));
        }
    }

    #[test]
    fn random_inputs_are_values_of_the_type() {
        let mut rng = Rng::new(7);
        for kind in Kind::ALL {
            for _ in 0..1000 {
                let input = random_input("pow", Shape::Binary, kind, &mut rng);
                assert!(kind.holds(input.x[0]) && kind.holds(input.x[1]));
            }
        }
    }
}
