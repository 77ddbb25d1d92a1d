//! One frame's layout: menu and status bars, the docked panels, the windows and the viewport with
//! the active tool and the overlays.
//!
//! ```text
//!   +--------------------------------------------------------------+
//!   | menu                                                         |
//!   +-------+----------------------------------+-------------------+
//!   | Tools |                                  | [tab][tab][tab]   |
//!   | (left |            viewport              | front tab, its    |
//!   | column|                                  | own scroll area   |
//!   |  own  |                                  +-------------------+
//!   | scroll|                                  | History (fixed)   |
//!   +-------+----------------------------------+-------------------+
//!   | status                                                       |
//!   +--------------------------------------------------------------+
//! ```
//! Column widths are the user's (drag an edge), never the contents', so the viewport stays put
//! when a tool or tab with wider options comes to the front.

use eframe::egui;

use super::editor_app::{EditorApp, FIRST_HINT};
use crate::app::panel::{Placement, View};
use crate::app::status::{self, StatusLine};
use crate::viewport::overlay::Overlay;

/// The left column's width until the user drags its edge, points: wide enough for every tool's
/// options.
pub const LEFT_WIDTH: f32 = 230.0;
/// The right column's width until the user drags its edge, points.
pub const RIGHT_WIDTH: f32 = 340.0;
/// Height of the History section at the bottom of the right column, points.
const FOOTER_HEIGHT: f32 = 210.0;

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
        self.left_column(ui);
        self.right_column(ui);
        egui::CentralPanel::no_frame().show(ui, |ui| self.central(ui, modifiers));
        self.windows(ui.ctx(), modifiers);
    }

    /// The left column: the Tools panel. Its width is the user's (drag the edge), never its
    /// contents': options wider than the column scroll instead of moving the viewport.
    pub(super) fn left_column(&mut self, ui: &mut egui::Ui) {
        if !self
            .panels
            .entries()
            .iter()
            .any(|e| e.open && e.panel.placement() == Placement::Left)
        {
            return;
        }
        let modifiers = ui.input(|i| i.modifiers);
        let mut out = Vec::new();
        {
            let view = view!(self, modifiers);
            let entries = self.panels.entries_mut();
            let shown = egui::Panel::left("left-panels")
                .default_size(LEFT_WIDTH)
                .size_range(160.0..=520.0)
                .resizable(true)
                .show(ui, |ui| {
                    fixed_scroll("left-panels").show(ui, |ui| {
                        for e in entries.iter_mut() {
                            if e.open && e.panel.placement() == Placement::Left {
                                e.panel.ui(ui, &view, &mut out);
                            }
                        }
                    });
                });
            self.left_width = shown.response.rect.width();
        }
        self.apply_all(out);
    }

    /// The right column: a strip of tabs (one panel in front, each in a scroll area of its own)
    /// over the fixed-height History section. Nothing in it changes the column's width or moves
    /// another panel.
    pub(super) fn right_column(&mut self, ui: &mut egui::Ui) {
        let tabs = self.panels.tabs();
        let footer = self
            .panels
            .entries()
            .iter()
            .any(|e| e.open && e.panel.placement() == Placement::RightBottom);
        if tabs.is_empty() && !footer {
            return;
        }
        let front = self.panels.front_tab();
        let modifiers = ui.input(|i| i.modifiers);
        let mut out = Vec::new();
        let mut chosen = None;
        {
            let view = view!(self, modifiers);
            let entries = self.panels.entries_mut();
            let shown = egui::Panel::right("right-panels")
                .default_size(RIGHT_WIDTH)
                .size_range(200.0..=560.0)
                .resizable(true)
                .show(ui, |ui| {
                    if footer {
                        egui::Panel::bottom("right-footer")
                            .exact_size(FOOTER_HEIGHT)
                            .show(ui, |ui| {
                                for e in entries.iter_mut() {
                                    if e.open && e.panel.placement() == Placement::RightBottom {
                                        ui.strong(e.panel.name());
                                        e.panel.ui(ui, &view, &mut out);
                                    }
                                }
                            });
                    }
                    egui::CentralPanel::no_frame().show(ui, |ui| {
                        ui.horizontal_wrapped(|ui| {
                            for name in &tabs {
                                if ui.selectable_label(front == Some(*name), *name).clicked() {
                                    chosen = Some(*name);
                                }
                            }
                        });
                        ui.separator();
                        let Some(front) = chosen.or(front) else {
                            return;
                        };
                        fixed_scroll(("tab", front)).show(ui, |ui| {
                            if let Some(e) = entries.iter_mut().find(|e| e.panel.name() == front) {
                                e.panel.ui(ui, &view, &mut out);
                            }
                        });
                    });
                });
            self.right_width = shown.response.rect.width();
        }
        if let Some(name) = chosen {
            self.panels.select_tab(name);
        }
        self.apply_all(out);
    }

    /// Width of the left column (the Tools panel) in the last frame, points.
    pub fn left_panel_width(&self) -> f32 {
        self.left_width
    }

    /// Width of the right column (the tabs and History) in the last frame, points.
    pub fn right_panel_width(&self) -> f32 {
        self.right_width
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
        let cursor = cursor.filter(|_| !self.hide_cursor);
        let overlays = self.overlays();
        if let Some(lighting) = self.panels.get::<crate::lighting::LightingPanel>() {
            self.viewport.follow_bake(&lighting.settings);
        }
        if let Some(doc) = self.doc.as_ref() {
            let rect = frame.rect();
            self.viewport.end(ui, doc, frame, cursor, overlays);
            if !self.prefs.hint_seen {
                first_hint(ui, rect);
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

/// A scroll area that fills its column whatever its contents: wider or taller contents scroll
/// inside it and never resize the column.
fn fixed_scroll(id: impl std::hash::Hash + std::fmt::Debug) -> egui::ScrollArea {
    egui::ScrollArea::both()
        .id_salt(id)
        .auto_shrink([false, false])
}
