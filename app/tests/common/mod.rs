//! Helpers shared by the command-line tests: run the real `strata` binary and make scratch folders.
#![allow(dead_code)] // each test binary uses its own subset

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
