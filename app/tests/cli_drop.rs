//! `strata drop` as scripts use it: the JSON contract (keys exactly), the text summary, `--at`, and
//! clear errors for bad input.

mod common;

use common::{fails, new_world, ok, s, temp_dir};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use serde_json::Value;

/// A small hills world with water (64×48×64).
fn world(d: &Path) -> PathBuf {
    new_world(d, "w", "hills", "64,48,64", 1)
}

fn keys(v: &Value) -> BTreeSet<String> {
    v.as_object().expect("an object").keys().cloned().collect()
}

fn set(names: &[&str]) -> BTreeSet<String> {
    names.iter().map(|n| (*n).to_owned()).collect()
}

#[test]
fn json_has_exactly_the_contract_keys() {
    let d = temp_dir("drop-json");
    let w = world(&d);
    let args = [
        "drop",
        s(&w),
        "--bodies",
        "6",
        "--shape",
        "mixed",
        "--seed",
        "4",
        "--seconds",
        "3",
        "--json",
    ];
    let out = ok(&args);
    let j: Value = serde_json::from_slice(&out.stdout).expect("json");
    assert_eq!(
        keys(&j),
        set(&[
            "bodies",
            "count",
            "at_rest",
            "in_water",
            "lost",
            "max_penetration",
            "seconds",
            "steps",
            "wall_ms"
        ])
    );
    assert_eq!(j["lost"], 0, "a flat world keeps every body");
    let bodies = j["bodies"].as_array().expect("array");
    assert_eq!(bodies.len(), 6);
    assert_eq!(j["count"], 6);
    assert_eq!(j["steps"], 360, "3 s at 1/120 s");
    assert!((j["seconds"].as_f64().expect("seconds") - 3.0).abs() < 1e-3);
    let mut worst = 0.0f64;
    let (mut rest, mut water) = (0, 0);
    for b in bodies {
        assert_eq!(
            keys(b),
            set(&[
                "shape",
                "size",
                "start",
                "final",
                "max_penetration",
                "at_rest",
                "in_water",
                "lost"
            ])
        );
        assert!(b["lost"].is_null(), "{b}");
        let shape = b["shape"].as_str().expect("shape");
        assert!(["sphere", "box", "capsule"].contains(&shape), "{shape}");
        assert_eq!(b["start"].as_array().map(Vec::len), Some(3));
        assert_eq!(b["final"].as_array().map(Vec::len), Some(3));
        let size = b["size"].as_f64().expect("size");
        let pen = b["max_penetration"].as_f64().expect("penetration");
        assert!(size > 0.0 && pen >= 0.0 && pen < 0.05 * size, "{b}");
        assert!(
            b["final"][1].as_f64() < b["start"][1].as_f64(),
            "bodies fall: {b}"
        );
        worst = worst.max(pen);
        rest += usize::from(b["at_rest"].as_bool().expect("bool"));
        water += usize::from(b["in_water"].as_bool().expect("bool"));
    }
    assert_eq!(j["at_rest"], rest);
    assert_eq!(j["in_water"], water);
    assert!((j["max_penetration"].as_f64().expect("max") - worst).abs() < 1e-6);
    assert!(j["wall_ms"].as_f64().expect("wall") >= 0.0);

    // Same seed, same result (wall time aside).
    let again = ok(&args);
    let k: Value = serde_json::from_slice(&again.stdout).expect("json");
    assert_eq!(j["bodies"], k["bodies"]);
}

#[test]
fn text_summary_and_drop_at_a_point() {
    let d = temp_dir("drop-text");
    let w = world(&d);
    let out = ok(&[
        "drop",
        s(&w),
        "--bodies",
        "4",
        "--shape",
        "sphere",
        "--seconds",
        "1",
        "--at",
        "32,45,32",
    ]);
    let text = String::from_utf8(out.stdout).expect("utf-8");
    let lines: Vec<&str> = text.lines().collect();
    assert!(
        lines[0].starts_with("dropped 4 bodies (spheres, seed 1)"),
        "{text}"
    );
    assert!(lines[1].starts_with("at rest "), "{text}");
    assert!(lines[2].starts_with("lost 0/4"), "{text}");
    // Summary, column header, then one line per body.
    assert_eq!(lines.len(), 4 + 4, "{text}");
    let out = ok(&[
        "drop",
        s(&w),
        "--bodies",
        "4",
        "--shape",
        "box",
        "--seconds",
        "0.5",
        "--at",
        "32,45,32",
        "--json",
    ]);
    let j: Value = serde_json::from_slice(&out.stdout).expect("json");
    for b in j["bodies"].as_array().expect("bodies") {
        assert_eq!(b["shape"], "box");
        let start = b["start"].as_array().expect("start");
        let x = start[0].as_f64().expect("x");
        let z = start[2].as_f64().expect("z");
        assert!((x - 32.0).abs() < 5.0 && (z - 32.0).abs() < 5.0, "{b}");
    }
}

#[test]
fn bad_input_is_a_clear_error() {
    let d = temp_dir("drop-bad");
    let w = world(&d);
    let missing = d.join("missing.strata");
    let e = fails(&["drop", s(&missing)]);
    assert!(e.contains("missing.strata"), "{e}");
    let e = fails(&["drop", s(&w), "--bodies", "0"]);
    assert!(e.contains("--bodies"), "{e}");
    let e = fails(&["drop", s(&w), "--at", "1,2"]);
    assert!(e.contains("--at"), "{e}");
    let e = fails(&["drop", s(&w), "--at", "a,b,c"]);
    assert!(e.contains("--at"), "{e}");
    let e = fails(&["drop", s(&w), "--shape", "cone"]);
    assert!(e.contains("cone"), "{e}");
    let e = fails(&["drop", s(&w), "--seconds", "-1"]);
    assert!(e.contains("--seconds"), "{e}");
    let e = fails(&["drop", s(&w), "--at", "9999,0,0"]);
    assert!(e.contains("outside the world"), "{e}");
    let e = fails(&["drop", s(&w), "--bodies", "100000"]);
    assert!(e.contains("--bodies"), "{e}");
}
