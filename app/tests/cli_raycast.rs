//! `strata raycast` as scripts use it: text lines, JSON, rays files and bad input.

mod common;

use common::{fails, ok, s, temp_dir};
use std::path::{Path, PathBuf};

use serde_json::Value;

/// A flat world (64×32×64): the ground is a plane, so hits are easy to predict.
fn flat_world(d: &Path) -> PathBuf {
    let w = d.join("w.strata");
    ok(&[
        "new",
        s(&w),
        "--preset",
        "flat",
        "--size",
        "64,32,64",
        "--seed",
        "1",
    ]);
    w
}

fn fields(line: &str) -> Vec<&str> {
    line.split_whitespace().collect()
}

#[test]
fn single_ray_text_and_json() {
    let d = temp_dir("one");
    let w = flat_world(&d);
    let out = ok(&[
        "raycast",
        s(&w),
        "--from",
        "20.5,60,30.5",
        "--dir",
        "0,-1,0",
    ]);
    let text = String::from_utf8(out.stdout).expect("utf-8");
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 1, "{text}");
    let f = fields(lines[0]);
    assert_eq!(f.len(), 9, "{text}");
    assert_eq!(f[0], "hit");
    let num = |i: usize| f[i].parse::<f32>().expect("number");
    let (t, y) = (num(1), num(3));
    assert!(t > 0.0 && (60.0 - t - y).abs() < 1e-3, "{text}");
    assert!((num(2) - 20.5).abs() < 1e-4 && (num(4) - 30.5).abs() < 1e-4);
    assert!(num(6) > 0.9, "the ground faces up: {text}");
    assert!(f[8].chars().all(|c| c.is_ascii_alphanumeric() || c == '_'));

    let out = ok(&[
        "raycast",
        s(&w),
        "--from",
        "20.5,60,30.5",
        "--dir",
        "0,-3,0",
        "--json",
    ]);
    let j: Value = serde_json::from_slice(&out.stdout).expect("json");
    assert_eq!(j["hit"], true);
    assert!((j["t"].as_f64().expect("t") - f64::from(t)).abs() < 1e-4);
    assert_eq!(j["material"], f[8]);
    assert!(j["normal"][1].as_f64().expect("ny") > 0.9);
    assert_eq!(j["point"].as_array().map(Vec::len), Some(3));

    let out = ok(&["raycast", s(&w), "--from", "20,60,30", "--dir", "0,1,0"]);
    assert_eq!(String::from_utf8_lossy(&out.stdout), "miss\n");
    let out = ok(&[
        "raycast",
        s(&w),
        "--from",
        "20,60,30",
        "--dir",
        "0,1,0",
        "--json",
    ]);
    let j: Value = serde_json::from_slice(&out.stdout).expect("json");
    assert_eq!(j["hit"], false);
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn rays_file_gives_one_line_per_ray() {
    let d = temp_dir("file");
    let w = flat_world(&d);
    let rays = d.join("rays.txt");
    std::fs::write(
        &rays,
        "# ox oy oz dx dy dz\n10 50 10 0 -1 0\n10 50 10 0 1 0\n\n-20 5 32 1 0 0\n40 50 40 0.3 -1 0.2\n",
    )
    .expect("write rays");
    let out = ok(&["raycast", s(&w), "--rays", s(&rays)]);
    let text = String::from_utf8(out.stdout).expect("utf-8");
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 4, "{text}");
    assert!(lines[0].starts_with("hit "), "{text}");
    assert_eq!(lines[1], "miss");
    assert!(
        lines[2].starts_with("hit "),
        "side ray hits the cliff at x=0: {text}"
    );
    let t = fields(lines[2])[1].parse::<f32>().expect("t");
    assert!((t - 20.0).abs() < 1.0, "{text}");
    assert_eq!(fields(lines[3]).len(), 9);

    let out = ok(&["raycast", s(&w), "--rays", s(&rays), "--json"]);
    let j: Value = serde_json::from_slice(&out.stdout).expect("json");
    let arr = j.as_array().expect("array");
    assert_eq!(arr.len(), 4);
    assert_eq!(arr[1]["hit"], false);
    assert_eq!(arr[0]["hit"], true);
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn bad_input_is_a_clear_error() {
    let d = temp_dir("bad");
    let w = flat_world(&d);
    let e = fails(&["raycast", s(&w), "--from", "1,2", "--dir", "0,-1,0"]);
    assert!(e.contains("--from"), "{e}");
    let e = fails(&["raycast", s(&w), "--from", "1,a,2", "--dir", "0,-1,0"]);
    assert!(e.contains("\"a\""), "{e}");
    let e = fails(&["raycast", s(&w), "--from", "1,2,3", "--dir", "0,0,0"]);
    assert!(e.contains("zero"), "{e}");
    let e = fails(&["raycast", s(&w), "--from", "1,2,3", "--dir", "0,nan,0"]);
    assert!(e.contains("finite"), "{e}");
    fails(&["raycast", s(&w), "--from", "1,2,3"]);
    fails(&["raycast", s(&w)]);

    let rays = d.join("bad.txt");
    std::fs::write(&rays, "1 2 3 0 -1 0\n# fine\n1 2 3 0 -1\n").expect("write");
    let e = fails(&["raycast", s(&w), "--rays", s(&rays)]);
    assert!(e.contains("line 3") && e.contains("6 numbers"), "{e}");
    std::fs::write(&rays, "1 2 3 0 -1 0\n1 2 3 zz -1 0\n").expect("write");
    let e = fails(&["raycast", s(&w), "--rays", s(&rays)]);
    assert!(e.contains("line 2") && e.contains("\"zz\""), "{e}");
    std::fs::write(&rays, "1 2 3 0 0 0\n").expect("write");
    let e = fails(&["raycast", s(&w), "--rays", s(&rays)]);
    assert!(e.contains("line 1") && e.contains("zero"), "{e}");
    let e = fails(&["raycast", s(&w), "--rays", s(&d.join("missing.txt"))]);
    assert!(e.contains("missing.txt"), "{e}");
    let e = fails(&[
        "raycast",
        s(&d.join("nope.strata")),
        "--from",
        "0,0,0",
        "--dir",
        "1,0,0",
    ]);
    assert!(e.contains("nope.strata"), "{e}");
    let _ = std::fs::remove_dir_all(&d);
}
