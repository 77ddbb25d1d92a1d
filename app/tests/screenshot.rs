//! The real editor window under Xvfb with Mesa's software GL: open a small world, capture the window,
//! and check that terrain (not the sky clear color) fills the middle of the viewport and that material
//! colors appear. `.ci/run` installs `xvfb` and Mesa; the test fails when they are missing.

mod common;

use common::{new_world, temp_dir, xvfb_screenshot};

const SKY: [u8; 3] = [135, 161, 189];

fn is_sky(p: &[u8]) -> bool {
    p.iter().zip(SKY).all(|(a, b)| a.abs_diff(b) <= 3)
}

#[test]
fn the_viewport_shows_terrain_in_material_colors() {
    let dir = temp_dir("screenshot");
    let world = new_world(&dir, "hills", "hills", "128,64,128", 2);
    common::close_view(&world);
    let shot = dir.join("shot.png");
    let img = xvfb_screenshot(&world, &shot, &dir, &[]);
    let (w, h) = img.dimensions();
    assert!(w >= 1000 && h >= 680, "{w}x{h}");
    // The viewport is right of the tools panel; sample a box around its middle.
    let (cx, cy) = (w * 3 / 5, h / 2);
    let (mut terrain, mut total, mut green) = (0u32, 0u32, 0u32);
    for y in (cy - h / 6)..(cy + h / 6) {
        for x in (cx - w / 8)..(cx + w / 8) {
            let p = img.get_pixel(x, y).0;
            total += 1;
            if !is_sky(&p[..3]) {
                terrain += 1;
            }
            // Hills are grass: green dominates the shaded material color.
            if p[1] > p[0].saturating_add(10) && p[1] > p[2].saturating_add(10) {
                green += 1;
            }
        }
    }
    assert!(
        terrain * 10 >= total * 9,
        "terrain covers {terrain}/{total} of the middle"
    );
    assert!(green * 4 >= total, "grass colors cover {green}/{total}");
    let _ = std::fs::remove_dir_all(&dir);
}
