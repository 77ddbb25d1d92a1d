//! Every command-line edit of a baked project leaves a project that loads, with its light marked
//! stale where the edit reached; a file whose light no longer fits its voxels (written by an older
//! build) still opens, with a warning; the headless brush and Sea Level keep their contract.

mod common;

use std::path::{Path, PathBuf};

use common::{fails, ok, s, strata, temp_dir};
use serde_json::Value;

fn info(w: &Path) -> Value {
    let out = ok(&["info", s(w), "--json"]);
    serde_json::from_slice(&out.stdout).expect("info --json")
}

fn baked(dir: &Path) -> PathBuf {
    let w = dir.join("w.strata");
    ok(&["new", s(&w), "--preset", "hills", "--size", "64,48,64"]);
    ok(&["bake", s(&w), "--particles", "4", "--steps", "8"]);
    let i = info(&w);
    assert_eq!(i["light"]["stale_boxes"], 0, "{i}");
    w
}

/// Raw voxels (material, occupancy) of the box 0..x, 0..y, 0..z.
fn raw(dir: &Path, w: &Path, size: [u32; 3]) -> Vec<u8> {
    let out = dir.join("raw.raw");
    let b = format!("0,0,0,{},{},{}", size[0], size[1], size[2]);
    ok(&["export", s(w), s(&out), "--format", "raw", "--box", &b]);
    std::fs::read(&out).expect("raw")
}

#[test]
fn every_editing_command_on_a_baked_project_leaves_a_loadable_project() {
    let d = temp_dir("edit-baked");
    let w = baked(&d);
    let stamp = d.join("stamp.strata");
    ok(&["copy", s(&w), s(&stamp), "--box", "0,0,0,12,30,12"]);
    // The issue's own reproduction: a fill in place, then info.
    let edits: Vec<Vec<&str>> = vec![
        vec!["fill", "--box", "10,0,10,30,40,30", "--material", "Rock"],
        vec![
            "fill",
            "--box",
            "0,20,0,64,30,64",
            "--material",
            "Sand",
            "--only-air",
        ],
        vec!["delete", "--box", "40,10,40,60,48,60"],
        vec!["paste", s(&stamp), "--at", "30,20,5"],
        vec!["floating", "--delete"],
        vec![
            "sculpt", "--tool", "subtract", "--at", "20,25,40", "--radius", "6", "--dabs", "4",
        ],
        vec![
            "sculpt",
            "--tool",
            "add",
            "--at",
            "50,30,20",
            "--radius",
            "4",
            "--material",
            "Snow",
        ],
        vec!["sea-level", "--height", "20"],
    ];
    for (k, e) in edits.iter().enumerate() {
        for in_place in [true, false] {
            let target = if in_place {
                w.clone()
            } else {
                d.join(format!("out{k}.strata"))
            };
            let mut args = vec![e[0], s(&w)];
            args.extend(&e[1..]);
            if !in_place {
                args.extend(["-o", s(&target)]);
            }
            let out = ok(&args);
            let i = info(&target);
            assert_eq!(i["warnings"], Value::Array(vec![]), "{e:?}: {i}");
            let light = &i["light"];
            assert!(light.is_object(), "{e:?} kept the light: {i}");
            let changed = !String::from_utf8_lossy(&out.stdout).contains("changed nothing");
            if changed && e[0] != "floating" {
                assert!(
                    light["stale_boxes"].as_u64().expect("count") > 0,
                    "{e:?} marked nothing stale: {i}"
                );
            }
        }
    }
    // A re-bake after the edits clears the stale light again.
    ok(&["bake", s(&w), "--particles", "4", "--steps", "8"]);
    assert_eq!(info(&w)["light"]["stale_boxes"], 0);
}

