//! Boxes narrow enough for row bit sets (at most 64 samples along X) but taller than 64 rows take
//! the row-by-row paths: needed rows as one flag per row in the density fill, and every cell row
//! and edge row tested in turn by the vertex and quad passes, where shorter boxes read the bit sets
//! of `needed_rows`. Chunk boxes (36 samples a side) never take them, so this test meshes whole
//! columns of a world and compares their triangles with the chunk meshes'.

use super::mesh_tests::{candidate_chunks, chunk_triangles, pool_world, triangles, Tri};
use super::*;
use crate::voxel::{MaterialTable, VoxelBox, VoxelPos};

/// The triangles of every chunk of `grid` meshed as one column box per chunk column (X and Z one
/// chunk, Y every chunk that can own surface), asserting that each box is narrow and tall.
fn column_triangles(
    grid: &crate::storage::Grid,
    table: &MaterialTable,
    solid: &mut Vec<Tri>,
    water: &mut Vec<Tri>,
) -> usize {
    let chunks = candidate_chunks(grid);
    let (y0, y1) = chunks.iter().fold((i32::MAX, i32::MIN), |(lo, hi), p| {
        (lo.min(p.y), hi.max(p.y))
    });
    let mut columns: Vec<(i32, i32)> = chunks.iter().map(|p| (p.x, p.z)).collect();
    columns.sort_unstable();
    columns.dedup();
    let mut buf = MeshBuffer::new();
    for &(x, z) in &columns {
        let core = VoxelBox::new(
            VoxelPos::new(x * 32, y0 * 32, z * 32),
            VoxelPos::new(x * 32 + 32, y1 * 32 + 32, z * 32 + 32),
        );
        let b = MeshInput::padded_box(core);
        let [nx, ny, _] = b.size();
        assert!(
            nx <= 64 && ny > 64,
            "box {nx}×{ny} does not take the tall paths"
        );
        let voxels = grid.read_box_vec(b);
        mesh(&MeshInput::new(&voxels, b.size(), b.min), table, &mut buf);
        buf.assert_valid();
        triangles(&buf, &buf.solid_indices, solid);
        triangles(&buf, &buf.water_indices, water);
    }
    columns.len()
}

#[test]
fn tall_narrow_boxes_mesh_as_their_chunks() {
    let table = MaterialTable::builtin();
    let grid = pool_world();
    let (mut solid, mut water) = chunk_triangles(&grid, &table);
    let (mut solid_tall, mut water_tall) = (Vec::new(), Vec::new());
    let columns = column_triangles(&grid, &table, &mut solid_tall, &mut water_tall);
    for v in [&mut solid, &mut water, &mut solid_tall, &mut water_tall] {
        v.sort_unstable();
    }
    assert!(columns > 4 && solid.len() > 1000 && water.len() > 100);
    assert_eq!(
        solid, solid_tall,
        "tall column and chunk solid meshes differ"
    );
    assert_eq!(
        water, water_tall,
        "tall column and chunk water meshes differ"
    );
}
