//! Cross-crate end to end: generate, save, load, compare; and a golden RLE fixture.

use strata_engine::codec::rle;
use strata_engine::format::project::{Project, ProjectHeader};
use strata_engine::gen::{generate, GeneratorSettings, Preset};
use strata_engine::progress::Progress;
use strata_engine::voxel::{MaterialTable, Voxel, VoxelBox, VoxelPos};

fn world(preset: Preset, size: [u32; 3], seed: u32) -> Project {
    let settings = GeneratorSettings { preset, size, seed };
    let materials = MaterialTable::builtin();
    let grid = generate(&settings, &materials, &Progress::new()).expect("generates");
    let mut header = ProjectHeader::new("e2e", settings.bounds());
    header.generator = Some(settings);
    Project::new(header, grid)
}

#[test]
fn every_preset_survives_save_and_load() {
    let dir = std::env::temp_dir().join(format!("strata-e2e-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("dir");
    for preset in Preset::ALL {
        let p = world(preset, [80, 64, 72], 4);
        let path = dir.join(format!("{preset}.strata"));
        p.save(&path).expect("save");
        let back = Project::load(&path).expect("load");
        back.grid.assert_valid();
        assert!(
            back.grid == p.grid,
            "{preset}: voxels differ after a round trip"
        );
        assert_eq!(back.header, p.header);
    }
    std::fs::remove_dir_all(&dir).expect("cleanup");
}

#[test]
fn flat_world_rle_matches_golden_fixture() {
    let p = world(Preset::Flat, [64, 40, 64], 1);
    let b = VoxelBox::new(VoxelPos::new(-2, 0, 0), VoxelPos::new(66, 40, 8));
    let voxels = p.grid.read_box_vec(b);
    let mut bytes = Vec::new();
    rle::encode(&voxels, &mut bytes);
    let golden = include_bytes!("../fixtures/flat_64x40x64_box.rle");
    assert_eq!(bytes.as_slice(), golden.as_slice());
    let mut back = vec![Voxel::AIR; b.volume()];
    rle::decode(golden, &mut back).expect("golden decodes");
    assert_eq!(back, voxels);
}
