//! Region tests: copies against box reads, turns and mirrors against an independent index mapping,
//! resampling, file conversions, the ghost surface and memory.

use proptest::prelude::*;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::*;
use crate::codec::rle;
use crate::format::project::Project;
use crate::storage::Grid;
use crate::voxel::{MaterialTable, Voxel, VoxelBox, VoxelPos};

/// A world with layered ground, soft surface voxels, water and a few random voxels, across
/// negative chunks.
pub(super) fn random_world(rng: &mut ChaCha8Rng) -> Grid {
    let mut grid = Grid::new();
    let b = VoxelBox::new(VoxelPos::new(-40, -20, -36), VoxelPos::new(44, 30, 40));
    grid.modify_box(b, |p, _| {
        let h = 4.0 + 6.0 * ((p.x as f32) * 0.13).sin() + 5.0 * ((p.z as f32) * 0.09).cos();
        let y = p.y as f32;
        if y < h - 6.0 {
            Voxel::filled(3)
        } else if y < h - 1.0 {
            Voxel::filled(2)
        } else if y < h {
            Voxel::new(2, ((h - y) * 255.0) as u8)
        } else if y < 2.0 {
            Voxel::new(8, 255)
        } else {
            Voxel::AIR
        }
    });
    for _ in 0..300 {
        let p = VoxelPos::new(
            rng.random_range(-40..44),
            rng.random_range(-20..30),
            rng.random_range(-36..40),
        );
        grid.set(p, Voxel::new(rng.random_range(0..6), rng.random()));
    }
    grid
}

/// A random box inside the world's area, 1 to 40 voxels a side.
pub(super) fn random_box(rng: &mut ChaCha8Rng) -> VoxelBox {
    let min = VoxelPos::new(
        rng.random_range(-40..30),
        rng.random_range(-20..20),
        rng.random_range(-36..30),
    );
    let size = [
        rng.random_range(1..=40u32),
        rng.random_range(1..=30),
        rng.random_range(1..=40),
    ];
    VoxelBox::from_min_size(min, size)
}

/// Random voxels of a region of `size`: long runs with soft and random voxels between.
fn random_dense(rng: &mut ChaCha8Rng, size: [u32; 3]) -> Vec<Voxel> {
    let n = size.iter().map(|&s| s as usize).product();
    let mut v = Vec::with_capacity(n);
    while v.len() < n {
        let run = rng.random_range(1..12usize).min(n - v.len());
        let voxel = Voxel::new(rng.random_range(0..7), rng.random());
        v.extend(std::iter::repeat_n(voxel, run));
    }
    v
}

/// Where voxel `(x, y, z)` of a region of `size` lands after one +90° turn about `axis`, computed
/// from the rotation matrices (independently of the implementation's row handling).
fn turned_index(axis: Axis, size: [u32; 3], p: [u32; 3]) -> ([u32; 3], [u32; 3]) {
    let [sx, sy, sz] = size;
    let [x, y, z] = p;
    match axis {
        Axis::Y => ([z, y, sx - 1 - x], [sz, sy, sx]),
        Axis::X => ([x, sz - 1 - z, y], [sx, sz, sy]),
        Axis::Z => ([sy - 1 - y, x, z], [sy, sx, sz]),
    }
}

fn at(size: [u32; 3], p: [u32; 3]) -> usize {
    ((p[2] * size[1] + p[1]) * size[0] + p[0]) as usize
}

#[test]
fn copy_matches_box_reads() {
    let mut rng = ChaCha8Rng::seed_from_u64(11);
    let grid = random_world(&mut rng);
    for _ in 0..60 {
        let b = random_box(&mut rng);
        let region = Region::copy(&grid, b).expect("copies");
        region.assert_valid();
        assert_eq!(region.size(), b.size().map(|s| s as u32));
        assert_eq!(region.to_dense(), grid.read_box_vec(b), "{b:?}");
        let [sx, sy, sz] = region.size().map(|s| s as usize);
        let (x, y, z) = (
            rng.random_range(0..sx),
            rng.random_range(0..sy),
            rng.random_range(0..sz),
        );
        let p = VoxelPos::new(b.min.x + x as i32, b.min.y + y as i32, b.min.z + z as i32);
        assert_eq!(region.get(x, y, z), grid.get(p));
    }
}

