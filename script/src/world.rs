//! The voxels a script edits: a copy of the project's grid plus what the run changed.
//!
//! A script works on its own copy so that an error, a limit or Cancel leaves the project exactly as
//! it was (the copy is dropped), and so it can run on a worker thread while the editor keeps
//! drawing. When the run succeeds, the caller installs [`ScriptWorld::changed_boxes`] through its
//! one edit path (the app's `Document`), as one undo step.
//!
//! ```text
//!   project grid ──clone──> ScriptWorld.grid ──Terrain / strata calls──> changed per chunk
//!                                                                         │ run succeeded
//!   Document::edit_boxes(name, changed_boxes, copy from ScriptWorld) <────┘
//! ```

use std::collections::BTreeMap;

use strata_engine::storage::Grid;
use strata_engine::voxel::{ChunkPos, MaterialTable, Voxel, VoxelBox, VoxelPos};

use crate::error::{Error, Result};

/// The voxel of `material` with occupancy `o`, mapped as `strata fill --occupancy` stores it: the
/// byte `round(o × 256) − 1`, and Air where that rounds to nothing (`o` below 1/512, 0, NaN).
pub fn occupancy_voxel(material: u8, o: f64) -> Voxel {
    let o = if o.is_nan() { 0.0 } else { o.clamp(0.0, 1.0) };
    let steps = (o * 256.0).round() as u32;
    if steps == 0 || material == strata_engine::voxel::AIR {
        Voxel::AIR
    } else {
        Voxel::new(material, (steps - 1).min(255) as u8)
    }
}

/// A copy of a project's voxels that a script edits, with the bookkeeping of what it changed.
#[derive(Debug, Clone)]
pub struct ScriptWorld {
    grid: Grid,
    materials: MaterialTable,
    bounds: VoxelBox,
    changed: BTreeMap<ChunkPos, VoxelBox>,
    written: u64,
    max_written: u64,
}

impl ScriptWorld {
    /// A world over `grid` (a copy of the project's), its material table and bounds; at most
    /// `max_written` voxels may be written.
    pub fn new(grid: Grid, materials: MaterialTable, bounds: VoxelBox, max_written: u64) -> Self {
        Self {
            grid,
            materials,
            bounds,
            changed: BTreeMap::new(),
            written: 0,
            max_written,
        }
    }

    /// Change the cap on voxels written (a run applies its [`crate::Limits`]).
    pub fn set_max_voxels_written(&mut self, max: u64) {
        self.max_written = max;
    }

    /// The voxels as the script left them.
    pub fn grid(&self) -> &Grid {
        &self.grid
    }

    /// The project's material table.
    pub fn materials(&self) -> &MaterialTable {
        &self.materials
    }

    /// The world's bounds; writes outside them are dropped.
    pub fn bounds(&self) -> VoxelBox {
        self.bounds
    }

    /// Voxels written so far (the sum of every write's box inside the bounds).
    pub fn voxels_written(&self) -> u64 {
        self.written
    }

    /// For each changed chunk, the box around what changed in it (disjoint boxes).
    pub fn changed_boxes(&self) -> Vec<VoxelBox> {
        self.changed.values().copied().collect()
    }

    /// The union of [`ScriptWorld::changed_boxes`] (empty when nothing changed).
    pub fn changed_bounds(&self) -> VoxelBox {
        self.changed
            .values()
            .fold(VoxelBox::default(), |acc, b| acc.union(b))
    }

    /// Read box `b` (X fastest, then Y, then Z); Air outside the stored chunks.
    pub fn read_box(&self, b: VoxelBox) -> Vec<Voxel> {
        self.grid.read_box_vec(b)
    }

    /// One voxel.
    pub fn get(&self, p: VoxelPos) -> Voxel {
        self.grid.get(p)
    }

    /// Rewrite every voxel of `b` inside the bounds through `f(position, old) -> new`.
    ///
    /// # Errors
    /// When the write would pass the cap on voxels written (nothing is written then).
    pub fn modify_box(
        &mut self,
        b: VoxelBox,
        mut f: impl FnMut(VoxelPos, Voxel) -> Voxel,
    ) -> Result<()> {
        let b = b.intersect(&self.bounds);
        if b.is_empty() {
            return Ok(());
        }
        self.count(b)?;
        let old = self.grid.read_box_vec(b);
        let mut new = old.clone();
        let mut tight = VoxelBox::default();
        let mut i = 0;
        for z in b.min.z..b.max.z {
            for y in b.min.y..b.max.y {
                for x in b.min.x..b.max.x {
                    let p = VoxelPos::new(x, y, z);
                    let v = normalized(f(p, old[i]));
                    if v != old[i] {
                        new[i] = v;
                        tight = tight.union(&VoxelBox::from_min_size(p, [1, 1, 1]));
                    }
                    i += 1;
                }
            }
        }
        if tight.is_empty() {
            return Ok(());
        }
        self.grid.write_box(b, &new);
        self.mark(tight);
        Ok(())
    }

