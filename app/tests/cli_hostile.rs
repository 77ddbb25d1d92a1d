//! Hostile files and paths against the real binary. Every file is crafted in the test.

mod common;

use std::path::Path;
use std::process::{Command, Stdio};

use common::{fails, new_world, ok, s, strata, temp_dir};

fn names_in(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir)
        .expect("list")
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    v.sort();
    v
}

#[test]
fn output_that_is_the_input_is_refused_by_identity() {
    let dir = temp_dir("same");
    let w = new_world(&dir, "w", "flat", "64,32,64", 1);
    let before = std::fs::read(&w).expect("read");
    let e = fails(&[
        "export",
        s(&w),
        s(&w),
        "--format",
        "raw",
        "--box",
        "0,0,0,4,4,4",
    ]);
    assert!(e.contains("is the input file"), "{e}");
    let e = fails(&["render", s(&w), s(&w)]);
    assert!(e.contains("is the input file"), "{e}");
    // Another spelling of the same file is caught too.
    let other = dir.join(".").join("w.strata");
    fails(&["export", s(&w), s(&other), "--format", "obj"]);
    let raw = dir.join("in.raw");
    std::fs::write(&raw, [0u8; 16]).expect("raw");
    let e = fails(&[
        "import",
        s(&raw),
        s(&raw),
        "--format",
        "raw",
        "--size",
        "2,2,2",
    ]);
    assert!(e.contains("is the input file"), "{e}");
    assert_eq!(
        std::fs::read(&w).expect("read"),
        before,
        "the project is untouched"
    );
    assert_eq!(std::fs::read(&raw).expect("read"), [0u8; 16]);
}

#[test]
fn export_boxes_are_bounded_before_anything_is_written() {
    let dir = temp_dir("box");
    let w = new_world(&dir, "w", "flat", "64,32,64", 1);
    let listing = names_in(&dir);
    let out = dir.join("big.raw");
    let e = fails(&[
        "export",
        s(&w),
        s(&out),
        "--format",
        "raw",
        "--box",
        "0,0,0,100000,100000,100000",
    ]);
    assert!(e.contains("at most 17179869184 voxels"), "{e}");
    let e = fails(&[
        "export",
        s(&w),
        s(&out),
        "--format",
        "rle",
        "--box",
        "-2147483648,-2147483648,-2147483648,2147483647,2147483647,2147483647",
    ]);
    assert!(e.contains("coordinate range"), "{e}");
    assert_eq!(names_in(&dir), listing, "no output and no temporary file");
    // A thin but long box streams in constant memory and equals the voxels (RLE of Air past the world).
    let rle = dir.join("long.rle");
    ok(&[
        "export",
        s(&w),
        s(&rle),
        "--format",
        "rle",
        "--box",
        "0,0,0,64,2,1000000",
    ]);
    let back = dir.join("back.strata");
    ok(&[
        "import",
        s(&rle),
        s(&back),
        "--format",
        "rle",
        "--size",
        "64,2,1000000",
    ]);
    let raw_a = dir.join("a.raw");
    let raw_b = dir.join("b.raw");
    ok(&[
        "export",
        s(&w),
        s(&raw_a),
        "--format",
        "raw",
        "--box",
        "0,0,0,64,2,64",
    ]);
    ok(&[
        "export",
        s(&back),
        s(&raw_b),
        "--format",
        "raw",
        "--box",
        "0,0,0,64,2,64",
    ]);
    assert_eq!(
        std::fs::read(&raw_a).expect("a"),
        std::fs::read(&raw_b).expect("b")
    );
}