#[test]
fn light_that_no_longer_fits_is_marked_stale_with_a_warning_not_refused() {
    let d = temp_dir("misfit-light");
    let w = baked(&d);
    // An older build wrote the edited voxels beside the unchanged light: emulate it by putting the
    // baked file's light section into an edited copy's bytes.
    let edited = d.join("edited.strata");
    ok(&[
        "fill",
        s(&w),
        "--box",
        "10,0,10,30,40,30",
        "--material",
        "Rock",
        "-o",
        s(&edited),
    ]);
    let old = std::fs::read(&w).expect("baked");
    let new = std::fs::read(&edited).expect("edited");
    let spliced = splice_light(&new, &old);
    let broken = d.join("broken.strata");
    std::fs::write(&broken, spliced).expect("write");
    let out = strata(&["info", s(&broken), "--json"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("warning:") && err.contains("broken.strata") && err.contains("stale"),
        "{err}"
    );
    let i: Value = serde_json::from_slice(&out.stdout).expect("json");
    assert_eq!(i["warnings"].as_array().map(Vec::len), Some(1), "{i}");
    assert!(i["light"]["stale_boxes"].as_u64().expect("n") > 0);
    // Every command that reads it works, and an edit saves a file that loads cleanly.
    ok(&["render", s(&broken), s(&d.join("r.png"))]);
    ok(&[
        "fill",
        s(&broken),
        "--box",
        "0,0,0,4,30,4",
        "--material",
        "Rock",
    ]);
    assert_eq!(info(&broken)["warnings"], Value::Array(vec![]));
}

/// `base` with its LITE section replaced by `donor`'s (both files of this build; the section table
/// is tag, u64 length, two CRCs, payload).
fn splice_light(base: &[u8], donor: &[u8]) -> Vec<u8> {
    let section = |bytes: &[u8]| -> std::ops::Range<usize> {
        let at = bytes
            .windows(4)
            .position(|w| w == b"LITE")
            .expect("a LITE section");
        let mut len = [0u8; 8];
        len.copy_from_slice(&bytes[at + 4..at + 12]);
        at..at + 20 + u64::from_le_bytes(len) as usize
    };
    let (b, dn) = (section(base), section(donor));
    [&base[..b.start], &donor[dn], &base[b.end..]].concat()
}

#[test]
fn dug_ground_is_empty_and_sea_level_floods_it() {
    let d = temp_dir("dig-flood");
    let w = d.join("w.strata");
    let dug = d.join("dug.strata");
    let wet = d.join("wet.strata");
    ok(&["new", s(&w), "--preset", "flat", "--size", "64,32,64"]);
    ok(&[
        "sculpt",
        s(&w),
        "--tool",
        "subtract",
        "--at",
        "32,6,32",
        "--radius",
        "5",
        "--dabs",
        "12",
        "-o",
        s(&dug),
    ]);
    ok(&["sea-level", s(&dug), "--height", "7", "-o", s(&wet)]);
    let i = info(&wet);
    assert_eq!(i["history_steps"], 2, "one undo step each: {i}");
    let water = i["materials"]
        .as_array()
        .expect("table")
        .iter()
        .find(|m| m["name"] == "Water")
        .expect("Water")["id"]
        .as_u64()
        .expect("id") as u8;
    let size = [64u32, 32, 64];
    let wet_raw = raw(&d, &wet, size);
    let dug_raw = raw(&d, &dug, size);
    let at = |x: i32, y: i32, z: i32| 2 * (x + 64 * (y + 32 * z)) as usize;
    let mut flooded = 0;
    for z in 0..64 {
        for y in 0..7 {
            for x in 0..64 {
                if (x - 32) * (x - 32) + (y - 6) * (y - 6) + (z - 32) * (z - 32) <= 9 {
                    let i = at(x, y, z);
                    assert_eq!(wet_raw[i], water, "voxel {x},{y},{z} is not Water");
                    flooded += 1;
                }
            }
        }
    }
    assert!(flooded > 60);
    let thin = dug_raw
        .chunks_exact(2)
        .filter(|v| v[0] != 0 && v[1] < strata_engine::voxel::MIN_MATTER_OCCUPANCY)
        .count();
    assert_eq!(thin, 0, "matter thinner than the carving floor is left");
}

#[test]
fn sculpt_and_sea_level_refuse_bad_input_and_write_nothing() {
    let d = temp_dir("sculpt-bad");
    let w = d.join("w.strata");
    ok(&["new", s(&w), "--preset", "flat", "--size", "32,16,32"]);
    let before = std::fs::read(&w).expect("world");
    let base = ["sculpt", s(&w), "--tool", "add", "--at", "16,8,16"];
    let r4 = ["--radius", "4"];
    for (extra, word) in [
        (vec!["--radius", "0"], "--radius"),
        (vec!["--radius", "nan"], "--radius"),
        (vec!["--radius", "33"], "--radius"),
        ([&r4[..], &["--strength", "0"]].concat(), "--strength"),
        ([&r4[..], &["--strength", "2"]].concat(), "--strength"),
        ([&r4[..], &["--dabs", "0"]].concat(), "--dabs"),
        ([&r4[..], &["--dabs", "10001"]].concat(), "--dabs"),
        (
            [&r4[..], &["--material", "Unobtainium"]].concat(),
            "unknown material",
        ),
        (
            [&r4[..], &["--material", "Water"]].concat(),
            "solid material",
        ),
        ([&r4[..], &["--material", "Air"]].concat(), "solid material"),
    ] {
        let mut args: Vec<&str> = base.to_vec();
        args.extend(&extra);
        let err = fails(&args);
        assert!(err.contains(word), "{extra:?}: {err}");
    }
    for at in ["nan,1,1", "1,inf,1", "1,2", "2e9,0,0"] {
        let err = fails(&[
            "sculpt",
            s(&w),
            "--tool",
            "subtract",
            "--at",
            at,
            "--radius",
            "3",
        ]);
        assert!(err.contains("--at"), "{at}: {err}");
    }
    for h in ["nan", "inf", "x"] {
        let err = fails(&["sea-level", s(&w), "--height", h]);
        assert!(err.contains("--height"), "{h}: {err}");
    }
    let err = fails(&[
        "sea-level",
        s(&w),
        "--height",
        "4",
        "--box",
        "100,0,100,120,8,120",
    ]);
    assert!(err.contains("outside the world"), "{err}");
    assert_eq!(
        std::fs::read(&w).expect("world"),
        before,
        "nothing was written"
    );
    // A dab that changes nothing leaves the file alone.
    let out = ok(&[
        "sculpt",
        s(&w),
        "--tool",
        "subtract",
        "--at",
        "16,15.5,16",
        "--radius",
        "0.5",
    ]);
    assert!(String::from_utf8_lossy(&out.stdout).contains("changed nothing"));
    assert_eq!(std::fs::read(&w).expect("world"), before);
}

#[test]
fn cleanup_clears_what_old_carving_left_so_sea_level_floods_it() {
    let d = temp_dir("cleanup");
    let w = d.join("w.strata");
    ok(&["new", s(&w), "--preset", "flat", "--size", "64,32,64"]);
    // Ground up to y = 8. What older versions' Subtract left in a trench: Ground at 1/256 occupancy.
    ok(&["delete", s(&w), "--box", "10,3,10,30,8,30"]);
    ok(&[
        "fill",
        s(&w),
        "--box",
        "10,3,10,30,8,30",
        "--material",
        "Ground",
        "--occupancy",
        "0.00390625",
    ]);
    let dry = d.join("dry.strata");
    ok(&["sea-level", s(&w), "--height", "7", "-o", s(&dry)]);
    let water_in = |f: &Path| -> usize {
        raw(&d, f, [64, 32, 64])
            .chunks_exact(2)
            .filter(|v| v[0] == 1)
            .count()
    };
    assert_eq!(water_in(&dry), 0, "thin matter keeps the trench dry");
    let steps = info(&w)["history_steps"].as_u64().expect("steps");
    let out = ok(&["cleanup", s(&w), "--json"]);
    let j: Value = serde_json::from_slice(&out.stdout).expect("json");
    assert_eq!(j["voxels"], 20 * 5 * 20, "{j}");
    assert_eq!(j["bounds"]["min"], serde_json::json!([10, 3, 10]));
    assert_eq!(j["bounds"]["max"], serde_json::json!([29, 7, 29]));
    assert_eq!(info(&w)["history_steps"], steps + 1, "one undo step");
    let wet = d.join("wet.strata");
    ok(&["sea-level", s(&w), "--height", "7", "-o", s(&wet)]);
    assert_eq!(water_in(&wet), 20 * 4 * 20);
    // Nothing left: the file is not rewritten.
    let before = std::fs::read(&w).expect("world");
    let out = ok(&["cleanup", s(&w)]);
    assert!(String::from_utf8_lossy(&out.stdout).contains("no invisible matter"));
    assert_eq!(std::fs::read(&w).expect("world"), before);
}

/// Eight `fill`s of one project in place, all at once: each takes the file's lock for its
/// read-modify-write, so every edit lands and the history holds all eight steps.
#[test]
fn parallel_edits_of_one_project_lose_nothing() {
    let d = temp_dir("parallel");
    let w = d.join("p.strata");
    ok(&["new", s(&w), "--preset", "flat", "--size", "64,32,64"]);
    let children: Vec<_> = (0..8)
        .map(|k| {
            let b = format!("{},20,0,{},24,8", 8 * k, 8 * k + 8);
            std::process::Command::new(env!("CARGO_BIN_EXE_strata"))
                .args(["fill", s(&w), "--box", &b, "--material", "Brick"])
                .stdout(std::process::Stdio::piped())
                .stderr(std::process::Stdio::piped())
                .spawn()
                .expect("runs")
        })
        .collect::<Vec<_>>();
    for c in children {
        let out = c.wait_with_output().expect("ends");
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    let i = info(&w);
    assert_eq!(i["history_steps"], 8, "{i}");
    let brick = raw(&d, &w, [64, 32, 64])
        .chunks_exact(2)
        .filter(|v| v[0] == 18)
        .count();
    assert_eq!(brick, 8 * 8 * 4 * 8, "every fill landed");
}