    /// Write `voxels` (X fastest, then Y, then Z) into box `b`, keeping only the part inside the
    /// bounds.
    ///
    /// # Errors
    /// When the write would pass the cap on voxels written.
    ///
    /// # Panics
    /// If `voxels.len() != b.volume()` (a caller bug).
    pub fn write_box(&mut self, b: VoxelBox, voxels: &[Voxel]) -> Result<()> {
        assert_eq!(voxels.len(), b.volume(), "voxels do not match the box");
        let [sx, sy, _] = b.size();
        self.modify_box(b, |p, _| {
            let (x, y, z) = (
                (p.x - b.min.x) as usize,
                (p.y - b.min.y) as usize,
                (p.z - b.min.z) as usize,
            );
            voxels[(z * sy + y) * sx + x]
        })
    }

    /// Let `edit` change the grid directly (an engine kernel such as a brush dab, which keeps to
    /// the editor's rules, bounds included) and return the box it changed, which is counted and
    /// recorded.
    ///
    /// # Errors
    /// When the changed box passes the cap on voxels written; the change stays recorded, and the
    /// run's error discards the world.
    pub fn edit_grid(&mut self, edit: impl FnOnce(&mut Grid) -> Option<VoxelBox>) -> Result<()> {
        let Some(changed) = edit(&mut self.grid) else {
            return Ok(());
        };
        self.mark(changed);
        self.count(changed)
    }

    /// Turn every voxel of the world to Air.
    ///
    /// # Errors
    /// When clearing would pass the cap on voxels written.
    pub fn clear(&mut self) -> Result<()> {
        let stored: Vec<ChunkPos> = self.grid.chunks().map(|(p, _)| p).collect();
        for pos in stored {
            self.modify_box(pos.voxel_box(), |_, _| Voxel::AIR)?;
        }
        Ok(())
    }

    fn count(&mut self, b: VoxelBox) -> Result<()> {
        let n = b.volume() as u64;
        if self.written.saturating_add(n) > self.max_written {
            return Err(Error::script(format!(
                "the script would write more than {} voxels in one run (the cap on voxels \
                 written); write smaller regions or fewer times",
                self.max_written
            )));
        }
        self.written += n;
        Ok(())
    }

    fn mark(&mut self, tight: VoxelBox) {
        for pos in tight.chunks() {
            let part = tight.intersect(&pos.voxel_box());
            let entry = self.changed.entry(pos).or_insert(part);
            *entry = entry.union(&part);
        }
    }
}

/// Air has occupancy 0 and matter keeps its own: the form the grid stores.
fn normalized(v: Voxel) -> Voxel {
    if v.material == strata_engine::voxel::AIR {
        Voxel::AIR
    } else {
        v
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn world() -> ScriptWorld {
        let bounds = VoxelBox::new(VoxelPos::new(0, 0, 0), VoxelPos::new(64, 32, 64));
        ScriptWorld::new(Grid::new(), MaterialTable::builtin(), bounds, 10_000)
    }

    #[test]
    fn occupancy_maps_as_fill_does() {
        for f in 1..=256u32 {
            let v = occupancy_voxel(3, f64::from(f) / 256.0);
            assert_eq!(v, Voxel::new(3, (f - 1) as u8), "{f}");
        }
        assert!(occupancy_voxel(3, 0.0).is_air());
        assert!(occupancy_voxel(3, 0.001).is_air());
        assert!(occupancy_voxel(3, f64::NAN).is_air());
        assert!(occupancy_voxel(0, 1.0).is_air());
        assert_eq!(occupancy_voxel(3, 7.0), Voxel::new(3, 255));
    }

    #[test]
    fn writes_clip_track_and_cap() {
        let mut w = world();
        let b = VoxelBox::new(VoxelPos::new(30, 0, 0), VoxelPos::new(34, 1, 1));
        w.modify_box(b, |_, _| Voxel::filled(2)).expect("write");
        assert_eq!(w.voxels_written(), 4);
        assert_eq!(
            w.changed_boxes().len(),
            2,
            "split at the chunk border x = 32"
        );
        assert_eq!(w.changed_bounds(), b);
        let outside = VoxelBox::new(VoxelPos::new(-8, 0, 0), VoxelPos::new(-1, 1, 1));
        w.modify_box(outside, |_, _| Voxel::filled(2))
            .expect("dropped");
        assert_eq!(w.voxels_written(), 4, "nothing outside the bounds counts");
        let big = VoxelBox::new(VoxelPos::new(0, 0, 0), VoxelPos::new(64, 32, 64));
        assert!(w.modify_box(big, |_, _| Voxel::filled(2)).is_err());
        assert_eq!(w.get(VoxelPos::new(0, 5, 0)), Voxel::AIR, "refused whole");
    }
}
