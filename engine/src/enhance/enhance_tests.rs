//! Enhancement against references written from the definitions: level-by-level subdivision of a
//! dense array, per-fragment resampling with floats, brute-force face counts.

use proptest::prelude::*;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::*;
use crate::progress::Progress;
use crate::storage::Grid;
use crate::voxel::{EnhanceThreshold, MaterialTable, Voxel, VoxelBox, VoxelPos};

/// A random world in `b`: solid lumps of a few materials (some liquid, some below ½ occupancy).
pub(super) fn random_grid(seed: u64, b: VoxelBox, fill: f64) -> Grid {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut grid = Grid::new();
    let mut voxels = vec![Voxel::AIR; b.volume()];
    let mats = [2u8, 3, 7, 7, 7, 6, 1, 18];
    for v in voxels.iter_mut() {
        if rng.random_bool(fill) {
            let m = mats[rng.random_range(0..mats.len())];
            let occ = if rng.random_bool(0.1) { 60 } else { 255 };
            *v = Voxel::new(m, occ);
        }
    }
    grid.write_box(b, &voxels);
    grid
}

/// Terrain-like: a bumpy surface with a few materials and holes.
pub(super) fn terrain_grid(seed: u64, size: [i32; 3]) -> Grid {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut grid = Grid::new();
    let b = VoxelBox::new(VoxelPos::new(0, 0, 0), VoxelPos::from(size));
    grid.modify_box(b, |p, _| {
        let h = size[1] / 2 + ((p.x / 3 + p.z / 4) % 4) - 2 + i32::from((p.x * 7 + p.z) % 5 == 0);
        if p.y < h {
            Voxel::filled(if p.y + 1 == h {
                2
            } else if p.y < 3 {
                7
            } else {
                3
            })
        } else {
            Voxel::AIR
        }
    });
    for _ in 0..6 {
        let c = [0, 1, 2].map(|a| rng.random_range(0..size[a]));
        grid.fill_box(
            VoxelBox::new(
                VoxelPos::from(c),
                VoxelPos::new(c[0] + 2, c[1] + 1, c[2] + 3),
            ),
            Voxel::AIR,
        );
    }
    grid
}

fn sub(levels: u32, threshold: Option<u8>, borders: bool) -> Method {
    Method::Subdivide(SubdivideParams {
        levels,
        threshold,
        material_borders: borders,
        ..SubdivideParams::default()
    })
}

/// Recursive subdivision of the voxels of `b` straight from the definition, level by level over a
/// dense array with a margin, one fragment at a time.
fn reference_subdivision(
    grid: &Grid,
    table: &MaterialTable,
    p: &SubdivideParams,
    b: VoxelBox,
) -> Vec<u8> {
    let e = Enhancer::new(&Method::Subdivide(p.clone()), table).expect("valid");
    let margin = 3;
    let g = VoxelBox::new(
        VoxelPos::new(b.min.x - margin, b.min.y - margin, b.min.z - margin),
        VoxelPos::new(b.max.x + margin, b.max.y + margin, b.max.z + margin),
    );
    let mut cells: Vec<u8> = grid
        .read_box_vec(g)
        .iter()
        .map(|&v| e.classify(v))
        .collect();
    let mut dims = g.size();
    let mut origin = g.min.to_array().map(i64::from);
    let threshold = |m: u8, voxel_y: i64, odd: bool| -> u8 {
        for band in &p.bands {
            if voxel_y >= i64::from(band.min_y) && voxel_y < i64::from(band.max_y) {
                return band.threshold.at_parity(odd);
            }
        }
        match p.threshold {
            Some(t) => t,
            None => table.materials[usize::from(m)]
                .enhance_threshold()
                .at_parity(odd),
        }
    };
    for level in 0..p.levels {
        let od = dims.map(|d| 2 * (d - 2));
        let mut next = vec![0u8; od[0] * od[1] * od[2]];
        let at = |d: [usize; 3], x: usize, y: usize, z: usize| (z * d[1] + y) * d[0] + x;
        for z in 1..dims[2] - 1 {
            for y in 1..dims[1] - 1 {
                for x in 1..dims[0] - 1 {
                    let c = cells[at(dims, x, y, z)];
                    for corner in 0..8usize {
                        let d = [corner & 1, (corner >> 1) & 1, (corner >> 2) & 1];
                        let side = [
                            cells[at(dims, x + 2 * d[0] - 1, y, z)],
                            cells[at(dims, x, y + 2 * d[1] - 1, z)],
                            cells[at(dims, x, y, z + 2 * d[2] - 1)],
                        ];
                        let material = if c != 0 {
                            c
                        } else {
                            let mut best = 0u8;
                            let mut best_n = 0;
                            for &m in side.iter().filter(|&&m| m != 0) {
                                let n = side.iter().filter(|&&o| o == m).count();
                                if n > best_n || (n == best_n && m < best) {
                                    best = m;
                                    best_n = n;
                                }
                            }
                            best
                        };
                        if material == 0 {
                            continue;
                        }
                        let counted = side
                            .iter()
                            .filter(|&&v| v != 0 && (!p.material_borders || v == material))
                            .count()
                            + usize::from(c != 0);
                        let voxel_y = (origin[1] + y as i64) >> level;
                        let t = threshold(material, voxel_y, d[1] == 1);
                        if counted >= usize::from(t) {
                            let o = [2 * (x - 1) + d[0], 2 * (y - 1) + d[1], 2 * (z - 1) + d[2]];
                            next[at(od, o[0], o[1], o[2])] = material;
                        }
                    }
                }
            }
        }
        origin = origin.map(|o| 2 * (o + 1));
        cells = next;
        dims = od;
    }
    let f = 1i64 << p.levels;
    let fb = FragmentBox::of_voxels(b, f as usize);
    let s = fb.size();
    let mut out = Vec::with_capacity(fb.volume());
    for z in 0..s[2] as i64 {
        for y in 0..s[1] as i64 {
            for x in 0..s[0] as i64 {
                let q = [fb.min[0] + x, fb.min[1] + y, fb.min[2] + z];
                let l = [0, 1, 2].map(|a| (q[a] - origin[a]) as usize);
                out.push(cells[(l[2] * dims[1] + l[1]) * dims[0] + l[0]]);
            }
        }
    }
    out
}

