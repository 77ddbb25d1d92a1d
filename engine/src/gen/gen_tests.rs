//! Whole-world tests of the generator through its public API.

use std::collections::{BTreeMap, BTreeSet};

use rayon::prelude::*;

use super::{Biome, BiomeSettings, GeneratorSettings, Preset, Terrain, WorldSettings};
use crate::voxel::{ChunkPos, MaterialTable, Voxel, VoxelPos, CHUNK_SIZE};

type Chunks = BTreeMap<ChunkPos, Vec<Voxel>>;

fn settings(preset: Preset, size: [u32; 3], seed: u32) -> GeneratorSettings {
    GeneratorSettings { preset, size, seed }
}

fn terrain(s: &GeneratorSettings) -> Terrain {
    Terrain::new(s, &MaterialTable::builtin()).expect("valid settings")
}

/// Fill the given columns in order, checking the per-column contract along the way.
fn fill(t: &Terrain, columns: &[(i32, i32)]) -> Chunks {
    let mut out = Chunks::new();
    for &(cx, cz) in columns {
        let mut last_y = -1;
        t.fill_column(cx, cz, &mut |pos, chunk| {
            assert_eq!((pos.x, pos.z), (cx, cz), "chunk from another column");
            assert!(pos.y > last_y, "chunks not bottom to top");
            last_y = pos.y;
            chunk.assert_valid();
            assert!(!chunk.is_air(), "empty chunk emitted");
            let mut voxels = vec![Voxel::AIR; CHUNK_SIZE * CHUNK_SIZE * CHUNK_SIZE];
            chunk.level0().to_dense(&mut voxels);
            assert!(out.insert(pos, voxels).is_none(), "chunk emitted twice");
        });
    }
    out
}

fn mixed(biomes: &[Biome], size: [u32; 3], seed: u32, biome_size: u32, caves: bool) -> Terrain {
    let world = WorldSettings::with_biomes(
        size,
        seed,
        BiomeSettings {
            biomes: biomes.to_vec(),
            biome_size,
            caves,
        },
    );
    Terrain::from_world(&world, &MaterialTable::builtin()).expect("valid settings")
}

fn generate(s: &GeneratorSettings) -> (Terrain, Chunks) {
    let t = terrain(s);
    let chunks = fill(&t, &t.chunk_columns());
    (t, chunks)
}

/// Every voxel of the emitted chunks with its world position.
fn voxels(chunks: &Chunks) -> impl Iterator<Item = (VoxelPos, Voxel)> + '_ {
    chunks.iter().flat_map(|(pos, voxels)| {
        let o = pos.min_voxel();
        voxels.iter().enumerate().map(move |(i, &v)| {
            let (x, y, z) = (
                i % CHUNK_SIZE,
                (i / CHUNK_SIZE) % CHUNK_SIZE,
                i / (CHUNK_SIZE * CHUNK_SIZE),
            );
            (
                VoxelPos::new(o.x + x as i32, o.y + y as i32, o.z + z as i32),
                v,
            )
        })
    })
}

fn voxel_at(chunks: &Chunks, p: VoxelPos) -> Voxel {
    let [x, y, z] = p.local();
    chunks
        .get(&p.chunk())
        .map_or(Voxel::AIR, |c| c[(z * CHUNK_SIZE + y) * CHUNK_SIZE + x])
}

fn material(name: &str) -> u8 {
    MaterialTable::builtin()
        .require(name)
        .expect("builtin material")
}

#[test]
fn output_does_not_depend_on_order_or_threads() {
    let s = settings(Preset::Hills, [100, 64, 90], 7);
    let (t, forward) = generate(&s);
    let mut columns = t.chunk_columns();
    columns.reverse();
    let backward = fill(&terrain(&s), &columns);
    assert_eq!(forward, backward);
    let parallel: Chunks = t
        .chunk_columns()
        .par_iter()
        .flat_map_iter(|&c| fill(&t, &[c]))
        .collect();
    assert_eq!(forward, parallel);
    // The same column alone, twice, from fresh samplers.
    assert_eq!(fill(&terrain(&s), &[(1, 2)]), fill(&terrain(&s), &[(1, 2)]));
    let other = fill(
        &terrain(&settings(Preset::Hills, [100, 64, 90], 8)),
        &[(1, 1)],
    );
    assert_ne!(other, fill(&t, &[(1, 1)]), "the seed changes the world");
}

