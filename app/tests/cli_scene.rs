//! `strata export --format scene`: every variant passes the Khronos glTF validator (when `node` and
//! the `gltf-validator` package are installed; `.ci/run` installs them), and every bad call fails
//! with a clear message, the usage exit code, and nothing written.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

use common::{fails, new_world, ok, s, strata, temp_dir};

/// The validator script and, when absent, why the validation is skipped.
fn validator() -> Result<PathBuf, String> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .ok_or("no workspace")?
        .to_path_buf();
    let script = root.join("tools/gltf-validate.cjs");
    let module = std::env::var_os("GLTF_VALIDATOR").map_or_else(
        || root.join("target/tools/node_modules/gltf-validator"),
        PathBuf::from,
    );
    if Command::new("node").arg("--version").output().is_err() {
        return Err("node is not installed".into());
    }
    if !module.join("package.json").exists() {
        return Err(format!(
            "gltf-validator is not installed at {} (npm install --prefix target/tools gltf-validator)",
            module.display()
        ));
    }
    Ok(script)
}

#[test]
fn every_scene_variant_passes_the_khronos_validator() {
    let d = temp_dir("scene-valid");
    let w = new_world(&d, "w", "canyons", "160,64,160", 1);
    ok(&["bake", s(&w)]);
    let variants: [(&str, &[&str]); 8] = [
        ("plain.glb", &[]),
        ("plain.gltf", &[]),
        ("t32_l1.glb", &["--tile", "32", "--lods", "1"]),
        (
            "t64_l5_nocol.gltf",
            &["--tile", "64", "--lods", "5", "--collision", "off"],
        ),
        ("nolight.glb", &["--light", "none", "--collision", "on"]),
        ("meshopt.glb", &["--compress", "meshopt"]),
        (
            "meshopt_l1.gltf",
            &["--compress", "meshopt", "--lods", "1", "--light", "none"],
        ),
        (
            "box.glb",
            &[
                "--box",
                "10,0,10,100,64,90",
                "--tile",
                "40",
                "--light",
                "bake",
            ],
        ),
    ];
    let mut files = Vec::new();
    for (name, extra) in variants {
        let out = d.join(name);
        let mut args = vec!["export", s(&w), s(&out), "--format", "scene"];
        args.extend_from_slice(extra);
        ok(&args);
        assert!(out.exists(), "{name} written");
        files.push(out);
    }
    let script = match validator() {
        Ok(script) => script,
        Err(why) => {
            println!("skipped the glTF validator: {why}");
            return;
        }
    };
    let report = Command::new("node")
        .arg(&script)
        .args(&files)
        .output()
        .expect("node runs");
    let text = String::from_utf8_lossy(&report.stdout);
    println!("{text}");
    assert_eq!(
        text.lines().count(),
        files.len(),
        "{}",
        String::from_utf8_lossy(&report.stderr)
    );
    for line in text.lines() {
        let v: serde_json::Value = serde_json::from_str(line).expect("report line");
        assert_eq!(v["errors"], 0, "{line}");
        assert_eq!(v["warnings"], 0, "{line}");
    }
    assert!(report.status.success());
}

#[test]
fn bad_scene_calls_fail_clearly_and_write_nothing() {
    let d = temp_dir("scene-bad");
    let w = new_world(&d, "w", "hills", "96,48,96", 2);
    let out = d.join("out.glb");
    let usage_code = strata(&["export", s(&w), s(&out), "--lod", "9"])
        .status
        .code();
    let folder = d.join("folder.glb");
    std::fs::create_dir(&folder).expect("folder");
    let read_only = d.join("read-only");
    std::fs::create_dir(&read_only).expect("folder");
    let locked = read_only.join("x.glb");
    let cases: Vec<(Vec<&str>, &str)> = vec![
        (vec!["--tile", "0"], "tile size 0"),
        (vec!["--tile", "97"], "tile size 97"),
        (vec!["--lods", "0"], "0 levels"),
        (vec!["--lods", "9"], "9 levels"),
        (vec!["--box", "200,0,200,300,48,300"], "outside the world"),
        (vec!["--light", "bake"], "no baked light"),
        (vec!["--lod", "1"], "--lod"),
    ];
    for (extra, message) in cases {
        let mut args = vec!["export", s(&w), s(&out), "--format", "scene"];
        args.extend_from_slice(&extra);
        let err = fails(&args);
        assert!(err.contains(message), "{extra:?}: {err}");
        assert_eq!(strata(&args).status.code(), usage_code, "{extra:?}");
        assert!(!out.exists(), "{extra:?} wrote nothing");
    }
    let err = fails(&["export", s(&w), s(&folder), "--format", "scene"]);
    assert!(err.contains("is a folder"), "{err}");
    assert!(folder.read_dir().expect("list").next().is_none());
    let err = fails(&["export", s(&w), s(&w), "--format", "scene"]);
    assert!(err.contains("input"), "{err}");
    let missing = d.join("no-such-folder").join("x.glb");
    let err = fails(&["export", s(&w), s(&missing), "--format", "scene"]);
    assert!(err.contains("no-such-folder"), "{err}");
    assert!(!missing.exists());
    // A folder without write permission (root ignores the bits, so only checked when they bite).
    set_read_only(&read_only, true);
    let probe = std::fs::write(read_only.join("probe"), b"x").is_err();
    if probe {
        let err = fails(&["export", s(&w), s(&locked), "--format", "scene"]);
        assert!(err.contains("x.glb") || err.contains("ermission"), "{err}");
        assert!(!locked.exists());
    }
    set_read_only(&read_only, false);
    let other = fails(&["export", s(&w), s(&d.join("o.obj")), "--tile", "32"]);
    assert!(other.contains("--format scene"), "{other}");
    // The input is unchanged and a good call still works.
    ok(&[
        "export",
        s(&w),
        s(&out),
        "--format",
        "scene",
        "--tile",
        "48",
    ]);
    assert!(out.exists());
}

fn set_read_only(dir: &Path, read_only: bool) {
    let mut perms = std::fs::metadata(dir).expect("meta").permissions();
    perms.set_readonly(read_only);
    std::fs::set_permissions(dir, perms).expect("chmod");
}