fn sparse_read(grid: &Grid, table: &MaterialTable, method: &Method, b: VoxelBox) -> Vec<u8> {
    let e = Enhanced::build(grid, table, method, None, &Progress::new()).expect("builds");
    e.assert_valid();
    let fb = FragmentBox::of_voxels(b, e.factor());
    let mut out = vec![0; fb.volume()];
    e.volume(grid).read_box(fb, &mut out);
    out
}

fn dense(grid: &Grid, table: &MaterialTable, method: &Method, b: VoxelBox) -> Vec<u8> {
    let e = Enhancer::new(method, table).expect("valid");
    let mut out = Vec::new();
    e.enhance_dense(grid, b, &mut out);
    out
}

#[test]
fn subdivision_matches_the_definition_at_every_depth() {
    let table = MaterialTable::builtin();
    let world = VoxelBox::new(VoxelPos::new(-3, -2, -4), VoxelPos::new(7, 6, 5));
    let b = VoxelBox::new(VoxelPos::new(-2, -1, -3), VoxelPos::new(5, 4, 4));
    let band = HeightBand {
        min_y: -10,
        max_y: 1,
        threshold: EnhanceThreshold { even: 1, odd: 3 },
    };
    for seed in 0..4u64 {
        let grid = random_grid(seed, world, 0.55);
        for levels in 1..=3 {
            for (threshold, borders, bands) in [
                (None, false, vec![]),
                (Some(1), false, vec![]),
                (Some(4), true, vec![]),
                (None, true, vec![band]),
                (Some(3), false, vec![band]),
            ] {
                let p = SubdivideParams {
                    levels,
                    threshold,
                    bands,
                    material_borders: borders,
                    approximate_table: false,
                };
                let want = reference_subdivision(&grid, &table, &p, b);
                let method = Method::Subdivide(p);
                let what = format!("seed {seed} {method:?}");
                assert_eq!(dense(&grid, &table, &method, b), want, "dense: {what}");
                assert_eq!(
                    sparse_read(&grid, &table, &method, b),
                    want,
                    "sparse: {what}"
                );
            }
        }
    }
}

#[test]
fn four_levels_match_the_definition() {
    let table = MaterialTable::builtin();
    let grid = terrain_grid(3, [9, 10, 8]);
    let b = VoxelBox::new(VoxelPos::new(1, 2, 1), VoxelPos::new(7, 8, 6));
    let p = SubdivideParams {
        levels: 4,
        ..SubdivideParams::default()
    };
    let want = reference_subdivision(&grid, &table, &p, b);
    assert_eq!(sparse_read(&grid, &table, &Method::Subdivide(p), b), want);
}

