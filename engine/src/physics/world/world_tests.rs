//! World raycast tests: every ray against a brute-force loop over the whole world's mesh (meshed as one
//! box), and edits against a world rebuilt from scratch.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::*;
use crate::gen::{generate, GeneratorSettings, Preset};
use crate::mesh::{mesh, MeshBuffer, MeshInput};
use crate::physics::cell_mesh::{blend_material, snap};
use crate::physics::kdtree::intersect_f64;
use crate::progress::Progress;
use crate::voxel::{Voxel, VoxelPos};

/// The whole world's mesh, with positions snapped to the grid physics cells store them on, so its
/// triangles are bit for bit those of the cell shapes.
struct WholeMesh {
    positions: Vec<[f32; 3]>,
    materials: Vec<u8>,
    indices: Vec<u32>,
    solid_triangles: u32,
}

impl WholeMesh {
    fn triangle_count(&self) -> usize {
        self.indices.len() / 3
    }

    fn is_water(&self, id: u32) -> bool {
        id >= self.solid_triangles
    }

    fn vertices(&self, id: u32) -> [usize; 3] {
        [0, 1, 2].map(|k| self.indices[id as usize * 3 + k] as usize)
    }

    fn corners(&self, id: u32) -> [[f32; 3]; 3] {
        self.vertices(id).map(|v| self.positions[v])
    }

    fn material_at(&self, id: u32, point: [f32; 3]) -> u8 {
        let v = self.vertices(id);
        blend_material(self.corners(id), v.map(|v| self.materials[v]), point)
    }
}

/// The whole world's mesh as one box.
fn whole_mesh(grid: &Grid, table: &MaterialTable) -> WholeMesh {
    let mut lo = [i32::MAX; 3];
    let mut hi = [i32::MIN; 3];
    for (p, _) in grid.chunks() {
        let c = [p.x, p.y, p.z];
        for a in 0..3 {
            lo[a] = lo[a].min(c[a] * 32 - 4);
            hi[a] = hi[a].max(c[a] * 32 + 36);
        }
    }
    let core = VoxelBox::new(VoxelPos::from(lo), VoxelPos::from(hi));
    let padded = MeshInput::padded_box(core);
    let voxels = grid.read_box_vec(padded);
    let mut buf = MeshBuffer::new();
    mesh(
        &MeshInput::new(&voxels, padded.size(), padded.min),
        table,
        &mut buf,
    );
    let mut indices = buf.solid_indices.clone();
    indices.extend_from_slice(&buf.water_indices);
    WholeMesh {
        positions: buf.positions.iter().map(|p| p.map(snap)).collect(),
        materials: buf.materials.iter().map(|m| m[0]).collect(),
        indices,
        solid_triangles: (buf.solid_indices.len() / 3) as u32,
    }
}

/// Closest hit (t as f32, material, water) over every triangle of `shape`.
fn brute(shape: &WholeMesh, ray: &Ray, max_t: f32, filter: RayFilter) -> Option<(f32, u8, bool)> {
    let mut best: Option<(f32, u32)> = None;
    for id in 0..shape.triangle_count() as u32 {
        let keep = if shape.is_water(id) {
            filter.water
        } else {
            filter.solid
        };
        if !keep {
            continue;
        }
        if let Some(t) = intersect_f64(ray, shape.corners(id)) {
            let t = t as f32;
            if t >= 0.0 && t <= max_t && best.is_none_or(|(bt, _)| t < bt) {
                best = Some((t, id));
            }
        }
    }
    best.map(|(t, id)| {
        let point = std::array::from_fn(|a| ray.origin[a] + t * ray.dir[a]);
        (t, shape.material_at(id, point), shape.is_water(id))
    })
}

fn random_ray(rng: &mut ChaCha8Rng, lo: [f32; 3], hi: [f32; 3]) -> ([f32; 3], [f32; 3], f32) {
    let origin: [f32; 3] = std::array::from_fn(|a| rng.random_range(lo[a] - 8.0..hi[a] + 8.0));
    let dir = loop {
        let kind = rng.random_range(0..10);
        let d: [f32; 3] = if kind < 5 {
            let target: [f32; 3] = std::array::from_fn(|a| rng.random_range(lo[a]..hi[a]));
            std::array::from_fn(|a| target[a] - origin[a])
        } else if kind == 5 {
            let mut d = [0.0; 3];
            d[rng.random_range(0..3)] = if rng.random() { 1.0 } else { -1.0 };
            d
        } else {
            std::array::from_fn(|_| rng.random_range(-1.0..1.0))
        };
        if d.iter().map(|c| c * c).sum::<f32>() > 1e-4 {
            break d;
        }
    };
    let max_t = if rng.random() {
        f32::INFINITY
    } else {
        rng.random_range(0.0..60.0)
    };
    (origin, dir, max_t)
}

