//! How long the editor's region edits hold the UI thread: copy a 256×128×256 box of `canyons`
//! (384×128×384, seed 1), paste it 64 east and 48 south through `Document::region_edit` (undo record,
//! physics refresh, publish), undo it, and turn the copy a quarter turn; three rounds.
//!
//! `cargo run --release -p strata --example region_timing` (or without `--release` for the dev build).

use std::sync::Arc;
use std::time::Instant;

use strata::document::Document;
use strata::region_op::RegionOp;
use strata_engine::format::project::{Project, ProjectHeader};
use strata_engine::gen::{generate, GeneratorSettings, Preset};
use strata_engine::progress::Progress;
use strata_engine::region::{Axis, PasteMode, Region};
use strata_engine::voxel::{MaterialTable, VoxelBox, VoxelPos};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let settings = GeneratorSettings {
        preset: Preset::Canyons,
        size: [384, 128, 384],
        seed: 1,
    };
    let table = MaterialTable::builtin();
    let grid = generate(&settings, &table, &Progress::new())?;
    let mut header = ProjectHeader::new("timing", settings.bounds());
    header.materials = table;
    let mut doc = Document::new(Project::new(header, grid), None);
    let b = VoxelBox::new(VoxelPos::new(0, 0, 0), VoxelPos::new(256, 128, 256));
    for round in 1..=3 {
        let t = Instant::now();
        let region = Arc::new(Region::copy(doc.grid(), b)?);
        let copy = t.elapsed();
        let op = RegionOp::Place {
            clear: None,
            region: region.clone(),
            at: VoxelPos::new(64, 0, 48),
            mode: PasteMode::Replace,
        };
        let t = Instant::now();
        let changed = doc.region_edit("Paste", &op)?;
        let paste = t.elapsed();
        let t = Instant::now();
        doc.undo()?;
        let undo = t.elapsed();
        let t = Instant::now();
        let turned = region.rotated(Axis::Y, 1);
        let turn = t.elapsed();
        println!(
            "round {round}: copy {copy:.1?}, paste {paste:.1?} (changed {:?}), undo {undo:.1?}, \
             quarter turn {turn:.1?} ({} runs)",
            changed.size(),
            turned.run_count()
        );
    }
    Ok(())
}
