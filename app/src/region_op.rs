//! Region edits as values: what the Region tool, the Stamps panel and Duplicate ask the document to
//! do ([`crate::document::Document::region_edit`] runs one as one undo step). Every box is clipped to
//! the world's bounds first, so a paste hanging over the edge writes only its part inside.
//!
//! ```text
//!   RegionOp::Place { clear, region, at, mode }   clear (to Air) then paste: paste, move, rotate
//!   RegionOp::Fill { b, fill }                    fill, fill only Air
//!   RegionOp::Delete(b)                           to Air
//! ```

use std::sync::Arc;

use strata_engine::region::{Fill, PasteMode, Region, RegionEdit};
use strata_engine::voxel::{VoxelBox, VoxelPos};
use strata_engine::{Error, Result};

/// One region edit.
#[derive(Debug, Clone)]
pub enum RegionOp {
    /// Turn `clear` to Air (if any), then paste `region` with its minimum corner at `at`.
    Place {
        /// The box emptied first (the source of a move, the selection of a turn in place).
        clear: Option<VoxelBox>,
        /// The voxels to paste.
        region: Arc<Region>,
        /// Where the region's minimum corner lands.
        at: VoxelPos,
        /// How pasted voxels combine with the world's.
        mode: PasteMode,
    },
    /// Fill a box.
    Fill {
        /// The box.
        b: VoxelBox,
        /// What to write.
        fill: Fill,
    },
    /// Turn a box to Air.
    Delete(VoxelBox),
}

impl RegionOp {
    /// The box the edit may change (before clipping to the world).
    pub fn reach(&self) -> VoxelBox {
        match self {
            RegionOp::Place {
                clear, region, at, ..
            } => {
                let placed = region.placed_at(*at);
                clear.map_or(placed, |c| c.union(&placed))
            }
            RegionOp::Fill { b, .. } | RegionOp::Delete(b) => *b,
        }
    }

    /// Run the edit inside `bounds`; returns each box it changed (exact, possibly empty).
    ///
    /// # Errors
    /// [`Error::Invalid`] when nothing of the edit lies inside `bounds`; errors of the engine's
    /// region edit (the caller's [`RegionEdit`] then rolls everything back).
    pub fn run(&self, edit: &mut RegionEdit<'_>, bounds: VoxelBox) -> Result<Vec<VoxelBox>> {
        let outside = || Error::Invalid(format!("{:?} lies outside the world", self.reach()));
        match self {
            RegionOp::Place {
                clear,
                region,
                at,
                mode,
            } => {
                let mut changed = Vec::new();
                if let Some(c) = clear
                    .map(|c| c.intersect(&bounds))
                    .filter(|c| !c.is_empty())
                {
                    changed.push(edit.delete(c)?);
                }
                let (target, local) = region.clip_to(*at, bounds).ok_or_else(outside)?;
                let whole = VoxelBox::from_min_size(VoxelPos::new(0, 0, 0), region.size());
                let placed = if local == whole {
                    edit.paste(region, *at, *mode)?
                } else {
                    edit.paste(&region.cropped(local)?, target.min, *mode)?
                };
                changed.push(placed);
                Ok(changed)
            }
            RegionOp::Fill { b, fill } => {
                let b = b.intersect(&bounds);
                if b.is_empty() {
                    return Err(outside());
                }
                Ok(vec![edit.fill(b, *fill)?])
            }
            RegionOp::Delete(b) => {
                let b = b.intersect(&bounds);
                if b.is_empty() {
                    return Err(outside());
                }
                Ok(vec![edit.delete(b)?])
            }
        }
    }
}
