//! The Strata application: the desktop editor and the headless command line.
//!
//! - [`app`]: the editor (`eframe::App`), one frame at a time; [`editor`] starts it in a window.
//! - [`document`]: the open project; every voxel change goes through it and is published.
//! - [`action`]: what panels, menus, shortcuts and tools ask for; `app` applies it in one place.
//! - [`panels`]: one file per panel or window, registered in one list.
//! - [`viewport`]: the 3D view (camera, chunk meshes, three-d scene).
//! - [`tools`]: viewport input to brush strokes.
//! - [`menu`], [`status`], [`dialogs`], [`file_browser`]: the menu bar, status bar, modal prompts and
//!   the in-app file browser.
//! - [`keymap`]: every shortcut, rebindable.
//! - [`jobs`], [`files`], [`autosave`], [`prefs`], [`thumbnails`]: background work, file jobs,
//!   recovery, settings.
//! - [`png`], [`heightmap`]: PNG coding and heightmap import, shared by the editor and the CLI.
//! - [`cli`]: the command line.

pub mod action;
pub mod app;
pub mod autosave;
pub mod cli;
pub mod dialogs;
pub mod document;
pub mod editor;
pub mod error;
pub mod file_browser;
pub mod files;
pub mod frame_clock;
pub mod heightmap;
pub mod jobs;
pub mod keymap;
pub mod menu;
pub mod panels;
pub mod png;
pub mod prefs;
pub mod region_files;
pub mod region_op;
pub mod status;
pub mod thumbnails;
pub mod tools;
pub mod viewport;

pub use error::{AppError, AppResult};
