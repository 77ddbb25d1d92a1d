//! Clean Up Invisible Matter: the editor's twin of `strata cleanup`. Matter no surface shows (voxels
//! thinner than the carving floor that older versions' digging left, and lone thin voxels) keeps
//! Sea Level from flooding dug ground; the button finds it in the background and turns it to Air
//! as one undo step through [`crate::document::Document::clear_stray`].
//!
//! ```text
//!   Clean Up ──job: find_stray(grid copy)──> StrayMatter ──> Action::ClearStray ──> one undo step
//!   any edit while the search runs ──> the result describes old voxels: dropped, "try again"
//! ```

use std::sync::Arc;

use eframe::egui;
use strata_engine::progress::Progress;
use strata_engine::stray::{find_stray, StrayMatter};

use crate::app::action::Action;
use crate::app::jobs::{Inbox, JobKind};
use crate::document::Document;
use crate::AppResult;

/// The button's text.
pub const BUTTON: &str = "Clean Up Invisible Matter";

/// What the search job hands back.
pub struct StrayFound(pub StrayMatter);

/// The clean-up's state: the running search and its last report.
#[derive(Default)]
pub struct StrayCleanup {
    running: Option<Arc<Progress>>,
    edited_while_running: bool,
    report: Option<String>,
    inbox: Inbox<StrayFound>,
}

impl StrayCleanup {
    /// True while the search runs.
    pub fn searching(&self) -> bool {
        self.running.is_some()
    }

    /// The voxels changed: a search running now describes old voxels.
    pub fn on_edit(&mut self) {
        if self.running.is_some() {
            self.edited_while_running = true;
        }
    }

    /// Stop the search and forget the report (the document closed or changed).
    pub fn reset(&mut self) {
        if let Some(p) = &self.running {
            p.cancel();
        }
        *self = Self::default();
    }

    /// The search finished: clear what it found (one undo step), or say why not.
    pub fn on_job(&mut self, result: AppResult<()>, out: &mut Vec<Action>) {
        self.running = None;
        let found = match finished(result, self.inbox.take(), "Clean-up") {
            Ok(Some(found)) => found.0,
            Ok(None) => return,
            Err(report) => {
                self.report = Some(report);
                return;
            }
        };
        if self.edited_while_running {
            self.report = Some("The terrain changed during the search: clean up again".into());
            return;
        }
        self.report = Some(match found.voxels() {
            0 => "No invisible matter".into(),
            n => format!("Cleared {n} voxels of invisible matter (one undo step)"),
        });
        if !found.is_empty() {
            out.push(Action::ClearStray(Arc::new(found)));
        }
    }

    /// Draw the button (or the search's progress and Cancel) and the last report. `owner` is the
    /// panel the search's job reports back to; `busy` disables the button.
    pub fn ui(
        &mut self,
        ui: &mut egui::Ui,
        doc: &Document,
        busy: bool,
        owner: &'static str,
        out: &mut Vec<Action>,
    ) {
        let start = super::job_row::job_row(ui, self.running.as_ref(), "Cancel Clean-up", |ui| {
            ui.add_enabled(!busy, egui::Button::new(BUTTON))
                .on_hover_text(
                    "Turn matter no surface shows (thin leftovers of digging) into Air, \
                     as one undo step",
                )
                .clicked()
        });
        if start {
            self.start(doc, owner, out);
        }
        if let Some(r) = &self.report {
            ui.weak(r);
        }
    }

    fn start(&mut self, doc: &Document, owner: &'static str, out: &mut Vec<Action>) {
        let (grid, table) = (doc.grid().clone(), doc.materials().clone());
        let job = self
            .inbox
            .spawn(
                "Finding invisible matter",
                JobKind::Background,
                move |progress| Ok(StrayFound(find_stray(&grid, &table, progress)?)),
            )
            .owned_by(owner);
        self.running = Some(job.progress());
        self.edited_while_running = false;
        self.report = None;
        out.push(Action::Start(job));
    }
}
/// What a finished search job of the Cleanup section brought: its value (`None` when none was
/// delivered), or the report saying it was cancelled or failed (`what` names the search).
pub(super) fn finished<T>(
    result: AppResult<()>,
    value: Option<T>,
    what: &str,
) -> Result<Option<T>, String> {
    match result {
        Ok(()) => Ok(value),
        Err(crate::AppError::Engine(strata_engine::Error::Cancelled)) => {
            Err(format!("{what} cancelled"))
        }
        Err(e) => Err(format!("{what} failed: {e}")),
    }
}
