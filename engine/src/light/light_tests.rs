//! Light bake tests: solidity volume against the voxels, determinism across thread counts, incremental
//! re-bakes against full bakes, cancellation, stale tracking, sampling.

use proptest::prelude::*;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use super::*;
use crate::history::History;
use crate::progress::Progress;
use crate::storage::Grid;
use crate::voxel::{MaterialTable, Voxel, VoxelBox, VoxelPos};
use crate::Error;

fn bx(a: [i32; 3], b: [i32; 3]) -> VoxelBox {
    VoxelBox::new(VoxelPos::from(a), VoxelPos::from(b))
}

/// Hills of rock and grass with a pool of water, soft edges, a cave and an overhang.
pub(super) fn scene(seed: u64) -> Grid {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut grid = Grid::new();
    grid.fill_box(bx([-20, -4, -20], [44, 6, 44]), Voxel::filled(7));
    for _ in 0..6 {
        let x = rng.random_range(-16..40);
        let z = rng.random_range(-16..40);
        let h = rng.random_range(4..20);
        grid.fill_box(bx([x, 6, z], [x + 5, 6 + h, z + 4]), Voxel::filled(2));
    }
    grid.fill_box(bx([0, 0, 0], [12, 3, 30]), Voxel::AIR);
    grid.fill_box(bx([20, 6, 20], [30, 8, 30]), Voxel::filled(1));
    grid.modify_box(bx([-20, 6, -20], [44, 7, 44]), |p, v| {
        if (p.x + p.z) % 3 == 0 {
            Voxel::new(3, ((p.x * 37 + p.z * 11) & 255) as u8)
        } else {
            v
        }
    });
    grid
}

fn small() -> LightSettings {
    LightSettings {
        particles: 6,
        steps: 10,
        ..LightSettings::default()
    }
}

fn table() -> MaterialTable {
    MaterialTable::builtin()
}

#[test]
fn volume_matches_the_solid_rule_voxel_by_voxel() {
    let grid = scene(1);
    let t = table();
    let vol = SolidVolume::from_grid(&grid, &t).expect("volume");
    vol.assert_valid();
    let rule = SolidRule::new(&t);
    let b = vol.bounds();
    for z in (b.min.z - 2)..(b.max.z + 2) {
        for y in (b.min.y - 2)..(b.max.y + 2) {
            for x in (b.min.x - 2)..(b.max.x + 2) {
                let p = VoxelPos::new(x, y, z);
                assert_eq!(vol.is_solid(p), rule.is_solid(grid.get(p)), "{p:?}");
            }
        }
    }
    assert!(!rule.is_solid(Voxel::filled(1)), "water is not solid");
    assert!(!rule.is_solid(Voxel::new(7, 126)) && rule.is_solid(Voxel::new(7, 127)));
    let from_fn = SolidVolume::from_fn(b, |p| rule.is_solid(grid.get(p))).expect("fn");
    from_fn.assert_valid();
    assert!(from_fn == vol);
}

#[test]
fn surface_voxels_are_exactly_the_solid_ones_with_an_open_face() {
    let grid = scene(2);
    let vol = SolidVolume::from_grid(&grid, &table()).expect("volume");
    let found = vol.surface_in(vol.bounds());
    let b = vol.bounds();
    let mut expected = Vec::new();
    for z in b.min.z..b.max.z {
        for y in b.min.y..b.max.y {
            for x in b.min.x..b.max.x {
                if let Some(open) = vol.surface_at(VoxelPos::new(x, y, z)) {
                    expected.push((VoxelPos::new(x, y, z), open));
                }
            }
        }
    }
    let mut got: Vec<_> = found.iter().map(|s| (s.pos, s.open)).collect();
    got.sort_by_key(|e| (e.0.z, e.0.y, e.0.x));
    expected.sort_by_key(|e| (e.0.z, e.0.y, e.0.x));
    assert_eq!(got, expected);
}

