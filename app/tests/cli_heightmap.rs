//! `strata export --format heightmap` as scripts use it: heightmaps imported and exported again come
//! back within half a voxel, splat and weight maps sum to 255, overhangs are counted and warned about,
//! and every bad input fails with a clear message and writes nothing.

mod common;

use common::{fails, new_world, ok, s, temp_dir};
use std::path::{Path, PathBuf};

/// A smooth seeded 16-bit heightmap (a few sine waves) between 4% and 94% of the range.
fn smooth_map(seed: u64, w: u32, h: u32, waves: usize, frequency: f32) -> Vec<u16> {
    let mut rng = fastrand::Rng::with_seed(seed);
    let params: Vec<[f32; 4]> = (0..waves)
        .map(|_| {
            let angle = rng.f32() * std::f32::consts::TAU;
            let f = frequency * (0.5 + rng.f32());
            [
                f * angle.cos(),
                f * angle.sin(),
                rng.f32() * 6.3,
                0.5 + rng.f32(),
            ]
        })
        .collect();
    let total: f32 = params.iter().map(|p| p[3]).sum();
    (0..h)
        .flat_map(|z| (0..w).map(move |x| (x as f32, z as f32)))
        .map(|(x, z)| {
            let v: f32 = params
                .iter()
                .map(|p| p[3] * (p[0] * x + p[1] * z + p[2]).sin())
                .sum();
            let unit = 0.49 + 0.45 * v / total;
            (unit * 65535.0).round() as u16
        })
        .collect()
}

fn write_png16(path: &Path, samples: &[u16], w: u32, h: u32) {
    image::ImageBuffer::<image::Luma<u16>, Vec<u16>>::from_raw(w, h, samples.to_vec())
        .expect("buffer")
        .save(path)
        .expect("write png");
}

fn read_png16(path: &Path) -> (u32, u32, Vec<u16>) {
    let img = image::open(path).expect("png").to_luma16();
    (img.width(), img.height(), img.into_raw())
}

fn sidecar(path: &Path) -> serde_json::Value {
    serde_json::from_slice(&std::fs::read(path).expect("sidecar")).expect("json")
}

/// Every file under `d`, sorted, with its length.
fn listing(d: &Path) -> Vec<(PathBuf, u64)> {
    let mut out = Vec::new();
    let mut stack = vec![d.to_path_buf()];
    while let Some(dir) = stack.pop() {
        for e in std::fs::read_dir(&dir).expect("dir") {
            let p = e.expect("entry").path();
            if p.is_dir() {
                stack.push(p.clone());
            }
            let len = std::fs::metadata(&p).map_or(0, |m| m.len());
            out.push((p, len));
        }
    }
    out.sort();
    out
}

/// One round trip: a map of `map` pixels with waves of about `frequency` radians per pixel,
/// imported `height` voxels high at `world` columns (default: one per pixel).
struct Case {
    seed: u64,
    map: [u32; 2],
    height: u32,
    world: Option<[u32; 2]>,
    frequency: f32,
}

impl Case {
    fn new(seed: u64, map: [u32; 2], height: u32, world: Option<[u32; 2]>, frequency: f32) -> Self {
        Self {
            seed,
            map,
            height,
            world,
            frequency,
        }
    }
}

