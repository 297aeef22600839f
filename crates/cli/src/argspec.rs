//! The `--arg SPEC` forms of `oxcl run`: `TYPE:VALUE`, `@PATH.npy`, `zeros:TYPE:COUNT`,
//! `local:BYTES`, `image:PATH.png`, `image:WIDTHxHEIGHT:FORMAT`,
//! `sampler:COORDS,ADDRESSING,FILTER`, `pipe:PACKET_BYTES:MAX_PACKETS` (an empty pipe).

use anyhow::{anyhow, bail, Context, Result};

use crate::image_io::{self, ImageData};
use crate::npy::{self, Npy};

/// One parsed `--arg`.
#[derive(Clone, Debug, PartialEq)]
pub enum ArgSpec {
    /// A value passed by copy: its bytes in the OpenCL C layout, and the type name given.
    Value { type_name: String, bytes: Vec<u8> },
    /// A buffer with initial contents and the array shape and dtype to write it back with.
    Buffer(Npy),
    /// `__local` memory of this many bytes.
    Local(usize),
    /// A 2D image: from a PNG, or zero-filled of a size and format.
    Image(ImageData),
    /// A sampler.
    Sampler(runtime::Sampler),
    /// An empty pipe of `max_packets` packets of `packet_size` bytes.
    Pipe { packet_size: u32, max_packets: u32 },
}

/// `image:PATH.png` or `image:WIDTHxHEIGHT:FORMAT`.
fn parse_image(spec: &str, rest: &str) -> Result<ArgSpec> {
    if rest.to_ascii_lowercase().ends_with(".png") {
        let bytes = std::fs::read(rest).with_context(|| format!("reading {rest}"))?;
        let image = image_io::decode_png(&bytes).with_context(|| format!("reading {rest}"))?;
        return Ok(ArgSpec::Image(image));
    }
    let (size, format) = rest.split_once(':').ok_or_else(|| {
        anyhow!("expected image:PATH.png or image:WIDTHxHEIGHT:FORMAT, got `{spec}`")
    })?;
    let (w, h) = size
        .split_once('x')
        .ok_or_else(|| anyhow!("expected WIDTHxHEIGHT in `{spec}`"))?;
    let width: usize = w
        .trim()
        .parse()
        .with_context(|| format!("bad width in `{spec}`"))?;
    let height: usize = h
        .trim()
        .parse()
        .with_context(|| format!("bad height in `{spec}`"))?;
    let format = image_io::format_by_name(format.trim())?;
    let len = width
        .checked_mul(height)
        .and_then(|n| n.checked_mul(format.element_size()))
        .ok_or_else(|| anyhow!("`{spec}`: image too large"))?;
    Ok(ArgSpec::Image(ImageData {
        format,
        width,
        height,
        data: vec![0; len],
    }))
}

/// `sampler:COORDS,ADDRESSING,FILTER`: `normalized`/`unnormalized`; `none`, `clamp_to_edge`,
/// `clamp`, `repeat`, `mirrored_repeat`; `nearest`/`linear`.
fn parse_sampler(spec: &str, rest: &str) -> Result<ArgSpec> {
    let parts: Vec<&str> = rest.split(',').map(str::trim).collect();
    let [coords, addressing, filter] = parts[..] else {
        bail!("expected sampler:COORDS,ADDRESSING,FILTER, got `{spec}`");
    };
    let normalized_coords = match coords {
        "normalized" => true,
        "unnormalized" => false,
        other => bail!("`{other}` in `{spec}`: coordinates are normalized or unnormalized"),
    };
    let addressing = match addressing {
        "none" => runtime::AddressingMode::None,
        "clamp_to_edge" => runtime::AddressingMode::ClampToEdge,
        "clamp" => runtime::AddressingMode::Clamp,
        "repeat" => runtime::AddressingMode::Repeat,
        "mirrored_repeat" => runtime::AddressingMode::MirroredRepeat,
        other => bail!(
            "`{other}` in `{spec}`: addressing is none, clamp_to_edge, clamp, repeat or mirrored_repeat"
        ),
    };
    let filter = match filter {
        "nearest" => runtime::FilterMode::Nearest,
        "linear" => runtime::FilterMode::Linear,
        other => bail!("`{other}` in `{spec}`: the filter is nearest or linear"),
    };
    Ok(ArgSpec::Sampler(runtime::Sampler {
        normalized_coords,
        addressing,
        filter,
        mip: runtime::MipSampling::default(),
    }))
}

/// An OpenCL C scalar or vector type name: element name, element size, components (3 for
/// `float3`) and storage components (4 for `float3`, OpenCL C 6.1.5 alignment of 3-vectors).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct TypeName {
    pub elem: &'static str,
    pub elem_size: usize,
    pub lanes: usize,
    pub storage_lanes: usize,
}

const ELEMS: &[(&str, usize)] = &[
    ("bool", 1),
    ("char", 1),
    ("uchar", 1),
    ("short", 2),
    ("ushort", 2),
    ("int", 4),
    ("uint", 4),
    ("long", 8),
    ("ulong", 8),
    ("size_t", 8),
    ("half", 2),
    ("float", 4),
    ("double", 8),
];