#[test]
fn one_thread_and_two_threads_give_identical_light() {
    let grid = scene(3);
    let vol = SolidVolume::from_grid(&grid, &table()).expect("volume");
    let run = |threads: usize| {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .expect("pool");
        pool.install(|| bake(&vol, &small(), &Progress::new()).expect("bake"))
    };
    let (one, s1) = run(1);
    let (two, s2) = run(2);
    assert!(one.len() > 1000);
    assert_eq!(s1.walk_steps, s2.walk_steps);
    assert!(one == two);
    assert_eq!(
        serial::to_bytes(&one),
        serial::to_bytes(&two),
        "bit for bit"
    );
}

#[test]
fn the_seed_changes_the_light_and_rebuilt_volumes_do_not() {
    let grid = scene(4);
    let t = table();
    let vol = SolidVolume::from_grid(&grid, &t).expect("volume");
    let (a, _) = bake(&vol, &small(), &Progress::new()).expect("bake");
    let (b, _) = bake(
        &vol,
        &LightSettings {
            seed: 99,
            ..small()
        },
        &Progress::new(),
    )
    .expect("b");
    assert!(a.entries().zip(b.entries()).any(|(x, y)| x.1 != y.1));
    // A volume grown by patches has another layout but gives the same light.
    let mut grown = SolidVolume::empty();
    for c in grid.sorted_positions() {
        grown.patch(&grid, &t, c.voxel_box()).expect("patch");
    }
    grown.assert_valid();
    let (c, _) = bake(&grown, &small(), &Progress::new()).expect("c");
    assert!(a == c);
}

/// A random edit: fill or carve a box, or a sphere-ish blob of rock.
fn edit(grid: &mut Grid, history: &mut History, rng: &mut ChaCha8Rng) -> VoxelBox {
    let x = rng.random_range(-24..44);
    let y = rng.random_range(-6..22);
    let z = rng.random_range(-24..44);
    let s = [
        rng.random_range(1..7),
        rng.random_range(1..7),
        rng.random_range(1..7),
    ];
    let b = VoxelBox::from_min_size(VoxelPos::new(x, y, z), s);
    let v = match rng.random_range(0..3) {
        0 => Voxel::AIR,
        1 => Voxel::filled(17),
        _ => Voxel::new(5, rng.random_range(100..160)),
    };
    history.apply(grid, b, "edit", |g| g.fill_box(b, v));
    b
}

fn check_incremental(seed: u64, edits: usize, steps: u32) {
    let t = table();
    let settings = LightSettings {
        particles: 3,
        steps,
        step_length: 0.8,
        seed,
        ..LightSettings::default()
    };
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut grid = scene(seed);
    let mut history = History::default();
    let mut vol = SolidVolume::from_grid(&grid, &t).expect("volume");
    let (mut light, _) = bake(&vol, &settings, &Progress::new()).expect("bake");
    let loaded = rng.random_bool(0.3);
    if loaded {
        // Light read from a file has no walk extents: the re-bake falls back to the reach.
        // (A file keeps the bake's options beside it, in LOPT.)
        let options = serial::options_to_bytes(&light);
        light = serial::from_bytes(&serial::to_bytes(&light), 0).expect("round trip");
        serial::options_from_bytes(&options, 0, &mut light).expect("options");
    }
    for _ in 0..edits {
        let changed = edit(&mut grid, &mut history, &mut rng);
        vol.patch(&grid, &t, changed).expect("patch");
        light.mark_stale(changed);
    }
    if rng.random_bool(0.5) {
        let region = history.undo_region().expect("something to undo");
        history.undo(&mut grid).expect("undo");
        vol.patch(&grid, &t, region).expect("patch");
        light.mark_stale(region);
    }
    vol.assert_valid();
    let fresh_vol = SolidVolume::from_grid(&grid, &t).expect("fresh");
    assert!(vol == fresh_vol, "patched volume equals a rebuilt one");
    assert!(!light.is_fresh());
    let (patch, stats) = rebake(&vol, &light.stale_request(), &Progress::new()).expect("rebake");
    assert_eq!(stats.surface_voxels as usize, patch.len());
    light.apply(patch).expect("apply");
    assert!(light.is_fresh());
    let (full, _) = bake(&fresh_vol, &settings, &Progress::new()).expect("full");
    assert_eq!(light.len(), full.len());
    assert!(light == full, "incremental equals full bake");
    for (p, _) in full.entries() {
        let (got, want) = (light.extent(p), full.extent(p));
        if !(loaded && got == Some(WalkExtent::UNKNOWN)) {
            assert_eq!(got, want, "walk extent of {p:?}");
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 6, ..ProptestConfig::default() })]
    #[test]
    fn incremental_rebake_equals_a_full_bake(seed in 0u64..1000, edits in 1usize..4, steps in 2u32..9) {
        check_incremental(seed, edits, steps);
    }
}

