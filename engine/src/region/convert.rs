//! A [`Region`] to and from files: stamp projects and the block formats the command line knows.
//!
//! - **Stamp**: a `.strata` project whose voxels start at `(0, 0, 0)` and whose header bounds are the
//!   region's box; it carries the material table its ids refer to, and [`Region::remap_materials`]
//!   moves ids to another table by material name.
//! - **godot_voxel v4 block**: through [`block_from_voxels`] / [`voxels_from_block`] (TYPE + SDF).
//! - **RLE stream** and **raw** (2 bytes per voxel: material, occupancy), X fastest, then Y,
//!   then Z, with no header: the same bytes `strata export --format rle|raw` writes for the box. The
//!   size travels separately (a sidecar or the user).
//!
//! Decoders check sizes before allocating and every voxel (known material, no Air with occupancy).

use std::path::Path;

use super::edit::{PasteMode, RegionEdit};
use super::rows::{check_size, size_of_box, Region};
use crate::codec::rle::{self, RleEncoder};
use crate::format::godot::{
    block_from_voxels, block_to_voxel_vec, BlockData, ImportReport, ImportRules, MAX_BLOCK_VOXELS,
};
use crate::format::project::{Project, ProjectHeader};
use crate::progress::Progress;
use crate::storage::Grid;
use crate::voxel::{MaterialTable, Voxel, VoxelPos, AIR, MATERIAL_COUNT};
use crate::{Error, Result};

/// The file extension of stamps (they are ordinary project files).
pub const STAMP_EXTENSION: &str = "strata";

/// The largest region decoded through a dense buffer (RLE streams): 2 bytes per voxel.
const MAX_DENSE_VOXELS: u64 = 1 << 27;

impl Region {
    /// The region written into an empty grid with its minimum corner at `at`.
    ///
    /// # Errors
    /// [`Error::Invalid`] when the box runs past the coordinate range.
    pub fn to_grid(&self, at: VoxelPos) -> Result<Grid> {
        let mut grid = Grid::new();
        let progress = Progress::new();
        let mut edit = RegionEdit::begin(&mut grid, None, "", &progress);
        edit.paste(self, at, PasteMode::Replace)?;
        edit.finish();
        Ok(grid)
    }

    /// The region as a stamp project called `name`: voxels from `(0, 0, 0)`, header bounds the
    /// region's box, `materials` the table its ids refer to, no history.
    ///
    /// # Errors
    /// As for [`Region::to_grid`] (not expected: region edges fit the coordinate range).
    pub fn to_project(&self, name: &str, materials: &MaterialTable) -> Result<Project> {
        let origin = VoxelPos::new(0, 0, 0);
        let mut header = ProjectHeader::new(name, self.placed_at(origin));
        header.materials = materials.clone();
        Ok(Project::new(header, self.to_grid(origin)?))
    }

    /// The stamp held by `project`: the voxels of its header bounds.
    ///
    /// # Errors
    /// [`Error::Invalid`] when the bounds are empty or over the region limits.
    pub fn from_project(project: &Project) -> Result<Self> {
        let bounds = project.header.bounds;
        size_of_box(&bounds).map_err(|e| Error::Invalid(format!("stamp bounds: {e}")))?;
        Self::copy(&project.grid, bounds)
    }

    /// Load a stamp file: the region and the material table its ids refer to.
    ///
    /// # Errors
    /// As for [`Project::load_with`] and [`Region::from_project`], naming the file.
    pub fn load_stamp(path: &Path, progress: &Progress) -> Result<(Self, MaterialTable)> {
        let project = Project::load_with(path, progress)?;
        let region = Self::from_project(&project).map_err(|e| e.in_file(path))?;
        Ok((region, project.header.materials))
    }

    /// Save as a stamp file (atomically, keeping `.bak`).
    ///
    /// # Errors
    /// As for [`Project::save`].
    pub fn save_stamp(&self, path: &Path, name: &str, materials: &MaterialTable) -> Result<()> {
        self.to_project(name, materials)?.save(path)
    }

    /// Move material ids from table `from` (the stamp's) to table `to` (the world's), matching by
    /// name, case-insensitively.
    ///
    /// # Errors
    /// [`Error::Invalid`] naming the first material the region uses that `to` lacks (or an id `from`
    /// does not define); the region is unchanged then.
    pub fn remap_materials(&mut self, from: &MaterialTable, to: &MaterialTable) -> Result<()> {
        let counts = self.count_materials();
        let mut map = [0u8; MATERIAL_COUNT];
        let mut identity = true;
        for (id, &n) in counts.iter().enumerate() {
            map[id] = id as u8;
            if n == 0 || id == usize::from(AIR) {
                continue;
            }
            let m = from.get(id as u8).ok_or_else(|| {
                Error::Invalid(format!(
                    "material id {id} is not in the stamp's material table"
                ))
            })?;
            let target = to.id_of(&m.name).ok_or_else(|| {
                Error::Invalid(format!(
                    "the stamp uses material {:?}, which the world's material table lacks",
                    m.name
                ))
            })?;
            identity &= usize::from(target) == id;
            map[id] = target;
        }
        if !identity {
            self.map_materials(&map);
        }
        Ok(())
    }

