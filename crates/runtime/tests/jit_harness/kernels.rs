//! Kernels several JIT test files run (the bench's 5-point stencil and 5×5 convolution), with
//! their references computed in Rust, and deterministic inputs.

/// The bench's stencil: borders copied, the inside blurred.
pub const STENCIL: &str =
    "__kernel void stencil(int n, __global const float *in, __global float *out) {
    int x = get_global_id(0), y = get_global_id(1);
    int i = y * n + x;
    if (x == 0 || y == 0 || x == n - 1 || y == n - 1) {
        out[i] = in[i];
        return;
    }
    out[i] = 0.5f * in[i] + 0.125f * (in[i - 1] + in[i + 1] + in[i - n] + in[i + n]);
}";

/// [`STENCIL`] on an `n`×`n` image, in `f32` in the kernel's order of operations.
pub fn stencil_reference(n: usize, input: &[f32]) -> Vec<f32> {
    let mut out = vec![0.0f32; n * n];
    for y in 0..n {
        for x in 0..n {
            let i = y * n + x;
            out[i] = if x == 0 || y == 0 || x == n - 1 || y == n - 1 {
                input[i]
            } else {
                0.5 * input[i] + 0.125 * (input[i - 1] + input[i + 1] + input[i - n] + input[i + n])
            };
        }
    }
    out
}

/// The bench's conv5: counted loops `for (d = -2; d <= 2; d++)` over a `__constant` filter,
/// the reads clamped to the image.
pub const CONV5: &str =
    "__kernel void conv5(int n, __constant float *filt, __global const float *in,
                    __global float *out) {
    int x = get_global_id(0), y = get_global_id(1);
    float acc = 0.0f;
    for (int dy = -2; dy <= 2; dy++) {
        for (int dx = -2; dx <= 2; dx++) {
            int xx = clamp(x + dx, 0, n - 1);
            int yy = clamp(y + dy, 0, n - 1);
            acc += filt[(dy + 2) * 5 + dx + 2] * in[yy * n + xx];
        }
    }
    out[y * n + x] = acc;
}";

/// [`CONV5`] on an `n`×`n` image, in `f32` in the kernel's order of operations.
pub fn conv5_reference(n: usize, filt: &[f32], input: &[f32]) -> Vec<f32> {
    let mut out = vec![0.0f32; n * n];
    for y in 0..n as i32 {
        for x in 0..n as i32 {
            let mut acc = 0.0f32;
            for dy in -2..=2i32 {
                for dx in -2..=2i32 {
                    let xx = (x + dx).clamp(0, n as i32 - 1);
                    let yy = (y + dy).clamp(0, n as i32 - 1);
                    let f = filt[((dy + 2) * 5 + dx + 2) as usize];
                    acc += f * input[(yy * n as i32 + xx) as usize];
                }
            }
            out[(y * n as i32 + x) as usize] = acc;
        }
    }
    out
}

/// `C = A × B` for `n`×`n` matrices as tiled kernels with `ts`×`ts` tiles sum: k ascending
/// over whole tiles, zeros past `n`.
pub fn tiled_reference(n: usize, ts: usize, a: &[f32], b: &[f32]) -> Vec<f32> {
    let padded = n.div_ceil(ts) * ts;
    let at = |r: usize, k: usize| if k < n { a[r * n + k] } else { 0.0 };
    let bt = |k: usize, c: usize| if k < n { b[k * n + c] } else { 0.0 };
    let mut out = vec![0.0f32; n * n];
    for r in 0..n {
        for c in 0..n {
            let mut acc = 0.0f32;
            for k in 0..padded {
                acc += at(r, k) * bt(k, c);
            }
            out[r * n + c] = acc;
        }
    }
    out
}

/// Pseudo-random floats in [-1, 1) (exact in `f32`).
pub fn floats(count: usize, seed: u32) -> Vec<f32> {
    let mut x = seed.wrapping_mul(2_654_435_761).wrapping_add(12345);
    (0..count)
        .map(|_| {
            x = x.wrapping_mul(1_103_515_245).wrapping_add(12345);
            ((x >> 8) % 2048) as f32 / 1024.0 - 1.0
        })
        .collect()
}
