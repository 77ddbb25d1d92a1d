//! The viewport tells materials apart by their look, not only their colour: for each of Rock,
//! Cobblestone, Concrete, Pavement, Sand and Snow, a world of only that material (flat ground and a
//! raised block, so walls show too) is opened in the real editor under Xvfb with Mesa's software GL
//! and captured; the terrain pixels of each capture give a descriptor (mean colour, spread of
//! brightness, pixel-to-pixel detail), and every pair of materials must differ clearly in it, on
//! the viewport's full path and on its fast one (Preferences ▸ Viewport quality).
//! `.ci/run` installs `xvfb` and Mesa; the test fails when they are missing.

mod common;

use std::path::Path;

use common::{ok, s, temp_dir, xvfb_screenshot};

const SKY: [u8; 3] = [135, 161, 189];
const SIX: [&str; 6] = [
    "Rock",
    "Cobblestone",
    "Concrete",
    "Pavement",
    "Sand",
    "Snow",
];

/// Mean sRGB, standard deviation of luminance, mean absolute luminance step to the right-hand
/// neighbour.
#[derive(Debug, Clone, Copy)]
struct Descriptor {
    mean: [f32; 3],
    spread: f32,
    detail: f32,
}

fn luminance(p: &[u8]) -> f32 {
    0.2126 * f32::from(p[0]) + 0.7152 * f32::from(p[1]) + 0.0722 * f32::from(p[2])
}

fn is_sky(p: &[u8]) -> bool {
    p.iter().zip(SKY).all(|(a, b)| a.abs_diff(b) <= 6)
}

fn capture(dir: &Path, material: &str, quality: &str) -> Descriptor {
    let world = dir.join(format!("{material}-{quality}.strata"));
    let w = s(&world);
    ok(&["new", w, "--preset", "flat", "--size", "96,32,96"]);
    ok(&["delete", w, "--box", "0,0,0,96,32,96"]);
    ok(&["fill", w, "--box", "0,0,0,96,10,96", "--material", material]);
    ok(&[
        "fill",
        w,
        "--box",
        "24,10,24,72,22,72",
        "--material",
        material,
    ]);
    common::close_view(&world);
    let shot = dir.join(format!("{material}-{quality}.png"));
    let extra = ["--viewport-quality", quality];
    let img = image::DynamicImage::ImageRgba8(xvfb_screenshot(Path::new(w), &shot, dir, &extra))
        .to_rgb8();
    let (iw, ih) = img.dimensions();
    // The middle of the viewport (right of the tools panel, left of the panels column).
    let (x0, x1, y0, y1) = (iw * 3 / 10, iw * 6 / 10, ih * 3 / 10, ih * 7 / 10);
    let (mut n, mut sum, mut sum_l, mut sum_l2, mut steps, mut step_sum) =
        (0f32, [0f32; 3], 0f32, 0f32, 0f32, 0f32);
    for y in y0..y1 {
        for x in x0..x1 {
            let p = img.get_pixel(x, y).0;
            let q = img.get_pixel(x + 1, y).0;
            if is_sky(&p) {
                continue;
            }
            n += 1.0;
            for k in 0..3 {
                sum[k] += f32::from(p[k]);
            }
            let l = luminance(&p);
            sum_l += l;
            sum_l2 += l * l;
            if !is_sky(&q) {
                steps += 1.0;
                step_sum += (luminance(&q) - l).abs();
            }
        }
    }
    let total = ((x1 - x0) * (y1 - y0)) as f32;
    assert!(n > 0.8 * total, "{material}: terrain covers {n}/{total}");
    let mean_l = sum_l / n;
    Descriptor {
        mean: sum.map(|v| v / n),
        spread: (sum_l2 / n - mean_l * mean_l).max(0.0).sqrt(),
        detail: step_sum / steps.max(1.0),
    }
}

/// How clearly two descriptors differ: the largest of the colour distance (sRGB units), and the
/// spread and detail differences relative to the larger one (×100).
fn difference(a: &Descriptor, b: &Descriptor) -> f32 {
    let colour = (0..3)
        .map(|k| (a.mean[k] - b.mean[k]).powi(2))
        .sum::<f32>()
        .sqrt();
    let rel = |x: f32, y: f32| 100.0 * (x - y).abs() / x.max(y).max(1.0);
    colour
        .max(rel(a.spread, b.spread))
        .max(rel(a.detail, b.detail))
}

#[test]
fn the_six_materials_render_distinguishably() {
    let dir = temp_dir("material-looks");
    for quality in ["full", "fast"] {
        let d: Vec<Descriptor> = SIX.iter().map(|m| capture(&dir, m, quality)).collect();
        for (m, x) in SIX.iter().zip(&d) {
            eprintln!("{quality} {m:12} {x:?}");
        }
        for i in 0..SIX.len() {
            for j in i + 1..SIX.len() {
                let diff = difference(&d[i], &d[j]);
                assert!(
                    diff >= 20.0,
                    "{quality}: {} and {} look alike (difference {diff:.1}): {:?} vs {:?}",
                    SIX[i],
                    SIX[j],
                    d[i],
                    d[j]
                );
            }
        }
        // The detail is procedural texture, not flat colour: stones, slabs, strata and grains vary
        // from pixel to pixel well beyond smooth concrete and snow.
        let smooth = d[2].detail.max(d[5].detail);
        for i in [0, 1, 3, 4] {
            assert!(
                d[i].detail > 2.0 * smooth,
                "{quality}: {} {:?} is not more detailed than concrete and snow ({smooth})",
                SIX[i],
                d[i]
            );
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}
