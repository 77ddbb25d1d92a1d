//! `strata materials` as scripts use it: the JSON contract, every edit form as one undo step that
//! survives a save, palettes, textures, and hostile input refused with nothing written.

mod common;

use std::path::{Path, PathBuf};

use common::{fails, ok, s, temp_dir};
use serde_json::Value;

fn world(dir: &Path) -> PathBuf {
    let w = dir.join("w.strata");
    ok(&["new", s(&w), "--size", "48,32,48", "--seed", "3"]);
    w
}

fn table(w: &Path) -> Vec<Value> {
    let out = ok(&["materials", s(w), "--json"]);
    let j: Value = serde_json::from_slice(&out.stdout).expect("json");
    j["materials"].as_array().expect("array").clone()
}

fn by_name<'a>(t: &'a [Value], name: &str) -> &'a Value {
    t.iter()
        .find(|m| m["name"] == name)
        .unwrap_or_else(|| panic!("no {name}"))
}

fn steps(w: &Path) -> u64 {
    let j: Value = serde_json::from_slice(&ok(&["info", s(w), "--json"]).stdout).expect("info");
    j["history_steps"].as_u64().expect("steps")
}

/// A small PNG made by the program itself (a top-down render).
fn png(dir: &Path, w: &Path) -> PathBuf {
    let p = dir.join("tex.png");
    ok(&["render", s(w), s(&p), "--size", "32,32"]);
    p
}

#[test]
fn the_json_lists_every_key_and_counts_voxels() {
    let d = temp_dir("mat-json");
    let w = world(&d);
    let t = table(&w);
    for key in [
        "id",
        "name",
        "color",
        "liquid",
        "sharp",
        "emission",
        "emission_strength",
        "texture",
        "voxels",
    ] {
        assert!(t[2].get(key).is_some(), "missing {key}: {}", t[2]);
    }
    assert_eq!(t[0]["name"], "Air");
    assert_eq!(t[1]["liquid"], true);
    assert_eq!(t[2]["texture"], Value::Null);
    let info: Value = serde_json::from_slice(&ok(&["info", s(&w), "--json"]).stdout).expect("info");
    assert_eq!(info["materials"].as_array().map(Vec::len), Some(t.len()));
    assert_eq!(
        info["materials"][2]["emission_strength"],
        t[2]["emission_strength"]
    );
    let total: u64 = t.iter().map(|m| m["voxels"].as_u64().expect("n")).sum();
    assert_eq!(total, info["nonair_voxels"].as_u64().expect("n"));
}

#[test]
fn every_edit_is_one_undo_step_and_round_trips() {
    let d = temp_dir("mat-edits");
    let w = world(&d);
    let base = steps(&w);
    ok(&[
        "materials",
        s(&w),
        "--add",
        "Lava",
        "--color",
        "255,80,0",
        "--like",
        "Basalt",
        "--liquid",
        "--emission",
        "255,120,20",
        "--emission-strength",
        "4",
    ]);
    let t = table(&w);
    let lava = by_name(&t, "Lava");
    assert_eq!(lava["liquid"], true);
    assert_eq!(lava["sharp"], true, "like Basalt");
    assert_eq!(lava["emission"], serde_json::json!([255, 120, 20]));
    assert_eq!(lava["emission_strength"], 4.0);
    let tex = png(&d, &w);
    ok(&[
        "materials",
        s(&w),
        "--set",
        "grass",
        "--name",
        "Turf",
        "--color",
        "10,200,30",
        "--sharp",
        "on",
        "--texture",
        s(&tex),
    ]);
    let t = table(&w);
    let turf = by_name(&t, "Turf");
    assert_eq!(turf["color"], serde_json::json!([10, 200, 30]));
    assert_eq!(
        turf["texture"],
        serde_json::json!({"width": 32, "height": 32})
    );
    assert!(turf["voxels"].as_u64().expect("n") > 0);
    let sand_voxels = by_name(&t, "Sand")["voxels"].as_u64().expect("n");
    let rock_voxels = by_name(&t, "Rock")["voxels"].as_u64().expect("n");
    ok(&["materials", s(&w), "--remove", "Sand", "--into", "Rock"]);
    let t2 = table(&w);
    assert!(t2.iter().all(|m| m["name"] != "Sand"));
    assert_eq!(
        by_name(&t2, "Rock")["voxels"].as_u64(),
        Some(rock_voxels + sand_voxels)
    );
    assert_eq!(steps(&w), base + 3);
    // The texture survives a save and a re-save of the file.
    let copy = d.join("copy.strata");
    ok(&[
        "fill",
        s(&w),
        "--box",
        "0,30,0,1,31,1",
        "--material",
        "Rock",
        "-o",
        s(&copy),
    ]);
    assert_eq!(by_name(&table(&copy), "Turf")["texture"]["width"], 32);
    ok(&["materials", s(&w), "--set", "Turf", "--texture", "none"]);
    assert_eq!(by_name(&table(&w), "Turf")["texture"], Value::Null);
    // -o leaves the input alone.
    let before = std::fs::read(&w).expect("read");
    let out = d.join("out.strata");
    ok(&[
        "materials",
        s(&w),
        "--set",
        "Rock",
        "--color",
        "1,2,3",
        "-o",
        s(&out),
    ]);
    assert_eq!(std::fs::read(&w).expect("read"), before);
    assert_eq!(
        by_name(&table(&out), "Rock")["color"],
        serde_json::json!([1, 2, 3])
    );
}

