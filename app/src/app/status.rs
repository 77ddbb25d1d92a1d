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

/// Show the status bar: the frame time (and the fast-path note) at the right, everything else from
/// the left in the room they leave, a long message cut short with its whole text on hover.
pub fn show(ui: &mut egui::Ui, view: &View<'_>, line: &StatusLine<'_>) {
    ui.with_layout(egui::Layout::right_to_left(egui::Align::Center), |ui| {
        ui.weak(format!("{:.1} ms", view.frame.frame_ms))
            .on_hover_text("Time between the last frames");
        if view.frame.fast_viewport {
            ui.weak("Fast viewport").on_hover_text(
                "Simpler shading and coarser distant meshes for speed \
                 (Preferences, Viewport quality)",
            );
        }
        ui.separator();
        ui.with_layout(egui::Layout::left_to_right(egui::Align::Center), |ui| {
            left_side(ui, view, line);
        });
    });
}

/// The hovered point, the tool's segment, meshing work and the message or hint.
fn left_side(ui: &mut egui::Ui, view: &View<'_>, line: &StatusLine<'_>) {
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
        ui.add(
            egui::Label::new(
                egui::RichText::new(
                    "Left drag sculpts · right drag orbits · middle drag pans · wheel zooms · F focuses",
                )
                .weak(),
            )
            .truncate(),
        );
    } else {
        ui.add(egui::Label::new(line.message).truncate())
            .on_hover_text(line.message);
    }
}
