//! Behaviour of each tool on small hand-built worlds.

use super::*;
use crate::storage::Grid;
use crate::voxel::{MaterialTable, Voxel, VoxelBox, VoxelPos};

/// Ground height of the flat test worlds: voxels with `y < GROUND` are full rock.
const GROUND: i32 = 16;

pub(super) struct World {
    pub table: MaterialTable,
    pub grid: Grid,
    pub rock: u8,
    pub grass: u8,
    pub sand: u8,
    pub water: u8,
}

impl World {
    /// Rock ground below `GROUND` over `-24..24` in X and Z.
    pub fn flat() -> Self {
        let table = MaterialTable::builtin();
        let id = |n: &str| table.require(n).expect("builtin material");
        let (rock, grass, sand, water) = (id("Rock"), id("Grass"), id("Sand"), id("Water"));
        let mut grid = Grid::new();
        grid.fill_box(
            VoxelBox::new(VoxelPos::new(-24, 0, -24), VoxelPos::new(24, GROUND, 24)),
            Voxel::filled(rock),
        );
        Self {
            table,
            grid,
            rock,
            grass,
            sand,
            water,
        }
    }

    pub fn dab(&mut self, tool: &Tool, brush: &Brush, c: [f32; 3]) -> Option<VoxelBox> {
        let before = self.grid.clone();
        let changed = apply_dab(&mut self.grid, &self.table, tool, brush, c);
        self.grid.assert_valid();
        assert_eq!(
            changed,
            diff_box(&before, &self.grid),
            "returned box is not the exact change"
        );
        changed
    }
}

/// The region every test world and brush fits in.
pub(super) fn space() -> VoxelBox {
    VoxelBox::new(VoxelPos::new(-40, -8, -40), VoxelPos::new(40, 56, 40))
}

/// Every voxel of `space()` with its position.
fn voxels(g: &Grid) -> impl Iterator<Item = (VoxelPos, Voxel)> + '_ {
    let b = space();
    let v = g.read_box_vec(b);
    let [sx, sy, _] = b.size();
    v.into_iter().enumerate().map(move |(i, v)| {
        let p = VoxelPos::new(
            b.min.x + (i % sx) as i32,
            b.min.y + ((i / sx) % sy) as i32,
            b.min.z + (i / (sx * sy)) as i32,
        );
        (p, v)
    })
}

/// The tight box of voxels that differ between two grids (within `space()`).
pub(super) fn diff_box(a: &Grid, b: &Grid) -> Option<VoxelBox> {
    let mut out = VoxelBox::default();
    for ((p, x), (_, y)) in voxels(a).zip(voxels(b)) {
        assert!(y.is_normalized(), "{p:?} holds {y:?}");
        if x != y {
            out = out.union(&VoxelBox::from_min_size(p, [1, 1, 1]));
        }
    }
    (!out.is_empty()).then_some(out)
}

fn solid_sum(w: &World) -> f32 {
    voxels(&w.grid)
        .filter(|(_, v)| v.material != w.water)
        .map(|(_, v)| v.occupancy_f32())
        .sum()
}

/// Surface height of column (x, z): the lowest voxel's y plus the summed ground occupancy above it.
fn height(g: &Grid, x: i32, z: i32) -> f32 {
    (0..48)
        .map(|y| g.get(VoxelPos::new(x, y, z)).occupancy_f32())
        .sum()
}

fn dist(p: VoxelPos, c: [f32; 3]) -> f32 {
    let d = [
        p.x as f32 + 0.5 - c[0],
        p.y as f32 + 0.5 - c[1],
        p.z as f32 + 0.5 - c[2],
    ];
    (d[0] * d[0] + d[1] * d[1] + d[2] * d[2]).sqrt()
}

