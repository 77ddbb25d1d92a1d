//! Scenes lit by more than the sun and sky: a sealed room with a point light and a pillar, a sealed
//! room with a glowing block, a spot's disc, a red wall's bounce; thread independence and re-bakes
//! after a light moves.

use super::*;
use crate::progress::Progress;
use crate::storage::Grid;
use crate::voxel::{Emission, MaterialTable, Voxel, VoxelBox, VoxelPos};

fn bx(a: [i32; 3], b: [i32; 3]) -> VoxelBox {
    VoxelBox::new(VoxelPos::from(a), VoxelPos::from(b))
}

fn rock(t: &MaterialTable) -> Voxel {
    Voxel::filled(t.id_of("Rock").expect("rock"))
}

/// A closed rock box 40×20×40 inside (floor top at y = 2), walls two voxels thick.
fn sealed_room(t: &MaterialTable) -> Grid {
    let mut g = Grid::new();
    g.fill_box(bx([-2, 0, -2], [42, 24, 42]), rock(t));
    g.fill_box(bx([0, 2, 0], [40, 22, 40]), Voxel::AIR);
    g
}

fn quick() -> LightSettings {
    LightSettings {
        particles: 16,
        steps: 24,
        ..LightSettings::default()
    }
}

/// [`quick`] without sun and sky: a walk that stays in a room's air as long as its steps last
/// survives, so a room wider than a walk's reach is not dark to them; these scenes look at the
/// other sources alone.
fn indoors() -> LightSettings {
    LightSettings {
        sun_color: [0.0; 3],
        sky_color: [0.0; 3],
        ..quick()
    }
}

fn luma(l: &LightMap, x: i32, y: i32, z: i32) -> f32 {
    let c = l
        .light(VoxelPos::new(x, y, z))
        .unwrap_or_else(|| panic!("({x}, {y}, {z}) is lit"));
    c[0] + c[1] + c[2]
}

fn bake_with(g: &Grid, t: &MaterialTable, lights: &[PlacedLight], s: &LightSettings) -> LightMap {
    bake_grid(g, t, lights, s, &Progress::new())
        .expect("bake")
        .0
}

#[test]
fn a_point_light_lights_a_sealed_room_falls_off_and_a_pillar_casts_a_shadow() {
    let t = MaterialTable::builtin();
    let mut g = sealed_room(&t);
    let dark = bake_with(&g, &t, &[], &indoors());
    assert_eq!(luma(&dark, 20, 1, 20), 0.0, "no source, no light");
    let lamp = PlacedLight {
        position: [20.5, 10.0, 20.5],
        range: 24.0,
        ..PlacedLight::default()
    };
    let lit = bake_with(&g, &t, &[lamp], &indoors());
    let under = luma(&lit, 20, 1, 20);
    assert!(under > 0.1, "floor under the light {under}");
    for x in 0..40 {
        for z in 0..40 {
            assert!(
                luma(&lit, x, 1, z) <= under,
                "({x}, {z}) brighter than under the light"
            );
        }
    }
    let ring: Vec<f32> = [4, 8, 12, 16].map(|d| luma(&lit, 20 + d, 1, 20)).into();
    assert!(
        ring.windows(2).all(|w| w[0] > w[1]),
        "falls off with distance: {ring:?}"
    );
    assert_eq!(
        luma(&lit, 39, 1, 0),
        0.0,
        "beyond the range (34 voxels away)"
    );
    // A pillar east of the light shadows the floor behind it, not the floor as far to the west.
    g.fill_box(bx([25, 2, 18], [27, 22, 23]), rock(&t));
    let shadowed = bake_with(&g, &t, &[lamp], &indoors());
    let (behind, mirror) = (luma(&shadowed, 31, 1, 20), luma(&shadowed, 9, 1, 20));
    assert!(mirror > 0.02, "the west side is lit: {mirror}");
    assert!(
        behind < mirror * 0.2,
        "the pillar's shadow: {behind} against {mirror}"
    );
}

fn glowing_table() -> MaterialTable {
    let mut t = MaterialTable::builtin();
    let lava = usize::from(t.id_of("CrackedLava").expect("lava"));
    t.materials[lava].emission = Some(Emission {
        color: (255, 128, 0),
        strength: 4.0,
    });
    t
}

