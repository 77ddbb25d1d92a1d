//! Flatten cuts everything above its plane inside the brush's column, whatever the brush shape: a
//! sphere on the flank of a hill taller than itself leaves a plateau, not a shelf under a mushroom
//! cap. Checked on the voxels and on the mesh.

use super::brush::{Brush, BrushShape};
use super::tool::{FlattenMode, Tool, ToolKind};
use super::tools_tests::World;
use crate::mesh::{mesh_chunk, MeshBuffer};
use crate::storage::Grid;
use crate::voxel::{Voxel, VoxelBox, VoxelPos};

/// Ground of `World::flat` ends below this height.
const GROUND: i32 = 16;

/// A cone 14 voxels tall and 14 wide at the base on the flat ground, centred on the Y axis.
fn hill(w: &mut World) {
    for z in -14..=14 {
        for x in -14..=14 {
            let d = ((x * x + z * z) as f32).sqrt();
            let top = GROUND + (14.0 - d).max(0.0) as i32;
            if top > GROUND {
                w.grid.fill_box(
                    VoxelBox::new(
                        VoxelPos::new(x, GROUND, z),
                        VoxelPos::new(x + 1, top, z + 1),
                    ),
                    Voxel::filled(w.rock),
                );
            }
        }
    }
}

/// Every non-Air voxel whose centre lies more than half a voxel above `plane_y` and within
/// `radius` of the vertical axis through (`ax`, `az`).
fn above(g: &Grid, plane_y: f32, ax: f32, az: f32, radius: f32) -> Vec<VoxelPos> {
    let mut out = Vec::new();
    for z in -20..20 {
        for y in GROUND..GROUND + 20 {
            for x in -20..20 {
                let (dx, dz) = (x as f32 + 0.5 - ax, z as f32 + 0.5 - az);
                let inside = (dx * dx + dz * dz).sqrt() <= radius;
                let p = VoxelPos::new(x, y, z);
                if inside && y as f32 + 0.5 > plane_y + 0.5 && !g.get(p).is_air() {
                    out.push(p);
                }
            }
        }
    }
    out
}

/// Flatten `dabs` times with `shape` at the hill's flank; returns the world, the plane height and
/// the dab centre.
fn flatten_flank(shape: BrushShape, mode: FlattenMode, dabs: usize) -> (World, f32, [f32; 3]) {
    let mut w = World::flat();
    hill(&mut w);
    let mut tool = Tool::new(ToolKind::Flatten, w.grass);
    tool.flatten_mode = mode;
    let brush = Brush::new(shape, 12.0, 0.5);
    let c = [5.0, GROUND as f32 + 4.0, 0.0];
    for _ in 0..dabs {
        w.dab(&tool, &brush, c);
    }
    (w, c[1], c)
}

#[test]
fn a_sphere_flattens_a_hill_taller_than_itself_to_a_plateau() {
    for shape in [BrushShape::Sphere, BrushShape::Cube, BrushShape::Cylinder] {
        let (w, plane, c) = flatten_flank(shape, FlattenMode::Both, 10);
        // The hill rises to y = 30 here, far above the brush's own reach (y = 26).
        let core = above(&w.grid, plane, c[0], c[2], 3.0);
        assert!(
            core.is_empty(),
            "{shape:?} left matter above the plane: {core:?}"
        );
        // Toward the rim the falloff softens the cut, but nothing is left standing at full height.
        for p in above(&w.grid, plane, c[0], c[2], 5.0) {
            assert!(w.grid.get(p).occupancy < 255, "{shape:?}: {p:?} untouched");
        }
    }
}

#[test]
fn the_plateau_is_flat_on_the_mesh() {
    let (w, plane, c) = flatten_flank(BrushShape::Sphere, FlattenMode::Both, 10);
    let mut buf = MeshBuffer::default();
    let region = VoxelBox::new(VoxelPos::new(-32, 0, -32), VoxelPos::new(32, 64, 32));
    let mut in_core = 0;
    for chunk in region.chunks() {
        mesh_chunk(&w.grid, chunk, 0, &w.table, &mut buf).expect("LOD 0 exists");
        for &i in &buf.solid_indices {
            let v = buf.positions[i as usize];
            let (dx, dz) = (v[0] - c[0], v[2] - c[2]);
            if (dx * dx + dz * dz).sqrt() < 4.5 {
                in_core += 1;
                assert!(
                    (v[1] - plane).abs() < 0.6,
                    "a surface at {v:?} inside the column, plane at {plane}"
                );
            }
        }
    }
    assert!(in_core > 0, "the plateau has a surface");
}

#[test]
fn fill_only_flatten_leaves_what_is_above_the_plane() {
    let (w, plane, c) = flatten_flank(BrushShape::Sphere, FlattenMode::Grow, 4);
    let mut before = World::flat();
    hill(&mut before);
    let kept = above(&before.grid, plane, c[0], c[2], 5.0);
    assert!(!kept.is_empty());
    for p in kept {
        assert_eq!(w.grid.get(p), before.grid.get(p), "{p:?}");
    }
}