#[test]
fn add_fills_inside_the_radius_and_nothing_outside_the_brush_box() {
    let mut w = World::flat();
    let before = w.grid.clone();
    let c = [0.3, 20.0, -0.7];
    let brush = Brush::new(BrushShape::Sphere, 10.0, 1.0);
    let tool = Tool::new(ToolKind::Add, w.grass);
    let changed = w.dab(&tool, &brush, c).expect("adds");
    let bounds = VoxelBox::new(VoxelPos::new(-5, 15, -6), VoxelPos::new(6, 26, 5));
    for ((p, old), (_, new)) in voxels(&before).zip(voxels(&w.grid)) {
        if !bounds.contains(p) {
            assert_eq!(old, new, "{p:?} outside the brush box changed");
            continue;
        }
        assert!(
            new.occupancy_f32() >= old.occupancy_f32(),
            "{p:?} lost matter"
        );
        let d = dist(p, c);
        if d < 4.5 {
            assert_eq!(
                new.occupancy_f32(),
                1.0,
                "{p:?} inside the radius is not full"
            );
        }
        if d < 5.5 - 1.0 / 256.0 && old.is_air() {
            assert!(
                !new.is_air() && new.material == w.grass,
                "{p:?} at {d} got {new:?}"
            );
        }
        if d > 4.5 && d < 5.5 && old.is_air() {
            assert!(
                new.occupancy_f32() < 1.0,
                "{p:?} on the rim should be partly full"
            );
        }
    }
    assert!(bounds.intersect(&changed) == changed);
}

#[test]
fn subtract_is_the_inverse_shape() {
    let mut w = World::flat();
    let before = w.grid.clone();
    let c = [2.0, 12.0, 2.0];
    let changed = w
        .dab(
            &Tool::new(ToolKind::Subtract, 0),
            &Brush::new(BrushShape::Sphere, 12.0, 1.0),
            c,
        )
        .expect("carves");
    for ((p, old), (_, new)) in voxels(&before).zip(voxels(&w.grid)) {
        assert!(new.occupancy_f32() <= old.occupancy_f32());
        let d = dist(p, c);
        if d < 5.5 {
            assert!(new.is_air(), "{p:?} should be carved");
        }
        if d > 6.5 {
            assert_eq!(old, new);
        }
        if !new.is_air() {
            assert_eq!(new.material, old.material, "subtract keeps materials");
        }
    }
    // Adding the same sphere back restores every voxel the carve emptied completely.
    w.dab(
        &Tool::new(ToolKind::Add, w.rock),
        &Brush::new(BrushShape::Sphere, 12.0, 1.0),
        c,
    );
    assert!(changed.volume() > 0);
    for (p, v) in voxels(&w.grid) {
        if dist(p, c) < 5.5 {
            assert_eq!(v, Voxel::filled(w.rock));
        }
    }
}

#[test]
fn weak_dabs_change_less() {
    for kind in [
        ToolKind::Add,
        ToolKind::Subtract,
        ToolKind::Grow,
        ToolKind::Erode,
        ToolKind::Smooth,
        ToolKind::Flatten,
    ] {
        let mut strong = World::flat();
        let mut weak = World::flat();
        // A bump so Smooth and Flatten have something to do.
        for g in [&mut strong.grid, &mut weak.grid] {
            g.fill_box(
                VoxelBox::new(
                    VoxelPos::new(-2, GROUND, -2),
                    VoxelPos::new(2, GROUND + 4, 2),
                ),
                Voxel::filled(3),
            );
        }
        let tool = Tool::new(kind, strong.grass);
        let c = [0.0, GROUND as f32 + 1.0, 0.0];
        let base = solid_sum(&strong);
        strong.dab(&tool, &Brush::new(BrushShape::Sphere, 10.0, 1.0), c);
        weak.dab(&tool, &Brush::new(BrushShape::Sphere, 10.0, 0.1), c);
        let (ds, dw) = (
            (solid_sum(&strong) - base).abs(),
            (solid_sum(&weak) - base).abs(),
        );
        assert!(
            ds > 0.0 && dw > 0.0 && dw < ds * 0.5,
            "{kind:?}: strong {ds}, weak {dw}"
        );
    }
}

