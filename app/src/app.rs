//! The editor application: owns the document, the viewport, the panels, preferences, keymap and
//! jobs, lays out one frame and applies what everything asks for. `EditorApp::run` takes an
//! [`egui::Ui`] only, so UI tests drive exactly what a user sees (egui_kittest) without a window or GL.
//!
//! ```text
//!   run(ui):  poll jobs ─> keymap commands ─> menu bar ─> status bar ─> left and right panels
//!             ─> viewport (begin: camera, picking ─> active tool ─> end: remesh, paint)
//!             ─> windows ─> prompts ─> title, autosave, close request
//!   each step pushes Actions; apply() carries them out in one match; publish() then hands every
//!   box the document changed to every consumer (viewport meshes, panels, extra consumers)
//! ```

use std::path::PathBuf;
use std::time::{Duration, Instant};

use eframe::egui;
use strata_engine::gen::{GeneratorSettings, Preset};

use crate::action::{Action, Guarded};
use crate::autosave::{self, RecoveryInfo};
use crate::dialogs::{self, Dialogs};
use crate::document::{Document, EditConsumer};
use crate::file_browser::FileBrowser;
use crate::files::{self, NativeAnswer, PathPurpose};
use crate::jobs::{Finished, JobOutput, JobRunner};
use crate::keymap::{Command, Keymap};
use crate::panels::FrameStats;
use crate::panels::{self, Panels, Placement, View};
use crate::prefs::{config_dir, Prefs};
use crate::status::{self, StatusLine};
use crate::viewport::camera::AxisView;
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

/// The read-only [`View`] of the editor, built from its fields so panels can be borrowed mutably
/// beside it.
macro_rules! view {
    ($app:ident, $modifiers:expr) => {
        View {
            doc: $app.doc.as_ref(),
            busy: $app.jobs.busy(),
            hover: $app.viewport.hover,
            active_tool: $app.active_tool,
            modifiers: $modifiers,
            prefs: &$app.prefs,
            keymap: &$app.keymap,
            config: $app.config.as_deref(),
            frame: $app.frame_stats(),
        }
    };
}

/// The one-line hint shown in the viewport until the first stroke.
pub const FIRST_HINT: &str = "Left-drag to sculpt · Right-drag to orbit · F to focus";

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