pub fn parse_type(name: &str) -> Result<TypeName> {
    let digits = name.trim_start_matches(|c: char| c.is_ascii_alphabetic() || c == '_');
    let base = &name[..name.len() - digits.len()];
    let &(elem, elem_size) = ELEMS
        .iter()
        .find(|(n, _)| *n == base)
        .ok_or_else(|| anyhow!("unknown OpenCL C type `{name}`"))?;
    let lanes = match digits {
        "" => 1,
        "2" | "3" | "4" | "8" | "16" => digits.parse().unwrap_or(1),
        _ => bail!("unknown OpenCL C type `{name}` (vector widths are 2, 3, 4, 8, 16)"),
    };
    let storage_lanes = if lanes == 3 { 4 } else { lanes };
    Ok(TypeName {
        elem,
        elem_size,
        lanes,
        storage_lanes,
    })
}

pub fn parse(spec: &str) -> Result<ArgSpec> {
    if let Some(path) = spec.strip_prefix('@') {
        let bytes = std::fs::read(path).with_context(|| format!("reading {path}"))?;
        let npy = Npy::parse(&bytes).with_context(|| format!("reading {path}"))?;
        return Ok(ArgSpec::Buffer(npy));
    }
    if let Some(bytes) = spec.strip_prefix("local:") {
        let bytes: usize = bytes
            .trim()
            .parse()
            .with_context(|| format!("bad byte count in `{spec}`"))?;
        return Ok(ArgSpec::Local(bytes));
    }
    if let Some(rest) = spec.strip_prefix("image:") {
        return parse_image(spec, rest);
    }
    if let Some(rest) = spec.strip_prefix("sampler:") {
        return parse_sampler(spec, rest);
    }
    if let Some(rest) = spec.strip_prefix("pipe:") {
        let (size, max) = rest
            .split_once(':')
            .ok_or_else(|| anyhow!("expected pipe:PACKET_BYTES:MAX_PACKETS, got `{spec}`"))?;
        let number = |text: &str| -> Result<u32> {
            text.trim()
                .parse()
                .with_context(|| format!("bad number in `{spec}`"))
        };
        return Ok(ArgSpec::Pipe {
            packet_size: number(size)?,
            max_packets: number(max)?,
        });
    }
    if let Some(rest) = spec.strip_prefix("zeros:") {
        let (ty, count) = rest
            .split_once(':')
            .ok_or_else(|| anyhow!("expected zeros:TYPE:COUNT, got `{spec}`"))?;
        let ty = parse_type(ty)?;
        let count: usize = count
            .trim()
            .parse()
            .with_context(|| format!("bad count in `{spec}`"))?;
        let descr = npy::dtype_of(ty.elem)
            .ok_or_else(|| anyhow!("no NumPy dtype for {}", ty.elem))?
            .to_string();
        let shape = if ty.lanes == 1 {
            vec![count]
        } else {
            vec![count, ty.storage_lanes]
        };
        let data = vec![0u8; count * ty.elem_size * ty.storage_lanes];
        return Ok(ArgSpec::Buffer(Npy { descr, shape, data }));
    }
    let (ty_name, value) = spec.split_once(':').ok_or_else(|| {
        anyhow!(
            "expected TYPE:VALUE, @FILE.npy, zeros:TYPE:COUNT, local:BYTES, image:PATH.png, \
             image:WIDTHxHEIGHT:FORMAT, sampler:COORDS,ADDRESSING,FILTER or \
             pipe:PACKET_BYTES:MAX_PACKETS, got `{spec}`"
        )
    })?;
    let ty = parse_type(ty_name)?;
    let parts: Vec<&str> = value.split(',').map(str::trim).collect();
    if parts.len() != 1 && parts.len() != ty.lanes {
        bail!(
            "`{spec}`: {} values for a {}-component type",
            parts.len(),
            ty.lanes
        );
    }
    let mut bytes = Vec::with_capacity(ty.elem_size * ty.storage_lanes);
    for lane in 0..ty.storage_lanes {
        if lane >= ty.lanes {
            bytes.extend(std::iter::repeat(0).take(ty.elem_size));
            continue;
        }
        let text = parts[if parts.len() == 1 { 0 } else { lane }];
        bytes.extend(scalar_bytes(ty.elem, text).with_context(|| format!("in `{spec}`"))?);
    }
    Ok(ArgSpec::Value {
        type_name: ty_name.to_string(),
        bytes,
    })
}

fn parse_int(text: &str) -> Result<i128> {
    let (negative, digits) = match text.strip_prefix('-') {
        Some(d) => (true, d),
        None => (false, text.strip_prefix('+').unwrap_or(text)),
    };
    let magnitude = match digits
        .strip_prefix("0x")
        .or_else(|| digits.strip_prefix("0X"))
    {
        Some(hex) => i128::from_str_radix(hex, 16),
        None => digits.parse::<i128>(),
    }
    .with_context(|| format!("`{text}` is not an integer"))?;
    Ok(if negative { -magnitude } else { magnitude })
}

