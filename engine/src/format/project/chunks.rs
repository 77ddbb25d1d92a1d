//! The CHNK section: a table of chunk records, each one 32³ chunk with its own CRC32.
//!
//! ```text
//!   u32 count
//!   version 2: count × entry (28 bytes): i32 cx, i32 cy, i32 cz, u64 offset (from payload start),
//!                                        u32 record length, u32 crc32(record)
//!              record = the chunk's column coding (crate::codec::column_coder)
//!   version 1: count × entry (32 bytes): i32 cx, i32 cy, i32 cz, u64 offset (from payload start),
//!                                        u32 lz4 length, u32 rle length, u32 crc32(lz4 bytes)
//!              record = LZ4(RLE of the chunk's voxels)
//!   records, in table order
//! ```
//!
//! Saves write version 2, which is about a quarter of version 1's size on generated terrain; version 1
//! files still load. Chunks are encoded and decoded in parallel; the table is sorted (Z, Y, X) so
//! equal worlds give equal bytes.

use rayon::prelude::*;

use super::header::ProjectHeader;
use crate::codec::column_coder;
use crate::codec::lz4::unpack_into;
use crate::codec::rle::{max_encoded_len, RleEncoder};
use crate::codec::Reader;
use crate::progress::Progress;
use crate::storage::{Chunk, Grid, RowBuf};
use std::sync::atomic::{AtomicUsize, Ordering};

use crate::voxel::{ChunkPos, Voxel, CHUNK_LIMIT, CHUNK_SIZE};
use crate::{Error, Result};

/// How a file version codes its chunk records.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ChunkCoding {
    /// Version 1: LZ4 of the chunk's RLE stream.
    RleLz4,
    /// Version 2: the column coding of [`crate::codec::column_coder`].
    Columns,
}

impl ChunkCoding {
    /// The coding of project file `version` (1 or later; later versions code by columns).
    pub fn of_version(version: u32) -> Self {
        if version >= 2 {
            Self::Columns
        } else {
            Self::RleLz4
        }
    }

    fn entry_len(self) -> usize {
        match self {
            Self::RleLz4 => 32,
            Self::Columns => 28,
        }
    }

    /// How much memory the decoded chunks may take per byte of the CHNK payload.
    ///
    /// Version 1: records may not overlap, LZ4 expands at most ~255×, and identical rows of a chunk
    /// share memory, so files stay far below 256×. Version 2: a chunk's record and table entry take
    /// at least 33 bytes and a decoded chunk at most about 75 KiB, so 2,304× covers every file the
    /// writer can produce. Either cap is the stated bound that holds whatever a future storage
    /// change does, and a file over it is refused while decoding.
    pub fn max_expansion(self) -> usize {
        match self {
            Self::RleLz4 => MAX_EXPANSION,
            Self::Columns => MAX_EXPANSION_COLUMNS,
        }
    }
}

/// [`ChunkCoding::max_expansion`] of version 1 files.
pub const MAX_EXPANSION: usize = 256;
/// [`ChunkCoding::max_expansion`] of version 2 files.
pub const MAX_EXPANSION_COLUMNS: usize = 2304;
/// Decoded memory always allowed, whatever the payload size, so tiny files are never refused.
pub const EXPANSION_FLOOR_BYTES: usize = 64 << 20;

/// Memory the decoded grid may take for a CHNK payload of `payload_len` bytes coded as `coding`.
pub fn decoded_budget(payload_len: usize, coding: ChunkCoding) -> usize {
    payload_len
        .saturating_mul(coding.max_expansion())
        .max(EXPANSION_FLOOR_BYTES)
}

/// RLE stream of one chunk (rows in X, Y, Z order), appended to `out`.
pub fn encode_chunk_rle(chunk: &Chunk, out: &mut Vec<u8>) {
    let mut e = RleEncoder::new();
    let mut buf = RowBuf::new();
    for z in 0..CHUNK_SIZE {
        for y in 0..CHUNK_SIZE {
            e.push(chunk.read_row(y, z, &mut buf), out);
        }
    }
    e.finish(out);
}

/// A chunk's voxels, dense (X fastest, then Y, then Z), into `out`.
fn dense_voxels(chunk: &Chunk, out: &mut Vec<Voxel>) {
    out.resize(Chunk::VOLUME, Voxel::AIR);
    chunk.level0().to_dense(out);
}

/// Every chunk of `grid` as (position, column-coded record), sorted, encoded in parallel.
fn encode_column_records(grid: &Grid, progress: &Progress) -> Vec<(ChunkPos, Vec<u8>)> {
    let positions = grid.sorted_positions();
    progress.start(positions.len() as u64);
    positions
        .par_iter()
        .map_init(Vec::new, |dense, &pos| {
            let mut record = Vec::new();
            if let Some(c) = grid.chunk(pos) {
                // A uniform chunk codes to the same bytes without its 32³ dense copy.
                match c.uniform_material() {
                    Some(m) => column_coder::encode_uniform_chunk(Voxel::filled(m), &mut record),
                    None => {
                        dense_voxels(c, dense);
                        column_coder::encode_chunk(dense, &mut record);
                    }
                }
            }
            progress.advance(1);
            (pos, record)
        })
        .collect()
}

