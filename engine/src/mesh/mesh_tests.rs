//! Mesher tests: seams, watertightness, shaping, water, fast exits and LOD (exports: `export_tests`).

use std::collections::BTreeMap;
use std::time::Instant;

use super::input::{gather_chunk, is_trivial};
use super::weld::Welded;
use super::*;
use crate::gen::{generate, GeneratorSettings, Preset};
use crate::progress::Progress;
use crate::storage::Grid;
use crate::voxel::{ChunkPos, MaterialTable, Voxel, VoxelBox, VoxelPos};

pub(super) fn world(preset: Preset, size: [u32; 3], seed: u32) -> Grid {
    let settings = GeneratorSettings { preset, size, seed };
    generate(&settings, &MaterialTable::builtin(), &Progress::new()).expect("generates")
}

pub(super) type Tri = [[u32; 3]; 3];

/// A triangle as position bits, rotated so its smallest corner comes first (winding kept).
fn canonical(buf: &MeshBuffer, tri: &[u32]) -> Tri {
    let p = |k: usize| buf.positions[tri[k] as usize].map(f32::to_bits);
    let t = [p(0), p(1), p(2)];
    let first = (0..3).min_by_key(|&k| t[k]).unwrap_or(0);
    [t[first], t[(first + 1) % 3], t[(first + 2) % 3]]
}

pub(super) fn triangles(buf: &MeshBuffer, list: &[u32], out: &mut Vec<Tri>) {
    out.extend(list.chunks_exact(3).map(|t| canonical(buf, t)));
}

/// Every chunk that can own surface in `grid` (stored chunks and their −X/−Y/−Z neighbours).
pub(super) fn candidate_chunks(grid: &Grid) -> Vec<ChunkPos> {
    let mut v: Vec<ChunkPos> = grid
        .chunks()
        .flat_map(|(p, _)| {
            [[0, 0, 0], [-1, 0, 0], [0, -1, 0], [0, 0, -1]]
                .map(|d| ChunkPos::new(p.x + d[0], p.y + d[1], p.z + d[2]))
        })
        .collect();
    v.sort_unstable_by_key(|p| (p.z, p.y, p.x));
    v.dedup();
    v
}

/// The whole stored world grown by one chunk, as one mesh input box.
pub(super) fn mesh_whole(grid: &Grid, table: &MaterialTable, buf: &mut MeshBuffer) {
    let mut bounds = VoxelBox::default();
    for (p, _) in grid.chunks() {
        bounds = bounds.union(&p.voxel_box());
    }
    let m = bounds.min;
    let core = VoxelBox::new(VoxelPos::new(m.x - 32, m.y - 32, m.z - 32), bounds.max);
    let b = MeshInput::padded_box(core);
    let voxels = grid.read_box_vec(b);
    mesh(&MeshInput::new(&voxels, b.size(), b.min), table, buf);
    buf.assert_valid();
}

/// A walled basin of water: rock walls and floor, water with a partial top layer, air above.
fn add_pool(grid: &mut Grid, table: &MaterialTable) {
    let water = table.require("Water").expect("water");
    let rock = Voxel::filled(table.require("Rock").expect("rock"));
    let b = |lo: [i32; 3], hi: [i32; 3]| VoxelBox::new(lo.into(), hi.into());
    grid.fill_box(b([20, 40, 20], [50, 48, 45]), rock);
    grid.fill_box(b([22, 42, 22], [48, 48, 43]), Voxel::AIR);
    grid.fill_box(b([22, 42, 22], [48, 45, 43]), Voxel::filled(water));
    grid.fill_box(b([22, 45, 22], [48, 46, 43]), Voxel::new(water, 200));
}

/// Islands (sea water, caves) with a basin of water reaching across chunk borders.
pub(super) fn pool_world() -> Grid {
    let table = MaterialTable::builtin();
    let mut grid = world(Preset::Islands, [80, 64, 72], 3);
    add_pool(&mut grid, &table);
    grid
}

/// The solid and water triangles of every chunk of `grid` meshed at full resolution, unsorted.
pub(super) fn chunk_triangles(grid: &Grid, table: &MaterialTable) -> (Vec<Tri>, Vec<Tri>) {
    let mut buf = MeshBuffer::new();
    let (mut solid, mut water) = (Vec::new(), Vec::new());
    for pos in candidate_chunks(grid) {
        mesh_chunk(grid, pos, 0, table, &mut buf).expect("meshes");
        buf.assert_valid();
        triangles(&buf, &buf.solid_indices, &mut solid);
        triangles(&buf, &buf.water_indices, &mut water);
    }
    (solid, water)
}

