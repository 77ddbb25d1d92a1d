//! The editor application: owns the document, viewport, tools, preferences and background jobs, and
//! lays out one frame. `EditorApp::frame` takes an [`egui::Context`] only, so UI tests drive exactly
//! what a user sees (egui_kittest) without a window or GL.
//!
//! ```text
//!   frame(ctx):  poll jobs ─> shortcuts ─> menu bar ─> status bar ─> tools panel ─> viewport
//!                ─> dialogs (generator, progress, unsaved changes, recovery, recent, errors)
//!                ─> title, autosave, close request
//! ```

use std::path::PathBuf;
use std::time::{Duration, Instant};

use eframe::egui::{self, Key, KeyboardShortcut, Modifiers};

use strata_engine::gen::{GeneratorSettings, Preset};

use crate::autosave::{self, RecoveryInfo};
use crate::document::Document;
use crate::jobs::{Job, JobOutput};
use crate::panels;
use crate::prefs::{config_dir, Prefs};
use crate::tools::ToolState;
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

/// The default world: hills, 256 × 96 × 256, seed 1.
pub fn default_world() -> GeneratorSettings {
    GeneratorSettings {
        preset: Preset::Hills,
        size: [256, 96, 256],
        seed: 1,
    }
}

/// Something that would discard unsaved changes, held while the user answers the prompt.
#[derive(Debug, Clone, PartialEq)]
pub enum Guarded {
    /// Show the generator dialog.
    New,
    /// Open a file (ask for one when `None`).
    Open(Option<PathBuf>),
    /// Close the editor.
    Quit,
}

/// Dialog state.
#[derive(Default)]
pub struct Dialogs {
    /// The New World form, when open.
    pub generator: Option<panels::dialogs::GeneratorForm>,
    /// An action waiting for the unsaved-changes answer.
    pub unsaved: Option<Guarded>,
    /// An autosave to offer for recovery.
    pub recover: Option<RecoveryInfo>,
    /// The recent-files window is open.
    pub recent: bool,
    /// The shortcuts window is open.
    pub shortcuts: bool,
    /// An error to show.
    pub error: Option<String>,
}

/// The editor.
pub struct EditorApp {
    /// The open document, once one is loaded.
    pub doc: Option<Document>,
    /// The 3D view.
    pub viewport: Viewport,
    /// Tool settings and the stroke in progress.
    pub tools: ToolState,
    /// Preferences and recent files.
    pub prefs: Prefs,
    /// Open dialogs.
    pub dialogs: Dialogs,
    /// The last status message.
    pub message: String,
    pub(crate) config: Option<PathBuf>,
    pub(crate) job: Option<Job>,
    autosave_job: Option<Job>,
    last_autosave: Instant,
    autosaved_revision: u64,
    title: String,
    quit_confirmed: bool,
    /// What to do once the save started from the unsaved-changes prompt finishes.
    pub(crate) after_save: Option<Guarded>,
    frame_ms: f32,
    pub(crate) thumbnails: panels::recent::Thumbnails,
    pub(crate) memory: panels::status::MemoryGauge,
}

impl EditorApp {
    /// An editor starting with `start`. `gl` tells whether a GL context exists for the viewport;
    /// `config` is the preferences directory (`None`: defaults, nothing saved).
    pub fn new(start: Start, gl: bool, config: Option<PathBuf>) -> Self {
        let prefs = Prefs::load(config.as_deref());
        let mut viewport = Viewport::new(gl);
        viewport.meshes.lod_enabled = prefs.lod;
        viewport.fly_speed = prefs.fly_speed;
        let mut tools = ToolState::default();
        tools.brush.size = prefs.brush_size;
        tools.brush.strength = prefs.brush_strength;
        let recover = config
            .as_deref()
            .and_then(|c| autosave::find(&autosave::folder(c)));
        let mut app = Self {
            doc: None,
            viewport,
            tools,
            prefs,
            dialogs: Dialogs {
                recover,
                ..Default::default()
            },
            message: String::new(),
            config,
            job: None,
            autosave_job: None,
            last_autosave: Instant::now(),
            autosaved_revision: 0,
            title: String::new(),
            quit_confirmed: false,
            after_save: None,
            frame_ms: 0.0,
            thumbnails: panels::recent::Thumbnails::default(),
            memory: panels::status::MemoryGauge::default(),
        };
        match start {
            Start::DefaultWorld => app.generate(default_world()),
            Start::Generate(settings) => app.generate(settings),
            Start::Open(path) => app.open_path(path),
        }
        app
    }

    /// An editor for the desktop: preferences from the user's config directory.
    pub fn desktop(start: Start, gl: bool) -> Self {
        Self::new(start, gl, config_dir())
    }

    /// True while a foreground job (generate, open, save, import, export) runs.
    pub fn busy(&self) -> bool {
        self.job.is_some()
    }