#[test]
fn grow_and_erode_move_surfaces_only() {
    let mut w = World::flat();
    let brush = Brush::new(BrushShape::Sphere, 12.0, 1.0);
    // In open air there is nothing to grow from.
    assert_eq!(
        w.dab(
            &Tool::new(ToolKind::Grow, w.grass),
            &brush,
            [0.0, 40.0, 0.0]
        ),
        None
    );
    let top = GROUND as f32;
    let h0 = height(&w.grid, 0, 0);
    w.dab(&Tool::new(ToolKind::Grow, w.grass), &brush, [0.5, top, 0.5])
        .expect("grows");
    let h1 = height(&w.grid, 0, 0);
    assert!(h1 > h0 && h1 < h0 + 1.0, "grow {h0} -> {h1}");
    assert_eq!(
        w.grid.get(VoxelPos::new(0, GROUND, 0)).material,
        w.rock,
        "new matter takes the neighbour's material"
    );
    w.dab(&Tool::new(ToolKind::Erode, 0), &brush, [0.5, top, 0.5])
        .expect("erodes");
    w.dab(&Tool::new(ToolKind::Erode, 0), &brush, [0.5, top, 0.5])
        .expect("erodes");
    assert!(height(&w.grid, 0, 0) < h1);
    // Deep inside, both are no-ops.
    assert_eq!(
        w.dab(
            &Tool::new(ToolKind::Erode, 0),
            &Brush::new(BrushShape::Sphere, 4.0, 1.0),
            [0.0, 5.0, 0.0]
        ),
        None
    );
}

#[test]
fn smooth_lowers_a_spike_and_fills_a_pit() {
    let mut w = World::flat();
    w.grid.fill_box(
        VoxelBox::new(VoxelPos::new(0, GROUND, 0), VoxelPos::new(1, GROUND + 6, 1)),
        Voxel::filled(w.rock),
    );
    w.grid.fill_box(
        VoxelBox::new(VoxelPos::new(8, GROUND - 4, 8), VoxelPos::new(9, GROUND, 9)),
        Voxel::AIR,
    );
    let brush = Brush::new(BrushShape::Sphere, 10.0, 1.0);
    let tool = Tool::new(ToolKind::Smooth, w.grass);
    let spike = height(&w.grid, 0, 0);
    w.dab(&tool, &brush, [0.5, GROUND as f32 + 3.0, 0.5])
        .expect("smooths");
    let after = height(&w.grid, 0, 0);
    assert!(after < spike - 1.0, "spike {spike} -> {after}");
    let pit = height(&w.grid, 8, 8);
    w.dab(&tool, &brush, [8.5, GROUND as f32 - 2.0, 8.5])
        .expect("smooths");
    assert!(height(&w.grid, 8, 8) > pit + 1.0);
    assert_eq!(w.grid.get(VoxelPos::new(8, GROUND - 3, 8)).material, w.rock);
}

/// A rock hill on the −X side of the origin, a trench on the +X side.
fn hill_and_trench(w: &mut World) {
    w.grid.fill_box(
        VoxelBox::new(
            VoxelPos::new(-6, GROUND, -6),
            VoxelPos::new(0, GROUND + 5, 6),
        ),
        Voxel::filled(w.rock),
    );
    w.grid.fill_box(
        VoxelBox::new(
            VoxelPos::new(1, GROUND - 3, -6),
            VoxelPos::new(6, GROUND, 6),
        ),
        Voxel::AIR,
    );
}

#[test]
fn flatten_levels_to_the_plane() {
    let mut w = World::flat();
    hill_and_trench(&mut w);
    let level = GROUND as f32 + 1.3;
    let mut tool = Tool::new(ToolKind::Flatten, w.grass);
    tool.flatten_plane = Some(Plane::horizontal(level));
    let brush = Brush::new(BrushShape::Cylinder, 16.0, 1.0);
    for _ in 0..3 {
        w.dab(&tool, &brush, [0.0, GROUND as f32, 0.0]);
    }
    for z in -3..3 {
        for x in -3..3 {
            let h = height(&w.grid, x, z);
            assert!(
                (h - level).abs() < 0.02,
                "column {x},{z} at {h}, plane {level}"
            );
        }
    }
    // Converged: another dab changes nothing at all in the core (edges may still move a little).
    let again = w.dab(
        &tool,
        &Brush::new(BrushShape::Cylinder, 6.0, 1.0),
        [0.0, GROUND as f32, 0.0],
    );
    assert_eq!(again, None);
}