/// Every chunk of `grid` as (position, RLE length, LZ4 bytes), sorted, encoded in parallel (the
/// version 1 records, measured by [`encoded_sizes`]).
fn encode_records(grid: &Grid, progress: &Progress) -> Vec<(ChunkPos, u32, Vec<u8>)> {
    let positions = grid.sorted_positions();
    progress.start(positions.len() as u64);
    positions
        .par_iter()
        .map_init(Vec::new, |rle, &pos| {
            rle.clear();
            if let Some(c) = grid.chunk(pos) {
                encode_chunk_rle(c, rle);
            }
            progress.advance(1);
            (pos, rle.len() as u32, lz4_flex::block::compress(rle))
        })
        .collect()
}

/// Encode the section payload for `grid` (version 2); `progress` counts chunks.
pub fn encode(grid: &Grid, progress: &Progress) -> Vec<u8> {
    let records = encode_column_records(grid, progress);
    let table_len = 4 + records.len() * ChunkCoding::Columns.entry_len();
    let body: usize = records.iter().map(|r| r.1.len()).sum();
    let mut out = Vec::with_capacity(table_len + body);
    out.extend_from_slice(&(records.len() as u32).to_le_bytes());
    let mut offset = table_len as u64;
    for (pos, record) in &records {
        for c in [pos.x, pos.y, pos.z] {
            out.extend_from_slice(&c.to_le_bytes());
        }
        out.extend_from_slice(&offset.to_le_bytes());
        out.extend_from_slice(&(record.len() as u32).to_le_bytes());
        out.extend_from_slice(&crc32fast::hash(record).to_le_bytes());
        offset += record.len() as u64;
    }
    for (_, record) in records {
        out.extend_from_slice(&record);
    }
    out
}

struct Entry {
    pos: ChunkPos,
    offset: usize,
    len: usize,
    /// Version 1 only: the RLE stream's length (0 in version 2).
    rle_len: usize,
    crc: u32,
    table_at: usize,
}

fn read_table(payload: &[u8], base: usize, coding: ChunkCoding) -> Result<Vec<Entry>> {
    let entry_len = coding.entry_len();
    let mut r = Reader::new(payload, base);
    let count = r.u32("chunk count")? as usize;
    if count > r.remaining() / entry_len {
        return Err(Error::corrupt(
            base,
            format!("chunk table of {count} entries does not fit in the section"),
        ));
    }
    let mut entries = Vec::with_capacity(count);
    // Records lie after the table, in table order, without overlaps: every byte of the file then
    // decodes at most once, which bounds the work and memory by the file's size.
    let mut next_free = (4 + count * entry_len) as u64;
    for _ in 0..count {
        let table_at = r.offset();
        let pos = ChunkPos::new(r.i32("chunk x")?, r.i32("chunk y")?, r.i32("chunk z")?);
        let offset = r.u64("record offset")?;
        let len = r.u32("record length")? as usize;
        let rle_len = match coding {
            ChunkCoding::RleLz4 => r.u32("RLE length")? as usize,
            ChunkCoding::Columns => 0,
        };
        let crc = r.u32("record checksum")?;
        let end = offset.checked_add(len as u64);
        if end.is_none_or(|e| e > payload.len() as u64) {
            return Err(Error::corrupt(
                table_at,
                format!("chunk {pos:?}: record lies outside the section"),
            ));
        }
        if !pos.in_range() {
            return Err(Error::corrupt(
                table_at,
                format!(
                    "chunk {pos:?} lies outside the world's coordinate range (chunk coordinates {} to {})",
                    -CHUNK_LIMIT,
                    CHUNK_LIMIT - 1
                ),
            ));
        }
        if offset < next_free {
            return Err(Error::corrupt(
                table_at,
                format!(
                    "chunk {pos:?}: record at {offset} overlaps the table or the previous record, or is out of order (records must follow the table in table order without overlapping)"
                ),
            ));
        }
        next_free = offset + len as u64;
        if rle_len > max_encoded_len(Chunk::VOLUME) {
            return Err(Error::corrupt(
                table_at,
                format!("chunk {pos:?}: RLE length {rle_len} too large"),
            ));
        }
        entries.push(Entry {
            pos,
            offset: offset as usize,
            len,
            rle_len,
            crc,
            table_at,
        });
    }
    let mut sorted: Vec<(ChunkPos, usize)> = entries.iter().map(|e| (e.pos, e.table_at)).collect();
    sorted.sort_unstable();
    if let Some(w) = sorted.windows(2).find(|w| w[0].0 == w[1].0) {
        return Err(Error::corrupt(
            w[1].1,
            format!("chunk {:?} is stored twice", w[1].0),
        ));
    }
    Ok(entries)
}

