//! The Region tool's commands (Copy, Cut, Paste, Delete, Duplicate, Rotate, Mirror, Fill) turned
//! into actions: each edit is one [`Action::Region`], which the document runs as one undo step.

use std::sync::Arc;

use strata_engine::region::{Axis, Fill, Region, MAX_REGION_VOXELS};
use strata_engine::voxel::{Voxel, VoxelBox, VoxelPos};

use super::region_state::{Clip, RegionPanel};
use crate::app::action::Action;
use crate::document::Document;
use crate::region::region_op::{turned_box, RegionOp};

/// `x×y×z` of a size.
pub fn size_text(size: [u32; 3]) -> String {
    format!("{}×{}×{}", size[0], size[1], size[2])
}

/// The size of a box, voxels per axis.
pub fn box_size(b: VoxelBox) -> [u32; 3] {
    b.size().map(|s| s as u32)
}

/// The stored occupancy byte of a fraction `f` in (0, 1]: `round(f × 256) − 1`.
pub fn occupancy_byte(f: f32) -> u8 {
    let f = if f.is_finite() {
        f.clamp(1.0 / 256.0, 1.0)
    } else {
        1.0
    };
    ((f * 256.0).round() as i32 - 1).clamp(0, 255) as u8
}

impl RegionPanel {
    /// Copy the selection of `doc` into the clipboard; the error says why not.
    pub(super) fn copy(&mut self, doc: &Document) -> Result<Arc<Region>, String> {
        let sel = doc
            .selection()
            .ok_or_else(|| "Nothing selected: drag a box on the terrain first".to_owned())?;
        if sel.volume() as u64 > MAX_REGION_VOXELS {
            return Err(format!(
                "The selection of {} voxels is over the {MAX_REGION_VOXELS}-voxel limit",
                sel.volume()
            ));
        }
        let region = Arc::new(Region::copy(doc.grid(), sel).map_err(|e| e.to_string())?);
        self.clip = Some(Clip {
            region: region.clone(),
            source: Some(sel),
            name: "Selection".into(),
            table: doc.materials().clone(),
        });
        self.clipboard_text = Some(format!("Strata region {}", size_text(region.size())));
        Ok(region)
    }

    /// Ctrl+C.
    pub(super) fn copy_action(&mut self, doc: &Document, out: &mut Vec<Action>) {
        match self.copy(doc) {
            Ok(r) => out.push(Action::Message(format!(
                "Copied {} voxels",
                size_text(r.size())
            ))),
            Err(e) => out.push(Action::Message(e)),
        }
    }

    /// Ctrl+X: copy, then delete (one undo step).
    pub(super) fn cut(&mut self, doc: &Document, out: &mut Vec<Action>) {
        match self.copy(doc) {
            Ok(_) => self.delete(doc, "Cut", out),
            Err(e) => out.push(Action::Message(e)),
        }
    }

    /// Delete: the selection to Air.
    pub(super) fn delete(&self, doc: &Document, name: &str, out: &mut Vec<Action>) {
        let Some(sel) = doc.selection() else {
            out.push(Action::Message("Nothing selected".into()));
            return;
        };
        out.push(Action::Region {
            name: name.into(),
            op: RegionOp::Delete(sel),
            select: None,
        });
    }

    /// Ctrl+V: float the clipboard under the cursor (its materials moved to `doc`'s table by name
    /// when it was copied from a world with another table).
    pub(super) fn paste(&mut self, doc: &Document, out: &mut Vec<Action>) {
        match self.clip.as_ref() {
            Some(c) => {
                let (mut region, name, source) = (c.region.clone(), c.name.clone(), c.source);
                if c.table != *doc.materials() {
                    let mut moved = (*region).clone();
                    if let Err(e) = moved.remap_materials(&c.table, doc.materials()) {
                        return out.push(Action::Error(format!("Paste: {e}")));
                    }
                    region = Arc::new(moved);
                }
                self.start_floating(region, &name, source, false);
                out.push(Action::Message(
                    "Click to place the paste · R rotates · M mirrors · Esc cancels".into(),
                ));
            }
            None => out.push(Action::Message("Nothing copied yet (Ctrl+C)".into())),
        }
    }

