//! One godot_voxel region file (`.vxr`, version 3): a grid of blocks stored in fixed-size sectors.
//!
//! ```text
//!   "VXR_"  u8 version = 3
//!   u8 block_size_po2   u8 region_size_x, _y, _z   u8 channel_depths[8]   u16 sector_size
//!   u8 palette_hint (0 none, 0xFF: 256 × RGBA8 follow)
//!   u32 lut[rx·ry·rz]   ZXY order over region-local block positions; 0 = absent,
//!                       else (first_sector << 8) | sector_count
//!   sectors: block = u32 length + compressed container, zero-padded to whole sectors
//! ```
//!
//! Sector `i` starts at `header_len + i · sector_size`. Version 2 files have only the magic, the
//! version byte and the LUT; their format comes from the forest's `meta.vxrm`. The reader checks the
//! whole table up front: every block must lie inside the file and fit its sectors, and no two blocks
//! may share a sector.

use super::channel::{Depth, CHANNEL_COUNT, DEFAULT_DEPTHS};
use crate::codec::Reader;
use crate::{Error, Result};

/// Region file magic.
pub const REGION_MAGIC: [u8; 4] = *b"VXR_";
/// The region version this module writes.
pub const REGION_VERSION: u8 = 3;
/// Palette bytes when present: 256 RGBA8 colors.
const PALETTE_LEN: usize = 1024;

/// The format a region file declares in its header.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RegionFormat {
    /// log2 of the block edge (4 = 16³ blocks).
    pub block_size_po2: u8,
    /// Blocks per axis, `[x, y, z]`, each 1 to 254.
    pub region_size: [u8; 3],
    /// Depth of each channel.
    pub channel_depths: [Depth; CHANNEL_COUNT],
    /// Bytes per sector.
    pub sector_size: u16,
    /// 256 RGBA colors, when the file has a palette (kept, not used).
    pub palette: Option<Vec<u8>>,
}

impl Default for RegionFormat {
    /// godot_voxel's defaults: 16³ blocks, 16³ blocks per region, default depths, 512-byte sectors.
    fn default() -> Self {
        Self {
            block_size_po2: 4,
            region_size: [16; 3],
            channel_depths: DEFAULT_DEPTHS,
            sector_size: 512,
            palette: None,
        }
    }
}

impl RegionFormat {
    /// Number of LUT entries (`rx · ry · rz`).
    pub fn block_count(&self) -> usize {
        self.region_size.iter().map(|&s| usize::from(s)).product()
    }

    /// The LUT index of region-local block `local`: `y + ry·(x + rx·z)`.
    pub fn lut_index(&self, local: [usize; 3]) -> usize {
        let [rx, ry, _] = self.region_size.map(usize::from);
        local[1] + ry * (local[0] + rx * local[2])
    }

    /// The region-local block position of LUT index `i`.
    pub fn local_of(&self, i: usize) -> [usize; 3] {
        let [rx, ry, _] = self.region_size.map(usize::from);
        [(i / ry) % rx, i % ry, i / (rx * ry)]
    }

    fn v3_header_len(&self) -> usize {
        20 + self.palette.as_ref().map_or(0, |_| PALETTE_LEN) + 4 * self.block_count()
    }

    fn check(&self, at: usize) -> Result<()> {
        if !(1..=8).contains(&self.block_size_po2) {
            return Err(Error::corrupt(
                at,
                format!("block size 2^{} is outside 2^1..2^8", self.block_size_po2),
            ));
        }
        if self.region_size.iter().any(|&s| s == 0 || s == 255) {
            return Err(Error::corrupt(
                at,
                format!("region size {:?} must be 1 to 254 blocks", self.region_size),
            ));
        }
        if self.sector_size == 0 {
            return Err(Error::corrupt(at, "sector size is 0"));
        }
        Ok(())
    }
}

/// A parsed region file: its format and where each block's container lies.
#[derive(Debug, Clone)]
pub struct RegionReader<'a> {
    /// The format from the header (or from `meta.vxrm` for version 2).
    pub format: RegionFormat,
    /// The file's version (2 or 3).
    pub version: u8,
    bytes: &'a [u8],
    /// Per LUT index: the container's byte range, if the block is present.
    blocks: Vec<Option<(usize, usize)>>,
}

