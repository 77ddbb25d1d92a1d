//! The egui → three-d bridge: a paint callback that wraps eframe's glow context in a three-d
//! [`Context`] once, keeps the [`Scene`] in a thread-local (the GL thread is the UI thread in eframe
//! native), applies queued uploads and renders into the viewport rectangle.
//!
//! One glow context, shared: three-d draws into egui's framebuffer inside egui's frame, restricted by
//! a scissor box to the viewport's rectangle, and egui restores its own GL state afterwards.

use std::cell::RefCell;
use std::sync::{Arc, Mutex};

use eframe::egui_glow;
use three_d::{Context, RenderTarget, ScissorBox, Viewport};

use super::scene::{FrameParams, Pending, Scene};

thread_local! {
    static SCENE: RefCell<Option<Scene>> = const { RefCell::new(None) };
}

/// Statistics the last paint left for the status bar.
#[derive(Debug, Default, Clone, Copy)]
pub struct PaintStats {
    /// Triangles drawn.
    pub triangles: usize,
    /// Whether the GL context could be wrapped.
    pub failed: bool,
    /// The sun's shadow map waits for a re-render (ground meshes changed).
    pub shadow_pending: bool,
    /// Levels of detail are cross-fading.
    pub fading: bool,
}

/// A paint callback that draws the scene for `params` into `rect`.
pub fn callback(
    rect: eframe::egui::Rect,
    params: FrameParams,
    pending: Arc<Mutex<Pending>>,
    stats: Arc<Mutex<PaintStats>>,
) -> eframe::egui::PaintCallback {
    let cb = egui_glow::CallbackFn::new(move |info, painter| {
        let work = pending.lock().map(|mut p| std::mem::take(&mut *p)).ok();
        SCENE.with(|cell| {
            let mut slot = cell.borrow_mut();
            if slot.is_none() {
                match Context::from_gl_context(painter.gl().clone()) {
                    Ok(ctx) => *slot = Some(Scene::new(ctx)),
                    Err(_) => {
                        if let Ok(mut s) = stats.lock() {
                            s.failed = true;
                        }
                        return;
                    }
                }
            }
            let Some(scene) = slot.as_mut() else {
                return;
            };
            if let Some(work) = work {
                scene.apply(work);
            }
            let vp = info.viewport_in_pixels();
            let clip = info.clip_rect_in_pixels();
            let [w, h] = info.screen_size_px;
            let target = RenderTarget::screen(scene.context(), w, h);
            let viewport = Viewport {
                x: vp.left_px,
                y: vp.from_bottom_px,
                width: vp.width_px.max(1) as u32,
                height: vp.height_px.max(1) as u32,
            };
            let scissor = ScissorBox {
                x: clip.left_px,
                y: clip.from_bottom_px,
                width: clip.width_px.max(0) as u32,
                height: clip.height_px.max(0) as u32,
            };
            scene.render(&target, scissor, viewport, &params);
            if let Ok(mut s) = stats.lock() {
                s.triangles = scene.triangles();
                s.shadow_pending = scene.shadow_pending();
                s.fading = scene.fading();
            }
        });
    });
    eframe::egui::PaintCallback {
        rect,
        callback: Arc::new(cb),
    }
}
