//! Anti-aliasing and viewport quality on software OpenGL: Mesa's llvmpipe, softpipe and swrast
//! draw every sample and run every fragment's shader on the CPU, so 4× multisampling costs about
//! 2.6× the frame time there, and the full terrain shading with full-detail distant meshes about
//! 2.5× the fast path's. Unless the user chose otherwise in the Preferences, anti-aliasing is off
//! and the viewport draws the fast path ([`super::viewport_quality`]) on a software renderer, and
//! the editor says so.
//!
//! ```text
//!   window opens ──> GL_RENDERER ──> prefs.gl_renderer (remembered for the next start)
//!   next start: multisampling = antialiasing_on(prefs, software?)   software? = the remembered
//!               renderer, or LIBGL_ALWAYS_SOFTWARE / GALLIUM_DRIVER asking for software
//! ```
//!
//! The sample count is fixed when the window is created, before the renderer can be asked, so the
//! first start on a new machine goes by the environment and later starts by what the last one saw.
//! The viewport quality is a shader and mesh choice, so it follows the renderer the window has.

use super::prefs::Prefs;

/// Names of software rasterizers as they appear in GL_RENDERER.
const SOFTWARE: [&str; 4] = ["llvmpipe", "softpipe", "swrast", "software rasterizer"];

/// True when `renderer` (GL_RENDERER) names a software rasterizer.
pub fn is_software_renderer(renderer: &str) -> bool {
    let r = renderer.to_ascii_lowercase();
    SOFTWARE.iter().any(|s| r.contains(s))
}

/// True when the environment asks Mesa for a software rasterizer.
pub fn env_asks_software() -> bool {
    let var = |k: &str| std::env::var(k).unwrap_or_default().to_ascii_lowercase();
    matches!(var("LIBGL_ALWAYS_SOFTWARE").as_str(), "1" | "true" | "yes")
        || is_software_renderer(&var("GALLIUM_DRIVER"))
}

/// True when the window about to open will most likely draw in software (the renderer the last
/// start saw, or the environment).
pub fn predicted_software(prefs: &Prefs) -> bool {
    env_asks_software()
        || prefs
            .gl_renderer
            .as_deref()
            .is_some_and(is_software_renderer)
}

/// Whether to anti-alias: the user's explicit choice, else on except on a software renderer.
pub fn antialiasing_on(prefs: &Prefs, software: bool) -> bool {
    if prefs.antialiasing_chosen {
        prefs.antialiasing
    } else {
        prefs.antialiasing && !software
    }
}

/// What to tell the user once the window shows `renderer` with anti-aliasing `antialiased`.
pub fn startup_note(prefs: &Prefs, renderer: &str, antialiased: bool) -> Option<String> {
    if !is_software_renderer(renderer) || prefs.antialiasing_chosen {
        return None;
    }
    let name = renderer.split_whitespace().next().unwrap_or(renderer);
    Some(if antialiased {
        format!(
            "Software renderer ({name}): anti-aliasing turns off from the next start for speed \
             (Preferences, Anti-aliasing keeps it)"
        )
    } else {
        format!(
            "Software renderer ({name}): anti-aliasing off for speed (Preferences to turn it on)"
        )
    })
}

#[cfg(test)]
mod tests {
    use super::super::viewport_quality::{fast_viewport, ViewportQuality};
    use super::*;

    #[test]
    fn software_renderers_are_recognised() {
        for r in [
            "llvmpipe (LLVM 15.0.7, 256 bits)",
            "softpipe",
            "Mesa X11 swrast",
            "Mesa DRI SWRAST",
            "GDI Generic Software Rasterizer",
        ] {
            assert!(is_software_renderer(r), "{r}");
        }
        for r in [
            "Mesa Intel(R) UHD Graphics 620 (KBL GT2)",
            "NVIDIA GeForce RTX 3060/PCIe/SSE2",
            "AMD Radeon RX 6600 (radeonsi, navi23, LLVM 15.0.7, DRM 3.49)",
            "SVGA3D; build: RELEASE; LLVM;",
            "",
        ] {
            assert!(!is_software_renderer(r), "{r}");
        }
    }

    #[test]
    fn software_turns_antialiasing_off_unless_the_user_chose() {
        let auto = Prefs::default();
        assert!(antialiasing_on(&auto, false));
        assert!(!antialiasing_on(&auto, true));
        let chosen_on = Prefs {
            antialiasing_chosen: true,
            ..Prefs::default()
        };
        assert!(antialiasing_on(&chosen_on, true));
        let chosen_off = Prefs {
            antialiasing: false,
            antialiasing_chosen: true,
            ..Prefs::default()
        };
        assert!(!antialiasing_on(&chosen_off, false));
        let remembered = Prefs {
            gl_renderer: Some("llvmpipe (LLVM 15.0.7, 256 bits)".into()),
            ..Prefs::default()
        };
        assert!(predicted_software(&remembered));
    }

    #[test]
    fn llvmpipe_draws_the_fast_path_unless_the_user_chose_full() {
        let llvmpipe = is_software_renderer("llvmpipe (LLVM 15.0.7, 256 bits)");
        let gpu = is_software_renderer("NVIDIA GeForce RTX 3060/PCIe/SSE2");
        let auto = Prefs::default().viewport_quality;
        assert_eq!(auto, ViewportQuality::Automatic);
        assert!(fast_viewport(auto, llvmpipe));
        assert!(!fast_viewport(auto, gpu));
        assert!(!fast_viewport(ViewportQuality::Full, llvmpipe));
        assert!(fast_viewport(ViewportQuality::Fast, gpu));
    }

    #[test]
    fn the_note_says_what_happened() {
        let auto = Prefs::default();
        let r = "llvmpipe (LLVM 15.0.7, 256 bits)";
        let off = startup_note(&auto, r, false).expect("a note");
        assert!(off.contains("llvmpipe") && off.contains("off"), "{off}");
        let on = startup_note(&auto, r, true).expect("a note");
        assert!(on.contains("next start"), "{on}");
        assert_eq!(startup_note(&auto, "NVIDIA GeForce RTX 3060", true), None);
        let chosen = Prefs {
            antialiasing_chosen: true,
            ..Prefs::default()
        };
        assert_eq!(startup_note(&chosen, r, true), None);
    }
}
