//! The frame-time run (`strata frames`): once the world is meshed, orbit the camera once around the
//! world's centre over continuously drawn frames, then report frame intervals, time to the first full
//! frame and to the refined view, CPU seconds and peak memory as one JSON line.

use std::sync::{Arc, Mutex};

use eframe::egui;

use super::editor_app::EditorApp;
use super::process_probe::{peak_rss_mb, process_cpu_s};

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

/// Capture and frame-time runs draw continuously, except while a job (opening a file) runs with
/// nothing to show: then the editor's own progress frames only, so drawing does not take the CPU
/// the job needs.
pub(super) fn keep_drawing(app: &EditorApp, ctx: &egui::Context) {
    if app.doc.is_none() && app.busy() {
        ctx.request_repaint_after(crate::app::PROGRESS_FRAME);
    } else {
        ctx.request_repaint();
    }
}

/// One frame of a frame-time run: turn the camera a step around the world's centre, collect the
/// interval the frame clock counted for the previous frame and, after a full orbit, report.
pub(super) fn bench_step(
    app: &mut EditorApp,
    bench: &mut FrameBench,
    ready: bool,
    ctx: &egui::Context,
) {
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
        let report = bench_report(bench, app.viewport.drawn_triangles(), app.viewport.fast());
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
fn bench_report(bench: &FrameBench, triangles: usize, fast_viewport: bool) -> String {
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
        "median_ms": crate::app::frame_clock::median(sorted.clone()),
        "mean_ms": intervals_ms.iter().sum::<f32>() / n as f32,
        "p95_ms": p95,
        "max_ms": sorted.last().copied().unwrap_or(0.0),
        "triangles": triangles,
        "fast_viewport": fast_viewport,
        "first_full_frame_s": bench.first_full_s,
        "refined_s": bench.refined_s,
        "first_full_frame_cpu_s": bench.first_full_cpu_s,
        "refined_cpu_s": bench.refined_cpu_s,
        "refining_frames": bench.refining_ms.len(),
        "refining_median_ms": crate::app::frame_clock::median(bench.refining_ms.clone()),
        "refining_max_ms": bench.refining_ms.iter().copied().fold(0.0f32, f32::max),
        "peak_rss_mb": peak_rss_mb(),
    });
    json.to_string()
}
