//! Quality of the snowflake light bake on small hand-built scenes, with the default settings: an open
//! field is lit evenly, a closed room with a one-voxel roof hole is far darker, the ground behind a
//! tower (away from the sun) is darker than in front of it, a cave floor is near black, and a
//! brighter sun brightens sunlit ground but not the room floor.

use strata_engine::light::{bake_grid, LightMap, LightSettings};
use strata_engine::progress::Progress;
use strata_engine::storage::Grid;
use strata_engine::voxel::{MaterialTable, Voxel, VoxelBox, VoxelPos};

const GRASS: u8 = 2;
const ROCK: u8 = 7;
const BRICK: u8 = 18;
/// Size of the field every scene stands on, and the height of its top voxel.
const FIELD: i32 = 112;
const TOP: i32 = 3;

fn bx(a: [i32; 3], b: [i32; 3]) -> VoxelBox {
    VoxelBox::new(VoxelPos::from(a), VoxelPos::from(b))
}

fn field() -> Grid {
    let mut g = Grid::new();
    g.fill_box(bx([0, 0, 0], [FIELD, TOP + 1, FIELD]), Voxel::filled(GRASS));
    g
}

fn bake(grid: &Grid, settings: &LightSettings) -> LightMap {
    bake_grid(
        grid,
        &MaterialTable::builtin(),
        &[],
        settings,
        &Progress::new(),
    )
    .expect("bakes")
    .0
}

/// Luminance (mean of R, G, B) of the top voxels of every column in `[x0, x1) × [z0, z1)` at height
/// `y`.
fn floor_light(light: &LightMap, y: i32, x: (i32, i32), z: (i32, i32)) -> Vec<f32> {
    let mut v = Vec::new();
    for zz in z.0..z.1 {
        for xx in x.0..x.1 {
            let l = light
                .light(VoxelPos::new(xx, y, zz))
                .expect("a floor voxel is a surface voxel");
            v.push((l[0] + l[1] + l[2]) / 3.0);
        }
    }
    v
}

fn mean(v: &[f32]) -> f32 {
    v.iter().sum::<f32>() / v.len() as f32
}

/// A room on the field: 2-voxel brick walls and roof around a 16×8×16 hollow, one hole in the roof.
fn add_room(g: &mut Grid) {
    g.fill_box(
        bx([20, TOP + 1, 20], [40, TOP + 11, 40]),
        Voxel::filled(BRICK),
    );
    g.fill_box(bx([22, TOP + 1, 22], [38, TOP + 9, 38]), Voxel::AIR);
    g.fill_box(bx([30, TOP + 9, 30], [31, TOP + 11, 31]), Voxel::AIR);
}

const ROOM_FLOOR: ((i32, i32), (i32, i32)) = ((23, 37), (23, 37));
const OPEN_GROUND: ((i32, i32), (i32, i32)) = ((64, 90), (64, 90));

#[test]
fn an_open_field_is_lit_evenly() {
    let light = bake(&field(), &LightSettings::default());
    let v = floor_light(&light, TOP, (40, 72), (40, 72));
    let m = mean(&v);
    let sd = (v.iter().map(|x| (x - m).powi(2)).sum::<f32>() / v.len() as f32).sqrt();
    eprintln!("field: mean {m:.3}, sd {sd:.3}");
    assert!(m > 0.5, "an open field is well lit: {m}");
    assert!(sd / m < 0.12, "per-voxel noise is small: sd {sd}, mean {m}");
    // Every 8×8 patch is within 5 % of the whole.
    for pz in 0..4 {
        for px in 0..4 {
            let p = floor_light(
                &light,
                TOP,
                (40 + px * 8, 48 + px * 8),
                (40 + pz * 8, 48 + pz * 8),
            );
            let pm = mean(&p);
            assert!((pm / m - 1.0).abs() < 0.05, "patch {px},{pz}: {pm} vs {m}");
        }
    }
}

#[test]
fn a_closed_room_with_a_roof_hole_is_far_darker_than_the_field() {
    let mut g = field();
    add_room(&mut g);
    let light = bake(&g, &LightSettings::default());
    let room = mean(&floor_light(&light, TOP, ROOM_FLOOR.0, ROOM_FLOOR.1));
    let open = mean(&floor_light(&light, TOP, OPEN_GROUND.0, OPEN_GROUND.1));
    eprintln!("room floor {room:.4}, open ground {open:.3}");
    // Sky particles that wander inside the room without touching it still count (the model lights
    // by survival, not escape), so the floor keeps a little sky light: about a tenth of the field.
    assert!(room < 0.15 * open, "room {room} vs field {open}");
}

#[test]
fn ground_behind_a_tower_is_darker_than_in_front() {
    let mut g = field();
    // A 6×36×6 tower; the default sun is towards +X (and a little +Z), 40° up.
    g.fill_box(
        bx([50, TOP + 1, 50], [56, TOP + 37, 56]),
        Voxel::filled(ROCK),
    );
    let light = bake(&g, &LightSettings::default());
    let behind = mean(&floor_light(&light, TOP, (42, 50), (48, 56)));
    let front = mean(&floor_light(&light, TOP, (57, 65), (50, 56)));
    // Further along the shadow (12 to 18 voxels behind, where the sun's slight +Z lean moves it).
    let far = mean(&floor_light(&light, TOP, (32, 38), (44, 50)));
    let open = mean(&floor_light(&light, TOP, (80, 100), (80, 100)));
    eprintln!(
        "tower: behind {behind:.3}, far behind {far:.3}, in front {front:.3}, open {open:.3}"
    );
    assert!(behind < 0.5 * front, "behind {behind} vs front {front}");
    assert!(
        far < 0.75 * open,
        "a long shadow: {far} vs open ground {open}"
    );
}

#[test]
fn a_cave_floor_is_near_black() {
    let mut g = field();
    // A rock hill with a 4×4 tunnel entering from its -X side, 40 voxels deep.
    g.fill_box(
        bx([30, TOP + 1, 30], [80, TOP + 30, 80]),
        Voxel::filled(ROCK),
    );
    g.fill_box(bx([30, TOP + 1, 53], [70, TOP + 5, 57]), Voxel::AIR);
    let light = bake(&g, &LightSettings::default());
    let deep = mean(&floor_light(&light, TOP, (50, 70), (53, 57)));
    let open = mean(&floor_light(&light, TOP, (88, 104), (88, 104)));
    eprintln!("cave floor {deep:.5}, open ground {open:.3}");
    assert!(deep < 0.02 * open, "cave {deep} vs field {open}");
}

#[test]
fn a_brighter_sun_brightens_sunlit_ground_but_not_the_room_floor() {
    let mut g = field();
    add_room(&mut g);
    let base = LightSettings::default();
    let bright = LightSettings {
        sun_color: base.sun_color.map(|c| c * 2.0),
        ..base
    };
    let a = bake(&g, &base);
    let b = bake(&g, &bright);
    let open = |l: &LightMap| mean(&floor_light(l, TOP, OPEN_GROUND.0, OPEN_GROUND.1));
    let room = |l: &LightMap| mean(&floor_light(l, TOP, ROOM_FLOOR.0, ROOM_FLOOR.1));
    let (open_gain, room_gain) = (open(&b) - open(&a), room(&b) - room(&a));
    eprintln!("sun x2: open ground +{open_gain:.3}, room floor +{room_gain:.4}");
    assert!(
        open_gain > 0.5 * open(&a) * 0.5,
        "sunlit ground gains: {open_gain}"
    );
    assert!(room_gain < 0.02 * open_gain, "room floor gains {room_gain}");
}
