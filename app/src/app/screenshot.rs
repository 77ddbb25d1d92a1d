//! Screenshot capture: once the world is shown and settled, save a PNG of the window and close it
//! (the screenshot test and the documentation images, `strata --screenshot`); the PNG writer the
//! camera tour shares.

use std::path::PathBuf;
use std::sync::{Arc, Mutex};

use eframe::egui;

use crate::AppResult;

/// A pending capture: where to save, how many settled frames were seen, and the outcome.
pub(super) struct Capture {
    pub(super) path: PathBuf,
    pub(super) frames_ready: u32,
    pub(super) requested: bool,
    pub(super) result: Arc<Mutex<Option<AppResult<()>>>>,
}

impl Capture {
    /// One frame: count settled frames (`ready`), request the screenshot after a few, and close the
    /// window once it is written.
    pub(super) fn on_frame(&mut self, ready: bool, ctx: &egui::Context) {
        if self.requested {
            if self.result.lock().is_ok_and(|r| r.is_some()) {
                ctx.send_viewport_cmd(egui::ViewportCommand::Close);
            }
        } else if !ready {
            self.frames_ready = 0;
        } else {
            self.frames_ready += 1;
            // A few frames so uploads reach the GPU and the layout settles.
            if self.frames_ready >= 5 {
                self.requested = true;
                let path = self.path.clone();
                let slot = self.result.clone();
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
    }
}

/// Write the window image as a PNG at `path`.
pub(super) fn save_png(path: &std::path::Path, image: &egui::ColorImage) -> AppResult<()> {
    let [w, h] = image.size;
    let rgba: Vec<u8> = image.pixels.iter().flat_map(|c| c.to_array()).collect();
    let png = crate::files::png::encode_rgba(&rgba, w as u32, h as u32, path)?;
    strata_engine::format::write_atomic(path, &png)?;
    Ok(())
}
