//! The project's placed lights, edited through the document: each change is one undo step (the
//! history keeps the list's bytes before and after), and the baked light goes stale only within the
//! range of the lights that changed.
//!
//! ```text
//!   change_lights(name, new list) ──validate every light──> history.record_data(Lights, old, new)
//!        ──> project.lights = new ──> light.mark_light_changed(each changed light, old and new)
//!   undo / redo ──project.apply_history_data──> lights_restored(old list): the same marking
//! ```

use strata_engine::history::{DataChange, DataKind};
use strata_engine::light::{placed_serial, PlacedLight};
use strata_engine::voxel::VoxelBox;

use super::open_document::Document;
use crate::{AppError, AppResult};

impl Document {
    /// The project's placed lights, in list order.
    pub fn lights(&self) -> &[PlacedLight] {
        &self.project.lights
    }

    /// Replace the placed lights with `lights` as one undo step called `name` (nothing happens when
    /// the list is the same).
    ///
    /// # Errors
    /// [`AppError::Usage`] naming the first light that is not valid inside the world, or too many
    /// lights; nothing changes then.
    pub fn change_lights(&mut self, name: &str, lights: Vec<PlacedLight>) -> AppResult<()> {
        self.end_stroke();
        if lights.len() > strata_engine::light::placed::MAX_LIGHTS {
            return Err(AppError::Usage(format!(
                "{} lights: a project holds at most {}",
                lights.len(),
                strata_engine::light::placed::MAX_LIGHTS
            )));
        }
        let bounds = self.project.header.bounds;
        for (i, l) in lights.iter().enumerate() {
            l.validate(&bounds)
                .map_err(|e| AppError::Usage(format!("light {i}: {e}")))?;
        }
        if lights == self.project.lights {
            return Ok(());
        }
        let old = std::mem::replace(&mut self.project.lights, lights);
        self.project.history.record_data(
            DataChange {
                kind: DataKind::Lights,
                before: placed_serial::to_bytes(&old),
                after: placed_serial::to_bytes(&self.project.lights),
            },
            name,
        );
        self.lights_restored(&old);
        Ok(())
    }

    /// After the light list changed from `old` (an edit, an undo or a redo): mark stale the baked
    /// light within range of every light that differs, old and new, and count the change.
    pub(crate) fn lights_restored(&mut self, old: &[PlacedLight]) {
        let new = self.project.lights.clone();
        if old == new.as_slice() {
            return;
        }
        let n = old.len().max(new.len());
        let mut relit = VoxelBox::default();
        for i in 0..n {
            let (a, b) = (old.get(i), new.get(i));
            if a == b {
                continue;
            }
            for l in [a, b].into_iter().flatten() {
                if let Some(light) = self.project.light.as_mut() {
                    light.mark_light_changed(l);
                }
                relit = relit.union(&l.reach_box());
            }
        }
        if self.project.light.is_some() && !relit.is_empty() {
            self.relit.push(relit);
        }
        self.revision += 1;
        self.edits += 1;
    }
}

#[cfg(test)]
mod tests {
    use strata_engine::format::project::{Project, ProjectHeader};
    use strata_engine::light::{bake_grid, LightSettings};
    use strata_engine::progress::Progress;
    use strata_engine::storage::Grid;
    use strata_engine::voxel::{Voxel, VoxelPos};

    use super::*;

    fn doc() -> Document {
        let mut grid = Grid::new();
        let b = VoxelBox::new(VoxelPos::new(0, 0, 0), VoxelPos::new(96, 4, 96));
        grid.fill_box(b, Voxel::filled(7));
        let header = ProjectHeader::new(
            "lamps",
            VoxelBox::new(VoxelPos::new(0, 0, 0), VoxelPos::new(96, 32, 96)),
        );
        let mut p = Project::new(header, grid);
        let s = LightSettings {
            particles: 2,
            steps: 4,
            ..LightSettings::default()
        };
        p.light = Some(
            bake_grid(&p.grid, &p.header.materials, &[], &s, &Progress::new())
                .expect("bake")
                .0,
        );
        Document::headless(p, None)
    }

    #[test]
    fn each_change_is_one_undo_step_and_marks_only_its_range_stale() {
        let mut d = doc();
        let lamp = PlacedLight {
            position: [10.0, 8.0, 10.0],
            range: 8.0,
            ..PlacedLight::default()
        };
        d.change_lights("Add light", vec![lamp]).expect("add");
        assert_eq!(d.lights(), &[lamp]);
        assert_eq!(d.history().undo_len(), 1);
        let light = d.light().expect("light");
        assert!(light.is_stale(VoxelPos::new(10, 3, 10)));
        assert!(
            !light.is_stale(VoxelPos::new(60, 3, 60)),
            "beyond its range"
        );
        let moved = PlacedLight {
            position: [12.0, 8.0, 10.0],
            ..lamp
        };
        d.change_lights("Move light", vec![moved]).expect("move");
        assert_eq!(d.history().undo_len(), 2);
        assert_eq!(d.undo().expect("undo").as_deref(), Some("Move light"));
        assert_eq!(d.lights(), &[lamp]);
        d.undo().expect("undo");
        assert!(d.lights().is_empty());
        d.redo().expect("redo");
        assert_eq!(d.lights(), &[lamp]);
        let outside = PlacedLight {
            position: [500.0, 8.0, 10.0],
            ..lamp
        };
        let err = d
            .change_lights("Add light", vec![lamp, outside])
            .expect_err("outside");
        assert!(err.to_string().contains("outside the world"), "{err}");
        assert_eq!(d.lights(), &[lamp], "nothing changed");
    }
}
