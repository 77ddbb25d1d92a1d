//! `strata import --format rle`: every RLE export reads back bit-exactly, and bad streams fail with
//! the file, the byte offset and nothing written.

mod common;

use common::{fails, new_world, ok, s, temp_dir};

use strata_engine::format::project::Project;
use strata_engine::voxel::{VoxelBox, VoxelPos};

/// Export `bx` of `world` in `format` to `out` and return the bytes.
fn export(world: &std::path::Path, out: &std::path::Path, format: &str, bx: &str) -> Vec<u8> {
    ok(&["export", s(world), s(out), "--format", format, "--box", bx]);
    std::fs::read(out).expect("export output")
}

#[test]
fn rle_export_imports_back_bit_exactly() {
    let d = temp_dir("rle-import");
    // Several presets, seeds and boxes: boxes that stick out of the world (Air), negative origins,
    // sizes that are not multiples of a chunk.
    let cases = [
        ("canyons", "80,64,72", 3, "-5,0,-3,70,50,40"),
        ("hills", "96,48,64", 11, "0,0,0,96,48,64"),
        ("islands", "64,40,64", 7, "10,-4,3,61,33,37"),
    ];
    for (preset, size, seed, bx) in cases {
        let w = new_world(&d, preset, preset, size, seed);
        let rle = export(&w, &d.join(format!("{preset}.rle")), "rle", bx);
        let raw = export(&w, &d.join(format!("{preset}.raw")), "raw", bx);
        let b: Vec<i32> = bx.split(',').map(|c| c.parse().expect("int")).collect();
        let size = format!("{},{},{}", b[3] - b[0], b[4] - b[1], b[5] - b[2]);
        let origin = format!("{},{},{}", b[0], b[1], b[2]);
        let back = d.join(format!("{preset}-back.strata"));
        let rle_in = d.join(format!("{preset}.rle"));
        ok(&[
            "import",
            s(&rle_in),
            s(&back),
            "--format",
            "rle",
            "--size",
            &size,
            "--origin",
            &origin,
        ]);
        // The same box out of the imported project: identical RLE and raw bytes.
        assert_eq!(
            export(&back, &d.join("again.rle"), "rle", bx),
            rle,
            "{preset}"
        );
        assert_eq!(
            export(&back, &d.join("again.raw"), "raw", bx),
            raw,
            "{preset}"
        );
        // Bounds are the box; the grid is valid; `.rle` implies --format rle.
        let p = Project::load(&back).expect("load");
        let want = VoxelBox::new(
            VoxelPos::new(b[0], b[1], b[2]),
            VoxelPos::new(b[3], b[4], b[5]),
        );
        assert_eq!(p.header.bounds, want);
        p.grid.assert_valid();
        let by_ext = d.join(format!("{preset}-ext.strata"));
        ok(&[
            "import",
            s(&rle_in),
            s(&by_ext),
            "--size",
            &size,
            "--origin",
            &origin,
        ]);
        assert_eq!(
            Project::load(&by_ext).expect("load").grid.stats(),
            p.grid.stats()
        );
    }
}

#[test]
fn bad_rle_streams_fail_clearly() {
    let d = temp_dir("rle-bad");
    let w = new_world(&d, "w", "hills", "48,32,40", 2);
    let good = export(&w, &d.join("w.rle"), "rle", "0,0,0,48,32,40");
    let input = d.join("in.rle");
    let out = d.join("out.strata");
    let import = |bytes: &[u8], size: &str| {
        std::fs::write(&input, bytes).expect("write");
        let e = fails(&[
            "import",
            s(&input),
            s(&out),
            "--format",
            "rle",
            "--size",
            size,
        ]);
        assert!(!out.exists(), "nothing is written on bad input: {e}");
        assert!(e.contains("in.rle"), "names the file: {e}");
        e
    };
    // Truncated: a stream cut inside or between records.
    let n = good.len();
    let e = import(&good[..n - 1], "48,32,40");
    assert!(e.contains("byte ") && e.contains("stream ends"), "{e}");
    let e = import(&good[..n / 2], "48,32,40");
    assert!(e.contains("stream ends"), "{e}");
    // Wrong size: too large, larger than the stream could ever describe, too small.
    let e = import(&good, "48,32,41");
    assert!(e.contains("stream ends after 61440 of 62976 voxels"), "{e}");
    let e = import(&good, "4800,32,40");
    assert!(
        e.contains("can describe at most") && e.contains("needs 6144000"),
        "{e}"
    );
    let e = import(&good, "48,32,39");
    assert!(
        e.contains("overflows the box of 59904 voxels")
            || e.contains("data continues after the last voxel"),
        "{e}"
    );
    // The reserved count byte 0, at a known offset: 256 Air, then Rock with count byte 0.
    let e = import(&[0x80, 0xff, 0x87, 0x00], "258,1,1");
    assert!(e.contains("byte 3") && e.contains("reserved"), "{e}");
    // Stream rules: Air with occupancy; an unknown material id, with the voxel it starts at.
    let e = import(&[0x80, 0x01, 0x40, 0x05], "3,1,1");
    assert!(
        e.contains("byte 2") && e.contains("Air with non-zero occupancy"),
        "{e}"
    );
    let e = import(&[0x81, 0x01, 0xbc, 0x03], "3,2,1");
    assert!(
        e.contains("byte 2 (voxel 2,0,0)") && e.contains("unknown material id 60"),
        "{e}"
    );
    // An empty file for a non-empty box.
    let e = import(&[], "1,1,1");
    assert!(e.contains("can describe at most 0 voxels"), "{e}");
    // Arguments: --size is required.
    std::fs::write(&input, &good).expect("write");
    let e = fails(&["import", s(&input), s(&out), "--format", "rle"]);
    assert!(
        e.contains("--size X,Y,Z is required for --format rle"),
        "{e}"
    );
}
