//! Mesher benches on the 256×128×256 `canyons` world (seed 1).
//!
//! - Triangles per second against `fast-surface-nets` on the same 32³ chunks. Both get their input
//!   prepared outside the timing: strata its 36³ voxel box (2-sample border: sharp normals take central
//!   differences one sample beyond a cell), fast-surface-nets the 34³ box one sample inside it
//!   (1-sample border) as signed distance `0.5 − occupancy` of solid matter, negative exactly where
//!   strata's solid field is inside. Strata converts voxels to densities, meshes solid and water,
//!   places sharp vertices and blends materials inside the timing; a second figure charges
//!   fast-surface-nets its own voxel → distance conversion too.
//! - Like with like. The two meshers split the world between chunks differently: strata's chunk owns
//!   the sign-changing edges whose *lower* sample lies in it, fast-surface-nets' chunk (`min = 0`,
//!   `max = 33`) those whose *upper* sample does. Both tile space, but a chunk list chosen by one of
//!   them is unfair to the other: the list used to hold the chunks where strata found a surface, which
//!   left out the chunks just past the world's high faces, where fast-surface-nets meshes the walls
//!   of those faces (it emitted 608 894 triangles to strata's 710 148 solid ones). The list is now every
//!   chunk where either mesher emits a triangle, both run on all of it, and the figures assert that
//!   strata's solid triangles equal fast-surface-nets' triangles exactly. Strata's triangle rate counts
//!   its water triangles too (they cost a second contouring pass).
//! - Timings are the best of interleaved runs (strata, then fast-surface-nets, repeated), so load from
//!   other processes on a shared machine hits both alike.
//! - Mesh memory per triangle, the empty/full chunk fast exit, and whole-world times at LOD 0, at each
//!   coarser LOD, and with distance-based LOD.
//!
//! Figures are printed once before the criterion groups. With `STRATA_MESH_PROFILE=N` the bench only
//! meshes the surface chunks with strata `N` times and exits, for `perf record` or
//! `valgrind --tool=callgrind` (`cargo bench --bench mesh --no-run`, then run the printed binary
//! with `--bench`).

mod common;

use std::hint::black_box;
use std::time::Instant;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use fast_surface_nets::ndshape::ConstShape3u32;
use fast_surface_nets::{surface_nets, SurfaceNetsBuffer};
use strata_engine::mesh::{mesh, mesh_chunk, MeshBuffer, MeshInput};
use strata_engine::storage::Grid;
use strata_engine::voxel::{ChunkPos, MaterialTable, Voxel, VoxelBox, VoxelPos, FACE_OFFSETS};

type FsnShape = ConstShape3u32<34, 34, 34>;

struct Inputs {
    grid: Grid,
    table: MaterialTable,
    /// Chunks with a surface: (origin of the padded box, 36³ voxels, 34³ sdf).
    chunks: Vec<(VoxelPos, Vec<Voxel>, Vec<f32>)>,
    /// Every chunk position that can own surface.
    all: Vec<ChunkPos>,
}

fn inputs() -> Inputs {
    let grid = common::canyons(common::timing_size());
    let table = MaterialTable::builtin();
    // Every chunk that can own a surface edge for either mesher: the stored chunks and their six
    // neighbours (strata owns edges by their lower sample, fast-surface-nets by their upper one, so
    // the walls at the world's low faces sit in strata's chunks at −1 and those at its high faces in
    // fast-surface-nets' chunks at +1).
    let mut all: Vec<ChunkPos> = grid
        .chunks()
        .flat_map(|(p, _)| {
            std::iter::once([0, 0, 0])
                .chain(FACE_OFFSETS)
                .map(move |d| ChunkPos::new(p.x + d[0], p.y + d[1], p.z + d[2]))
        })
        .collect();
    all.sort_unstable_by_key(|p| (p.z, p.y, p.x));
    all.dedup();
    let mut buf = MeshBuffer::new();
    let mut fbuf = SurfaceNetsBuffer::default();
    let mut chunks = Vec::new();
    let liquid = liquid_flags(&table);
    for &pos in &all {
        let b = MeshInput::padded_box(pos.voxel_box());
        let voxels = grid.read_box_vec(b);
        let mut sdf = Vec::new();
        fsn_input(&voxels, &liquid, &mut sdf);
        mesh(&MeshInput::new(&voxels, [36; 3], b.min), &table, &mut buf);
        surface_nets(&sdf, &FsnShape {}, [0; 3], [33; 3], &mut fbuf);
        if buf.is_empty() && fbuf.indices.is_empty() {
            continue;
        }
        chunks.push((b.min, voxels, sdf));
    }
    Inputs {
        grid,
        table,
        chunks,
        all,
    }
}

