//! `BlockData` version 4: one block of voxels in godot_voxel's binary format.
//!
//! ```text
//!   u8  version = 4
//!   u16 size_x, size_y, size_z                      little-endian, like everything below
//!   8 × channel:  u8 format (low nibble compression: 0 NONE, 1 UNIFORM; high nibble depth 0..3)
//!                 NONE: volume × (1 << depth) bytes, ZXY order (Y fastest, then X, then Z)
//!                 UNIFORM: one value of (1 << depth) bytes
//!   [u32 metadata_size, metadata_size bytes]        only when more than 4 bytes are left
//!   u32 epilogue = 0x900df00d                       bytes 0d f0 0d 90
//! ```
//!
//! The decoder checks every length against the bytes present before it allocates, so a hostile
//! block costs at most its own size in memory. Versions 2 and 3 (older godot_voxel) are reported as
//! unsupported. The metadata section is kept as opaque bytes ([`Metadata`]), so unknown
//! application-defined items survive a read and a write. The writer emits UNIFORM for every channel
//! whose values are all equal and omits an empty metadata section, as godot_voxel does.

use super::channel::{Channel, ChannelData, Depth, CHANNEL_COUNT, DEFAULT_DEPTHS};
use super::metadata::Metadata;
use crate::codec::Reader;
use crate::{Error, Result};

/// The block format version this module reads and writes.
pub const BLOCK_VERSION: u8 = 4;
/// The `u32` every block ends with.
pub const EPILOGUE: u32 = 0x900d_f00d;

const COMPRESSION_NONE: u8 = 0;
const COMPRESSION_UNIFORM: u8 = 1;

/// One godot_voxel block: its size, its 8 channels and its metadata.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BlockData {
    /// Size in voxels, `[x, y, z]`; every axis at least 1.
    pub size: [u16; 3],
    /// The channels in godot_voxel order: TYPE, SDF, COLOR, INDICES, WEIGHTS, DATA5, DATA6, DATA7.
    pub channels: [Channel; CHANNEL_COUNT],
    /// The metadata section's bytes (empty: no section).
    pub metadata: Metadata,
}

impl BlockData {
    /// A block of `size` with every channel at godot_voxel's default depth and value.
    pub fn new(size: [u16; 3]) -> Self {
        Self::with_depths(size, DEFAULT_DEPTHS)
    }

    /// A block of `size` with the given depths, every channel at its default value.
    pub fn with_depths(size: [u16; 3], depths: [Depth; CHANNEL_COUNT]) -> Self {
        Self {
            size,
            channels: std::array::from_fn(|i| Channel::default_for(i, depths[i])),
            metadata: Metadata::default(),
        }
    }

    /// Number of voxels.
    pub fn volume(&self) -> usize {
        self.size.iter().map(|&s| usize::from(s)).product()
    }

    /// The ZXY index of voxel (`x`, `y`, `z`): `y + sy·(x + sx·z)`.
    #[inline]
    pub fn index(&self, x: usize, y: usize, z: usize) -> usize {
        let [sx, sy, _] = self.size.map(usize::from);
        y + sy * (x + sx * z)
    }

    /// The depths of the 8 channels.
    pub fn depths(&self) -> [Depth; CHANNEL_COUNT] {
        std::array::from_fn(|i| self.channels[i].depth)
    }

