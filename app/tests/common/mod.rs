//! Helpers shared by the command-line tests: run the real `strata` binary and make scratch folders.
#![allow(dead_code)] // each test binary uses its own subset

pub mod editor;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// Run `strata` with `args`.
pub fn strata(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_strata"))
        .args(args)
        .output()
        .expect("strata runs")
}

/// Run `strata` and require success; returns its output.
pub fn ok(args: &[&str]) -> Output {
    let out = strata(args);
    assert!(
        out.status.success(),
        "strata {args:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

/// Run `strata` and require failure; returns stderr.
pub fn fails(args: &[&str]) -> String {
    let out = strata(args);
    assert!(!out.status.success(), "strata {args:?} should fail");
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// A fresh, empty scratch folder unique to this test process and `name`.
pub fn temp_dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("strata-cli-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).expect("temp dir");
    d
}

/// A path as `&str` for an argument list.
pub fn s(p: &Path) -> &str {
    p.to_str().expect("utf-8 temp path")
}

/// Generate a world with `strata new` into `dir/NAME.strata`; returns its path.
pub fn new_world(dir: &Path, name: &str, preset: &str, size: &str, seed: u32) -> PathBuf {
    let w = dir.join(format!("{name}.strata"));
    let seed = seed.to_string();
    ok(&[
        "new",
        w.to_str().expect("utf-8 path"),
        "--preset",
        preset,
        "--size",
        size,
        "--seed",
        &seed,
    ]);
    w
}

/// Run the real editor under Xvfb with Mesa's software GL on `world`, save a screenshot of the
/// window to `shot` and return it; `extra` adds arguments to `strata open` (e.g. `--lod off`).
/// Preferences go to `dir/config`.
pub fn xvfb_screenshot(world: &Path, shot: &Path, dir: &Path, extra: &[&str]) -> image::RgbaImage {
    let mut args = vec!["open", s(world), "--screenshot", s(shot)];
    args.extend(["--window-size", "1024,700"]);
    args.extend(extra);
    xvfb_strata(dir, &args);
    image::open(shot).expect("screenshot PNG").to_rgba8()
}

/// Run `strata args` under Xvfb (1280×800) with Mesa's software GL, preferences in `dir/config`,
/// and require success.
pub fn xvfb_strata(dir: &Path, args: &[&str]) -> Output {
    let out = Command::new("xvfb-run")
        .args(["-a", "-s", "-screen 0 1280x800x24"])
        .arg(env!("CARGO_BIN_EXE_strata"))
        .args(args)
        .env("STRATA_CONFIG_DIR", dir.join("config"))
        .env("LIBGL_ALWAYS_SOFTWARE", "1")
        .output()
        .expect("xvfb-run must be installed (apt-get install xvfb); .ci/run installs it");
    assert!(
        out.status.success(),
        "editor failed under Xvfb: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

/// Give the project at `world` the close three-quarter view the editor opened every world with
/// before it framed worlds whole (the middle seen from 1.2 times the largest side, so the terrain
/// fills the window and its corners are cut off), as a file saved from a moved view holds it: the
/// distance is a hundredth of a voxel longer than the overview's, since a world that still holds
/// the overview camera opens framed whole. Screenshot tests that sample the terrain use it.
pub fn close_view(world: &Path) {
    use strata_engine::format::project::Project;
    let mut project = Project::load(world).expect("load for the camera");
    let overview = strata_engine::format::project::Camera::overview(&project.header.bounds);
    let largest = project.header.bounds.size().into_iter().max().unwrap_or(1);
    project.header.camera = strata_engine::format::project::Camera {
        distance: largest as f32 * 1.2 + 0.01,
        ..overview
    };
    project.save(world).expect("save with the camera");
}
