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
