//! kD tree benches on chunk meshes of the 256×128×256 `canyons` world (seed 1), against parry3d.
//!
//! Meshes come from the strata mesher (LOD 0, solid triangles): 32³ storage chunks through
//! `mesh_chunk`, and 8³ physics cells through `mesh` on their 12³ padded box.
//!
//! - Build time against `parry3d::shape::TriMesh::new` on the same meshes (parry gets its vertex and
//!   index vectors prepared outside the timing and cloned inside it, because it takes ownership), and
//!   against the time the mesher takes for the same chunks.
//! - Bytes per triangle: the tree's nodes and struct, parry's BVH, and (8³ set) the physics cell
//!   shapes as the cache stores them: compact 16-bit mesh with material bytes plus tree, solid and
//!   water. The bench meshes themselves (`f32` positions, `u32` indices) are printed for comparison.
//! - Closest-hit raycasts per second against parry's `cast_local_ray` on the same meshes and rays
//!   (random rays through each mesh's bounds, as in the agreement tests), and the nodes a ray's walk
//!   takes in hand (`KdTree::raycast_counted`), the tree shape's share of a ray's cost.
//!
//! Ratios are printed once (best of several interleaved rounds) before the criterion groups.
//! `STRATA_KDTREE_PROFILE=ours|parry` (optionally `STRATA_KDTREE_SET=8³|32³`) casts the rays once
//! with one side and exits, for `valgrind --tool=callgrind --toggle-collect='*cast_ours*'`
//! (`STRATA_KDTREE_REPEAT=N` casts them `N` times, for `perf record`);
//! `STRATA_KDTREE_PROFILE=build` builds every tree once (`--toggle-collect='*build_ours*'`).

mod common;

use std::hint::black_box;
use std::time::Instant;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use parry3d::math::Vector;
use parry3d::query::{Ray as PRay, RayCast};
use parry3d::shape::TriMesh;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use strata_engine::mesh::{mesh, mesh_chunk, MeshBuffer, MeshInput};
use strata_engine::physics::kdtree::{BuildScratch, MeshRef, WalkCounts};
use strata_engine::physics::narrowphase::{CellShape, ShapeScratch};
use strata_engine::physics::{KdTree, Ray};
use strata_engine::storage::Grid;
use strata_engine::voxel::{ChunkPos, MaterialTable, VoxelBox, VoxelPos};

/// One chunk mesh in both libraries' input forms, plus the voxels the mesher needs.
struct BenchMesh {
    positions: Vec<[f32; 3]>,
    indices: Vec<u32>,
    parry_vertices: Vec<Vector>,
    parry_indices: Vec<[u32; 3]>,
    voxels: Vec<strata_engine::voxel::Voxel>,
    size: [usize; 3],
    origin: VoxelPos,
}

struct Set {
    name: &'static str,
    meshes: Vec<BenchMesh>,
    rays: Vec<Vec<Ray>>,
    /// Physics cell positions of the meshes (8³ set only).
    physics_cells: Vec<[i32; 3]>,
}

impl BenchMesh {
    /// The mesh as the kD tree reads it.
    fn mesh(&self) -> MeshRef<'_> {
        MeshRef::new(&self.positions, &self.indices)
    }
}

fn bench_mesh(buf: &MeshBuffer, core: VoxelBox, grid: &Grid) -> BenchMesh {
    let padded = MeshInput::padded_box(core);
    BenchMesh {
        positions: buf.positions.clone(),
        indices: buf.solid_indices.clone(),
        parry_vertices: buf
            .positions
            .iter()
            .map(|p| Vector::new(p[0], p[1], p[2]))
            .collect(),
        parry_indices: buf
            .solid_indices
            .chunks_exact(3)
            .map(|t| [t[0], t[1], t[2]])
            .collect(),
        voxels: grid.read_box_vec(padded),
        size: padded.size(),
        origin: padded.min,
    }
}

