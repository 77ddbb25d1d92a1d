//! Sandbox escapes and limits: each ends the run with a clear error and a location, and the world
//! the run leaves is discarded by its caller (the CLI test byte-compares the project file).

mod common;

use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Duration;

use common::{empty_world, fails, ok, run_with};
use strata_script::{Error, Limits, RunOptions};

fn expect(source: &str, words: &[&str]) {
    let (e, _) = fails(source, Limits::default());
    for w in words {
        assert!(e.contains(w), "{source:?}: {e:?} lacks {w:?}");
    }
    assert!(
        e.starts_with("test.luau:"),
        "{source:?}: no location in {e:?}"
    );
}

#[test]
fn escapes_are_refused() {
    expect(
        r#"local f = io.open("/etc/passwd")"#,
        &["io.open", "not available"],
    );
    expect(r#"os.execute("ls")"#, &["os.execute", "not available"]);
    expect(
        r#"local v = os.getenv("HOME")"#,
        &["os.getenv", "not available"],
    );
    expect(
        r#"loadstring("return 1")()"#,
        &["loadstring", "not available"],
    );
    expect(r#"local f = load("return 1")"#, &["load"]);
    expect(r#"getfenv(1).x = 1"#, &["getfenv", "not available"]);
    expect(r#"setfenv(1, {})"#, &["setfenv", "not available"]);
    expect(r#"require("../x")"#, &["require", "scripts/"]);
    expect(r#"debug.getinfo(1)"#, &["debug", "not available"]);
    expect(r#"string.dump(print)"#, &["nil value"]);
    // Shared globals are read-only: one script cannot change what the next call sees.
    expect(
        r#"math.noise = nil; rawset(math, "floor", nil)"#,
        &["readonly"],
    );
    ok("print(os.clock() >= 0, os.time() > 0)");
}

#[test]
fn a_loop_forever_hits_the_time_limit() {
    let limits = Limits {
        timeout: Duration::from_millis(300),
        ..Limits::default()
    };
    let (e, out) = fails("local n = 0\nwhile true do n = n + 1 end", limits);
    assert!(
        e.contains("time limit") && e.starts_with("test.luau:2"),
        "{e}"
    );
    assert!(out.elapsed < Duration::from_secs(5), "{:?}", out.elapsed);
}

#[test]
fn a_huge_table_hits_the_memory_limit() {
    let limits = Limits {
        memory_bytes: 32 << 20,
        ..Limits::default()
    };
    let (e, _) = fails("local t = {}\nfor i = 1, 1e9 do t[i] = i end", limits);
    assert!(e.contains("memory limit of 32 MB"), "{e}");
    let (e, _) = fails(r#"local s = string.rep("x", 1e9)"#, limits);
    assert!(e.contains("memory"), "{e}");
}

#[test]
fn the_voxel_cap_stops_runaway_writes() {
    let limits = Limits {
        max_voxels_written: 1000,
        ..Limits::default()
    };
    let (e, _) = fails(
        "for i = 1, 100 do workspace.Terrain:FillBall(Vector3.new(64, 64, 64), 12, Enum.Material.Rock) end",
        limits,
    );
    assert!(e.contains("cap on voxels written"), "{e}");
}

#[test]
fn cancel_stops_the_run() {
    let cancel = Arc::new(AtomicBool::new(true));
    let out = run_with(
        empty_world(),
        "while true do end",
        RunOptions {
            cancel: Some(cancel),
            ..RunOptions::default()
        },
    );
    assert!(
        matches!(out.error, Some(Error::Cancelled)),
        "{:?}",
        out.error
    );
}

#[test]
fn require_reads_only_the_scripts_folder() {
    let dir = std::env::temp_dir().join(format!("strata-require-{}", std::process::id()));
    let scripts = dir.join("scripts");
    std::fs::create_dir_all(scripts.join("lib")).expect("dir");
    std::fs::write(scripts.join("lib/util.luau"), "return { answer = 42 }").expect("write");
    std::fs::write(dir.join("secret.luau"), "return 'secret'").expect("write");
    let opts = || RunOptions {
        scripts_dir: Some(scripts.clone()),
        ..RunOptions::default()
    };
    let out = run_with(
        empty_world(),
        r#"print(require("lib/util").answer, require("./lib/util") == require("lib/util"))"#,
        opts(),
    );
    assert!(out.error.is_none(), "{:?}", out.error);
    assert_eq!(out.output, vec!["42 true"]);
    for bad in ["../secret", "/etc/passwd", "lib/../../secret", "missing"] {
        let out = run_with(empty_world(), &format!("require({bad:?})"), opts());
        let e = out.error.map(|e| e.to_string()).unwrap_or_default();
        assert!(e.contains("require"), "{bad}: {e}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}
