//! The window shell: the editor application owns the document, the viewport, the panels,
//! preferences, keymap and jobs, lays out one frame and applies what everything asks for.
//! `EditorApp::run` takes an [`eframe::egui::Ui`] only, so UI tests drive exactly what a user sees
//! (egui_kittest) without a window or GL.
//!
//! ```text
//!   run(ui):  poll jobs ─> menu bar ─> status bar ─> left and right panels
//!             ─> viewport (begin: camera, pointer samples ─> active tool ─> end: remesh, paint)
//!             ─> windows ─> keymap commands (unless a field has the keyboard) ─> prompts
//!             ─> title, autosave, close request
//!   each step pushes Actions; apply() carries them out in one match; publish() then hands every
//!   box the document changed to every consumer (viewport meshes, panels, extra consumers)
//! ```

//!
//! The shell's files: [`editor_app`] (the editor and its frame) with `apply.rs`, `layout.rs` and
//! `persist.rs`; [`action`] (what everything asks for); [`panel`] and [`panel_registry`] (what a
//! panel is, and the list of them); [`menu`], [`status`], [`dialogs`], [`file_browser`];
//! `file_lock.rs` (the lock on the open project's file); [`prefs`] with [`software_gl`]
//! (anti-aliasing on software GL) and [`viewport_quality`] (full or fast drawing), [`keymap`], [`jobs`] with [`job_output`], [`frame_clock`]; the
//! shell's own windows
//! ([`history_panel`], [`shortcuts`], [`statistics`], [`preferences`]); and starting the editor in
//! a window ([`launch`], with `screenshot.rs`, [`frame_bench`], `process_probe.rs` and
//! [`camera_tour`], which visits a list of camera positions taking screenshots).

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
            camera: $app.viewport.camera,
        }
    };
}

pub mod action;
mod apply;
pub mod camera_tour;
pub mod dialogs;
pub mod editor_app;
pub mod file_browser;
mod file_lock;
pub mod frame_bench;
pub mod frame_clock;
pub mod history_panel;
pub mod job_output;
pub mod jobs;
pub mod keymap;
pub mod launch;
mod layout;
pub mod menu;
pub mod panel;
pub mod panel_registry;
mod persist;
pub mod preferences;
pub mod prefs;
mod process_probe;
mod screenshot;
pub mod shortcuts;
pub mod software_gl;
pub mod statistics;
pub mod status;
pub mod viewport_quality;

pub use editor_app::{EditorApp, Start, FIRST_HINT, PROGRESS_FRAME};
pub use layout::{LEFT_WIDTH, RIGHT_WIDTH};
