//! Import a godot_voxel region forest (`meta.vxrm` + `regions/lod0/*.vxr`) into a grid.
//!
//! Only `lod0` is read: Strata rebuilds its own mips. Blocks of up to 32³ voxels are accepted (Strata's
//! chunk edge; godot_voxel's default is 16³). Decoded blocks are staged into dense 32³ chunk buffers;
//! when a region covers whole chunks (block edge × region edge ≥ 32, always true for godot_voxel's
//! defaults) its chunks are packed as soon as the region is done, so memory stays bounded by one
//! region. Every error names the file and the byte offset; errors inside a block name the block and
//! the offset of its container.

use std::path::{Path, PathBuf};

use rayon::prelude::*;
use rustc_hash::FxHashMap;

use super::block::BlockData;
use super::container::decompress;
use super::godot_export::region_pos_of;
use super::mapping::{voxels_from_block, ImportReport, ImportRules};
use super::meta::{ForestMeta, META_FILE};
use super::region::RegionReader;
use crate::format::input::{read_input, MAX_REGION_BYTES, MAX_TEXT_BYTES};
use crate::progress::Progress;
use crate::storage::{Chunk, Grid};
use crate::voxel::{ChunkPos, Voxel, VoxelBox, VoxelPos, CHUNK_BITS, CHUNK_SIZE, COORD_LIMIT};
use crate::{Error, Result};

/// Metadata allowance on top of a block's largest dense size when capping decompression.
const METADATA_ALLOWANCE: usize = 1 << 20;

/// A region file to decode: its position, its bytes and its path (for error messages).
#[derive(Debug, Clone)]
pub struct RegionSource<'a> {
    /// Region position from the file name.
    pub pos: [i32; 3],
    /// The file's bytes.
    pub bytes: &'a [u8],
    /// The file's path.
    pub path: PathBuf,
}

/// The result of an import.
#[derive(Debug, Clone)]
pub struct ForestImport {
    /// The voxels.
    pub grid: Grid,
    /// The world box: `strata_bounds` from the meta file, else the box of every block read.
    pub bounds: VoxelBox,
    /// Conversion counts.
    pub report: ImportReport,
    /// Files in `regions/lod0` that were not read because their names are not `r.X.Y.Z.vxr` (or they
    /// are not regular files).
    pub skipped: Vec<PathBuf>,
    /// Region files read.
    pub regions: usize,
    /// Blocks read.
    pub blocks: usize,
}

/// Import the forest in `dir`. `progress` counts region files.
///
/// # Errors
/// [`Error::Io`] for unreadable files; [`Error::InFile`] wrapping the decode error of the meta file
/// or of a region file (with the byte offset); [`Error::Invalid`] for a block edge over 32.
pub fn import_forest(dir: &Path, rules: &ImportRules, progress: &Progress) -> Result<ForestImport> {
    let meta_path = dir.join(META_FILE);
    let text = read_input(&meta_path, MAX_TEXT_BYTES)?;
    let meta = ForestMeta::from_json(&text).map_err(|e| e.in_file(&meta_path))?;
    let lod0 = dir.join("regions").join("lod0");
    let entries = std::fs::read_dir(&lod0).map_err(|e| Error::io(&lod0, e))?;
    let mut files: Vec<([i32; 3], PathBuf)> = Vec::new();
    let mut skipped = Vec::new();
    for e in entries.flatten() {
        match e.file_name().to_str().and_then(region_pos_of) {
            Some(pos) => files.push((pos, e.path())),
            None => skipped.push(e.path()),
        }
    }
    skipped.sort();
    if files.is_empty() {
        return Err(Error::Invalid(format!(
            "{} holds no region file named r.X.Y.Z.vxr{}: nothing to import",
            lod0.display(),
            if skipped.is_empty() {
                String::new()
            } else {
                format!(" ({} other files skipped)", skipped.len())
            }
        )));
    }
    files.sort_unstable_by_key(|(p, _)| (p[2], p[1], p[0]));
    if let Some(w) = files.windows(2).find(|w| w[0].0 == w[1].0) {
        return Err(Error::Invalid(format!(
            "{} and {} name the same region",
            w[0].1.display(),
            w[1].1.display()
        )));
    }
    let mut contents = Vec::with_capacity(files.len());
    for (pos, path) in files {
        let bytes = read_input(&path, MAX_REGION_BYTES)?;
        contents.push((pos, bytes, path));
    }
    let sources: Vec<RegionSource<'_>> = contents
        .iter()
        .map(|(pos, bytes, path)| RegionSource {
            pos: *pos,
            bytes,
            path: path.clone(),
        })
        .collect();
    let mut imported = decode_forest(&meta, &sources, rules, progress)?;
    imported.skipped = skipped;
    Ok(imported)
}

