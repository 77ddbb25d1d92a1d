//! The `TEXR` section: the project's material textures, each PNG once under its hash.
//!
//! ```text
//!   u8 version (1) | u32 count | count × (u64 hash | u32 length | PNG bytes)
//! ```
//!
//! The reader checks every length before taking bytes, each image against its hash and the PNG
//! caps, and that hashes ascend without repeats. A material whose texture is missing keeps its
//! other properties (the texture is dropped with a warning): textures never stop the voxels from
//! loading.

use crate::codec::Reader;
use crate::voxel::{MaterialTable, Textures, MAX_TEXTURES, MAX_TEXTURE_BYTES};
use crate::{Error, Result};

const TEXTURES_VERSION: u8 = 1;

/// Encode `textures` (hash order, so equal stores give equal bytes).
pub fn to_bytes(textures: &Textures) -> Vec<u8> {
    let mut out = vec![TEXTURES_VERSION];
    out.extend_from_slice(&(textures.len() as u32).to_le_bytes());
    for (hash, png) in textures.iter() {
        out.extend_from_slice(&hash.to_le_bytes());
        out.extend_from_slice(&(png.len() as u32).to_le_bytes());
        out.extend_from_slice(png);
    }
    out
}

/// Decode a `TEXR` payload found at absolute offset `base`.
///
/// # Errors
/// [`Error::Corrupt`] at the offending byte; [`Error::UnsupportedVersion`] for another version.
pub fn from_bytes(bytes: &[u8], base: usize) -> Result<Textures> {
    let mut r = Reader::new(bytes, base);
    let version = r.u8("textures version")?;
    if version != TEXTURES_VERSION {
        return Err(Error::UnsupportedVersion {
            found: u32::from(version),
            supported: TEXTURES_VERSION.to_string(),
        });
    }
    let at = r.offset();
    let count = r.u32("texture count")? as usize;
    if count > MAX_TEXTURES || count > r.remaining() / 12 {
        return Err(Error::corrupt(
            at,
            format!("{count} textures are impossible here (at most {MAX_TEXTURES})"),
        ));
    }
    let mut out = Textures::default();
    let mut previous: Option<u64> = None;
    for _ in 0..count {
        let at = r.offset();
        let hash = r.u64("texture hash")?;
        if previous.is_some_and(|p| p >= hash) {
            return Err(Error::corrupt(at, "textures are out of order or repeated"));
        }
        previous = Some(hash);
        let len_at = r.offset();
        let len = r.u32("texture length")? as usize;
        if len > MAX_TEXTURE_BYTES {
            return Err(Error::corrupt(
                len_at,
                format!("a texture of {len} bytes is over the {MAX_TEXTURE_BYTES}-byte limit"),
            ));
        }
        let png = r.take(len, "texture")?.to_vec();
        out.insert_checked(hash, png)
            .map_err(|e| Error::corrupt(at, e.to_string()))?;
    }
    if r.remaining() > 0 {
        return Err(r.error(format!("{} bytes follow the last texture", r.remaining())));
    }
    Ok(out)
}

/// Drop the texture of every material of `table` whose image `textures` lacks; returns a warning
/// naming them, or `None` when every texture is there.
pub fn drop_missing(table: &mut MaterialTable, textures: &Textures) -> Option<String> {
    let mut missing = Vec::new();
    for m in &mut table.materials {
        if m.texture.is_some_and(|t| textures.png(&t).is_none()) {
            m.texture = None;
            missing.push(m.name.clone());
        }
    }
    (!missing.is_empty()).then(|| {
        format!(
            "the texture of {} is missing from the file; those materials are drawn without one",
            missing.join(", ")
        )
    })
}
