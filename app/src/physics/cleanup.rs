//! Cleanup: find the floating terrain (solid pieces that no longer reach the world's bottom layer)
//! as a background job, list each piece with its voxel count, let the user keep or delete each, and
//! delete the chosen ones as one undo step. Beside it, Clean Up Invisible Matter
//! ([`super::stray_cleanup`]); one search runs at a time.
//!
//! ```text
//!   Find ──job: find_floating(grid copy) ─> pieces (each marked Delete) ──> list + wire boxes
//!   any edit while searching or after ──> the result describes old voxels: dropped, "search again"
//!   Delete Marked ──> Action::DeleteFloating(marked) ──> Document::delete_floating (one undo step)
//! ```

use std::sync::Arc;

use eframe::egui;
use strata_engine::floating::{find_floating, Floating, FloatingPiece};
use strata_engine::progress::Progress;

use super::stray_cleanup::StrayCleanup;
use crate::app::action::Action;
use crate::app::jobs::{Inbox, JobKind};
use crate::document::Document;
use crate::AppResult;

/// Most pieces listed in the panel and drawn as boxes (all can be deleted).
const LISTED: usize = 200;

/// What the search job hands back.
pub struct Found(pub Floating);

/// The Cleanup section's state.
#[derive(Default)]
pub struct Cleanup {
    running: Option<Arc<Progress>>,
    /// An edit landed while the search ran: its result is out of date.
    edited_while_running: bool,
    /// What the search found.
    found: Arc<Floating>,
    /// Per piece: "delete" (true) or "keep".
    marks: Vec<bool>,
    report: Option<String>,
    /// The report arrived since the section was last drawn: scroll it (and the list) into view.
    fresh: bool,
    /// Where the search delivers.
    inbox: Inbox<Found>,
    /// Clean Up Invisible Matter.
    stray: StrayCleanup,
}

impl Cleanup {
    /// The pieces found (the 200 largest), each with whether it is marked for deletion.
    pub fn pieces(&self) -> impl Iterator<Item = (&FloatingPiece, bool)> + '_ {
        self.found
            .pieces()
            .iter()
            .zip(self.marks.iter().copied())
            .take(LISTED)
    }

    /// True while the search runs.
    pub fn searching(&self) -> bool {
        self.running.is_some()
    }

    fn start(&mut self, doc: &Document, owner: &'static str, out: &mut Vec<Action>) {
        let (grid, table) = (doc.grid().clone(), doc.materials().clone());
        let bottom = doc.bounds().min.y;
        let job = self
            .inbox
            .spawn(
                "Finding floating terrain",
                JobKind::Background,
                move |progress| Ok(Found(find_floating(&grid, &table, bottom, progress)?)),
            )
            .owned_by(owner);
        self.running = Some(job.progress());
        self.edited_while_running = false;
        self.clear_found();
        self.report = None;
        out.push(Action::Start(job));
    }

    /// The voxels changed: a list computed before describes other voxels.
    pub fn on_edit(&mut self) {
        self.stray.on_edit();
        if self.running.is_some() {
            self.edited_while_running = true;
        } else if !self.found.is_empty() {
            self.clear_found();
            self.report = Some("The terrain changed: search again".into());
        }
    }

    fn clear_found(&mut self) {
        self.found = Arc::default();
        self.marks.clear();
    }

    /// A search finished: the floating pieces (all marked for deletion), or the invisible matter
    /// to clear; or why it stopped.
    pub fn on_job(&mut self, result: AppResult<()>, out: &mut Vec<Action>) {
        if self.stray.searching() {
            self.stray.on_job(result, out);
            return;
        }
        self.running = None;
        self.fresh = true;
        let found = match super::stray_cleanup::finished(result, self.inbox.take(), "Search") {
            Ok(Some(found)) => found.0,
            Ok(None) => return,
            Err(report) => {
                self.report = Some(report);
                return;
            }
        };
        if self.edited_while_running {
            self.report = Some("The terrain changed during the search: search again".into());
            return;
        }
        self.report = Some(match found.len() {
            0 => "No floating terrain".into(),
            n => format!("{n} floating pieces, {} voxels", found.voxels()),
        });
        self.marks = vec![true; found.len()];
        self.found = Arc::new(found);
    }

    /// The document closed or changed.
    pub fn reset(&mut self) {
        if let Some(p) = &self.running {
            p.cancel();
        }
        self.stray.reset();
        *self = Self::default();
    }

    /// Draw the section.
    ///
    /// `owner` is the panel the search's job reports back to.
    pub fn ui(
        &mut self,
        ui: &mut egui::Ui,
        doc: &Document,
        busy: bool,
        owner: &'static str,
        out: &mut Vec<Action>,
    ) {
        let searching = self.stray.searching();
        let start = super::job_row::job_row(ui, self.running.as_ref(), "Cancel Search", |ui| {
            ui.add_enabled(!searching, egui::Button::new("Find Floating Terrain"))
                .on_hover_text(
                    "Find solid pieces that no longer touch the bottom of the world \
                     (in the background)",
                )
                .clicked()
        });
        if start {
            self.start(doc, owner, out);
        }
        if let Some(r) = &self.report {
            let report = ui.weak(r);
            if std::mem::take(&mut self.fresh) {
                report.scroll_to_me(Some(egui::Align::Min));
            }
        }
        if self.running.is_none() {
            self.stray.ui(ui, doc, busy, owner, out);
        }
        if self.found.is_empty() {
            return;
        }
        ui.horizontal(|ui| {
            if ui.small_button("Mark All").clicked() {
                self.marks.fill(true);
            }
            if ui.small_button("Keep All").clicked() {
                self.marks.fill(false);
            }
        });
        egui::ScrollArea::vertical()
            .id_salt("floating-pieces")
            .max_height(160.0)
            .show(ui, |ui| {
                let pieces = self.found.pieces().iter().zip(self.marks.iter_mut());
                for (i, (p, delete)) in pieces.enumerate().take(LISTED) {
                    let text = format!(
                        "Piece {}: {} voxels at {}, {}, {}",
                        i + 1,
                        p.voxels,
                        p.min.x,
                        p.min.y,
                        p.min.z
                    );
                    ui.checkbox(delete, text)
                        .on_hover_text("Ticked: deleted by Delete Marked; unticked: kept");
                }
            });
        if self.found.len() > LISTED {
            ui.weak(format!(
                "{} more pieces not listed or drawn (marked as above)",
                self.found.len() - LISTED
            ));
        }
        let marked = self.marks.iter().filter(|&&m| m).count();
        if ui
            .add_enabled(
                !busy && marked > 0,
                egui::Button::new(format!("Delete Marked ({marked})")),
            )
            .on_hover_text("Turn the marked pieces to air as one undo step")
            .clicked()
        {
            out.push(Action::DeleteFloating(
                self.found.clone(),
                self.marks.clone(),
            ));
        }
    }
}