/// Cast `n` random rays through `world` and the brute force; returns (hits, material mismatches).
fn check_rays(
    grid: &Grid,
    table: &MaterialTable,
    world: &mut PhysicsWorld,
    rng: &mut ChaCha8Rng,
    n: usize,
    filter: RayFilter,
) -> (usize, usize) {
    let shape = whole_mesh(grid, table);
    let (lo, hi) = bounds_of(&shape);
    let (mut hits, mut material_diffs) = (0, 0);
    for i in 0..n {
        let (origin, dir, max_t) = random_ray(rng, lo, hi);
        let got = world
            .raycast_with(grid, origin, dir, max_t, filter)
            .expect("valid ray");
        let ray = checked_ray(origin, dir, max_t).expect("valid ray");
        let want = brute(&shape, &ray, max_t, filter);
        match (got, want) {
            (None, None) => {}
            (Some(g), Some((t, material, water))) => {
                hits += 1;
                let tol = 1e-4 * t.abs().max(1.0);
                assert!(
                    (g.t - t).abs() <= tol,
                    "ray {i} {origin:?} {dir:?}: t {} vs brute {t}",
                    g.t
                );
                if g.t == t {
                    assert_eq!(g.water, water, "ray {i}: water flag");
                }
                material_diffs += usize::from(g.material != material);
                let p: [f32; 3] = std::array::from_fn(|a| ray.origin[a] + g.t * ray.dir[a]);
                assert!((0..3).all(|a| (p[a] - g.point[a]).abs() < 1e-3));
                let len = g.normal.iter().map(|c| c * c).sum::<f32>().sqrt();
                assert!((len - 1.0).abs() < 1e-3, "normal {:?}", g.normal);
            }
            (g, w) => {
                // Allowed only at the very end of a finite ray (rounding of max_t).
                let t = g.map(|h| h.t).or(w.map(|h| h.0)).unwrap_or(0.0);
                assert!(
                    (t - max_t).abs() <= 1e-4 * max_t.max(1.0),
                    "ray {i} {origin:?} {dir:?} max_t {max_t}: world {g:?} vs brute {w:?}"
                );
            }
        }
    }
    world.cache().assert_valid();
    eprintln!("{hits} hits of {n} rays, {material_diffs} material differences");
    (hits, material_diffs)
}

fn bounds_of(shape: &WholeMesh) -> ([f32; 3], [f32; 3]) {
    let mut lo = [f32::INFINITY; 3];
    let mut hi = [f32::NEG_INFINITY; 3];
    for p in &shape.positions {
        for a in 0..3 {
            lo[a] = lo[a].min(p[a]);
            hi[a] = hi[a].max(p[a]);
        }
    }
    (lo, hi)
}

fn islands() -> (Grid, MaterialTable) {
    let table = MaterialTable::builtin();
    let settings = GeneratorSettings {
        preset: Preset::Islands,
        size: [40, 24, 40],
        seed: 7,
    };
    let grid = generate(&settings, &table, &Progress::new()).expect("generate");
    (grid, table)
}

/// Boxes of rock, water and sand with partial occupancy, around the origin (negative coordinates too).
fn box_world(rng: &mut ChaCha8Rng, table: &MaterialTable) -> Grid {
    let ids = ["Rock", "Water", "Sand", "Rock"].map(|n| table.require(n).expect("material"));
    let mut grid = Grid::new();
    for _ in 0..14 {
        let min: [i32; 3] = std::array::from_fn(|_| rng.random_range(-20..16));
        let max: [i32; 3] = std::array::from_fn(|a| min[a] + rng.random_range(1..14));
        let m = ids[rng.random_range(0..4)];
        let occ = if rng.random() { 255 } else { rng.random() };
        grid.fill_box(
            VoxelBox::new(VoxelPos::from(min), VoxelPos::from(max)),
            Voxel::new(m, occ),
        );
    }
    grid
}

#[test]
fn raycasts_match_brute_force_on_generated_world() {
    let (grid, table) = islands();
    let mut world = PhysicsWorld::new(&grid, &table, DEFAULT_CACHE_BYTES);
    let mut rng = ChaCha8Rng::seed_from_u64(11);
    let (hits, diffs) = check_rays(
        &grid,
        &table,
        &mut world,
        &mut rng,
        3000,
        RayFilter::default(),
    );
    assert!(hits > 1500, "too few hits: {hits}");
    assert!(diffs * 200 <= hits, "material differs on {diffs} of {hits}");
    let solid_only = RayFilter {
        solid: true,
        water: false,
    };
    let (hits, _) = check_rays(&grid, &table, &mut world, &mut rng, 1000, solid_only);
    assert!(hits > 400, "too few solid hits: {hits}");
    assert!(world.stats().cache_hits > world.stats().builds);
}

