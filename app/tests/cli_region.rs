//! `strata copy`, `paste`, `fill` and `delete` as scripts run them: results checked through
//! `strata export --format raw` against voxel-by-voxel computations written here, the undo step in
//! the saved history, and bad input that must fail and leave every file as it was.

mod common;

use std::path::{Path, PathBuf};

use common::{fails, new_world, ok, s, strata, temp_dir};
use strata_engine::format::project::{Project, ProjectHeader};
use strata_engine::storage::Grid;
use strata_engine::voxel::{MaterialTable, Voxel, VoxelBox, VoxelPos};

const WORLD: [i32; 3] = [64, 48, 64];

/// The voxels of `b` in `file`, as (material, occupancy) pairs, read through `strata export`.
fn raw(file: &Path, b: &str) -> Vec<[u8; 2]> {
    let out = file.with_extension(format!("{}.raw", b.replace(['-', ','], "_")));
    ok(&["export", s(file), s(&out), "--format", "raw", "--box", b]);
    let bytes = std::fs::read(&out).expect("raw export");
    bytes.chunks_exact(2).map(|p| [p[0], p[1]]).collect()
}

fn whole_world(file: &Path) -> Vec<[u8; 2]> {
    raw(
        file,
        &format!("0,0,0,{},{},{}", WORLD[0], WORLD[1], WORLD[2]),
    )
}

/// A stamp of `size` with seeded varied voxels (materials 0..6, any occupancy), made by
/// `strata import --format raw`; returns its path and voxels.
fn random_stamp(dir: &Path, name: &str, size: [u32; 3], seed: u64) -> (PathBuf, Vec<[u8; 2]>) {
    let mut state = seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
    let mut next = || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let n = size.iter().map(|&v| v as usize).product();
    let voxels: Vec<[u8; 2]> = (0..n)
        .map(|_| {
            let r = next();
            let m = (r % 6) as u8;
            let o = if m == 0 { 0 } else { (r >> 8) as u8 };
            [m, o]
        })
        .collect();
    let raw_path = dir.join(format!("{name}.raw"));
    std::fs::write(&raw_path, voxels.concat()).expect("write raw");
    let stamp = dir.join(format!("{name}.strata"));
    let size_arg = format!("{},{},{}", size[0], size[1], size[2]);
    ok(&[
        "import",
        s(&raw_path),
        s(&stamp),
        "--format",
        "raw",
        "--size",
        &size_arg,
    ]);
    (stamp, voxels)
}

fn index(size: [i32; 3], p: [i32; 3]) -> usize {
    ((p[2] * size[1] + p[1]) * size[0] + p[0]) as usize
}

/// Where stamp voxel `p` of a stamp sized `size` lands, relative to the turned stamp's corner, and
/// the turned size: `--rotate 90` is (x, y, z) -> (z, y, sx − 1 − x), repeated; then the mirror.
fn place(p: [i32; 3], size: [i32; 3], turns: u32, mirror: Option<usize>) -> ([i32; 3], [i32; 3]) {
    let (mut p, mut size) = (p, size);
    for _ in 0..turns {
        p = [p[2], p[1], size[0] - 1 - p[0]];
        size = [size[2], size[1], size[0]];
    }
    if let Some(axis) = mirror {
        p[axis] = size[axis] - 1 - p[axis];
    }
    (p, size)
}

/// The paste rules: replace writes everything; merge keeps the higher occupancy (Air 0, tie keeps
/// the world); air writes only into Air.
fn combine(mode: &str, world: [u8; 2], stamp: [u8; 2]) -> [u8; 2] {
    let occ = |v: [u8; 2]| if v[0] == 0 { 0 } else { u32::from(v[1]) + 1 };
    match mode {
        "replace" => stamp,
        "merge" if occ(stamp) > occ(world) => stamp,
        "air" if world[0] == 0 => stamp,
        _ => world,
    }
}

/// The world after pasting `stamp` (sized `size`) at `at`, clipped to the world.
fn expected_paste(
    world: &[[u8; 2]],
    stamp: &[[u8; 2]],
    size: [i32; 3],
    at: [i32; 3],
    turns: u32,
    mirror: Option<usize>,
    mode: &str,
) -> Vec<[u8; 2]> {
    let mut out = world.to_vec();
    for z in 0..size[2] {
        for y in 0..size[1] {
            for x in 0..size[0] {
                let (q, _) = place([x, y, z], size, turns, mirror);
                let w = [at[0] + q[0], at[1] + q[1], at[2] + q[2]];
                if (0..3).all(|i| (0..WORLD[i]).contains(&w[i])) {
                    let i = index(WORLD, w);
                    out[i] = combine(mode, world[i], stamp[index(size, [x, y, z])]);
                }
            }
        }
    }
    out
}

