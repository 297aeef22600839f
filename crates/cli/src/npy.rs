//! NumPy `.npy` files (format versions 1.0–3.0): raw little-endian element bytes plus a header
//! with the dtype and shape. Only C-ordered arrays of the dtypes that map to OpenCL C scalar
//! types are accepted.

use anyhow::{bail, Context, Result};

/// A NumPy array: dtype descriptor (`<f4`), shape and the raw element bytes.
#[derive(Clone, Debug, PartialEq)]
pub struct Npy {
    pub descr: String,
    pub shape: Vec<usize>,
    pub data: Vec<u8>,
}

const MAGIC: &[u8] = b"\x93NUMPY";

impl Npy {
    pub fn parse(bytes: &[u8]) -> Result<Npy> {
        if bytes.len() < 10 || &bytes[..6] != MAGIC {
            bail!("not a .npy file (bad magic)");
        }
        let major = bytes[6];
        let (header_len, start) = match major {
            1 => (u16::from_le_bytes([bytes[8], bytes[9]]) as usize, 10usize),
            2 | 3 => {
                if bytes.len() < 12 {
                    bail!("truncated .npy header");
                }
                (
                    u32::from_le_bytes([bytes[8], bytes[9], bytes[10], bytes[11]]) as usize,
                    12,
                )
            }
            v => bail!("unsupported .npy version {v}"),
        };
        let end = start
            .checked_add(header_len)
            .filter(|&e| e <= bytes.len())
            .context("truncated .npy header")?;
        let header = std::str::from_utf8(&bytes[start..end]).context(".npy header is not text")?;
        let descr = dict_value(header, "descr").context(".npy header has no 'descr'")?;
        let descr = descr.trim_matches(|c| c == '\'' || c == '"').to_string();
        let fortran = dict_value(header, "fortran_order").unwrap_or("False");
        if fortran.trim() == "True" {
            bail!("Fortran-ordered .npy arrays are not supported");
        }
        let shape_text = dict_value(header, "shape").context(".npy header has no 'shape'")?;
        let shape = shape_text
            .trim_matches(|c| c == '(' || c == ')')
            .split(',')
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .map(|s| {
                s.parse::<usize>()
                    .with_context(|| format!("bad .npy shape {shape_text}"))
            })
            .collect::<Result<Vec<_>>>()?;
        let elem = dtype_size(&descr)?;
        let count: usize = shape.iter().product();
        let data = bytes[end..].to_vec();
        if data.len() != count * elem {
            bail!(
                ".npy data has {} bytes, the header says {} elements of {} bytes",
                data.len(),
                count,
                elem
            );
        }
        Ok(Npy { descr, shape, data })
    }

    pub fn to_bytes(&self) -> Vec<u8> {
        let shape = match self.shape.len() {
            1 => format!("({},)", self.shape[0]),
            _ => format!(
                "({})",
                self.shape
                    .iter()
                    .map(|s| s.to_string())
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        };
        let mut header = format!(
            "{{'descr': '{}', 'fortran_order': False, 'shape': {}, }}",
            self.descr, shape
        );
        // Pad so that the data starts at a multiple of 64 bytes, ending in a newline.
        let unpadded = MAGIC.len() + 4 + header.len() + 1;
        header.push_str(&" ".repeat((64 - unpadded % 64) % 64));
        header.push('\n');
        let mut out = Vec::with_capacity(10 + header.len() + self.data.len());
        out.extend_from_slice(MAGIC);
        out.extend_from_slice(&[1, 0]);
        out.extend_from_slice(&(header.len() as u16).to_le_bytes());
        out.extend_from_slice(header.as_bytes());
        out.extend_from_slice(&self.data);
        out
    }
}

/// The text of `key`'s value in a Python dict literal (`{'descr': '<f4', 'shape': (3,), }`).
fn dict_value<'a>(header: &'a str, key: &str) -> Option<&'a str> {
    let at = header
        .find(&format!("'{key}'"))
        .or_else(|| header.find(&format!("\"{key}\"")))?;
    let rest = header[at + key.len() + 2..]
        .trim_start()
        .strip_prefix(':')?
        .trim_start();
    let end = if rest.starts_with('(') {
        rest.find(')')? + 1
    } else {
        rest.find(',').unwrap_or(rest.len())
    };
    Some(&rest[..end])
}

/// Element size of a dtype descriptor that maps to an OpenCL C scalar type.
pub fn dtype_size(descr: &str) -> Result<usize> {
    let (order, code) = descr.split_at(1.min(descr.len()));
    if !matches!(order, "<" | "|" | "=") {
        bail!("dtype {descr}: only little-endian data is supported");
    }
    Ok(match code {
        "i1" | "u1" | "b1" => 1,
        "i2" | "u2" | "f2" => 2,
        "i4" | "u4" | "f4" => 4,
        "i8" | "u8" | "f8" => 8,
        _ => bail!("dtype {descr} has no OpenCL C equivalent"),
    })
}

/// The dtype of an OpenCL C scalar element type name.
pub fn dtype_of(elem: &str) -> Option<&'static str> {
    Some(match elem {
        "char" => "|i1",
        "uchar" | "bool" => "|u1",
        "short" => "<i2",
        "ushort" => "<u2",
        "int" => "<i4",
        "uint" => "<u4",
        "long" => "<i8",
        "ulong" | "size_t" => "<u8",
        "half" => "<f2",
        "float" => "<f4",
        "double" => "<f8",
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips_and_reads_numpy_headers() {
        // Header as numpy 1.24 writes it for np.arange(3, dtype=np.float32).
        let mut file =
            b"\x93NUMPY\x01\x00v\x00{'descr': '<f4', 'fortran_order': False, 'shape': (3,), }"
                .to_vec();
        file.extend(std::iter::repeat(b' ').take(128 - 10 - 60 - 1));
        file.push(b'\n');
        let header_len = file.len() - 10;
        file[8] = header_len as u8;
        for v in [0f32, 1.0, 2.0] {
            file.extend_from_slice(&v.to_le_bytes());
        }
        let npy = Npy::parse(&file).unwrap();
        assert_eq!(npy.descr, "<f4");
        assert_eq!(npy.shape, vec![3]);
        assert_eq!(npy.data.len(), 12);
        let again = Npy::parse(&npy.to_bytes()).unwrap();
        assert_eq!(again, npy);
        assert_eq!(npy.to_bytes().len() % 64, 12 % 64);
    }

    #[test]
    fn two_dimensional_shapes() {
        let npy = Npy {
            descr: "<i4".into(),
            shape: vec![2, 4],
            data: vec![0; 32],
        };
        assert_eq!(Npy::parse(&npy.to_bytes()).unwrap().shape, vec![2, 4]);
    }

    #[test]
    fn bad_files_are_errors() {
        assert!(Npy::parse(b"hello").is_err());
        let npy = Npy {
            descr: "<f4".into(),
            shape: vec![4],
            data: vec![0; 12],
        };
        assert!(Npy::parse(&npy.to_bytes()).is_err());
        let npy = Npy {
            descr: ">f4".into(),
            shape: vec![1],
            data: vec![0; 4],
        };
        assert!(Npy::parse(&npy.to_bytes()).is_err());
    }
}