#[test]
fn raycasts_match_brute_force_on_box_world_with_small_cache() {
    let table = MaterialTable::builtin();
    let mut rng = ChaCha8Rng::seed_from_u64(12);
    let grid = box_world(&mut rng, &table);
    let mut world = PhysicsWorld::new(&grid, &table, 40_000);
    let (hits, diffs) = check_rays(
        &grid,
        &table,
        &mut world,
        &mut rng,
        3000,
        RayFilter::default(),
    );
    assert!(hits > 300, "too few hits: {hits}");
    assert!(diffs * 200 <= hits, "material differs on {diffs} of {hits}");
    assert!(world.cache().used_bytes() <= 40_000);
}

#[test]
fn edits_invalidate_cached_cells() {
    let (mut grid, table) = islands();
    let rock = table.require("Rock").expect("rock");
    let mut world = PhysicsWorld::new(&grid, &table, DEFAULT_CACHE_BYTES);
    let mut rng = ChaCha8Rng::seed_from_u64(13);
    for round in 0..6 {
        check_rays(
            &grid,
            &table,
            &mut world,
            &mut rng,
            300,
            RayFilter::default(),
        );
        let min: [i32; 3] = std::array::from_fn(|a| rng.random_range(-2..[38, 20, 38][a]));
        let max: [i32; 3] = std::array::from_fn(|a| min[a] + rng.random_range(1..9));
        let b = VoxelBox::new(VoxelPos::from(min), VoxelPos::from(max));
        let v = if round % 2 == 0 {
            Voxel::new(rock, rng.random())
        } else {
            Voxel::AIR
        };
        grid.fill_box(b, v);
        world.on_edit(&grid, b);
        world.broadphase().assert_valid(&grid);
        // Every ray through the edited box agrees with a world built from scratch.
        let mut fresh = PhysicsWorld::new(&grid, &table, DEFAULT_CACHE_BYTES);
        for _ in 0..200 {
            let target: [f32; 3] =
                std::array::from_fn(|a| rng.random_range(min[a] as f32..max[a] as f32));
            let origin: [f32; 3] =
                std::array::from_fn(|a| target[a] + rng.random_range(-20.0..20.0));
            let dir: [f32; 3] = std::array::from_fn(|a| target[a] - origin[a]);
            if dir.iter().all(|&c| c == 0.0) {
                continue;
            }
            let got = world
                .raycast(&grid, origin, dir, f32::INFINITY)
                .expect("ray");
            let want = fresh
                .raycast(&grid, origin, dir, f32::INFINITY)
                .expect("ray");
            assert_eq!(got, want, "round {round}: ray {origin:?} -> {target:?}");
        }
    }
    check_rays(
        &grid,
        &table,
        &mut world,
        &mut rng,
        500,
        RayFilter::default(),
    );
}

#[test]
fn bad_rays_are_errors_and_empty_worlds_miss() {
    let table = MaterialTable::builtin();
    let grid = Grid::new();
    let mut world = PhysicsWorld::new(&grid, &table, DEFAULT_CACHE_BYTES);
    assert!(world.raycast(&grid, [0.0; 3], [0.0; 3], 1.0).is_err());
    assert!(world
        .raycast(&grid, [f32::NAN, 0.0, 0.0], [1.0, 0.0, 0.0], 1.0)
        .is_err());
    assert!(world
        .raycast(&grid, [0.0; 3], [1.0, 0.0, 0.0], -1.0)
        .is_err());
    let miss = world.raycast(&grid, [0.0; 3], [1.0, 0.0, 0.0], f32::INFINITY);
    assert_eq!(miss.expect("valid"), None);
}

#[test]
fn ray_down_onto_a_slab_reports_point_normal_material() {
    let table = MaterialTable::builtin();
    let grass = table.require("Grass").expect("grass");
    let mut grid = Grid::new();
    grid.fill_box(
        VoxelBox::new(VoxelPos::new(-20, 0, -20), VoxelPos::new(20, 10, 20)),
        Voxel::filled(grass),
    );
    let mut world = PhysicsWorld::new(&grid, &table, DEFAULT_CACHE_BYTES);
    let hit = world
        .raycast(&grid, [3.3, 40.0, -5.2], [0.0, -2.0, 0.0], f32::INFINITY)
        .expect("valid")
        .expect("hits the slab");
    // Full voxels: the surface lies on the top face, y = 10.
    assert!((hit.point[1] - 10.0).abs() < 1e-4, "{hit:?}");
    assert!((hit.t - 30.0).abs() < 1e-4, "{hit:?}");
    assert!(hit.normal[1] > 0.99, "{hit:?}");
    assert_eq!(hit.material, grass);
    assert!(!hit.water);
    assert_eq!(hit.cell[1], 1);
    let short = world.raycast(&grid, [3.3, 40.0, -5.2], [0.0, -1.0, 0.0], 29.0);
    assert_eq!(short.expect("valid"), None);
}
