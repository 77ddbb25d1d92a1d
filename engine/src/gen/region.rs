//! Generate into a region: the terrain of a box of the world, computed off the document and applied
//! in one go as one undo step.
//!
//! ```text
//!   worker thread:  generate_region(world, box) ──> RegionFill (chunks of the box, nothing touched)
//!   UI thread:      fill.apply(grid, history, "Generate terrain")   one undo step, returns the box
//!                   or drop the fill                                nothing changed
//! ```
//!
//! The box gets exactly what a whole world of those settings holds there, so filling neighbouring
//! boxes one after another gives the same seamless terrain as generating the world at once. Voxels
//! outside the box are never touched.

use super::terrain::Terrain;
use super::world::fill_columns;
use super::WorldSettings;
use crate::history::History;
use crate::progress::Progress;
use crate::storage::{Chunk, Grid};
use crate::voxel::{ChunkPos, MaterialTable, Voxel, VoxelBox, CHUNK_SIZE};
use crate::{Error, Result};

/// Generated terrain for a box, ready to apply or discard.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RegionFill {
    region: VoxelBox,
    /// Every chunk position overlapping the region with its generated chunk (`None`: all Air),
    /// sorted by (z, y, x).
    chunks: Vec<(ChunkPos, Option<Chunk>)>,
}

/// Generate the terrain of `world` inside `region` (half-open, in voxels). `progress` counts chunk
/// columns; cancelling stops the job with [`Error::Cancelled`]. Nothing is written anywhere: apply
/// the result with [`RegionFill::apply`].
///
/// # Errors
/// [`Error::Invalid`] for invalid settings, an empty region or one not inside the world's bounds
/// (`0,0,0` to the world size); a material missing from `materials`; [`Error::Cancelled`].
pub fn generate_region(
    world: &WorldSettings,
    region: VoxelBox,
    materials: &MaterialTable,
    progress: &Progress,
) -> Result<RegionFill> {
    world.validate()?;
    let bounds = world.bounds();
    let show = |b: &VoxelBox| {
        format!(
            "{},{},{} to {},{},{}",
            b.min.x, b.min.y, b.min.z, b.max.x, b.max.y, b.max.z
        )
    };
    if region.is_empty() {
        return Err(Error::Invalid(format!(
            "the region {} is empty",
            show(&region)
        )));
    }
    if region.intersect(&bounds) != region {
        return Err(Error::Invalid(format!(
            "the region {} is not inside the world ({})",
            show(&region),
            show(&bounds)
        )));
    }
    let terrain = Terrain::from_world(world, materials)?;
    let first = region.min.chunk();
    let last =
        crate::voxel::VoxelPos::new(region.max.x - 1, region.max.y - 1, region.max.z - 1).chunk();
    let columns: Vec<(i32, i32)> = (first.z..=last.z)
        .flat_map(|cz| (first.x..=last.x).map(move |cx| (cx, cz)))
        .collect();
    progress.start(columns.len() as u64);
    let generated = fill_columns(&terrain, &columns, progress)?;
    let mut found: rustc_hash::FxHashMap<ChunkPos, Chunk> = generated
        .into_iter()
        .flatten()
        .filter(|(pos, _)| (first.y..=last.y).contains(&pos.y))
        .collect();
    let mut chunks: Vec<(ChunkPos, Option<Chunk>)> = region
        .chunks()
        .map(|pos| (pos, found.remove(&pos)))
        .collect();
    chunks.sort_unstable_by_key(|(p, _)| (p.z, p.y, p.x));
    Ok(RegionFill { region, chunks })
}

impl RegionFill {
    /// The box this fill replaces.
    pub fn region(&self) -> VoxelBox {
        self.region
    }

    /// Number of generated chunks holding matter or water.
    pub fn chunk_count(&self) -> usize {
        self.chunks.iter().filter(|(_, c)| c.is_some()).count()
    }

    /// Write the fill into `grid` as one undo step named `name` in `history` (one box per chunk, so
    /// every box stays small), and return the changed box for whoever redraws or re-meshes it.
    pub fn apply(&self, grid: &mut Grid, history: &mut History, name: &str) -> VoxelBox {
        history.begin_group(name);
        for (pos, _) in &self.chunks {
            history.record(grid, pos.voxel_box().intersect(&self.region), name);
        }
        history.end_group();
        self.write_into(grid);
        self.region
    }