#[test]
fn flatten_modes_only_cut_or_only_fill() {
    for mode in [FlattenMode::Erode, FlattenMode::Grow] {
        let mut w = World::flat();
        hill_and_trench(&mut w);
        let before = w.grid.clone();
        let mut tool = Tool::new(ToolKind::Flatten, w.grass);
        tool.flatten_mode = mode;
        // Default plane: horizontal through the dab centre.
        w.dab(
            &tool,
            &Brush::new(BrushShape::Cylinder, 16.0, 1.0),
            [0.0, GROUND as f32 + 0.5, 0.0],
        )
        .expect("flattens");
        for ((p, old), (_, new)) in voxels(&before).zip(voxels(&w.grid)) {
            match mode {
                FlattenMode::Erode => assert!(new.occupancy_f32() <= old.occupancy_f32(), "{p:?}"),
                _ => assert!(new.occupancy_f32() >= old.occupancy_f32(), "{p:?}"),
            }
        }
        let (hill, trench) = (height(&w.grid, -2, 0), height(&w.grid, 3, 0));
        match mode {
            FlattenMode::Erode => assert!(
                (hill - 16.5).abs() < 0.02 && trench == 13.0,
                "{hill} {trench}"
            ),
            _ => assert!(
                hill == 21.0 && (trench - 16.5).abs() < 0.02,
                "{hill} {trench}"
            ),
        }
    }
}

#[test]
fn paint_changes_only_surface_materials() {
    let mut w = World::flat();
    w.grid
        .set(VoxelPos::new(3, GROUND, 3), Voxel::new(w.rock, 90));
    let before = w.grid.clone();
    let c = [0.0, GROUND as f32, 0.0];
    w.dab(
        &Tool::new(ToolKind::Paint, w.grass),
        &Brush::new(BrushShape::Sphere, 14.0, 0.3),
        c,
    )
    .expect("paints");
    let mut painted = 0;
    for ((p, old), (_, new)) in voxels(&before).zip(voxels(&w.grid)) {
        assert_eq!(
            old.occupancy, new.occupancy,
            "{p:?}: paint changed occupancy"
        );
        assert_eq!(old.is_air(), new.is_air());
        if old != new {
            painted += 1;
            assert!(
                p.y >= GROUND - 1 && dist(p, c) <= 7.0,
                "{p:?} is buried or outside"
            );
            assert_eq!(new.material, w.grass);
        }
    }
    assert!(painted > 50, "{painted}");
    assert_eq!(
        w.grid.get(VoxelPos::new(3, GROUND, 3)),
        Voxel::new(w.grass, 90)
    );
    assert_eq!(w.grid.get(VoxelPos::new(0, GROUND - 3, 0)).material, w.rock);
    // Air, water and missing materials cannot be painted with.
    for m in [0, w.water, 63] {
        assert_eq!(
            w.dab(&Tool::new(ToolKind::Paint, m), &Brush::default(), c),
            None
        );
    }
}

#[test]
fn replace_touches_only_the_source_material() {
    let mut w = World::flat();
    w.grid.fill_box(
        VoxelBox::new(
            VoxelPos::new(-24, GROUND - 2, -24),
            VoxelPos::new(24, GROUND, 0),
        ),
        Voxel::new(w.sand, 200),
    );
    let before = w.grid.clone();
    let mut tool = Tool::new(ToolKind::Replace, w.grass);
    tool.source_material = w.sand;
    let c = [0.0, GROUND as f32, 0.0];
    w.dab(&tool, &Brush::new(BrushShape::Cube, 12.0, 1.0), c)
        .expect("replaces");
    let mut replaced = 0;
    for ((p, old), (_, new)) in voxels(&before).zip(voxels(&w.grid)) {
        if old != new {
            replaced += 1;
            assert_eq!(
                (old.material, new),
                (w.sand, Voxel::new(w.grass, 200)),
                "{p:?}"
            );
        } else if old.material == w.sand {
            let inside = |v: i32, c: i32| (c - 6..c + 6).contains(&v);
            assert!(
                !(inside(p.x, 0) && inside(p.y, GROUND) && inside(p.z, 0)),
                "{p:?} kept sand inside"
            );
        }
    }
    assert_eq!(replaced, 12 * 2 * 6);
    tool.source_material = w.grass;
    assert_eq!(
        w.dab(&tool, &Brush::default(), c),
        None,
        "source = target changes nothing"
    );
}