#[test]
fn a_rebake_touches_only_voxels_within_reach() {
    let t = table();
    let mut grid = scene(5);
    let mut vol = SolidVolume::from_grid(&grid, &t).expect("volume");
    let (mut light, _) = bake(&vol, &small(), &Progress::new()).expect("bake");
    let total = light.len();
    let b = bx([30, 6, 30], [32, 9, 32]);
    grid.fill_box(b, Voxel::filled(7));
    vol.patch(&grid, &t, b).expect("patch");
    light.mark_stale(b);
    let reach = small().reach();
    assert!(light.is_stale(VoxelPos::new(31, 5, 31)));
    assert!(!light.is_stale(VoxelPos::new(-10, 5, -10)));
    let (patch, _) = rebake(&vol, &light.stale_request(), &Progress::new()).expect("rebake");
    assert!(patch.len() < total / 4, "{} of {total}", patch.len());
    for (p, _, _) in &patch.entries {
        assert!(super::walk::within_reach(*p, &b, reach));
    }
    // The walk extents narrow the re-bake well below every surface voxel within reach.
    let in_reach = vol
        .surface_in(vol.bounds())
        .iter()
        .filter(|s| super::walk::within_reach(s.pos, &b, reach))
        .count();
    assert!(
        patch.len() * 2 < in_reach,
        "{} re-baked of {in_reach} within reach",
        patch.len()
    );
}

#[test]
fn cancelled_bakes_leave_the_light_alone() {
    let t = table();
    let grid = scene(6);
    let vol = SolidVolume::from_grid(&grid, &t).expect("volume");
    let (light, _) = bake(&vol, &small(), &Progress::new()).expect("bake");
    let before = light.clone();
    let cancelled = Progress::new();
    cancelled.cancel();
    assert!(matches!(
        bake(&vol, &small(), &cancelled),
        Err(Error::Cancelled)
    ));
    let mut stale = light.clone();
    stale.mark_stale(bx([0, 0, 0], [4, 4, 4]));
    assert!(matches!(
        rebake(&vol, &stale.stale_request(), &cancelled),
        Err(Error::Cancelled)
    ));
    assert!(light == before);
}

#[test]
fn bad_settings_and_empty_worlds_do_not_panic() {
    let vol = SolidVolume::from_grid(&Grid::new(), &table()).expect("empty volume");
    let (light, stats) = bake(&vol, &small(), &Progress::new()).expect("empty bake");
    assert!(light.is_empty());
    assert_eq!(stats.surface_voxels, 0);
    let mut water = Grid::new();
    water.fill_box(bx([0, 0, 0], [8, 8, 8]), Voxel::filled(1));
    let (light, _) = bake_grid(&water, &table(), &[], &small(), &Progress::new()).expect("water");
    assert!(light.is_empty(), "water is not lit");
    for bad in [
        LightSettings {
            sun_dir: [0.0; 3],
            ..small()
        },
        LightSettings {
            particles: 0,
            ..small()
        },
        LightSettings {
            steps: 0,
            ..small()
        },
        LightSettings {
            step_length: f32::NAN,
            ..small()
        },
        LightSettings {
            sky_color: [-1.0, 0.0, 0.0],
            ..small()
        },
    ] {
        assert!(matches!(
            bake(&vol, &bad, &Progress::new()),
            Err(Error::Invalid(_))
        ));
    }
}