#[test]
fn palettes_travel_between_projects() {
    let d = temp_dir("mat-palette");
    let w = world(&d);
    ok(&["materials", s(&w), "--set", "Rock", "--color", "200,10,10"]);
    let pal = d.join("pal.ron");
    ok(&["materials", s(&w), "--export-palette", s(&pal)]);
    let other = d.join("other.strata");
    ok(&["new", s(&other), "--size", "48,32,48", "--seed", "9"]);
    ok(&["materials", s(&other), "--palette", s(&pal)]);
    assert_eq!(
        by_name(&table(&other), "Rock")["color"],
        serde_json::json!([200, 10, 10])
    );
    let list = d.join("list.txt");
    std::fs::write(&list, "# my colours\nRock 1 2 3\nMoss #3c6e28\n").expect("list");
    ok(&["materials", s(&other), "--palette", s(&list)]);
    let t = table(&other);
    assert_eq!(by_name(&t, "Rock")["color"], serde_json::json!([1, 2, 3]));
    assert_eq!(
        by_name(&t, "Moss")["color"],
        serde_json::json!([60, 110, 40])
    );
}

#[test]
fn hostile_inputs_are_refused_and_nothing_is_written() {
    let d = temp_dir("mat-hostile");
    let w = world(&d);
    let long = "x".repeat(100_000);
    let list = d.join("huge-name.txt");
    std::fs::write(&list, format!("{} 1 2 3\n", "y".repeat(10 << 20))).expect("list");
    let big_png = d.join("big.png");
    std::fs::write(&big_png, vec![0u8; 100 << 20]).expect("big");
    let bad_png = d.join("bad.png");
    std::fs::write(&bad_png, b"\x89PNG\r\n\x1a\nnot really").expect("bad");
    let cases: Vec<(Vec<&str>, &str)> = vec![
        (vec!["--add", "Grass"], "already"),
        (vec!["--add", "rock"], "already"),
        (vec!["--add", ""], "empty"),
        (vec!["--add", &long], "at most 64 bytes"),
        (vec!["--palette", s(&list)], "at most 64 bytes"),
        (
            vec![
                "--add",
                "X",
                "--emission",
                "1,2,3",
                "--emission-strength",
                "nan",
            ],
            "--emission-strength",
        ),
        (
            vec!["--add", "X", "--emission-strength", "-1"],
            "--emission-strength",
        ),
        (vec!["--add", "X", "--color", "256,0,0"], "--color"),
        (vec!["--add", "X", "--like", "Nope"], "unknown material"),
        (vec!["--set", "Air", "--color", "1,2,3"], "Air"),
        (
            vec!["--set", "Nope", "--color", "1,2,3"],
            "unknown material",
        ),
        (vec!["--set", "Rock", "--name", "Grass"], "already"),
        (vec!["--set", "Rock", "--texture", s(&big_png)], "bytes"),
        (vec!["--set", "Rock", "--texture", s(&bad_png)], "bad.png"),
        (
            vec!["--remove", "Air", "--into", "Rock"],
            "Air cannot be removed",
        ),
        (vec!["--remove", "Rock", "--into", "Rock"], "own voxels"),
        (
            vec!["--remove", "Rock", "--into", "Nope"],
            "unknown material",
        ),
        (
            vec!["--remove", "Nope", "--into", "Rock"],
            "unknown material",
        ),
        (vec!["--palette", "/no/such/palette.ron"], "palette.ron"),
        (vec!["--like", "Rock"], "--like goes with --add"),
    ];
    let before = std::fs::read(&w).expect("read");
    for (extra, word) in cases {
        let mut args = vec!["materials", s(&w)];
        args.extend(&extra);
        let e = fails(&args);
        assert!(
            e.contains(word),
            "{:?}: {e}",
            &extra
                .iter()
                .map(|a| &a[..a.len().min(20)])
                .collect::<Vec<_>>()
        );
        assert_eq!(std::fs::read(&w).expect("read"), before, "{e}");
    }
    // The 65th material, and removing the last solid one.
    let full = d.join("full.strata");
    std::fs::copy(&w, &full).expect("copy");
    let n = table(&full).len();
    for k in n..64 {
        ok(&["materials", s(&full), "--add", &format!("M{k}")]);
    }
    let e = fails(&["materials", s(&full), "--add", "One too many"]);
    assert!(e.contains("64"), "{e}");
}