/// A world of every chunk kind a copy takes a shortcut for: missing chunks (Air), uniform chunks
/// (deep rock, a chunk-aligned block of water), chunks of packed rows (flat layers) and chunks with
/// allocated rows (a soft, sloped surface and random voxels), across negative coordinates.
pub(super) fn shortcut_world(rng: &mut ChaCha8Rng) -> Grid {
    let mut grid = random_world(rng);
    let rock = VoxelBox::new(VoxelPos::new(-64, -64, -64), VoxelPos::new(64, -20, 64));
    grid.fill_box(rock, Voxel::filled(3));
    let water = VoxelBox::new(VoxelPos::new(32, 0, -32), VoxelPos::new(64, 32, 0));
    grid.fill_box(water, Voxel::filled(8));
    grid
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// The copy's shortcuts (whole chunk rows, packed rows, uniform and missing chunks, bands in
    /// parallel) give exactly the region the plain per-voxel path builds from a dense box read,
    /// for chunk-aligned and unaligned boxes.
    #[test]
    fn copy_equals_the_per_voxel_path(
        seed in any::<u64>(),
        aligned in any::<bool>(),
        min in (-3i32..2, -3i32..1, -3i32..2),
        size in (1u32..4, 1u32..3, 1u32..4),
        jitter in (0i32..32, 0i32..32, 0i32..32, 1u32..40, 1u32..40, 1u32..40),
    ) {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let grid = shortcut_world(&mut rng);
        let b = if aligned {
            VoxelBox::from_min_size(
                VoxelPos::new(min.0 * 32, min.1 * 32, min.2 * 32),
                [size.0 * 32, size.1 * 32, size.2 * 32],
            )
        } else {
            VoxelBox::from_min_size(
                VoxelPos::new(min.0 * 32 + jitter.0, min.1 * 32 + jitter.1, min.2 * 32 + jitter.2),
                [jitter.3 * size.0, jitter.4 * size.1, jitter.5 * size.2],
            )
        };
        let copy = Region::copy(&grid, b).expect("copies");
        let plain = Region::from_dense(
            b.size().map(|s| s as u32),
            &grid.read_box_vec(b),
        )
        .expect("dense");
        copy.assert_valid();
        prop_assert_eq!(copy, plain);
    }
}

#[test]
fn bad_sizes_are_errors() {
    let grid = Grid::new();
    let empty = VoxelBox::new(VoxelPos::new(0, 0, 0), VoxelPos::new(4, 0, 4));
    assert!(Region::copy(&grid, empty).is_err());
    let huge = VoxelBox::from_min_size(VoxelPos::new(0, 0, 0), [MAX_REGION_EDGE + 1, 1, 1]);
    assert!(Region::copy(&grid, huge).is_err());
    let too_many = [MAX_REGION_EDGE, MAX_REGION_EDGE, MAX_REGION_EDGE];
    assert!(Region::filled(too_many, Voxel::AIR).is_err());
    assert!(Region::from_dense([2, 2, 2], &[Voxel::AIR; 7]).is_err());
}

#[test]
fn dense_round_trip_normalizes() {
    let mut rng = ChaCha8Rng::seed_from_u64(3);
    let size = [9, 4, 5];
    let mut v = random_dense(&mut rng, size);
    v[0] = Voxel {
        material: 0,
        occupancy: 9,
    };
    let r = Region::from_dense(size, &v).expect("region");
    r.assert_valid();
    let back = r.to_dense();
    assert_eq!(back[0], Voxel::AIR);
    assert_eq!(back[1..], v[1..]);
    let f = Region::filled([3, 2, 1], Voxel::new(4, 7)).expect("filled");
    f.assert_valid();
    assert_eq!(f.to_dense(), vec![Voxel::new(4, 7); 6]);
}