#[test]
fn a_glowing_block_lights_a_sealed_room_and_shows_its_emission() {
    let t = glowing_table();
    let lava = Voxel::filled(t.id_of("CrackedLava").expect("lava"));
    let mut g = sealed_room(&t);
    g.fill_box(bx([18, 2, 18], [22, 6, 22]), lava);
    let lit = bake_with(&g, &t, &[], &indoors());
    let near = lit.light(VoxelPos::new(23, 1, 20)).expect("lit");
    let far = luma(&lit, 35, 1, 20);
    assert!(
        near[0] > 0.05 && near[0] > near[2] * 4.0,
        "orange light near: {near:?}"
    );
    assert!(
        luma(&lit, 23, 1, 20) > far * 3.0,
        "falls off: {near:?} against {far}"
    );
    let top = lit.light(VoxelPos::new(20, 5, 20)).expect("lit");
    let radiance = Emission {
        color: (255, 128, 0),
        strength: 4.0,
    }
    .radiance();
    assert!(
        top[0] >= radiance[0] - 0.01,
        "the block shows its emission: {top:?}"
    );
    let off = bake_with(
        &g,
        &t,
        &[],
        &LightSettings {
            emission: false,
            ..indoors()
        },
    );
    assert_eq!(luma(&off, 23, 1, 20), 0.0, "emission off: dark");
}

#[test]
fn a_spot_lights_a_disc_and_nothing_beyond() {
    let t = MaterialTable::builtin();
    let mut g = Grid::new();
    g.fill_box(bx([0, 0, 0], [48, 2, 48]), rock(&t));
    let spot = PlacedLight {
        position: [24.5, 10.0, 24.5],
        range: 30.0,
        spot: Some(Spot {
            direction: [0.0, -1.0, 0.0],
            angle_degrees: 60.0,
        }),
        ..PlacedLight::default()
    };
    let s = LightSettings {
        sun_color: [0.0; 3],
        sky_color: [0.0; 3],
        ..quick()
    };
    let lit = bake_with(&g, &t, &[spot], &s);
    // Height 8.5 over the floor's centres, half angle 30°: the disc's radius is about 4.9.
    for (d, inside) in [(0, true), (2, true), (3, true), (6, false), (9, false)] {
        for p in [(24 + d, 24), (24 - d, 24), (24, 24 + d), (24, 24 - d)] {
            let l = luma(&lit, p.0, 1, p.1);
            assert_eq!(l > 0.05, inside, "{p:?} at {d} gets {l}");
            if !inside {
                assert_eq!(l, 0.0, "{p:?} beyond the cone");
            }
        }
    }
}

#[test]
fn a_red_wall_tints_the_floor_with_a_bounce_and_not_without() {
    let mut t = MaterialTable::builtin();
    let clay = t.id_of("Clay").expect("clay");
    t.materials[usize::from(clay)].color = (230, 20, 20);
    let mut g = Grid::new();
    g.fill_box(bx([0, 0, 0], [48, 2, 48]), rock(&t));
    g.fill_box(bx([20, 2, 0], [22, 20, 48]), Voxel::filled(clay));
    let ratio = |l: &LightMap, x: i32| {
        let c = l.light(VoxelPos::new(x, 1, 24)).expect("lit");
        c[0] / c[1]
    };
    let s = LightSettings {
        sun_dir: [1.0, 2.0, 0.3],
        ..quick()
    };
    let flat = bake_with(&g, &t, &[], &s);
    let bounced = bake_with(&g, &t, &[], &LightSettings { bounce: 1, ..s });
    let twice = bake_with(&g, &t, &[], &LightSettings { bounce: 2, ..s });
    let (before, after) = (ratio(&flat, 22), ratio(&bounced, 22));
    assert!(
        after > before * 1.05,
        "red beside the wall: {before} without, {after} with a bounce"
    );
    assert!(
        ratio(&twice, 22) >= after * 0.99,
        "a second bounce keeps the tint"
    );
    let far = ratio(&bounced, 45) / ratio(&flat, 45);
    assert!(far < 1.02, "far from the wall no tint: {far}");
}