    /// Move: float the selection under the cursor; the click that places it also empties the
    /// selection (one undo step). The clipboard is left as it was.
    pub(super) fn move_selection(&mut self, doc: &Document, out: &mut Vec<Action>) {
        let Some(sel) = doc.selection() else {
            out.push(Action::Message("Nothing selected".into()));
            return;
        };
        let region = match Region::copy(doc.grid(), sel) {
            Ok(r) => Arc::new(r),
            Err(e) => return out.push(Action::Message(e.to_string())),
        };
        self.start_floating(region, "Selection", Some(sel), false);
        if let Some(f) = self.floating.as_mut() {
            f.moving = Some(sel);
        }
        out.push(Action::Message(
            "Click where the selection goes · R rotates · M mirrors · Esc cancels".into(),
        ));
    }

    /// Ctrl+D: a copy of the selection placed right beside it (+X), then selected.
    pub(super) fn duplicate(&mut self, doc: &Document, out: &mut Vec<Action>) {
        let region = match self.copy(doc) {
            Ok(r) => r,
            Err(e) => return out.push(Action::Message(e)),
        };
        let Some(sel) = doc.selection() else {
            return;
        };
        let at = VoxelPos::new(sel.max.x, sel.min.y, sel.min.z);
        out.push(Action::Region {
            name: "Duplicate".into(),
            select: Some(region.placed_at(at)),
            op: RegionOp::Place {
                clear: None,
                region,
                at,
                mode: self.mode,
            },
        });
    }

    /// R or M: turn or mirror the floating paste, else the selected voxels in place (one undo step;
    /// a turned box stays centred where it was).
    pub(super) fn transform(&mut self, doc: &Document, mirror: bool, out: &mut Vec<Action>) {
        let (axis, what) = if mirror {
            (self.mirror_axis, "Mirror")
        } else {
            (self.rotate_axis, "Rotate")
        };
        let apply = |r: &Region| -> Region {
            if mirror {
                r.mirrored(axis)
            } else {
                r.rotated(axis, 1)
            }
        };
        if let Some(f) = self.floating.as_ref() {
            let region = Arc::new(apply(&f.region));
            let (name, source, brush, moving) = (f.name.clone(), f.source, f.brush, f.moving);
            self.start_floating(region, &name, source, brush);
            if let Some(f) = self.floating.as_mut() {
                f.moving = moving;
            }
            return;
        }
        let Some(sel) = doc.selection() else {
            out.push(Action::Message("Nothing selected".into()));
            return;
        };
        out.push(Action::Region {
            name: what.into(),
            select: Some(turned_box(sel, axis, mirror)),
            op: RegionOp::Turn { sel, axis, mirror },
        });
    }

    /// Fill the selection with the chosen material and occupancy.
    pub(super) fn fill(&self, doc: &Document, out: &mut Vec<Action>) {
        let Some(sel) = doc.selection() else {
            out.push(Action::Message("Nothing selected".into()));
            return;
        };
        let voxel = Voxel::new(self.fill_material, occupancy_byte(self.fill_occupancy));
        let fill = if self.only_air {
            Fill::only_air(voxel)
        } else {
            Fill::new(voxel)
        };
        out.push(Action::Region {
            name: "Fill".into(),
            op: RegionOp::Fill { b: sel, fill },
            select: None,
        });
    }

    /// The box the floating paste would cover with the cursor at `point` (world voxels).
    pub(super) fn paste_box(
        &self,
        region: &Region,
        source: Option<VoxelBox>,
        point: [f32; 3],
    ) -> VoxelBox {
        let [sx, sy, sz] = region.size().map(|s| s as i32);
        let snap = |v: i32| v.div_euclid(self.snap) * self.snap;
        let x = snap(point[0].floor() as i32 - sx / 2);
        let z = snap(point[2].floor() as i32 - sz / 2);
        let y = match source {
            Some(s) if self.keep_height => s.min.y,
            _ => point[1].floor() as i32,
        };
        let at = VoxelPos::new(x, y, z);
        VoxelBox::new(at, VoxelPos::new(x + sx, y + sy, z + sz))
    }
}

/// The axis names the panel's pickers show.
pub fn axis_name(axis: Axis) -> &'static str {
    match axis {
        Axis::X => "X",
        Axis::Y => "Y",
        Axis::Z => "Z",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn occupancy_bytes_follow_the_command_line() {
        assert_eq!(occupancy_byte(1.0), 255);
        assert_eq!(occupancy_byte(0.5), 127);
        assert_eq!(occupancy_byte(1.0 / 256.0), 0);
        assert_eq!(occupancy_byte(f32::NAN), 255);
        assert_eq!(occupancy_byte(-3.0), 0);
    }
}
