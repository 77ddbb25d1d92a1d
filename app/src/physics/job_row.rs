//! One row of a panel for a background search: while it runs, its Cancel button and progress bar;
//! otherwise whatever starts it (the Cleanup section's two searches share it).

use std::sync::Arc;

use eframe::egui;
use strata_engine::progress::Progress;

/// Draw the row: `cancel` and the progress of `running`, or `idle` (which returns true to start
/// the search). Returns what `idle` returned (false while running).
pub fn job_row(
    ui: &mut egui::Ui,
    running: Option<&Arc<Progress>>,
    cancel: &str,
    idle: impl FnOnce(&mut egui::Ui) -> bool,
) -> bool {
    ui.horizontal(|ui| match running {
        Some(progress) => {
            if ui.button(cancel).clicked() {
                progress.cancel();
            }
            ui.add(egui::ProgressBar::new(progress.fraction()));
            false
        }
        None => idle(ui),
    })
    .inner
}
