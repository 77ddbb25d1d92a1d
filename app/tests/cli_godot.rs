//! `strata export/import --format vxr|v4` as scripts use them: real processes, files and messages.

mod common;

use common::{fails, ok, s, temp_dir};
use std::path::{Path, PathBuf};

fn raw_box(d: &Path, project: &Path, bx: &str) -> Vec<u8> {
    let raw = d.join("check.raw");
    ok(&[
        "export",
        s(project),
        s(&raw),
        "--format",
        "raw",
        "--box",
        bx,
    ]);
    std::fs::read(&raw).expect("raw")
}

fn world(d: &Path) -> PathBuf {
    let w = d.join("w.strata");
    ok(&[
        "new",
        s(&w),
        "--preset",
        "canyons",
        "--size",
        "96,64,80",
        "--seed",
        "3",
    ]);
    w
}

#[test]
fn vxr_export_import_round_trip() {
    let d = temp_dir("vxr");
    let w = world(&d);
    for (compression, lods) in [("lz4", "4"), ("zstd", "2"), ("none", "1")] {
        let forest = d.join(format!("forest-{compression}"));
        ok(&[
            "export",
            s(&w),
            s(&forest),
            "--format",
            "vxr",
            "--compression",
            compression,
            "--lods",
            lods,
        ]);
        assert!(forest.join("meta.vxrm").exists());
        let lod_dirs = std::fs::read_dir(forest.join("regions"))
            .expect("regions")
            .count();
        assert_eq!(lod_dirs.to_string(), lods);
        let back = d.join(format!("back-{compression}.strata"));
        ok(&["import", s(&forest), s(&back), "--format", "vxr"]);
        let bx = "0,0,0,96,64,80";
        assert_eq!(raw_box(&d, &back, bx), raw_box(&d, &w, bx), "{compression}");
        let info = ok(&["info", s(&back), "--json"]);
        let j: serde_json::Value = serde_json::from_slice(&info.stdout).expect("json");
        assert_eq!(j["bounds"]["max"], serde_json::json!([95, 63, 79]));
    }
}

#[test]
fn v4_export_import_round_trip_at_an_origin() {
    let d = temp_dir("v4");
    let w = world(&d);
    let block = d.join("box.v4");
    ok(&[
        "export",
        s(&w),
        s(&block),
        "--format",
        "v4",
        "--box",
        "-4,0,-3,40,50,33",
    ]);
    let bytes = std::fs::read(&block).expect("block");
    assert_eq!(bytes[0], 2, "LZ4 container by default");
    let back = d.join("back.strata");
    ok(&[
        "import",
        s(&block),
        s(&back),
        "--format",
        "v4",
        "--origin",
        "-4,0,-3",
    ]);
    let bx = "-4,0,-3,40,50,33";
    assert_eq!(raw_box(&d, &back, bx), raw_box(&d, &w, bx));
    let zstd = d.join("box.zstd.v4");
    ok(&[
        "export",
        s(&w),
        s(&zstd),
        "--format",
        "v4",
        "--box",
        bx,
        "--compression",
        "zstd",
    ]);
    assert_eq!(std::fs::read(&zstd).expect("zstd")[0], 3);
}

#[test]
fn bad_godot_input_fails_clearly() {
    let d = temp_dir("bad");
    let w = world(&d);
    let out = d.join("o.strata");
    let e = fails(&["export", s(&w), s(&d.join("x")), "--format", "v4"]);
    assert!(e.contains("--box") && e.contains("v4"), "{e}");
    let e = fails(&[
        "export",
        s(&w),
        s(&d.join("f")),
        "--format",
        "vxr",
        "--lods",
        "5",
    ]);
    assert!(e.contains("--lods"), "{e}");
    let e = fails(&[
        "export",
        s(&w),
        s(&d.join("x")),
        "--format",
        "raw",
        "--box",
        "0,0,0,1,1,1",
        "--lods",
        "2",
    ]);
    assert!(e.contains("--lods"), "{e}");
    // rle is an import format too; mesh formats stay export-only.
    let e = fails(&["import", s(&d), s(&out), "--format", "obj"]);
    assert!(e.contains("raw, rle, vxr and v4"), "{e}");
    let e = fails(&["import", s(&d.join("nothing")), s(&out), "--format", "vxr"]);
    assert!(e.contains("meta.vxrm"), "{e}");

    // A block with version 3, a wrong epilogue, a truncated container.
    let block = d.join("b.v4");
    ok(&[
        "export",
        s(&w),
        s(&block),
        "--format",
        "v4",
        "--box",
        "0,0,0,16,16,16",
        "--compression",
        "none",
    ]);
    let good = std::fs::read(&block).expect("block");
    let bad = d.join("bad.v4");
    let mut v3 = good.clone();
    v3[1] = 3;
    std::fs::write(&bad, &v3).expect("write");
    let e = fails(&["import", s(&bad), s(&out), "--format", "v4"]);
    assert!(
        e.contains("bad.v4: byte 0") && e.contains("unsupported version 3"),
        "{e}"
    );
    let mut epilogue = good.clone();
    let n = epilogue.len();
    epilogue[n - 1] = 0;
    std::fs::write(&bad, &epilogue).expect("write");
    let e = fails(&["import", s(&bad), s(&out), "--format", "v4"]);
    assert!(e.contains("epilogue") && e.contains("byte"), "{e}");
    std::fs::write(&bad, [2u8, 0xff, 0xff, 0xff, 0x7f, 1, 2, 3]).expect("write");
    let e = fails(&["import", s(&bad), s(&out), "--format", "v4"]);
    assert!(
        e.contains("bad.v4: byte 1") && e.contains("declared size"),
        "{e}"
    );

    // A region file whose table points past the end of the file.
    let forest = d.join("forest");
    ok(&[
        "export",
        s(&w),
        s(&forest),
        "--format",
        "vxr",
        "--lods",
        "1",
    ]);
    let region = forest.join("regions/lod0/r.0.0.0.vxr");
    let mut bytes = std::fs::read(&region).expect("region");
    bytes[20..24].copy_from_slice(&((60_000u32 << 8) | 1).to_le_bytes());
    std::fs::write(&region, &bytes).expect("write");
    let e = fails(&["import", s(&forest), s(&out), "--format", "vxr"]);
    assert!(
        e.contains("r.0.0.0.vxr: byte 20") && e.contains("past the end"),
        "{e}"
    );
    assert!(!out.exists(), "nothing is written on bad input");
}
