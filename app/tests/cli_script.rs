//! `strata script run`: the example scripts in assets/scripts on a small world (what each did),
//! one undo step per project, JSON summary, and sandbox escapes and limits leaving the project
//! byte-for-byte unchanged with the script's file and line in the error.

mod common;

use std::path::{Path, PathBuf};

use common::{fails, new_world, ok, s, temp_dir};
use strata_engine::format::project::Project;
use strata_engine::voxel::{VoxelBox, VoxelPos};

fn example(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../assets/scripts")
        .join(name)
}

/// Voxels of `material` in the world's bounds.
fn count(p: &Project, material: &str) -> usize {
    let id = p.header.materials.id_of(material).expect("material");
    p.grid
        .read_box_vec(p.header.bounds)
        .iter()
        .filter(|v| v.material == id && !v.is_air())
        .count()
}

fn load(p: &Path) -> Project {
    Project::load(p).expect("load")
}

fn summary(out: &std::process::Output) -> serde_json::Value {
    serde_json::from_slice(&out.stdout).expect("json summary")
}

#[test]
fn island_generator_builds_an_island_as_one_step() {
    let dir = temp_dir("script-island");
    let w = new_world(&dir, "flat", "flat", "64,32,64", 1);
    let out_path = dir.join("island.strata");
    let before = load(&w);
    let out = ok(&[
        "script",
        "run",
        s(&example("island.luau")),
        s(&w),
        "-o",
        s(&out_path),
        "--json",
    ]);
    let j = summary(&out);
    let p0 = &j["projects"][0];
    assert_eq!(p0["error"], serde_json::Value::Null);
    assert_eq!(p0["undo_step"], "Generate island");
    assert!(p0["voxels_written"].as_u64().unwrap_or(0) > 10_000, "{p0}");
    assert_eq!(p0["output"][0], "island generated: 256 studs across");
    let after = load(&out_path);
    assert_eq!(
        after.history.undo_len(),
        before.history.undo_len() + 1,
        "one undo step"
    );
    assert_eq!(after.history.undo_names().last(), Some("Generate island"));
    // The middle is high grass above the old plain; the corners are water over a sandy floor.
    let top = |p: &Project, x: i32, z: i32| {
        (0..32)
            .rev()
            .find(|&y| !p.grid.get(VoxelPos::new(x, y, z)).is_air())
    };
    let surface = |p: &Project, x: i32, z: i32| {
        p.grid
            .get(VoxelPos::new(x, top(p, x, z).unwrap_or(0), z))
            .material
    };
    let id = |name: &str| after.header.materials.id_of(name);
    assert_eq!(Some(surface(&after, 32, 32)), id("Grass"));
    assert!(
        top(&after, 32, 32) > top(&before, 32, 32),
        "the island rises above the plain"
    );
    assert_eq!(
        Some(surface(&after, 1, 1)),
        id("Water"),
        "sea at the corner"
    );
    assert_eq!(
        Some(after.grid.get(VoxelPos::new(1, 0, 1)).material),
        id("Sand")
    );
    assert!(count(&after, "Sand") > 0 && count(&after, "Water") > count(&before, "Water"));
}

#[test]
fn river_carver_cuts_a_channel_and_rock_painter_paints_slopes() {
    let dir = temp_dir("script-river");
    let w = new_world(&dir, "hills", "hills", "64,32,64", 3);
    let before = load(&w);
    let river = dir.join("river.strata");
    ok(&[
        "script",
        "run",
        s(&example("river.luau")),
        s(&w),
        "-o",
        s(&river),
    ]);
    let after = load(&river);
    // Along the path's middle (z = 32 at x = 0 and x = 64; sin(0) = 0), solid ground went down.
    let solid_in = |p: &Project, b: VoxelBox| {
        p.grid
            .read_box_vec(b)
            .iter()
            .filter(|v| !v.is_air() && v.material != 1)
            .count()
    };
    let strip = VoxelBox::new(VoxelPos::new(0, 0, 30), VoxelPos::new(4, 32, 34));
    assert!(
        solid_in(&after, strip) < solid_in(&before, strip),
        "a channel was carved"
    );
    assert!(
        count(&after, "Water") > count(&before, "Water"),
        "water in the bed"
    );
    assert_eq!(after.history.undo_names().last(), Some("Carve river"));

    let painted = dir.join("painted.strata");
    let out = ok(&[
        "script",
        "run",
        s(&example("rock_slopes.luau")),
        s(&w),
        "-o",
        s(&painted),
        "--arg",
        "angle=40",
    ]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("on slopes steeper than 40 degrees"), "{text}");
    let after = load(&painted);
    assert!(
        count(&after, "Rock") > count(&before, "Rock"),
        "rock painted"
    );
    assert_eq!(
        after
            .grid
            .read_box_vec(after.header.bounds)
            .iter()
            .filter(|v| v.is_air())
            .count(),
        before
            .grid
            .read_box_vec(before.header.bounds)
            .iter()
            .filter(|v| v.is_air())
            .count(),
        "painting changes materials, not shape"
    );
    assert_eq!(
        after.history.undo_names().last(),
        Some("Script rock_slopes")
    );
}

