//! The scene's per-tile weld against the plain way (the whole level welded in one, as the
//! single-mesh export does, then cut by centroid): the same tiles, bit for bit, on several worlds,
//! tile sizes, a box and baked light.

use std::collections::BTreeMap;

use super::scene_tests::{bounds, tiles_of};
use super::scene_tiles::TileLevel;
use super::*;
use crate::gen::{generate, GeneratorSettings, Preset};
use crate::voxel::{VoxelBox, VoxelPos};

/// A level cut into tiles the plain way: the whole level welded in one (as the single-mesh export
/// does), each triangle given to the tile of its centroid, each tile's vertices in first-use order.
fn reference_tiles(
    grid: &Grid,
    options: &SceneOptions<'_>,
    lod: u32,
) -> BTreeMap<(i32, i32), TileLevel> {
    let table = MaterialTable::builtin();
    let chunks = chunks_to_mesh(grid, lod, options.region);
    let w = crate::mesh::mesh_export::mesh_chunks(
        grid,
        &table,
        lod,
        options.region,
        &chunks,
        options.light,
        &Progress::new(),
        |_, _| Ok(()),
    )
    .expect("meshes");
    let n = i64::from(options.tile_voxels);
    let extent = options
        .region
        .map_or(options.world, |r| r.intersect(&options.world));
    let range = |lo: i32, hi: i32| {
        (
            i64::from(lo).div_euclid(n),
            (i64::from(hi) - 1).div_euclid(n),
        )
    };
    let (xr, zr) = (
        range(extent.min.x, extent.max.x),
        range(extent.min.z, extent.max.z),
    );
    let mut out: BTreeMap<(i32, i32), (TileLevel, BTreeMap<u32, u32>)> = BTreeMap::new();
    for (list, water) in [(&w.solid, false), (&w.water, true)] {
        for tri in list.chunks_exact(3) {
            let c = |a: usize| {
                let s: f64 = tri
                    .iter()
                    .map(|&v| f64::from(w.positions[v as usize][a]))
                    .sum();
                (s / 3.0).floor() as i64
            };
            let x = (c(0) + i64::from(w.origin.x))
                .div_euclid(n)
                .clamp(xr.0, xr.1) as i32;
            let z = (c(2) + i64::from(w.origin.z))
                .div_euclid(n)
                .clamp(zr.0, zr.1) as i32;
            let (level, map) = out.entry((x, z)).or_default();
            let corner = [
                x * options.tile_voxels as i32,
                0,
                z * options.tile_voxels as i32,
            ];
            for &v in tri {
                let next = level.positions.len() as u32;
                let k = v as usize;
                let local = *map.entry(v).or_insert_with(|| {
                    let p = w.positions[k];
                    level.positions.push([0, 1, 2].map(|a| {
                        p[a] - (corner[a] - [w.origin.x, w.origin.y, w.origin.z][a]) as f32
                    }));
                    level.normals.push(w.normals[k]);
                    level.light.push(w.light[k]);
                    let mut pairs = [0, 1, 2, 3].map(|i| (w.weights[k][i], w.slots[k][i] & 0x3f));
                    pairs.sort_by_key(|p| std::cmp::Reverse(p.0));
                    level.slots.push(pairs.map(|p| p.1));
                    level.weights.push(pairs.map(|p| p.0));
                    next
                });
                if water {
                    level.water.push(local);
                } else {
                    level.solid.push(local);
                }
            }
        }
    }
    out.into_iter().map(|(k, (level, _))| (k, level)).collect()
}

#[test]
fn tiles_welded_apart_equal_the_whole_level_welded_and_cut() {
    let table = MaterialTable::builtin();
    let cases = [
        (Preset::Canyons, [96u32, 64, 96], 40u32, 1u32, None, false),
        (Preset::Canyons, [64, 48, 64], 16, 5, None, true),
        (
            Preset::Mountains,
            [128, 64, 128],
            32,
            2,
            Some(([10, 0, 7], [90, 50, 101])),
            true,
        ),
        (Preset::Hills, [100, 40, 70], 64, 3, None, false),
        (Preset::Canyons, [40, 32, 40], 7, 9, None, false),
    ];
    for (preset, size, tile, seed, region, lit) in cases {
        let settings = GeneratorSettings { preset, size, seed };
        let grid = generate(&settings, &table, &Progress::new()).expect("generates");
        let volume = crate::light::SolidVolume::from_grid(&grid, &table).expect("volume");
        let light_settings = crate::light::LightSettings {
            particles: 4,
            ..crate::light::LightSettings::default()
        };
        let (light, _) =
            crate::light::bake(&volume, &light_settings, &Progress::new()).expect("bakes");
        let mut options = SceneOptions::new(bounds(size));
        options.tile_voxels = tile;
        options.lods = 4;
        options.collision = false;
        options.region = region.map(|(lo, hi): ([i32; 3], [i32; 3])| {
            VoxelBox::new(
                VoxelPos::new(lo[0], lo[1], lo[2]),
                VoxelPos::new(hi[0], hi[1], hi[2]),
            )
        });
        options.light = lit.then_some(&light);
        let tiles = tiles_of(&grid, &options);
        for lod in scene_tiles::meshed_lods(options.lods) {
            let want = reference_tiles(&grid, &options, lod);
            let what = format!("{preset:?} {size:?} tile {tile} level {lod}");
            let got: BTreeMap<(i32, i32), &TileLevel> = tiles
                .iter()
                .map(|t| ((t.x, t.z), &t.levels[lod as usize]))
                .filter(|(_, l)| l.triangles() > 0)
                .collect();
            assert_eq!(got.len(), want.len(), "{what}: tiles");
            assert!(want.len() > 1, "{what}: {} tiles", want.len());
            for (key, w) in &want {
                let g = got[key];
                let bits =
                    |v: &[[f32; 3]]| v.iter().map(|p| p.map(f32::to_bits)).collect::<Vec<_>>();
                assert_eq!(
                    bits(&g.positions),
                    bits(&w.positions),
                    "{what} {key:?}: positions"
                );
                assert_eq!(
                    bits(&g.normals),
                    bits(&w.normals),
                    "{what} {key:?}: normals"
                );
                assert_eq!(bits(&g.light), bits(&w.light), "{what} {key:?}: light");
                assert_eq!(g.slots, w.slots, "{what} {key:?}: materials");
                assert_eq!(g.weights, w.weights, "{what} {key:?}: weights");
                assert_eq!(g.solid, w.solid, "{what} {key:?}: solid");
                assert_eq!(g.water, w.water, "{what} {key:?}: water");
            }
        }
    }
}