#[test]
fn chunked_mesh_equals_whole_box_mesh() {
    let table = MaterialTable::builtin();
    let grid = pool_world();
    let (mut solid, mut water) = chunk_triangles(&grid, &table);
    let mut buf = MeshBuffer::new();
    mesh_whole(&grid, &table, &mut buf);
    let (mut solid_one, mut water_one) = (Vec::new(), Vec::new());
    triangles(&buf, &buf.solid_indices, &mut solid_one);
    triangles(&buf, &buf.water_indices, &mut water_one);
    for v in [&mut solid, &mut water, &mut solid_one, &mut water_one] {
        v.sort_unstable();
    }
    assert!(solid.len() > 1000 && water.len() > 100);
    let mut dedup = solid.clone();
    dedup.dedup();
    assert_eq!(dedup.len(), solid.len(), "a face was emitted twice");
    assert_eq!(solid, solid_one, "chunked and whole-box solid differ");
    assert_eq!(water, water_one, "chunked and whole-box water differ");
}

#[test]
fn chunk_meshes_only_hold_vertices_their_triangles_use() {
    // Border cells whose crossings all belong to a neighbour's quads get no vertex; without that, a
    // quarter of a terrain chunk's vertices went unused. A cell's extra components (checkerboard
    // faces) may still go unused, so a tiny share remains; water vertices against ground are dropped
    // faces and do not count.
    let table = MaterialTable::builtin();
    let grid = world(Preset::Canyons, [96, 64, 64], 1);
    let mut buf = MeshBuffer::new();
    let (mut total, mut unused) = (0usize, 0usize);
    for pos in candidate_chunks(&grid) {
        for lod in [0, 1] {
            mesh_chunk(&grid, pos, lod, &table, &mut buf).expect("meshes");
            let mut used = vec![false; buf.vertex_count()];
            let lists = [&buf.solid_indices, &buf.water_indices, &buf.skirt_indices];
            for &i in lists.into_iter().flatten() {
                used[i as usize] = true;
            }
            for (m, used) in buf.materials.iter().zip(used) {
                if mesh_field::MaterialLut::class_in(&table, m[0]) != mesh_field::Class::Liquid {
                    total += 1;
                    unused += usize::from(!used);
                }
            }
        }
    }
    assert!(total > 10_000, "{total} vertices");
    assert!(unused * 1000 < total, "{unused} of {total} vertices unused");
}

/// Undirected edge use counts of a triangle list.
fn edge_counts(list: &[u32]) -> BTreeMap<(u32, u32), u32> {
    let mut m = BTreeMap::new();
    for t in list.chunks_exact(3) {
        for k in 0..3 {
            let (a, b) = (t[k], t[(k + 1) % 3]);
            *m.entry((a.min(b), a.max(b))).or_insert(0) += 1;
        }
    }
    m
}

/// Every edge is used by exactly two triangles, once in each direction (closed and consistently
/// oriented).
pub(super) fn assert_watertight(list: &[u32]) {
    let counts = edge_counts(list);
    let bad: Vec<_> = counts.iter().filter(|(_, &c)| c != 2).take(5).collect();
    assert!(bad.is_empty(), "edges not shared by two triangles: {bad:?}");
    let mut directed = BTreeMap::new();
    for t in list.chunks_exact(3) {
        for k in 0..3 {
            *directed.entry((t[k], t[(k + 1) % 3])).or_insert(0u32) += 1;
        }
    }
    assert!(directed.values().all(|&c| c == 1), "inconsistent winding");
}

#[test]
fn sealed_worlds_are_watertight() {
    let table = MaterialTable::builtin();
    let mut buf = MeshBuffer::new();
    for (preset, seed) in [(Preset::Canyons, 1), (Preset::Hills, 2)] {
        let grid = world(preset, [64, 64, 64], seed);
        mesh_whole(&grid, &table, &mut buf);
        assert!(buf.solid_indices.len() > 3000);
        assert_watertight(&buf.solid_indices);
    }
}