    /// Decode a block. Offsets in errors are relative to the start of `bytes`.
    ///
    /// # Errors
    /// [`Error::UnsupportedVersion`] for any version but 4; [`Error::Corrupt`] for truncated data, a
    /// zero size, an unknown compression or depth, a bad metadata length, bytes left over or a wrong
    /// epilogue.
    pub fn decode(bytes: &[u8]) -> Result<Self> {
        let mut r = Reader::new(bytes, 0);
        let version = r.u8("block version")?;
        if version != BLOCK_VERSION {
            return Err(Error::UnsupportedVersion {
                found: u32::from(version),
                supported: "godot_voxel block format 4".into(),
            });
        }
        let at = r.offset();
        let size = [r.u16("size_x")?, r.u16("size_y")?, r.u16("size_z")?];
        if size.contains(&0) {
            return Err(Error::corrupt(
                at,
                format!("block size {size:?} has a zero axis"),
            ));
        }
        let volume = size.iter().map(|&s| s as usize).product::<usize>();
        let mut channels = Vec::with_capacity(CHANNEL_COUNT);
        for i in 0..CHANNEL_COUNT {
            channels.push(decode_channel(&mut r, i, volume)?);
        }
        let metadata = if r.remaining() > 4 {
            let at = r.offset();
            let len = r.u32("metadata size")? as usize;
            if len > r.remaining().saturating_sub(4) {
                return Err(Error::corrupt(
                    at,
                    format!(
                        "metadata size {len} exceeds the {} bytes before the epilogue",
                        r.remaining().saturating_sub(4)
                    ),
                ));
            }
            Metadata::from_bytes(r.take(len, "metadata")?.to_vec())
        } else {
            Metadata::default()
        };
        if r.remaining() > 4 {
            return Err(r.error(format!(
                "{} unexpected bytes before the epilogue",
                r.remaining() - 4
            )));
        }
        let at = r.offset();
        let epilogue = r.u32("epilogue")?;
        if epilogue != EPILOGUE {
            return Err(Error::corrupt(
                at,
                format!("epilogue is {epilogue:#010x}, expected 0x900df00d (corrupt block)"),
            ));
        }
        let channels: [Channel; CHANNEL_COUNT] = channels
            .try_into()
            .map_err(|_| Error::corrupt(0, "wrong channel count"))?;
        Ok(Self {
            size,
            channels,
            metadata,
        })
    }

    /// Append the encoded block to `out`.
    ///
    /// # Errors
    /// [`Error::Invalid`] when a dense channel's length does not match the block's volume.
    pub fn encode(&self, out: &mut Vec<u8>) -> Result<()> {
        let volume = self.volume();
        if volume == 0 {
            return Err(Error::Invalid("a block needs at least one voxel".into()));
        }
        for c in &self.channels {
            c.check_len(volume)?;
        }
        out.push(BLOCK_VERSION);
        for s in self.size {
            out.extend_from_slice(&s.to_le_bytes());
        }
        for c in &self.channels {
            let depth = c.depth.code() << 4;
            match (&c.data, c.single_value()) {
                (ChannelData::Dense(bytes), None) => {
                    out.push(COMPRESSION_NONE | depth);
                    out.extend_from_slice(bytes);
                }
                (_, value) => {
                    out.push(COMPRESSION_UNIFORM | depth);
                    let v = value.unwrap_or_default().to_le_bytes();
                    out.extend_from_slice(&v[..c.depth.bytes()]);
                }
            }
        }
        let meta = self.metadata.as_bytes();
        if !meta.is_empty() {
            let len = u32::try_from(meta.len())
                .map_err(|_| Error::Invalid("metadata over 4 GiB".into()))?;
            out.extend_from_slice(&len.to_le_bytes());
            out.extend_from_slice(meta);
        }
        out.extend_from_slice(&EPILOGUE.to_le_bytes());
        Ok(())
    }

    /// The encoded block as a new vector.
    ///
    /// # Errors
    /// As [`BlockData::encode`].
    pub fn to_bytes(&self) -> Result<Vec<u8>> {
        let mut out = Vec::new();
        self.encode(&mut out)?;
        Ok(out)
    }
}

fn decode_channel(r: &mut Reader<'_>, index: usize, volume: usize) -> Result<Channel> {
    let at = r.offset();
    let format = r.u8("channel format")?;
    let compression = format & 0x0f;
    let depth = Depth::from_code(format >> 4).ok_or_else(|| {
        Error::corrupt(
            at,
            format!(
                "channel {index}: format byte {format:#04x} has unknown depth {}",
                format >> 4
            ),
        )
    })?;
    let n = depth.bytes();
    let data = match compression {
        COMPRESSION_UNIFORM => {
            ChannelData::Uniform(super::channel::read_le(r.take(n, "uniform value")?))
        }
        COMPRESSION_NONE => {
            let len = volume.checked_mul(n).filter(|&l| l <= r.remaining());
            let Some(len) = len else {
                return Err(r.error(format!(
                    "channel {index}: {volume} voxels at {n} bytes need more than the {} bytes left",
                    r.remaining()
                )));
            };
            ChannelData::Dense(r.take(len, "channel data")?.to_vec())
        }
        c => {
            return Err(Error::corrupt(
                at,
                format!("channel {index}: format byte {format:#04x} has unknown compression {c}"),
            ))
        }
    };
    Ok(Channel { depth, data })
}

#[cfg(test)]
mod block_tests;