#[test]
fn escapes_and_limits_leave_the_project_unchanged() {
    let dir = temp_dir("script-escape");
    let w = new_world(&dir, "flat", "flat", "64,32,64", 1);
    let original = std::fs::read(&w).expect("read");
    let cases: [(&str, &str, &[&str]); 10] = [
        ("gfenv", "getfenv(1).x = 1", &["gfenv.luau:1", "getfenv"]),
        ("ld", "local f = load('return 1')", &["ld.luau:1", "load is not available"]),
        ("io", "local f = io.open('/etc/passwd')", &["io.luau:1", "io.open"]),
        ("os", "print(1)\nos.execute('touch x')", &["os.luau:2", "os.execute"]),
        ("req", "require('../x')", &["req.luau:1", "require"]),
        ("ls", "loadstring('return 1')()", &["ls.luau:1", "loadstring"]),
        ("fenv", "setfenv(1, {})", &["fenv.luau:1", "setfenv"]),
        ("loop", "workspace.Terrain:FillBall(Vector3.new(32,32,32), 8, Enum.Material.Rock)\nwhile true do end", &["loop.luau:2", "time limit"]),
        ("mem", "local t = {}\nfor i = 1, 1e9 do t[i] = {i} end", &["mem.luau:2", "memory limit of 64 MB"]),
        ("err", "workspace.Terrain:FillBall(Vector3.new(32,32,32), 8, Enum.Material.Rock)\nerror('stop here')", &["err.luau:2", "stop here"]),
    ];
    for (name, source, words) in cases {
        let script = dir.join(format!("{name}.luau"));
        std::fs::write(&script, source).expect("write");
        let e = fails(&[
            "script",
            "run",
            s(&script),
            s(&w),
            "--in-place",
            "--timeout",
            "1",
            "--memory",
            "64",
        ]);
        for word in words {
            assert!(e.contains(word), "{name}: {e}");
        }
        assert_eq!(
            std::fs::read(&w).expect("read"),
            original,
            "{name}: project changed"
        );
    }
}

#[test]
fn in_place_on_several_projects_and_bad_arguments() {
    let dir = temp_dir("script-many");
    let a = new_world(&dir, "a", "flat", "32,32,32", 1);
    let b = new_world(&dir, "b", "flat", "32,32,32", 2);
    let script = dir.join("ball.luau");
    std::fs::write(
        &script,
        "workspace.Terrain:FillBall(Vector3.new(64, 100, 64), 8, Enum.Material.Rock)",
    )
    .expect("write");
    ok(&["script", "run", s(&script), s(&a), s(&b), "--in-place"]);
    for p in [&a, &b] {
        let p = load(p);
        assert_eq!(p.history.undo_names().last(), Some("Script ball"));
        assert!(!p.grid.get(VoxelPos::new(16, 25, 16)).is_air());
    }
    assert!(
        fails(&["script", "run", s(&script), s(&a), s(&b), "-o", "x.strata"])
            .contains("one project")
    );
    assert!(fails(&["script", "run", s(&script), s(&a), "--arg", "novalue"]).contains("KEY=VALUE"));
    assert!(fails(&["script", "run", s(&script), s(&a), "--timeout", "0"]).contains("--timeout"));
    assert!(fails(&["script", "run", "missing.luau", s(&a)]).contains("missing.luau"));
    let bake = dir.join("bake.luau");
    std::fs::write(&bake, "workspace.Terrain:FillBall(Vector3.new(64, 100, 64), 8, Enum.Material.Rock)\nstrata.bake{quality = 'draft'}").expect("write");
    let baked = dir.join("baked.strata");
    assert!(load(&a).light.is_none());
    ok(&["script", "run", s(&bake), s(&a), "-o", s(&baked)]);
    assert!(load(&baked).light.is_some(), "strata.bake baked the light");
}