/// Liquid flag per material id (ids past the table are solid).
fn liquid_flags(table: &MaterialTable) -> Vec<bool> {
    table.materials.iter().map(|m| m.liquid).collect()
}

/// The fast-surface-nets input for strata's 36³ box, into `sdf`: the 34³ box one sample inside it,
/// as signed distance `0.5 − occupancy` of solid (non-liquid) matter, so it is negative exactly where
/// strata's solid field is inside.
fn fsn_input(voxels: &[Voxel], liquid: &[bool], sdf: &mut Vec<f32>) {
    sdf.clear();
    for z in 1..35 {
        for y in 1..35 {
            let row = &voxels[(z * 36 + y) * 36 + 1..(z * 36 + y) * 36 + 35];
            sdf.extend(row.iter().map(|v| {
                let solid = !v.is_air()
                    && !liquid
                        .get(usize::from(v.material))
                        .copied()
                        .unwrap_or(false);
                0.5 - if solid { v.occupancy_f32() } else { 0.0 }
            }));
        }
    }
}

/// Mesh every prepared chunk with strata; returns (solid, water) triangles.
fn run_strata(inp: &Inputs, buf: &mut MeshBuffer) -> (usize, usize) {
    let (mut solid, mut water) = (0, 0);
    for (origin, voxels, _) in &inp.chunks {
        mesh(&MeshInput::new(voxels, [36; 3], *origin), &inp.table, buf);
        solid += buf.solid_indices.len() / 3;
        water += buf.water_indices.len() / 3;
    }
    (solid, water)
}

/// Mesh every prepared chunk with fast-surface-nets; returns triangles.
fn run_fsn(inp: &Inputs, buf: &mut SurfaceNetsBuffer) -> usize {
    let mut tris = 0;
    for (_, _, sdf) in &inp.chunks {
        surface_nets(sdf, &FsnShape {}, [0; 3], [33; 3], buf);
        tris += buf.indices.len() / 3;
    }
    tris
}

/// Mesh every prepared chunk with fast-surface-nets, converting the voxels to its signed-distance
/// input first (what a pipeline starting from voxels pays); returns triangles.
fn run_fsn_from_voxels(inp: &Inputs, sdf: &mut Vec<f32>, buf: &mut SurfaceNetsBuffer) -> usize {
    let liquid = liquid_flags(&inp.table);
    let mut tris = 0;
    for (_, voxels, _) in &inp.chunks {
        fsn_input(voxels, &liquid, sdf);
        surface_nets(sdf, &FsnShape {}, [0; 3], [33; 3], buf);
        tris += buf.indices.len() / 3;
    }
    tris
}

/// Best of `reps` timings of `f`, in seconds, with its result.
fn best<T>(reps: usize, mut f: impl FnMut() -> T) -> (f64, T) {
    let mut t_best = f64::INFINITY;
    let mut out = None;
    for _ in 0..reps {
        let t = Instant::now();
        let r = f();
        t_best = t_best.min(t.elapsed().as_secs_f64());
        out = Some(r);
    }
    (t_best, out.expect("reps > 0"))
}

/// Whole-world mesh time with `lod_of` choosing each chunk's level; returns (seconds, triangles).
fn whole_world(inp: &Inputs, lod_of: impl Fn(ChunkPos) -> u32) -> (f64, usize) {
    let mut buf = MeshBuffer::new();
    best(3, || {
        let mut tris = 0;
        for &pos in &inp.all {
            mesh_chunk(&inp.grid, pos, lod_of(pos), &inp.table, &mut buf).expect("meshes");
            tris += buf.triangle_count();
        }
        tris
    })
}

