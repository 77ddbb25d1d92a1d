//! Material textures: an albedo image a material may carry, tiled over its surface. The project
//! stores each image once, as the PNG the user gave, in its own section (`TEXR`), so a project stays
//! one file; a material refers to its image by the hash of those bytes.
//!
//! ```text
//!   material row:  texture: Some((hash: 0x1f2e…, width: 256, height: 256))
//!   Textures:      hash ──> PNG bytes (shared: a table snapshot in the undo history only names it)
//! ```
//!
//! The engine does not decode images (it has no image library): it keeps the bytes, checks the PNG
//! signature and the size its header declares, and hands the bytes to whoever draws or exports them.

use std::collections::BTreeMap;
use std::sync::Arc;

use serde::{Deserialize, Serialize};

use crate::{Error, Result};

/// Largest texture side, in pixels.
pub const MAX_TEXTURE_SIDE: u32 = 2048;
/// Largest PNG a texture may be, in bytes.
pub const MAX_TEXTURE_BYTES: usize = 4 << 20;
/// Most textures one project may store.
pub const MAX_TEXTURES: usize = 64;

/// A material's texture: which image (by hash) and its size.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct TextureRef {
    /// [`texture_hash`] of the PNG bytes.
    pub hash: u64,
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
}

/// The stable 64-bit hash that names a texture: two CRC-32s of its bytes with different seeds.
pub fn texture_hash(png: &[u8]) -> u64 {
    let mut a = crc32fast::Hasher::new();
    a.update(png);
    let mut b = crc32fast::Hasher::new_with_initial(0x5354_5241);
    b.update(png);
    (u64::from(a.finalize()) << 32) | u64::from(b.finalize())
}

/// The width and height a PNG's header declares, after checking its signature and sizes against
/// the caps.
///
/// # Errors
/// [`Error::Invalid`] for bytes that are not a PNG, or an image over the caps.
pub fn png_size(png: &[u8]) -> Result<(u32, u32)> {
    const SIGNATURE: [u8; 8] = [0x89, b'P', b'N', b'G', b'\r', b'\n', 0x1a, b'\n'];
    if png.len() > MAX_TEXTURE_BYTES {
        return Err(Error::Invalid(format!(
            "a texture of {} bytes is over the {MAX_TEXTURE_BYTES}-byte limit",
            png.len()
        )));
    }
    if png.len() < 24 || png[..8] != SIGNATURE || &png[12..16] != b"IHDR" {
        return Err(Error::Invalid("a texture must be a PNG image".into()));
    }
    let word = |at: usize| u32::from_be_bytes([png[at], png[at + 1], png[at + 2], png[at + 3]]);
    let (w, h) = (word(16), word(20));
    if w == 0 || h == 0 || w > MAX_TEXTURE_SIDE || h > MAX_TEXTURE_SIDE {
        return Err(Error::Invalid(format!(
            "a texture of {w}x{h} pixels is outside 1 to {MAX_TEXTURE_SIDE} a side"
        )));
    }
    Ok((w, h))
}

/// A project's texture images by hash.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Textures {
    images: BTreeMap<u64, Arc<Vec<u8>>>,
}

impl Textures {
    /// Keep `png` (checked) and return how a material refers to it.
    ///
    /// # Errors
    /// As [`png_size`]; [`Error::Invalid`] past [`MAX_TEXTURES`].
    pub fn add(&mut self, png: Vec<u8>) -> Result<TextureRef> {
        let (width, height) = png_size(&png)?;
        let hash = texture_hash(&png);
        if !self.images.contains_key(&hash) && self.images.len() >= MAX_TEXTURES {
            return Err(Error::Invalid(format!(
                "a project holds at most {MAX_TEXTURES} textures"
            )));
        }
        self.images.entry(hash).or_insert_with(|| Arc::new(png));
        Ok(TextureRef {
            hash,
            width,
            height,
        })
    }

    /// The PNG bytes of a texture, if stored.
    pub fn png(&self, t: &TextureRef) -> Option<&[u8]> {
        self.images.get(&t.hash).map(|b| b.as_slice())
    }

    /// Every stored image with its hash, in hash order.
    pub fn iter(&self) -> impl Iterator<Item = (u64, &[u8])> {
        self.images.iter().map(|(h, b)| (*h, b.as_slice()))
    }

    /// Number of images stored.
    pub fn len(&self) -> usize {
        self.images.len()
    }

    /// True when none is stored.
    pub fn is_empty(&self) -> bool {
        self.images.is_empty()
    }

    /// Keep only the images `keep` says are used (the table's and the undo history's).
    pub fn retain(&mut self, mut keep: impl FnMut(u64) -> bool) {
        self.images.retain(|h, _| keep(*h));
    }

    /// Store an image read from a file under its hash, checking that the bytes hash to it.
    ///
    /// # Errors
    /// [`Error::Invalid`] when the bytes are not that image or not a PNG within the caps.
    pub fn insert_checked(&mut self, hash: u64, png: Vec<u8>) -> Result<TextureRef> {
        if texture_hash(&png) != hash {
            return Err(Error::Invalid(format!(
                "texture {hash:016x}: the bytes do not match their hash"
            )));
        }
        self.add(png)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The smallest PNG header of a `w` × `h` image (enough for the checks; not decodable).
    pub(crate) fn fake_png(w: u32, h: u32, salt: u8) -> Vec<u8> {
        let mut v = vec![
            0x89, b'P', b'N', b'G', b'\r', b'\n', 0x1a, b'\n', 0, 0, 0, 13,
        ];
        v.extend_from_slice(b"IHDR");
        v.extend_from_slice(&w.to_be_bytes());
        v.extend_from_slice(&h.to_be_bytes());
        v.extend_from_slice(&[8, 6, 0, 0, 0, salt, 0, 0, 0]);
        v
    }

    #[test]
    fn textures_are_kept_once_by_hash_and_checked() {
        let mut t = Textures::default();
        let a = t.add(fake_png(16, 8, 1)).expect("png");
        assert_eq!((a.width, a.height), (16, 8));
        let again = t.add(fake_png(16, 8, 1)).expect("same");
        assert_eq!(a, again);
        assert_eq!(t.len(), 1);
        let b = t.add(fake_png(16, 8, 2)).expect("other");
        assert_ne!(a.hash, b.hash);
        assert_eq!(t.png(&b).map(<[u8]>::len), Some(fake_png(1, 1, 0).len()));
        for bad in [
            b"not a png at all, really".to_vec(),
            fake_png(0, 8, 0),
            fake_png(MAX_TEXTURE_SIDE + 1, 8, 0),
            vec![0u8; MAX_TEXTURE_BYTES + 1],
        ] {
            assert!(t.add(bad).is_err());
        }
        assert!(
            t.insert_checked(a.hash, fake_png(16, 8, 2)).is_err(),
            "wrong hash"
        );
        t.retain(|h| h == b.hash);
        assert!(t.png(&a).is_none() && t.png(&b).is_some());
        assert_eq!(texture_hash(b"x"), texture_hash(b"x"));
    }
}