#[test]
fn the_fast_kernel_equals_its_scalar_twin() {
    let table = MaterialTable::builtin();
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    for levels in 1..=3 {
        for borders in [false, true] {
            let e = Enhancer::new(&sub(levels, None, borders), &table).expect("valid");
            let dims = [21, 14, 13];
            let cells: Vec<u8> = (0..dims[0] * dims[1] * dims[2])
                .map(|i| {
                    let lump = (i / 9) % 3 == 0;
                    if lump || rng.random_bool(0.2) {
                        [0, 2, 7][rng.random_range(0..3)] * u8::from(lump || rng.random_bool(0.5))
                    } else {
                        7
                    }
                })
                .collect();
            let (mut fast, mut scalar) = (Vec::new(), Vec::new());
            e.subdivide_cells(&cells, dims, -3, &mut fast);
            e.subdivide_cells_with(Kernel::Scalar, &cells, dims, -3, &mut scalar);
            assert_eq!(fast, scalar, "levels {levels} borders {borders}");
        }
    }
}

/// Per-fragment resampling with floats, straight from the definition.
fn reference_resample(
    grid: &Grid,
    table: &MaterialTable,
    p: &ResampleParams,
    b: VoxelBox,
) -> Vec<u8> {
    let e = Enhancer::new(&Method::Resample(*p), table).expect("valid");
    let probes = resample::probes(p);
    let f = p.factor as i64;
    let fb = FragmentBox::of_voxels(b, f as usize);
    let s = fb.size();
    let mut out = Vec::new();
    for z in 0..s[2] as i64 {
        for y in 0..s[1] as i64 {
            for x in 0..s[0] as i64 {
                let q = [fb.min[0] + x, fb.min[1] + y, fb.min[2] + z];
                let mut counts = [0usize; 64];
                for o in &probes {
                    let v = [0, 1, 2].map(|a| {
                        let voxel = q[a].div_euclid(f) as f64;
                        let centre = (q[a].rem_euclid(f) as f64 + 0.5) / f as f64;
                        (voxel + (centre + o[a]).floor()) as i32
                    });
                    counts[usize::from(e.classify(grid.get(VoxelPos::from(v))))] += 1;
                }
                let hits: usize = counts[1..].iter().sum();
                let solid = hits as f64 > f64::from(p.fraction) * probes.len() as f64;
                let mut best = 0;
                for m in 1..64 {
                    if counts[m] > 0 && (best == 0 || counts[m] > counts[best]) {
                        best = m;
                    }
                }
                out.push(if solid { best as u8 } else { 0 });
            }
        }
    }
    out
}

#[test]
fn resampling_matches_the_definition() {
    let table = MaterialTable::builtin();
    let world = VoxelBox::new(VoxelPos::new(-3, -3, -3), VoxelPos::new(6, 6, 6));
    let b = VoxelBox::new(VoxelPos::new(-1, -1, -1), VoxelPos::new(4, 3, 4));
    for (seed, (factor, count, spread, fraction)) in [
        (4, 16, 1.0, 0.25),
        (3, 4, 1.0, 0.25),
        (1, 9, 0.5, 0.5),
        (5, 40, 2.0, 0.1),
        (2, 3, 0.0, 0.0),
    ]
    .into_iter()
    .enumerate()
    {
        let grid = random_grid(seed as u64 + 10, world, 0.5);
        let p = ResampleParams {
            factor,
            count,
            spread,
            fraction,
            seed: seed as u64,
        };
        let want = reference_resample(&grid, &table, &p, b);
        let method = Method::Resample(p);
        assert_eq!(dense(&grid, &table, &method, b), want, "dense {p:?}");
        assert_eq!(sparse_read(&grid, &table, &method, b), want, "sparse {p:?}");
    }
}

#[test]
fn six_matching_face_neighbours_do_not_make_two_levels_uniform() {
    // Rock everywhere in a 3×3×3 block except one edge neighbour of the centre.
    let table = MaterialTable::builtin();
    let mut grid = Grid::new();
    grid.fill_box(
        VoxelBox::new(VoxelPos::new(-1, -1, -1), VoxelPos::new(2, 2, 2)),
        Voxel::filled(7),
    );
    grid.set(VoxelPos::new(1, 1, 0), Voxel::AIR);
    let centre = VoxelBox::new(VoxelPos::new(0, 0, 0), VoxelPos::new(1, 1, 1));
    let one = dense(&grid, &table, &sub(1, Some(4), false), centre);
    assert!(
        one.iter().all(|&c| c == 7),
        "one level: the six faces decide"
    );
    let two = dense(&grid, &table, &sub(2, Some(4), false), centre);
    assert!(
        two.contains(&0),
        "two levels: the empty edge neighbour erodes a fragment"
    );
    assert_eq!(
        sparse_read(&grid, &table, &sub(2, Some(4), false), centre),
        two
    );
}