#[test]
fn flat_has_exact_layers() {
    let (grass, ground, rock) = (material("Grass"), material("Ground"), material("Rock"));
    let (t, chunks) = generate(&settings(Preset::Flat, [40, 64, 50], 3));
    assert_eq!(t.sea_level(), 0);
    assert_eq!(t.height_at(7, 9), 16.0);
    // Only the bottom chunk row holds ground, and every column in the world is full.
    assert!(chunks.keys().all(|p| p.y == 0));
    assert_eq!(chunks.len(), 4);
    for (p, v) in voxels(&chunks) {
        let inside = p.x < 40 && p.z < 50;
        let expected = match p.y {
            _ if !inside => Voxel::AIR,
            15 => Voxel::filled(grass),
            12..=14 => Voxel::filled(ground),
            0..=11 => Voxel::filled(rock),
            _ => Voxel::AIR,
        };
        assert_eq!(v, expected, "at {p:?}");
    }
}

#[test]
fn every_preset_makes_a_valid_world() {
    for preset in Preset::ALL {
        for size in [[64, 64, 64], [45, 37, 70]] {
            let s = settings(preset, size, 2);
            let (t, chunks) = generate(&s);
            let bounds = s.bounds();
            let mut solid = 0;
            for (p, v) in voxels(&chunks) {
                assert!(v.is_normalized(), "{preset} {p:?} {v:?}");
                if !v.is_air() {
                    assert!(
                        bounds.contains(p),
                        "{preset}: matter outside the world at {p:?}"
                    );
                    solid += 1;
                }
            }
            assert!(solid > 0, "{preset} {size:?} is empty");
            let columns: BTreeSet<_> = t.chunk_columns().into_iter().collect();
            assert!(chunks.keys().all(|p| columns.contains(&(p.x, p.z))));
        }
    }
}

#[test]
fn water_lies_only_below_the_sea_level() {
    let water = material("Water");
    for preset in [
        Preset::Hills,
        Preset::Islands,
        Preset::Canyons,
        Preset::Mountains,
    ] {
        let (t, chunks) = generate(&settings(preset, [128, 64, 128], 5));
        let sea = t.sea_level();
        let mut wet = 0;
        for (p, v) in voxels(&chunks).filter(|(_, v)| v.material == water) {
            assert!(p.y < sea, "{preset}: water at {p:?} above sea level {sea}");
            assert_eq!(v, Voxel::filled(water));
            wet += 1;
        }
        if preset == Preset::Islands {
            assert!(
                wet > 128 * 128,
                "islands are mostly ocean, got {wet} water voxels"
            );
        }
        // No dry air hole between the ground and the sea surface.
        for x in 0..128 {
            let z = (x * 7) % 128;
            let h = t.height_at(x, z);
            for y in (h.ceil() as i32)..sea {
                let v = voxel_at(&chunks, VoxelPos::new(x, y, z));
                assert!(
                    v.material == water || (!v.is_air() && v.occupancy_f32() <= 0.5),
                    "{preset}: {v:?} at ({x}, {y}, {z}) between ground {h} and sea {sea}"
                );
            }
        }
    }
}

#[test]
fn surface_occupancy_tracks_the_height() {
    // Near the surface (above any cave), voxels whose centre lies below the height are at least half
    // full, those above at most half, and occupancy never grows upwards: the ½ iso-surface is the
    // height field. Total occupancy of a column is its height.
    let water = material("Water");
    for preset in [
        Preset::Hills,
        Preset::Mountains,
        Preset::Canyons,
        Preset::Islands,
    ] {
        let (t, chunks) = generate(&settings(preset, [64, 96, 64], 11));
        for (x, z) in (0..64)
            .flat_map(|x| (0..64).map(move |z| (x, z)))
            .step_by(5)
        {
            let h = t.height_at(x, z);
            let solid = |y: i32| {
                let v = voxel_at(&chunks, VoxelPos::new(x, y, z));
                if v.material == water {
                    0.0
                } else {
                    v.occupancy_f32()
                }
            };
            let lo = (h - 4.0).floor().max(0.0) as i32;
            let mut prev = 1.0f32;
            for y in lo..96 {
                let occ = solid(y);
                let centre = y as f32 + 0.5;
                if centre < h - 0.02 {
                    assert!(
                        occ >= 0.5,
                        "{preset} ({x}, {y}, {z}): {occ} below height {h}"
                    );
                }
                if centre > h + 0.02 {
                    assert!(
                        occ <= 0.5,
                        "{preset} ({x}, {y}, {z}): {occ} above height {h}"
                    );
                }
                assert!(
                    occ <= prev + 1e-6,
                    "{preset}: occupancy grows at ({x}, {y}, {z})"
                );
                prev = occ;
            }
        }
    }
}