fn lit_world(t: &MaterialTable) -> Grid {
    let mut g = Grid::new();
    g.fill_box(bx([0, 0, 0], [64, 4, 64]), rock(t));
    g.fill_box(bx([10, 4, 10], [14, 16, 14]), rock(t));
    g.fill_box(
        bx([30, 4, 30], [34, 6, 40]),
        Voxel::filled(t.id_of("CrackedLava").expect("lava")),
    );
    g
}

fn lamps() -> Vec<PlacedLight> {
    vec![
        PlacedLight {
            position: [20.0, 8.0, 20.0],
            color: [1.0, 0.6, 0.2],
            ..PlacedLight::default()
        },
        PlacedLight {
            position: [40.0, 12.0, 12.0],
            spot: Some(Spot {
                direction: [-0.3, -1.0, 0.2],
                angle_degrees: 70.0,
            }),
            ..PlacedLight::default()
        },
    ]
}

#[test]
fn one_and_two_threads_give_identical_bytes() {
    let t = glowing_table();
    let g = lit_world(&t);
    let s = LightSettings {
        bounce: 1,
        denoise: true,
        ..quick()
    };
    let run = |threads: usize| {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .expect("pool");
        pool.install(|| serial::to_bytes(&bake_with(&g, &t, &lamps(), &s)))
    };
    assert_eq!(run(1), run(2));
}

#[test]
fn moving_a_light_rebakes_only_its_range_and_equals_a_full_bake() {
    let t = glowing_table();
    let g = lit_world(&t);
    let s = quick();
    let vol = SolidVolume::from_grid(&g, &t).expect("volume");
    let before = lamps();
    let mut scene = LightScene::new(&g, &t, &vol, &before, &s);
    let (mut light, stats) = bake_scene(&vol, &scene, &s, &Progress::new()).expect("bake");
    let mut after = before.clone();
    after[0].position = [24.0, 8.0, 26.0];
    light.mark_light_changed(&before[0]);
    light.mark_light_changed(&after[0]);
    assert!(light.is_stale(VoxelPos::new(22, 3, 22)));
    assert!(
        !light.is_stale(VoxelPos::new(60, 3, 60)),
        "out of range stays fresh"
    );
    scene.set_lights(&after);
    let (patch, re) =
        rebake_scene(&vol, &scene, &light.stale_request(), &Progress::new()).expect("rebake");
    assert!(
        re.surface_voxels * 2 < stats.surface_voxels,
        "{} of {} re-walked",
        re.surface_voxels,
        stats.surface_voxels
    );
    light.apply(patch).expect("apply");
    assert!(light.is_fresh());
    let (full, _) = bake_scene(&vol, &scene, &s, &Progress::new()).expect("bake");
    assert!(light == full, "the patched light equals a full bake");
}

#[test]
fn denoise_lowers_the_noise_of_a_flat_evenly_lit_patch() {
    let t = MaterialTable::builtin();
    let mut g = Grid::new();
    g.fill_box(bx([0, 0, 0], [64, 4, 64]), rock(&t));
    let raw = bake_with(&g, &t, &[], &quick());
    let smooth = bake_with(
        &g,
        &t,
        &[],
        &LightSettings {
            denoise: true,
            ..quick()
        },
    );
    let sd = |l: &LightMap| flat_patch_std_dev(l, 16..48, 3);
    let (a, b) = (sd(&raw), sd(&smooth));
    assert!(a > 0.0 && b < a / 2.0, "std-dev {a} raw, {b} filtered");
}

/// Standard deviation of the green light over the square `range`² of the floor at height `y`.
pub(crate) fn flat_patch_std_dev(l: &LightMap, range: std::ops::Range<i32>, y: i32) -> f64 {
    let v: Vec<f64> = range
        .clone()
        .flat_map(|x| range.clone().map(move |z| (x, z)))
        .filter_map(|(x, z)| l.light(VoxelPos::new(x, y, z)).map(|c| f64::from(c[1])))
        .collect();
    let mean = v.iter().sum::<f64>() / v.len() as f64;
    (v.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / v.len() as f64).sqrt()
}
