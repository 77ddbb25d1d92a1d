//! Preferences and recent files, kept as RON in the user's config directory (the `directories`
//! crate finds it per platform; `STRATA_CONFIG_DIR` overrides it, which tests and portable installs
//! use). A missing or unreadable file gives the defaults: preferences never stop the editor starting.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use strata_engine::format::write_atomic;

use crate::{AppError, AppResult};

/// Recent files remembered.
pub const MAX_RECENT: usize = 10;
const FILE_NAME: &str = "prefs.ron";
/// How far a right-drag turns the camera by default, degrees per pixel: a 300-pixel drag is a
/// quarter turn.
pub const DEFAULT_ORBIT_DEGREES_PER_PX: f32 = 0.3;

/// What the editor remembers between sessions.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Prefs {
    /// Most recent first.
    pub recent: Vec<PathBuf>,
    /// Minutes between autosaves; 0 turns autosave off.
    pub autosave_minutes: u32,
    /// Brush size in voxels the editor starts with.
    pub brush_size: f32,
    /// Brush strength the editor starts with.
    pub brush_strength: f32,
    /// Use coarser meshes for distant chunks.
    pub lod: bool,
    /// Camera fly speed, voxels per second.
    pub fly_speed: f32,
    /// How far a right-drag turns the camera, degrees per pixel.
    pub orbit_degrees_per_px: f32,
    /// The docked panels shown (`None`: each panel's default).
    pub open_panels: Option<Vec<String>>,
    /// Shortcuts changed from the defaults: command name → keys (`"Undo"` → `"Ctrl+Z"`).
    pub key_bindings: Vec<(String, String)>,
    /// Distance in chunks at which coarser meshes start.
    pub lod_distance: f32,
    /// Smooth polygon edges with multisampling (read when the window opens; off on a software
    /// renderer unless [`Prefs::antialiasing_chosen`], see [`super::software_gl`]).
    pub antialiasing: bool,
    /// The window's inner size when it last closed (`None`: open maximised).
    pub window_size: Option<[f32; 2]>,
    /// The window was maximised when it last closed.
    pub window_maximized: bool,
    /// The first-launch hint in the viewport was seen (a stroke was made).
    pub hint_seen: bool,
    /// Use Strata's own file browser even where the system's file dialog works.
    pub in_app_file_browser: bool,
    /// The folder the last file prompt answered in.
    pub last_folder: Option<PathBuf>,
    /// The folder the Stamps panel lists (`None`: `stamps` in the config directory).
    pub stamps_folder: Option<PathBuf>,
    /// The user set Anti-aliasing in the Preferences: keep it whatever the renderer.
    pub antialiasing_chosen: bool,
    /// The GL renderer the window had last time (GL_RENDERER).
    pub gl_renderer: Option<String>,
    /// The viewport's exposure and tone curve.
    pub exposure: crate::viewport::exposure::Exposure,
    /// Full or fast terrain drawing (automatic: fast on a software renderer, see
    /// [`super::viewport_quality`]).
    pub viewport_quality: super::viewport_quality::ViewportQuality,
}

impl Default for Prefs {
    fn default() -> Self {
        Self {
            recent: Vec::new(),
            autosave_minutes: 3,
            brush_size: 6.0,
            brush_strength: 0.5,
            lod: true,
            fly_speed: 40.0,
            orbit_degrees_per_px: DEFAULT_ORBIT_DEGREES_PER_PX,
            open_panels: None,
            key_bindings: Vec::new(),
            lod_distance: crate::viewport::chunks::DEFAULT_LOD_DISTANCE,
            antialiasing: true,
            window_size: None,
            window_maximized: false,
            hint_seen: false,
            in_app_file_browser: false,
            last_folder: None,
            stamps_folder: None,
            antialiasing_chosen: false,
            gl_renderer: None,
            exposure: crate::viewport::exposure::Exposure::default(),
            viewport_quality: super::viewport_quality::ViewportQuality::Automatic,
        }
    }
}