impl<'a> RegionReader<'a> {
    /// Parse and check a region file. `v2_format` is the format for version 2 files (from the
    /// forest's meta file); version 3 files carry their own.
    ///
    /// # Errors
    /// [`Error::Corrupt`] with the offset of the problem: bad magic, a format out of range, a table
    /// past the end of the file, a block outside the file or longer than its sectors, overlapping
    /// sectors. [`Error::UnsupportedVersion`] for versions other than 2 and 3.
    pub fn parse(bytes: &'a [u8], v2_format: Option<&RegionFormat>) -> Result<Self> {
        let mut r = Reader::new(bytes, 0);
        if r.array::<4>("region magic")? != REGION_MAGIC {
            return Err(Error::corrupt(
                0,
                "not a region file (magic is not \"VXR_\")",
            ));
        }
        let version = r.u8("region version")?;
        let format = match version {
            3 => read_format(&mut r)?,
            2 => v2_format
                .cloned()
                .ok_or_else(|| Error::corrupt(4, "version 2 region without a forest format"))?,
            v => {
                return Err(Error::UnsupportedVersion {
                    found: u32::from(v),
                    supported: "godot_voxel region format 2 and 3".into(),
                })
            }
        };
        let count = format.block_count();
        let lut_at = r.offset();
        if count * 4 > r.remaining() {
            return Err(r.error(format!(
                "truncated: the block table needs {} bytes, {} left",
                count * 4,
                r.remaining()
            )));
        }
        let lut: Vec<u32> = (0..count)
            .map(|_| r.u32("block table"))
            .collect::<Result<_>>()?;
        let header_len = r.offset();
        let blocks = locate_blocks(bytes, &format, &lut, lut_at, header_len)?;
        Ok(Self {
            format,
            version,
            bytes,
            blocks,
        })
    }

    /// The compressed container of the block at region-local `local` and its file offset, if present.
    pub fn block(&self, local: [usize; 3]) -> Option<(usize, &'a [u8])> {
        let i = self.format.lut_index(local);
        let (start, end) = (*self.blocks.get(i)?)?;
        Some((start, &self.bytes[start..end]))
    }

    /// Every present block: region-local position, container offset in the file and container bytes,
    /// in LUT order.
    pub fn blocks(&self) -> impl Iterator<Item = ([usize; 3], usize, &'a [u8])> + '_ {
        self.blocks.iter().enumerate().filter_map(|(i, b)| {
            let (start, end) = (*b)?;
            Some((self.format.local_of(i), start, &self.bytes[start..end]))
        })
    }
}

fn read_format(r: &mut Reader<'_>) -> Result<RegionFormat> {
    let at = r.offset();
    let block_size_po2 = r.u8("block size")?;
    let region_size = r.array::<3>("region size")?;
    let mut channel_depths = DEFAULT_DEPTHS;
    for (i, d) in channel_depths.iter_mut().enumerate() {
        let code_at = r.offset();
        let code = r.u8("channel depth")?;
        *d = Depth::from_code(code).ok_or_else(|| {
            Error::corrupt(code_at, format!("channel {i} has unknown depth {code}"))
        })?;
    }
    let sector_size = r.u16("sector size")?;
    let hint_at = r.offset();
    let palette = match r.u8("palette hint")? {
        0 => None,
        0xff => Some(r.take(PALETTE_LEN, "palette")?.to_vec()),
        h => {
            return Err(Error::corrupt(
                hint_at,
                format!("palette hint {h:#04x} (expected 0x00 or 0xff)"),
            ))
        }
    };
    let format = RegionFormat {
        block_size_po2,
        region_size,
        channel_depths,
        sector_size,
        palette,
    };
    format.check(at)?;
    Ok(format)
}

/// Check every LUT entry and return each present block's container range.
fn locate_blocks(
    bytes: &[u8],
    format: &RegionFormat,
    lut: &[u32],
    lut_at: usize,
    header_len: usize,
) -> Result<Vec<Option<(usize, usize)>>> {
    let sector = usize::from(format.sector_size);
    let mut used: Vec<(usize, usize, usize)> = Vec::new();
    let mut blocks = vec![None; lut.len()];
    for (i, &e) in lut.iter().enumerate() {
        if e == 0 {
            continue;
        }
        let at = lut_at + 4 * i;
        let (first, count) = ((e >> 8) as usize, (e & 0xff) as usize);
        if count == 0 {
            return Err(Error::corrupt(
                at,
                format!("block table entry {e:#010x} has 0 sectors"),
            ));
        }
        let start = header_len + first * sector;
        let Some(len_bytes) = bytes.get(start..start + 4) else {
            return Err(Error::corrupt(
                at,
                format!(
                    "block at sector {first} (byte {start}) is past the end of the {}-byte file",
                    bytes.len()
                ),
            ));
        };
        let len = u32::from_le_bytes([len_bytes[0], len_bytes[1], len_bytes[2], len_bytes[3]]);
        let len = len as usize;
        if 4 + len > count * sector {
            return Err(Error::corrupt(
                start,
                format!("block of {len} bytes does not fit its {count} sectors"),
            ));
        }
        if start + 4 + len > bytes.len() {
            return Err(Error::corrupt(
                start,
                format!("block of {len} bytes runs past the end of the file"),
            ));
        }
        used.push((first, count, at));
        blocks[i] = Some((start + 4, start + 4 + len));
    }
    used.sort_unstable();
    for w in used.windows(2) {
        let ((a, n, _), (b, _, at)) = (w[0], w[1]);
        if a + n > b {
            return Err(Error::corrupt(
                at,
                format!(
                    "block at sector {b} overlaps the block at sectors {a}..{}",
                    a + n
                ),
            ));
        }
    }
    Ok(blocks)
}

/// Builds a version 3 region file from compressed block containers.
#[derive(Debug, Clone)]
pub struct RegionWriter {
    format: RegionFormat,
    blocks: Vec<Option<Vec<u8>>>,
}

impl RegionWriter {
    /// An empty region of `format`.
    pub fn new(format: RegionFormat) -> Self {
        let n = format.block_count();
        Self {
            format,
            blocks: vec![None; n],
        }
    }

