//! The command line as scripts use it: real processes, exit codes, files and JSON.

mod common;

use common::{fails, ok, s, temp_dir};

use serde_json::Value;
use strata_engine::codec::rle;
use strata_engine::format::project::Project;
use strata_engine::storage::MemoryReport;
use strata_engine::voxel::Voxel;

#[test]
fn new_then_info_json() {
    let d = temp_dir("info");
    let w = d.join("w.strata");
    ok(&[
        "new",
        s(&w),
        "--preset",
        "hills",
        "--size",
        "96,64,80",
        "--seed",
        "5",
    ]);
    let out = ok(&["info", s(&w), "--json"]);
    let j: Value = serde_json::from_slice(&out.stdout).expect("json");
    for key in [
        "materials",
        "bounds",
        "chunks",
        "nonair_voxels",
        "voxels_by_material",
        "memory_bytes",
        "bytes_per_voxel",
        "rle_bytes",
        "rle_lz4_bytes",
        "column_bytes",
        "file_bytes",
    ] {
        assert!(j.get(key).is_some(), "missing key {key}");
    }
    assert_eq!(j["bounds"]["min"], serde_json::json!([0, 0, 0]));
    assert_eq!(j["bounds"]["max"], serde_json::json!([95, 63, 79]));
    let m0 = &j["materials"][0];
    assert_eq!(m0["id"], 0);
    assert_eq!(m0["name"], "Air");
    assert!(m0.get("liquid").is_some() && m0.get("sharp").is_some());
    let by: u64 = j["voxels_by_material"]
        .as_object()
        .expect("object")
        .values()
        .map(|v| v.as_u64().expect("count"))
        .sum();
    assert_eq!(by, j["nonair_voxels"].as_u64().expect("count"));
    assert!(by > 0);
    assert_eq!(
        j["file_bytes"].as_u64(),
        Some(std::fs::metadata(&w).expect("stat").len())
    );
    assert!(j["rle_lz4_bytes"].as_u64() <= j["rle_bytes"].as_u64());
    // The memory figures are the engine's own report of the same grid, under names that say what
    // they measure (the old `seed_layout_*` keys are gone).
    let grid = Project::load(&w).expect("load").grid;
    let m = MemoryReport::of(&grid);
    let mem = &j["memory"];
    assert_eq!(mem["level0_bytes"].as_u64(), Some(m.level0_bytes));
    assert_eq!(
        mem["plain_row_packed_bytes"].as_u64(),
        Some(m.plain_row_packed_bytes)
    );
    // JSON text keeps about 17 digits; the last one may round differently when parsed back.
    let per_voxel = m.plain_row_packed_bytes as f64 / m.nonair_voxels as f64;
    let printed = mem["plain_row_packed_bytes_per_voxel"]
        .as_f64()
        .expect("per-voxel figure");
    assert!(
        (printed - per_voxel).abs() <= 1e-12 * per_voxel,
        "{printed} vs {per_voxel}"
    );
    assert_eq!(mem["unpacked_bytes"].as_u64(), Some(m.unpacked_bytes));
    assert!(
        mem.get("seed_layout_bytes").is_none() && mem.get("seed_layout_bytes_per_voxel").is_none()
    );
    // Text form works too.
    let text = ok(&["info", s(&w)]);
    assert!(String::from_utf8_lossy(&text.stdout).contains("non-air"));
}

#[test]
fn raw_and_rle_export_import_round_trip() {
    let d = temp_dir("raw");
    let w = d.join("w.strata");
    ok(&[
        "new",
        s(&w),
        "--preset",
        "canyons",
        "--size",
        "80,64,72",
        "--seed",
        "3",
    ]);
    let bx = "-5,0,-3,70,50,40";
    let raw = d.join("box.raw");
    ok(&["export", s(&w), s(&raw), "--format", "raw", "--box", bx]);
    let raw_bytes = std::fs::read(&raw).expect("raw");
    let volume = 75 * 50 * 43;
    assert_eq!(raw_bytes.len(), volume * 2);
    // Outside the world (x < 0) is Air.
    assert_eq!(&raw_bytes[..2], &[0, 0]);

    let rle_path = d.join("box.rle");
    ok(&[
        "export",
        s(&w),
        s(&rle_path),
        "--format",
        "rle",
        "--box",
        bx,
    ]);
    let mut decoded = vec![Voxel::AIR; volume];
    rle::decode(&std::fs::read(&rle_path).expect("rle"), &mut decoded).expect("valid rle");
    let from_raw: Vec<u8> = decoded
        .iter()
        .flat_map(|v| [v.material, v.occupancy])
        .collect();
    assert_eq!(
        from_raw, raw_bytes,
        "RLE and raw exports hold the same voxels"
    );

    let imported = d.join("imported.strata");
    ok(&[
        "import",
        s(&raw),
        s(&imported),
        "--format",
        "raw",
        "--size",
        "75,50,43",
        "--origin",
        "-5,0,-3",
    ]);
    let again = d.join("again.raw");
    ok(&[
        "export",
        s(&imported),
        s(&again),
        "--format",
        "raw",
        "--box",
        bx,
    ]);
    assert_eq!(std::fs::read(&again).expect("again"), raw_bytes);
}

