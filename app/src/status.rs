//! The status bar: hovered voxel and material, memory per voxel, chunks, meshing progress, frame
//! time, and a hint or the last message.

use std::time::{Duration, Instant};

use eframe::egui;

use crate::document::Document;
use crate::panels::View;

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
            let grid = doc.grid();
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

/// What the status bar shows besides the document.
pub struct StatusLine<'a> {
    /// The last message (empty: a hint).
    pub message: &'a str,
    /// Chunks still waiting for a mesh.
    pub stale_chunks: usize,
    /// Frame time, milliseconds.
    pub frame_ms: f32,
}

/// Show the status bar.
pub fn show(ui: &mut egui::Ui, view: &View<'_>, line: &StatusLine<'_>, memory: &mut MemoryGauge) {
    ui.horizontal(|ui| {
        let Some(doc) = view.doc else {
            ui.label(line.message);
            return;
        };
        match view.hover {
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
        let per_voxel = memory.per_voxel(doc);
        ui.label(format!("{per_voxel:.2} B/voxel"));
        ui.separator();
        ui.label(format!("{} chunks", doc.grid().chunk_count()));
        if line.stale_chunks > 0 {
            ui.separator();
            ui.label(format!("meshing {}", line.stale_chunks));
        }
        ui.separator();
        ui.label(format!("{:.1} ms", line.frame_ms));
        ui.separator();
        if line.message.is_empty() {
            ui.weak(
                "Drag to sculpt · right drag orbits · middle drag pans · wheel zooms · F focuses",
            );
        } else {
            ui.label(line.message);
        }
    });
}