#[test]
fn column_occupancy_adds_up_to_the_height() {
    // Without caves, the total occupancy of a column is its surface height (the distance band is
    // symmetric about the surface), whatever the slope.
    let water = material("Water");
    for t in [
        terrain(&settings(Preset::Canyons, [64, 96, 64], 11)),
        mixed(&[Biome::Mountains], [64, 96, 64], 11, 64, false),
        mixed(&Biome::ALL, [64, 96, 64], 11, 24, false),
    ] {
        let chunks = fill(&t, &t.chunk_columns());
        for (x, z) in (0..64)
            .flat_map(|x| (0..64).map(move |z| (x, z)))
            .step_by(7)
        {
            let h = t.height_at(x, z);
            if h > 94.0 || (h as i32) < t.sea_level() {
                continue;
            }
            let total: f32 = (0..96)
                .map(|y| voxel_at(&chunks, VoxelPos::new(x, y, z)))
                .filter(|v| v.material != water)
                .map(Voxel::occupancy_f32)
                .sum();
            assert!(
                (total - h.max(1.0)).abs() < 0.15,
                "{:?} ({x}, {z}): column {total} vs height {h}",
                t.world().biomes.biomes
            );
        }
    }
}

#[test]
fn caves_exist_in_hills_but_not_in_flat() {
    let count_hollow = |preset| {
        let (t, chunks) = generate(&settings(preset, [128, 64, 128], 4));
        voxels(&chunks)
            .filter(|(p, v)| {
                p.y > 2 && (p.y as f32) < t.height_at(p.x, p.z) - 6.0 && v.occupancy_f32() < 0.5
            })
            .count()
    };
    let hollow = count_hollow(Preset::Hills);
    assert!(hollow > 500, "hills have only {hollow} cave voxels");
    assert_eq!(count_hollow(Preset::Flat), 0);
}

#[test]
fn deep_rock_comes_in_horizontal_bands() {
    for preset in [Preset::Hills, Preset::Canyons, Preset::Mountains] {
        let (t, chunks) = generate(&settings(preset, [96, 128, 96], 6));
        let mut by_y: BTreeMap<i32, BTreeSet<u8>> = BTreeMap::new();
        for (p, v) in voxels(&chunks) {
            if !v.is_air() && (p.y as f32) < t.height_at(p.x, p.z) - 8.0 {
                by_y.entry(p.y).or_default().insert(v.material);
            }
        }
        assert!(by_y.len() > 20);
        for (y, materials) in &by_y {
            assert_eq!(materials.len(), 1, "{preset}: y {y} mixes {materials:?}");
        }
        assert_eq!(by_y[&0], BTreeSet::from([material("Basalt")]));
    }
}

#[test]
fn chunk_columns_cover_the_world_in_order() {
    let t = terrain(&settings(Preset::Hills, [100, 64, 33], 1));
    assert_eq!(
        t.chunk_columns(),
        vec![
            (0, 0),
            (1, 0),
            (2, 0),
            (3, 0),
            (0, 1),
            (1, 1),
            (2, 1),
            (3, 1)
        ]
    );
    // Columns outside the world emit nothing.
    assert!(fill(&t, &[(4, 0), (0, 2), (-1, 0)]).is_empty());
}

#[test]
fn odd_sizes_and_seeds_work() {
    for preset in Preset::ALL {
        for (size, seed) in [
            ([1, 1, 1], 0),
            ([8, 4096, 8], u32::MAX),
            ([33, 2, 1], 12345),
        ] {
            let (_, chunks) = generate(&settings(preset, size, seed));
            assert!(!chunks.is_empty(), "{preset} {size:?}");
            // Every column keeps a full floor voxel.
            for x in 0..size[0].min(40) as i32 {
                let v = voxel_at(&chunks, VoxelPos::new(x, 0, 0));
                assert_eq!(v.occupancy_f32(), 1.0, "{preset} {size:?} x {x}");
            }
        }
    }
}

#[test]
fn bad_inputs_are_rejected() {
    let table = MaterialTable::builtin();
    assert!(Terrain::new(&settings(Preset::Hills, [0, 64, 64], 1), &table).is_err());
    assert!(Terrain::new(&settings(Preset::Hills, [64, 5000, 64], 1), &table).is_err());
    let mut missing = table.clone();
    missing.materials.retain(|m| m.name != "Snow");
    assert!(Terrain::new(&GeneratorSettings::default(), &missing).is_err());
    let bad_mix = |biomes: Vec<Biome>, biome_size| {
        let w = WorldSettings::with_biomes(
            [64, 64, 64],
            1,
            BiomeSettings {
                biomes,
                biome_size,
                caves: true,
            },
        );
        Terrain::from_world(&w, &table).is_err()
    };
    assert!(bad_mix(vec![], 64), "empty biome list");
    assert!(bad_mix(vec![Biome::Hills], 0), "biome size 0");
    assert!(bad_mix(vec![Biome::Hills], 100_000), "biome size too large");
}

