//! The history's byte form (the project file's `HIST` section).
//!
//! ```text
//!   u8 version (1 or 2) | u64 budget bytes | u32 undo steps | u32 redo steps
//!   steps (undo oldest first, then redo bottom to top):
//!     u32 name length | name (UTF-8) | u32 boxes | boxes | [version 2: u32 changes | changes]
//!     box: i32 min x,y,z | i32 max x,y,z | packed before | u8 has_after | [packed after]
//!     change: u8 kind (1: the material table's RON) | u32 length | before | u32 length | after
//!   packed = u32 RLE length | u32 LZ4 length | LZ4 bytes
//! ```
//!
//! Version 2 added the data changes. A history whose steps change voxels only is written as version
//! 1, byte for byte what earlier builds wrote (and can still read); one with a data change is
//! written as version 2.
//!
//! Loading checks every box completely (LZ4, then the RLE runs) without allocating its voxels, so a
//! history that loads can always be undone and redone, and a file of small boxes that each claim 2²⁷
//! voxels costs time in proportion to its bytes (LZ4 expands at most ~255×), not to the voxels claimed.
//! The voxels are unpacked on undo or redo.

use super::{DataChange, DataKind, History, Snapshot, Step};
use crate::codec::lz4::PackedVoxels;
use crate::codec::rle::{max_encoded_len, Runs};
use crate::codec::Reader;
use crate::voxel::{VoxelBox, VoxelPos};
use crate::{Error, Result};

const VERSION: u8 = 2;
/// Largest box a history entry may hold (voxels); bounds allocation on load.
const MAX_BOX_VOXELS: usize = 1 << 27;
/// Largest project-data payload a change may hold (a material table).
const MAX_DATA_BYTES: usize = 1 << 20;

fn put_u32(out: &mut Vec<u8>, v: u32) {
    out.extend_from_slice(&v.to_le_bytes());
}

fn put_packed(out: &mut Vec<u8>, p: &PackedVoxels) {
    put_u32(out, p.rle_len);
    put_u32(out, p.bytes.len() as u32);
    out.extend_from_slice(&p.bytes);
}

fn read_packed(
    r: &mut Reader<'_>,
    region: &VoxelBox,
    scratch: &mut Vec<u8>,
) -> Result<PackedVoxels> {
    let at = r.offset();
    let rle_len = r.u32("RLE length")?;
    let len = r.u32("packed length")? as usize;
    let bytes = r.take(len, "packed box")?.to_vec();
    // A run record covers at most 256 voxels in 2 bytes, and LZ4 expands at most ~255×: boxes the
    // data cannot describe are refused before the box is allocated.
    let rle = rle_len as usize;
    if rle > max_encoded_len(region.volume())
        || rle.saturating_mul(128) < region.volume()
        || len.saturating_mul(255).saturating_add(16) < rle
    {
        return Err(Error::corrupt(
            at,
            "packed sizes are impossible for the box",
        ));
    }
    let packed = PackedVoxels { rle_len, bytes };
    check_packed(&packed, region.volume(), scratch)
        .map_err(|e| Error::corrupt(at, format!("history box does not decode: {e}")))?;
    Ok(packed)
}

/// Decode `packed` as far as its runs, checking everything [`PackedVoxels::unpack`] checks, without
/// allocating the box's voxels.
fn check_packed(packed: &PackedVoxels, volume: usize, scratch: &mut Vec<u8>) -> Result<()> {
    let rle_len = packed.rle_len as usize;
    scratch.clear();
    scratch.resize(rle_len, 0);
    let n = lz4_flex::block::decompress_into(&packed.bytes, scratch)
        .map_err(|e| Error::corrupt(0, format!("LZ4: {e}")))?;
    if n != rle_len {
        return Err(Error::corrupt(
            0,
            format!("LZ4 produced {n} bytes, expected {rle_len}"),
        ));
    }
    Runs::new(scratch, volume as u64).try_for_each(|r| r.map(|_| ()))
}

fn read_box(r: &mut Reader<'_>) -> Result<VoxelBox> {
    let at = r.offset();
    let mut c = [0i32; 6];
    for v in &mut c {
        *v = r.i32("box corner")?;
    }
    let b = VoxelBox::new(
        VoxelPos::new(c[0], c[1], c[2]),
        VoxelPos::new(c[3], c[4], c[5]),
    );
    if !b.in_range() {
        return Err(Error::corrupt(
            at,
            format!("history box {b:?} lies outside the world's coordinate range"),
        ));
    }
    if b.is_empty() || b.volume() > MAX_BOX_VOXELS {
        return Err(Error::corrupt(
            at,
            format!("history box {b:?} is empty or too large"),
        ));
    }
    Ok(b)
}

fn read_payload(r: &mut Reader<'_>) -> Result<Vec<u8>> {
    let at = r.offset();
    let len = r.u32("data length")? as usize;
    if len > MAX_DATA_BYTES {
        return Err(Error::corrupt(
            at,
            format!("a data change of {len} bytes is over the {MAX_DATA_BYTES}-byte limit"),
        ));
    }
    Ok(r.take(len, "data change")?.to_vec())
}

