//! What the GL context says about itself: the renderer's name (GL_RENDERER), read once when the
//! window opens so the editor can tell a software rasterizer (see `app::software_gl`).

use eframe::glow::{self, HasContext};

/// The GL_RENDERER string of `gl` (e.g. `llvmpipe (LLVM 15.0.7, 256 bits)`).
#[expect(
    unsafe_code,
    reason = "glow's parameter queries are unsafe; GL_RENDERER is a plain string query"
)]
pub fn renderer(gl: &glow::Context) -> String {
    // SAFETY: called on the thread that owns the current context (eframe's creation callback),
    // GL_RENDERER is valid in every GL version, and glow copies the returned string.
    unsafe { gl.get_parameter_string(glow::RENDERER) }
}