fn decode_entry(
    e: &Entry,
    payload: &[u8],
    base: usize,
    coding: ChunkCoding,
    materials: usize,
    scratch: &mut (Vec<u8>, Vec<Voxel>),
) -> Result<(ChunkPos, Chunk)> {
    let at = base + e.offset;
    let record = &payload[e.offset..e.offset + e.len];
    if crc32fast::hash(record) != e.crc {
        return Err(Error::corrupt(
            at,
            format!("chunk {:?}: checksum mismatch", e.pos),
        ));
    }
    let (rle, voxels) = scratch;
    voxels.resize(Chunk::VOLUME, Voxel::AIR);
    match coding {
        ChunkCoding::RleLz4 => unpack_into(record, e.rle_len, voxels, rle),
        ChunkCoding::Columns => column_coder::decode_chunk(record, voxels),
    }
    .map_err(|err| match err {
        Error::Corrupt { reason, .. } => Error::corrupt(at, format!("chunk {:?}: {reason}", e.pos)),
        other => other,
    })?;
    if let Some(v) = voxels.iter().find(|v| usize::from(v.material) >= materials) {
        return Err(Error::corrupt(
            at,
            format!(
                "chunk {:?}: material id {} is not in the material table",
                e.pos, v.material
            ),
        ));
    }
    Ok((e.pos, Chunk::from_dense(voxels)))
}

/// Decode the section payload found at absolute offset `base`, its records coded as `coding`.
///
/// # Errors
/// [`Error::Corrupt`] naming the chunk and offset of the first bad record.
pub fn decode(
    payload: &[u8],
    base: usize,
    coding: ChunkCoding,
    header: &ProjectHeader,
    progress: &Progress,
) -> Result<Grid> {
    decode_within(
        payload,
        base,
        coding,
        header,
        progress,
        decoded_budget(payload.len(), coding),
    )
}

/// [`decode`] with an explicit memory budget for the decoded chunks.
///
/// # Errors
/// As [`decode`], and [`Error::Corrupt`] when the chunks need more than `budget` bytes.
pub fn decode_within(
    payload: &[u8],
    base: usize,
    coding: ChunkCoding,
    header: &ProjectHeader,
    progress: &Progress,
    budget: usize,
) -> Result<Grid> {
    let entries = read_table(payload, base, coding)?;
    let materials = header.materials.len();
    progress.start(entries.len() as u64);
    let used = AtomicUsize::new(0);
    let chunks: Vec<(ChunkPos, Chunk)> = entries
        .par_iter()
        .map_init(
            || (Vec::new(), Vec::new()),
            |scratch, e| {
                progress.check()?;
                let decoded = decode_entry(e, payload, base, coding, materials, scratch)?;
                let bytes = decoded.1.heap_bytes() + size_of::<Chunk>();
                if used.fetch_add(bytes, Ordering::Relaxed) + bytes > budget {
                    return Err(Error::corrupt(
                        base + e.offset,
                        format!(
                            "chunks decode to more than {budget} bytes of memory ({}× the {} bytes of the chunk section, at least {EXPANSION_FLOOR_BYTES}): a decompression bomb?",
                            coding.max_expansion(),
                            payload.len()
                        ),
                    ));
                }
                progress.advance(1);
                Ok(decoded)
            },
        )
        .collect::<Result<_>>()?;
    let mut grid = Grid::new();
    for (pos, chunk) in chunks {
        // An all-Air record (never written by Strata) is harmless: insert_chunk drops it.
        grid.insert_chunk(pos, chunk);
    }
    Ok(grid)
}

/// Sizes of a grid encoded chunk by chunk (as in the CHNK section, without the table).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct EncodedSizes {
    /// Sum of every chunk's RLE stream length.
    pub rle_bytes: u64,
    /// Sum of every chunk's LZ4(RLE) length (the records of version 1 files).
    pub rle_lz4_bytes: u64,
    /// Sum of every chunk's column-coded record length (the records this build saves, version 2).
    pub column_bytes: u64,
}

/// Encode every chunk (in parallel) both ways and add up the sizes.
pub fn encoded_sizes(grid: &Grid) -> EncodedSizes {
    let v1 = encode_records(grid, &Progress::new()).iter().fold(
        EncodedSizes::default(),
        |acc, (_, rle, lz4)| EncodedSizes {
            rle_bytes: acc.rle_bytes + u64::from(*rle),
            rle_lz4_bytes: acc.rle_lz4_bytes + lz4.len() as u64,
            column_bytes: 0,
        },
    );
    let column_bytes = encode_column_records(grid, &Progress::new())
        .iter()
        .map(|(_, record)| record.len() as u64)
        .sum();
    EncodedSizes { column_bytes, ..v1 }
}
