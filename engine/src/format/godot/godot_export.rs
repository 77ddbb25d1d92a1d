//! Export a grid as a godot_voxel region forest:
//!
//! ```text
//!   OUT_DIR/meta.vxrm
//!   OUT_DIR/regions/lod0/r.X.Y.Z.vxr      16³ blocks, 16³ blocks per region (256³ voxels)
//!   OUT_DIR/regions/lod1/...              the same layout over the 16³ mips, and so on to lod3
//! ```
//!
//! Every stored chunk becomes its eight level-0 blocks (all-Air chunks are not stored, and their
//! blocks are absent: godot_voxel then asks its generator, or leaves them empty). LOD `L` holds the
//! parents of those blocks. Blocks are encoded in parallel (rayon); each file is written atomically.
//! Region files left over from an earlier export into the same folder are removed, so the folder
//! always describes exactly this world.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use rayon::prelude::*;

use super::channel::DEFAULT_DEPTHS;
use super::container::{compress, Compression};
use super::lod::{parent_block, sample_block, BLOCK_VOLUME, MAX_LODS};
use super::mapping::block_from_voxels;
use super::meta::{ForestMeta, META_FILE};
use super::region::{RegionFormat, RegionWriter};
use crate::format::write_atomic;
use crate::progress::Progress;
use crate::storage::Grid;
use crate::voxel::{Voxel, VoxelBox};
use crate::{Error, Result};

/// log2 of the region edge in blocks that Strata writes.
const REGION_PO2: u8 = 4;

/// Options for [`export_forest`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ForestOptions {
    /// Compression of every block.
    pub compression: Compression,
    /// Number of LOD levels to write, 1 (`lod0` only) to 4.
    pub lods: u8,
}

impl Default for ForestOptions {
    fn default() -> Self {
        Self {
            compression: Compression::Lz4,
            lods: MAX_LODS,
        }
    }
}

/// One encoded region file.
#[derive(Debug, Clone)]
pub struct EncodedRegion {
    /// LOD level.
    pub lod: u8,
    /// Region position (block position >> 4).
    pub pos: [i32; 3],
    /// Number of blocks stored.
    pub blocks: usize,
    /// The file's bytes.
    pub bytes: Vec<u8>,
}

impl EncodedRegion {
    /// Path of this region inside a forest folder: `regions/lod{L}/r.{X}.{Y}.{Z}.vxr`.
    pub fn relative_path(&self) -> PathBuf {
        let [x, y, z] = self.pos;
        PathBuf::from(format!("regions/lod{}/r.{x}.{y}.{z}.vxr", self.lod))
    }
}

/// What [`export_forest`] wrote.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ForestExport {
    /// Region files written.
    pub files: usize,
    /// Blocks written per LOD level.
    pub blocks: Vec<usize>,
    /// Bytes written (region files and `meta.vxrm`).
    pub bytes: u64,
    /// Stale region files removed.
    pub removed: usize,
}

/// The meta file Strata writes for `options` and `bounds`.
pub fn forest_meta(options: &ForestOptions, bounds: Option<VoxelBox>) -> ForestMeta {
    ForestMeta {
        version: 3,
        block_size_po2: 4,
        region_size_po2: REGION_PO2,
        sector_size: 512,
        channel_depths: DEFAULT_DEPTHS,
        lod_count: options.lods,
        bounds,
    }
}

/// Encode every region file of `grid`, in (LOD, Z, Y, X) order. `progress` counts blocks.
///
/// # Errors
/// [`Error::Invalid`] for `lods` outside 1..=4; [`Error::Cancelled`] when cancelled.
pub fn encode_forest(
    grid: &Grid,
    options: &ForestOptions,
    progress: &Progress,
) -> Result<Vec<EncodedRegion>> {
    if !(1..=MAX_LODS).contains(&options.lods) {
        return Err(Error::Invalid(format!(
            "--lods must be 1 to {MAX_LODS}, got {}",
            options.lods
        )));
    }
    let mut level0 = BTreeSet::new();
    for pos in grid.sorted_positions() {
        for i in 0..8 {
            let d = [i & 1, (i >> 1) & 1, i >> 2];
            level0.insert([2 * pos.x + d[0], 2 * pos.y + d[1], 2 * pos.z + d[2]]);
        }
    }
    let mut jobs: Vec<(u8, [i32; 3])> = Vec::new();
    for lod in 0..options.lods {
        let set: BTreeSet<[i32; 3]> = level0.iter().map(|&b| parent_block(b, lod)).collect();
        jobs.extend(set.into_iter().map(|b| (lod, b)));
    }
    progress.start(jobs.len() as u64);
    let encoded: Vec<(u8, [i32; 3], Vec<u8>)> = jobs
        .par_iter()
        .map_init(
            || (vec![Voxel::AIR; BLOCK_VOLUME], Vec::new()),
            |(voxels, payload), &(lod, block)| {
                progress.check()?;
                sample_block(grid, lod, block, voxels);
                payload.clear();
                block_from_voxels([16; 3], voxels).encode(payload)?;
                let mut container = Vec::with_capacity(payload.len() / 2 + 16);
                compress(payload, options.compression, &mut container)?;
                progress.advance(1);
                Ok((lod, block, container))
            },
        )
        .collect::<Result<_>>()?;
    let mut regions: BTreeMap<(u8, [i32; 3]), RegionWriter> = BTreeMap::new();
    let mut counts: BTreeMap<(u8, [i32; 3]), usize> = BTreeMap::new();
    for (lod, block, container) in encoded {
        let pos = block.map(|b| b >> REGION_PO2);
        let local = block.map(|b| (b & ((1 << REGION_PO2) - 1)) as usize);
        let key = (lod, [pos[2], pos[1], pos[0]]);
        regions
            .entry(key)
            .or_insert_with(|| RegionWriter::new(RegionFormat::default()))
            .set(local, container);
        *counts.entry(key).or_default() += 1;
    }
    regions
        .into_iter()
        .map(|((lod, [z, y, x]), w)| {
            Ok(EncodedRegion {
                lod,
                pos: [x, y, z],
                blocks: counts.get(&(lod, [z, y, x])).copied().unwrap_or(0),
                bytes: w.to_bytes()?,
            })
        })
        .collect()
}

