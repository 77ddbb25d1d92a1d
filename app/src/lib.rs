//! The Strata application: the desktop editor and the headless command line.
//!
//! One folder per part, and one per editor feature:
//!
//! - [`app`]: the window shell: the editor (`eframe::App`) one frame at a time, the actions it
//!   applies in one place, the panel trait and registry, menu, status bar, dialogs, file browser,
//!   preferences, shortcuts, background jobs, and starting the editor in a window.
//! - [`document`]: the open project; every voxel change goes through it and is published. No egui.
//! - [`viewport`]: the 3D view (camera, chunk meshes, three-d scene).
//! - Editor features, each with its panel, its viewport input, its jobs and its file adapters:
//!   [`brush`], [`region`], [`lighting`], [`materials`], [`enhance`], [`physics`], [`generate`], [`files`].
//! - [`cli`]: the command line, a file per command.

pub mod app;
pub mod brush;
pub mod cli;
pub mod document;
pub mod enhance;
pub mod error;
pub mod files;
pub mod generate;
pub mod lighting;
pub mod materials;
pub mod physics;
pub mod region;
pub mod scripts;
pub mod viewport;

pub use error::{AppError, AppResult};