#[cfg(unix)]
#[test]
fn devices_fifos_and_folders_are_neither_read_nor_replaced() {
    let dir = temp_dir("special");
    let w = new_world(&dir, "w", "flat", "64,32,64", 1);
    let e = fails(&["info", "/dev/zero"]);
    assert!(e.contains("not a regular file"), "{e}");
    let link = dir.join("zero.strata");
    std::os::unix::fs::symlink("/dev/zero", &link).expect("link");
    let e = fails(&["info", s(&link)]);
    assert!(e.contains("not a regular file"), "{e}");
    let fifo = dir.join("pipe.strata");
    if Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .is_ok_and(|st| st.success())
    {
        let e = fails(&["info", s(&fifo)]);
        assert!(e.contains("not a regular file"), "{e}");
        let e = fails(&["render", s(&w), s(&fifo)]);
        assert!(e.contains("not a regular file"), "{e}");
    }
    let e = fails(&["render", s(&w), "/dev/null"]);
    assert!(e.contains("not a regular file"), "{e}");
    let e = fails(&["render", s(&w), s(&dir)]);
    assert!(e.contains("is a folder"), "{e}");
    assert!(!e.contains("neither a regular file"), "{e}");
}

#[cfg(unix)]
#[test]
fn vxr_export_stays_inside_its_folder() {
    let dir = temp_dir("vxrlink");
    let w = new_world(&dir, "w", "flat", "64,32,64", 1);
    let outside = dir.join("outside");
    std::fs::create_dir_all(&outside).expect("outside");
    std::fs::write(outside.join("r.9.9.9.vxr"), b"keep me").expect("victim");
    let forest = dir.join("forest");
    std::fs::create_dir_all(forest.join("regions")).expect("forest");
    std::os::unix::fs::symlink(&outside, forest.join("regions").join("lod0")).expect("link");
    let e = fails(&["export", s(&w), s(&forest), "--format", "vxr"]);
    assert!(e.contains("is a symlink"), "{e}");
    assert_eq!(
        names_in(&outside),
        ["r.9.9.9.vxr"],
        "nothing written or removed outside"
    );
}

#[test]
fn vxr_import_reports_skipped_files_and_fails_on_nothing() {
    let dir = temp_dir("vxrskip");
    let w = new_world(&dir, "w", "flat", "64,32,64", 1);
    let forest = dir.join("forest");
    ok(&["export", s(&w), s(&forest), "--format", "vxr"]);
    let lod0 = forest.join("regions").join("lod0");
    std::fs::write(lod0.join("notes.txt"), b"x").expect("extra");
    let out = ok(&[
        "import",
        s(&forest),
        s(&dir.join("back.strata")),
        "--format",
        "vxr",
    ]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("skipped") && err.contains("notes.txt"),
        "{err}"
    );
    for e in names_in(&lod0) {
        if e.ends_with(".vxr") {
            std::fs::rename(lod0.join(&e), lod0.join(format!("{e}.old"))).expect("rename");
        }
    }
    let e = fails(&[
        "import",
        s(&forest),
        s(&dir.join("none.strata")),
        "--format",
        "vxr",
    ]);
    assert!(e.contains("nothing to import"), "{e}");
    assert!(!dir.join("none.strata").exists());
}

#[cfg(target_os = "linux")]
#[test]
fn broken_stdout_and_stderr_are_errors_not_panics() {
    let dir = temp_dir("full");
    let w = new_world(&dir, "w", "flat", "64,32,64", 1);
    let full = || {
        std::fs::OpenOptions::new()
            .write(true)
            .open("/dev/full")
            .expect("/dev/full")
    };
    let st = Command::new(env!("CARGO_BIN_EXE_strata"))
        .args(["info", s(&w)])
        .stdout(Stdio::from(full()))
        .stderr(Stdio::piped())
        .output()
        .expect("runs");
    assert_eq!(
        st.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&st.stderr)
    );
    assert!(String::from_utf8_lossy(&st.stderr).contains("standard output"));
    let st = Command::new(env!("CARGO_BIN_EXE_strata"))
        .args([
            "new",
            s(&dir.join("n.strata")),
            "--preset",
            "flat",
            "--size",
            "32,32,32",
        ])
        .stderr(Stdio::from(full()))
        .status()
        .expect("runs");
    assert_eq!(st.code(), Some(1), "an error exit, not a panic (101)");
}