/// Up to `want` 32³ chunks with surface, spread evenly, and up to `want_small` 8³ cells inside them.
fn sets(grid: &Grid, table: &MaterialTable) -> (Set, Set) {
    let mut buf = MeshBuffer::new();
    let mut surface = Vec::new();
    for pos in grid.sorted_positions() {
        mesh_chunk(grid, pos, 0, table, &mut buf).expect("meshes");
        if !buf.solid_indices.is_empty() {
            surface.push(pos);
        }
    }
    let step = (surface.len() / 48).max(1);
    let picked: Vec<ChunkPos> = surface.iter().step_by(step).copied().collect();
    let mut big = Vec::new();
    let mut small = Vec::new();
    let mut physics_cells = Vec::new();
    for &pos in &picked {
        mesh_chunk(grid, pos, 0, table, &mut buf).expect("meshes");
        big.push(bench_mesh(&buf, pos.voxel_box(), grid));
        let o = pos.min_voxel();
        for i in 0..64 {
            let m = VoxelPos::new(o.x + (i % 4) * 8, o.y + (i / 4 % 4) * 8, o.z + (i / 16) * 8);
            let core = VoxelBox::from_min_size(m, [8, 8, 8]);
            let padded = MeshInput::padded_box(core);
            let voxels = grid.read_box_vec(padded);
            mesh(
                &MeshInput::new(&voxels, padded.size(), padded.min),
                table,
                &mut buf,
            );
            if !buf.solid_indices.is_empty() && small.len() < 1024 {
                small.push(bench_mesh(&buf, core, grid));
                physics_cells.push([m.x / 8, m.y / 8, m.z / 8]);
            }
        }
    }
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    let mut with_rays = |name, meshes: Vec<BenchMesh>, per: usize, physics_cells| {
        let rays = meshes.iter().map(|m| rays(&mut rng, m, per)).collect();
        Set {
            name,
            meshes,
            rays,
            physics_cells,
        }
    };
    (
        with_rays("8³", small, 64, physics_cells),
        with_rays("32³", big, 1024, Vec::new()),
    )
}

/// Seeded rays through a mesh's bounds, the distribution the agreement tests use: each starts at a
/// random point of the bounds grown by 3 voxels and aims either at a random point of a random triangle
/// or at a random point of the bounds. Both libraries cast the same rays.
fn rays(rng: &mut ChaCha8Rng, m: &BenchMesh, n: usize) -> Vec<Ray> {
    let tree = KdTree::build(&m.mesh()).expect("builds");
    let (lo, hi) = tree.bounds();
    (0..n)
        .map(|i| {
            let origin: [f32; 3] =
                std::array::from_fn(|a| rng.random_range(lo[a] - 3.0..hi[a] + 3.0));
            let target: [f32; 3] = if i % 2 == 0 {
                let t = rng.random_range(0..m.indices.len() / 3);
                let [a, b, c] = [0, 1, 2].map(|k| m.positions[m.indices[t * 3 + k] as usize]);
                let (u, v): (f32, f32) = (rng.random(), rng.random());
                let (u, v) = if u + v > 1.0 {
                    (1.0 - u, 1.0 - v)
                } else {
                    (u, v)
                };
                std::array::from_fn(|k| a[k] + u * (b[k] - a[k]) + v * (c[k] - a[k]))
            } else {
                std::array::from_fn(|a| rng.random_range(lo[a]..=hi[a]))
            };
            let dir: [f32; 3] = std::array::from_fn(|k| target[k] - origin[k]);
            let len = dir.iter().map(|d| d * d).sum::<f32>().sqrt().max(1e-6);
            Ray {
                origin,
                dir: dir.map(|d| d / len),
            }
        })
        .collect()
}

#[inline(never)]
fn build_ours(set: &Set, tree: &mut KdTree, scratch: &mut BuildScratch) -> usize {
    let mut nodes = 0;
    for m in &set.meshes {
        tree.rebuild(&m.mesh(), scratch).expect("builds");
        nodes += tree.nodes().len();
    }
    nodes
}

/// Every mesh of `set` built once by each library, for the raycast sides.
fn built(set: &Set) -> (Vec<KdTree>, Vec<TriMesh>) {
    let trees = set
        .meshes
        .iter()
        .map(|m| KdTree::build(&m.mesh()).expect("builds"))
        .collect();
    let pmeshes = set
        .meshes
        .iter()
        .map(|m| TriMesh::new(m.parry_vertices.clone(), m.parry_indices.clone()).expect("builds"))
        .collect();
    (trees, pmeshes)
}

fn build_parry(set: &Set) -> usize {
    let mut n = 0;
    for m in &set.meshes {
        let t = TriMesh::new(m.parry_vertices.clone(), m.parry_indices.clone()).expect("builds");
        n += t.num_triangles();
    }
    n
}

fn mesh_all(set: &Set, table: &MaterialTable, buf: &mut MeshBuffer) -> usize {
    let mut n = 0;
    for m in &set.meshes {
        mesh(&MeshInput::new(&m.voxels, m.size, m.origin), table, buf);
        n += buf.triangle_count();
    }
    n
}

