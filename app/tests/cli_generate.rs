//! `strata new` with biomes and `strata import` of heightmaps, as scripts use them: real processes,
//! exit codes, files and JSON.

mod common;

use common::{fails, ok, s, temp_dir};

use image::{ImageBuffer, Luma};
use serde_json::{json, Value};
use strata_engine::format::project::Project;

fn info(path: &std::path::Path) -> Value {
    let out = ok(&["info", s(path), "--json"]);
    serde_json::from_slice(&out.stdout).expect("json")
}

#[test]
fn biomes_are_generated_and_recorded() {
    let d = temp_dir("biomes");
    let w = d.join("mix.strata");
    ok(&[
        "new",
        s(&w),
        "--biomes",
        "hills,mountains,canyons",
        "--biome-size",
        "48",
        "--caves",
        "off",
        "--size",
        "96,64,80",
        "--seed",
        "4",
    ]);
    let g = &info(&w)["generator"];
    assert_eq!(g["preset"], "custom");
    assert_eq!(g["size"], json!([96, 64, 80]));
    assert_eq!(g["seed"], 4);
    assert_eq!(g["biomes"], json!(["hills", "mountains", "canyons"]));
    assert_eq!(g["biome_size"], 48);
    assert_eq!(g["caves"], false);
    // The same settings give the same file, byte for byte.
    let again = d.join("again.strata");
    ok(&[
        "new",
        s(&again),
        "--biomes",
        "hills,mountains,canyons",
        "--biome-size",
        "48",
        "--caves",
        "off",
        "--size",
        "96,64,80",
        "--seed",
        "4",
    ]);
    let (a, b) = (
        Project::load(&w).expect("load"),
        Project::load(&again).expect("load"),
    );
    assert!(a.grid == b.grid);
    // A preset still reports its preset, with the biome fields added.
    let p = d.join("preset.strata");
    ok(&["new", s(&p), "--preset", "canyons", "--size", "64,48,64"]);
    let g = &info(&p)["generator"];
    assert_eq!(g["preset"], "canyons");
    assert_eq!(g["size"], json!([64, 48, 64]));
    assert_eq!(g["seed"], 1);
    assert_eq!(g["biomes"], json!(["canyons"]));
    assert_eq!(g["caves"], false);
    // --caves overrides a preset's choice.
    ok(&[
        "new",
        s(&p),
        "--preset",
        "canyons",
        "--caves",
        "on",
        "--size",
        "64,48,64",
    ]);
    assert_eq!(info(&p)["generator"]["caves"], true);
}

#[test]
fn bad_biome_input_fails_clearly_and_writes_nothing() {
    let d = temp_dir("bad-biomes");
    let w = d.join("w.strata");
    let cases: [(&[&str], &str); 6] = [
        (&["--biomes", "hills,volcano"], "unknown biome \"volcano\""),
        (&["--biomes", ""], "empty"),
        (&["--biomes", "hills", "--biome-size", "0"], "biome size 0"),
        (&["--biomes", "hills", "--biome-size", "99999"], "16384"),
        (
            &["--preset", "hills", "--biomes", "dunes"],
            "cannot be used with",
        ),
        (&["--preset", "hills", "--biome-size", "64"], "--biomes"),
    ];
    for (args, wanted) in cases {
        let mut all = vec!["new", s(&w), "--size", "32,32,32"];
        all.extend_from_slice(args);
        let err = fails(&all);
        assert!(err.contains(wanted), "{args:?}: {err}");
        assert!(!w.exists(), "{args:?} wrote a file");
    }
    assert!(fails(&["new", s(&w), "--biomes", "hills", "--caves", "maybe"]).contains("maybe"));
}

/// Write a 16-bit grayscale PNG of `side²` pixels from `f(x, z)` in `0..=1`.
fn write_png(path: &std::path::Path, side: u32, f: impl Fn(u32, u32) -> f64) {
    let px: Vec<u16> = (0..side * side)
        .map(|i| (f(i % side, i / side) * 65535.0).round() as u16)
        .collect();
    ImageBuffer::<Luma<u16>, Vec<u16>>::from_raw(side, side, px)
        .expect("pixels")
        .save(path)
        .expect("png");
}

#[test]
fn heightmap_import_keeps_a_floor_and_smooths_on_request() {
    let d = temp_dir("heightmap");
    let map = d.join("pits.png");
    // Black pits in a grey plain.
    write_png(&map, 64, |x, z| {
        if (20..30).contains(&x) && (20..40).contains(&z) {
            0.0
        } else {
            0.5
        }
    });
    let w = d.join("pits.strata");
    ok(&["import", s(&map), s(&w), "--height", "64"]);
    let p = Project::load(&w).expect("load");
    for z in 0..64 {
        for x in 0..64 {
            let v = p.grid.get(strata_engine::voxel::VoxelPos::new(x, 0, z));
            assert_eq!(v.occupancy_f32(), 1.0, "hole at ({x}, {z})");
        }
    }
    ok(&["import", s(&map), s(&w), "--height", "64", "--smooth"]);
    ok(&["import", s(&map), s(&w), "--height", "64", "--smooth", "3"]);
    let err = fails(&["import", s(&map), s(&w), "--smooth", "65"]);
    assert!(err.contains("smoothing radius 65"), "{err}");
    let raw = d.join("x.raw");
    std::fs::write(&raw, [0u8; 2]).expect("raw");
    let err = fails(&["import", s(&raw), s(&w), "--size", "1,1,1", "--smooth", "2"]);
    assert!(err.contains("--smooth"), "{err}");
}

#[test]
fn a_png_larger_than_the_largest_world_is_refused() {
    let d = temp_dir("huge");
    let map = d.join("huge.png");
    let side = strata_engine::gen::MAX_HORIZONTAL_SIZE + 1;
    ImageBuffer::<Luma<u8>, Vec<u8>>::from_raw(side, 2, vec![0; side as usize * 2])
        .expect("pixels")
        .save(&map)
        .expect("png");
    let out = d.join("huge.strata");
    let err = fails(&["import", s(&map), s(&out)]);
    assert!(err.contains("16385x2") && err.contains("16384"), "{err}");
    assert!(!out.exists());
}