#[test]
fn sea_level_fills_only_air_below_the_level_and_clears_water() {
    let mut w = World::flat();
    w.grid.fill_box(
        VoxelBox::new(
            VoxelPos::new(-4, GROUND - 5, -4),
            VoxelPos::new(4, GROUND, 4),
        ),
        Voxel::AIR,
    );
    w.grid
        .set(VoxelPos::new(0, GROUND - 5, 0), Voxel::new(w.rock, 40));
    let before = w.grid.clone();
    let level = GROUND as f32 - 1.5;
    let region = VoxelBox::new(VoxelPos::new(-10, 0, -10), VoxelPos::new(10, 30, 10));
    let changed =
        apply_sea_level(&mut w.grid, &w.table, region, level, SeaLevelMode::Fill).expect("fills");
    w.grid.assert_valid();
    assert_eq!(Some(changed), diff_box(&before, &w.grid));
    for ((p, old), (_, new)) in voxels(&before).zip(voxels(&w.grid)) {
        if old == new {
            assert!(
                !old.is_air() || p.y as f32 >= level || !region.contains(p),
                "{p:?} air left below the level"
            );
            continue;
        }
        assert!(
            old.is_air() && region.contains(p) && (p.y as f32) < level,
            "{p:?}"
        );
        assert_eq!(new.material, w.water);
        let expect = if p.y == GROUND - 2 { 0.5 } else { 1.0 };
        assert_eq!(new.occupancy_f32(), expect, "{p:?}");
    }
    let cleared = apply_sea_level(&mut w.grid, &w.table, region, 0.0, SeaLevelMode::Clear);
    assert_eq!(cleared, Some(changed));
    assert_eq!(w.grid, before);
    // The brush form: level at the dab centre, inside the brush box.
    let mut tool = Tool::new(ToolKind::SeaLevel, 0);
    let b = w
        .dab(
            &tool,
            &Brush::new(BrushShape::Cube, 4.0, 1.0),
            [0.0, level, 0.0],
        )
        .expect("fills");
    assert!(b.min.y >= GROUND - 5 && b.max.y as f32 <= level + 1.0);
    tool.sea_level_mode = SeaLevelMode::Clear;
    w.dab(
        &tool,
        &Brush::new(BrushShape::Cube, 4.0, 1.0),
        [0.0, level, 0.0],
    )
    .expect("clears");
    assert_eq!(w.grid, before);
}

#[test]
fn sculpting_leaves_water_alone_unless_it_builds_there() {
    let mut w = World::flat();
    let lake = VoxelBox::new(
        VoxelPos::new(-24, GROUND, -24),
        VoxelPos::new(24, GROUND + 4, 24),
    );
    w.grid.fill_box(lake, Voxel::filled(w.water));
    let c = [0.0, GROUND as f32 + 2.0, 0.0];
    let brush = Brush::new(BrushShape::Sphere, 6.0, 1.0);
    assert_eq!(
        w.dab(
            &Tool::new(ToolKind::Subtract, 0),
            &brush,
            [0.0, GROUND as f32 + 20.0, 0.0]
        ),
        None
    );
    w.dab(&Tool::new(ToolKind::Add, w.sand), &brush, c)
        .expect("builds in water");
    assert_eq!(
        w.grid.get(VoxelPos::new(0, GROUND + 2, 0)),
        Voxel::filled(w.sand)
    );
    w.dab(&Tool::new(ToolKind::Subtract, 0), &brush, c)
        .expect("digs");
    // Dug-out sand becomes air, not water; water beyond the brush is untouched.
    assert!(w.grid.get(VoxelPos::new(0, GROUND + 2, 0)).is_air());
    assert_eq!(
        w.grid.get(VoxelPos::new(10, GROUND + 2, 0)),
        Voxel::filled(w.water)
    );
}

