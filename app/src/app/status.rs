//! The status bar, in a designer's terms: the hovered point and material, what the active tool says
//! (brush size, height above sea level and slope under the cursor, selection size), the last message
//! or a hint, the real frame interval, and whether the viewport draws on its fast path. Engine figures live in the Statistics window.

use eframe::egui;

use crate::app::panel::View;

/// What the status bar shows besides the view.
pub struct StatusLine<'a> {
    /// The last message (empty: a hint).
    pub message: &'a str,
    /// The active tool's segment.
    pub tool: Option<String>,
}

/// Show the status bar.
pub fn show(ui: &mut egui::Ui, view: &View<'_>, line: &StatusLine<'_>) {
    ui.horizontal(|ui| {
        if let Some(doc) = view.doc {
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
            if let Some(tool) = &line.tool {
                ui.separator();
                ui.label(tool);
            }
            if view.frame.stale_chunks > 0 {
                ui.separator();
                ui.label(format!("meshing {}", view.frame.stale_chunks));
            }
            ui.separator();
        }
        if line.message.is_empty() {
            ui.weak("Left drag sculpts · right drag orbits · middle drag pans · wheel zooms · F focuses");
        } else {
            ui.label(line.message);
        }
        ui.with_layout(egui::Layout::right_to_left(egui::Align::Center), |ui| {
            ui.weak(format!("{:.1} ms", view.frame.frame_ms))
                .on_hover_text("Time between the last frames");
            if view.frame.fast_viewport {
                ui.weak("Fast viewport").on_hover_text(
                    "Simpler shading and coarser distant meshes for speed \
                     (Preferences, Viewport quality)",
                );
            }
        });
    });
}
