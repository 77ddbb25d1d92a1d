//! `strata lights` and the new `strata bake` flags as scripts use them: real processes, files read
//! back, each edit one undo step, and clear errors with nothing written for bad input.

mod common;

use std::path::{Path, PathBuf};

use common::{fails, ok, s, temp_dir};
use serde_json::Value;

fn world(dir: &Path) -> PathBuf {
    let w = dir.join("w.strata");
    ok(&["new", s(&w), "--size", "64,40,48", "--seed", "5"]);
    w
}

fn json(args: &[&str]) -> Value {
    serde_json::from_slice(&ok(args).stdout).expect("prints JSON")
}

#[test]
fn lights_are_added_listed_removed_and_undone_like_any_edit() {
    let d = temp_dir("lights");
    let w = world(&d);
    assert_eq!(
        json(&["lights", s(&w), "--json"])["lights"],
        Value::Array(vec![])
    );
    ok(&[
        "lights",
        s(&w),
        "--add-point",
        "20,30,20",
        "--color",
        "1,0.5,0.25",
        "--intensity",
        "40",
        "--range",
        "12",
    ]);
    let out = d.join("two.strata");
    ok(&[
        "lights",
        s(&w),
        "--add-spot",
        "40,35,20.5",
        "--dir",
        "0,-1,0.5",
        "--angle",
        "50",
        "-o",
        s(&out),
    ]);
    let listed = json(&["lights", s(&out), "--json"]);
    let l = listed["lights"].as_array().expect("list");
    assert_eq!(l.len(), 2);
    assert_eq!(l[0]["index"], 0);
    assert_eq!(l[0]["kind"], "point");
    assert_eq!(l[0]["position"], serde_json::json!([20.0, 30.0, 20.0]));
    assert_eq!(l[0]["color"], serde_json::json!([1.0, 0.5, 0.25]));
    assert_eq!(l[0]["intensity"], 40.0);
    assert_eq!(l[0]["range"], 12.0);
    assert_eq!(l[0]["direction"], Value::Null);
    assert_eq!(l[0]["angle"], Value::Null);
    assert_eq!(l[1]["kind"], "spot");
    assert_eq!(l[1]["direction"], serde_json::json!([0.0, -1.0, 0.5]));
    assert_eq!(l[1]["angle"], 50.0);
    assert_eq!(l[1]["range"], 16.0, "the default range");
    // The first file kept one light: -o wrote the second edit elsewhere.
    assert_eq!(
        json(&["lights", s(&w), "--json"])["lights"]
            .as_array()
            .map(Vec::len),
        Some(1)
    );
    ok(&["lights", s(&out), "--remove", "0"]);
    let left = json(&["lights", s(&out), "--json"]);
    assert_eq!(left["lights"][0]["kind"], "spot");
    assert_eq!(left["lights"][0]["index"], 0);
    // Each edit is one step in the file's history: undo them in the editor's document.
    let project = strata_engine::format::project::Project::load(&out).expect("load");
    assert_eq!(project.history.undo_len(), 3);
    let mut doc = strata::document::Document::headless(project, None);
    assert_eq!(doc.undo().expect("undo").as_deref(), Some("Remove light"));
    assert_eq!(doc.lights().len(), 2);
    doc.undo().expect("undo");
    doc.undo().expect("undo");
    assert!(doc.lights().is_empty());
}

#[test]
fn bad_lights_fail_clearly_and_write_nothing() {
    let d = temp_dir("lights-bad");
    let w = world(&d);
    ok(&["lights", s(&w), "--add-point", "10,30,10"]);
    let before = std::fs::read(&w).expect("read");
    let out = d.join("out.strata");
    let cases: [(&[&str], &str); 12] = [
        (&["--add-point", "nan,1,1"], "finite"),
        (&["--add-point", "1,30,1", "--color", "nan,1,1"], "colour"),
        (&["--add-point", "1,30,1", "--color", "1,-0.5,1"], "colour"),
        (&["--add-point", "1,30,1", "--intensity", "nan"], "finite"),
        (&["--add-point", "1,30,1", "--intensity", "-1"], "intensity"),
        (&["--add-point", "1,30,1", "--range", "0"], "range"),
        (&["--add-point", "100,30,1"], "outside the world"),
        (
            &["--add-spot", "1,30,1", "--dir", "0,0,0", "--angle", "40"],
            "direction",
        ),
        (
            &["--add-spot", "1,30,1", "--dir", "0,-1,0", "--angle", "0"],
            "angle",
        ),
        (
            &["--add-spot", "1,30,1", "--dir", "0,-1,0", "--angle", "180"],
            "angle",
        ),
        (&["--remove", "1"], "has 1 light"),
        (&["--remove", "-1"], "index"),
    ];
    for (args, word) in cases {
        for target in [None, Some(&out)] {
            let mut a = vec!["lights", s(&w)];
            a.extend(args);
            if let Some(o) = target {
                a.extend(["-o", s(o)]);
            }
            let e = fails(&a);
            assert!(e.contains(word), "{args:?}: {e} should mention {word}");
            assert!(!out.exists(), "{args:?} wrote {}", out.display());
            assert_eq!(
                std::fs::read(&w).expect("read"),
                before,
                "{args:?} changed FILE"
            );
        }
    }
}

#[test]
fn bake_reports_lights_emission_bounce_and_denoise() {
    let d = temp_dir("lights-bake");
    let w = world(&d);
    ok(&["lights", s(&w), "--add-point", "32,30,24", "--range", "20"]);
    ok(&[
        "materials",
        s(&w),
        "--set",
        "Grass",
        "--emission",
        "255,128,0",
        "--emission-strength",
        "2",
    ]);
    let quick = ["--particles", "4", "--steps", "8"];
    let mut a = vec!["bake", s(&w), "--json", "--bounce", "1", "--denoise", "on"];
    a.extend(quick);
    let r = json(&a);
    assert_eq!(r["lights"], 1);
    assert!(r["emissive_voxels"].as_u64().expect("count") > 1000, "{r}");
    assert_eq!(r["bounce"], 1);
    assert_eq!(r["denoised"], true);
    let mut a = vec![
        "bake",
        s(&w),
        "--json",
        "--emission",
        "off",
        "--quality",
        "draft",
    ];
    a.push("--seed");
    a.push("3");
    let r = json(&a);
    assert_eq!(r["emissive_voxels"], 0);
    assert_eq!(r["bounce"], 0);
    assert_eq!(r["denoised"], false);
    assert_eq!(r["quality"], "draft");
    let r = json(&[
        "bake",
        s(&w),
        "--json",
        "--quality",
        "final",
        "--particles",
        "4",
    ]);
    assert_eq!(r["denoised"], true, "final filters");
    assert_eq!(r["bounce"], 1, "final bounces once");
    let before = std::fs::read(&w).expect("read");
    for (flag, v) in [
        ("--quality", "ultra"),
        ("--bounce", "3"),
        ("--denoise", "yes"),
    ] {
        fails(&["bake", s(&w), flag, v]);
    }
    assert_eq!(std::fs::read(&w).expect("read"), before, "nothing written");
}
