//! The editor: [`EditorApp`] owns the document, the viewport, the panels, preferences, keymap and
//! jobs, and runs one frame at a time (see the module above for the frame's order). Applying
//! actions, laying out a frame and persisting state add their methods from the sibling files.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use eframe::egui;
use strata_engine::gen::{GeneratorSettings, WorldSettings};

use super::panel::FrameStats;
use super::panel_registry::Panels;
use crate::app::action::{Action, Guarded};
use crate::app::dialogs::{self, Dialogs};
use crate::app::frame_clock::FrameClock;
use crate::app::jobs::{Inbox, JobRunner};
use crate::app::keymap::Keymap;
use crate::app::prefs::{config_dir, Prefs};
use crate::document::region_job::RegionWritten;
use crate::document::{Document, EditConsumer};
use crate::files::autosave;
use crate::generate::default_world;
use crate::viewport::Viewport;

/// How the editor starts.
#[derive(Debug, Clone, PartialEq)]
pub enum Start {
    /// Generate the built-in default world (`hills`).
    DefaultWorld,
    /// Generate a world with these settings.
    Generate(GeneratorSettings),
    /// Open a project file.
    Open(PathBuf),
}

/// The one-line hint shown in the viewport until the first stroke.
pub const FIRST_HINT: &str = "Left-drag to sculpt · Right-drag to orbit · F to focus";

/// Owner name of the autosave job.
pub(super) const AUTOSAVE: &str = "Autosave";

/// How often the window redraws while a job runs and nothing else asks for frames: often enough
/// for a live progress bar, rarely enough that drawing (on software GL, a frame of the whole
/// window costs tens of milliseconds) leaves the job its CPU.
pub const PROGRESS_FRAME: Duration = Duration::from_millis(200);

/// The editor.
pub struct EditorApp {
    /// The open document, once one is loaded.
    pub doc: Option<Document>,
    /// The 3D view.
    pub viewport: Viewport,
    /// Every panel and window.
    pub panels: Panels,
    /// Preferences and recent files.
    pub prefs: Prefs,
    /// The shortcuts.
    pub keymap: Keymap,
    /// Running jobs.
    pub jobs: JobRunner,
    /// Where background region writes (large region edits, their undo and redo) deliver.
    pub(super) region_writes: Inbox<RegionWritten>,
    /// Region writes touching more voxels than this run as background jobs
    /// ([`crate::document::region_job::SYNC_VOXELS`]; tests lower it).
    pub sync_voxels: u64,
    /// Modal prompts.
    pub dialogs: Dialogs,
    /// The last status message.
    pub message: String,
    /// The panel whose tool receives viewport input.
    pub active_tool: &'static str,
    /// Level of detail forced for this session from the command line (`--lod on|off`): shown, but
    /// not saved as the preference unless the user changes it.
    pub lod_override: Option<bool>,
    /// Draw no brush cursor (screenshots and camera tours: the pointer's place is no part of the
    /// picture).
    pub hide_cursor: bool,
    /// The window size was given on the command line (`--window-size`): it lasts this run and is
    /// not remembered as the size to open at next time.
    pub window_size_override: bool,
    /// Viewport quality forced for this session from the command line (`--viewport-quality`):
    /// used instead of the preference, and not saved.
    pub quality_override: Option<crate::app::viewport_quality::ViewportQuality>,
    /// The window's GL renderer draws in software (llvmpipe and the like), as found when it opened.
    pub(super) software_gl: bool,
    pub(super) consumers: Vec<Box<dyn EditConsumer>>,
    pub(super) config: Option<PathBuf>,
    pub(super) last_autosave: Instant,
    pub(super) autosaved_revision: u64,
    pub(super) title: String,
    pub(super) quit_confirmed: bool,
    /// What to do once the save started from the unsaved-changes prompt finishes.
    pub(super) after_save: Option<Guarded>,
    /// The revision of the open document whose unsaved changes the user last agreed to lose (or
    /// saved) for a guarded action.
    pub(super) discard_answered: Option<u64>,
    /// Said in the status bar once the start-up job is done (software GL and anti-aliasing).
    pub(super) startup_note: Option<String>,
    pub(super) frame_clock: FrameClock,
    pub(super) capturing_keys: bool,
    pub(super) left_width: f32,
    pub(super) right_width: f32,
}

