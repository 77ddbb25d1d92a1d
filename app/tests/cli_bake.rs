//! `strata bake`, `strata export --format light` and the lit mesh exports and render, as scripts use
//! them: real processes, files read back, and clear errors for bad input.

mod common;

use std::path::{Path, PathBuf};

use common::{fails, ok, s, temp_dir};
use serde_json::Value;

const QUICK: [&str; 4] = ["--particles", "4", "--steps", "8"];

fn world(dir: &Path) -> PathBuf {
    let w = dir.join("w.strata");
    ok(&["new", s(&w), "--size", "64,40,48", "--seed", "5"]);
    w
}

fn bake_json(args: &[&str]) -> Value {
    let out = ok(args);
    serde_json::from_slice(&out.stdout).expect("bake --json prints JSON")
}

#[test]
fn bake_in_place_keeps_a_backup_and_reports_json() {
    let d = temp_dir("bake");
    let w = world(&d);
    let before = std::fs::read(&w).expect("read");
    let mut args = vec!["bake", s(&w), "--json"];
    args.extend(QUICK);
    let report = bake_json(&args);
    for key in [
        "surface_voxels",
        "walk_steps",
        "seconds",
        "steps_per_second",
        "mean_light_by_material",
    ] {
        assert!(report.get(key).is_some(), "missing {key}: {report}");
    }
    assert!(report["surface_voxels"].as_u64().expect("count") > 64 * 48);
    assert!(report["walk_steps"].as_u64().expect("steps") > 0);
    let grass = &report["mean_light_by_material"]["Grass"];
    assert_eq!(grass.as_array().map(Vec::len), Some(3), "{report}");
    assert!(grass[0].as_f64().expect("r") > 0.1);
    let bak = d.join("w.strata.bak");
    assert_eq!(std::fs::read(&bak).expect("backup"), before);
    assert_ne!(std::fs::read(&w).expect("baked"), before);
    // The light exports as 3 bytes per voxel: lit on the surface, 0 under it.
    let raw = d.join("light.raw");
    ok(&[
        "export",
        s(&w),
        s(&raw),
        "--format",
        "light",
        "--box",
        "0,0,0,64,40,48",
    ]);
    let bytes = std::fs::read(&raw).expect("raw");
    assert_eq!(bytes.len(), 3 * 64 * 40 * 48);
    assert!(bytes.iter().any(|&b| b > 0));
    let k = 3 * ((10 * 40 + 1) * 64 + 10);
    assert_eq!(
        &bytes[k..k + 3],
        &[0, 0, 0],
        "voxel 10,1,10 is buried under the hills"
    );
    let dark = bytes.chunks(3).filter(|c| c == &[0, 0, 0]).count();
    assert!(
        dark > 64 * 40 * 48 / 2,
        "air and buried voxels carry no light"
    );
}

#[test]
fn bake_to_another_file_and_any_thread_count_gives_the_same_bytes() {
    let d = temp_dir("bake-out");
    let w = world(&d);
    let before = std::fs::read(&w).expect("read");
    let (one, two) = (d.join("one.strata"), d.join("two.strata"));
    for (out, threads) in [(&one, "1"), (&two, "2")] {
        let mut args = vec![
            "bake",
            s(&w),
            "-o",
            s(out),
            "--threads",
            threads,
            "--seed",
            "9",
        ];
        args.extend(QUICK);
        ok(&args);
    }
    assert_eq!(
        std::fs::read(&w).expect("source"),
        before,
        "-o leaves FILE alone"
    );
    assert!(!d.join("w.strata.bak").exists());
    assert_eq!(
        std::fs::read(&one).expect("one"),
        std::fs::read(&two).expect("two"),
        "1 and 2 threads bake identical files"
    );
}

