//! Error-distribution plots as PNG, with a minimal encoder (8-bit RGB, zlib from
//! `miniz_oxide`). Each picture has two panels: on top the largest error over the
//! input range (columns in the order of the first argument's bit patterns, -∞ … -0 | +0 … +∞,
//! with the bound as a red dashed line and 0.5 ulp as grey dots; red columns exceed the bound);
//! below, how many inputs had each error (log scale, bins of 1/16 ulp from 0 to 4 ulp, green up
//! to 0.5 ulp).

use std::path::{Path, PathBuf};

use crate::engine::{FunctionReport, Histogram, BINS, COLUMNS};

const WIDTH: usize = COLUMNS;
const TOP: usize = 200;
const GAP: usize = 8;
const BOTTOM: usize = 120;
const HEIGHT: usize = TOP + GAP + BOTTOM;

type Rgb = [u8; 3];
const WHITE: Rgb = [255, 255, 255];
const BLUE: Rgb = [40, 90, 200];
const RED: Rgb = [220, 30, 30];
const GREY: Rgb = [200, 200, 200];
const GREEN: Rgb = [30, 150, 60];
const BLACK: Rgb = [0, 0, 0];

struct Canvas {
    pixels: Vec<Rgb>,
}

impl Canvas {
    fn new() -> Canvas {
        Canvas {
            pixels: vec![WHITE; WIDTH * HEIGHT],
        }
    }
    fn set(&mut self, x: usize, y: usize, c: Rgb) {
        if x < WIDTH && y < HEIGHT {
            self.pixels[y * WIDTH + x] = c;
        }
    }
}

/// Draws the two panels of a histogram; `scale` is the error shown at the top of the upper
/// panel, `bound` the line drawn.
fn draw(h: &Histogram, bound: Option<f64>, scale: f64) -> Canvas {
    let mut c = Canvas::new();
    for x in 0..WIDTH {
        c.set(x, TOP - 1, GREY);
        c.set(x, HEIGHT - 1, GREY);
    }
    for y in 0..TOP {
        c.set(WIDTH / 2, y, GREY);
    }
    for (x, &e) in h.columns.iter().enumerate() {
        let height = if e.is_finite() {
            ((e / scale) * (TOP - 10) as f64).round() as usize
        } else {
            TOP
        };
        let colour = if bound.is_some_and(|b| e > b) {
            RED
        } else {
            BLUE
        };
        for y in 0..height.min(TOP) {
            c.set(x, TOP - 1 - y, colour);
        }
    }
    // Grey dots at 0.5 ulp (correctly rounded).
    let half = TOP - 1 - ((0.5 / scale) * (TOP - 10) as f64).round() as usize;
    for x in (0..WIDTH).step_by(4) {
        c.set(x, half, GREY);
    }
    if let Some(b) = bound {
        if b <= scale {
            let y = TOP - 1 - ((b / scale) * (TOP - 10) as f64).round() as usize;
            for x in (0..WIDTH).step_by(2) {
                c.set(x, y, RED);
            }
        }
    }
    let most = h.bins.iter().copied().max().unwrap_or(0).max(1) as f64;
    let bar = WIDTH / BINS;
    for (i, &count) in h.bins.iter().enumerate() {
        if count == 0 {
            continue;
        }
        let height =
            (((count as f64).ln_1p() / most.ln_1p()) * (BOTTOM - 4) as f64).round() as usize;
        for dx in 0..bar - 1 {
            for y in 0..height {
                c.set(
                    i * bar + dx,
                    HEIGHT - 1 - y,
                    if i * 8 < BINS { GREEN } else { BLACK },
                );
            }
        }
    }
    c
}

/// Encodes RGB pixels as a PNG file.
pub fn encode_png(width: usize, height: usize, rgb: &[[u8; 3]]) -> Vec<u8> {
    let mut raw = Vec::with_capacity(height * (1 + 3 * width));
    for row in rgb.chunks(width) {
        raw.push(0); // filter: none
        for p in row {
            raw.extend_from_slice(p);
        }
    }
    let mut png = b"\x89PNG\r\n\x1a\n".to_vec();
    let mut ihdr = Vec::new();
    ihdr.extend_from_slice(&(width as u32).to_be_bytes());
    ihdr.extend_from_slice(&(height as u32).to_be_bytes());
    ihdr.extend_from_slice(&[8, 2, 0, 0, 0]); // 8-bit RGB, deflate, no filter, no interlace
    chunk(&mut png, b"IHDR", &ihdr);
    chunk(
        &mut png,
        b"IDAT",
        &miniz_oxide::deflate::compress_to_vec_zlib(&raw, 6),
    );
    chunk(&mut png, b"IEND", &[]);
    png
}

fn chunk(png: &mut Vec<u8>, kind: &[u8; 4], data: &[u8]) {
    png.extend_from_slice(&(data.len() as u32).to_be_bytes());
    let start = png.len();
    png.extend_from_slice(kind);
    png.extend_from_slice(data);
    let crc = crc32(&png[start..]);
    png.extend_from_slice(&crc.to_be_bytes());
}

fn crc32(data: &[u8]) -> u32 {
    let mut crc = 0xffff_ffffu32;
    for &b in data {
        crc ^= u32::from(b);
        for _ in 0..8 {
            crc = if crc & 1 != 0 {
                (crc >> 1) ^ 0xedb8_8320
            } else {
                crc >> 1
            };
        }
    }
    !crc
}

/// Writes `DIR/<function>_<type>.png` for every report that has a histogram; returns the files.
pub fn write_plots(dir: &Path, reports: &[FunctionReport]) -> std::io::Result<Vec<PathBuf>> {
    std::fs::create_dir_all(dir)?;
    let mut written = Vec::new();
    for r in reports {
        let Some(h) = &r.histogram else { continue };
        let bound = r.bound.limit();
        let finite_max = h
            .columns
            .iter()
            .copied()
            .filter(|e| e.is_finite())
            .fold(0.0, f64::max);
        let scale = finite_max
            .max(bound.unwrap_or(0.0).min(finite_max.max(1.0) * 2.0))
            .max(0.5)
            * 1.05;
        let canvas = draw(h, bound, scale);
        let path = dir.join(format!("{}_{}.png", r.name, r.kind.name()));
        std::fs::write(&path, encode_png(WIDTH, HEIGHT, &canvas.pixels))?;
        written.push(path);
    }
    Ok(written)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn checksums_match_known_values() {
        // The standard check value of CRC-32 for "123456789".
        assert_eq!(crc32(b"123456789"), 0xcbf4_3926);
    }

    #[test]
    fn png_has_the_right_structure() {
        let png = encode_png(2, 1, &[[255, 0, 0], [0, 0, 255]]);
        assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n");
        assert_eq!(&png[12..16], b"IHDR");
        assert_eq!(u32::from_be_bytes([png[16], png[17], png[18], png[19]]), 2);
        assert_eq!(&png[png.len() - 8..png.len() - 4], b"IEND");
        // The image data inflates back to the two filtered rows.
        let idat_len = u32::from_be_bytes([png[33], png[34], png[35], png[36]]) as usize;
        assert_eq!(&png[37..41], b"IDAT");
        let raw = miniz_oxide::inflate::decompress_to_vec_zlib(&png[41..41 + idat_len])
            .expect("valid zlib");
        assert_eq!(raw, vec![0, 255, 0, 0, 0, 0, 255]);
    }
}