#[test]
fn imported_heightmaps_come_back_within_half_a_voxel() {
    let d = temp_dir("hm-round");
    let cases = [
        Case::new(1, [64, 64], 64, None, 0.08),
        Case::new(2, [96, 40], 128, None, 0.05),
        Case::new(3, [50, 30], 64, Some([100, 60]), 0.06),
        Case::new(4, [72, 72], 200, None, 0.15),
        Case::new(5, [40, 90], 96, Some([60, 135]), 0.07),
    ];
    for Case {
        seed,
        map: [w, h],
        height,
        world,
        frequency: freq,
    } in cases
    {
        let waves = 3 + seed as usize % 3;
        let input = smooth_map(seed, w, h, waves, freq);
        let map = d.join(format!("in-{seed}.png"));
        write_png16(&map, &input, w, h);
        let project = d.join(format!("w-{seed}.strata"));
        let height_arg = height.to_string();
        let mut args = vec![
            "import",
            s(&map),
            s(&project),
            "--format",
            "heightmap",
            "--height",
            &height_arg,
        ];
        let world_size = world.map(|[x, z]| format!("{x},{z}"));
        if let Some(size) = &world_size {
            args.extend(["--size", size.as_str()]);
        }
        ok(&args);
        let back = d.join(format!("back-{seed}.png"));
        let size = format!("{w},{h}");
        let mut export = vec!["export", s(&project), s(&back), "--format", "heightmap"];
        if world.is_some() {
            export.extend(["--size", size.as_str()]);
        }
        ok(&export);
        let (bw, bh, samples) = read_png16(&back);
        assert_eq!((bw, bh), (w, h), "seed {seed}");
        let voxel = 65535.0 / f64::from(height);
        let worst = input
            .iter()
            .zip(&samples)
            .map(|(&a, &b)| (f64::from(a) - f64::from(b)).abs() / voxel)
            .fold(0.0f64, f64::max);
        eprintln!("seed {seed}: {w}x{h}, height {height}, world {world:?}: worst {worst:.4} voxel");
        assert!(worst <= 0.5, "seed {seed}: a column is {worst} voxels off");
        let meta = sidecar(&back.with_extension("json"));
        assert_eq!(meta["width"], w);
        assert_eq!(meta["height"], h);
        assert_eq!(meta["y_min"], 0);
        assert_eq!(meta["y_max"], height);
        assert_eq!(meta["voxel_size"], 1.0);
        assert_eq!(meta["overhang_columns"], 0);
        // The same export as .r16: the same samples, little-endian, no header.
        let raw = d.join(format!("back-{seed}.r16"));
        let mut export_raw = vec!["export", s(&project), s(&raw)];
        if world.is_some() {
            export_raw.extend(["--size", size.as_str()]);
        }
        ok(&export_raw);
        let bytes = std::fs::read(&raw).expect("r16");
        let le: Vec<u16> = bytes
            .chunks_exact(2)
            .map(|b| u16::from_le_bytes([b[0], b[1]]))
            .collect();
        assert_eq!(le, samples, "seed {seed}: r16 and png differ");
        assert_eq!(sidecar(&raw.with_extension("json"))["encoding"], "r16le");
    }
}

#[test]
fn splat_and_layers_sum_to_255_and_overhangs_are_reported() {
    let d = temp_dir("hm-splat");
    let w = d.join("caves.strata");
    ok(&[
        "new",
        s(&w),
        "--preset",
        "mountains",
        "--caves",
        "on",
        "--size",
        "96,96,64",
        "--seed",
        "9",
    ]);
    let out = d.join("h.png");
    let splat = d.join("splat.png");
    let layers = d.join("layers");
    let run = ok(&[
        "export",
        s(&w),
        s(&out),
        "--format",
        "heightmap",
        "--size",
        "129,65",
        "--splat",
        s(&splat),
        "--layers",
        s(&layers),
    ]);
    let stderr = String::from_utf8_lossy(&run.stderr);
    let meta = sidecar(&d.join("h.json"));
    let overhangs = meta["overhang_columns"].as_u64().expect("count");
    assert!(overhangs > 0, "a world with caves has overhang columns");
    assert!(
        stderr.contains(&format!("warning: {overhangs} columns hide matter")),
        "{stderr}"
    );
    let channels: Vec<String> = meta["splat"]["channels"]
        .as_array()
        .expect("channels")
        .iter()
        .map(|c| c.as_str().expect("name").to_owned())
        .collect();
    let ranked: Vec<&str> = meta["surface_materials"]
        .as_array()
        .expect("materials")
        .iter()
        .map(|m| m["name"].as_str().expect("name"))
        .collect();
    assert_eq!(channels, ranked[..ranked.len().min(4)]);
    let rgba = image::open(&splat).expect("splat").to_rgba8();
    assert_eq!(rgba.dimensions(), (129, 65));
    for px in rgba.pixels() {
        assert_eq!(px.0.iter().map(|&b| u32::from(b)).sum::<u32>(), 255);
    }
    let files = meta["layers"]["files"].as_array().expect("layer files");
    assert_eq!(files.len(), ranked.len());
    let planes: Vec<Vec<u8>> = files
        .iter()
        .map(|f| {
            assert!(ranked.contains(&f["material"].as_str().expect("material")));
            let path = layers.join(f["file"].as_str().expect("file"));
            let img = image::open(&path).expect("layer");
            assert_eq!(img.color(), image::ColorType::L8, "{}", path.display());
            img.to_luma8().into_raw()
        })
        .collect();
    for i in 0..129 * 65 {
        assert_eq!(planes.iter().map(|p| u32::from(p[i])).sum::<u32>(), 255);
    }
    // A box: its columns and its Y range.
    let part = d.join("part.r16");
    ok(&["export", s(&w), s(&part), "--box", "8,16,4,40,64,60"]);
    let meta = sidecar(&d.join("part.json"));
    assert_eq!(meta["columns"], serde_json::json!([32, 56]));
    assert_eq!(
        (meta["y_min"].clone(), meta["y_max"].clone()),
        (16.into(), 64.into())
    );
    assert_eq!(std::fs::read(&part).expect("r16").len(), 32 * 56 * 2);
    // A flat world hides nothing and says nothing about overhangs.
    let flat = new_world(&d, "flat", "flat", "64,32,64", 1);
    let run = ok(&["export", s(&flat), s(&d.join("flat.r16"))]);
    assert!(!String::from_utf8_lossy(&run.stderr).contains("warning"));
    assert_eq!(sidecar(&d.join("flat.json"))["overhang_columns"], 0);
}

