//! The editor's modal prompts: progress of the running job with Cancel, unsaved changes, crash
//! recovery and errors. Each reads its own state and answers with actions.

use eframe::egui::{self, Align2};

use crate::app::action::{Action, Guarded};
use crate::app::file_browser::FileBrowser;
use crate::app::jobs::JobRunner;
use crate::files::autosave::RecoveryInfo;

/// Prompt state.
#[derive(Default)]
pub struct Dialogs {
    /// An action waiting for the unsaved-changes answer.
    pub unsaved: Option<Guarded>,
    /// An autosave to offer for recovery.
    pub recover: Option<RecoveryInfo>,
    /// An error to show.
    pub error: Option<String>,
    /// Something the user should know that went right in the end (what loading repaired).
    pub warning: Option<String>,
    /// The in-app file browser, when a prompt uses it.
    pub browser: Option<FileBrowser>,
}

/// Show whichever prompts are open; `doc_name` names the document in the unsaved-changes prompt.
pub fn show(
    ctx: &egui::Context,
    dialogs: &mut Dialogs,
    jobs: &JobRunner,
    doc_name: &str,
    out: &mut Vec<Action>,
) {
    if let Some(browser) = dialogs.browser.as_mut() {
        if !browser.show(ctx, out) {
            dialogs.browser = None;
        }
    }
    progress(ctx, jobs, out);
    unsaved(ctx, dialogs, doc_name, out);
    recover(ctx, dialogs, out);
    errors(ctx, dialogs);
}

/// The bar is not animated: an animated bar asks for a frame at every display refresh, and on software GL
/// those frames take the CPU the job needs. The app redraws every `PROGRESS_FRAME` while a job runs.
fn progress(ctx: &egui::Context, jobs: &JobRunner, out: &mut Vec<Action>) {
    let Some(job) = jobs.modal() else {
        return;
    };
    egui::Modal::new(egui::Id::unique("progress")).show(ctx, |ui| {
        ui.set_min_width(320.0);
        ui.label(job.label());
        ui.add(egui::ProgressBar::new(job.fraction()).show_percentage());
        ui.weak(format!("{:.1} s", job.elapsed_secs()));
        if ui.button("Cancel").clicked() {
            out.push(Action::CancelJob);
        }
    });
}

fn unsaved(ctx: &egui::Context, dialogs: &mut Dialogs, name: &str, out: &mut Vec<Action>) {
    let Some(action) = dialogs.unsaved.clone() else {
        return;
    };
    egui::Modal::new(egui::Id::unique("unsaved")).show(ctx, |ui| {
        ui.heading("Unsaved changes");
        ui.label(format!("Save the changes to {name} first?"));
        ui.horizontal(|ui| {
            if ui.button("Save").clicked() {
                dialogs.unsaved = None;
                out.push(Action::SaveThen(action.clone()));
            }
            if ui.button("Don't Save").clicked() {
                dialogs.unsaved = None;
                out.push(Action::Proceed(action.clone()));
            }
            if ui.button("Cancel").clicked() {
                dialogs.unsaved = None;
            }
        });
    });
}

fn recover(ctx: &egui::Context, dialogs: &mut Dialogs, out: &mut Vec<Action>) {
    let Some(info) = dialogs.recover.clone() else {
        return;
    };
    egui::Modal::new(egui::Id::unique("recover")).show(ctx, |ui| {
        ui.heading("Recover unsaved work?");
        let from = info
            .original
            .as_ref()
            .map_or_else(|| info.name.clone(), |p| p.display().to_string());
        ui.label(format!(
            "Strata did not close normally. An autosave of {from} is available."
        ));
        ui.horizontal(|ui| {
            if ui.button("Recover").clicked() {
                out.push(Action::Recover);
            }
            if ui.button("Discard").clicked() {
                out.push(Action::DiscardRecovery);
            }
        });
    });
}

fn errors(ctx: &egui::Context, dialogs: &mut Dialogs) {
    if let Some(message) = dialogs.error.clone() {
        if notice(ctx, "Error", &message) {
            dialogs.error = None;
        }
    } else if let Some(message) = dialogs.warning.clone() {
        if notice(ctx, "Warning", &message) {
            dialogs.warning = None;
        }
    }
}

/// A centred window with `message` and OK; true when OK was pressed.
fn notice(ctx: &egui::Context, title: &str, message: &str) -> bool {
    let mut close = false;
    egui::Window::new(title)
        .collapsible(false)
        .resizable(false)
        .anchor(Align2::CENTER_CENTER, [0.0, 0.0])
        .show(ctx, |ui| {
            ui.label(message);
            close = ui.button("OK").clicked();
        });
    close
}
