//! One channel of a godot_voxel block: its bit depth and its values, either one value for the whole
//! block (UNIFORM) or one value per voxel (NONE, stored dense in ZXY order).
//!
//! Values are kept as raw little-endian bytes, exactly as they sit in the file, so a channel of any
//! depth survives a read and a write unchanged on every platform.

use crate::{Error, Result};

/// Number of channels in every block.
pub const CHANNEL_COUNT: usize = 8;
/// Channel index of the blocky voxel id (Strata: material id).
pub const CHANNEL_TYPE: usize = 0;
/// Channel index of the signed distance field.
pub const CHANNEL_SDF: usize = 1;
/// Channel index of the 4×4-bit texture indices.
pub const CHANNEL_INDICES: usize = 3;
/// Channel index of the 4×4-bit texture weights.
pub const CHANNEL_WEIGHTS: usize = 4;

/// Bits per value: the high nibble of a channel's format byte.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Depth {
    /// 1 byte per value.
    Bit8 = 0,
    /// 2 bytes per value.
    Bit16 = 1,
    /// 4 bytes per value.
    Bit32 = 2,
    /// 8 bytes per value.
    Bit64 = 3,
}

impl Depth {
    /// Every depth, by code.
    pub const ALL: [Depth; 4] = [Depth::Bit8, Depth::Bit16, Depth::Bit32, Depth::Bit64];

    /// The depth of code `code` (0..=3), or `None`.
    pub fn from_code(code: u8) -> Option<Self> {
        Self::ALL.get(usize::from(code)).copied()
    }

    /// The code stored in files (0..=3).
    pub fn code(self) -> u8 {
        self as u8
    }

    /// Bytes per value: 1, 2, 4 or 8.
    pub fn bytes(self) -> usize {
        1 << (self as usize)
    }

    /// The largest raw value this depth can hold.
    pub fn max_raw(self) -> u64 {
        match self {
            Depth::Bit64 => u64::MAX,
            d => (1u64 << (8 * d.bytes())) - 1,
        }
    }
}

/// The default depths of godot_voxel's `VoxelBuffer`, channel by channel.
pub const DEFAULT_DEPTHS: [Depth; CHANNEL_COUNT] = [
    Depth::Bit16,
    Depth::Bit16,
    Depth::Bit8,
    Depth::Bit16,
    Depth::Bit16,
    Depth::Bit8,
    Depth::Bit8,
    Depth::Bit8,
];

/// The raw value godot_voxel fills channel `channel` with when it is created at `depth`.
///
/// SDF defaults to "far outside" (`0x7F`, `0x7FFF`; at 32 bits the integer 100, a quirk of
/// godot_voxel that is reproduced here; 0 at 64 bits). INDICES defaults to `0x3210` and WEIGHTS to
/// `0x000F` at 16 bits; everything else to 0.
pub fn default_raw(channel: usize, depth: Depth) -> u64 {
    match (channel, depth) {
        (CHANNEL_SDF, Depth::Bit8) => 0x7f,
        (CHANNEL_SDF, Depth::Bit16) => 0x7fff,
        (CHANNEL_SDF, Depth::Bit32) => 100,
        (CHANNEL_INDICES, Depth::Bit16) => 0x3210,
        (CHANNEL_WEIGHTS, Depth::Bit16) => 0x000f,
        _ => 0,
    }
}

/// The values of a channel.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ChannelData {
    /// Every voxel holds this raw value (COMPRESSION_UNIFORM).
    Uniform(u64),
    /// One little-endian value per voxel in ZXY order (COMPRESSION_NONE); `volume × depth` bytes.
    Dense(Vec<u8>),
}

/// One channel of a block.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Channel {
    /// Bits per value.
    pub depth: Depth,
    /// The values.
    pub data: ChannelData,
}

impl Channel {
    /// A channel whose every voxel holds `raw` (masked to `depth`).
    pub fn uniform(depth: Depth, raw: u64) -> Self {
        Self {
            depth,
            data: ChannelData::Uniform(raw & depth.max_raw()),
        }
    }

    /// Channel `channel` as godot_voxel creates it at `depth`.
    pub fn default_for(channel: usize, depth: Depth) -> Self {
        Self::uniform(depth, default_raw(channel, depth))
    }

    /// The raw value of voxel `index` (ZXY order).
    ///
    /// # Panics
    /// If the channel is dense and `index` is past its end.
    #[inline]
    pub fn raw(&self, index: usize) -> u64 {
        match &self.data {
            ChannelData::Uniform(v) => *v,
            ChannelData::Dense(bytes) => {
                let n = self.depth.bytes();
                read_le(&bytes[index * n..index * n + n])
            }
        }
    }

    /// True when the channel is uniform at godot_voxel's default for `channel` (an unused channel).
    pub fn is_unused(&self, channel: usize) -> bool {
        self.data == ChannelData::Uniform(default_raw(channel, self.depth))
    }

    /// The one value of a dense channel whose values are all equal, or `None`.
    pub fn single_value(&self) -> Option<u64> {
        match &self.data {
            ChannelData::Uniform(v) => Some(*v),
            ChannelData::Dense(bytes) => {
                let n = self.depth.bytes();
                let first = bytes.get(..n)?;
                bytes
                    .chunks_exact(n)
                    .all(|c| c == first)
                    .then(|| read_le(first))
            }
        }
    }

    /// Check that a dense channel holds exactly `volume` values.
    ///
    /// # Errors
    /// [`Error::Invalid`] when the length does not match.
    pub fn check_len(&self, volume: usize) -> Result<()> {
        match &self.data {
            ChannelData::Dense(b) if b.len() != volume * self.depth.bytes() => Err(Error::Invalid(
                format!(
                    "dense channel has {} bytes, a block of {volume} voxels at {} bytes per value needs {}",
                    b.len(),
                    self.depth.bytes(),
                    volume * self.depth.bytes()
                ),
            )),
            _ => Ok(()),
        }
    }
}

/// A little-endian unsigned value of 1 to 8 bytes.
#[inline]
pub(crate) fn read_le(bytes: &[u8]) -> u64 {
    let mut b = [0u8; 8];
    b[..bytes.len()].copy_from_slice(bytes);
    u64::from_le_bytes(b)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn depth_codes_and_sizes() {
        for (code, d) in Depth::ALL.iter().enumerate() {
            assert_eq!(Depth::from_code(code as u8), Some(*d));
            assert_eq!(d.code() as usize, code);
        }
        assert_eq!(Depth::from_code(4), None);
        assert_eq!(Depth::Bit16.bytes(), 2);
        assert_eq!(Depth::Bit8.max_raw(), 0xff);
        assert_eq!(Depth::Bit64.max_raw(), u64::MAX);
    }

    #[test]
    fn raw_values_are_little_endian() {
        let c = Channel {
            depth: Depth::Bit16,
            data: ChannelData::Dense(vec![0x34, 0x12, 0xff, 0x7f]),
        };
        assert_eq!(c.raw(0), 0x1234);
        assert_eq!(c.raw(1), 0x7fff);
        assert_eq!(c.single_value(), None);
        let u = Channel {
            depth: Depth::Bit16,
            data: ChannelData::Dense(vec![7, 0, 7, 0]),
        };
        assert_eq!(u.single_value(), Some(7));
        assert!(Channel::default_for(CHANNEL_SDF, Depth::Bit16).is_unused(CHANNEL_SDF));
        assert!(!Channel::uniform(Depth::Bit16, 5).is_unused(CHANNEL_SDF));
        assert!(c.check_len(2).is_ok());
        assert!(c.check_len(3).is_err());
    }
}
