//! Project file tests: round trips, checksums, truncation, versions.

use super::*;
use crate::voxel::{Voxel, VoxelBox, VoxelPos};

fn sample() -> Project {
    let bounds = VoxelBox::new(VoxelPos::new(-40, 0, -40), VoxelPos::new(40, 30, 40));
    let mut grid = Grid::new();
    grid.fill_box(
        VoxelBox::new(VoxelPos::new(-40, 0, -40), VoxelPos::new(40, 5, 40)),
        Voxel::filled(7),
    );
    grid.modify_box(
        VoxelBox::new(VoxelPos::new(-10, 5, -33), VoxelPos::new(20, 9, 3)),
        |p, _| Voxel::new(2, (p.x * 7 + p.z) as u8),
    );
    let mut project = Project::new(ProjectHeader::new("sample", bounds), grid);
    let b = VoxelBox::new(VoxelPos::new(0, 0, 0), VoxelPos::new(6, 12, 6));
    project
        .history
        .apply(&mut project.grid, b, "Subtract", |g| {
            g.fill_box(b, Voxel::AIR)
        });
    project
}

#[test]
fn round_trip_keeps_everything() {
    let p = sample();
    let bytes = p.to_bytes().expect("encodes");
    assert_eq!(&bytes[..8], &MAGIC);
    let back = Project::from_bytes(&bytes).expect("decodes");
    assert_eq!(back.header, p.header);
    assert!(back.grid == p.grid);
    back.grid.assert_valid();
    assert_eq!(back.history, p.history);
    assert_eq!(
        back.to_bytes().expect("re-encodes"),
        bytes,
        "encoding is deterministic"
    );
}

#[test]
fn undo_works_after_reopening() {
    let p = sample();
    let mut back = Project::from_bytes(&p.to_bytes().expect("encodes")).expect("decodes");
    assert_eq!(back.grid.get(VoxelPos::new(1, 1, 1)), Voxel::AIR);
    back.history.undo(&mut back.grid).expect("undo");
    assert_eq!(back.grid.get(VoxelPos::new(1, 1, 1)), Voxel::filled(7));
}

#[test]
fn every_flipped_bit_is_reported() {
    let bytes = sample().to_bytes().expect("encodes");
    let step = (bytes.len() / 1500).max(1);
    for i in (0..bytes.len()).step_by(step) {
        for bit in [0, 3, 7] {
            let mut bad = bytes.clone();
            bad[i] ^= 1 << bit;
            match Project::from_bytes(&bad) {
                Err(Error::Corrupt { .. } | Error::UnsupportedVersion { .. }) => {}
                other => panic!("flip at byte {i} bit {bit}: {other:?}"),
            }
        }
    }
}

#[test]
fn every_truncation_is_reported() {
    let bytes = sample().to_bytes().expect("encodes");
    for cut in 0..bytes.len() {
        assert!(Project::from_bytes(&bytes[..cut]).is_err(), "cut at {cut}");
    }
}

#[test]
fn versions_and_magic() {
    let mut bytes = sample().to_bytes().expect("encodes");
    // The next version after the one written (version 2 since the column-coded chunk records).
    bytes[8] = 3;
    assert!(matches!(
        Project::from_bytes(&bytes),
        Err(Error::UnsupportedVersion { found: 3, .. })
    ));
    bytes[0] = b'P';
    match Project::from_bytes(&bytes) {
        Err(Error::Corrupt { offset: 0, reason }) => assert!(reason.contains("magic")),
        other => panic!("{other:?}"),
    }
}

#[test]
fn file_errors_name_the_file_and_offset() {
    let dir = std::env::temp_dir().join(format!("strata-project-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join("w.strata");
    let p = sample();
    p.save(&path).expect("save");
    p.save(&path).expect("second save keeps a backup");
    assert!(crate::format::backup_path(&path).exists());
    let mut bytes = std::fs::read(&path).expect("read");
    let last = bytes.len() - 10;
    bytes[last] ^= 0x10;
    std::fs::write(&path, &bytes).expect("write");
    let msg = Project::load(&path).expect_err("corrupt").to_string();
    assert!(msg.contains("w.strata") && msg.contains("byte "), "{msg}");
    std::fs::remove_dir_all(&dir).expect("cleanup");
}

#[test]
fn headers_without_biomes_still_load_and_mean_the_preset_world() {
    use crate::gen::{
        Biome, BiomeSettings, GeneratorSettings, Preset, WorldSettings, DEFAULT_BIOME_SIZE,
    };
    // A header as written before biome settings existed: no `biomes` field at all.
    let old = r#"(
        name: "old",
        bounds: (min: (x: 0, y: 0, z: 0), max: (x: 64, y: 32, z: 64)),
        materials: (materials: [(name: "Air", color: (0, 0, 0), liquid: false, shaping: Smooth)]),
        generator: Some((preset: canyons, size: (64, 32, 64), seed: 7)),
        camera: (target: (0.0, 0.0, 0.0), yaw_degrees: 0.0, pitch_degrees: 0.0, distance: 1.0),
    )"#;
    let h = ProjectHeader::from_ron(old.as_bytes(), 0).expect("old header loads");
    assert_eq!(h.biomes, None);
    let w = h.world().expect("generated");
    assert_eq!(w.preset, Preset::Canyons);
    assert_eq!(w.biomes.biomes, vec![Biome::Canyons]);
    assert_eq!(w.biomes.biome_size, DEFAULT_BIOME_SIZE);
    assert!(!w.biomes.caves, "canyons have no caves");
    // Imported worlds have neither field, and new headers without biomes write none.
    let plain = ProjectHeader::new("plain", VoxelBox::default());
    assert!(plain.world().is_none());
    assert!(!plain.to_ron().expect("ron").contains("biomes"));
    // A mixed world round-trips through RON with its biome settings.
    let mixed = WorldSettings::with_biomes(
        [64, 32, 64],
        3,
        BiomeSettings {
            biomes: vec![Biome::Lavascape, Biome::Arctic],
            biome_size: 48,
            caves: false,
        },
    );
    let mut header = ProjectHeader::new("mixed", mixed.bounds());
    header.set_world(&mixed);
    let text = header.to_ron().expect("ron");
    assert!(text.contains("preset: custom"), "{text}");
    assert!(
        text.contains("lavascape,\n") && text.contains("biome_size: 48"),
        "{text}"
    );
    let back = ProjectHeader::from_ron(text.as_bytes(), 0).expect("loads");
    assert_eq!(back, header);
    assert_eq!(back.world(), Some(mixed));
    let preset = GeneratorSettings::default();
    header.set_world(&WorldSettings::from_preset(&preset));
    assert_eq!(header.generator, Some(preset));
    // A header naming an unknown biome is corrupt, with the offset of the header.
    let bad = text.replace("lavascape", "volcano");
    match ProjectHeader::from_ron(bad.as_bytes(), 40) {
        Err(crate::Error::Corrupt { offset, .. }) => assert_eq!(offset, 40),
        other => panic!("{other:?}"),
    }
}

/// The encoded [`sample`] project, for tests in other files.
pub(super) fn sample_bytes() -> Vec<u8> {
    sample().to_bytes().expect("encodes")
}