/// Decode region files of a forest described by `meta` into a grid.
///
/// # Errors
/// As [`import_forest`], without the I/O.
pub fn decode_forest(
    meta: &ForestMeta,
    sources: &[RegionSource<'_>],
    rules: &ImportRules,
    progress: &Progress,
) -> Result<ForestImport> {
    if meta.block_size_po2 > CHUNK_BITS as u8 {
        return Err(Error::Invalid(format!(
            "blocks of {0}³ voxels are larger than Strata imports (at most 32³)",
            1u32 << meta.block_size_po2
        )));
    }
    let format = meta.region_format();
    let per_region = meta.block_size_po2 + meta.region_size_po2 >= CHUNK_BITS as u8;
    let mut staging = Staging::default();
    let mut result = ForestImport {
        grid: Grid::new(),
        bounds: VoxelBox::default(),
        report: ImportReport::default(),
        skipped: Vec::new(),
        regions: sources.len(),
        blocks: 0,
    };
    progress.start(sources.len() as u64);
    for src in sources {
        progress.check()?;
        let blocks = decode_region(meta, &format, src, rules).map_err(|e| e.in_file(&src.path))?;
        for (b, voxels, report) in blocks {
            result.bounds = result.bounds.union(&b);
            result.report.add(&report);
            result.blocks += 1;
            staging.add(b, &voxels);
        }
        if per_region {
            staging.flush(&mut result.grid);
        }
        progress.advance(1);
    }
    staging.flush(&mut result.grid);
    if let Some(b) = meta.bounds {
        result.bounds = b;
    }
    Ok(result)
}

type DecodedBlock = (VoxelBox, Vec<Voxel>, ImportReport);

fn decode_region(
    meta: &ForestMeta,
    format: &super::region::RegionFormat,
    src: &RegionSource<'_>,
    rules: &ImportRules,
) -> Result<Vec<DecodedBlock>> {
    let region = RegionReader::parse(src.bytes, Some(format))?;
    let f = &region.format;
    if f.block_size_po2 != meta.block_size_po2 || f.region_size != format.region_size {
        return Err(Error::corrupt(
            5,
            format!(
                "region has blocks of 2^{} and {:?} blocks per region, meta.vxrm says 2^{} and {:?}",
                f.block_size_po2,
                f.region_size,
                meta.block_size_po2,
                format.region_size
            ),
        ));
    }
    let edge = 1usize << meta.block_size_po2;
    let dense_max: usize = edge.pow(3) * f.channel_depths.iter().map(|d| d.bytes()).sum::<usize>();
    let cap = dense_max + METADATA_ALLOWANCE;
    let list: Vec<_> = region.blocks().collect();
    list.par_iter()
        .map(|&(local, at, container)| {
            let block_box = block_box(src.pos, local, f.region_size, meta.block_size_po2)
                .ok_or_else(|| {
                    Error::corrupt(
                        at,
                        format!(
                            "block {local:?} lies outside the world's coordinate range ({} to {})",
                            -COORD_LIMIT,
                            COORD_LIMIT - 1
                        ),
                    )
                })?;
            let payload = decompress(container, cap).map_err(|e| match e {
                Error::Corrupt { offset, reason } => Error::Corrupt {
                    offset: offset + at as u64,
                    reason: format!("block {local:?}: {reason}"),
                },
                other => other,
            })?;
            let block = BlockData::decode(&payload).map_err(|e| {
                let inner = match e {
                    Error::Corrupt { offset, reason } => {
                        format!("decompressed byte {offset}: {reason}")
                    }
                    other => other.to_string(),
                };
                Error::corrupt(at, format!("block {local:?}: {inner}"))
            })?;
            if block.size != [edge as u16; 3] {
                return Err(Error::corrupt(
                    at,
                    format!(
                        "block {local:?} is {:?} voxels, the forest uses {edge}³",
                        block.size
                    ),
                ));
            }
            let mut voxels = vec![Voxel::AIR; block.volume()];
            let report = voxels_from_block(&block, rules, &mut voxels);
            Ok((block_box, voxels, report))
        })
        .collect()
}

/// The voxel box of region-local block `local` in region `region`, if it fits in `i32`.
fn block_box(region: [i32; 3], local: [usize; 3], size: [u8; 3], po2: u8) -> Option<VoxelBox> {
    let edge = 1i64 << po2;
    let mut min = [0i32; 3];
    for a in 0..3 {
        let block = i64::from(region[a]) * i64::from(size[a]) + local[a] as i64;
        let lo = block * edge;
        let hi = lo + edge;
        if lo < -i64::from(COORD_LIMIT) || hi > i64::from(COORD_LIMIT) {
            return None;
        }
        min[a] = lo as i32;
    }
    Some(VoxelBox::from_min_size(
        VoxelPos::from(min),
        [edge as u32; 3],
    ))
}

/// Dense 32³ buffers of the chunks touched so far, packed into the grid on [`Staging::flush`].
#[derive(Default)]
struct Staging {
    chunks: FxHashMap<ChunkPos, Vec<Voxel>>,
}

impl Staging {
    /// Copy a block (X fastest) into the chunk buffers it covers.
    fn add(&mut self, b: VoxelBox, voxels: &[Voxel]) {
        let [sx, sy, _] = b.size();
        for pos in b.chunks() {
            let part = pos.voxel_box().intersect(&b);
            let all_air = || {
                (part.min.z..part.max.z).all(|z| {
                    (part.min.y..part.max.y).all(|y| {
                        let s = ((z - b.min.z) as usize * sy + (y - b.min.y) as usize) * sx
                            + (part.min.x - b.min.x) as usize;
                        voxels[s..s + part.size()[0]].iter().all(|v| v.is_air())
                    })
                })
            };
            if !self.chunks.contains_key(&pos) && all_air() {
                continue;
            }
            let dense = self
                .chunks
                .entry(pos)
                .or_insert_with(|| vec![Voxel::AIR; Chunk::VOLUME]);
            let o = pos.min_voxel();
            let len = part.size()[0];
            for z in part.min.z..part.max.z {
                for y in part.min.y..part.max.y {
                    let s = ((z - b.min.z) as usize * sy + (y - b.min.y) as usize) * sx
                        + (part.min.x - b.min.x) as usize;
                    let d = ((z - o.z) as usize * CHUNK_SIZE + (y - o.y) as usize) * CHUNK_SIZE
                        + (part.min.x - o.x) as usize;
                    dense[d..d + len].copy_from_slice(&voxels[s..s + len]);
                }
            }
        }
    }

    /// Pack every staged chunk (in parallel) into `grid`.
    fn flush(&mut self, grid: &mut Grid) {
        let staged: Vec<(ChunkPos, Vec<Voxel>)> = self.chunks.drain().collect();
        let chunks: Vec<(ChunkPos, Chunk)> = staged
            .into_par_iter()
            .map(|(pos, dense)| (pos, Chunk::from_dense(&dense)))
            .collect();
        for (pos, chunk) in chunks {
            grid.insert_chunk(pos, chunk);
        }
    }
}
