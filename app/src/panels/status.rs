//! The status bar: hovered voxel and material, memory per voxel, chunks, meshing progress, frame
//! time, and a hint or the last message.

use std::time::{Duration, Instant};

use eframe::egui;

use crate::app::EditorApp;
use crate::document::Document;

/// Memory per non-air voxel, recomputed at most once a second and only after edits (counting
/// voxels walks the whole grid).
#[derive(Default)]
pub struct MemoryGauge {
    revision: Option<u64>,
    at: Option<Instant>,
    value: f64,
}

impl MemoryGauge {
    /// Bytes of voxel storage per non-air voxel of `doc`.
    pub fn per_voxel(&mut self, doc: &Document) -> f64 {
        let changed = self.revision != Some(doc.revision());
        let throttled = self
            .at
            .is_some_and(|t| t.elapsed() < Duration::from_secs(1));
        if changed && !throttled {
            let grid = &doc.project.grid;
            let nonair = grid.stats().nonair_voxels;
            self.value = if nonair > 0 {
                grid.memory_bytes() as f64 / nonair as f64
            } else {
                0.0
            };
            self.revision = Some(doc.revision());
            self.at = Some(Instant::now());
        }
        self.value
    }
}

/// Show the status bar.
pub fn show(app: &mut EditorApp, ui: &mut egui::Ui, frame_ms: f32) {
    ui.horizontal(|ui| {
        let Some(doc) = app.doc.as_ref() else {
            ui.label(&app.message);
            return;
        };
        match app.viewport.hover {
            Some(hit) => {
                let v = hit.point.map(|c| c.floor() as i32);
                let name = doc
                    .materials()
                    .get(hit.material)
                    .map_or("?", |m| m.name.as_str());
                ui.monospace(format!("{:>5} {:>4} {:>5}  {name}", v[0], v[1], v[2]));
            }
            None => {
                ui.monospace("    –    –     –");
            }
        }
        ui.separator();
        let grid = &doc.project.grid;
        let per_voxel = app.memory.per_voxel(doc);
        ui.label(format!("{per_voxel:.2} B/voxel"));
        ui.separator();
        ui.label(format!("{} chunks", grid.chunk_count()));
        let stale = app.viewport.stale_chunks();
        if stale > 0 {
            ui.separator();
            ui.label(format!("meshing {stale}"));
        }
        ui.separator();
        ui.label(format!("{frame_ms:.1} ms"));
        ui.separator();
        if app.message.is_empty() {
            ui.weak(hint(app));
        } else {
            ui.label(&app.message);
        }
    });
}

fn hint(app: &EditorApp) -> &'static str {
    use strata_engine::tools::ToolKind;
    match app.tools.tool.kind {
        ToolKind::SeaLevel => "Set a level, then Fill Water or Clear Water",
        ToolKind::Replace => "Drag to replace Source with Target inside the brush",
        ToolKind::Paint => "Drag to paint · Alt+click picks a material",
        _ => "Drag to sculpt · right drag orbits · middle drag pans · wheel zooms · F focuses",
    }
}
