//! Runs nobody watches (`open --screenshot`, `frames`) under Xvfb: a project that does not load
//! ends the run with exit 1 and the load error instead of a window waiting forever, and a
//! `--window-size` given on the command line lasts that one run (never saved as the preference).

mod common;

use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use common::{new_world, s, temp_dir};

/// Longest an unattended run on a bad file may take before it counts as hanging.
const DEADLINE: Duration = Duration::from_secs(120);

/// Run `strata ARGS` under Xvfb with software GL and preferences in `config`; `None` when it is
/// still running at [`DEADLINE`] (it is killed).
fn run_under_xvfb(args: &[&str], config: &Path) -> Option<Output> {
    let mut child = Command::new("xvfb-run")
        .args(["-a", "-s", "-screen 0 1280x800x24"])
        .arg(env!("CARGO_BIN_EXE_strata"))
        .args(args)
        .env("STRATA_CONFIG_DIR", config)
        .env("LIBGL_ALWAYS_SOFTWARE", "1")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("xvfb-run must be installed (apt-get install xvfb); .ci/run installs it");
    let start = Instant::now();
    loop {
        if child.try_wait().ok().flatten().is_some() {
            return child.wait_with_output().ok();
        }
        if start.elapsed() > DEADLINE {
            let _ = child.kill();
            let _ = child.wait();
            return None;
        }
        std::thread::sleep(Duration::from_millis(100));
    }
}

#[test]
fn a_project_that_does_not_load_ends_a_capture_and_a_frame_run_with_its_error() {
    let dir = temp_dir("unattended-bad");
    let world = new_world(&dir, "w", "hills", "32,24,32", 3);
    let mut bytes = std::fs::read(&world).expect("read");
    let bad = dir.join("bad.strata");
    bytes.truncate(bytes.len() / 2);
    std::fs::write(&bad, &bytes).expect("write");
    let shot = dir.join("shot.png");
    let config = dir.join("config");
    let runs: [Vec<&str>; 2] = [
        vec![
            "open",
            s(&bad),
            "--screenshot",
            s(&shot),
            "--window-size",
            "800,600",
        ],
        vec![
            "frames",
            s(&bad),
            "--frames",
            "5",
            "--window-size",
            "800,600",
        ],
    ];
    for args in runs {
        let out = run_under_xvfb(&args, &config)
            .unwrap_or_else(|| panic!("strata {args:?} still running after {DEADLINE:?}"));
        assert_eq!(out.status.code(), Some(1), "strata {args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            err.contains("bad.strata"),
            "the error names the file: {err}"
        );
        assert!(!shot.exists(), "no screenshot of a world that never loaded");
    }
    assert_eq!(
        std::fs::read(&bad).expect("still there"),
        bytes,
        "untouched"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_window_size_from_the_command_line_is_not_remembered() {
    let dir = temp_dir("unattended-size");
    let world = new_world(&dir, "w", "flat", "32,16,32", 1);
    let shot = dir.join("shot.png");
    let config = dir.join("config");
    let out = run_under_xvfb(
        &[
            "open",
            s(&world),
            "--screenshot",
            s(&shot),
            "--window-size",
            "700,500",
        ],
        &config,
    )
    .expect("the capture ends");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(shot.exists());
    let prefs = std::fs::read_to_string(config.join("prefs.ron")).unwrap_or_default();
    assert!(
        !prefs.contains("700"),
        "the one-run size stays out of the preferences: {prefs}"
    );
    for bad in ["NaN,1", "1,1", "800,inf"] {
        let out = common::strata(&["open", s(&world), "--window-size", bad]);
        assert_eq!(out.status.code(), Some(1), "--window-size {bad}");
        assert!(String::from_utf8_lossy(&out.stderr).contains("--window-size"));
    }
    let _ = std::fs::remove_dir_all(&dir);
}
