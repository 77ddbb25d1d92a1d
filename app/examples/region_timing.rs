//! How long the editor's region edits hold the UI thread: copy a 256×128×256 box of `canyons`
//! (384×128×384, seed 1), paste it 64 east and 48 south, undo it, and turn the selection a
//! quarter turn in place; three rounds. Each write is timed twice: at once through
//! `Document::region_edit` / `undo` (what writes under `SYNC_VOXELS` still do), and as the
//! background job the editor runs for writes this size, split into its UI-thread parts (preparing
//! the chunk copies, installing the result: chunk swaps, history splice, physics refresh, publish)
//! and the job thread's part.
//!
//! `cargo run --release -p strata --example region_timing` (or without `--release` for the dev build).

use std::sync::Arc;
use std::time::{Duration, Instant};

use strata::document::Document;
use strata::region::region_op::RegionOp;
use strata_engine::format::project::{Project, ProjectHeader};
use strata_engine::gen::{generate, GeneratorSettings, Preset};
use strata_engine::progress::Progress;
use strata_engine::region::{Axis, PasteMode, Region};
use strata_engine::voxel::{MaterialTable, VoxelBox, VoxelPos};

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

/// (UI-thread prepare, job thread, UI-thread install) of `op` as a job.
fn as_job(doc: &mut Document, op: &RegionOp) -> Result<[f64; 3], Box<dyn std::error::Error>> {
    let t = Instant::now();
    let work = doc.prepare_region_edit("Job", op.clone(), None);
    let prepare = t.elapsed();
    let t = Instant::now();
    let done = work.run(&Progress::new())?;
    let run = t.elapsed();
    let t = Instant::now();
    doc.install_region(done)?;
    let _ = doc.take_published();
    Ok([ms(prepare), ms(run), ms(t.elapsed())])
}

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
        let paste = RegionOp::Place {
            clear: None,
            region: region.clone(),
            at: VoxelPos::new(64, 0, 48),
            mode: PasteMode::Replace,
        };
        let t = Instant::now();
        let changed = doc.region_edit("Paste", &paste)?;
        let at_once = t.elapsed();
        let t = Instant::now();
        doc.undo()?;
        let undo = t.elapsed();
        let _ = doc.take_published();
        let job = as_job(&mut doc, &paste)?;
        let t = Instant::now();
        let undo_work = doc.prepare_history(false, 1).ok_or("a step to undo")?;
        let undo_prepare = t.elapsed();
        let t = Instant::now();
        let undone = undo_work.run(&Progress::new())?;
        let undo_run = t.elapsed();
        let t = Instant::now();
        doc.install_region(undone)?;
        let undo_install = t.elapsed();
        let _ = doc.take_published();
        let turn = RegionOp::Turn {
            sel: b,
            axis: Axis::Y,
            mirror: false,
        };
        let turn_job = as_job(&mut doc, &turn)?;
        doc.undo()?;
        let _ = doc.take_published();
        println!(
            "round {round}: copy {:.1} ms | paste (changed {:?}) at once {:.1} ms, as a job: UI {:.1} + {:.1} ms, \
             job {:.1} ms | undo at once {:.1} ms, as a job: UI {:.1} + {:.1} ms, job {:.1} ms | \
             turn in place as a job: UI {:.1} + {:.1} ms, job {:.1} ms",
            ms(copy),
            changed.size(),
            ms(at_once),
            job[0],
            job[2],
            job[1],
            ms(undo),
            ms(undo_prepare),
            ms(undo_install),
            ms(undo_run),
            turn_job[0],
            turn_job[2],
            turn_job[1],
        );
    }
    Ok(())
}