fn read_changes(r: &mut Reader<'_>) -> Result<Vec<DataChange>> {
    let count = r.u32("data change count")? as usize;
    // Every change takes at least 9 bytes.
    if count > r.remaining() / 9 {
        return Err(r.error(format!(
            "{count} data changes cannot fit in the remaining bytes"
        )));
    }
    let mut out = Vec::with_capacity(count);
    for _ in 0..count {
        let at = r.offset();
        let code = r.u8("data kind")?;
        let kind = DataKind::from_code(code)
            .ok_or_else(|| Error::corrupt(at, format!("unknown data kind {code}")))?;
        let before = read_payload(r)?;
        let after = read_payload(r)?;
        out.push(DataChange {
            kind,
            before,
            after,
        });
    }
    Ok(out)
}

fn read_step(r: &mut Reader<'_>, version: u8, redo: bool, scratch: &mut Vec<u8>) -> Result<Step> {
    let name_len = r.u32("step name length")? as usize;
    let name_at = r.offset();
    let name = std::str::from_utf8(r.take(name_len, "step name")?)
        .map_err(|_| Error::corrupt(name_at, "step name is not UTF-8"))?
        .to_owned();
    let count = r.u32("box count")? as usize;
    // Every box takes at least 33 bytes, which bounds the allocation.
    if count > r.remaining() / 33 {
        return Err(r.error(format!("{count} boxes cannot fit in the remaining bytes")));
    }
    let mut boxes = Vec::with_capacity(count);
    for _ in 0..count {
        let region = read_box(r)?;
        let before = read_packed(r, &region, scratch)?;
        let flag_at = r.offset();
        let after = match r.u8("has-after flag")? {
            0 if !redo => None,
            1 => Some(read_packed(r, &region, scratch)?),
            _ => return Err(Error::corrupt(flag_at, "bad has-after flag")),
        };
        boxes.push(Snapshot {
            region,
            before,
            after,
        });
    }
    let data = if version >= 2 {
        read_changes(r)?
    } else {
        Vec::new()
    };
    Ok(Step { name, boxes, data })
}

impl History {
    /// Encode for the project file.
    pub fn to_bytes(&self) -> Vec<u8> {
        let steps = || self.undo.iter().chain(&self.redo).chain(&self.open);
        let version = if steps().any(|s| !s.data.is_empty()) {
            VERSION
        } else {
            1
        };
        let mut out = vec![version];
        out.extend_from_slice(&(self.budget_bytes as u64).to_le_bytes());
        let mut undo: Vec<&Step> = self.undo.iter().collect();
        if let Some(open) = self.open.as_ref().filter(|s| !s.is_empty()) {
            undo.push(open);
        }
        put_u32(&mut out, undo.len() as u32);
        put_u32(&mut out, self.redo.len() as u32);
        for step in undo.into_iter().chain(&self.redo) {
            put_u32(&mut out, step.name.len() as u32);
            out.extend_from_slice(step.name.as_bytes());
            put_u32(&mut out, step.boxes.len() as u32);
            for b in &step.boxes {
                for c in b
                    .region
                    .min
                    .to_array()
                    .into_iter()
                    .chain(b.region.max.to_array())
                {
                    out.extend_from_slice(&c.to_le_bytes());
                }
                put_packed(&mut out, &b.before);
                match &b.after {
                    Some(a) => {
                        out.push(1);
                        put_packed(&mut out, a);
                    }
                    None => out.push(0),
                }
            }
            if version < 2 {
                continue;
            }
            put_u32(&mut out, step.data.len() as u32);
            for d in &step.data {
                out.push(d.kind.code());
                for payload in [&d.before, &d.after] {
                    put_u32(&mut out, payload.len() as u32);
                    out.extend_from_slice(payload);
                }
            }
        }
        out
    }

    /// Decode bytes found at absolute offset `base`.
    ///
    /// # Errors
    /// [`Error::Corrupt`] with the offset of the first bad field, or an unsupported version.
    pub fn from_bytes(bytes: &[u8], base: usize) -> Result<Self> {
        let mut r = Reader::new(bytes, base);
        let version = r.u8("history version")?;
        if !(1..=VERSION).contains(&version) {
            return Err(Error::corrupt(
                base,
                format!("history section version {version} is not supported (this build reads 1 to {VERSION})"),
            ));
        }
        let budget = r.u64("history budget")?;
        let undo_count = r.u32("undo step count")? as usize;
        let redo_count = r.u32("redo step count")? as usize;
        // Every step takes at least 8 bytes.
        if undo_count.saturating_add(redo_count) > r.remaining() / 8 {
            return Err(r.error("step counts exceed the section size"));
        }
        let mut h = History::new(usize::try_from(budget).unwrap_or(usize::MAX));
        let mut scratch = Vec::new();
        for _ in 0..undo_count {
            h.undo
                .push_back(read_step(&mut r, version, false, &mut scratch)?);
        }
        for _ in 0..redo_count {
            h.redo.push(read_step(&mut r, version, true, &mut scratch)?);
        }
        if r.remaining() != 0 {
            return Err(r.error("unexpected bytes after the history"));
        }
        h.recount();
        h.enforce_budget();
        Ok(h)
    }
}