impl EditorApp {
    /// An editor starting with `start`. `gl` tells whether a GL context exists for the viewport;
    /// `config` is the preferences directory (`None`: defaults, nothing saved).
    pub fn new(start: Start, gl: bool, config: Option<PathBuf>) -> Self {
        let prefs = Prefs::load(config.as_deref());
        let mut viewport = Viewport::new(gl);
        viewport.meshes.lod_enabled = prefs.lod;
        viewport.meshes.lod_distance = prefs.lod_distance;
        viewport.fly_speed = prefs.fly_speed;
        viewport.orbit_degrees_per_px = prefs.orbit_degrees_per_px;
        viewport.exposure = prefs.exposure;
        let mut panels = Panels::default();
        if let Some(lighting) = panels.get_mut::<crate::lighting::lighting_panel::LightingPanel>() {
            lighting.exposure = prefs.exposure;
        }
        if let Some(tools) = panels.get_mut::<crate::brush::brush_panel::ToolsPanel>() {
            tools.state.brush.size = prefs.brush_size;
            tools.state.brush.strength = prefs.brush_strength;
        }
        if let Some(open) = &prefs.open_panels {
            panels.restore_open(open);
        }
        let mut keymap = Keymap::default();
        let skipped = keymap.apply_overrides(&prefs.key_bindings);
        let recover = config
            .as_deref()
            .and_then(|c| autosave::find(&autosave::folder(c)));
        let mut app = Self {
            doc: None,
            viewport,
            panels,
            prefs,
            keymap,
            jobs: JobRunner::default(),
            region_writes: Inbox::default(),
            sync_voxels: crate::document::region_job::SYNC_VOXELS,
            dialogs: Dialogs {
                recover,
                ..Default::default()
            },
            message: String::new(),
            active_tool: crate::brush::brush_panel::NAME,
            lod_override: None,
            hide_cursor: false,
            window_size_override: false,
            quality_override: None,
            software_gl: false,
            consumers: Vec::new(),
            config,
            last_autosave: Instant::now(),
            autosaved_revision: 0,
            title: String::new(),
            quit_confirmed: false,
            after_save: None,
            discard_answered: None,
            startup_note: None,
            frame_clock: FrameClock::default(),
            capturing_keys: false,
            left_width: 0.0,
            right_width: 0.0,
        };
        if !skipped.is_empty() {
            app.message = format!("Ignored key bindings: {}", skipped.join(", "));
        }
        let first = match start {
            Start::DefaultWorld => Action::Generate(WorldSettings::from_preset(&default_world())),
            Start::Generate(settings) => Action::Generate(WorldSettings::from_preset(&settings)),
            Start::Open(path) => Action::Proceed(Guarded::Open(Some(path))),
        };
        app.apply(first);
        app
    }

    /// An editor for the desktop: preferences from the user's config directory.
    pub fn desktop(start: Start, gl: bool) -> Self {
        Self::new(start, gl, config_dir())
    }

    /// True while a modal job (generate, open, save, import, export) runs.
    pub fn busy(&self) -> bool {
        self.jobs.busy()
    }

    /// Block until the modal job finishes and apply its result (tests, shutdown).
    pub fn wait_for_job(&mut self) {
        if let Some(finished) = self.jobs.wait_modal() {
            self.finish_job(finished);
        }
    }

    /// Block until the background jobs of the panel `owner` finish and apply their results (tests).
    pub fn wait_for_panel_jobs(&mut self, owner: &'static str) {
        for finished in self.jobs.wait_owned(Some(owner)) {
            self.finish_job(finished);
        }
    }

    /// The Tools panel (brush tool settings).
    pub fn tools(&self) -> &crate::brush::brush_panel::ToolsPanel {
        self.panels
            .get::<crate::brush::brush_panel::ToolsPanel>()
            .unwrap_or_else(|| unreachable!("the registry holds the Tools panel"))
    }

    /// The Tools panel, mutably.
    pub fn tools_mut(&mut self) -> &mut crate::brush::brush_panel::ToolsPanel {
        self.panels
            .get_mut::<crate::brush::brush_panel::ToolsPanel>()
            .unwrap_or_else(|| unreachable!("the registry holds the Tools panel"))
    }

    /// The frame interval clock the status bar reads.
    pub fn frame_clock(&self) -> &FrameClock {
        &self.frame_clock
    }

    pub(super) fn frame_stats(&self) -> FrameStats {
        FrameStats {
            frame_ms: self.frame_clock.frame_ms(),
            stale_chunks: self.viewport.stale_chunks(),
            triangles: self.viewport.drawn_triangles(),
            fast_viewport: self.viewport.fast(),
        }
    }

    /// Register one more consumer of the document's edits.
    pub fn add_consumer(&mut self, consumer: Box<dyn EditConsumer>) {
        self.consumers.push(consumer);
    }

    /// Every consumer of the edit notification, in the order they are told: physics (inside the
    /// document, at once), the viewport's meshes, then every panel, then extra consumers.
    pub fn consumers(&self) -> Vec<String> {
        let mut names = vec![
            "physics (Document: broadphase and collision shapes)".to_owned(),
            "baked light (Document: marked stale where the edit reaches)".to_owned(),
            "viewport meshes".to_owned(),
        ];
        names.extend(
            self.panels
                .entries()
                .iter()
                .map(|e| format!("panel {}", e.panel.name())),
        );
        names.extend(self.consumers.iter().map(|c| c.name().to_owned()));
        names
    }