/// Smallest remembered window, points (the window's own minimum size).
pub const MIN_WINDOW_SIZE: [f32; 2] = [640.0, 400.0];
/// Largest remembered window side, points.
pub const MAX_WINDOW_SIDE: f32 = 16384.0;

/// Whether `size` is a window size worth opening at: finite, at least [`MIN_WINDOW_SIZE`], at most
/// [`MAX_WINDOW_SIDE`] a side.
pub fn valid_window_size(size: [f32; 2]) -> bool {
    size.iter()
        .zip(MIN_WINDOW_SIZE)
        .all(|(v, min)| v.is_finite() && (min..=MAX_WINDOW_SIDE).contains(v))
}

/// The directory for preferences, autosaves and thumbnails.
pub fn config_dir() -> Option<PathBuf> {
    if let Some(dir) = std::env::var_os("STRATA_CONFIG_DIR") {
        return Some(PathBuf::from(dir));
    }
    directories::ProjectDirs::from("org", "Strata", "Strata").map(|d| d.config_dir().to_path_buf())
}

impl Prefs {
    /// Read the preferences in `dir`, or the defaults.
    pub fn load(dir: Option<&Path>) -> Self {
        let mut prefs: Self = dir
            .and_then(|d| std::fs::read_to_string(d.join(FILE_NAME)).ok())
            .and_then(|text| ron::from_str(&text).ok())
            .unwrap_or_default();
        // A size no window should open at (an old file, a hand edit) is forgotten.
        prefs.window_size = prefs.window_size.filter(|s| valid_window_size(*s));
        prefs
    }

    /// Write the preferences to `dir` (atomically).
    ///
    /// # Errors
    /// When the directory cannot be created or the file written.
    pub fn save(&self, dir: &Path) -> AppResult<()> {
        std::fs::create_dir_all(dir).map_err(|e| AppError::io(dir, e))?;
        let text = ron::ser::to_string_pretty(self, ron::ser::PrettyConfig::default())
            .map_err(|e| AppError::Usage(format!("preferences: {e}")))?;
        write_atomic(&dir.join(FILE_NAME), text.as_bytes())?;
        Ok(())
    }

    /// Put `path` first in the recent list.
    pub fn add_recent(&mut self, path: &Path) {
        let path = path.canonicalize().unwrap_or_else(|_| path.to_path_buf());
        self.recent.retain(|p| *p != path);
        self.recent.insert(0, path);
        self.recent.truncate(MAX_RECENT);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prefs_round_trip_and_bad_files_give_defaults() {
        let dir = std::env::temp_dir().join(format!("strata-prefs-{}", std::process::id()));
        let mut p = Prefs::default();
        for i in 0..15 {
            p.add_recent(Path::new(&format!("/nonexistent/w{i}.strata")));
        }
        p.add_recent(Path::new("/nonexistent/w3.strata"));
        assert_eq!(p.recent.len(), MAX_RECENT);
        assert_eq!(p.recent[0], PathBuf::from("/nonexistent/w3.strata"));
        p.autosave_minutes = 7;
        p.save(&dir).expect("save");
        assert_eq!(Prefs::load(Some(&dir)), p);
        std::fs::write(dir.join(FILE_NAME), "not ron {").expect("write");
        assert_eq!(Prefs::load(Some(&dir)), Prefs::default());
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_degenerate_remembered_window_is_forgotten() {
        let dir = std::env::temp_dir().join(format!("strata-prefs-win-{}", std::process::id()));
        for (size, kept) in [
            ([1280.0, 800.0], true),
            ([1.0, 1.0], false),
            ([f32::NAN, 800.0], false),
            ([1280.0, f32::INFINITY], false),
            ([100_000.0, 800.0], false),
        ] {
            let p = Prefs {
                window_size: Some(size),
                ..Prefs::default()
            };
            p.save(&dir).expect("save");
            let loaded = Prefs::load(Some(&dir)).window_size;
            assert_eq!(loaded.is_some(), kept, "{size:?}");
        }
        let _ = std::fs::remove_dir_all(&dir);
    }
}