/// Export `grid` (whose world box is `bounds`) as a region forest in `dir`.
///
/// # Errors
/// [`Error::Io`] naming the file or folder that could not be written; encoding errors as
/// [`encode_forest`].
pub fn export_forest(
    grid: &Grid,
    bounds: Option<VoxelBox>,
    dir: &Path,
    options: &ForestOptions,
    progress: &Progress,
) -> Result<ForestExport> {
    refuse_links_inside(dir)?;
    let regions = encode_forest(grid, options, progress)?;
    let mut report = ForestExport {
        blocks: vec![0; usize::from(options.lods)],
        ..ForestExport::default()
    };
    let mut written = BTreeSet::new();
    for r in &regions {
        let path = dir.join(r.relative_path());
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).map_err(|e| Error::io(parent, e))?;
        }
        write_atomic(&path, &r.bytes)?;
        report.files += 1;
        report.blocks[usize::from(r.lod)] += r.blocks;
        report.bytes += r.bytes.len() as u64;
        written.insert(path);
    }
    let meta = forest_meta(options, bounds).to_json();
    std::fs::create_dir_all(dir).map_err(|e| Error::io(dir, e))?;
    write_atomic(&dir.join(META_FILE), meta.as_bytes())?;
    report.bytes += meta.len() as u64;
    report.removed = remove_stale(dir, &written)?;
    Ok(report)
}

/// Refuse an output folder whose `regions` folder, `regions/lod*` folders or region files are
/// symlinks: writing (and removing stale files) through them would touch files outside the folder.
fn refuse_links_inside(dir: &Path) -> Result<()> {
    let is_link = |p: &Path| std::fs::symlink_metadata(p).is_ok_and(|m| m.file_type().is_symlink());
    let refuse = |p: &Path| {
        Err(Error::Invalid(format!(
            "{} is a symlink: a region forest is written only inside its own folder; remove the link \
             or export to another folder",
            p.display()
        )))
    };
    let regions = dir.join("regions");
    if is_link(&regions) {
        return refuse(&regions);
    }
    let Ok(lods) = std::fs::read_dir(&regions) else {
        return Ok(());
    };
    for lod in lods.flatten() {
        let path = lod.path();
        if is_link(&path) {
            return refuse(&path);
        }
        if let Ok(files) = std::fs::read_dir(&path) {
            if let Some(f) = files.flatten().find(|f| is_link(&f.path())) {
                return refuse(&f.path());
            }
        }
    }
    if is_link(&dir.join(META_FILE)) {
        return refuse(&dir.join(META_FILE));
    }
    Ok(())
}

/// True for names of the form `r.X.Y.Z.vxr` with integer X, Y, Z.
pub fn region_pos_of(name: &str) -> Option<[i32; 3]> {
    let inner = name.strip_prefix("r.")?.strip_suffix(".vxr")?;
    let mut parts = inner.split('.').map(|p| p.parse::<i32>().ok());
    let pos = [parts.next()??, parts.next()??, parts.next()??];
    parts.next().is_none().then_some(pos)
}

/// Remove `regions/lod*/r.X.Y.Z.vxr` files not in `keep`; returns how many were removed.
fn remove_stale(dir: &Path, keep: &BTreeSet<PathBuf>) -> Result<usize> {
    let regions = dir.join("regions");
    let Ok(lods) = std::fs::read_dir(&regions) else {
        return Ok(0);
    };
    let mut removed = 0;
    for lod in lods.flatten() {
        let is_lod = lod
            .file_name()
            .to_str()
            .and_then(|n| n.strip_prefix("lod"))
            .is_some_and(|n| n.parse::<u8>().is_ok());
        if !is_lod {
            continue;
        }
        let Ok(files) = std::fs::read_dir(lod.path()) else {
            continue;
        };
        for f in files.flatten() {
            let path = f.path();
            let stale =
                f.file_name().to_str().and_then(region_pos_of).is_some() && !keep.contains(&path);
            if stale {
                std::fs::remove_file(&path).map_err(|e| Error::io(&path, e))?;
                removed += 1;
            }
        }
    }
    Ok(removed)
}