fn figures(inp: &Inputs) {
    let mut sbuf = MeshBuffer::new();
    let mut fbuf = SurfaceNetsBuffer::default();
    let mut sdf = Vec::new();
    let (mut ts, mut tf, mut tc) = (f64::INFINITY, f64::INFINITY, f64::INFINITY);
    let (mut counts, mut tri_f, mut tri_c) = ((0, 0), 0, 0);
    for _ in 0..25 {
        let (t, r) = best(1, || run_strata(inp, &mut sbuf));
        (ts, counts) = (ts.min(t), r);
        let (t, r) = best(1, || run_fsn(inp, &mut fbuf));
        (tf, tri_f) = (tf.min(t), r);
        let (t, r) = best(1, || run_fsn_from_voxels(inp, &mut sdf, &mut fbuf));
        (tc, tri_c) = (tc.min(t), r);
    }
    let (solid, water) = counts;
    let tri_s = solid + water;
    assert_eq!(
        tri_c, tri_f,
        "the in-loop conversion matches the prepared input"
    );
    assert_eq!(
        solid, tri_f,
        "both meshers contour the same solid field over the same edges"
    );
    let (rs, rf) = (tri_s as f64 / ts, tri_f as f64 / tf);
    println!(
        "mesh: {} surface chunks of canyons 256×128×256",
        inp.chunks.len()
    );
    println!(
        "  strata            {tri_s} triangles ({solid} solid + {water} water) in {:.2} ms = {:.2} M tri/s",
        ts * 1e3,
        rs / 1e6
    );
    println!(
        "  fast-surface-nets {tri_f} triangles in {:.2} ms = {:.2} M tri/s",
        tf * 1e3,
        rf / 1e6
    );
    println!(
        "  triangles/s ratio strata / fast-surface-nets = {:.2}×; time ratio = {:.2}×",
        rs / rf,
        tf / ts
    );
    println!(
        "  fast-surface-nets incl. voxel→sdf conversion {:.2} ms: strata triangles/s ratio = {:.2}×, \
         time ratio = {:.2}×",
        tc * 1e3,
        rs / (tri_f as f64 / tc),
        tc / ts
    );

    let (mut bytes, mut tris) = (0usize, 0usize);
    for (origin, voxels, _) in &inp.chunks {
        mesh(
            &MeshInput::new(voxels, [36; 3], *origin),
            &inp.table,
            &mut sbuf,
        );
        bytes += sbuf.mesh_bytes();
        tris += sbuf.triangle_count();
    }
    println!(
        "  mesh memory: {:.1} bytes per triangle (vertices + u32 indices)",
        bytes as f64 / tris as f64
    );

    let rock = inp.table.require("Rock").expect("rock");
    let mut deep = Grid::new();
    deep.fill_box(
        VoxelBox::new(VoxelPos::new(0, 0, 0), VoxelPos::new(96, 96, 96)),
        Voxel::filled(rock),
    );
    for (name, grid, pos) in [
        ("empty", &inp.grid, ChunkPos::new(3, 3, 3)),
        ("full", &deep, ChunkPos::new(1, 1, 1)),
    ] {
        let n = 200_000;
        let (t, ()) = best(3, || {
            for _ in 0..n {
                mesh_chunk(grid, black_box(pos), 0, &inp.table, &mut sbuf).expect("meshes");
            }
        });
        assert!(sbuf.is_empty());
        println!(
            "  fast exit, {name} chunk: {:.0} ns",
            t / f64::from(n) * 1e9
        );
    }

    for lod in 0..=3 {
        let (t, tris) = whole_world(inp, |_| lod);
        println!(
            "  whole world, LOD {lod}: {:.0} ms, {tris} triangles (skirts included)",
            t * 1e3
        );
    }
    // Distance LOD from a viewer at the world's centre: a ring of 2 chunks per level.
    let centre = ChunkPos::new(4, 2, 4);
    let (t, tris) = whole_world(inp, |p| {
        let d = (p.x - centre.x)
            .abs()
            .max((p.y - centre.y).abs())
            .max((p.z - centre.z).abs());
        (d / 2).clamp(0, 3) as u32
    });
    println!(
        "  whole world, distance LOD (2-chunk rings): {:.0} ms, {tris} triangles",
        t * 1e3
    );
}

fn bench(c: &mut Criterion) {
    let inp = inputs();
    if let Some(n) = std::env::var("STRATA_MESH_PROFILE")
        .ok()
        .and_then(|v| v.parse::<usize>().ok())
    {
        let mut sbuf = MeshBuffer::new();
        for _ in 0..n {
            black_box(run_strata(&inp, &mut sbuf));
        }
        std::process::exit(0);
    }
    figures(&inp);
    let mut g = c.benchmark_group("mesh_surface_chunks");
    let mut sbuf = MeshBuffer::new();
    let mut fbuf = SurfaceNetsBuffer::default();
    let (solid, water) = run_strata(&inp, &mut sbuf);
    let tris = (solid + water) as u64;
    g.throughput(Throughput::Elements(tris));
    g.bench_function("strata", |b| {
        b.iter(|| black_box(run_strata(&inp, &mut sbuf)))
    });
    let tris_f = run_fsn(&inp, &mut fbuf) as u64;
    g.throughput(Throughput::Elements(tris_f));
    g.bench_function("fast-surface-nets", |b| {
        b.iter(|| black_box(run_fsn(&inp, &mut fbuf)))
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
