//! `strata enhance` as scripts use it: every output format, JSON, and bad input refused before work.

mod common;

use common::{fails, new_world, ok, s, temp_dir};
use serde_json::Value;

fn json(args: &[&str]) -> Value {
    let out = ok(args);
    serde_json::from_slice(&out.stdout).expect("json on stdout")
}

#[test]
fn raw_output_is_one_byte_per_fragment_with_real_neighbours_at_the_faces() {
    let d = temp_dir("enhance-raw");
    let w = new_world(&d, "w", "hills", "64,48,64", 3);
    let big = d.join("big.raw");
    let small = d.join("small.raw");
    let common = ["--method", "subdivide", "--levels", "2", "--threshold", "3"];
    let mut a = vec!["enhance", s(&w)];
    a.extend(common);
    a.extend(["--box", "-4,0,-4,40,48,40", "--out", s(&big), "--json"]);
    let j = json(&a);
    assert_eq!(j["factor"], 4);
    assert_eq!(j["size"], serde_json::json!([176, 192, 176]));
    let big_bytes = std::fs::read(&big).expect("read");
    assert_eq!(big_bytes.len(), 176 * 192 * 176);
    assert_eq!(j["fragments"].as_u64(), Some(big_bytes.len() as u64));
    let solid = big_bytes.iter().filter(|&&b| b != 0).count() as u64;
    assert_eq!(j["solid_fragments"].as_u64(), Some(solid));
    assert!(
        big_bytes.iter().all(|&b| b < 24),
        "material ids from the table"
    );
    // A box inside the big one: the same bytes, because fragments at its faces read the real
    // neighbours outside it.
    let mut a = vec!["enhance", s(&w)];
    a.extend(common);
    a.extend(["--box", "5,10,7,21,30,33", "--out", s(&small)]);
    ok(&a);
    let small_bytes = std::fs::read(&small).expect("read");
    let (bx, by) = (176usize, 192usize);
    let (sx, sy, sz) = (64usize, 80usize, 104usize);
    assert_eq!(small_bytes.len(), sx * sy * sz);
    for z in 0..sz {
        for y in 0..sy {
            let from = ((z + 44) * by + y + 40) * bx + 36;
            let to = (z * sy + y) * sx;
            assert_eq!(
                small_bytes[to..to + sx],
                big_bytes[from..from + sx],
                "row {y},{z}"
            );
        }
    }
}

#[test]
fn vox_obj_and_glb_outputs() {
    let d = temp_dir("enhance-files");
    let w = new_world(&d, "w", "hills", "48,48,48", 1);
    let vox = d.join("a.vox");
    let j = json(&[
        "enhance",
        s(&w),
        "--method",
        "resample",
        "--factor",
        "5",
        "--count",
        "8",
        "--spread",
        "1.2",
        "--fraction",
        "0.3",
        "--seed",
        "4",
        "--box",
        "0,0,0,48,48,48",
        "--out",
        s(&vox),
        "--json",
    ]);
    assert_eq!(j["method"], "resample");
    assert_eq!(j["models"], 1);
    let bytes = std::fs::read(&vox).expect("read");
    assert_eq!(&bytes[..4], b"VOX ");
    assert_eq!(
        u32::from_le_bytes([bytes[4], bytes[5], bytes[6], bytes[7]]),
        150
    );
    let obj = d.join("a.obj");
    let j = json(&[
        "enhance",
        s(&w),
        "--method",
        "subdivide",
        "--box",
        "8,0,8,40,48,40",
        "--out",
        s(&obj),
        "--json",
        "--material-borders",
    ]);
    assert!(j["faces"].as_u64() > Some(1000));
    assert_eq!(
        j["threshold"],
        Value::Null,
        "per-material thresholds by default"
    );
    assert!(d.join("a.mtl").exists());
    let text = std::fs::read_to_string(&obj).expect("read");
    assert!(text.contains("usemtl Grass"));
    let glb = d.join("a.glb");
    let j = json(&[
        "enhance",
        s(&w),
        "--method",
        "subdivide",
        "--levels",
        "3",
        "--approximate-table",
        "--band",
        "-10,20,1",
        "--band",
        "20,60,3,4",
        "--box",
        "8,0,8,24,48,24",
        "--out",
        s(&glb),
        "--json",
    ]);
    assert_eq!(j["approximate_table"], true);
    assert_eq!(j["bands"][1]["odd"], 4);
    assert_eq!(&std::fs::read(&glb).expect("read")[..4], b"glTF");
    // The text form.
    let out = ok(&[
        "enhance",
        s(&w),
        "--method",
        "subdivide",
        "--box",
        "0,0,0,8,8,8",
        "--out",
        s(&d.join("t.raw")),
    ]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("4 fragments per voxel edge"), "{text}");
}