fn grid_of(file: &Path) -> Project {
    Project::load(file).expect("loads")
}

/// One undo step in the saved history, and undoing it gives back `original`'s voxels bit for bit.
fn check_one_undo_step(edited: &Path, original: &Path) {
    let mut p = grid_of(edited);
    assert_eq!(p.history.undo_len(), 1, "{}", edited.display());
    p.history.undo(&mut p.grid).expect("undo");
    assert_eq!(p.grid, grid_of(original).grid, "undo restores the world");
}

#[test]
fn copy_writes_the_box_as_a_stamp_at_the_origin() {
    let d = temp_dir("region-copy");
    let w = new_world(&d, "w", "canyons", "64,48,64", 4);
    let st = d.join("st.strata");
    let out = ok(&["copy", s(&w), s(&st), "--box", "5,3,-4,37,40,20"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("clipped to 5,3,0,37,40,20"), "{stderr}");
    let p = grid_of(&st);
    let b = VoxelBox::new(VoxelPos::new(0, 0, 0), VoxelPos::new(32, 37, 20));
    assert_eq!(p.header.bounds, b);
    assert!(p.history.is_empty());
    assert_eq!(raw(&st, "0,0,0,32,37,20"), raw(&w, "5,3,0,37,40,20"));
    assert_eq!(raw(&st, "-2,-2,-2,0,40,40"), vec![[0, 0]; 2 * 42 * 42]);
}

#[test]
fn paste_turns_mirrors_and_combines_as_specified() {
    let d = temp_dir("region-paste");
    let w = new_world(&d, "w", "canyons", "64,48,64", 4);
    let world = whole_world(&w);
    let size = [9, 7, 5];
    let (stamp, voxels) = random_stamp(&d, "st", size.map(|v| v as u32), 11);
    let cases: [(&str, Option<&str>, &str, [i32; 3]); 8] = [
        ("0", None, "replace", [3, 10, 4]),
        ("90", None, "replace", [20, 12, 30]),
        ("180", None, "merge", [40, 20, 2]),
        ("270", None, "air", [10, 25, 50]),
        ("90", Some("x"), "replace", [30, 0, 30]),
        ("90", Some("y"), "merge", [5, 30, 5]),
        ("270", Some("z"), "replace", [50, 5, 55]),
        ("180", Some("x"), "air", [60, 44, 62]),
    ];
    for (k, (rotate, mirror, mode, at)) in cases.into_iter().enumerate() {
        let out = d.join(format!("out{k}.strata"));
        let at_arg = format!("{},{},{}", at[0], at[1], at[2]);
        let mut args = vec![
            "paste",
            s(&w),
            s(&stamp),
            "--at",
            &at_arg,
            "--rotate",
            rotate,
            "--mode",
            mode,
            "-o",
            s(&out),
        ];
        if let Some(m) = mirror {
            args.extend(["--mirror", m]);
        }
        ok(&args);
        let turns = rotate.parse::<u32>().expect("degrees") / 90;
        let axis = mirror.map(|m| "xyz".find(m).expect("axis"));
        let expect = expected_paste(&world, &voxels, size, at, turns, axis, mode);
        assert_eq!(
            whole_world(&out),
            expect,
            "--rotate {rotate} --mirror {mirror:?} --mode {mode}"
        );
        check_one_undo_step(&out, &w);
    }
    assert_eq!(whole_world(&w), world, "-o leaves FILE alone");
}

#[test]
fn rotate_90_lands_voxel_x_y_z_at_z_y_sx_minus_1_minus_x() {
    let d = temp_dir("region-rot90");
    let w = new_world(&d, "w", "flat", "64,48,64", 1);
    let size = [6, 3, 4];
    let (stamp, voxels) = random_stamp(&d, "st", [6, 3, 4], 5);
    ok(&[
        "paste",
        s(&w),
        s(&stamp),
        "--at",
        "10,20,30",
        "--rotate",
        "90",
    ]);
    // The turned stamp is sized (sz, sy, sx) = (4, 3, 6).
    let got = raw(&w, "10,20,30,14,23,36");
    for z in 0..size[2] {
        for y in 0..size[1] {
            for x in 0..size[0] {
                let landed = [z, y, size[0] - 1 - x];
                assert_eq!(
                    got[index([4, 3, 6], landed)],
                    voxels[index(size, [x, y, z])],
                    "stamp voxel {x},{y},{z}"
                );
            }
        }
    }
    assert!(
        w.with_extension("strata.bak").exists(),
        "in place keeps a .bak"
    );
}

#[test]
fn fill_and_delete_write_the_box_as_one_step() {
    let d = temp_dir("region-fill");
    let w = new_world(&d, "w", "hills", "64,48,64", 2);
    let table = MaterialTable::builtin();
    let rock = table.require("Rock").expect("rock");
    let f = d.join("f.strata");
    ok(&[
        "fill",
        s(&w),
        "--box",
        "4,5,6,20,30,25",
        "--material",
        "ROCK",
        "--occupancy",
        "0.3",
        "-o",
        s(&f),
    ]);
    // round(0.3 × 256) − 1 = 76.
    assert_eq!(raw(&f, "4,5,6,20,30,25"), vec![[rock, 76]; 16 * 25 * 19]);
    check_one_undo_step(&f, &w);
    let full = d.join("full.strata");
    ok(&[
        "fill",
        s(&w),
        "--box",
        "0,0,0,3,3,3",
        "--material",
        "rock",
        "-o",
        s(&full),
    ]);
    assert_eq!(raw(&full, "0,0,0,3,3,3"), vec![[rock, 255]; 27]);
    let del = d.join("del.strata");
    ok(&["delete", s(&w), "--box", "10,0,10,40,48,40", "-o", s(&del)]);
    assert_eq!(raw(&del, "10,0,10,40,48,40"), vec![[0, 0]; 30 * 48 * 30]);
    assert_eq!(raw(&del, "0,0,0,10,48,10"), raw(&w, "0,0,0,10,48,10"));
    check_one_undo_step(&del, &w);
    // In place: the history grows by one step per edit.
    ok(&["delete", s(&w), "--box", "0,0,0,8,8,8"]);
    ok(&["fill", s(&w), "--box", "0,0,0,4,4,4", "--material", "sand"]);
    assert_eq!(grid_of(&w).history.undo_len(), 2);
}

/// Run `args`, require failure with `needle` in the message, and check that no file in `dir`
/// changed and none appeared.
fn fails_cleanly(dir: &Path, args: &[&str], needle: &str) {
    let listing = |d: &Path| -> Vec<(PathBuf, Vec<u8>)> {
        let mut v: Vec<_> = std::fs::read_dir(d)
            .expect("dir")
            .map(|e| {
                let p = e.expect("entry").path();
                let bytes = std::fs::read(&p).unwrap_or_default();
                (p, bytes)
            })
            .collect();
        v.sort();
        v
    };
    let before = listing(dir);
    let err = fails(args);
    assert!(err.contains(needle), "{args:?}: {err}");
    assert!(!err.contains("panicked"), "{err}");
    assert_eq!(listing(dir), before, "{args:?} changed files");
}

#[test]
fn bad_input_fails_clearly_and_changes_nothing() {
    let d = temp_dir("region-bad");
    let w = new_world(&d, "w", "hills", "64,48,64", 2);
    let sw = s(&w);
    let (small, _) = random_stamp(&d, "small", [4, 4, 4], 3);
    let out = d.join("out.strata");
    let so = s(&out);
    // Boxes: outside the world, empty.
    fails_cleanly(
        &d,
        &["delete", sw, "--box", "100,0,0,120,8,8"],
        "outside the world",
    );
    fails_cleanly(
        &d,
        &["fill", sw, "--box", "0,0,0,0,8,8", "--material", "rock"],
        "empty",
    );
    fails_cleanly(
        &d,
        &["copy", sw, so, "--box", "-9,-9,-9,-1,5,5"],
        "outside the world",
    );
    fails_cleanly(&d, &["copy", sw, so, "--box", "4,4,4,4,9,9"], "empty");
    // Materials and occupancy.
    fails_cleanly(
        &d,
        &[
            "fill",
            sw,
            "--box",
            "0,0,0,4,4,4",
            "--material",
            "unobtainium",
        ],
        "unknown material \"unobtainium\"",
    );
    for occ in ["0", "1.5", "nan", "0.001"] {
        fails_cleanly(
            &d,
            &[
                "fill",
                sw,
                "--box",
                "0,0,0,4,4,4",
                "--material",
                "rock",
                "--occupancy",
                occ,
            ],
            "--occupancy",
        );
    }
    // Stamps: larger than the world, larger than the world limits, corrupt, missing, outside.
    let big = d.join("big.strata");
    Project::new(
        ProjectHeader::new(
            "big",
            VoxelBox::new(VoxelPos::new(0, 0, 0), VoxelPos::new(80, 8, 8)),
        ),
        Grid::new(),
    )
    .save(&big)
    .expect("save");
    fails_cleanly(
        &d,
        &["paste", sw, s(&big), "--at", "0,0,0"],
        "larger than the world",
    );
    fails_cleanly(
        &d,
        &["paste", sw, s(&big), "--at", "0,0,0", "--rotate", "90"],
        "larger than the world",
    );
    let huge = d.join("huge.strata");
    let mut grid = Grid::new();
    grid.set(VoxelPos::new(1, 1, 1), Voxel::filled(2));
    Project::new(
        ProjectHeader::new(
            "huge",
            VoxelBox::new(VoxelPos::new(0, 0, 0), VoxelPos::new(20000, 8, 8)),
        ),
        grid,
    )
    .save(&huge)
    .expect("save");
    fails_cleanly(
        &d,
        &["paste", sw, s(&huge), "--at", "0,0,0"],
        "larger than the world limits",
    );
    let lava = d.join("lava.strata");
    let mut header = ProjectHeader::new(
        "lava",
        VoxelBox::new(VoxelPos::new(0, 0, 0), VoxelPos::new(4, 4, 4)),
    );
    let mut extra = header.materials.materials[7].clone();
    extra.name = "Lava".into();
    header.materials.materials.push(extra);
    let id = (header.materials.len() - 1) as u8;
    let mut grid = Grid::new();
    grid.set(VoxelPos::new(1, 1, 1), Voxel::filled(id));
    Project::new(header, grid).save(&lava).expect("save");
    fails_cleanly(&d, &["paste", sw, s(&lava), "--at", "0,0,0"], "\"Lava\"");
    let mut bytes = std::fs::read(&small).expect("stamp");
    let n = bytes.len();
    bytes[n / 2] ^= 0x5a;
    let corrupt = d.join("corrupt.strata");
    std::fs::write(&corrupt, &bytes).expect("write");
    fails_cleanly(
        &d,
        &["paste", sw, s(&corrupt), "--at", "0,0,0"],
        "corrupt.strata",
    );
    let cut = d.join("cut.strata");
    std::fs::write(&cut, &bytes[..n - 9]).expect("write");
    fails_cleanly(&d, &["paste", sw, s(&cut), "--at", "0,0,0"], "cut.strata");
    fails_cleanly(
        &d,
        &["paste", sw, s(&d.join("none.strata")), "--at", "0,0,0"],
        "none.strata",
    );
    fails_cleanly(
        &d,
        &["paste", sw, s(&small), "--at", "64,0,0"],
        "entirely outside",
    );
    fails_cleanly(&d, &["paste", sw, s(&small), "--at", "0,0"], "--at");
    // Clap rejects values outside the lists.
    for args in [
        ["paste", sw, s(&small), "--at", "0,0,0", "--rotate", "45"],
        ["paste", sw, s(&small), "--at", "0,0,0", "--mirror", "w"],
        ["paste", sw, s(&small), "--at", "0,0,0", "--mode", "add"],
    ] {
        let o = strata(&args);
        assert!(!o.status.success(), "{args:?}");
    }
    // Partly outside is clipped and said, not an error.
    let o = ok(&["paste", sw, s(&small), "--at", "62,0,0", "-o", so]);
    assert!(String::from_utf8_lossy(&o.stderr).contains("only 62,0,0,64,4,4 is pasted"));
}

#[test]
fn paste_merges_by_default_as_in_the_editor() {
    let d = temp_dir("region-paste-merge");
    let w = new_world(&d, "flat", "flat", "32,32,32", 1);
    // A stamp of pure air over the ground leaves the ground as it was; replace digs.
    let stamp = d.join("air.strata");
    ok(&["copy", s(&w), s(&stamp), "--box", "0,20,0,4,24,4"]);
    let ground = "10,0,10,14,4,14";
    let before = raw(&w, ground);
    assert!(
        before.iter().all(|v| v[1] > 0),
        "solid ground under the paste"
    );
    ok(&["paste", s(&w), s(&stamp), "--at", "10,0,10"]);
    assert_eq!(raw(&w, ground), before, "merge keeps the ground");
    ok(&[
        "paste",
        s(&w),
        s(&stamp),
        "--at",
        "10,0,10",
        "--mode",
        "replace",
    ]);
    assert!(
        raw(&w, ground).iter().all(|v| v[1] == 0),
        "replace writes the air"
    );
}