#[test]
fn lit_exports_and_renders_use_the_light_unless_told_not_to() {
    let d = temp_dir("bake-export");
    let w = world(&d);
    let plain_obj = d.join("plain.obj");
    ok(&["export", s(&w), s(&plain_obj)]);
    let plain_png = d.join("plain.png");
    ok(&["render", s(&w), s(&plain_png), "--size", "64,48"]);
    let mut args = vec!["bake", s(&w)];
    args.extend(QUICK);
    ok(&args);
    let (lit_obj, unlit_obj) = (d.join("lit.obj"), d.join("unlit.obj"));
    ok(&["export", s(&w), s(&lit_obj)]);
    ok(&["export", s(&w), s(&unlit_obj), "--no-light"]);
    let text = |p: &Path| std::fs::read_to_string(p).expect("obj");
    let strip = |t: String| t.replace("plain.mtl", "X").replace("unlit.mtl", "X");
    assert_eq!(strip(text(&unlit_obj)), strip(text(&plain_obj)));
    assert_ne!(
        text(&lit_obj).lines().nth(4),
        text(&unlit_obj).lines().nth(4)
    );
    let glb = d.join("lit.glb");
    ok(&["export", s(&w), s(&glb)]);
    assert!(std::fs::metadata(&glb).expect("glb").len() > 1000);
    let (lit_png, unlit_png) = (d.join("lit.png"), d.join("unlit.png"));
    ok(&["render", s(&w), s(&lit_png), "--size", "64,48"]);
    ok(&[
        "render",
        s(&w),
        s(&unlit_png),
        "--size",
        "64,48",
        "--no-light",
    ]);
    let read = |p: &Path| std::fs::read(p).expect("png");
    assert_eq!(read(&unlit_png), read(&plain_png));
    assert_ne!(read(&lit_png), read(&unlit_png));
}

#[test]
fn bad_input_gives_clear_errors() {
    let d = temp_dir("bake-bad");
    let w = world(&d);
    let before = std::fs::read(&w).expect("read");
    let cases: [(&[&str], &str); 12] = [
        (&["--sun-dir", "0,0,0"], "sun direction is zero"),
        (&["--sun-dir", "1,nan,0"], "finite"),
        (&["--sun-color", "1,-0.5,1"], "sun colour"),
        (&["--sky-color", "inf,1,1"], "sky colour"),
        (&["--particles", "0"], "--particles 0: must be 1 to"),
        (&["--particles", "-3"], "--particles -3"),
        (&["--steps", "0"], "--steps 0: must be 1 to"),
        (&["--step-length", "-1"], "step length"),
        (&["--step-length", "0"], "step length"),
        (&["--sun-bias", "-2"], "sun bias"),
        (&["--threads", "0"], "--threads 0"),
        (&["--seed", "-1"], "--seed"),
    ];
    for (extra, word) in cases {
        let mut args = vec!["bake", s(&w)];
        args.extend(extra);
        let err = fails(&args);
        assert!(err.contains(word), "{extra:?}: {err}");
    }
    assert_eq!(
        std::fs::read(&w).expect("read"),
        before,
        "bad input writes nothing"
    );
    let raw = d.join("l.raw");
    let err = fails(&[
        "export",
        s(&w),
        s(&raw),
        "--format",
        "light",
        "--box",
        "0,0,0,4,4,4",
    ]);
    assert!(err.contains("no baked light"), "{err}");
    let err = fails(&["bake", s(&d.join("missing.strata"))]);
    assert!(err.contains("missing.strata"), "{err}");
    // A world with no solid voxel: all air.
    let air = d.join("air.raw");
    std::fs::write(&air, vec![0u8; 2 * 8 * 8 * 8]).expect("write");
    let empty = d.join("air.strata");
    ok(&[
        "import",
        s(&air),
        s(&empty),
        "--format",
        "raw",
        "--size",
        "8,8,8",
    ]);
    let err = fails(&["bake", s(&empty)]);
    assert!(err.contains("nothing to light"), "{err}");
}