#[test]
fn info_escapes_control_characters_from_the_file() {
    let dir = temp_dir("escape");
    let raw = dir.join("a\u{1b}[2Jb.raw");
    std::fs::write(&raw, [0u8; 16]).expect("raw");
    let w = dir.join("w.strata");
    ok(&[
        "import",
        s(&raw),
        s(&w),
        "--format",
        "raw",
        "--size",
        "2,2,2",
    ]);
    let out = ok(&["info", s(&w)]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(!text.contains('\u{1b}'), "{text:?}");
    assert!(text.contains("a\\u{1b}[2Jb"), "{text:?}");
}

#[test]
fn coordinate_edges_are_refused_or_work() {
    let dir = temp_dir("edges");
    let raw = dir.join("cube.raw");
    let mut bytes = Vec::new();
    for _ in 0..32 * 32 * 32 {
        bytes.extend_from_slice(&[7, 255]);
    }
    std::fs::write(&raw, &bytes).expect("raw");
    let w = dir.join("w.strata");
    let e = fails(&[
        "import",
        s(&raw),
        s(&w),
        "--format",
        "raw",
        "--size",
        "32,32,32",
        "--origin",
        "0,-2147483648,0",
    ]);
    assert!(e.contains("coordinate range"), "{e}");
    // The last legal chunk on every axis: import, mesh and vxr export work.
    ok(&[
        "import",
        s(&raw),
        s(&w),
        "--format",
        "raw",
        "--size",
        "32,32,32",
        "--origin",
        "1073741792,-1073741824,1073741792",
    ]);
    let mesh = ok(&["export", s(&w), s(&dir.join("m.obj"))]);
    assert!(!String::from_utf8_lossy(&mesh.stderr).contains("mesh is empty"));
    ok(&["export", s(&w), s(&dir.join("forest")), "--format", "vxr"]);
    ok(&["render", s(&w), s(&dir.join("r.png"))]);
    let e = fails(&[
        "export",
        s(&w),
        s(&dir.join("m2.obj")),
        "--box",
        "0,-2147483648,0,16,16,16",
    ]);
    assert!(e.contains("coordinate range"), "{e}");
    // A box with no surface says so.
    let out = ok(&[
        "export",
        s(&w),
        s(&dir.join("m3.obj")),
        "--box",
        "0,0,0,16,16,16",
    ]);
    assert!(String::from_utf8_lossy(&out.stderr).contains("mesh is empty"));
}

#[test]
fn long_names_save_and_obj_never_shares_its_mtl() {
    let dir = temp_dir("names");
    let long = "n".repeat(255 - ".strata".len()) + ".strata";
    let w = new_world(
        &dir,
        &long[..long.len() - ".strata".len()],
        "flat",
        "32,32,32",
        1,
    );
    assert!(w.exists());
    new_world(
        &dir,
        &long[..long.len() - ".strata".len()],
        "flat",
        "32,32,32",
        2,
    );
    assert!(
        names_in(&dir).iter().any(|n| n.ends_with(".bak")),
        "a backup is kept"
    );
    let e = fails(&["export", s(&w), s(&dir.join("x.mtl")), "--format", "obj"]);
    assert!(e.contains("material file would be this same file"), "{e}");
    assert!(names_in(&dir).iter().all(|n| !n.ends_with(".tmp")));
    let _ = strata(&["--version"]);
}

/// Every file a command writes, sidecars and backups included, is checked against every file it
/// reads: the same path, a hard link, a symlink or another spelling; nothing is written then.
#[cfg(unix)]
#[test]
fn no_command_writes_over_any_of_its_inputs_sidecars_included() {
    let dir = temp_dir("clobber");
    let w = new_world(&dir, "w", "flat", "32,16,32", 1);
    // A project named like an OBJ's material file.
    let q = dir.join("q.mtl");
    std::fs::copy(&w, &q).expect("q.mtl");
    let stamp = dir.join("stamp.strata");
    ok(&["copy", s(&w), s(&stamp), "--box", "0,0,0,4,8,4"]);
    let hard = dir.join("hard.strata");
    std::fs::hard_link(&stamp, &hard).expect("hard link");
    let soft = dir.join("soft.png");
    std::os::unix::fs::symlink(&w, &soft).expect("symlink");
    let q_obj = dir.join("q.obj");
    let cases: Vec<Vec<&str>> = vec![
        // The OBJ's .mtl sidecar would replace the project it was made from.
        vec!["export", s(&q), s(&q_obj)],
        vec![
            "enhance",
            s(&q),
            "--method",
            "subdivide",
            "--box",
            "0,0,0,8,8,8",
            "--out",
            s(&q_obj),
        ],
        // A screenshot over the project (the check comes before any window opens).
        vec!["open", s(&w), "--screenshot", s(&w)],
        vec!["open", s(&w), "--screenshot", s(&soft)],
        vec!["render", s(&w), s(&soft)],
        // A paste whose output is the stamp it reads, by name or by hard link.
        vec!["paste", s(&w), s(&stamp), "--at", "0,8,0", "-o", s(&stamp)],
        vec!["paste", s(&w), s(&stamp), "--at", "0,8,0", "-o", s(&hard)],
        vec!["copy", s(&w), s(&soft), "--box", "0,0,0,2,2,2"],
    ];
    let snapshot = || {
        [&w, &q, &stamp]
            .iter()
            .map(|p| std::fs::read(p).expect("input"))
            .collect::<Vec<_>>()
    };
    let before = snapshot();
    let names = names_in(&dir);
    for args in &cases {
        let e = fails(args);
        assert!(
            e.contains("is the input file") || e.contains("is the world being copied from"),
            "{args:?}: {e}"
        );
        assert_eq!(snapshot(), before, "{args:?} changed an input");
        assert_eq!(names_in(&dir), names, "{args:?} wrote a file");
    }
    // An input named like the output's backup: saving w.strata over itself keeps w.strata.bak.
    let bak = dir.join("w.strata.bak");
    std::fs::copy(&stamp, &bak).expect("bak-named stamp");
    let e = fails(&["paste", s(&w), s(&bak), "--at", "0,8,0"]);
    assert!(e.contains("the backup of"), "{e}");
    assert_eq!(std::fs::read(&bak).expect("bak"), before[2]);
}

/// Two million one-voxel floating pieces: the search keeps a summary per piece and prints as it
/// goes, so it fits in a bounded address space; `--delete` records one box per chunk.
#[cfg(unix)]
#[test]
fn millions_of_floating_pieces_fit_in_bounded_memory() {
    let dir = temp_dir("checker");
    let (x, y, z) = (256usize, 64usize, 256usize);
    let mut raw = Vec::with_capacity(x * y * z * 2);
    for k in 0..z {
        for j in 0..y {
            for i in 0..x {
                let solid = j > 0 && (i + j + k) % 2 == 0;
                raw.extend_from_slice(if solid { &[7, 255] } else { &[0, 0] });
            }
        }
    }
    let rawf = dir.join("ck.raw");
    std::fs::write(&rawf, &raw).expect("raw");
    drop(raw);
    let w = dir.join("ck.strata");
    ok(&[
        "import",
        s(&rawf),
        s(&w),
        "--format",
        "raw",
        "--size",
        "256,64,256",
    ]);
    let run = |args: &str| {
        Command::new("sh")
            .arg("-c")
            .arg(format!("ulimit -v 1500000; exec \"$0\" {args}"))
            .arg(env!("CARGO_BIN_EXE_strata"))
            .output()
            .expect("sh")
    };
    let out = run(&format!("floating '{}' --json", s(&w)));
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let j: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
    let pieces = 256 * 63 * 256 / 2;
    assert_eq!(j["count"], pieces);
    assert_eq!(j["pieces"].as_array().map(Vec::len), Some(pieces));
    let out = run(&format!("floating '{}' --delete", s(&w)));
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let info: serde_json::Value =
        serde_json::from_slice(&ok(&["info", s(&w), "--json"]).stdout).expect("info");
    assert_eq!(info["nonair_voxels"], 0);
    assert_eq!(info["history_steps"], 1);
}

/// A mesh export of a box as large as coordinates allow walks the stored chunks, not the box: it
/// ends at once with the same mesh as the whole world.
#[test]
fn mesh_export_of_a_huge_box_walks_stored_chunks() {
    let dir = temp_dir("hugebox");
    let w = new_world(&dir, "w", "hills", "64,48,64", 3);
    let huge = "--box=-1073741824,-1073741824,-1073741824,1073741824,1073741824,1073741824";
    for ext in ["obj", "glb"] {
        let whole = dir.join(format!("whole.{ext}"));
        let boxed = dir.join(format!("boxed.{ext}"));
        let a = ok(&["export", s(&w), s(&whole)]);
        let started = std::time::Instant::now();
        let b = ok(&["export", s(&w), s(&boxed), huge]);
        assert!(
            started.elapsed().as_secs() < 30,
            "{ext} took {:?}",
            started.elapsed()
        );
        let summary = |o: &std::process::Output| {
            let e = String::from_utf8_lossy(&o.stderr).into_owned();
            e.split_once(": ").map(|(_, r)| r.to_owned()).unwrap_or(e)
        };
        assert_eq!(summary(&a), summary(&b), "{ext}");
    }
}

/// A fill of the largest world is refused with its estimate before anything is read or written; a
/// delete of it changes only what is stored, a chunk at a time, and ends at once.
#[test]
fn fills_and_deletes_of_the_largest_world_are_estimated_or_cheap() {
    use strata_engine::format::project::{Project, ProjectHeader};
    use strata_engine::storage::Grid;
    use strata_engine::voxel::{Voxel, VoxelBox, VoxelPos};
    let dir = temp_dir("largest");
    let bounds = VoxelBox::new(VoxelPos::new(0, 0, 0), VoxelPos::new(16384, 4096, 16384));
    let mut grid = Grid::new();
    grid.fill_box(
        VoxelBox::new(VoxelPos::new(0, 0, 0), VoxelPos::new(256, 64, 256)),
        Voxel::filled(7),
    );
    let w = dir.join("huge.strata");
    Project::new(ProjectHeader::new("huge", bounds), grid)
        .save(&w)
        .expect("save");
    let before = std::fs::read(&w).expect("read");
    let whole = "0,0,0,16384,4096,16384";
    let started = std::time::Instant::now();
    let e = fails(&["fill", s(&w), "--box", whole, "--material", "Rock"]);
    assert!(
        e.contains("33554432 chunks") && e.contains("at most"),
        "{e}"
    );
    assert_eq!(std::fs::read(&w).expect("read"), before, "nothing written");
    let out = ok(&["delete", s(&w), "--box", whole]);
    assert!(String::from_utf8_lossy(&out.stdout).contains("changed 0,0,0,256,64,256"));
    assert!(started.elapsed().as_secs() < 60, "{:?}", started.elapsed());
}

/// A heightmap import whose world would not fit in memory is refused with its estimate before
/// anything is built (as `strata new` refuses), under the process's address-space limit too.
#[cfg(unix)]
#[test]
fn heightmap_imports_are_estimated_and_refused_when_too_large() {
    let dir = temp_dir("hm-estimate");
    let png = dir.join("one.png");
    image::ImageBuffer::<image::Luma<u16>, Vec<u16>>::from_pixel(1, 1, image::Luma([65535]))
        .save(&png)
        .expect("png");
    let out = dir.join("huge.strata");
    let started = std::time::Instant::now();
    let run = Command::new("sh")
        .arg("-c")
        .arg("ulimit -v 8000000; exec \"$0\" import \"$1\" \"$2\" --format heightmap --size 16384,16384 --height 4096")
        .arg(env!("CARGO_BIN_EXE_strata"))
        .arg(&png)
        .arg(&out)
        .output()
        .expect("sh");
    let e = String::from_utf8_lossy(&run.stderr);
    assert!(!run.status.success(), "{e}");
    assert!(e.contains("GiB of memory") && e.contains("chunks"), "{e}");
    assert!(!out.exists(), "nothing written");
    assert!(started.elapsed().as_secs() < 30, "{:?}", started.elapsed());
    // A small one still imports.
    ok(&[
        "import",
        s(&png),
        s(&out),
        "--format",
        "heightmap",
        "--size",
        "64,64",
        "--height",
        "32",
    ]);
}

/// A world far from the origin (at 2^30 − 64) exports the same mesh as at the origin: positions
/// are written relative to a nearby corner and the offset stated (OBJ comment, glTF translation),
/// instead of collapsing onto the coarse `f32` grid out there.
#[test]
fn meshes_far_from_the_origin_keep_their_detail() {
    let dir = temp_dir("far");
    let w = new_world(&dir, "w", "hills", "64,48,64", 4);
    let raw = dir.join("w.raw");
    ok(&[
        "export",
        s(&w),
        s(&raw),
        "--format",
        "raw",
        "--box",
        "0,0,0,64,48,64",
    ]);
    let far_at = 1_073_741_760i64;
    let far = dir.join("far.strata");
    let origin = format!("{far_at},0,{far_at}");
    ok(&[
        "import",
        s(&raw),
        s(&far),
        "--format",
        "raw",
        "--size",
        "64,48,64",
        "--origin",
        &origin,
    ]);
    let read_obj = |p: &Path| -> (Vec<[f64; 3]>, [i64; 3]) {
        let text = std::fs::read_to_string(p).expect("obj");
        let mut offset = [0i64; 3];
        let mut v = Vec::new();
        for line in text.lines() {
            let parts: Vec<&str> = line.split_whitespace().collect();
            if line.starts_with("# origin") {
                offset = [2, 3, 4].map(|i| parts[i].trim_end_matches(':').parse().expect("int"));
            } else if parts.first() == Some(&"v") {
                v.push([1, 2, 3].map(|i| parts[i].parse::<f64>().expect("number")));
            }
        }
        (v, offset)
    };
    let (near_obj, far_obj) = (dir.join("near.obj"), dir.join("far.obj"));
    ok(&["export", s(&w), s(&near_obj)]);
    ok(&["export", s(&far), s(&far_obj)]);
    let (a, oa) = read_obj(&near_obj);
    let (b, ob) = read_obj(&far_obj);
    assert_eq!(oa, [0, 0, 0]);
    assert!(ob[0] > 1 << 29, "{ob:?}");
    assert_eq!(a.len(), b.len());
    assert!(a.len() > 1000);
    for (p, q) in a.iter().zip(&b) {
        for k in 0..3 {
            let shift = if k == 1 { 0 } else { far_at };
            let world = q[k] + ob[k] as f64 - shift as f64;
            assert!((world - p[k]).abs() < 1e-3, "{p:?} against {q:?} + {ob:?}");
        }
    }
    // glTF: the offset is the node's translation.
    let glb = dir.join("far.glb");
    ok(&["export", s(&far), s(&glb)]);
    let bytes = std::fs::read(&glb).expect("glb");
    let len = u32::from_le_bytes([bytes[12], bytes[13], bytes[14], bytes[15]]) as usize;
    let doc: serde_json::Value = serde_json::from_slice(&bytes[20..20 + len]).expect("json");
    let t = &doc["nodes"][0]["translation"];
    assert_eq!(t[0].as_f64(), Some(ob[0] as f64), "{t}");
    assert_eq!(t[2].as_f64(), Some(ob[2] as f64), "{t}");
}

/// A save past the process's file-size limit (`ulimit -f`) fails with a sentence naming the limit,
/// exit status 1 (not a signal), the previous file intact and no temporary left.
#[cfg(unix)]
#[test]
fn the_file_size_limit_is_an_error_not_a_signal() {
    let dir = temp_dir("fsize");
    let w = new_world(&dir, "w", "hills", "128,64,128", 2);
    let before = std::fs::read(&w).expect("read");
    let names = names_in(&dir);
    let run = Command::new("sh")
        .arg("-c")
        .arg("ulimit -f 40; exec \"$0\" fill \"$1\" --box 0,0,0,100,40,100 --material Brick")
        .arg(env!("CARGO_BIN_EXE_strata"))
        .arg(&w)
        .output()
        .expect("sh");
    let e = String::from_utf8_lossy(&run.stderr);
    assert_eq!(run.status.code(), Some(1), "{e}");
    assert!(e.contains("file-size limit"), "{e}");
    assert_eq!(std::fs::read(&w).expect("read"), before);
    assert_eq!(names_in(&dir), names);
}
