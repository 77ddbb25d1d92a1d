//! The real-time sun previews the bake: a wall on a flat field, drawn once with the real-time sun
//! alone and once with the baked light alone (the real editor under Xvfb, Mesa's software GL, the
//! same camera), casts its shadow the same way and as dark in both, on the viewport's full path
//! (four shadow taps per pixel) and on its fast one (one tap per vertex).

mod common;

use common::{ok, s, temp_dir};
use strata::app::{LEFT_WIDTH, RIGHT_WIDTH};

/// The editor's view of `world` from a fixed camera with `light_view`, as an image.
fn view(
    world: &std::path::Path,
    dir: &std::path::Path,
    light_view: &str,
    quality: &str,
) -> image::RgbaImage {
    let camera = dir.join("camera.json");
    std::fs::write(
        &camera,
        r#"[{"eye": [-6, 44, 110], "target": [36, 10, 40]}]"#,
    )
    .expect("camera path");
    let shots = dir.join(format!("shots-{light_view}-{quality}"));
    common::xvfb_strata(
        dir,
        &[
            "open",
            s(world),
            "--camera-path",
            s(&camera),
            "--screenshots",
            s(&shots),
            "--window-size",
            "1280,800",
            "--light-view",
            light_view,
            "--viewport-quality",
            quality,
        ],
    );
    image::open(shots.join("000-settled.png"))
        .expect("screenshot PNG")
        .to_rgba8()
}

/// Linear light of an sRGB byte.
fn linear(b: u8) -> f64 {
    let c = f64::from(b) / 255.0;
    if c < 0.04045 {
        c / 12.92
    } else {
        ((c + 0.055) / 1.055).powf(2.4)
    }
}

/// The grass pixels of the viewport as linear luminance, sorted, and where each is.
fn grass(img: &image::RgbaImage) -> Vec<(f64, u32, u32)> {
    let (w, h) = img.dimensions();
    let (left, right) = (LEFT_WIDTH as u32 + 8, w - RIGHT_WIDTH as u32 - 8);
    let mut out = Vec::new();
    for y in 40..h - 40 {
        for x in left..right {
            let p = img.get_pixel(x, y).0;
            let [r, g, b] = [p[0], p[1], p[2]].map(i32::from);
            // Grass, lit or shaded: green clearly above red and blue.
            if g > r + 8 && g > b + 8 {
                let [r, g, b] = [p[0], p[1], p[2]].map(linear);
                out.push((0.2126 * r + 0.7152 * g + 0.0722 * b, x, y));
            }
        }
    }
    out.sort_by(|a, b| a.0.total_cmp(&b.0));
    out
}

/// Mean luminance of the darkest and of the brightest grass pixels (between the given shares of
/// the sorted list), and the pixels of the darkest tenth.
fn levels(g: &[(f64, u32, u32)]) -> (f64, f64, Vec<(u32, u32)>) {
    let mean = |lo: f64, hi: f64| {
        let (a, b) = (
            (g.len() as f64 * lo) as usize,
            (g.len() as f64 * hi) as usize,
        );
        g[a..b].iter().map(|p| p.0).sum::<f64>() / (b - a) as f64
    };
    let dark = g[..g.len() / 10].iter().map(|p| (p.1, p.2)).collect();
    (mean(0.02, 0.10), mean(0.50, 0.90), dark)
}

#[test]
fn real_time_sun_shadows_match_the_baked_ones() {
    let dir = temp_dir("sun-shadows");
    let world = dir.join("wall.strata");
    let w = s(&world);
    ok(&[
        "new", w, "--preset", "flat", "--size", "96,48,96", "--seed", "1",
    ]);
    ok(&[
        "fill",
        w,
        "--box",
        "40,12,30,44,36,66",
        "--material",
        "Rock",
    ]);
    ok(&["bake", w]);
    for quality in ["full", "fast"] {
        let real_time = view(&world, &dir, "realtime", quality);
        let baked = view(&world, &dir, "baked", quality);
        let (rt, bk) = (grass(&real_time), grass(&baked));
        assert!(
            rt.len() > 50_000 && bk.len() > 50_000,
            "{quality}: grass fills the view: {} / {} pixels",
            rt.len(),
            bk.len()
        );
        let (rt_shadow, rt_lit, rt_dark) = levels(&rt);
        let (bk_shadow, bk_lit, bk_dark) = levels(&bk);
        let (rt_ratio, bk_ratio) = (rt_shadow / rt_lit, bk_shadow / bk_lit);
        eprintln!("{quality}: shadow / lit: real-time {rt_ratio:.3}, baked {bk_ratio:.3}");
        // A real shadow in both (not just shading noise), and the same strength.
        assert!(rt_ratio < 0.5 && bk_ratio < 0.5, "{rt_ratio} {bk_ratio}");
        assert!(
            (rt_ratio - bk_ratio).abs() < 0.06,
            "{quality}: shadow strength: real-time {rt_ratio:.3}, baked {bk_ratio:.3}"
        );
        // The same direction: the darkest tenth of the grass lies in the same place in both views.
        let set: std::collections::HashSet<(u32, u32)> = rt_dark.iter().copied().collect();
        let shared = bk_dark.iter().filter(|p| set.contains(p)).count();
        assert!(
            shared * 2 > bk_dark.len(),
            "{quality}: the shadows overlap on {shared} of {} pixels",
            bk_dark.len()
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}