    /// Store the container of the block at region-local `local`.
    ///
    /// # Panics
    /// If `local` is outside the region (a caller bug).
    pub fn set(&mut self, local: [usize; 3], container: Vec<u8>) {
        let i = self.format.lut_index(local);
        self.blocks[i] = Some(container);
    }

    /// The whole file. Blocks are laid out in LUT order, each padded to whole sectors.
    ///
    /// # Errors
    /// [`Error::Invalid`] when a block needs more than 255 sectors or the file more than 2^24.
    pub fn to_bytes(&self) -> Result<Vec<u8>> {
        let f = &self.format;
        f.check(0)?;
        let sector = usize::from(f.sector_size);
        let mut out = Vec::with_capacity(f.v3_header_len());
        out.extend_from_slice(&REGION_MAGIC);
        out.push(REGION_VERSION);
        out.push(f.block_size_po2);
        out.extend_from_slice(&f.region_size);
        out.extend(f.channel_depths.iter().map(|d| d.code()));
        out.extend_from_slice(&f.sector_size.to_le_bytes());
        match &f.palette {
            Some(p) if p.len() == PALETTE_LEN => {
                out.push(0xff);
                out.extend_from_slice(p);
            }
            _ => out.push(0),
        }
        let lut_at = out.len();
        out.resize(lut_at + 4 * self.blocks.len(), 0);
        let header_len = out.len();
        let mut next_sector = 0usize;
        for (i, b) in self.blocks.iter().enumerate() {
            let Some(container) = b else { continue };
            let len = u32::try_from(container.len())
                .map_err(|_| Error::Invalid("block container over 4 GiB".into()))?;
            let count = (4 + container.len()).div_ceil(sector);
            if count > 255 || next_sector > 0xff_ffff {
                return Err(Error::Invalid(format!(
                    "block {:?} needs {count} sectors at sector {next_sector}: over the region limits",
                    f.local_of(i)
                )));
            }
            let entry = ((next_sector as u32) << 8) | count as u32;
            out[lut_at + 4 * i..lut_at + 4 * i + 4].copy_from_slice(&entry.to_le_bytes());
            out.extend_from_slice(&len.to_le_bytes());
            out.extend_from_slice(container);
            out.resize(header_len + (next_sector + count) * sector, 0);
            next_sector += count;
        }
        Ok(out)
    }
}

#[cfg(test)]
mod godot_region_tests;