#[test]
fn bad_input_fails_before_any_work() {
    let d = temp_dir("enhance-bad");
    let w = new_world(&d, "w", "flat", "32,16,32", 1);
    let out = d.join("o.raw");
    let run = |extra: &[&str], method: &str, bx: &str, o: &str| {
        let mut a = vec![
            "enhance",
            s(&w),
            "--method",
            method,
            "--box",
            bx,
            "--out",
            o,
        ];
        a.extend(extra);
        fails(&a)
    };
    let o = s(&out);
    let b = "0,0,0,8,8,8";
    for (extra, method, want) in [
        (
            &["--levels", "0"][..],
            "subdivide",
            "--levels 0 is out of range",
        ),
        (
            &["--levels", "5"],
            "subdivide",
            "--levels 5 is out of range",
        ),
        (
            &["--threshold", "0"],
            "subdivide",
            "--threshold 0 is out of range",
        ),
        (
            &["--threshold", "5"],
            "subdivide",
            "--threshold 5 is out of range",
        ),
        (&["--factor", "0"], "resample", "--factor 0 is out of range"),
        (
            &["--factor", "17"],
            "resample",
            "--factor 17 is out of range",
        ),
        (&["--count", "0"], "resample", "--count 0 is out of range"),
        (
            &["--spread", "-1"],
            "resample",
            "--spread -1 is out of range",
        ),
        (
            &["--fraction", "1.5"],
            "resample",
            "--fraction 1.5 is out of range",
        ),
        (
            &["--fraction", "-0.2"],
            "resample",
            "--fraction -0.2 is out of range",
        ),
        (
            &["--factor", "2"],
            "subdivide",
            "--factor applies to --method resample",
        ),
        (
            &["--levels", "2"],
            "resample",
            "--levels applies to --method subdivide",
        ),
        (&["--band", "5,5,1"], "subdivide", "is empty"),
    ] {
        let e = run(extra, method, b, o);
        assert!(e.contains(want), "{extra:?}: {e}");
    }
    for (bx, want) in [
        ("0,0,0,0,8,8", "is empty"),
        ("8,0,0,0,8,8", "is empty"),
        ("0,0,0", "6 comma"),
    ] {
        let e = run(&[], "subdivide", bx, o);
        assert!(e.contains(want), "{bx}: {e}");
    }
    let e = run(&[], "subdivide", b, s(&d.join("o.png")));
    assert!(e.contains(".raw, .vox, .obj or .glb"), "{e}");
    let e = run(&["--levels", "4"], "subdivide", "0,0,0,1024,1024,1024", o);
    assert!(e.contains("limited to"), "{e}");
    let e = fails(&[
        "enhance",
        "missing.strata",
        "--method",
        "subdivide",
        "--box",
        b,
        "--out",
        o,
    ]);
    assert!(e.contains("missing.strata"), "{e}");
    assert!(!out.exists(), "nothing was written");
}

#[test]
fn mesh_outputs_carry_the_baked_light_or_the_fragments_own() {
    let d = temp_dir("enhance-light");
    let w = new_world(&d, "w", "hills", "48,48,48", 3);
    let out = |name: &str, extra: &[&str]| {
        let path = d.join(name);
        let mut args = vec![
            "enhance",
            s(&w),
            "--method",
            "subdivide",
            "--levels",
            "1",
            "--box",
            "8,0,8,40,48,40",
            "--out",
            s(&path),
            "--json",
        ];
        args.extend_from_slice(extra);
        let j = json(&args);
        (j, std::fs::read(&path).expect("written"))
    };
    // No bake yet: the faces carry material colours only.
    let (plain_j, plain) = out("plain.glb", &[]);
    assert_eq!(plain_j["light"], "none");
    ok(&["bake", s(&w), "--particles", "4", "--steps", "12"]);
    let (lit_j, lit) = out("lit.glb", &[]);
    assert_eq!(lit_j["light"], "voxels");
    assert_ne!(plain, lit, "the baked light changes the colours");
    let (off_j, off) = out("off.glb", &["--no-light"]);
    assert_eq!(off_j["light"], "none");
    assert_eq!(off, plain, "--no-light gives the unlit mesh");
    let (frag_j, frag) = out("frag.glb", &["--fragment-light"]);
    assert_eq!(frag_j["light"], "fragments");
    assert_ne!(frag, lit, "fragment light differs from the voxel light");
    assert_eq!(lit_j["faces"], frag_j["faces"], "same faces, other colours");
    // The light options are for meshes only.
    let raw = d.join("x.raw");
    let msg = fails(&[
        "enhance",
        s(&w),
        "--method",
        "subdivide",
        "--box",
        "8,0,8,40,48,40",
        "--out",
        s(&raw),
        "--fragment-light",
    ]);
    assert!(msg.contains("apply to .obj and .glb"), "{msg}");
}

/// Boxes past the coordinate range and resamplings past the work budget are refused before the
/// project is read, with the figures; nothing is written.
#[test]
fn out_of_range_boxes_and_oversized_resamplings_are_refused() {
    let dir = temp_dir("enhance-limits");
    let w = new_world(&dir, "w", "hills", "64,48,64", 2);
    let out = dir.join("e.obj");
    let e = fails(&[
        "enhance",
        s(&w),
        "--method",
        "subdivide",
        "--box=-2147483648,0,0,4,4,4",
        "--out",
        s(&out),
    ]);
    assert!(e.contains("--box"), "{e}");
    let e = fails(&[
        "enhance",
        s(&w),
        "--method",
        "resample",
        "--factor",
        "16",
        "--count",
        "4096",
        "--box",
        "0,0,0,64,64,64",
        "--out",
        s(&out),
    ]);
    assert!(e.contains("probe evaluations") && e.contains("2^38"), "{e}");
    assert!(!out.exists());
    // Within the budget it runs.
    ok(&[
        "enhance",
        s(&w),
        "--method",
        "resample",
        "--factor",
        "2",
        "--count",
        "8",
        "--box",
        "0,0,0,16,16,16",
        "--out",
        s(&out),
    ]);
}