    /// Block until the foreground job finishes and apply its result (tests, shutdown).
    pub fn wait_for_job(&mut self) {
        if let Some(job) = self.job.take() {
            let result = job.wait();
            self.finish_job(result);
        }
    }

    /// Install a freshly loaded or generated project.
    pub(crate) fn set_document(&mut self, doc: Document) {
        if let Some(old) = self.doc.as_mut() {
            self.tools.finish(old);
        }
        self.viewport.reset(&doc);
        self.autosaved_revision = doc.revision();
        self.doc = Some(doc);
    }

    fn finish_job(&mut self, result: crate::AppResult<JobOutput>) {
        match result {
            Ok(JobOutput::Opened { project, path }) => {
                if let Some(p) = &path {
                    self.prefs.add_recent(p);
                    self.save_prefs();
                }
                self.message = match &path {
                    Some(p) => format!("Opened {}", p.display()),
                    None => format!("Created {}", project.header.name),
                };
                self.set_document(Document::new(*project, path));
            }
            Ok(JobOutput::Saved { path, revision }) => {
                if let Some(doc) = self.doc.as_mut() {
                    doc.mark_saved(path.clone(), revision);
                }
                self.prefs.add_recent(&path);
                self.save_prefs();
                self.discard_autosave();
                self.message = format!("Saved {}", path.display());
                if let Some(next) = self.after_save.take() {
                    self.run_guarded(next);
                }
            }
            Ok(JobOutput::Autosaved { revision }) => self.autosaved_revision = revision,
            Ok(JobOutput::Wrote { message }) => self.message = message,
            Err(crate::AppError::Engine(strata_engine::Error::Cancelled)) => {
                self.after_save = None;
                self.message = "Cancelled".into();
            }
            Err(e) => {
                self.after_save = None;
                self.dialogs.error = Some(e.to_string());
            }
        }
    }

    fn poll_jobs(&mut self) {
        if let Some(result) = self.job.as_ref().and_then(Job::poll) {
            self.job = None;
            self.finish_job(result);
        }
        if let Some(result) = self.autosave_job.as_ref().and_then(Job::poll) {
            self.autosave_job = None;
            match result {
                Ok(JobOutput::Autosaved { revision }) => self.autosaved_revision = revision,
                Ok(_) => {}
                Err(e) => self.message = format!("Autosave failed: {e}"),
            }
        }
    }

    pub(crate) fn save_prefs(&mut self) {
        self.prefs.brush_size = self.tools.brush.size;
        self.prefs.brush_strength = self.tools.brush.strength;
        self.prefs.lod = self.viewport.meshes.lod_enabled;
        if let Some(dir) = &self.config {
            if let Err(e) = self.prefs.save(dir) {
                self.message = format!("Could not save preferences: {e}");
            }
        }
    }

    pub(crate) fn discard_autosave(&mut self) {
        if let Some(dir) = &self.config {
            if let Err(e) = autosave::discard(&autosave::folder(dir)) {
                self.message = format!("Could not remove the autosave: {e}");
            }
        }
    }

    fn autosave_tick(&mut self) {
        let minutes = self.prefs.autosave_minutes;
        let (Some(doc), Some(dir)) = (self.doc.as_ref(), self.config.as_ref()) else {
            return;
        };
        if minutes == 0
            || self.autosave_job.is_some()
            || self.job.is_some()
            || self.tools.stroking()
            || !doc.is_modified()
            || doc.revision() == self.autosaved_revision
            || self.last_autosave.elapsed() < Duration::from_secs(u64::from(minutes) * 60)
        {
            return;
        }
        self.last_autosave = Instant::now();
        let mut project = doc.project.clone();
        project.header.camera = self.viewport.camera.to_saved();
        self.autosave_job = Some(autosave::spawn(
            autosave::folder(dir),
            project,
            doc.path.clone(),
            doc.revision(),
        ));
    }

    /// Run `action` now if nothing unsaved would be lost, else ask first.
    pub fn guard(&mut self, action: Guarded) {
        if self.doc.as_ref().is_some_and(Document::is_modified) {
            self.dialogs.unsaved = Some(action);
        } else {
            self.run_guarded(action);
        }
    }

    pub(crate) fn run_guarded(&mut self, action: Guarded) {
        match action {
            Guarded::New => {
                self.dialogs.generator = Some(panels::dialogs::GeneratorForm::default());
            }
            Guarded::Open(Some(path)) => self.open_path(path),
            Guarded::Open(None) => {
                if let Some(path) = crate::actions::pick_project_to_open() {
                    self.open_path(path);
                }
            }
            Guarded::Quit => {
                self.quit_confirmed = true;
            }
        }
    }

