//! `strata render` and `strata import --format heightmap` as scripts use them: real processes, PNG
//! files decoded back with the `image` crate, and messages that name the bad file.

mod common;

use std::path::Path;

use common::{fails, ok, s, temp_dir};
use image::{ImageBuffer, Luma, Rgb};
use serde_json::Value;

/// Decode a PNG the CLI wrote.
fn decode(path: &Path) -> image::RgbaImage {
    image::open(path).expect("a readable PNG").to_rgba8()
}

/// A 16-bit heightmap rising along X, with a ridge along Z, `w × d` pixels.
fn write_heightmap(path: &Path, w: u32, d: u32) {
    let img = ImageBuffer::from_fn(w, d, |x, z| {
        let ramp = x * 40000 / w;
        let ridge = if z == d / 2 { 8000 } else { 0 };
        Luma([(ramp + ridge) as u16])
    });
    img.save(path).expect("writes the heightmap");
}

fn info(path: &Path) -> Value {
    let out = ok(&["info", s(path), "--json"]);
    serde_json::from_slice(&out.stdout).expect("json")
}

#[test]
fn render_a_generated_world_to_png() {
    let d = temp_dir("render");
    let w = d.join("w.strata");
    ok(&["new", s(&w), "--size", "96,48,80", "--seed", "3"]);
    let png = d.join("map.png");
    ok(&["render", s(&w), s(&png)]);
    let img = decode(&png);
    // Default: 512 on the longer side, the world's 96:80 aspect.
    assert_eq!(img.dimensions(), (512, 427));
    let centre = img.get_pixel(256, 213).0;
    assert_eq!(centre[3], 255, "centre is background: {centre:?}");
    assert!(
        centre[..3].iter().any(|&c| c > 20),
        "centre is black: {centre:?}"
    );
    // The world fills the frame: corners are drawn too.
    assert_eq!(img.get_pixel(1, 1).0[3], 255);
    ok(&["render", s(&w), s(&png), "--size", "64,40"]);
    assert_eq!(decode(&png).dimensions(), (64, 40));
}

#[test]
fn render_rejects_bad_arguments_and_files() {
    let d = temp_dir("render-bad");
    let png = d.join("out.png");
    let e = fails(&["render", s(&d.join("missing.strata")), s(&png)]);
    assert!(e.contains("missing.strata"), "{e}");
    let w = d.join("w.strata");
    ok(&["new", s(&w), "--size", "32,32,32", "--preset", "flat"]);
    for size in ["0,10", "10", "20000,10", "a,b"] {
        let e = fails(&["render", s(&w), s(&png), "--size", size]);
        assert!(e.contains("--size"), "{size}: {e}");
    }
    assert!(!png.exists());
}

#[test]
fn heightmap_import_then_info_and_render() {
    let d = temp_dir("heightmap");
    let map = d.join("map.png");
    write_heightmap(&map, 40, 24);
    let out = d.join("hm.strata");
    // The format follows from the .png extension.
    ok(&["import", s(&map), s(&out), "--height", "32"]);
    let j = info(&out);
    assert_eq!(j["bounds"]["size"], serde_json::json!([40, 32, 24]));
    assert!(j["nonair_voxels"].as_u64().expect("count") > 0);
    // Resampled to a larger world.
    let big = d.join("big.strata");
    ok(&[
        "import",
        s(&map),
        s(&big),
        "--format",
        "heightmap",
        "--size",
        "80,48",
        "--height",
        "20",
    ]);
    assert_eq!(
        info(&big)["bounds"]["size"],
        serde_json::json!([80, 20, 48])
    );
    let png = d.join("hm.png");
    ok(&["render", s(&big), s(&png), "--size", "80,48"]);
    let img = decode(&png);
    assert_eq!(img.get_pixel(60, 24).0[3], 255);
}

#[test]
fn colormap_sets_materials_and_must_match() {
    let d = temp_dir("colormap");
    let map = d.join("map.png");
    write_heightmap(&map, 16, 8);
    // Brick's colour everywhere.
    let colors = d.join("colors.png");
    ImageBuffer::from_pixel(16, 8, Rgb([148u8, 72, 56]))
        .save(&colors)
        .expect("writes");
    let out = d.join("c.strata");
    ok(&["import", s(&map), s(&out), "--colormap", s(&colors)]);
    let by = &info(&out)["voxels_by_material"];
    assert!(by["Brick"].as_u64().expect("count") > 0, "{by}");
    assert_eq!(by["Grass"].as_u64(), Some(0), "{by}");
    let wrong = d.join("wrong.png");
    ImageBuffer::from_pixel(15, 8, Rgb([0u8, 0, 0]))
        .save(&wrong)
        .expect("writes");
    let e = fails(&["import", s(&map), s(&out), "--colormap", s(&wrong)]);
    assert!(e.contains("wrong.png") && e.contains("15x8"), "{e}");
    let e = fails(&[
        "import",
        s(&map),
        s(&out),
        "--format",
        "raw",
        "--height",
        "9",
    ]);
    assert!(e.contains("--height"), "{e}");
}

#[test]
fn corrupt_png_is_an_error_naming_the_file() {
    let d = temp_dir("badpng");
    let out = d.join("o.strata");
    let garbage = d.join("garbage.png");
    std::fs::write(&garbage, b"this is not a png at all").expect("writes");
    let e = fails(&["import", s(&garbage), s(&out)]);
    assert!(e.contains("garbage.png"), "{e}");
    // A real PNG cut short.
    let map = d.join("map.png");
    write_heightmap(&map, 32, 32);
    let bytes = std::fs::read(&map).expect("reads");
    let cut = d.join("cut.png");
    std::fs::write(&cut, &bytes[..bytes.len() / 2]).expect("writes");
    let e = fails(&["import", s(&cut), s(&out)]);
    assert!(e.contains("cut.png"), "{e}");
    let e = fails(&["import", s(&map), s(&out), "--colormap", s(&garbage)]);
    assert!(e.contains("garbage.png"), "{e}");
    assert!(!out.exists());
}
