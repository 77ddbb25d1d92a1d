//! The Strata application: the desktop editor and the headless command line.
//!
//! - [`app`]: the editor (`eframe::App`), one frame at a time; [`editor`] starts it in a window.
//! - [`document`]: the open project with its physics and edit bookkeeping (no UI types).
//! - [`viewport`]: the 3D view (camera, chunk meshes, three-d scene).
//! - [`tools`]: viewport input to engine tool strokes.
//! - [`panels`]: menus, the tools panel, status bar and dialogs.
//! - [`actions`], [`jobs`], [`autosave`], [`prefs`]: files, background work, recovery, settings.
//! - [`cli`]: the command line.

pub mod actions;
pub mod app;
pub mod autosave;
pub mod cli;
pub mod document;
pub mod editor;
pub mod error;
pub mod heightmap;
pub mod jobs;
pub mod panels;
pub mod png;
pub mod prefs;
pub mod tools;
pub mod viewport;

pub use error::{AppError, AppResult};