#[test]
fn edits_during_a_bake_stay_stale_after_install() {
    let t = table();
    let mut grid = scene(7);
    let mut vol = SolidVolume::from_grid(&grid, &t).expect("volume");
    let snapshot = vol.clone();
    let b = bx([5, 10, 5], [7, 12, 7]);
    grid.fill_box(b, Voxel::filled(7));
    vol.patch(&grid, &t, b).expect("patch");
    let (mut light, _) = bake(&snapshot, &small(), &Progress::new()).expect("bake");
    light.mark_stale_between(&snapshot, &vol);
    assert!(light.is_stale(VoxelPos::new(6, 9, 6)));
    assert!(light
        .stale_boxes()
        .all(|s| s.intersect(&b) == b || !s.intersect(&b).is_empty()));
    // A patch started before another edit clears only what it re-baked.
    let request = light.stale_request();
    light.mark_stale(bx([-10, 5, -10], [-9, 6, -9]));
    let (patch, _) = rebake(&vol, &request, &Progress::new()).expect("rebake");
    light.apply(patch).expect("apply");
    assert_eq!(light.stale_boxes().count(), 1);
    assert!(light.is_stale(VoxelPos::new(-10, 4, -10)));
    assert!(!light.is_stale(VoxelPos::new(40, 5, 6)));
}

#[test]
fn samples_blend_the_voxels_around_a_point() {
    let mut grid = Grid::new();
    grid.fill_box(bx([0, 0, 0], [16, 4, 16]), Voxel::filled(7));
    let (light, _) = bake_grid(&grid, &table(), &[], &small(), &Progress::new()).expect("bake");
    let top = light.light(VoxelPos::new(8, 3, 8)).expect("lit");
    let s = light.sample([8.5, 4.0, 8.5]).expect("sample");
    let near = [
        light.light(VoxelPos::new(8, 3, 8)),
        light.light(VoxelPos::new(7, 3, 8)),
    ];
    assert!(near.iter().all(Option::is_some));
    assert!((s[0] - top[0]).abs() < 1.0, "{s:?} near {top:?}");
    assert!(light.sample([100.0, 100.0, 100.0]).is_none());
    assert_eq!(light.column_top(8, 8, 3, 4), Some(top));
    let mut rgb = vec![0u8; 3 * 16 * 16];
    let layer = bx([0, 3, 0], [16, 4, 16]);
    light.rgb8_box(layer, &mut rgb);
    assert!(rgb.iter().all(|&c| c > 0), "the top layer is lit");
    let mut inside = vec![7u8; 3 * 4];
    light.rgb8_box(bx([4, 1, 4], [8, 2, 5]), &mut inside);
    assert!(
        inside.iter().all(|&c| c == 0),
        "buried voxels carry no light"
    );
}

#[test]
fn history_regions_mark_stale_for_undo_and_redo() {
    let t = table();
    let mut grid = scene(8);
    let (mut light, _) = bake_grid(&grid, &t, &[], &small(), &Progress::new()).expect("bake");
    let mut history = History::default();
    let b = bx([-5, 6, -5], [-2, 9, -2]);
    history.apply(&mut grid, b, "Add", |g| g.fill_box(b, Voxel::filled(7)));
    light.mark_stale(b);
    let (patch, _) = rebake(
        &SolidVolume::from_grid(&grid, &t).expect("v"),
        &light.stale_request(),
        &Progress::new(),
    )
    .expect("rebake");
    light.apply(patch).expect("apply");
    assert!(light.is_fresh());
    let undo = history.undo_region().expect("undo region");
    history.undo(&mut grid).expect("undo");
    light.mark_stale(undo);
    assert!(light.is_stale(VoxelPos::new(-4, 5, -4)));
    let redo = history.redo_region().expect("redo region");
    assert_eq!(redo, b);
}