    fn shortcuts(&mut self, ctx: &egui::Context) {
        if ctx.egui_wants_keyboard_input() {
            return;
        }
        let cmd = |k| KeyboardShortcut::new(Modifiers::COMMAND, k);
        let cmd_shift = |k| KeyboardShortcut::new(Modifiers::COMMAND | Modifiers::SHIFT, k);
        let (undo, redo, save, save_as, open, new) = ctx.input_mut(|i| {
            (
                i.consume_shortcut(&cmd(Key::Z)),
                i.consume_shortcut(&cmd_shift(Key::Z)) || i.consume_shortcut(&cmd(Key::Y)),
                i.consume_shortcut(&cmd(Key::S)),
                i.consume_shortcut(&cmd_shift(Key::S)),
                i.consume_shortcut(&cmd(Key::O)),
                i.consume_shortcut(&cmd(Key::N)),
            )
        });
        // Ctrl+Shift+Z is consumed before Ctrl+Z would match it (consume_shortcut ignores extra
        // Shift), so check redo first.
        if redo {
            self.redo();
        } else if undo {
            self.undo();
        }
        if save_as {
            self.save_as();
        } else if save {
            self.save();
        }
        if open {
            self.guard(Guarded::Open(None));
        }
        if new {
            self.guard(Guarded::New);
        }
        panels::tools::tool_shortcuts(self, ctx);
    }

    /// Undo the newest step.
    pub fn undo(&mut self) {
        let Some(doc) = self.doc.as_mut() else {
            return;
        };
        self.tools.finish(doc);
        match doc.undo() {
            Ok(Some(name)) => self.message = format!("Undid {name}"),
            Ok(None) => self.message = "Nothing to undo".into(),
            Err(e) => self.dialogs.error = Some(e.to_string()),
        }
    }

    /// Redo the most recently undone step.
    pub fn redo(&mut self) {
        let Some(doc) = self.doc.as_mut() else {
            return;
        };
        self.tools.finish(doc);
        match doc.redo() {
            Ok(Some(name)) => self.message = format!("Redid {name}"),
            Ok(None) => self.message = "Nothing to redo".into(),
            Err(e) => self.dialogs.error = Some(e.to_string()),
        }
    }

    /// Run one frame inside `ui` (the whole window): jobs, shortcuts, panels, dialogs, title,
    /// autosave and the close request.
    pub fn run(&mut self, ui: &mut egui::Ui) {
        let started = Instant::now();
        let ctx = ui.ctx().clone();
        self.poll_jobs();
        self.shortcuts(&ctx);
        self.layout(ui);
        panels::dialogs::show(self, &ctx);
        self.update_title(&ctx);
        self.autosave_tick();
        self.handle_close(&ctx);
        if self.job.is_some() || self.autosave_job.is_some() {
            ctx.request_repaint_after(Duration::from_millis(50));
        }
        self.frame_ms = 0.9 * self.frame_ms + 0.1 * started.elapsed().as_secs_f32() * 1000.0;
    }

    /// Lay out the panels inside `ui`.
    pub fn layout(&mut self, ui: &mut egui::Ui) {
        egui::Panel::top("menu").show(ui, |ui| panels::menu::show(self, ui));
        let frame_ms = self.frame_ms;
        egui::Panel::bottom("status").show(ui, |ui| panels::status::show(self, ui, frame_ms));
        egui::Panel::left("tools")
            .resizable(false)
            .default_size(210.0)
            .show(ui, |ui| panels::tools::show(self, ui));
        egui::CentralPanel::no_frame().show(ui, |ui| self.central(ui));
    }

    fn central(&mut self, ui: &mut egui::Ui) {
        let Some(doc) = self.doc.as_mut() else {
            ui.centered_and_justified(|ui| {
                ui.label(match &self.job {
                    Some(job) => format!("{}…", job.label()),
                    None => "No world open. File > New World… or File > Open…".to_owned(),
                });
            });
            return;
        };
        let modifiers = ui.input(|i| i.modifiers);
        let tools = &self.tools;
        let input = self
            .viewport
            .show(ui, doc, |hit| tools.cursor(hit.point, modifiers));
        if let Some(message) = self.tools.handle(&input, modifiers, doc) {
            self.message = message;
        }
        if self.tools.stroking() {
            ui.ctx().request_repaint();
        }
    }

    fn update_title(&mut self, ctx: &egui::Context) {
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

    /// The window title (file name, with ● when modified).
    pub fn title(&self) -> &str {
        &self.title
    }

    fn handle_close(&mut self, ctx: &egui::Context) {
        let requested = ctx.input(|i| i.viewport().close_requested());
        if requested && !self.quit_confirmed {
            ctx.send_viewport_cmd(egui::ViewportCommand::CancelClose);
            self.guard(Guarded::Quit);
        }
        if self.quit_confirmed {
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
