//! Where the Enhance preview works, and what the whole world would cost. The preview starts on the
//! selection, or on a square around the point the camera looks at: a whole-world preview of a
//! large world makes millions of faces and slows every frame, so it waits until the user has seen
//! its estimated faces and build time and pressed **Preview Whole World**.
//!
//! ```text
//!   Show fragments ──region unset──> selection, else VIEW_SIDE² around the camera target
//!   Scope: Whole world ──> estimate (faces, seconds) ──Preview Whole World──> build
//!   every build ──> faces and seconds per column measured ──> the next estimate
//! ```

use eframe::egui;
use strata_engine::voxel::{VoxelBox, VoxelPos};

/// Side of the square the preview covers around the camera's target, voxels.
pub const VIEW_SIDE: i32 = 128;

/// Faces a whole-world preview may have before it asks first.
pub const ASK_ABOVE_FACES: f64 = 500_000.0;

/// Faces per second a build is assumed to make before one was measured.
const ASSUMED_FACES_PER_SECOND: f64 = 400_000.0;

/// Faces per surface column per fragment-side squared, before one was measured: a column's top
/// face splits into factor² fragment faces, and slopes and cliffs add about a half.
const ASSUMED_FACES_PER_FRAGMENT_AREA: f64 = 1.5;

/// What the last build measured, per column of its footprint (x × z).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Measured {
    /// Faces per column.
    pub faces_per_column: f64,
    /// Build seconds per column.
    pub seconds_per_column: f64,
    /// Fragments per voxel edge of that build.
    pub factor: u32,
}

/// The scope's state kept by the panel.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Scope {
    /// The user chose the whole world (not the box a preview starts on).
    pub world_chosen: bool,
    /// The user accepted the whole-world cost.
    pub world_ok: bool,
    /// The last build's figures.
    pub measured: Option<Measured>,
}

/// The estimated cost of a preview.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Cost {
    /// Faces drawn.
    pub faces: f64,
    /// Seconds to build.
    pub seconds: f64,
    /// From a measured build (else from the world's area alone).
    pub measured: bool,
}

impl Cost {
    /// `about 5.1 M faces, about 12 s to build (measured on the last preview)`.
    pub fn text(&self) -> String {
        let faces = if self.faces >= 1e6 {
            format!("{:.1} M", self.faces / 1e6)
        } else {
            format!("{:.0} k", (self.faces / 1e3).max(1.0))
        };
        let basis = if self.measured {
            "scaled from the last preview"
        } else {
            "a rough guess from the world's area"
        };
        format!(
            "about {faces} faces, about {:.0} s to build ({basis})",
            self.seconds.max(1.0)
        )
    }
}

fn footprint(b: VoxelBox) -> f64 {
    let [x, _, z] = b.size();
    x as f64 * z as f64
}

impl Scope {
    /// Remember what a build of `region` (`None`: `world`) at `factor` fragments per voxel edge
    /// made: `faces` in `secs` seconds.
    pub fn measure(
        &mut self,
        region: Option<VoxelBox>,
        world: VoxelBox,
        factor: u32,
        faces: usize,
        secs: f64,
    ) {
        let columns = footprint(region.unwrap_or(world)).max(1.0);
        self.measured = Some(Measured {
            faces_per_column: faces as f64 / columns,
            seconds_per_column: secs / columns,
            factor,
        });
    }

    /// The estimated cost of enhancing all of `world` at `factor` fragments per voxel edge.
    pub fn world_cost(&self, world: VoxelBox, factor: u32) -> Cost {
        let columns = footprint(world);
        match self.measured {
            Some(m) if m.factor > 0 => {
                // Faces (and the time to make them) grow with the fragments per voxel face.
                let scale = (f64::from(factor) / f64::from(m.factor)).powi(2);
                Cost {
                    faces: m.faces_per_column * columns * scale,
                    seconds: m.seconds_per_column * columns * scale,
                    measured: true,
                }
            }
            _ => {
                let faces = columns * f64::from(factor * factor) * ASSUMED_FACES_PER_FRAGMENT_AREA;
                Cost {
                    faces,
                    seconds: faces / ASSUMED_FACES_PER_SECOND,
                    measured: false,
                }
            }
        }
    }
}

/// The box a preview starts on: the selection, else a [`VIEW_SIDE`] square around `target`
/// (the camera's), the world's full height, shifted to lie inside `world`.
pub fn starting_box(selection: Option<VoxelBox>, target: [f32; 3], world: VoxelBox) -> VoxelBox {
    if let Some(s) = selection.map(|s| s.intersect(&world)) {
        if !s.is_empty() {
            return s;
        }
    }
    let place = |centre: f32, lo: i32, hi: i32| {
        let side = VIEW_SIDE.min(hi - lo);
        let start = (centre.round() as i32 - side / 2).clamp(lo, hi - side);
        (start, start + side)
    };
    let (x0, x1) = place(target[0], world.min.x, world.max.x);
    let (z0, z1) = place(target[2], world.min.z, world.max.z);
    VoxelBox::new(
        VoxelPos::new(x0, world.min.y, z0),
        VoxelPos::new(x1, world.max.y, z1),
    )
}

