//! Camera tours: the editor visits a list of camera positions one after another and saves
//! screenshots of each view while it still refines after the jump and once it has settled
//! (`strata open FILE --camera-path PATH --screenshots DIR`). One editor process looks at many
//! views of a world, which is what the crack test needs (and what documentation images need).
//!
//! ```text
//!   camera path (JSON):  [{"eye": [x, y, z], "target": [x, y, z]}, ...]   world voxels
//!
//!   per stop:  jump ──> NNN-refining-1.png (the first frame drawn from there)
//!              ──frame 3, and every 8th frame while refining──> NNN-refining-F.png
//!                (at most REFINING_SHOTS in all)
//!              ──settled for SETTLE_FRAMES frames──> NNN-settled.png ──> next stop
//!   at the end:  DIR/tour.json: one entry per screenshot (file, stop, frame, settled, the
//!                viewport's pixel rectangle in the window, nodes still stale, fading, the mesh
//!                nodes drawn)
//! ```
//!
//! A stop's refining screenshots are taken only while the view is not settled (nodes still to
//! mesh, a cross-fade, or the shadow map catching up), so they show what a user sees while the
//! view refines. A tour meshes for up to `TOUR_MESH_BUDGET` a frame instead of the editor's
//! 12 ms, so a view refines in fewer (slow, software-drawn) frames; it still refines over several.

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use std::time::Instant;

use eframe::egui;
use serde::{Deserialize, Serialize};
use strata_engine::mesh::NodeKey;
use three_d::Vec3;

use super::screenshot::save_png;
use crate::viewport::camera::EditorCamera;
use crate::viewport::fade::FADE;
use crate::viewport::Viewport;
use crate::{AppError, AppResult};

/// Most stops a camera path may hold.
pub const MAX_STOPS: usize = 10_000;
/// Screenshots taken while one stop's view refines, at most.
const REFINING_SHOTS: usize = 4;
/// Frames the view must stay settled before the settled screenshot.
const SETTLE_FRAMES: u32 = 3;
/// Meshing time per frame during a tour: software GL draws a frame in a tenth of a second or
/// more, so the editor's own budget would take hundreds of frames to refine a close view.
const TOUR_MESH_BUDGET: std::time::Duration = std::time::Duration::from_millis(100);

/// One camera position of a tour.
#[derive(Debug, Clone, Copy, PartialEq, Deserialize, Serialize)]
pub struct CameraStop {
    /// Eye position, world voxels.
    pub eye: [f32; 3],
    /// The point looked at, world voxels.
    pub target: [f32; 3],
}

/// Read a camera path file (a JSON array of [`CameraStop`]s).
///
/// # Errors
/// The file cannot be read, is not such an array, is empty or holds more than [`MAX_STOPS`]
/// stops, or a stop has a non-finite coordinate or looks at its own eye position.
pub fn read_camera_path(path: &Path) -> AppResult<Vec<CameraStop>> {
    let text = std::fs::read_to_string(path).map_err(|e| AppError::io(path, e))?;
    let stops: Vec<CameraStop> = serde_json::from_str(&text)
        .map_err(|e| AppError::Usage(format!("{}: not a camera path: {e}", path.display())))?;
    if stops.is_empty() || stops.len() > MAX_STOPS {
        return Err(AppError::Usage(format!(
            "{}: {} camera stops (give 1 to {MAX_STOPS})",
            path.display(),
            stops.len()
        )));
    }
    for (i, s) in stops.iter().enumerate() {
        let finite = s.eye.iter().chain(&s.target).all(|c| c.is_finite());
        let d = Vec3::from(s.target) - Vec3::from(s.eye);
        if !finite || three_d::InnerSpace::magnitude2(d) < 1e-6 {
            return Err(AppError::Usage(format!(
                "{}: stop {i} needs finite coordinates and a target away from the eye",
                path.display()
            )));
        }
    }
    Ok(stops)
}

/// One screenshot of a tour, as listed in `tour.json`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TourShot {
    /// File name within the screenshot folder.
    pub file: String,
    /// Index of the camera stop.
    pub stop: usize,
    /// Frames since the jump to this stop.
    pub frame: u32,
    /// True for the screenshot of the settled view.
    pub settled: bool,
    /// The viewport's rectangle in the screenshot, pixels: x0, y0, x1, y1 (exclusive).
    pub viewport: [u32; 4],
    /// Mesh nodes still to mesh for this view when it was taken.
    pub stale: usize,
    /// Whether levels of detail were cross-fading.
    pub fading: bool,
    /// The mesh nodes on screen (level, then position in units of the node's size): those the
    /// frames of the last cross-fade time drew, so the ones still fading out are there too.
    pub drawn: Vec<[i32; 4]>,
}