#[inline(never)]
fn cast_ours(set: &Set, trees: &[KdTree]) -> usize {
    let mut hits = 0;
    for ((m, tree), rays) in set.meshes.iter().zip(trees).zip(&set.rays) {
        for r in rays {
            hits += usize::from(tree.raycast(&m.mesh(), r, 1000.0).is_some());
        }
    }
    hits
}

#[inline(never)]
fn cast_parry(set: &Set, meshes: &[TriMesh]) -> usize {
    let mut hits = 0;
    for ((mesh, rays), _) in meshes.iter().zip(&set.rays).zip(&set.meshes) {
        for r in rays {
            let pr = PRay::new(
                Vector::new(r.origin[0], r.origin[1], r.origin[2]),
                Vector::new(r.dir[0], r.dir[1], r.dir[2]),
            );
            hits += usize::from(mesh.cast_local_ray(&pr, 1000.0, true).is_some());
        }
    }
    hits
}

/// Best wall time of each closure over `runs` rounds, in seconds. The closures take turns within each
/// round, so a burst of load from other processes hits all of them alike.
fn best_of_each(runs: usize, fs: &mut [&mut dyn FnMut() -> usize]) -> Vec<f64> {
    let mut best = vec![f64::INFINITY; fs.len()];
    for _ in 0..runs {
        for (b, f) in best.iter_mut().zip(fs.iter_mut()) {
            let t = Instant::now();
            black_box(f());
            *b = b.min(t.elapsed().as_secs_f64());
        }
    }
    best
}

/// Bytes per triangle of the physics cells' stored shapes (compact mesh + tree): with the structs,
/// and the per-triangle arrays alone.
fn shape_bytes(grid: &Grid, table: &MaterialTable, cells: &[[i32; 3]]) -> Option<(f64, f64)> {
    let mut scratch = ShapeScratch::default();
    let (mut all, mut arrays, mut tris) = (0, 0, 0);
    for &pos in cells {
        let shape = CellShape::build(grid, table, pos, &mut scratch).expect("builds");
        all += shape.memory_bytes();
        arrays += shape.mesh.vertex_count() * 7
            + shape.triangle_count() * 4
            + shape.tree.nodes().len() * 12;
        tris += shape.triangle_count();
    }
    (tris > 0).then(|| (all as f64 / tris as f64, arrays as f64 / tris as f64))
}

fn figures(set: &Set, grid: &Grid, table: &MaterialTable) {
    let tris: usize = set.meshes.iter().map(|m| m.indices.len() / 3).sum();
    let verts: usize = set.meshes.iter().map(|m| m.positions.len()).sum();
    let mut tree = KdTree::new();
    let mut scratch = BuildScratch::default();
    let mut buf = MeshBuffer::new();
    let t = best_of_each(
        9,
        &mut [
            &mut || build_ours(set, &mut tree, &mut scratch),
            &mut || build_parry(set),
            &mut || mesh_all(set, table, &mut buf),
        ],
    );
    let (ours, parry, meshing) = (t[0], t[1], t[2]);
    let (trees, pmeshes) = built(set);
    let tree_bytes: usize = trees.iter().map(KdTree::memory_bytes).sum();
    let node_bytes: usize = trees.iter().map(|t| t.nodes().len() * 12).sum();
    let mesh_bytes = verts * 12 + tris * 12;
    let parry_bvh: usize = pmeshes.iter().map(|m| m.bvh().total_memory_size()).sum();
    let nrays: usize = set.rays.iter().map(Vec::len).sum();
    let shapes = shape_bytes(grid, table, &set.physics_cells);
    let hits = cast_ours(set, &trees);
    let t = best_of_each(
        7,
        &mut [&mut || cast_ours(set, &trees), &mut || {
            cast_parry(set, &pmeshes)
        }],
    );
    let (ray_ours, ray_parry) = (t[0], t[1]);
    let t = tris as f64;
    println!(
        "kdtree {} chunks: {} meshes, {tris} triangles ({:.0} per mesh)",
        set.name,
        set.meshes.len(),
        t / set.meshes.len() as f64
    );
    println!(
        "  build: strata {:.3} ms, parry TriMesh::new {:.3} ms -> strata {:.2}x faster; meshing {:.3} ms -> build/mesh {:.2}x",
        ours * 1e3,
        parry * 1e3,
        parry / ours,
        meshing * 1e3,
        ours / meshing
    );
    println!(
        "  memory per triangle: nodes {:.2} B, tree incl. struct {:.2} B, parry BVH {:.2} B; bench mesh (f32 positions + u32 indices) {:.2} B, bench mesh + nodes {:.2} B",
        node_bytes as f64 / t,
        tree_bytes as f64 / t,
        parry_bvh as f64 / t,
        mesh_bytes as f64 / t,
        (mesh_bytes + node_bytes) as f64 / t,
    );
    if let Some((all, arrays)) = shapes {
        println!(
            "  physics cell shapes (16-bit quad mesh + material byte + tree) per triangle: {all:.2} B with structs, {arrays:.2} B arrays only",
        );
    }
    println!(
        "  closest-hit raycast: {nrays} rays ({hits} hits): strata {:.2} Mrays/s, parry {:.2} Mrays/s -> {:.2}x",
        nrays as f64 / ray_ours / 1e6,
        nrays as f64 / ray_parry / 1e6,
        ray_parry / ray_ours
    );
    let (trees, _) = built(set);
    let c = walk_counts(set, &trees);
    println!(
        "  nodes per ray: {:.2} ({:.2} branches, {:.2} leaves); deepest tree {}",
        (c.branches + c.leaves) as f64 / nrays as f64,
        c.branches as f64 / nrays as f64,
        c.leaves as f64 / nrays as f64,
        trees.iter().map(KdTree::depth).max().unwrap_or(0)
    );
}

