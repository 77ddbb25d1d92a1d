//! One frame's layout: menu and status bars, the docked panels, the windows and the viewport with
//! the active tool and the overlays.

use eframe::egui;

use super::editor_app::{EditorApp, FIRST_HINT};
use crate::app::panel::{Placement, View};
use crate::app::status::{self, StatusLine};
use crate::viewport::overlay::Overlay;

impl EditorApp {
    /// Lay out the bars, panels, viewport and windows inside `ui`.
    pub fn layout(&mut self, ui: &mut egui::Ui) {
        let modifiers = ui.input(|i| i.modifiers);
        let mut out = Vec::new();
        {
            let view = view!(self, modifiers);
            let (panels, viewport) = (&self.panels, &mut self.viewport);
            egui::Panel::top("menu").show(ui, |ui| {
                crate::app::menu::show(ui, &view, panels, viewport, &mut out);
            });
            let active = self
                .panels
                .entries()
                .iter()
                .find(|e| e.panel.name() == self.active_tool)
                .and_then(|e| e.panel.status(&view));
            let always = self
                .panels
                .entries()
                .iter()
                .filter_map(|e| e.panel.status_always(&view));
            let segments: Vec<String> = active.into_iter().chain(always).collect();
            let tool = (!segments.is_empty()).then(|| segments.join("  |  "));
            let line = StatusLine {
                message: &self.message,
                tool,
            };
            egui::Panel::bottom("status").show(ui, |ui| status::show(ui, &view, &line));
        }
        self.apply_all(out);
        self.docked(ui, Placement::Left);
        self.docked(ui, Placement::Right);
        egui::CentralPanel::no_frame().show(ui, |ui| self.central(ui, modifiers));
        self.windows(ui.ctx(), modifiers);
    }

    pub(super) fn docked(&mut self, ui: &mut egui::Ui, placement: Placement) {
        let any = self
            .panels
            .entries()
            .iter()
            .any(|e| e.open && e.panel.placement() == placement);
        if !any {
            return;
        }
        let modifiers = ui.input(|i| i.modifiers);
        let mut out = Vec::new();
        {
            let view = view!(self, modifiers);
            let entries = self.panels.entries_mut();
            let side = match placement {
                Placement::Left => egui::Panel::left("left-panels").default_size(210.0),
                _ => egui::Panel::right("right-panels").default_size(260.0),
            };
            let shown = side.resizable(true).show(ui, |ui| {
                egui::ScrollArea::vertical()
                    .id_salt(("panels", placement == Placement::Left))
                    .show(ui, |ui| {
                        for e in entries.iter_mut() {
                            if !e.open || e.panel.placement() != placement {
                                continue;
                            }
                            if placement == Placement::Left {
                                e.panel.ui(ui, &view, &mut out);
                            } else {
                                egui::CollapsingHeader::new(e.panel.name())
                                    .default_open(true)
                                    .show(ui, |ui| e.panel.ui(ui, &view, &mut out));
                            }
                        }
                    });
            });
            if placement == Placement::Left {
                self.left_width = shown.response.rect.width();
            }
        }
        self.apply_all(out);
    }

    /// Width of the left column (the Tools panel) in the last frame, points.
    pub fn left_panel_width(&self) -> f32 {
        self.left_width
    }

    /// What the panels draw over the terrain this frame.
    pub fn overlays(&self) -> Vec<Overlay> {
        let view = view!(self, egui::Modifiers::NONE);
        let mut overlays = Vec::new();
        for e in self.panels.entries() {
            e.panel.overlays(&view, &mut overlays);
        }
        overlays
    }

    pub(super) fn windows(&mut self, ctx: &egui::Context, modifiers: egui::Modifiers) {
        let mut out = Vec::new();
        {
            let view = view!(self, modifiers);
            for e in self.panels.entries_mut() {
                e.panel.tick(&view, &mut out);
                if !e.open || e.panel.placement() != Placement::Window {
                    continue;
                }
                let panel = &mut e.panel;
                egui::Window::new(panel.name())
                    .open(&mut e.open)
                    .collapsible(false)
                    .show(ctx, |ui| panel.ui(ui, &view, &mut out));
            }
        }
        self.apply_all(out);
    }

    pub(super) fn central(&mut self, ui: &mut egui::Ui, modifiers: egui::Modifiers) {
        let Some(doc) = self.doc.as_mut() else {
            let text = match self.jobs.modal() {
                Some(job) => format!("{}…", job.label()),
                None => "No world open. File > New World… or File > Open…".to_owned(),
            };
            ui.centered_and_justified(|ui| ui.label(text));
            return;
        };
        let frame = self.viewport.begin(ui, doc);
        let mut out = Vec::new();
        let cursor = {
            let view = view!(self, modifiers);
            let active = self.active_tool;
            let mut cursor = None;
            for e in self.panels.entries_mut() {
                if e.panel.name() == active {
                    cursor = e.panel.viewport(&frame.input, &view, &mut out);
                }
            }
            cursor
        };
        self.apply_all(out);
        let overlays = self.overlays();
        if let Some(doc) = self.doc.as_ref() {
            self.viewport.end(ui, doc, frame, cursor, overlays);
            if !self.prefs.hint_seen {
                first_hint(ui, frame.rect());
            }
            if doc.stroking() {
                ui.ctx().request_repaint();
            }
        }
    }
}

/// Draw [`FIRST_HINT`] on a dark band at the top of the viewport.
fn first_hint(ui: &egui::Ui, rect: egui::Rect) {
    let font = egui::FontId::proportional(15.0);
    let color = egui::Color32::from_rgb(235, 238, 242);
    let galley = ui
        .painter()
        .layout_no_wrap(FIRST_HINT.to_owned(), font, color);
    let at = rect.center_top() + egui::vec2(-galley.size().x / 2.0, 14.0);
    let band = egui::Rect::from_min_size(at, galley.size()).expand2(egui::vec2(12.0, 6.0));
    ui.painter()
        .rect_filled(band, 6.0, egui::Color32::from_black_alpha(150));
    ui.painter().galley(at, galley, color);
}