fn scalar_bytes(elem: &str, text: &str) -> Result<Vec<u8>> {
    let int = |min: i128, max: i128, size: usize| -> Result<Vec<u8>> {
        let v = parse_int(text)?;
        if v < min || v > max {
            bail!("{v} is out of range for {elem}");
        }
        Ok(v.to_le_bytes()[..size].to_vec())
    };
    let float = || {
        text.parse::<f64>()
            .with_context(|| format!("`{text}` is not a number"))
    };
    Ok(match elem {
        "bool" => match text {
            "true" | "1" => vec![1],
            "false" | "0" => vec![0],
            _ => bail!("`{text}` is not a bool"),
        },
        "char" => int(i8::MIN.into(), i8::MAX.into(), 1)?,
        "uchar" => int(0, u8::MAX.into(), 1)?,
        "short" => int(i16::MIN.into(), i16::MAX.into(), 2)?,
        "ushort" => int(0, u16::MAX.into(), 2)?,
        "int" => int(i32::MIN.into(), i32::MAX.into(), 4)?,
        "uint" => int(0, u32::MAX.into(), 4)?,
        "long" => int(i64::MIN.into(), i64::MAX.into(), 8)?,
        "ulong" | "size_t" => int(0, u64::MAX.into(), 8)?,
        "half" => half::f16::from_f64(float()?).to_le_bytes().to_vec(),
        // Parsed as f32 directly so that the decimal rounds once, to nearest.
        "float" => text
            .parse::<f32>()
            .with_context(|| format!("`{text}` is not a number"))?
            .to_le_bytes()
            .to_vec(),
        "double" => float()?.to_le_bytes().to_vec(),
        other => bail!("no values of type {other}"),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn value(spec: &str) -> Vec<u8> {
        match parse(spec).unwrap() {
            ArgSpec::Value { bytes, .. } => bytes,
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn scalars_and_vectors() {
        assert_eq!(value("int:5"), vec![5, 0, 0, 0]);
        assert_eq!(value("int:-1"), vec![0xff; 4]);
        assert_eq!(value("uchar:0x80"), vec![0x80]);
        assert_eq!(value("float:2.5"), 2.5f32.to_le_bytes().to_vec());
        assert_eq!(value("ulong:7"), vec![7, 0, 0, 0, 0, 0, 0, 0]);
        let f4: Vec<u8> = [1f32, 2.0, 3.0, 4.0]
            .iter()
            .flat_map(|v| v.to_le_bytes())
            .collect();
        assert_eq!(value("float4:1,2,3,4"), f4);
        // A 3-component vector occupies four components (OpenCL C 6.1.5).
        let i3: Vec<u8> = [1i32, 2, 3, 0]
            .iter()
            .flat_map(|v| v.to_le_bytes())
            .collect();
        assert_eq!(value("int3:1,2,3"), i3);
        assert_eq!(value("half:1"), vec![0x00, 0x3c]);
    }

    #[test]
    fn buffers_and_local() {
        match parse("zeros:float4:3").unwrap() {
            ArgSpec::Buffer(npy) => {
                assert_eq!(npy.descr, "<f4");
                assert_eq!(npy.shape, vec![3, 4]);
                assert_eq!(npy.data.len(), 48);
            }
            other => panic!("{other:?}"),
        }
        assert_eq!(parse("local:256").unwrap(), ArgSpec::Local(256));
        assert_eq!(
            parse("pipe:16:100").unwrap(),
            ArgSpec::Pipe {
                packet_size: 16,
                max_packets: 100
            }
        );
        assert!(parse("pipe:16").is_err());
    }

    #[test]
    fn images_and_samplers() {
        match parse("image:3x2:rgba32f").unwrap() {
            ArgSpec::Image(image) => {
                assert_eq!((image.width, image.height), (3, 2));
                assert_eq!(image.data.len(), 3 * 2 * 16);
            }
            other => panic!("{other:?}"),
        }
        assert_eq!(
            parse("sampler:unnormalized,clamp_to_edge,linear").unwrap(),
            ArgSpec::Sampler(runtime::Sampler {
                normalized_coords: false,
                addressing: runtime::AddressingMode::ClampToEdge,
                filter: runtime::FilterMode::Linear,
                mip: runtime::MipSampling::default(),
            })
        );
        assert!(parse("image:3x2:rgb8").is_err());
        assert!(parse("image:3:rgba8").is_err());
        assert!(parse("image:/nonexistent.png").is_err());
        assert!(parse("sampler:normalized,wrap,linear").is_err());
        assert!(parse("sampler:normalized,clamp").is_err());
    }

    #[test]
    fn errors() {
        assert!(parse("int:4000000000").is_err());
        assert!(parse("float5:1").is_err());
        assert!(parse("float4:1,2").is_err());
        assert!(parse("nonsense").is_err());
        assert!(parse("uchar:-1").is_err());
    }
}