#[test]
fn fragments_depend_on_nothing_beyond_the_window() {
    let table = MaterialTable::builtin();
    let world = VoxelBox::new(VoxelPos::new(-3, -3, -3), VoxelPos::new(4, 4, 4));
    let v = VoxelBox::new(VoxelPos::new(0, 0, 0), VoxelPos::new(1, 1, 1));
    for seed in 0..6 {
        let grid = random_grid(seed, world, 0.6);
        for levels in 1..=4 {
            let method = sub(levels, None, seed % 2 == 0);
            let before = dense(&grid, &table, &method, v);
            let window = Enhancer::new(&method, &table).expect("valid").window();
            for p in [
                [2, 0, 0],
                [0, -2, 1],
                [1, 1, 2],
                [-2, -2, -2],
                [1, 1, 0],
                [0, 1, 0],
            ] {
                let pos = VoxelPos::from(p);
                let inside = !window
                    .affected(VoxelBox::new(
                        pos,
                        VoxelPos::new(p[0] + 1, p[1] + 1, p[2] + 1),
                    ))
                    .iter()
                    .all(|b| !b.contains(VoxelPos::new(0, 0, 0)));
                if inside {
                    continue;
                }
                let mut edited = grid.clone();
                let old = edited.get(pos);
                edited.set(
                    pos,
                    if old.is_air() {
                        Voxel::filled(3)
                    } else {
                        Voxel::AIR
                    },
                );
                assert_eq!(
                    dense(&edited, &table, &method, v),
                    before,
                    "levels {levels}: {p:?} is outside the window"
                );
            }
        }
    }
}

#[test]
fn the_approximate_table_is_exact_at_one_level_and_only_close_beyond() {
    let table = MaterialTable::builtin();
    let world = VoxelBox::new(VoxelPos::new(-2, -2, -2), VoxelPos::new(8, 8, 8));
    let b = VoxelBox::new(VoxelPos::new(0, 0, 0), VoxelPos::new(6, 6, 6));
    let approx = |levels| {
        Method::Subdivide(SubdivideParams {
            levels,
            threshold: Some(4),
            approximate_table: true,
            ..SubdivideParams::default()
        })
    };
    let grid = random_grid(21, world, 0.6);
    assert_eq!(
        sparse_read(&grid, &table, &approx(1), b),
        dense(&grid, &table, &sub(1, Some(4), false), b)
    );
    let exact = dense(&grid, &table, &sub(3, Some(4), false), b);
    let guess = sparse_read(&grid, &table, &approx(3), b);
    assert_eq!(guess, dense(&grid, &table, &approx(3), b));
    let differ = exact.iter().zip(&guess).filter(|(a, b)| a != b).count();
    assert!(
        differ > 0,
        "the approximation is not exact on a random world"
    );
    assert!(
        differ * 10 < exact.len(),
        "but close: {differ} of {} differ",
        exact.len()
    );
    // A slab has edges and corners that agree with the guess: exact there.
    let mut slab = Grid::new();
    slab.fill_box(
        VoxelBox::new(VoxelPos::new(-4, -4, -4), VoxelPos::new(12, 3, 12)),
        Voxel::filled(7),
    );
    assert_eq!(
        sparse_read(&slab, &table, &approx(3), b),
        dense(&slab, &table, &sub(3, Some(4), false), b)
    );
}

#[test]
fn liquids_and_thin_voxels_are_empty_and_fragments_keep_their_material() {
    let table = MaterialTable::builtin();
    let e = Enhancer::new(&Method::default(), &table).expect("valid");
    assert_eq!(e.classify(Voxel::filled(1)), 0, "water");
    assert_eq!(e.classify(Voxel::new(7, 126)), 0, "below one half");
    assert_eq!(e.classify(Voxel::new(7, 127)), 7, "exactly one half");
    let mut grid = Grid::new();
    grid.fill_box(
        VoxelBox::new(VoxelPos::new(0, 0, 0), VoxelPos::new(4, 2, 4)),
        Voxel::filled(7),
    );
    grid.fill_box(
        VoxelBox::new(VoxelPos::new(0, 2, 0), VoxelPos::new(2, 3, 4)),
        Voxel::filled(2),
    );
    let b = VoxelBox::new(VoxelPos::new(-1, -1, -1), VoxelPos::new(5, 4, 5));
    let frags = sparse_read(&grid, &table, &sub(2, Some(1), false), b);
    assert!(frags.iter().all(|&c| c == 0 || c == 7 || c == 2));
    assert!(frags.contains(&2) && frags.contains(&7));
}

