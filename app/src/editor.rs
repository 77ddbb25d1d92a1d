//! Starting the desktop editor: eframe with the glow renderer (three-d shares its GL context) and
//! multisampled anti-aliasing, an optional capture mode that saves a screenshot of the window once
//! the world is meshed and exits (the screenshot test, documentation images), and a frame-time
//! mode that orbits the camera over continuously drawn frames and reports their intervals
//! (`strata frames`).

use std::path::PathBuf;
use std::sync::{Arc, Mutex};

use eframe::egui;

use crate::app::{EditorApp, Start};
use crate::viewport::camera_tour::{CameraStop, CameraTour, TourStep};
use crate::{AppError, AppResult};

/// Window and capture options.
#[derive(Debug, Clone, Default)]
pub struct RunOptions {
    /// Inner window size in points (default 1280 × 800).
    pub size: Option<[f32; 2]>,
    /// Save a PNG of the window here once the world is shown, then exit.
    pub screenshot: Option<PathBuf>,
    /// Level of detail on or off for this session (`None`: the viewport's default, on).
    pub lod: Option<bool>,
    /// Visit these camera positions, save screenshots into the folder, then exit (see
    /// [`crate::viewport::camera_tour`]).
    pub tour: Option<(Vec<CameraStop>, PathBuf)>,
    /// The colour behind the terrain instead of the sky (sRGB bytes; tests pick one no terrain
    /// has).
    pub background: Option<[u8; 3]>,
}

/// Samples per pixel of the window's multisampled anti-aliasing.
pub const DEFAULT_MSAA: u16 = 4;

/// A frame-time run: once the world is meshed, orbit the camera once around the world's centre over
/// `frames` continuously drawn frames, then put the JSON report in `report` and close.
#[derive(Debug, Clone)]
pub struct FrameBench {
    frames: u32,
    started: bool,
    seen: u64,
    intervals_ms: Vec<f32>,
    opened: std::time::Instant,
    whole_drawn: bool,
    first_full_s: Option<f64>,
    refined_s: Option<f64>,
    seen_refining: u64,
    refining_ms: Vec<f32>,
    first_full_cpu_s: Option<f64>,
    refined_cpu_s: Option<f64>,
    /// The JSON report line, once the run ends.
    pub report: Arc<Mutex<Option<String>>>,
}

impl FrameBench {
    /// A run over `frames` frames.
    pub fn new(frames: u32) -> Self {
        Self {
            frames: frames.max(1),
            started: false,
            seen: 0,
            intervals_ms: Vec::new(),
            opened: std::time::Instant::now(),
            whole_drawn: false,
            first_full_s: None,
            refined_s: None,
            seen_refining: 0,
            refining_ms: Vec::new(),
            first_full_cpu_s: None,
            refined_cpu_s: None,
            report: Arc::default(),
        }
    }
}

/// Run the editor until its window closes.
///
/// # Errors
/// When no window or GL context can be created, or the screenshot cannot be written.
pub fn run(start: Start, options: RunOptions) -> AppResult<()> {
    launch(start, options, None, None)
}

/// Run the editor for a frame-time measurement (see [`FrameBench`]); `msaa` overrides
/// [`DEFAULT_MSAA`] and the Anti-aliasing preference.
///
/// # Errors
/// When no window or GL context can be created.
pub fn run_frames(
    start: Start,
    options: RunOptions,
    bench: FrameBench,
    msaa: Option<u16>,
) -> AppResult<()> {
    launch(start, options, Some(bench), msaa)
}