#[test]
fn presets_are_their_one_biome_worlds() {
    for preset in Preset::ALL {
        let s = settings(preset, [70, 48, 40], 8);
        let biome = preset.biome().expect("menu presets are biomes");
        let (_, a) = generate(&s);
        let t = mixed(&[biome], [70, 48, 40], 8, 256, preset.has_caves());
        let b = fill(&t, &t.chunk_columns());
        assert_eq!(a, b, "{preset}");
    }
}

#[test]
fn a_mix_holds_every_biome_with_its_own_materials() {
    let all = Biome::ALL;
    let t = mixed(&all, [320, 96, 320], 6, 48, false);
    let chunks = fill(&t, &t.chunk_columns());
    let mut seen = BTreeMap::<Biome, usize>::new();
    for x in (0..320).step_by(4) {
        for z in (0..320).step_by(4) {
            *seen.entry(t.biome_at(x, z)).or_default() += 1;
        }
    }
    assert_eq!(seen.len(), all.len(), "{seen:?}");
    let mut counts = BTreeMap::<u8, usize>::new();
    for (_, v) in voxels(&chunks).filter(|(_, v)| !v.is_air()) {
        *counts.entry(v.material).or_default() += 1;
    }
    for name in [
        "Water",
        "Sand",
        "Snow",
        "Ice",
        "Mud",
        "CrackedLava",
        "Basalt",
        "Grass",
    ] {
        assert!(
            counts.get(&material(name)).copied().unwrap_or(0) > 50,
            "{name} missing from a mix of every biome: {counts:?}"
        );
    }
}

#[test]
fn biome_borders_blend_without_cliffs() {
    // Neighbouring columns never differ by more than the steepest single-biome terrain allows.
    let t = mixed(
        &[
            Biome::Water,
            Biome::Mountains,
            Biome::Plains,
            Biome::Lavascape,
        ],
        [256, 128, 256],
        2,
        64,
        false,
    );
    let mut worst = 0.0f32;
    for z in 0..256 {
        for x in 1..256 {
            worst = worst.max((t.height_at(x, z) - t.height_at(x - 1, z)).abs());
        }
    }
    assert!(
        worst < 12.0,
        "a step of {worst} voxels between neighbouring columns"
    );
}

#[test]
fn one_biome_worlds_have_their_character() {
    let share = |biome: Biome, name: &str| {
        let t = mixed(&[biome], [96, 64, 96], 4, 64, false);
        let chunks = fill(&t, &t.chunk_columns());
        let id = material(name);
        let mut top = 0;
        let mut hit = 0;
        for x in 0..96 {
            for z in 0..96 {
                // The highest non-air voxel of the column.
                let v = (0..64)
                    .rev()
                    .map(|y| voxel_at(&chunks, VoxelPos::new(x, y, z)))
                    .find(|v| !v.is_air());
                top += 1;
                hit += usize::from(v.is_some_and(|v| v.material == id));
            }
        }
        hit as f64 / f64::from(top)
    };
    assert!(share(Biome::Water, "Water") > 0.95);
    assert!(share(Biome::Dunes, "Sand") > 0.8);
    assert!(share(Biome::Arctic, "Snow") + share(Biome::Arctic, "Ice") > 0.7);
    assert!(share(Biome::Marsh, "Water") + share(Biome::Marsh, "Mud") > 0.3);
    assert!(share(Biome::Lavascape, "CrackedLava") > 0.05);
    assert!(share(Biome::Lavascape, "Basalt") > 0.3);
    assert!(share(Biome::Plains, "Grass") + share(Biome::Plains, "LeafyGrass") > 0.6);
}

#[test]
fn caves_follow_the_setting_in_a_mix() {
    let hollow = |caves| {
        let t = mixed(&[Biome::Hills, Biome::Arctic], [128, 64, 128], 4, 64, caves);
        let chunks = fill(&t, &t.chunk_columns());
        voxels(&chunks)
            .filter(|(p, v)| {
                p.y > 2 && (p.y as f32) < t.height_at(p.x, p.z) - 6.0 && v.occupancy_f32() < 0.5
            })
            .count()
    };
    assert!(hollow(true) > 200);
    assert_eq!(hollow(false), 0);
}

#[test]
fn terrain_is_shareable_across_threads() {
    fn assert_sync_send<T: Sync + Send>() {}
    assert_sync_send::<Terrain>();
}