#[test]
fn bad_input_fails_clearly() {
    let d = temp_dir("bad");
    let w = d.join("w.strata");
    assert!(fails(&["new", s(&w), "--preset", "volcano"]).contains("hills"));
    assert!(fails(&["new", s(&w), "--size", "10,10"]).contains("--size"));
    assert!(fails(&["new", s(&w), "--size", "0,10,10"]).contains("size"));
    ok(&["new", s(&w), "--preset", "flat", "--size", "32,32,32"]);
    assert!(fails(&["export", s(&w), s(&d.join("x.raw")), "--format", "raw"]).contains("--box"));
    assert!(fails(&[
        "export",
        s(&w),
        s(&d.join("x.raw")),
        "--format",
        "raw",
        "--box",
        "5,5,5,1,1,1"
    ])
    .contains("empty"));
    assert!(fails(&["info", s(&d.join("missing.strata"))]).contains("missing.strata"));

    let raw = d.join("bad.raw");
    let out = d.join("o.strata");
    let import_fails = |bytes: &[u8], size: &str| {
        std::fs::write(&raw, bytes).expect("write");
        fails(&[
            "import",
            s(&raw),
            s(&out),
            "--format",
            "raw",
            "--size",
            size,
        ])
    };
    let e = import_fails(&[2, 255, 0, 0, 0], "1,1,2");
    assert!(e.contains("5 bytes") && e.contains("needs 4"), "{e}");
    let e = import_fails(&[2, 255, 60, 255], "2,1,1");
    assert!(
        e.contains("unknown material id 60") && e.contains("byte 2"),
        "{e}"
    );
    let e = import_fails(&[0, 9, 2, 255], "2,1,1");
    assert!(e.contains("Air with occupancy"), "{e}");
    assert!(
        !d.join("o.strata").exists(),
        "nothing is written on bad input"
    );

    let mut bytes = std::fs::read(&w).expect("read");
    let n = bytes.len();
    bytes[n - 30] ^= 4;
    let corrupt = d.join("corrupt.strata");
    std::fs::write(&corrupt, &bytes).expect("write");
    let e = fails(&["info", s(&corrupt)]);
    assert!(e.contains("corrupt.strata") && e.contains("byte "), "{e}");
    std::fs::write(&corrupt, &bytes[..n / 2]).expect("write");
    let e = fails(&["info", s(&corrupt)]);
    assert!(e.contains("corrupt.strata"), "{e}");
}

#[test]
fn saving_twice_keeps_a_backup() {
    let d = temp_dir("bak");
    let w = d.join("w.strata");
    ok(&["new", s(&w), "--preset", "flat", "--size", "32,32,32"]);
    let first = std::fs::read(&w).expect("read");
    ok(&["new", s(&w), "--preset", "hills", "--size", "32,32,32"]);
    assert_eq!(
        std::fs::read(d.join("w.strata.bak")).expect("backup"),
        first
    );
}

#[test]
fn help_lists_the_editor_and_the_commands() {
    let out = ok(&["--help"]);
    let text = String::from_utf8_lossy(&out.stdout);
    for cmd in ["open", "new", "info", "export", "import", "raycast"] {
        assert!(text.contains(cmd), "{cmd} missing from help: {text}");
    }
}

#[test]
fn open_refuses_a_missing_file_without_a_window() {
    let err = fails(&["open", "/nonexistent/world.strata"]);
    assert!(err.contains("no such file"), "{err}");
}

#[test]
fn mesh_exports_by_extension() {
    let d = temp_dir("mesh");
    let w = d.join("w.strata");
    ok(&[
        "new",
        s(&w),
        "--preset",
        "islands",
        "--size",
        "64,48,64",
        "--seed",
        "2",
    ]);
    let obj = d.join("w.obj");
    ok(&["export", s(&w), s(&obj)]);
    let text = std::fs::read_to_string(&obj).expect("obj");
    assert!(text.contains("mtllib") && text.lines().any(|l| l.starts_with("f ")));
    assert!(d.join("w.mtl").exists());
    let glb = d.join("w.glb");
    ok(&[
        "export",
        s(&w),
        s(&glb),
        "--lod",
        "1",
        "--box",
        "0,0,0,32,48,32",
    ]);
    let bytes = std::fs::read(&glb).expect("glb");
    assert_eq!(&bytes[..4], b"glTF");
    assert_eq!(
        u32::from_le_bytes([bytes[8], bytes[9], bytes[10], bytes[11]]) as usize,
        bytes.len()
    );
    assert!(fails(&["export", s(&w), s(&glb), "--lod", "9"]).contains("--lod 9"));
    assert!(fails(&["export", s(&w), s(&d.join("w.xyz"))]).contains("--format"));
    assert!(fails(&["export", s(&w), s(&obj), "--lods", "2"]).contains("--lods"));
    assert!(fails(&[
        "export",
        s(&w),
        s(&d.join("b.raw")),
        "--box",
        "0,0,0,4,4,4",
        "--lod",
        "1"
    ])
    .contains("--lod"));
}