#[test]
fn material_borders_count_other_materials_as_empty() {
    let table = MaterialTable::builtin();
    let mut grid = Grid::new();
    let all = VoxelBox::new(VoxelPos::new(-4, -4, -4), VoxelPos::new(5, 5, 5));
    grid.fill_box(all, Voxel::filled(7));
    grid.fill_box(
        VoxelBox::new(VoxelPos::new(1, -4, -4), VoxelPos::new(5, 5, 5)),
        Voxel::filled(3),
    );
    let v = VoxelBox::new(VoxelPos::new(0, 0, 0), VoxelPos::new(1, 1, 1));
    let plain = dense(&grid, &table, &sub(1, Some(4), false), v);
    assert!(
        plain.iter().all(|&c| c == 7),
        "inside the ground: all solid"
    );
    let crisp = dense(&grid, &table, &sub(1, Some(4), true), v);
    for (corner, &c) in crisp.iter().enumerate() {
        assert_eq!(
            c == 0,
            corner & 1 == 1,
            "the +x half faces the other material"
        );
    }
}

#[test]
fn bad_parameters_are_rejected() {
    let table = MaterialTable::builtin();
    let bad = [
        sub(0, None, false),
        sub(5, None, false),
        sub(2, Some(0), false),
        sub(2, Some(5), false),
        Method::Resample(ResampleParams {
            factor: 0,
            ..ResampleParams::default()
        }),
        Method::Resample(ResampleParams {
            factor: 17,
            ..ResampleParams::default()
        }),
        Method::Resample(ResampleParams {
            count: 0,
            ..ResampleParams::default()
        }),
        Method::Resample(ResampleParams {
            spread: -0.5,
            ..ResampleParams::default()
        }),
        Method::Resample(ResampleParams {
            spread: f32::NAN,
            ..ResampleParams::default()
        }),
        Method::Resample(ResampleParams {
            fraction: 1.5,
            ..ResampleParams::default()
        }),
        Method::Resample(ResampleParams {
            fraction: -0.1,
            ..ResampleParams::default()
        }),
    ];
    for m in bad {
        assert!(Enhancer::new(&m, &table).is_err(), "{m:?} accepted");
    }
    let empty = VoxelBox::new(VoxelPos::new(0, 0, 0), VoxelPos::new(0, 4, 4));
    assert!(Enhanced::new(&table, &Method::default(), Some(empty)).is_err());
}

/// Random small edits: (box corner, size, voxel).
fn edits() -> impl Strategy<Value = Vec<([i32; 3], [i32; 3], u8, u8)>> {
    prop::collection::vec(
        (
            prop::array::uniform3(-6i32..38),
            prop::array::uniform3(1i32..5),
            prop::sample::select(vec![0u8, 2, 3, 7, 1]),
            prop::sample::select(vec![255u8, 255, 100]),
        ),
        1..6,
    )
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 12, ..ProptestConfig::default() })]

    #[test]
    fn incremental_updates_equal_a_full_recomputation(
        script in edits(),
        method_pick in 0usize..5,
        region_on in any::<bool>(),
    ) {
        let table = MaterialTable::builtin();
        let method = match method_pick {
            0 => sub(1, None, false),
            1 => sub(2, None, false),
            2 => sub(3, Some(3), true),
            3 => Method::Subdivide(SubdivideParams {
                levels: 2,
                approximate_table: true,
                ..SubdivideParams::default()
            }),
            _ => Method::Resample(ResampleParams { factor: 3, count: 8, spread: 1.5, ..ResampleParams::default() }),
        };
        let region = region_on.then(|| VoxelBox::new(VoxelPos::new(-3, 0, 2), VoxelPos::new(30, 20, 36)));
        let mut grid = terrain_grid(7, [36, 16, 34]);
        let mut live = Enhanced::build(&grid, &table, &method, region, &Progress::new()).expect("builds");
        for (corner, size, material, occupancy) in script {
            let b = VoxelBox::new(
                VoxelPos::from(corner),
                VoxelPos::new(corner[0] + size[0], corner[1] + size[1], corner[2] + size[2]),
            );
            grid.fill_box(b, Voxel::new(material, occupancy));
            live.update(&grid, b);
            live.assert_valid();
        }
        let full = Enhanced::build(&grid, &table, &method, region, &Progress::new()).expect("builds");
        prop_assert!(live == full, "incremental store differs from a full build");
    }
}