#[test]
fn plane_lock_keeps_dabs_on_the_plane() {
    let tool_of = |w: &World| Tool::new(ToolKind::Add, w.grass);
    let mut locked = World::flat();
    let mut free = World::flat();
    let mut brush = Brush::new(BrushShape::Sphere, 8.0, 1.0);
    let free_box = free.dab(&tool_of(&free), &brush, [1.0, 18.0, 2.0]);
    brush.plane_lock = Some(Plane::horizontal(18.0));
    let locked_box = locked.dab(&tool_of(&locked), &brush, [1.0, 31.0, 2.0]);
    assert_eq!(locked_box, free_box);
    assert_eq!(locked.grid, free.grid);
}

#[test]
fn shapes_cover_their_volumes() {
    for (shape, full) in [
        (BrushShape::Cube, 8 * 8 * 8),
        (BrushShape::Cylinder, 0),
        (BrushShape::Sphere, 0),
    ] {
        let mut w = World::flat();
        let c = [0.0, 36.0, 0.0];
        w.dab(
            &Tool::new(ToolKind::Add, w.rock),
            &Brush::new(shape, 8.0, 1.0),
            c,
        )
        .expect("adds");
        let total: f32 = voxels(&w.grid)
            .filter(|(p, _)| p.y > 24)
            .map(|(_, v)| v.occupancy_f32())
            .sum();
        let volume = match shape {
            BrushShape::Cube => 512.0,
            BrushShape::Cylinder => std::f32::consts::PI * 16.0 * 8.0,
            BrushShape::Sphere => 4.0 / 3.0 * std::f32::consts::PI * 64.0,
        };
        assert!(
            (total - volume).abs() < volume * 0.06,
            "{shape:?}: {total} vs {volume}"
        );
        let full_count = voxels(&w.grid)
            .filter(|(p, v)| p.y > 24 && v.occupancy == 255)
            .count();
        if full > 0 {
            assert_eq!(full_count, full);
        }
    }
}

#[test]
fn bad_input_changes_nothing() {
    let mut w = World::flat();
    let brush = Brush::default();
    for m in [0, w.water, 60] {
        assert_eq!(
            w.dab(&Tool::new(ToolKind::Add, m), &brush, [0.0, 16.0, 0.0]),
            None
        );
    }
    for c in [[f32::NAN, 0.0, 0.0], [0.0, f32::INFINITY, 0.0]] {
        assert_eq!(w.dab(&Tool::new(ToolKind::Subtract, 0), &brush, c), None);
    }
    let mut tool = Tool::new(ToolKind::Replace, 60);
    tool.source_material = w.rock;
    assert_eq!(w.dab(&tool, &brush, [0.0, 16.0, 0.0]), None);
    assert_eq!(
        apply_sea_level(&mut w.grid, &w.table, space(), f32::NAN, SeaLevelMode::Fill),
        None
    );
    // Sizes and strengths out of range act clamped.
    let huge = Brush {
        size: 1e9,
        strength: 50.0,
        ..Brush::default()
    };
    let b = w
        .dab(&Tool::new(ToolKind::Subtract, 0), &huge, [0.0, 16.0, 0.0])
        .expect("carves");
    assert!(b.size().iter().all(|&s| s <= 65));
}

#[test]
fn no_brush_changes_voxels_below_the_floor() {
    let mut w = World::flat();
    let brush = Brush {
        floor_y: Some(1),
        ..Brush::new(BrushShape::Sphere, 40.0, 1.0)
    };
    let layer = |g: &Grid| {
        g.read_box_vec(VoxelBox::new(
            VoxelPos::new(-24, 0, -24),
            VoxelPos::new(24, 1, 24),
        ))
    };
    let bottom = layer(&w.grid);
    for kind in [
        ToolKind::Subtract,
        ToolKind::Erode,
        ToolKind::Smooth,
        ToolKind::Flatten,
    ] {
        for _ in 0..4 {
            w.dab(&Tool::new(kind, w.rock), &brush, [0.0, 2.0, 0.0]);
        }
        assert_eq!(layer(&w.grid), bottom, "{kind:?} changed the bottom layer");
    }
    assert!(
        w.grid.get(VoxelPos::new(0, 4, 0)).is_air(),
        "voxels above the floor were carved"
    );
    let buried = Brush {
        floor_y: Some(100),
        ..brush
    };
    assert_eq!(
        w.dab(&Tool::new(ToolKind::Subtract, 0), &buried, [0.0, 2.0, 0.0]),
        None
    );
}