    /// The region as a godot_voxel v4 block (TYPE + SDF channels).
    ///
    /// # Errors
    /// [`Error::Invalid`] when the region holds more than [`MAX_BLOCK_VOXELS`].
    pub fn to_block(&self) -> Result<BlockData> {
        if self.volume() > MAX_BLOCK_VOXELS as u64 {
            return Err(Error::Invalid(format!(
                "a v4 block holds at most {MAX_BLOCK_VOXELS} voxels; the region has {}",
                self.volume()
            )));
        }
        let size = self.size().map(|s| s as u16);
        Ok(block_from_voxels(size, &self.to_dense()))
    }

    /// A region from a v4 block, following `rules` for foreign data.
    ///
    /// # Errors
    /// [`Error::Invalid`] for a block over the limits.
    pub fn from_block(block: &BlockData, rules: &ImportRules) -> Result<(Self, ImportReport)> {
        let size = block.size.map(u32::from);
        check_size(size)?;
        let (voxels, report) = block_to_voxel_vec(block, rules)?;
        Ok((Self::from_dense(size, &voxels)?, report))
    }

    /// Append the RLE stream of the region's voxels to `out`.
    pub fn encode_rle(&self, out: &mut Vec<u8>) {
        let [sx, sy, sz] = self.size().map(|s| s as usize);
        let mut row = vec![Voxel::AIR; sx];
        let mut encoder = RleEncoder::new();
        for z in 0..sz {
            for y in 0..sy {
                self.read_row(y, z, 0, &mut row);
                encoder.push(&row, out);
            }
        }
        encoder.finish(out);
    }

    /// A region of `size` from an RLE stream whose material ids must be in `materials`.
    ///
    /// # Errors
    /// [`Error::Invalid`] for a bad size or one over 2²⁷ voxels; [`Error::Corrupt`] with the byte
    /// offset for a malformed stream or an unknown material.
    pub fn decode_rle(bytes: &[u8], size: [u32; 3], materials: &MaterialTable) -> Result<Self> {
        check_size(size)?;
        let volume = size.iter().map(|&s| u64::from(s)).product::<u64>();
        if volume > MAX_DENSE_VOXELS {
            return Err(Error::Invalid(format!(
                "an RLE region holds at most {MAX_DENSE_VOXELS} voxels; {volume} were asked for"
            )));
        }
        if bytes.len() as u64 > rle::max_encoded_len(volume as usize) as u64 {
            return Err(Error::corrupt(
                0,
                format!("{} bytes are too many for {volume} voxels", bytes.len()),
            ));
        }
        let mut voxels = vec![Voxel::AIR; volume as usize];
        rle::decode(bytes, &mut voxels)?;
        if let Some(i) = voxels.iter().position(|v| !materials.contains(v.material)) {
            return Err(Error::Invalid(format!(
                "voxel {i} has material id {}, which the material table ({} entries) lacks",
                voxels[i].material,
                materials.len()
            )));
        }
        Self::from_dense(size, &voxels)
    }

    /// Append the raw bytes (material, occupancy per voxel) of the region to `out`.
    pub fn encode_raw(&self, out: &mut Vec<u8>) {
        let [sx, sy, sz] = self.size().map(|s| s as usize);
        let mut row = vec![Voxel::AIR; sx];
        out.reserve(self.dense_bytes() as usize);
        for z in 0..sz {
            for y in 0..sy {
                self.read_row(y, z, 0, &mut row);
                out.extend(row.iter().flat_map(|v| [v.material, v.occupancy]));
            }
        }
    }

    /// A region of `size` from raw bytes (2 per voxel) whose material ids must be in `materials`.
    ///
    /// # Errors
    /// [`Error::Invalid`] for a bad size; [`Error::Corrupt`] with the byte offset for a length that
    /// does not match, an unknown material id or Air with occupancy.
    pub fn decode_raw(bytes: &[u8], size: [u32; 3], materials: &MaterialTable) -> Result<Self> {
        check_size(size)?;
        let volume = size.iter().map(|&s| u64::from(s)).product::<u64>();
        if bytes.len() as u64 != volume * 2 {
            return Err(Error::corrupt(
                bytes.len().min((volume * 2) as usize),
                format!(
                    "{} bytes, but {}×{}×{} voxels need {} (2 bytes per voxel)",
                    bytes.len(),
                    size[0],
                    size[1],
                    size[2],
                    volume * 2
                ),
            ));
        }
        let sx = size[0] as usize;
        let mut builder = super::builder::RowsBuilder::new(size);
        let mut row = Vec::with_capacity(sx);
        for (r, src) in bytes.chunks_exact(sx * 2).enumerate() {
            row.clear();
            for (i, pair) in src.chunks_exact(2).enumerate() {
                let (m, o) = (pair[0], pair[1]);
                let at = (r * sx + i) * 2;
                if !materials.contains(m) {
                    return Err(Error::corrupt(
                        at,
                        format!(
                            "unknown material id {m} (the table has {})",
                            materials.len()
                        ),
                    ));
                }
                if m == AIR && o != 0 {
                    return Err(Error::corrupt(at, format!("Air with occupancy {o}")));
                }
                row.push(Voxel::new(m, o));
            }
            builder.start_row(r);
            builder.push_voxels(&row);
            builder.end_row();
        }
        Ok(builder.finish())
    }
}