/// The Scope row and the box fields of the form's `region` (`None`: the whole world, or not chosen
/// yet); `near` is the box "Near the view" takes.
pub fn scope_ui(
    region: &mut Option<[[i32; 3]; 2]>,
    scope: &mut Scope,
    ui: &mut egui::Ui,
    near: VoxelBox,
) {
    ui.horizontal_wrapped(|ui| {
        ui.label("Scope");
        // Until the user chooses, the preview will start near the view.
        let unset = region.is_none() && !scope.world_chosen;
        let whole = region.is_none() && scope.world_chosen;
        let is_near = unset || *region == Some(corners(near));
        if ui
            .selectable_label(is_near, "Near the view")
            .on_hover_text("The selection, else a 128×128 square around what the camera looks at")
            .clicked()
        {
            *region = Some(corners(near));
            scope.world_chosen = false;
        }
        if ui.radio(!whole && !is_near, "Box").clicked() && region.is_none() {
            *region = Some(corners(near));
            scope.world_chosen = false;
        }
        if ui.radio(whole, "Whole world").clicked() && !whole {
            *region = None;
            scope.world_chosen = true;
            scope.world_ok = false;
        }
    });
    if let Some(region) = region.as_mut() {
        egui::Grid::new("enhance-box")
            .num_columns(2)
            .show(ui, |ui| {
                for (corner, name) in [(0, "Box min"), (1, "Box max")] {
                    let label = ui.label(name);
                    ui.horizontal(|ui| {
                        for (axis, a) in ["X", "Y", "Z"].iter().enumerate() {
                            ui.add(egui::DragValue::new(&mut region[corner][axis]).prefix(*a))
                                .labelled_by(label.id);
                        }
                    });
                    ui.end_row();
                }
            });
    }
}

/// The whole-world cost line and its button; true when the user accepts the cost.
pub fn world_cost_ui(ui: &mut egui::Ui, cost: Cost) -> bool {
    ui.colored_label(
        ui.visuals().warn_fg_color,
        format!("Whole world: {}. Every frame draws them all.", cost.text()),
    );
    ui.button("Preview Whole World")
        .on_hover_text("Build the preview over the whole world anyway")
        .clicked()
}

/// The form's corners of `b`.
pub fn corners(b: VoxelBox) -> [[i32; 3]; 2] {
    [b.min.to_array(), b.max.to_array()]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn world() -> VoxelBox {
        VoxelBox::new(VoxelPos::new(0, 0, 0), VoxelPos::new(1024, 96, 512))
    }

    #[test]
    fn the_starting_box_is_the_selection_else_a_square_inside_the_world() {
        let sel = VoxelBox::new(VoxelPos::new(10, 5, 10), VoxelPos::new(40, 30, 20));
        assert_eq!(starting_box(Some(sel), [500.0, 0.0, 500.0], world()), sel);
        let b = starting_box(None, [1020.0, 50.0, 3.0], world());
        assert_eq!(b.size(), [128, 96, 128]);
        assert_eq!((b.max.x, b.min.z), (1024, 0), "shifted inside the world");
        let small = VoxelBox::new(VoxelPos::new(0, 0, 0), VoxelPos::new(64, 48, 64));
        assert_eq!(starting_box(None, [30.0, 0.0, 30.0], small), small);
    }

    #[test]
    fn the_world_cost_scales_the_last_build_by_area() {
        let mut scope = Scope::default();
        let guess = scope.world_cost(world(), 4);
        assert!(!guess.measured && guess.faces > 1e6, "{guess:?}");
        let near = VoxelBox::new(VoxelPos::new(0, 0, 0), VoxelPos::new(128, 96, 128));
        scope.measure(Some(near), world(), 4, 80_000, 0.5);
        let cost = scope.world_cost(world(), 4);
        assert!(cost.measured);
        assert!((cost.faces - 80_000.0 * 32.0).abs() < 1.0, "{cost:?}");
        assert!((cost.seconds - 16.0).abs() < 1e-6, "{cost:?}");
        assert!(
            cost.text().starts_with("about 2.6 M faces, about 16 s"),
            "{}",
            cost.text()
        );
        let finer = scope.world_cost(world(), 8);
        assert!((finer.faces - 4.0 * cost.faces).abs() < 1.0, "{finer:?}");
    }
}