    /// Write the fill into `grid` without recording history.
    pub fn write_into(&self, grid: &mut Grid) {
        for (pos, chunk) in &self.chunks {
            let whole = pos.voxel_box();
            let part = whole.intersect(&self.region);
            if part == whole {
                match chunk {
                    Some(c) => grid.insert_chunk(*pos, c.clone()),
                    None => {
                        grid.remove_chunk(*pos);
                    }
                }
                continue;
            }
            let o = pos.min_voxel();
            let lo = [part.min.x - o.x, part.min.y - o.y, part.min.z - o.z].map(|v| v as usize);
            let [sx, sy, sz] = part.size();
            let hi = [lo[0] + sx, lo[1] + sy, lo[2] + sz];
            let mut voxels = vec![Voxel::AIR; part.volume()];
            if let Some(c) = chunk {
                c.level0()
                    .copy_box_into(lo, hi, &mut voxels, 0, sx, sx * sy);
            }
            debug_assert!(hi.iter().all(|&h| h <= CHUNK_SIZE));
            grid.write_box(part, &voxels);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gen::{generate_world, Biome, BiomeSettings};
    use crate::voxel::VoxelPos;

    fn world() -> WorldSettings {
        WorldSettings::with_biomes(
            [96, 64, 80],
            4,
            BiomeSettings {
                biomes: vec![Biome::Hills, Biome::Mountains, Biome::Canyons],
                biome_size: 32,
                caves: true,
            },
        )
    }

    #[test]
    fn a_region_gets_what_the_whole_world_holds_there_as_one_undo_step() {
        let table = MaterialTable::builtin();
        let w = world();
        let full = generate_world(&w, &table, &Progress::new()).expect("generates");
        // Start from a different world so the fill has something to replace.
        let mut other = w.clone();
        other.seed = 99;
        let before = generate_world(&other, &table, &Progress::new()).expect("generates");
        let region = VoxelBox::new(VoxelPos::new(10, 3, 20), VoxelPos::new(75, 60, 70));
        let fill = generate_region(&w, region, &table, &Progress::new()).expect("fills");
        let mut grid = before.clone();
        let mut history = History::default();
        assert_eq!(
            fill.apply(&mut grid, &mut history, "Generate terrain"),
            region
        );
        grid.assert_valid();
        assert_eq!(history.undo_len(), 1);
        assert_eq!(grid.read_box_vec(region), full.read_box_vec(region));
        // Outside the region nothing changed.
        let bounds = w.bounds();
        for slab in [
            VoxelBox::new(bounds.min, VoxelPos::new(96, 64, 20)),
            VoxelBox::new(VoxelPos::new(0, 0, 70), bounds.max),
            VoxelBox::new(VoxelPos::new(0, 0, 0), VoxelPos::new(10, 64, 80)),
            VoxelBox::new(VoxelPos::new(10, 60, 20), VoxelPos::new(75, 64, 70)),
        ] {
            assert_eq!(grid.read_box_vec(slab), before.read_box_vec(slab));
        }
        assert_eq!(
            history.undo(&mut grid).expect("undo").as_deref(),
            Some("Generate terrain")
        );
        assert!(grid == before);
    }

    #[test]
    fn the_whole_world_as_a_region_is_the_generated_world() {
        let table = MaterialTable::builtin();
        let w = world();
        let full = generate_world(&w, &table, &Progress::new()).expect("generates");
        let fill = generate_region(&w, w.bounds(), &table, &Progress::new()).expect("fills");
        let mut grid = Grid::new();
        fill.write_into(&mut grid);
        assert!(grid == full);
        assert!(fill.chunk_count() > 0);
    }

    #[test]
    fn bad_regions_are_refused_and_change_nothing() {
        let table = MaterialTable::builtin();
        let w = world();
        for (min, max) in [
            ([-1, 0, 0], [10, 10, 10]),
            ([0, 0, 0], [97, 10, 10]),
            ([50, 60, 50], [60, 65, 60]),
            ([5, 5, 5], [5, 9, 9]),
            ([200, 0, 0], [210, 10, 10]),
        ] {
            let region = VoxelBox::new(VoxelPos::from(min), VoxelPos::from(max));
            match generate_region(&w, region, &table, &Progress::new()) {
                Err(Error::Invalid(msg)) => assert!(
                    msg.contains("not inside the world") || msg.contains("is empty"),
                    "{msg}"
                ),
                other => panic!("{region:?} gave {other:?}"),
            }
        }
        let p = Progress::new();
        p.cancel();
        let r = generate_region(&w, w.bounds(), &table, &p);
        assert!(matches!(r, Err(Error::Cancelled)));
    }
}