/// Where a tour stands (see the module docs).
pub struct CameraTour {
    stops: Vec<CameraStop>,
    dir: PathBuf,
    /// The stop shown now (`None` before the first jump).
    at: Option<usize>,
    frame: u32,
    settled_frames: u32,
    refining_shots: usize,
    shots: Vec<TourShot>,
    /// Screenshots requested and not yet written.
    in_flight: Arc<Mutex<usize>>,
    /// The first error of a screenshot callback.
    failure: Arc<Mutex<Option<AppError>>>,
    finished: bool,
    /// The settled screenshot of the current stop is requested: move on once it is written.
    leaving: bool,
    /// The nodes drawn by recent frames, when they changed, newest last.
    recent: Vec<(Instant, Vec<NodeKey>)>,
}

/// What the editor does after a tour step.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TourStep {
    /// Keep drawing.
    Continue,
    /// Every screenshot is written: close the window.
    Done,
}

impl CameraTour {
    /// A tour over `stops` saving into `dir` (created if missing).
    ///
    /// # Errors
    /// `dir` cannot be created.
    pub fn new(stops: Vec<CameraStop>, dir: PathBuf) -> AppResult<Self> {
        std::fs::create_dir_all(&dir).map_err(|e| AppError::io(&dir, e))?;
        Ok(Self {
            stops,
            dir,
            at: None,
            frame: 0,
            settled_frames: 0,
            refining_shots: 0,
            shots: Vec::new(),
            in_flight: Arc::default(),
            failure: Arc::default(),
            finished: false,
            leaving: false,
            recent: Vec::new(),
        })
    }

    /// The first error met while writing the screenshots or the list.
    pub fn take_failure(&self) -> Option<AppError> {
        self.failure.lock().ok().and_then(|mut f| f.take())
    }

    /// One frame, after the editor ran it: `loaded` when a document is open and no job runs,
    /// `settled` when the view has every wanted mesh and no fade or shadow update is pending.
    ///
    /// A screenshot requested in one frame shows the next one (eframe reads the window after
    /// painting the frame that follows the request), so the camera moves on only once the settled
    /// screenshot is written.
    pub fn step(
        &mut self,
        ctx: &egui::Context,
        viewport: &mut Viewport,
        loaded: bool,
        settled: bool,
    ) -> TourStep {
        let writing = self.in_flight.lock().is_ok_and(|n| *n > 0);
        if self.finished {
            return if writing {
                TourStep::Continue
            } else {
                TourStep::Done
            };
        }
        // Act once per painted frame, in its last layout pass (an earlier pass is discarded).
        if !loaded || ctx.will_discard() {
            return TourStep::Continue;
        }
        self.remember(viewport.meshes.drawn());
        let Some(at) = self.at else {
            viewport.mesh_budget = TOUR_MESH_BUDGET;
            self.jump(ctx, viewport, 0);
            return TourStep::Continue;
        };
        if self.leaving {
            if !writing {
                if at + 1 < self.stops.len() {
                    self.jump(ctx, viewport, at + 1);
                } else {
                    self.finish();
                }
            }
            return TourStep::Continue;
        }
        self.frame += 1;
        self.settled_frames = if settled { self.settled_frames + 1 } else { 0 };
        // The frame the screenshot will show.
        let shown = self.frame + 1;
        let refining_frame = shown == 3 || shown.is_multiple_of(8);
        if !settled && refining_frame && self.refining_shots < REFINING_SHOTS {
            self.refining_shots += 1;
            self.shoot(
                ctx,
                viewport,
                format!("{at:03}-refining-{shown}.png"),
                false,
            );
        } else if self.settled_frames >= SETTLE_FRAMES {
            self.shoot(ctx, viewport, format!("{at:03}-settled.png"), true);
            self.leaving = true;
        }
        TourStep::Continue
    }

    /// Move the camera to stop `to` and take the first frame that shows it.
    fn jump(&mut self, ctx: &egui::Context, viewport: &mut Viewport, to: usize) {
        let s = self.stops[to];
        viewport.camera = EditorCamera::looking_at(Vec3::from(s.eye), Vec3::from(s.target));
        self.at = Some(to);
        self.leaving = false;
        self.frame = 0;
        self.settled_frames = 0;
        self.refining_shots = 1;
        self.shoot(ctx, viewport, format!("{to:03}-refining-1.png"), false);
    }

