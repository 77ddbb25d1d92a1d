//! Starting the desktop editor: eframe with the glow renderer (three-d shares its GL context), and an
//! optional capture mode that saves a screenshot of the window once the world is meshed and exits,
//! used by the screenshot test and for documentation images.

use std::path::PathBuf;
use std::sync::{Arc, Mutex};

use eframe::egui;

use crate::app::{EditorApp, Start};
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
}

/// Run the editor until its window closes.
///
/// # Errors
/// When no window or GL context can be created, or the screenshot cannot be written.
pub fn run(start: Start, options: RunOptions) -> AppResult<()> {
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
        ..Default::default()
    };
    let result: Arc<Mutex<Option<AppResult<()>>>> = Arc::default();
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
            if let Some(lod) = options.lod {
                app.viewport.meshes.lod_enabled = lod;
            }
            Ok(Box::new(Shell { app, capture }))
        }),
    )
    .map_err(|e| AppError::Usage(format!("could not open the editor window: {e}")))?;
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
}

impl eframe::App for Shell {
    fn ui(&mut self, ui: &mut egui::Ui, _frame: &mut eframe::Frame) {
        self.app.run(ui);
        let ctx = ui.ctx().clone();
        let Some(capture) = self.capture.as_mut() else {
            return;
        };
        let ready =
            self.app.doc.is_some() && !self.app.busy() && self.app.viewport.stale_chunks() == 0;
        if capture.requested {
            if capture.result.lock().is_ok_and(|r| r.is_some()) {
                ctx.send_viewport_cmd(egui::ViewportCommand::Close);
            }
        } else if ready {
            capture.frames_ready += 1;
            // A few frames so uploads reach the GPU and the layout settles.
            if capture.frames_ready >= 5 {
                capture.requested = true;
                let path = capture.path.clone();
                let slot = capture.result.clone();
                let repaint = ctx.clone();
                ctx.request_screenshot(move |image| {
                    let r = save_png(&path, &image);
                    if let Ok(mut s) = slot.lock() {
                        *s = Some(r);
                    }
                    repaint.request_repaint();
                });
            }
        }
        ctx.request_repaint();
    }
}

fn save_png(path: &std::path::Path, image: &egui::ColorImage) -> AppResult<()> {
    let [w, h] = image.size;
    let rgba: Vec<u8> = image.pixels.iter().flat_map(|c| c.to_array()).collect();
    let png = crate::png::encode_rgba(&rgba, w as u32, h as u32, path)?;
    strata_engine::format::write_atomic(path, &png)?;
    Ok(())
}
