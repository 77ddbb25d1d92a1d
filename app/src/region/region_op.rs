//! Region edits as values: what the Region tool, the Stamps panel and Duplicate ask the document to
//! do ([`crate::document::Document::region_edit`] runs one as one undo step). Every box is clipped to
//! the world's bounds first, so a paste hanging over the edge writes only its part inside.
//!
//! ```text
//!   RegionOp::Place { clear, region, at, mode }   clear (to Air) then paste: paste, move, rotate
//!   RegionOp::Turn { sel, axis, mirror }          copy sel, turn or mirror it, clear, paste centred
//!   RegionOp::Fill { b, fill }                    fill, fill only Air
//!   RegionOp::Delete(b)                           to Air
//! ```

use std::sync::Arc;

use strata_engine::region::{center_anchor, Axis, Fill, PasteMode, Region, RegionEdit};
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
    /// Turn the voxels of `sel` a quarter turn about `axis` (or, with `mirror`, flip them on it) in
    /// place: the copy and the turn happen inside the edit, so a large selection's whole change runs
    /// off the UI thread. A turned box stays centred where it was.
    Turn {
        /// The box turned.
        sel: VoxelBox,
        /// The axis.
        axis: Axis,
        /// Mirror instead of turning.
        mirror: bool,
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
            RegionOp::Turn { sel, axis, mirror } => sel.union(&turned_box(*sel, *axis, *mirror)),
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
            RegionOp::Turn { sel, axis, mirror } => {
                let source = edit.copy(*sel)?;
                let region = if *mirror {
                    source.mirrored(*axis)
                } else {
                    source.rotated(*axis, 1)
                };
                let place = RegionOp::Place {
                    clear: Some(*sel),
                    at: turned_box(*sel, *axis, *mirror).min,
                    region: Arc::new(region),
                    mode: PasteMode::Replace,
                };
                place.run(edit, bounds)
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

/// Where the voxels of `sel` land when turned a quarter turn about `axis` (the two other edges swap)
/// and kept centred, or mirrored on it (the same box).
pub fn turned_box(sel: VoxelBox, axis: Axis, mirror: bool) -> VoxelBox {
    let mut size = sel.size().map(|s| u32::try_from(s).unwrap_or(u32::MAX));
    if mirror {
        return VoxelBox::from_min_size(sel.min, size);
    }
    let (a, b) = axis.others();
    size.swap(a.index(), b.index());
    VoxelBox::from_min_size(center_anchor(sel, size), size)
}