/// Owner name of the autosave job.
const AUTOSAVE: &str = "Autosave";

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
    /// Modal prompts.
    pub dialogs: Dialogs,
    /// The last status message.
    pub message: String,
    /// The panel whose tool receives viewport input.
    pub active_tool: &'static str,
    consumers: Vec<Box<dyn EditConsumer>>,
    config: Option<PathBuf>,
    last_autosave: Instant,
    autosaved_revision: u64,
    title: String,
    quit_confirmed: bool,
    /// What to do once the save started from the unsaved-changes prompt finishes.
    after_save: Option<Guarded>,
    frame_ms: f32,
    last_frame: Option<Instant>,
    capturing_keys: bool,
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
        let mut panels = Panels::default();
        if let Some(tools) = panels.get_mut::<panels::tools::ToolsPanel>() {
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
            dialogs: Dialogs {
                recover,
                ..Default::default()
            },
            message: String::new(),
            active_tool: panels::tools::NAME,
            consumers: Vec::new(),
            config,
            last_autosave: Instant::now(),
            autosaved_revision: 0,
            title: String::new(),
            quit_confirmed: false,
            after_save: None,
            frame_ms: 0.0,
            last_frame: None,
            capturing_keys: false,
        };
        if !skipped.is_empty() {
            app.message = format!("Ignored key bindings: {}", skipped.join(", "));
        }
        let first = match start {
            Start::DefaultWorld => Action::Generate(default_world()),
            Start::Generate(settings) => Action::Generate(settings),
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
    pub fn tools(&self) -> &panels::tools::ToolsPanel {
        self.panels
            .get::<panels::tools::ToolsPanel>()
            .unwrap_or_else(|| unreachable!("the registry holds the Tools panel"))
    }

    /// The Tools panel, mutably.
    pub fn tools_mut(&mut self) -> &mut panels::tools::ToolsPanel {
        self.panels
            .get_mut::<panels::tools::ToolsPanel>()
            .unwrap_or_else(|| unreachable!("the registry holds the Tools panel"))
    }

    fn frame_stats(&self) -> FrameStats {
        FrameStats {
            frame_ms: self.frame_ms,
            stale_chunks: self.viewport.stale_chunks(),
            triangles: self.viewport.drawn_triangles(),
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

    fn set_document(&mut self, doc: Document) {
        self.autosaved_revision = doc.revision();
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
    fn publish(&mut self) {
        let Some(doc) = self.doc.as_mut() else {
            return;
        };
        let boxes = doc.take_published();
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

    fn finish_job(&mut self, finished: Finished) {
        let mut out = Vec::new();
        match finished.result {
            Ok(JobOutput::Opened {
                project,
                path,
                save_path,
            }) => {
                if let Some(p) = &path {
                    self.prefs.add_recent(p);
                    self.save_prefs();
                }
                self.message = match &path {
                    Some(p) => format!("Opened {}", p.display()),
                    None => format!("Created {}", project.header.name),
                };
                let mut doc = Document::new(*project, path);
                if save_path.is_some() {
                    doc.set_path(save_path);
                }
                self.set_document(doc);
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
                    out.push(Action::Proceed(next));
                }
            }
            Ok(JobOutput::Autosaved { revision }) => self.autosaved_revision = revision,
            Ok(JobOutput::Wrote { message }) => self.message = message,
            Ok(JobOutput::Panel(output)) => {
                let owner = finished.owner;
                if let Some(e) = self
                    .panels
                    .entries_mut()
                    .iter_mut()
                    .find(|e| Some(e.panel.name()) == owner)
                {
                    e.panel.on_job(output, &mut out);
                }
            }
            Err(crate::AppError::Engine(strata_engine::Error::Cancelled)) => {
                self.after_save = None;
                self.message = "Cancelled".into();
            }
            Err(e) if finished.owner == Some(AUTOSAVE) => {
                self.message = format!("Autosave failed: {e}");
            }
            Err(e) => {
                self.after_save = None;
                self.dialogs.error = Some(e.to_string());
            }
        }
        let _ = finished.kind;
        self.apply_all(out);
    }

    fn poll_jobs(&mut self) {
        for finished in self.jobs.poll() {
            self.finish_job(finished);
        }
    }

    /// Take new preferences (from the Preferences window) and save them.
    fn set_prefs(&mut self, prefs: crate::prefs::Prefs) {
        let recent = std::mem::take(&mut self.prefs.recent);
        self.prefs = prefs;
        self.prefs.recent = recent;
        self.viewport.meshes.lod_enabled = self.prefs.lod;
        self.viewport.meshes.lod_distance = self.prefs.lod_distance;
        self.viewport.fly_speed = self.prefs.fly_speed;
        let mut keymap = Keymap::default();
        let skipped = keymap.apply_overrides(&self.prefs.key_bindings);
        self.keymap = keymap;
        // The autosave timer restarts with the new interval.
        self.last_autosave = Instant::now();
        self.save_prefs();
        self.message = if skipped.is_empty() {
            "Preferences saved".into()
        } else {
            format!("Ignored key bindings: {}", skipped.join(", "))
        };
    }

    /// Remember the brush, display and panel settings in the preferences file.
    pub fn save_prefs(&mut self) {
        let brush = self.tools().state.brush;
        self.prefs.brush_size = brush.size;
        self.prefs.brush_strength = brush.strength;
        self.prefs.lod = self.viewport.meshes.lod_enabled;
        self.prefs.lod_distance = self.viewport.meshes.lod_distance;
        self.prefs.fly_speed = self.viewport.fly_speed;
        self.prefs.open_panels = Some(self.panels.open_names());
        self.prefs.key_bindings = self.keymap.overrides();
        if let Some(dir) = &self.config {
            if let Err(e) = self.prefs.save(dir) {
                self.message = format!("Could not save preferences: {e}");
            }
        }
    }

    fn discard_autosave(&mut self) {
        if let Some(dir) = &self.config {
            if let Err(e) = autosave::discard(&autosave::folder(dir)) {
                self.message = format!("Could not remove the autosave: {e}");
            }
        }
    }

    /// Start an autosave when one is due; returns how long until the next check is needed.
    fn autosave_tick(&mut self) -> Option<Duration> {
        let minutes = self.prefs.autosave_minutes;
        let (Some(doc), Some(dir)) = (self.doc.as_mut(), self.config.as_ref()) else {
            return None;
        };
        if minutes == 0 || !doc.is_modified() || doc.revision() == self.autosaved_revision {
            return None;
        }
        let interval = Duration::from_secs(u64::from(minutes) * 60);
        let elapsed = self.last_autosave.elapsed();
        if elapsed < interval {
            return Some(interval - elapsed);
        }
        if self.jobs.busy() || self.jobs.running_for(Some(AUTOSAVE)) || doc.stroking() {
            // Try again shortly: a stroke or another job is in the way.
            return Some(Duration::from_secs(1));
        }
        self.last_autosave = Instant::now();
        let mut project = doc.snapshot();
        project.header.camera = self.viewport.camera.to_saved();
        let job = autosave::spawn(
            autosave::folder(dir),
            project,
            doc.path().map(PathBuf::from),
            doc.revision(),
        )
        .owned_by(AUTOSAVE);
        // Background jobs are never refused.
        let _ = self.jobs.start(job);
        Some(interval)
    }

    /// Run `action` now if nothing unsaved would be lost, else ask first.
    fn guard(&mut self, action: Guarded) {
        if self.doc.as_ref().is_some_and(Document::is_modified) {
            self.dialogs.unsaved = Some(action);
        } else {
            self.proceed(action);
        }
    }

    fn proceed(&mut self, action: Guarded) {
        match action {
            Guarded::New => self.panels.set_open(panels::new_world::NAME, true),
            Guarded::Open(Some(path)) => {
                let thumbs = self.config.as_deref().map(crate::thumbnails::folder);
                self.start_job(files::open_job(path, thumbs));
            }
            Guarded::Open(None) => self.ask_path(PathPurpose::OpenProject),
            Guarded::Quit => self.quit_confirmed = true,
        }
    }

    fn start_job(&mut self, job: crate::jobs::Job) {
        if let Err(job) = self.jobs.start(job) {
            self.message = format!("Busy: {} waits until the running job ends", job.label());
        }
    }

    /// Ask for a path with the platform's dialog, or the in-app browser when that is unavailable
    /// or preferred.
    fn ask_path(&mut self, purpose: PathPurpose) {
        let start = self.prefs.last_folder.clone();
        if !self.prefs.in_app_file_browser {
            match files::ask_native(&purpose.spec()) {
                NativeAnswer::Chosen(path) => {
                    self.apply(Action::PathChosen(purpose, path));
                    return;
                }
                NativeAnswer::Cancelled => return,
                NativeAnswer::Unavailable => {
                    self.message = "No system file dialog: using Strata's file browser".into();
                }
            }
        }
        self.dialogs.browser = Some(FileBrowser::new(purpose, start));
    }

    fn path_chosen(&mut self, purpose: PathPurpose, mut path: PathBuf) {
        let folder = if path.is_dir() {
            Some(path.clone())
        } else {
            path.parent().map(PathBuf::from)
        };
        if let Some(folder) = folder.filter(|f| !f.as_os_str().is_empty()) {
            self.prefs.last_folder = Some(folder);
        }
        match purpose {
            PathPurpose::OpenProject => self.proceed(Guarded::Open(Some(path))),
            PathPurpose::SaveProject(_) => {
                if path.extension().is_none() {
                    path.set_extension("strata");
                }
                self.save_to(path);
            }
            PathPurpose::ImportVxr => self.start_job(files::import_vxr_job(path)),
            PathPurpose::ExportMesh(_) => {
                if let Some(doc) = &self.doc {
                    let job =
                        files::export_mesh_job(doc.grid().clone(), doc.materials().clone(), path);
                    self.start_job(job);
                }
            }
            PathPurpose::ExportVxr => {
                if let Some(doc) = &self.doc {
                    let job = files::export_vxr_job(doc.grid().clone(), doc.bounds(), path);
                    self.start_job(job);
                }
            }
            PathPurpose::Panel { panel, tag, .. } => {
                let mut out = Vec::new();
                if let Some(e) = self.panels.by_name_mut(panel) {
                    e.panel.on_path(tag, &path, &mut out);
                }
                self.apply_all(out);
            }
        }
    }

    /// Save to the document's file, or ask for one.
    fn save(&mut self) {
        let Some(doc) = self.doc.as_ref() else {
            return;
        };
        match doc.path() {
            Some(p) => self.save_to(p.to_path_buf()),
            None => self.ask_path(PathPurpose::SaveProject(doc.header().name.clone())),
        }
    }

    /// Save the document to `path` in the background (atomic, previous file kept as `.bak`).
    fn save_to(&mut self, path: PathBuf) {
        if self.jobs.busy() {
            return;
        }
        let Some(doc) = self.doc.as_mut() else {
            return;
        };
        let mut project = doc.snapshot();
        project.header.camera = self.viewport.camera.to_saved();
        if doc.path() != Some(path.as_path()) {
            project.header.name = files::stem(&path);
        }
        let revision = doc.revision();
        let thumbs = self.config.as_deref().map(crate::thumbnails::folder);
        self.start_job(files::save_job(project, path, revision, thumbs));
    }

    fn recover(&mut self) {
        let Some(dir) = self.config.clone() else {
            return;
        };
        let original = self
            .dialogs
            .recover
            .take()
            .and_then(|i: RecoveryInfo| i.original);
        // The start-up world is not needed: the recovered one replaces it.
        self.jobs.cancel_modal();
        self.wait_for_job();
        let path = autosave::project_path(&autosave::folder(&dir));
        self.start_job(files::recover_job(path, original));
    }

    fn edit_result(&mut self, result: crate::AppResult<Option<String>>, verb: &str, none: &str) {
        match result {
            Ok(Some(name)) => self.message = format!("{verb} {name}"),
            Ok(None) => self.message = none.to_owned(),
            Err(e) => self.dialogs.error = Some(e.to_string()),
        }
    }

    /// Carry out every action, in order.
    pub fn apply_all(&mut self, actions: Vec<Action>) {
        for action in actions {
            self.apply(action);
        }
        self.publish();
    }

    /// Carry out one action.
    pub fn apply(&mut self, action: Action) {
        let idle = !self.jobs.busy();
        match action {
            Action::New => self.guard(Guarded::New),
            Action::Open(path) => self.guard(Guarded::Open(path)),
            Action::Quit => self.guard(Guarded::Quit),
            Action::Save if idle => self.save(),
            Action::SaveAs if idle => {
                if let Some(doc) = &self.doc {
                    self.ask_path(PathPurpose::SaveProject(doc.header().name.clone()));
                }
            }
            Action::SaveThen(next) => {
                self.after_save = Some(next);
                self.save();
                if !self.jobs.busy() {
                    // No file chosen (yet): nothing was saved, so nothing happens now.
                    if self.dialogs.browser.is_none() {
                        self.after_save = None;
                    }
                }
            }
            Action::Proceed(next) => self.proceed(next),
            Action::AskPath(purpose) => self.ask_path(purpose),
            Action::PathChosen(purpose, path) => self.path_chosen(purpose, path),
            Action::ImportHeightmap(import) => self.start_job(files::heightmap_job(import)),
            Action::Generate(settings) => self.start_job(files::generate_job(settings)),
            Action::CancelJob => self.jobs.cancel_modal(),
            Action::Recover => self.recover(),
            Action::DiscardRecovery => {
                self.dialogs.recover = None;
                self.discard_autosave();
            }
            Action::Undo if idle => {
                if let Some(doc) = self.doc.as_mut() {
                    let r = doc.undo();
                    self.edit_result(r, "Undid", "Nothing to undo");
                }
            }
            Action::Redo if idle => {
                if let Some(doc) = self.doc.as_mut() {
                    let r = doc.redo();
                    self.edit_result(r, "Redid", "Nothing to redo");
                }
            }
            Action::JumpTo(n) if idle => {
                if let Some(doc) = self.doc.as_mut() {
                    match doc.jump_to(n) {
                        Ok(0) => {}
                        Ok(k) if k < 0 => self.message = format!("Undid {} steps", -k),
                        Ok(k) => self.message = format!("Redid {k} steps"),
                        Err(e) => self.dialogs.error = Some(e.to_string()),
                    }
                }
            }
            Action::BeginStroke(name) if idle => {
                if let Some(doc) = self.doc.as_mut() {
                    doc.begin_stroke(&name);
                }
            }
            Action::Dab {
                tool,
                brush,
                center,
            } if idle => {
                if let Some(doc) = self.doc.as_mut() {
                    doc.dab(&tool, &brush, center);
                }
            }
            Action::EndStroke => {
                if let Some(doc) = self.doc.as_mut() {
                    doc.end_stroke();
                    if !self.prefs.hint_seen {
                        // The first stroke: the viewport hint has done its job.
                        self.prefs.hint_seen = true;
                        self.save_prefs();
                    }
                }
            }
            Action::SeaLevel {
                region,
                level,
                mode,
            } if idle => {
                if let Some(doc) = self.doc.as_mut() {
                    if doc.sea_level(region, level, mode).is_none() {
                        self.message = match mode {
                            strata_engine::tools::SeaLevelMode::Fill => {
                                "No air below the level to fill".into()
                            }
                            strata_engine::tools::SeaLevelMode::Clear => "No water to clear".into(),
                        };
                    }
                }
            }
            Action::Edit(edit) if idle => {
                if let Some(doc) = self.doc.as_mut() {
                    doc.edit_boxes(&edit.name, &edit.boxes, edit.write);
                }
            }
            Action::Start(job) => self.start_job(job),
            Action::ActivateTool(name) => {
                if self.active_tool != name {
                    if let Some(doc) = self.doc.as_mut() {
                        doc.end_stroke();
                    }
                    self.active_tool = name;
                }
            }
            Action::TogglePanel(name) => {
                let open = self.panels.is_open(name);
                self.panels.set_open(name, !open);
            }
            Action::ShowPanel(name) => self.panels.set_open(name, true),
            Action::SetPrefs(prefs) => self.set_prefs(*prefs),
            Action::CaptureKeys(on) => self.capturing_keys = on,
            Action::Message(m) => self.message = m,
            Action::Error(e) => self.dialogs.error = Some(e),
            Action::Save
            | Action::SaveAs
            | Action::Undo
            | Action::Redo
            | Action::JumpTo(_)
            | Action::BeginStroke(_)
            | Action::Dab { .. }
            | Action::SeaLevel { .. }
            | Action::Edit(_) => {
                self.message = "Busy: wait for the running job to finish".into();
            }
        }
    }

    fn command(&mut self, command: Command, out: &mut Vec<Action>) {
        match command {
            Command::New => out.push(Action::New),
            Command::Open => out.push(Action::Open(None)),
            Command::Save => out.push(Action::Save),
            Command::SaveAs => out.push(Action::SaveAs),
            Command::Undo => out.push(Action::Undo),
            Command::Redo => out.push(Action::Redo),
            Command::Focus => self.viewport.focus_hovered(),
            Command::FrontView => self.viewport.camera.axis_view(AxisView::Front),
            Command::RightView => self.viewport.camera.axis_view(AxisView::Right),
            Command::TopView => self.viewport.camera.axis_view(AxisView::Top),
            other => {
                let view = view!(self, egui::Modifiers::NONE);
                for e in self.panels.entries_mut() {
                    if e.panel.on_command(other, &view, out) {
                        break;
                    }
                }
            }
        }
    }

    /// Run one frame inside `ui` (the whole window).
    pub fn run(&mut self, ui: &mut egui::Ui) {
        let now = Instant::now();
        if let Some(last) = self.last_frame.replace(now) {
            let ms = (now - last).as_secs_f32() * 1000.0;
            self.frame_ms = if self.frame_ms == 0.0 {
                ms
            } else {
                0.9 * self.frame_ms + 0.1 * ms
            };
        }
        let ctx = ui.ctx().clone();
        self.poll_jobs();
        let mut out = Vec::new();
        if !self.capturing_keys {
            for command in self.keymap.pressed(&ctx, self.active_tool) {
                self.command(command, &mut out);
            }
        }
        self.apply_all(out);
        self.layout(ui);
        let mut out = Vec::new();
        let name = self
            .doc
            .as_ref()
            .map_or_else(String::new, Document::display_name);
        dialogs::show(&ctx, &mut self.dialogs, &self.jobs, &name, &mut out);
        self.apply_all(out);
        self.update_title(&ctx);
        if let Some(next) = self.autosave_tick() {
            ctx.request_repaint_after(next);
        }
        self.handle_close(&ctx);
        if self.jobs.any() {
            ctx.request_repaint_after(Duration::from_millis(50));
        }
    }

    /// Lay out the bars, panels, viewport and windows inside `ui`.
    pub fn layout(&mut self, ui: &mut egui::Ui) {
        let modifiers = ui.input(|i| i.modifiers);
        let mut out = Vec::new();
        {
            let view = view!(self, modifiers);
            let (panels, viewport) = (&self.panels, &mut self.viewport);
            egui::Panel::top("menu").show(ui, |ui| {
                crate::menu::show(ui, &view, panels, viewport, &mut out);
            });
            let tool = self
                .panels
                .entries()
                .iter()
                .find(|e| e.panel.name() == self.active_tool)
                .and_then(|e| e.panel.status(&view));
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

    fn docked(&mut self, ui: &mut egui::Ui, placement: Placement) {
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
            side.resizable(true).show(ui, |ui| {
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
        }
        self.apply_all(out);
    }

    fn windows(&mut self, ctx: &egui::Context, modifiers: egui::Modifiers) {
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

    fn central(&mut self, ui: &mut egui::Ui, modifiers: egui::Modifiers) {
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
        let mut overlays = Vec::new();
        {
            let view = view!(self, modifiers);
            for e in self.panels.entries() {
                e.panel.overlays(&view, &mut overlays);
            }
        }
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
            let (rect, maximized) =
                ctx.input(|i| (i.viewport().inner_rect, i.viewport().maximized));
            if let Some(rect) = rect {
                self.prefs.window_size = Some([rect.width(), rect.height()]);
            }
            self.prefs.window_maximized = maximized.unwrap_or(false);
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
