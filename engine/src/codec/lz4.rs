//! RLE + LZ4: the packed form of a box of voxels in project files and undo history.
//!
//! LZ4 is lz4_flex's raw block format (no frame, no size prefix); the caller stores the RLE length,
//! which bounds decompression: a box of `n` voxels never has more than `2n` RLE bytes, so a hostile
//! length is refused before anything is allocated.

use super::rle;
use crate::voxel::Voxel;
use crate::{Error, Result};

/// A box of voxels packed as LZ4(RLE(voxels)).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct PackedVoxels {
    /// Length of the RLE stream before LZ4.
    pub rle_len: u32,
    /// LZ4 block bytes.
    pub bytes: Vec<u8>,
}

impl PackedVoxels {
    /// Pack `voxels`, reusing `scratch` for the RLE stream.
    pub fn pack(voxels: &[Voxel], scratch: &mut Vec<u8>) -> Self {
        scratch.clear();
        rle::encode(voxels, scratch);
        Self {
            rle_len: scratch.len() as u32,
            bytes: lz4_flex::block::compress(scratch),
        }
    }

    /// Unpack into `out`, which must hold exactly the packed box's voxel count.
    ///
    /// # Errors
    /// [`Error::Corrupt`] (offsets within the LZ4 bytes or RLE stream) when the data is malformed.
    pub fn unpack(&self, out: &mut [Voxel], scratch: &mut Vec<u8>) -> Result<()> {
        unpack_into(&self.bytes, self.rle_len as usize, out, scratch)
    }
}

/// Decompress `lz4` (whose RLE stream is `rle_len` bytes) and decode it into `out`.
///
/// # Errors
/// [`Error::Corrupt`] when `rle_len` is impossible for the box, LZ4 fails or yields another length,
/// or the RLE stream is malformed.
pub fn unpack_into(
    lz4: &[u8],
    rle_len: usize,
    out: &mut [Voxel],
    scratch: &mut Vec<u8>,
) -> Result<()> {
    if rle_len > rle::max_encoded_len(out.len()) {
        return Err(Error::corrupt(
            0,
            format!(
                "RLE length {rle_len} is impossible for {} voxels",
                out.len()
            ),
        ));
    }
    scratch.clear();
    scratch.resize(rle_len, 0);
    let n = lz4_flex::block::decompress_into(lz4, scratch)
        .map_err(|e| Error::corrupt(0, format!("LZ4: {e}")))?;
    if n != rle_len {
        return Err(Error::corrupt(
            0,
            format!("LZ4 produced {n} bytes, expected {rle_len}"),
        ));
    }
    rle::decode(scratch, out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pack_round_trip_and_hostile_lengths() {
        let v: Vec<Voxel> = (0..5000)
            .map(|i| Voxel::new((i / 700) as u8, (i % 3) as u8))
            .collect();
        let mut s = Vec::new();
        let p = PackedVoxels::pack(&v, &mut s);
        let mut back = vec![Voxel::AIR; v.len()];
        p.unpack(&mut back, &mut s).expect("unpacks");
        assert_eq!(back, v);
        let bad = PackedVoxels {
            rle_len: u32::MAX,
            ..p.clone()
        };
        assert!(bad.unpack(&mut back, &mut s).is_err());
        let short = PackedVoxels {
            rle_len: p.rle_len - 1,
            ..p.clone()
        };
        assert!(short.unpack(&mut back, &mut s).is_err());
        let garbage = PackedVoxels {
            rle_len: p.rle_len,
            bytes: vec![0xff; 40],
        };
        assert!(garbage.unpack(&mut back, &mut s).is_err());
    }
}