#[test]
fn welded_chunk_meshes_are_watertight_at_every_lod() {
    let table = MaterialTable::builtin();
    let grid = world(Preset::Canyons, [96, 64, 64], 1);
    let mut counts = Vec::new();
    for lod in 0..=MAX_LOD {
        let mut welded = Welded::new(&table);
        let mut buf = MeshBuffer::new();
        for pos in candidate_chunks(&grid) {
            mesh_chunk(&grid, pos, lod, &table, &mut buf).expect("meshes");
            buf.assert_valid();
            assert_eq!(
                buf.skirt_indices.is_empty(),
                lod == 0 || buf.solid_indices.is_empty()
            );
            welded.add(&buf);
        }
        assert_watertight(&welded.solid);
        counts.push(welded.solid.len() / 3);
    }
    assert!(
        counts.windows(2).all(|w| w[1] * 2 < w[0]),
        "LOD triangle counts {counts:?}"
    );
}

/// A 4×4×4 block of one material, meshed as one box.
fn block(material: &str) -> MeshBuffer {
    let table = MaterialTable::builtin();
    let mut grid = Grid::new();
    let id = table.require(material).expect("material");
    let b = VoxelBox::new(VoxelPos::new(0, 0, 0), VoxelPos::new(4, 4, 4));
    grid.fill_box(b, Voxel::filled(id));
    let pad = MeshInput::padded_box(VoxelBox::new(
        VoxelPos::new(-1, -1, -1),
        VoxelPos::new(5, 5, 5),
    ));
    let voxels = grid.read_box_vec(pad);
    let mut buf = MeshBuffer::new();
    mesh(
        &MeshInput::new(&voxels, pad.size(), pad.min),
        &table,
        &mut buf,
    );
    buf.assert_valid();
    assert_watertight(&buf.solid_indices);
    buf
}

#[test]
fn sharp_blocks_keep_corners_and_smooth_blocks_round_off() {
    // Sharp faces are flat to within the QEF's small pull toward the mass point.
    let near = |c: f32, t: f32| (c - t).abs() < 0.01;
    let on_face = |p: [f32; 3]| p.iter().any(|&c| near(c, 0.0) || near(c, 4.0));
    let is_corner = |p: [f32; 3]| p.iter().all(|&c| near(c, 0.0) || near(c, 4.0));
    let rock = block("Rock");
    assert!(
        rock.positions.iter().all(|&p| on_face(p)),
        "sharp faces are flat"
    );
    assert_eq!(rock.positions.iter().filter(|&&p| is_corner(p)).count(), 8);
    let grass = block("Grass");
    assert_eq!(grass.positions.iter().filter(|&&p| is_corner(p)).count(), 0);
    assert!(
        grass.positions.iter().any(|&p| !on_face(p)),
        "smooth edges are rounded"
    );
    assert_eq!(rock.triangle_count(), grass.triangle_count());
}

#[test]
fn a_lone_voxel_is_not_its_cube_and_partial_matter_overflows() {
    let table = MaterialTable::builtin();
    let grass = table.require("Grass").expect("grass");
    let mut grid = Grid::new();
    grid.set(VoxelPos::new(5, 5, 5), Voxel::filled(grass));
    let mut buf = MeshBuffer::new();
    mesh_chunk(&grid, ChunkPos::new(0, 0, 0), 0, &table, &mut buf).expect("meshes");
    assert_eq!(buf.vertex_count(), 8);
    assert!(buf.positions.iter().flatten().all(|&c| c > 5.0 && c < 6.0));
    // A full floor under a quarter-full layer: the surface rises past the floor's top face (y = 6)
    // into the partial layer, at 5.5 + 0.5 / 0.75.
    let floor = VoxelBox::new(VoxelPos::new(0, 0, 0), VoxelPos::new(32, 6, 32));
    grid.fill_box(floor, Voxel::filled(grass));
    let layer = VoxelBox::new(VoxelPos::new(0, 6, 0), VoxelPos::new(32, 7, 32));
    grid.fill_box(layer, Voxel::new(grass, 63));
    mesh_chunk(&grid, ChunkPos::new(0, 0, 0), 0, &table, &mut buf).expect("meshes");
    let top = buf.positions.iter().map(|p| p[1]).fold(0.0f32, f32::max);
    assert!((top - (5.5 + 0.5 / 0.75)).abs() < 1e-5, "top {top}");
}