fn launch(
    start: Start,
    options: RunOptions,
    bench: Option<FrameBench>,
    msaa: Option<u16>,
) -> AppResult<()> {
    // An explicit size wins; otherwise the size the window had when it last closed, or maximised
    // on the first launch.
    let prefs = crate::prefs::Prefs::load(crate::prefs::config_dir().as_deref());
    let remembered = prefs.window_size.filter(|_| !prefs.window_maximized);
    let maximize = options.size.is_none() && remembered.is_none();
    let [w, h] = options.size.or(remembered).unwrap_or([1280.0, 800.0]);
    let native = eframe::NativeOptions {
        viewport: egui::ViewportBuilder::default()
            .with_inner_size([w, h])
            .with_min_inner_size([640.0, 400.0])
            .with_maximized(maximize)
            .with_title("Strata"),
        renderer: eframe::Renderer::Glow,
        depth_buffer: 24,
        multisampling: msaa.unwrap_or(if prefs.antialiasing { DEFAULT_MSAA } else { 0 }),
        ..Default::default()
    };
    let result: Arc<Mutex<Option<AppResult<()>>>> = Arc::default();
    let tour = options
        .tour
        .map(|(stops, dir)| CameraTour::new(stops, dir))
        .transpose()?;
    let tour_failure: Arc<Mutex<Option<AppError>>> = Arc::default();
    let capture = options.screenshot.map(|path| Capture {
        path,
        frames_ready: 0,
        requested: false,
        result: result.clone(),
    });
    let shell_failure = tour_failure.clone();
    eframe::run_native(
        "Strata",
        native,
        Box::new(move |cc| {
            let mut app = EditorApp::desktop(start, cc.gl.is_some());
            if let Some(rgb) = options.background {
                app.viewport.background = rgb.map(|c| f32::from(c) / 255.0);
            }
            if let Some(lod) = options.lod {
                app.viewport.meshes.lod_enabled = lod;
                app.lod_override = Some(lod);
            }
            Ok(Box::new(Shell {
                app,
                capture,
                bench,
                tour,
                tour_failure: shell_failure,
            }))
        }),
    )
    .map_err(|e| AppError::Usage(format!("could not open the editor window: {e}")))?;
    if let Some(e) = tour_failure.lock().ok().and_then(|mut f| f.take()) {
        return Err(e);
    }
    let outcome = result.lock().map(|mut r| r.take()).ok().flatten();
    outcome.unwrap_or(Ok(()))
}

struct Capture {
    path: PathBuf,
    frames_ready: u32,
    requested: bool,
    result: Arc<Mutex<Option<AppResult<()>>>>,
}

struct Shell {
    app: EditorApp,
    capture: Option<Capture>,
    bench: Option<FrameBench>,
    tour: Option<CameraTour>,
    tour_failure: Arc<Mutex<Option<AppError>>>,
}

impl eframe::App for Shell {
    fn ui(&mut self, ui: &mut egui::Ui, _frame: &mut eframe::Frame) {
        self.app.run(ui);
        let ctx = ui.ctx().clone();
        let ready = self.app.doc.is_some()
            && !self.app.busy()
            && self.app.viewport.stale_chunks() == 0
            && !self.app.viewport.shadow_pending()
            && !self.app.viewport.fading();
        if let Some(bench) = self.bench.as_mut() {
            bench_step(&mut self.app, bench, ready, &ctx);
        }
        if let Some(tour) = self.tour.as_mut() {
            let loaded = self.app.doc.is_some() && !self.app.busy();
            let step = tour.step(&ctx, &mut self.app.viewport, loaded, ready);
            if let Some(e) = tour.take_failure() {
                if let Ok(mut f) = self.tour_failure.lock() {
                    f.get_or_insert(e);
                }
            }
            if step == TourStep::Done {
                ctx.send_viewport_cmd(egui::ViewportCommand::Close);
            }
            keep_drawing(&self.app, &ctx);
        }
        let Some(capture) = self.capture.as_mut() else {
            return;
        };
        if capture.requested {
            if capture.result.lock().is_ok_and(|r| r.is_some()) {
                ctx.send_viewport_cmd(egui::ViewportCommand::Close);
            }
        } else if !ready {
            capture.frames_ready = 0;
        } else {
            capture.frames_ready += 1;
            // A few frames so uploads reach the GPU and the layout settles.
            if capture.frames_ready >= 5 {
                capture.requested = true;
                let path = capture.path.clone();
                let slot = capture.result.clone();
                let repaint = ctx.clone();
                ctx.request_screenshot(move |image| {
                    let r = crate::viewport::camera_tour::save_png(&path, &image);
                    if let Ok(mut s) = slot.lock() {
                        *s = Some(r);
                    }
                    repaint.request_repaint();
                });
            }
        }
        keep_drawing(&self.app, &ctx);
    }
}

/// Capture and frame-time runs draw continuously, except while a job (opening a file) runs with
/// nothing to show: then the editor's own progress frames only, so drawing does not take the CPU
/// the job needs.
fn keep_drawing(app: &EditorApp, ctx: &egui::Context) {
    if app.doc.is_none() && app.busy() {
        ctx.request_repaint_after(crate::app::PROGRESS_FRAME);
    } else {
        ctx.request_repaint();
    }
}

