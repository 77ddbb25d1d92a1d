//! The Statistics window: engine figures for the curious (storage bytes per voxel, chunks, history
//! memory, triangles drawn, meshing backlog, frame time). Counting voxels walks the whole grid, so
//! storage figures are recomputed at most once a second and only after edits.

use std::time::{Duration, Instant};

use eframe::egui;

use crate::app::action::Action;
use crate::app::panel::{Panel, Placement, View};

/// The window's name.
pub const NAME: &str = "Statistics";

/// Storage figures of one document revision.
#[derive(Debug, Clone, Copy, Default)]
struct Storage {
    nonair: u64,
    bytes: usize,
}

/// The Statistics window.
#[derive(Default)]
pub struct StatisticsWindow {
    revision: Option<u64>,
    at: Option<Instant>,
    storage: Storage,
}

impl Panel for StatisticsWindow {
    fn name(&self) -> &'static str {
        NAME
    }

    fn placement(&self) -> Placement {
        Placement::Window
    }

    fn ui(&mut self, ui: &mut egui::Ui, view: &View<'_>, _out: &mut Vec<Action>) {
        let Some(doc) = view.doc else {
            ui.weak("No world open");
            return;
        };
        let changed = self.revision != Some(doc.revision());
        let throttled = self
            .at
            .is_some_and(|t| t.elapsed() < Duration::from_secs(1));
        if changed && !throttled {
            let grid = doc.grid();
            self.storage = Storage {
                nonair: grid.stats().nonair_voxels,
                bytes: grid.memory_bytes(),
            };
            self.revision = Some(doc.revision());
            self.at = Some(Instant::now());
        }
        let s = self.storage;
        let per_voxel = if s.nonair > 0 {
            s.bytes as f64 / s.nonair as f64
        } else {
            0.0
        };
        let history = doc.history();
        egui::Grid::new("stats-grid")
            .num_columns(2)
            .striped(true)
            .show(ui, |ui| {
                let mut row = |k: &str, v: String| {
                    ui.label(k);
                    ui.monospace(v);
                    ui.end_row();
                };
                let [x, y, z] = doc.bounds().size();
                row("World size", format!("{x} × {y} × {z}"));
                row("Stored chunks", doc.grid().chunk_count().to_string());
                row("Non-air voxels", s.nonair.to_string());
                row(
                    "Voxel memory",
                    format!("{:.1} MiB", s.bytes as f64 / 1048576.0),
                );
                row("Bytes per voxel", format!("{per_voxel:.3}"));
                row(
                    "Undo history",
                    format!(
                        "{} steps, {:.1} MiB",
                        history.undo_len(),
                        history.used_bytes() as f64 / 1048576.0
                    ),
                );
                row("Triangles drawn", view.frame.triangles.to_string());
                row("Chunks to mesh", view.frame.stale_chunks.to_string());
                row("Frame time", format!("{:.1} ms", view.frame.frame_ms));
            });
    }
}