    pub(super) fn set_document(&mut self, doc: Document) {
        self.autosaved_revision = doc.revision();
        self.discard_answered = None;
        self.doc = Some(doc);
        if let Some(doc) = self.doc.as_ref() {
            self.viewport.on_document(doc);
        }
        for e in self.panels.entries_mut() {
            e.panel.on_document(self.doc.as_ref());
        }
        for c in &mut self.consumers {
            c.on_document(self.doc.as_ref());
        }
    }

    /// Hand every box the document changed since the last call to every consumer.
    pub(super) fn publish(&mut self) {
        let Some(doc) = self.doc.as_mut() else {
            return;
        };
        self.viewport.sync_materials(doc);
        let boxes = doc.take_published();
        for region in doc.take_relit() {
            self.viewport.relight(region);
        }
        let doc = &*doc;
        for b in boxes {
            self.viewport.on_edit(doc.grid(), b);
            for e in self.panels.entries_mut() {
                e.panel.on_edit(doc, b);
            }
            for c in &mut self.consumers {
                c.on_edit(doc, b);
            }
        }
    }

    /// Lend the document's physics world to every panel (see [`Panel::with_physics`]).
    ///
    /// [`Panel::with_physics`]: crate::app::panel::Panel::with_physics
    fn physics_frame(&mut self) {
        let mut out = Vec::new();
        if let Some(doc) = self.doc.as_mut() {
            let panels = &mut self.panels;
            doc.with_physics(|world, doc| {
                for e in panels.entries_mut() {
                    e.panel.with_physics(world, doc, &mut out);
                }
            });
        }
        self.apply_all(out);
    }

    /// Run one frame inside `ui` (the whole window).
    pub fn run(&mut self, ui: &mut egui::Ui) {
        let ctx = ui.ctx().clone();
        let after_continuous =
            ctx.requested_repaint_last_pass() || ctx.input(|i| i.pointer.any_down());
        self.frame_clock
            .frame_started(Instant::now(), after_continuous);
        self.poll_jobs();
        // Shortcuts run after the layout: a field that takes the keyboard in this frame (a click
        // on a number field, then digits, all within one slow frame) keeps its keys.
        // The same for the Preferences recording a key: the frame it records one still keeps it.
        let typing = ctx.egui_wants_keyboard_input() || self.capturing_keys;
        self.layout(ui);
        let mut out = Vec::new();
        if !self.capturing_keys && !typing {
            for command in self.keymap.pressed(&ctx, self.active_tool) {
                self.command(command, &mut out);
            }
        }
        self.apply_all(out);
        self.physics_frame();
        let mut out = Vec::new();
        let name = self
            .doc
            .as_ref()
            .map_or_else(String::new, Document::display_name);
        dialogs::show(&ctx, &mut self.dialogs, &self.jobs, &name, &mut out);
        self.apply_all(out);
        if !self.busy() {
            if let Some(note) = self.startup_note.take() {
                self.message = if self.message.is_empty() {
                    note
                } else {
                    format!("{}  ·  {note}", self.message)
                };
            }
        }
        self.update_title(&ctx);
        if let Some(next) = self.autosave_tick() {
            ctx.request_repaint_after(next);
        }
        self.handle_close(&ctx);
        if self.jobs.any() {
            ctx.request_repaint_after(PROGRESS_FRAME);
        }
    }

    pub(super) fn update_title(&mut self, ctx: &egui::Context) {
        let title = match &self.doc {
            Some(doc) => format!(
                "{}{} — Strata",
                if doc.is_modified() { "● " } else { "" },
                doc.display_name()
            ),
            None => "Strata".to_owned(),
        };
        if title != self.title {
            ctx.send_viewport_cmd(egui::ViewportCommand::Title(title.clone()));
            self.title = title;
        }
    }

    /// Remember the window's size (when valid) and maximised state for the next launch.
    pub(super) fn remember_window(&mut self, size: Option<[f32; 2]>, maximized: Option<bool>) {
        if let Some(size) = size.filter(|s| crate::app::prefs::valid_window_size(*s)) {
            self.prefs.window_size = Some(size);
        }
        self.prefs.window_maximized = maximized.unwrap_or(false);
    }

    /// The window title (file name, with ● when modified).
    pub fn title(&self) -> &str {
        &self.title
    }

    pub(super) fn handle_close(&mut self, ctx: &egui::Context) {
        let requested = ctx.input(|i| i.viewport().close_requested());
        if requested && !self.quit_confirmed {
            ctx.send_viewport_cmd(egui::ViewportCommand::CancelClose);
            self.guard(Guarded::Quit);
        }
        if self.quit_confirmed {
            if !self.window_size_override {
                let (rect, maximized) =
                    ctx.input(|i| (i.viewport().inner_rect, i.viewport().maximized));
                self.remember_window(rect.map(|r| [r.width(), r.height()]), maximized);
            }
            self.save_prefs();
            self.discard_autosave();
            ctx.send_viewport_cmd(egui::ViewportCommand::Close);
        }
    }
}

impl eframe::App for EditorApp {
    fn ui(&mut self, ui: &mut egui::Ui, _frame: &mut eframe::Frame) {
        self.run(ui);
    }
}