#[test]
fn quarter_turns_follow_the_rotation_matrices() {
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    for _ in 0..30 {
        let size = [
            rng.random_range(1..=70u32),
            rng.random_range(1..=9),
            rng.random_range(1..=70),
        ];
        let dense = random_dense(&mut rng, size);
        let region = Region::from_dense(size, &dense).expect("region");
        for axis in Axis::ALL {
            let turned = region.rotated(axis, 1);
            turned.assert_valid();
            let (_, new_size) = turned_index(axis, size, [0, 0, 0]);
            assert_eq!(turned.size(), new_size);
            let mut expected = vec![Voxel::AIR; dense.len()];
            for z in 0..size[2] {
                for y in 0..size[1] {
                    for x in 0..size[0] {
                        let (q, _) = turned_index(axis, size, [x, y, z]);
                        expected[at(new_size, q)] = dense[at(size, [x, y, z])];
                    }
                }
            }
            assert_eq!(turned.to_dense(), expected, "{axis:?} {size:?}");
        }
    }
}

#[test]
fn mirrors_flip_one_axis() {
    let mut rng = ChaCha8Rng::seed_from_u64(6);
    let size = [13, 5, 7];
    let dense = random_dense(&mut rng, size);
    let region = Region::from_dense(size, &dense).expect("region");
    for axis in Axis::ALL {
        let m = region.mirrored(axis);
        m.assert_valid();
        let got = m.to_dense();
        for z in 0..size[2] {
            for y in 0..size[1] {
                for x in 0..size[0] {
                    let mut q = [x, y, z];
                    q[axis.index()] = size[axis.index()] - 1 - q[axis.index()];
                    assert_eq!(got[at(size, q)], dense[at(size, [x, y, z])]);
                }
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn four_turns_and_two_mirrors_are_identities(
        seed in any::<u64>(),
        sx in 1u32..40, sy in 1u32..12, sz in 1u32..40,
    ) {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let size = [sx, sy, sz];
        let region = Region::from_dense(size, &random_dense(&mut rng, size)).expect("region");
        for axis in Axis::ALL {
            let mut r = region.clone();
            for turn in 1..=4 {
                r = r.rotated(axis, 1);
                r.assert_valid();
                prop_assert_eq!(&r, &region.rotated(axis, turn), "turns compose");
            }
            prop_assert_eq!(&r, &region);
            prop_assert_eq!(&region.mirrored(axis).mirrored(axis), &region);
        }
    }
}

#[test]
fn resampling() {
    let mut rng = ChaCha8Rng::seed_from_u64(8);
    let size = [12, 6, 10];
    let region = Region::from_dense(size, &random_dense(&mut rng, size)).expect("region");
    for method in [Resample::Nearest, Resample::Smooth] {
        assert_eq!(region.resized(size, method).expect("same"), region);
        assert!(region.resized([0, 1, 1], method).is_err());
    }
    // Nearest: doubling then halving gives the region back.
    let big = region.resized([24, 12, 20], Resample::Nearest).expect("up");
    big.assert_valid();
    assert_eq!(big.get(3, 5, 7), region.get(1, 2, 3));
    assert_eq!(big.resized(size, Resample::Nearest).expect("down"), region);
    // Smooth: halving keeps the total occupancy (scaled by 8) up to rounding, one step per voxel.
    let units = |r: &Region| -> f64 {
        r.to_dense()
            .iter()
            .map(|v| {
                if v.is_air() {
                    0.0
                } else {
                    f64::from(v.occupancy) + 1.0
                }
            })
            .sum()
    };
    let half = region.resized([6, 3, 5], Resample::Smooth).expect("down");
    half.assert_valid();
    let diff = (units(&half) * 8.0 - units(&region)).abs();
    assert!(
        diff <= 0.5 * 8.0 * 90.0 + 1.0,
        "total occupancy drifted by {diff}"
    );
    // Smooth growth of a half-full slab keeps the surface where it was, scaled.
    let mut slab = vec![Voxel::AIR; 4 * 8 * 4];
    for (i, v) in slab.iter_mut().enumerate() {
        if (i / 4) % 8 < 4 {
            *v = Voxel::filled(3);
        }
    }
    let slab = Region::from_dense([4, 8, 4], &slab).expect("slab");
    let grown = slab.resized([4, 16, 4], Resample::Smooth).expect("up");
    let column: Vec<f32> = (0..16)
        .map(|y| grown.get(0, y, 0).occupancy_f32())
        .collect();
    assert_eq!(column[6], 1.0);
    assert!(column[7] > 0.5 && column[8] < 0.5, "{column:?}");
    assert_eq!(column[9], 0.0);
    assert_eq!(grown.get(0, 0, 0).material, 3);
}

#[test]
fn crop_and_clip() {
    let mut rng = ChaCha8Rng::seed_from_u64(9);
    let size = [10, 6, 8];
    let dense = random_dense(&mut rng, size);
    let region = Region::from_dense(size, &dense).expect("region");
    let b = VoxelBox::new(VoxelPos::new(2, 1, 3), VoxelPos::new(9, 6, 5));
    let c = region.cropped(b).expect("crop");
    c.assert_valid();
    assert_eq!(c.get(0, 0, 0), region.get(2, 1, 3));
    assert_eq!(c.get(6, 4, 1), region.get(8, 5, 4));
    assert!(region
        .cropped(VoxelBox::new(
            VoxelPos::new(0, 0, 0),
            VoxelPos::new(11, 1, 1)
        ))
        .is_err());
    let limits = VoxelBox::new(VoxelPos::new(0, 0, 0), VoxelPos::new(64, 64, 64));
    let (kept, local) = region
        .clip_to(VoxelPos::new(-3, 60, 2), limits)
        .expect("overlaps");
    assert_eq!(
        kept,
        VoxelBox::new(VoxelPos::new(0, 60, 2), VoxelPos::new(7, 64, 10))
    );
    assert_eq!(
        local,
        VoxelBox::new(VoxelPos::new(3, 0, 0), VoxelPos::new(10, 4, 8))
    );
    assert!(region.clip_to(VoxelPos::new(64, 0, 0), limits).is_none());
}

#[test]
fn stamps_and_block_formats_round_trip() {
    let mut rng = ChaCha8Rng::seed_from_u64(10);
    let grid = random_world(&mut rng);
    let table = MaterialTable::builtin();
    let b = VoxelBox::new(VoxelPos::new(-37, -5, -3), VoxelPos::new(5, 12, 33));
    let region = Region::copy(&grid, b).expect("copy");
    // Stamp project: origin 0,0,0 and bounds = the box size, through bytes.
    let project = region.to_project("stamp", &table).expect("project");
    assert_eq!(
        project.header.bounds,
        region.placed_at(VoxelPos::new(0, 0, 0))
    );
    project.grid.assert_valid();
    let back = Project::from_bytes(&project.to_bytes().expect("bytes")).expect("decodes");
    assert_eq!(Region::from_project(&back).expect("stamp"), region);
    // RLE: the same bytes as the RLE encoder over the box.
    let mut bytes = Vec::new();
    region.encode_rle(&mut bytes);
    let mut expected = Vec::new();
    rle::encode(&grid.read_box_vec(b), &mut expected);
    assert_eq!(bytes, expected);
    assert_eq!(
        Region::decode_rle(&bytes, region.size(), &table).expect("rle"),
        region
    );
    assert!(Region::decode_rle(&bytes[..bytes.len() - 1], region.size(), &table).is_err());
    // Raw.
    let mut raw = Vec::new();
    region.encode_raw(&mut raw);
    assert_eq!(raw.len() as u64, region.dense_bytes());
    assert_eq!(
        Region::decode_raw(&raw, region.size(), &table).expect("raw"),
        region
    );
    assert!(Region::decode_raw(&raw[1..], region.size(), &table).is_err());
    let mut bad = raw.clone();
    bad[0] = 63;
    assert!(Region::decode_raw(&bad, region.size(), &table).is_err());
    bad[0] = 0;
    bad[1] = 5;
    assert!(Region::decode_raw(&bad, region.size(), &table).is_err());
    // v4 block.
    let block = region.to_block().expect("block");
    let (from_block, report) = Region::from_block(
        &block,
        &crate::format::godot::ImportRules::for_table(&table),
    )
    .expect("from block");
    assert_eq!(report.fallback_voxels, 0);
    assert_eq!(from_block, region);
}

#[test]
fn materials_move_by_name() {
    let builtin = MaterialTable::builtin();
    let mut other = builtin.clone();
    other.materials.swap(2, 3);
    let mut region =
        Region::from_dense([3, 1, 1], &[Voxel::filled(2), Voxel::new(3, 9), Voxel::AIR])
            .expect("region");
    region.remap_materials(&builtin, &other).expect("remaps");
    region.assert_valid();
    assert_eq!(
        region.to_dense(),
        vec![Voxel::filled(3), Voxel::new(2, 9), Voxel::AIR]
    );
    let mut small = builtin.clone();
    small.materials.truncate(3);
    let before = region.clone();
    let err = region
        .remap_materials(&other, &small)
        .expect_err("lacks a material");
    assert!(err.to_string().contains(&other.materials[2].name), "{err}");
    assert_eq!(region, before);
}

#[test]
fn ghost_surface_is_a_closed_mesh_inside_the_box() {
    let table = MaterialTable::builtin();
    let mut dense = vec![Voxel::AIR; 20 * 20 * 20];
    for z in 4..16 {
        for y in 4..16 {
            for x in 4..16 {
                dense[(z * 20 + y) * 20 + x] = Voxel::filled(3);
            }
        }
    }
    let region = Region::from_dense([20, 20, 20], &dense).expect("region");
    let surface = RegionSurface::build(&region, &table, 0, &crate::progress::Progress::new())
        .expect("meshes");
    assert!(surface.triangle_count() > 0);
    for (_, buf) in &surface.chunks {
        for p in &buf.positions {
            assert!(p.iter().all(|&c| (3.0..=17.0).contains(&c)), "{p:?}");
        }
    }
    assert_eq!(ghost_lod([16, 16, 16]), 0);
    assert_eq!(ghost_lod([256, 128, 256]), 1);
    assert_eq!(ghost_lod([16384, 4096, 16384]), 3);
}

#[test]
fn terrain_regions_are_small() {
    let mut rng = ChaCha8Rng::seed_from_u64(12);
    let grid = random_world(&mut rng);
    let b = VoxelBox::new(VoxelPos::new(-40, -20, -36), VoxelPos::new(44, 30, 40));
    let region = Region::copy(&grid, b).expect("copy");
    assert!(
        (region.heap_bytes() as u64) * 4 <= region.dense_bytes(),
        "{} bytes held for {} dense",
        region.heap_bytes(),
        region.dense_bytes()
    );
}

#[test]
fn hostile_bytes_never_panic() {
    let mut rng = ChaCha8Rng::seed_from_u64(13);
    let table = MaterialTable::builtin();
    for _ in 0..2000 {
        let size = [
            rng.random_range(0..6u32),
            rng.random_range(0..6),
            rng.random_range(0..6),
        ];
        let n = rng.random_range(0..80);
        let bytes: Vec<u8> = (0..n).map(|_| rng.random()).collect();
        if let Ok(r) = Region::decode_raw(&bytes, size, &table) {
            r.assert_valid();
        }
        if let Ok(r) = Region::decode_rle(&bytes, size, &table) {
            r.assert_valid();
        }
    }
}
