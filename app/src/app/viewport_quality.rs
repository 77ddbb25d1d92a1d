//! Viewport quality: the full terrain shading or the fast path (Preferences ▸ Viewport quality),
//! and which one draws for a renderer. Software OpenGL (Mesa's llvmpipe) shades every pixel on the
//! CPU, where the full path's per-pixel work and full-detail distant meshes take over twice the
//! fast path's frame time (see `docs/benchmarks.md`); automatic picks the fast path there.
//!
//! A leaf below the preferences (which store the choice) and the software-GL checks (which find
//! the renderer); the viewport takes the decision as a plain flag.

use serde::{Deserialize, Serialize};

/// How the viewport draws the terrain (Preferences ▸ Viewport quality).
///
/// The fast path shades each pixel with one pattern lookup (the plane facing the surface most, not
/// a blend of up to three), one shadow-map tap (not four), and the sun and fill as plain diffuse
/// light (no highlight), and it draws coarser meshes from half the level-of-detail distance on.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum ViewportQuality {
    /// Fast on a software renderer, full otherwise.
    #[default]
    Automatic,
    /// Full shading and detail whatever the renderer.
    Full,
    /// The fast path whatever the renderer.
    Fast,
}

impl ViewportQuality {
    /// Every choice, in the order the Preferences list them.
    pub const ALL: [Self; 3] = [Self::Automatic, Self::Full, Self::Fast];

    /// The command-line and Preferences name.
    pub fn label(self) -> &'static str {
        match self {
            Self::Automatic => "Automatic",
            Self::Full => "Full",
            Self::Fast => "Fast",
        }
    }

    /// The choice named `text` (`auto`, `full` or `fast`, any case).
    pub fn parse(text: &str) -> Option<Self> {
        match text.to_ascii_lowercase().as_str() {
            "auto" | "automatic" => Some(Self::Automatic),
            "full" => Some(Self::Full),
            "fast" => Some(Self::Fast),
            _ => None,
        }
    }
}

/// Whether the viewport draws the fast path: the user's choice, else on a software renderer.
pub fn fast_viewport(quality: ViewportQuality, software: bool) -> bool {
    match quality {
        ViewportQuality::Automatic => software,
        ViewportQuality::Full => false,
        ViewportQuality::Fast => true,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quality_names_parse() {
        for q in ViewportQuality::ALL {
            assert_eq!(ViewportQuality::parse(q.label()), Some(q));
        }
        assert_eq!(
            ViewportQuality::parse("auto"),
            Some(ViewportQuality::Automatic)
        );
        assert_eq!(ViewportQuality::parse("FAST"), Some(ViewportQuality::Fast));
        assert_eq!(ViewportQuality::parse("quick"), None);
        assert_eq!(ViewportQuality::parse(""), None);
    }
}