#[test]
fn water_is_its_own_sheet_without_faces_against_ground() {
    let table = MaterialTable::builtin();
    let mut grid = Grid::new();
    add_pool(&mut grid, &table);
    let mut buf = MeshBuffer::new();
    mesh_whole(&grid, &table, &mut buf);
    let water = table.require("Water").expect("water");
    assert!(buf.water_indices.len() > 300);
    for t in buf.water_indices.chunks_exact(3) {
        assert!(t.iter().all(|&v| buf.materials[v as usize][0] == water));
        let [a, b, c] = [0, 1, 2].map(|k| buf.positions[t[k] as usize]);
        let (u, v) = (
            [b[0] - a[0], b[1] - a[1], b[2] - a[2]],
            [c[0] - a[0], c[1] - a[1], c[2] - a[2]],
        );
        let ny = u[2] * v[0] - u[0] * v[2];
        assert!(ny >= 0.0, "a water face points down into the basin");
    }
    let solid_set: std::collections::HashSet<u32> = buf.solid_indices.iter().copied().collect();
    assert!(buf.water_indices.iter().all(|v| !solid_set.contains(v)));
}

#[test]
fn material_borders_blend() {
    let table = MaterialTable::builtin();
    let (rock, sand) = (
        table.require("Rock").expect("r"),
        table.require("Sand").expect("s"),
    );
    let mut grid = Grid::new();
    grid.fill_box(
        VoxelBox::new(VoxelPos::new(0, 0, 0), VoxelPos::new(8, 8, 16)),
        Voxel::filled(rock),
    );
    grid.fill_box(
        VoxelBox::new(VoxelPos::new(0, 0, 8), VoxelPos::new(8, 8, 16)),
        Voxel::filled(sand),
    );
    let mut buf = MeshBuffer::new();
    mesh_chunk(&grid, ChunkPos::new(0, 0, 0), 0, &table, &mut buf).expect("meshes");
    let mixed = (0..buf.vertex_count())
        .filter(|&i| buf.weights[i][1] > 0)
        .inspect(|&i| {
            let mut ids = [buf.materials[i][0], buf.materials[i][1]];
            ids.sort_unstable();
            assert_eq!(ids, [sand.min(rock), sand.max(rock)]);
        })
        .count();
    assert!(mixed > 8, "no blended vertices along the border");
}

#[test]
fn trivial_chunks_are_really_empty_and_fast() {
    let table = MaterialTable::builtin();
    let grid = world(Preset::Canyons, [96, 96, 64], 1);
    let mut buf = MeshBuffer::new();
    let mut voxels = Vec::new();
    let (mut trivial, mut checked) = (0, 0);
    for z in -1..3 {
        for y in -1..4 {
            for x in -1..4 {
                let pos = ChunkPos::new(x, y, z);
                if !is_trivial(&grid, pos, &table) {
                    continue;
                }
                trivial += 1;
                for lod in [0, 2] {
                    let size = gather_chunk(&grid, pos, lod, &mut voxels);
                    let min = pos.min_voxel();
                    let b = (BORDER << lod) as i32;
                    let origin = VoxelPos::new(min.x - b, min.y - b, min.z - b);
                    mesh(
                        &MeshInput::with_lod(&voxels, size, origin, lod),
                        &table,
                        &mut buf,
                    );
                    assert!(
                        buf.is_empty(),
                        "trivial chunk {pos:?} has a surface at LOD {lod}"
                    );
                    checked += 1;
                }
            }
        }
    }
    assert!(trivial >= 10 && checked > 0);
    let mut deep_grid = grid.clone();
    let rock = Voxel::filled(table.require("Rock").expect("rock"));
    let far = VoxelBox::new(VoxelPos::new(320, 0, 0), VoxelPos::new(416, 96, 96));
    deep_grid.fill_box(far, rock);
    let deep = ChunkPos::new(11, 1, 1);
    assert!(is_trivial(&deep_grid, deep, &table));
    let grid = deep_grid;
    for pos in [ChunkPos::new(0, 3, 0), deep] {
        let n = 20_000;
        let start = Instant::now();
        for _ in 0..n {
            mesh_chunk(&grid, pos, 0, &table, &mut buf).expect("meshes");
        }
        let each = start.elapsed().as_secs_f64() / f64::from(n);
        assert!(buf.is_empty());
        // The bench measures the real figure; this bound only catches a lost fast path.
        assert!(each < 5e-6, "fast exit took {each:e} s");
    }
}

#[test]
fn lod_above_three_is_an_error() {
    let mut buf = MeshBuffer::new();
    let r = mesh_chunk(
        &Grid::new(),
        ChunkPos::new(0, 0, 0),
        4,
        &MaterialTable::builtin(),
        &mut buf,
    );
    assert!(matches!(r, Err(crate::Error::Invalid(_))));
}