/// The nodes the closest-hit walks of every ray of `set` take in hand, summed.
fn walk_counts(set: &Set, trees: &[KdTree]) -> WalkCounts {
    let mut counts = WalkCounts::default();
    for ((m, tree), rays) in set.meshes.iter().zip(trees).zip(&set.rays) {
        for r in rays {
            tree.raycast_counted(&m.mesh(), r, 1000.0, &mut counts);
        }
    }
    counts
}

fn bench(c: &mut Criterion) {
    let grid = common::canyons(common::timing_size());
    let table = MaterialTable::builtin();
    let (small, big) = sets(&grid, &table);
    if let Ok(which) = std::env::var("STRATA_KDTREE_PROFILE") {
        let pick = std::env::var("STRATA_KDTREE_SET").unwrap_or_default();
        for set in [&small, &big] {
            if !pick.is_empty() && pick != set.name {
                continue;
            }
            if which == "build" {
                let mut tree = KdTree::new();
                let mut scratch = BuildScratch::default();
                let nodes = build_ours(set, &mut tree, &mut scratch);
                println!("{} build: {nodes} nodes", set.name);
                continue;
            }
            let (trees, pmeshes) = built(set);
            let nrays: usize = set.rays.iter().map(Vec::len).sum();
            let repeat = std::env::var("STRATA_KDTREE_REPEAT")
                .ok()
                .and_then(|v| v.parse::<usize>().ok())
                .unwrap_or(1);
            let mut hits = 0;
            for _ in 0..repeat {
                hits = if which == "parry" {
                    cast_parry(set, &pmeshes)
                } else {
                    cast_ours(set, &trees)
                };
            }
            println!("{} {which}: {nrays} rays, {hits} hits", set.name);
        }
        return;
    }
    for set in [&small, &big] {
        figures(set, &grid, &table);
    }
    for set in [&small, &big] {
        let tris: usize = set.meshes.iter().map(|m| m.indices.len() / 3).sum();
        let mut g = c.benchmark_group(format!("kdtree_build_{}", set.name));
        g.sample_size(10);
        g.throughput(Throughput::Elements(tris as u64));
        let mut tree = KdTree::new();
        let mut scratch = BuildScratch::default();
        g.bench_function("strata", |b| {
            b.iter(|| black_box(build_ours(set, &mut tree, &mut scratch)))
        });
        g.bench_function("parry3d", |b| b.iter(|| black_box(build_parry(set))));
        g.finish();
        let (trees, pmeshes) = built(set);
        let nrays: usize = set.rays.iter().map(Vec::len).sum();
        let mut g = c.benchmark_group(format!("kdtree_raycast_{}", set.name));
        g.sample_size(10);
        g.throughput(Throughput::Elements(nrays as u64));
        g.bench_function("strata", |b| b.iter(|| black_box(cast_ours(set, &trees))));
        g.bench_function("parry3d", |b| {
            b.iter(|| black_box(cast_parry(set, &pmeshes)))
        });
        g.finish();
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
