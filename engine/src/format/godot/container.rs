//! godot_voxel's compressed container: one header byte, then the payload (usually a v4 block).
//!
//! ```text
//!   0 NONE     payload as is
//!   1 LZ4_BE   u32 big-endian decompressed size, raw LZ4 block      (deprecated; read only)
//!   2 LZ4      u32 little-endian decompressed size, raw LZ4 block   (godot_voxel's default)
//!   3 ZSTD     u32 little-endian decompressed size, one zstd frame
//! ```
//!
//! LZ4 is the raw block format (as `LZ4_compress_default` writes it), not the LZ4 frame format.
//! godot_voxel 1.6's script API wrote header 1 with a little-endian size; the reader accepts that
//! too: when the big-endian size does not decode, it retries the size as little-endian.
//!
//! Hostile input: a declared size is checked before anything is allocated, against the caller's cap
//! and against what the compressed bytes could possibly expand to (an LZ4 byte yields at most 255
//! bytes; a zstd block of at least 4 bytes yields at most 128 KiB). Zstd frames that ask for a
//! window above [`ZSTD_MAX_WINDOW`] are refused.

use crate::{Error, Result};

/// Header byte: no compression.
pub const HEADER_NONE: u8 = 0;
/// Header byte: LZ4 with a big-endian size (deprecated).
pub const HEADER_LZ4_BE: u8 = 1;
/// Header byte: LZ4 with a little-endian size.
pub const HEADER_LZ4: u8 = 2;
/// Header byte: Zstandard.
pub const HEADER_ZSTD: u8 = 3;
/// The largest zstd window the reader accepts (libzstd levels 1–19 stay within 8 MiB).
pub const ZSTD_MAX_WINDOW: u64 = 8 << 20;

/// How to compress a payload when writing a container.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Compression {
    /// Header 0, the payload as is.
    None,
    /// Header 2, a raw LZ4 block (godot_voxel's default).
    #[default]
    Lz4,
    /// Header 3, a zstd frame (ruzstd's fastest level, about zstd level 1).
    Zstd,
}

impl Compression {
    /// The container header byte this compression writes.
    pub fn header(self) -> u8 {
        match self {
            Compression::None => HEADER_NONE,
            Compression::Lz4 => HEADER_LZ4,
            Compression::Zstd => HEADER_ZSTD,
        }
    }
}

/// Append `payload` wrapped in a container to `out`.
///
/// # Errors
/// [`Error::Invalid`] when the payload is 4 GiB or more (the size field is a `u32`).
pub fn compress(payload: &[u8], compression: Compression, out: &mut Vec<u8>) -> Result<()> {
    out.push(compression.header());
    if compression == Compression::None {
        out.extend_from_slice(payload);
        return Ok(());
    }
    let size = u32::try_from(payload.len())
        .map_err(|_| Error::Invalid("a container payload must be under 4 GiB".into()))?;
    out.extend_from_slice(&size.to_le_bytes());
    match compression {
        Compression::Lz4 => out.extend_from_slice(&lz4_flex::block::compress(payload)),
        _ => out.extend_from_slice(&ruzstd::encoding::compress_to_vec(
            payload,
            ruzstd::encoding::CompressionLevel::Fastest,
        )),
    }
    Ok(())
}

/// Decompress a container, refusing any payload over `max_len` bytes. Offsets in errors are
/// relative to the start of `bytes`.
///
/// # Errors
/// [`Error::Corrupt`] for an empty input, an unknown header, a missing size, a declared size over
/// the cap or over what the data could expand to, or data that does not decode to exactly the
/// declared size.
pub fn decompress(bytes: &[u8], max_len: usize) -> Result<Vec<u8>> {
    let Some((&header, rest)) = bytes.split_first() else {
        return Err(Error::corrupt(0, "truncated: empty container"));
    };
    match header {
        HEADER_NONE => {
            if rest.len() > max_len {
                return Err(Error::corrupt(
                    1,
                    format!(
                        "payload of {} bytes exceeds the cap of {max_len}",
                        rest.len()
                    ),
                ));
            }
            Ok(rest.to_vec())
        }
        HEADER_LZ4 => {
            let size = size_field(rest, u32::from_le_bytes)?;
            lz4(&rest[4..], size, max_len)
        }
        HEADER_LZ4_BE => {
            let be = size_field(rest, u32::from_be_bytes)?;
            lz4(&rest[4..], be, max_len).or_else(|first| {
                let le = size_field(rest, u32::from_le_bytes)?;
                if le == be {
                    return Err(first);
                }
                lz4(&rest[4..], le, max_len).map_err(|_| first)
            })
        }
        HEADER_ZSTD => {
            let size = size_field(rest, u32::from_le_bytes)?;
            zstd(&rest[4..], size, max_len)
        }
        h => Err(Error::corrupt(
            0,
            format!("unknown container compression {h} (expected 0 none, 1 or 2 LZ4, 3 zstd)"),
        )),
    }
}

fn size_field(rest: &[u8], read: fn([u8; 4]) -> u32) -> Result<usize> {
    let Some(field) = rest.first_chunk::<4>() else {
        return Err(Error::corrupt(
            1,
            format!(
                "truncated: the decompressed size needs 4 bytes, {} left",
                rest.len()
            ),
        ));
    };
    Ok(read(*field) as usize)
}

/// Check a declared size against the caller's cap and the data's largest possible expansion.
fn check_size(size: usize, max_len: usize, bound: usize, what: &str) -> Result<()> {
    if size > max_len {
        return Err(Error::corrupt(
            1,
            format!("declared size {size} exceeds the cap of {max_len} bytes"),
        ));
    }
    if size > bound {
        return Err(Error::corrupt(
            1,
            format!("declared size {size} is more than the {what} data can hold (at most {bound})"),
        ));
    }
    Ok(())
}

fn lz4(data: &[u8], size: usize, max_len: usize) -> Result<Vec<u8>> {
    check_size(size, max_len, data.len().saturating_mul(255) + 16, "LZ4")?;
    let mut out = vec![0u8; size];
    let n = lz4_flex::block::decompress_into(data, &mut out)
        .map_err(|e| Error::corrupt(5, format!("LZ4: {e}")))?;
    if n != size {
        return Err(Error::corrupt(
            5,
            format!("LZ4 produced {n} bytes, the header declares {size}"),
        ));
    }
    Ok(out)
}

fn zstd(data: &[u8], size: usize, max_len: usize) -> Result<Vec<u8>> {
    let bound = (data.len() / 4 + 1).saturating_mul(128 << 10);
    check_size(size, max_len, bound, "zstd")?;
    let mut out = vec![0u8; size];
    let mut decoder = ruzstd::decoding::FrameDecoder::new();
    decoder.set_max_window_size(ZSTD_MAX_WINDOW);
    let n = decoder
        .decode_all(data, &mut out)
        .map_err(|e| Error::corrupt(5, format!("zstd: {e}")))?;
    if n != size {
        return Err(Error::corrupt(
            5,
            format!("zstd produced {n} bytes, the header declares {size}"),
        ));
    }
    Ok(out)
}

#[cfg(test)]
mod container_tests;