/// One frame of a frame-time run: turn the camera a step around the world's centre, collect the
/// interval the frame clock counted for the previous frame and, after a full orbit, report.
fn bench_step(app: &mut EditorApp, bench: &mut FrameBench, ready: bool, ctx: &egui::Context) {
    keep_drawing(app, ctx);
    let now = bench.opened.elapsed().as_secs_f64();
    if bench.first_full_s.is_none() {
        // The frame after the one that first drew the whole world: that one has been painted.
        if bench.whole_drawn {
            bench.first_full_s = Some(now);
            bench.first_full_cpu_s = process_cpu_s();
        } else if app.doc.is_some() && app.viewport.meshes.covers_world() {
            bench.whole_drawn = true;
        }
    }
    if ready && bench.refined_s.is_none() {
        bench.refined_s = Some(now);
        bench.refined_cpu_s = process_cpu_s();
    }
    if bench.first_full_s.is_some() && bench.refined_s.is_none() {
        // Frames drawn while the view refines (meshing within the frame budget).
        let clock = app.frame_clock();
        if clock.counted() > bench.seen_refining {
            bench.refining_ms.extend(clock.last_ms());
        }
        bench.seen_refining = clock.counted();
    }
    if (!ready && !bench.started) || bench.report.lock().map_or(true, |r| r.is_some()) {
        return;
    }
    let clock = app.frame_clock();
    if bench.started && clock.counted() > bench.seen {
        bench.intervals_ms.extend(clock.last_ms());
    }
    bench.seen = clock.counted();
    bench.started = true;
    if bench.intervals_ms.len() >= bench.frames as usize {
        let report = bench_report(bench, app.viewport.drawn_triangles());
        if let Ok(mut r) = bench.report.lock() {
            *r = Some(report);
        }
        ctx.send_viewport_cmd(egui::ViewportCommand::Close);
        return;
    }
    let pivot = app.doc.as_ref().map_or_else(
        || app.viewport.camera.target(),
        |d| crate::viewport::box_center(d.header().bounds).into(),
    );
    let step = std::f32::consts::TAU / bench.frames as f32;
    app.viewport.camera.orbit(pivot, step, 0.0);
}

/// The JSON line of a frame-time run.
fn bench_report(bench: &FrameBench, triangles: usize) -> String {
    let intervals_ms = &bench.intervals_ms;
    let n = intervals_ms.len().max(1);
    let mut sorted = intervals_ms.to_vec();
    sorted.sort_by(f32::total_cmp);
    let p95 = sorted
        .get(((n as f32 * 0.95).ceil() as usize).saturating_sub(1))
        .copied()
        .unwrap_or(0.0);
    let json = serde_json::json!({
        "frames": intervals_ms.len(),
        "median_ms": crate::frame_clock::median(sorted.clone()),
        "mean_ms": intervals_ms.iter().sum::<f32>() / n as f32,
        "p95_ms": p95,
        "max_ms": sorted.last().copied().unwrap_or(0.0),
        "triangles": triangles,
        "first_full_frame_s": bench.first_full_s,
        "refined_s": bench.refined_s,
        "first_full_frame_cpu_s": bench.first_full_cpu_s,
        "refined_cpu_s": bench.refined_cpu_s,
        "refining_frames": bench.refining_ms.len(),
        "refining_median_ms": crate::frame_clock::median(bench.refining_ms.clone()),
        "refining_max_ms": bench.refining_ms.iter().copied().fold(0.0f32, f32::max),
        "peak_rss_mb": peak_rss_mb(),
    });
    json.to_string()
}

/// CPU seconds the process has used so far, all threads (Linux `/proc/self/stat`, 10 ms ticks;
/// `None` elsewhere): on a shared machine, the work done, without the waiting.
fn process_cpu_s() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    let (_, rest) = stat.rsplit_once(')')?;
    let mut fields = rest.split_whitespace().skip(11);
    let user: f64 = fields.next()?.parse().ok()?;
    let system: f64 = fields.next()?.parse().ok()?;
    Some((user + system) / 100.0)
}

/// The process's peak resident memory in MiB (Linux; `None` elsewhere).
fn peak_rss_mb() -> Option<f64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kib: f64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib / 1024.0)
}
