//! Seeded property test: random edits of a baked world, through every path of the one edit place
//! (`Document`), then a save; the file always loads without repairs, its light fits its voxels, and
//! a re-bake of the stale light leaves nothing stale.

use std::sync::Arc;

use strata::document::Document;
use strata::region::region_op::RegionOp;
use strata_engine::format::project::{Project, ProjectHeader};
use strata_engine::gen::{generate_world, GeneratorSettings, Preset, WorldSettings};
use strata_engine::light::{bake_grid, serial::fit_to_voxels, LightSettings};
use strata_engine::progress::Progress;
use strata_engine::region::{Fill, PasteMode, Region};
use strata_engine::tools::{Brush, BrushShape, SeaLevelMode, Tool, ToolKind};
use strata_engine::voxel::{MaterialTable, Voxel, VoxelBox, VoxelPos};

fn baked_world(seed: u32) -> Document {
    let settings = WorldSettings::from_preset(&GeneratorSettings {
        preset: Preset::Hills,
        size: [48, 40, 48],
        seed,
    });
    let table = MaterialTable::builtin();
    let grid = generate_world(&settings, &table, &Progress::new()).expect("generates");
    let bounds = VoxelBox::from_min_size(VoxelPos::new(0, 0, 0), [48, 40, 48]);
    let mut header = ProjectHeader::new("baked", bounds);
    header.materials = table;
    let mut doc = Document::headless(Project::new(header, grid), None);
    let light = LightSettings {
        particles: 2,
        steps: 6,
        ..LightSettings::default()
    };
    let (map, _) =
        bake_grid(doc.grid(), doc.materials(), &[], &light, &Progress::new()).expect("bake");
    doc.install_light(map);
    doc
}

fn random_box(rng: &mut fastrand::Rng, bounds: VoxelBox) -> VoxelBox {
    let [sx, sy, sz] = bounds.size().map(|s| s as i32);
    let a = VoxelPos::new(rng.i32(-4..sx), rng.i32(-4..sy), rng.i32(-4..sz));
    let size = [rng.u32(1..14), rng.u32(1..14), rng.u32(1..14)];
    VoxelBox::from_min_size(a, size)
}

/// One random edit through one of the document's edit paths.
fn random_edit(doc: &mut Document, rng: &mut fastrand::Rng) {
    let bounds = doc.bounds();
    let kinds = [
        ToolKind::Add,
        ToolKind::Subtract,
        ToolKind::Grow,
        ToolKind::Erode,
        ToolKind::Smooth,
        ToolKind::Flatten,
        ToolKind::Paint,
    ];
    match rng.u8(0..7) {
        0 | 1 => {
            let kind = kinds[rng.usize(0..kinds.len())];
            doc.begin_stroke(kind.name());
            let brush = Brush::new(BrushShape::Sphere, rng.f32() * 12.0 + 2.0, 1.0);
            for _ in 0..rng.usize(1..5) {
                let c = [rng.f32() * 48.0, rng.f32() * 40.0, rng.f32() * 48.0];
                doc.dab(&Tool::new(kind, 7), &brush, c);
            }
            doc.end_stroke();
        }
        2 => {
            let mode = if rng.bool() {
                SeaLevelMode::Fill
            } else {
                SeaLevelMode::Clear
            };
            doc.sea_level(random_box(rng, bounds), rng.f32() * 30.0, mode);
        }
        3 => {
            let fill = if rng.bool() {
                Fill::new(Voxel::filled(rng.u8(2..20)))
            } else {
                Fill::only_air(Voxel::new(5, 200))
            };
            let op = RegionOp::Fill {
                b: random_box(rng, bounds),
                fill,
            };
            let _ = doc.region_edit("Fill", &op);
        }
        4 => {
            let _ = doc.region_edit("Delete", &RegionOp::Delete(random_box(rng, bounds)));
        }
        5 => {
            let src = random_box(rng, bounds).intersect(&bounds);
            if !src.is_empty() {
                let region = Region::copy_with(doc.grid(), src, &Progress::new()).expect("copy");
                let at = random_box(rng, bounds).min;
                let op = RegionOp::Place {
                    clear: None,
                    region: Arc::new(region),
                    at,
                    mode: PasteMode::Replace,
                };
                let _ = doc.region_edit("Paste", &op);
            }
        }
        _ => {
            if rng.bool() {
                doc.undo().expect("undo");
            } else {
                doc.redo().expect("redo");
            }
        }
    }
}

#[test]
fn random_edits_of_a_baked_world_save_files_that_load_without_repair() {
    for seed in 0..6u32 {
        let mut doc = baked_world(seed);
        let mut rng = fastrand::Rng::with_seed(u64::from(seed));
        for round in 0..5 {
            for _ in 0..rng.usize(1..6) {
                random_edit(&mut doc, &mut rng);
            }
            let bytes = doc.snapshot().to_bytes().expect("encodes");
            let back = Project::from_bytes(&bytes).expect("the saved file loads");
            assert!(
                back.warnings.is_empty(),
                "seed {seed}, round {round}: {:?}",
                back.warnings
            );
            let mut light = back.light.clone().expect("the light is kept");
            let fit = fit_to_voxels(&mut light, &back.grid, &back.header.materials).expect("check");
            assert_eq!(fit, None, "seed {seed}, round {round}");
            assert!(back.grid == *doc.grid());
        }
    }
}
