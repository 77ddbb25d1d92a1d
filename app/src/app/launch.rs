//! Starting the desktop editor: eframe with the glow renderer (three-d shares its GL context) and
//! multisampled anti-aliasing (off on software GL unless chosen, [`super::viewport_quality`]). Three
//! modes ride on the same window: a capture that saves a screenshot once the world is meshed and
//! exits (`screenshot.rs`), a camera tour that visits a list of views taking screenshots
//! ([`super::camera_tour`]), and a frame-time run that orbits the camera and reports frame
//! intervals ([`super::frame_bench`], `strata frames`).

use std::path::PathBuf;
use std::sync::{Arc, Mutex};

use eframe::egui;

use super::camera_tour::{CameraStop, CameraTour, TourStep};
use super::editor_app::{EditorApp, Start};
pub use super::frame_bench::FrameBench;
use super::frame_bench::{bench_step, keep_drawing};
use super::screenshot::Capture;
use super::software_gl;
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
    /// [`super::camera_tour`]).
    pub tour: Option<(Vec<CameraStop>, PathBuf)>,
    /// The colour behind the terrain instead of the sky (sRGB bytes; tests pick one no terrain
    /// has).
    pub background: Option<[u8; 3]>,
    /// Which light the terrain shows (`None`: the viewport's default, baked under the real-time sun).
    pub light_view: Option<crate::viewport::LightView>,
    /// Viewport quality for this session (`None`: the preference).
    pub quality: Option<super::viewport_quality::ViewportQuality>,
}

/// Samples per pixel of the window's multisampled anti-aliasing.
pub const DEFAULT_MSAA: u16 = 4;

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
    let prefs = crate::app::prefs::Prefs::load(crate::app::prefs::config_dir().as_deref());
    let remembered = prefs.window_size.filter(|_| !prefs.window_maximized);
    let maximize = options.size.is_none() && remembered.is_none();
    let [w, h] = options.size.or(remembered).unwrap_or([1280.0, 800.0]);
    let antialiased = msaa.map_or_else(
        || software_gl::antialiasing_on(&prefs, software_gl::predicted_software(&prefs)),
        |m| m > 0,
    );
    let native = eframe::NativeOptions {
        viewport: egui::ViewportBuilder::default()
            .with_inner_size([w, h])
            .with_min_inner_size([640.0, 400.0])
            .with_maximized(maximize)
            .with_title("Strata"),
        renderer: eframe::Renderer::Glow,
        depth_buffer: 24,
        multisampling: msaa.unwrap_or(if antialiased { DEFAULT_MSAA } else { 0 }),
        ..Default::default()
    };
    let result: Arc<Mutex<Option<AppResult<()>>>> = Arc::default();
    let shell_result = result.clone();
    let tour = options
        .tour
        .map(|(stops, dir)| CameraTour::new(stops, dir))
        .transpose()?;
    let tour_failure: Arc<Mutex<Option<AppError>>> = Arc::default();
    let shell_failure = tour_failure.clone();
    let capture = options.screenshot.map(|path| Capture {
        path,
        frames_ready: 0,
        requested: false,
        result: result.clone(),
    });
    eframe::run_native(
        "Strata",
        native,
        Box::new(move |cc| {
            let mut app = EditorApp::desktop(start, cc.gl.is_some());
            if let Some(gl) = cc.gl.as_deref() {
                app.renderer_found(crate::viewport::gl_info::renderer(gl), antialiased);
            }
            if let Some(rgb) = options.background {
                app.viewport.background = rgb.map(|c| f32::from(c) / 255.0);
            }
            if let Some(view) = options.light_view {
                app.viewport.set_light_view(view);
                if let Some(lighting) = app.panels.get_mut::<crate::lighting::LightingPanel>() {
                    lighting.view = view;
                }
            }
            if let Some(lod) = options.lod {
                app.viewport.meshes.lod_enabled = lod;
                app.lod_override = Some(lod);
            }
            app.window_size_override = options.size.is_some();
            if options.quality.is_some() {
                app.quality_override = options.quality;
                app.apply_viewport_quality();
            }
            app.hide_cursor = capture.is_some() || tour.is_some();
            Ok(Box::new(Shell {
                app,
                capture,
                bench,
                result: shell_result,
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

struct Shell {
    app: EditorApp,
    capture: Option<Capture>,
    bench: Option<FrameBench>,
    /// The run's outcome, read after the window closes.
    result: Arc<Mutex<Option<AppResult<()>>>>,
    tour: Option<CameraTour>,
    tour_failure: Arc<Mutex<Option<AppError>>>,
}

impl Shell {
    /// A run that nobody watches (a capture, a camera tour or a frame measurement) whose project
    /// did not load: the load error, so the run ends with it instead of waiting for a world that
    /// never comes.
    fn unattended_failure(&self) -> Option<String> {
        let unattended = self.capture.is_some() || self.bench.is_some() || self.tour.is_some();
        (unattended && self.app.doc.is_none() && !self.app.busy())
            .then(|| self.app.dialogs.error.clone())
            .flatten()
    }
}

impl eframe::App for Shell {
    fn ui(&mut self, ui: &mut egui::Ui, _frame: &mut eframe::Frame) {
        self.app.run(ui);
        let ctx = ui.ctx().clone();
        if let Some(error) = self.unattended_failure() {
            if let Ok(mut slot) = self.result.lock() {
                slot.get_or_insert(Err(AppError::Usage(error)));
            }
            self.app.dialogs.error = None;
            self.capture = None;
            self.bench = None;
            ctx.send_viewport_cmd(egui::ViewportCommand::Close);
            return;
        }
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
        capture.on_frame(ready, &ctx);
        keep_drawing(&self.app, &ctx);
    }
}