    /// Request a screenshot of this frame into `file`.
    fn shoot(&mut self, ctx: &egui::Context, viewport: &Viewport, file: String, settled: bool) {
        let rect = viewport.rect();
        let ppp = ctx.pixels_per_point();
        let px = |v: f32| (v * ppp).round().max(0.0) as u32;
        self.shots.push(TourShot {
            file: file.clone(),
            stop: self.at.unwrap_or(0),
            frame: self.frame + 1,
            settled,
            viewport: [
                px(rect.left()),
                px(rect.top()),
                px(rect.right()),
                px(rect.bottom()),
            ],
            stale: viewport.stale_chunks(),
            fading: viewport.fading(),
            drawn: self.recent_nodes(),
        });
        if let Ok(mut n) = self.in_flight.lock() {
            *n += 1;
        }
        let path = self.dir.join(file);
        let (in_flight, failure) = (self.in_flight.clone(), self.failure.clone());
        let repaint = ctx.clone();
        ctx.request_screenshot(move |image| {
            if let Err(e) = save_png(&path, &image) {
                if let Ok(mut f) = failure.lock() {
                    f.get_or_insert(e);
                }
            }
            if let Ok(mut n) = in_flight.lock() {
                *n = n.saturating_sub(1);
            }
            repaint.request_repaint();
        });
    }

    /// Keep `drawn` if it changed, and forget sets older than a cross-fade.
    fn remember(&mut self, drawn: &[NodeKey]) {
        let now = Instant::now();
        if self
            .recent
            .last()
            .is_none_or(|(_, last)| last.as_slice() != drawn)
        {
            self.recent.push((now, drawn.to_vec()));
        }
        // The newest set older than a fade stays: it was on screen when the fade began.
        let keep_after = now.checked_sub(FADE + FADE / 2);
        while self.recent.len() > 1 && keep_after.is_some_and(|t| self.recent[1].0 <= t) {
            self.recent.remove(0);
        }
    }

    /// Every node the remembered frames drew.
    fn recent_nodes(&self) -> Vec<[i32; 4]> {
        let mut nodes: Vec<[i32; 4]> = self
            .recent
            .iter()
            .flat_map(|(_, set)| set.iter())
            .map(|k| [k.level as i32, k.pos.x, k.pos.y, k.pos.z])
            .collect();
        nodes.sort_unstable();
        nodes.dedup();
        nodes
    }

    /// Write the list of screenshots; the tour ends once the last one is written.
    fn finish(&mut self) {
        self.finished = true;
        let path = self.dir.join("tour.json");
        let written = serde_json::to_string_pretty(&self.shots)
            .map_err(|e| AppError::Usage(format!("{}: {e}", path.display())))
            .and_then(|json| {
                std::fs::write(&path, json).map_err(|e| AppError::io(path.clone(), e))
            });
        if let (Err(e), Ok(mut f)) = (written, self.failure.lock()) {
            f.get_or_insert(e);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
        let p = dir.join(name);
        std::fs::write(&p, text).expect("write");
        p
    }

    #[test]
    fn camera_paths_parse_and_bad_ones_are_refused() {
        let dir = std::env::temp_dir().join(format!("strata-tour-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("dir");
        let good = write(
            &dir,
            "good.json",
            r#"[{"eye": [0, 50, 0], "target": [10, 20, 10]}, {"eye": [1, 2, 3], "target": [4, 5, 6]}]"#,
        );
        let stops = read_camera_path(&good).expect("parses");
        assert_eq!(stops.len(), 2);
        assert_eq!(stops[1].target, [4.0, 5.0, 6.0]);
        for (name, text) in [
            ("empty.json", "[]"),
            ("object.json", r#"{"eye": [0, 0, 0]}"#),
            ("same.json", r#"[{"eye": [1, 1, 1], "target": [1, 1, 1]}]"#),
            ("short.json", r#"[{"eye": [1, 1], "target": [1, 1, 1]}]"#),
            ("text.json", "not json"),
        ] {
            let p = write(&dir, name, text);
            assert!(read_camera_path(&p).is_err(), "{name} was accepted");
        }
        assert!(read_camera_path(&dir.join("missing.json")).is_err());
        let _ = std::fs::remove_dir_all(&dir);
    }
}