#[test]
fn bad_input_fails_clearly_and_writes_nothing() {
    let d = temp_dir("hm-bad");
    let w = new_world(&d, "w", "hills", "64,32,48", 2);
    std::fs::create_dir(d.join("folder.png")).expect("dir");
    std::fs::write(d.join("a-file"), b"x").expect("file");
    // A project whose name is a heightmap's, and one whose name is a heightmap's sidecar.
    let as_png = d.join("p.png");
    std::fs::copy(&w, &as_png).expect("copy");
    let as_json = d.join("q.json");
    std::fs::copy(&w, &as_json).expect("copy");
    let before = listing(&d);
    let out = d.join("out.png");
    let (o, ws) = (s(&out), s(&w));
    let (tga, a_file) = (d.join("splat.tga"), d.join("a-file"));
    let cases: Vec<(Vec<&str>, &str)> = vec![
        (vec!["--size", "0,5"], "1 to 8193"),
        (vec!["--size", "5,0"], "1 to 8193"),
        (vec!["--size", "100000,100000"], "1 to 8193"),
        (
            vec!["--size", "99999999999999999999,5"],
            "not a valid number",
        ),
        (vec!["--size", "abc,5"], "not a valid number"),
        (vec!["--size", "-3,5"], "not a valid number"),
        (vec!["--size", "5"], "needs 2"),
        (vec!["--box", "100,0,0,120,32,10"], "outside the world"),
        (vec!["--box", "-10,0,0,10,32,10"], "outside the world"),
        (vec!["--splat", o], "is the heightmap"),
        (vec!["--splat", s(&tga)], ".png"),
        (vec!["--layers", s(&a_file)], "existing file"),
        (vec!["--layers", o], "is the heightmap"),
        (vec!["--lod", "1"], "do not apply"),
    ];
    for (extra, message) in cases {
        let mut args = vec!["export", ws, o, "--format", "heightmap"];
        args.extend(extra.iter().copied());
        let err = fails(&args);
        assert!(err.contains(message), "{extra:?}: {err}");
        assert_eq!(listing(&d), before, "{extra:?} wrote something");
    }
    let bad_outputs: Vec<(PathBuf, &str)> = vec![
        (d.join("folder.png"), "is a folder"),
        (d.join("a-file").join("x.png"), "a-file"),
        (d.join("missing").join("x.png"), "missing"),
        (d.join("out.tif"), ".png"),
    ];
    for (bad, message) in &bad_outputs {
        let err = fails(&["export", ws, s(bad), "--format", "heightmap"]);
        assert!(err.contains(message), "{}: {err}", bad.display());
        assert_eq!(listing(&d), before, "{} wrote something", bad.display());
    }
    // Unwritable layers folder (under a file): nothing else is written either.
    let err = fails(&[
        "export",
        ws,
        o,
        "--splat",
        s(&d.join("s.png")),
        "--layers",
        s(&d.join("a-file").join("layers")),
    ]);
    assert!(err.contains("a-file"), "{err}");
    assert_eq!(listing(&d), before);
    // The input as the output, or as the output's sidecar.
    let err = fails(&["export", s(&as_png), s(&as_png), "--format", "heightmap"]);
    assert!(err.contains("input"), "{err}");
    let err = fails(&["export", s(&as_json), s(&d.join("q.png"))]);
    assert!(err.contains("input"), "{err}");
    let err = fails(&["export", s(&as_png), o, "--splat", s(&as_png)]);
    assert!(err.contains("input"), "{err}");
    assert_eq!(listing(&d), before);
    assert_eq!(
        std::fs::read(&as_png).expect("input"),
        std::fs::read(&w).expect("w")
    );
}
