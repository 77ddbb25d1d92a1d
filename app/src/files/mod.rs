//! Files: the background jobs that open, save, import and export; autosave and recovery; PNG
//! coding, heightmap import and export (shared with the CLI) with their windows; thumbnails and the Recent
//! Files window.

pub mod autosave;
pub mod export_heightmap;
pub mod export_scene;
pub mod file_jobs;
pub mod heightmap;
pub mod heightmap_export;
pub mod import_heightmap;
pub mod png;
pub mod recent;
pub mod thumbnail_textures;
pub mod thumbnails;
