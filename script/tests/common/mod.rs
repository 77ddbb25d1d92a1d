//! Helpers shared by the script tests: a small world and a run of a source on it.
#![allow(dead_code)] // each test binary uses its own subset

use strata_engine::storage::Grid;
use strata_engine::voxel::{MaterialTable, Voxel, VoxelBox, VoxelPos};
use strata_script::{run, Limits, RunOptions, RunOutcome, Script, ScriptWorld};

/// A 64 × 32 × 64 world, empty.
pub fn empty_world() -> ScriptWorld {
    let bounds = VoxelBox::new(VoxelPos::new(0, 0, 0), VoxelPos::new(64, 32, 64));
    ScriptWorld::new(Grid::new(), MaterialTable::builtin(), bounds, 1 << 26)
}

/// Run `source` (named `test.luau`) on `world` with default limits.
pub fn run_on(world: ScriptWorld, source: &str) -> RunOutcome {
    run_with(world, source, RunOptions::default())
}

/// Run `source` with `options`.
pub fn run_with(world: ScriptWorld, source: &str, options: RunOptions) -> RunOutcome {
    let script = Script {
        name: "test.luau".into(),
        source: source.into(),
    };
    run(&script, world, options)
}

/// Run `source` on an empty world and expect success.
pub fn ok(source: &str) -> RunOutcome {
    let out = run_on(empty_world(), source);
    if let Some(e) = &out.error {
        panic!("script failed: {e}\noutput: {:?}", out.output);
    }
    out
}

/// Run and expect an error; returns its text.
pub fn fails(source: &str, limits: Limits) -> (String, RunOutcome) {
    let out = run_with(
        empty_world(),
        source,
        RunOptions {
            limits,
            ..RunOptions::default()
        },
    );
    let text = out
        .error
        .as_ref()
        .map(ToString::to_string)
        .unwrap_or_default();
    assert!(
        out.error.is_some(),
        "expected an error, output {:?}",
        out.output
    );
    (text, out)
}

/// The project id of material `name` in the built-in table.
pub fn id(name: &str) -> u8 {
    MaterialTable::builtin().id_of(name).expect("material")
}

/// One voxel of the outcome.
pub fn at(out: &RunOutcome, x: i32, y: i32, z: i32) -> Voxel {
    out.world.get(VoxelPos::new(x, y, z))
}
