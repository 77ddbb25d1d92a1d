//! Digests of what the engine derives from a world: meshes and mesh nodes, physics raycasts and
//! broadphase queries, kD trees, the top-down render, floating pieces and the light bake's surface.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use strata_engine::floating::find_floating;
use strata_engine::light::SolidVolume;
use strata_engine::mesh::{mesh, mesh_chunk, mesh_node, MeshBuffer, MeshInput, NodeKey};
use strata_engine::physics::kdtree::MeshRef;
use strata_engine::physics::{KdTree, PhysicsWorld, Ray, DEFAULT_CACHE_BYTES};
use strata_engine::progress::Progress;
use strata_engine::render::render_topdown;
use strata_engine::storage::Grid;
use strata_engine::voxel::{ChunkPos, MaterialTable, VoxelBox, VoxelPos};

use crate::digest::Digest;
use crate::worlds::{random_box, random_ray, World};

fn mesh_buffer(d: &mut Digest, buf: &MeshBuffer) {
    d.u64(buf.positions.len() as u64);
    for p in buf.positions.iter().chain(&buf.normals) {
        p.iter().for_each(|&v| d.f32(v));
    }
    for m in &buf.materials {
        d.bytes(m);
    }
    for w in &buf.weights {
        d.bytes(w);
    }
    for list in [&buf.solid_indices, &buf.water_indices, &buf.skirt_indices] {
        d.u64(list.len() as u64);
        list.iter().for_each(|&i| d.u32(i));
    }
    d.u64(buf.skirt_from.map_or(u64::MAX, |s| s as u64));
    d.u64(buf.skirt_rims.len() as u64);
    buf.skirt_rims.iter().for_each(|&i| d.u32(i));
}

/// Stored chunks and their six neighbours, sorted.
fn surface_candidates(grid: &Grid) -> Vec<ChunkPos> {
    let mut all: Vec<ChunkPos> = grid
        .sorted_positions()
        .into_iter()
        .flat_map(|p| {
            [
                [0, 0, 0],
                [-1, 0, 0],
                [1, 0, 0],
                [0, -1, 0],
                [0, 1, 0],
                [0, 0, -1],
                [0, 0, 1],
            ]
            .map(|o| ChunkPos::new(p.x + o[0], p.y + o[1], p.z + o[2]))
        })
        .collect();
    all.sort_unstable_by_key(|p| (p.z, p.y, p.x));
    all.dedup();
    all
}

pub fn meshes(w: &World, table: &MaterialTable) -> u64 {
    let mut d = Digest::new();
    let mut buf = MeshBuffer::new();
    for pos in surface_candidates(&w.grid) {
        for lod in 0..=3 {
            mesh_chunk(&w.grid, pos, lod, table, &mut buf).expect("meshes");
            d.pos(pos);
            mesh_buffer(&mut d, &buf);
        }
    }
    d.0
}

pub fn nodes(w: &World, table: &MaterialTable) -> u64 {
    let mut d = Digest::new();
    let mut buf = MeshBuffer::new();
    for level in [1, 2] {
        let mut keys: Vec<NodeKey> = w
            .grid
            .sorted_positions()
            .into_iter()
            .map(|p| NodeKey::containing(p, level))
            .collect();
        keys.dedup();
        keys.sort_unstable_by_key(|k| {
            let m = k.min_chunk();
            (m.z, m.y, m.x)
        });
        keys.dedup();
        for k in keys {
            mesh_node(&w.grid, k, table, &mut buf).expect("meshes");
            d.pos(k.min_chunk());
            mesh_buffer(&mut d, &buf);
        }
    }
    d.0
}

pub fn physics(w: &World, table: &MaterialTable) -> u64 {
    let mut d = Digest::new();
    let mut world = PhysicsWorld::new(&w.grid, table, DEFAULT_CACHE_BYTES);
    let mut rng = ChaCha8Rng::seed_from_u64(23);
    for _ in 0..400 {
        let (origin, dir) = random_ray(&mut rng, w.bounds);
        match world
            .raycast(&w.grid, origin, dir, 1000.0)
            .expect("valid ray")
        {
            None => d.u32(u32::MAX),
            Some(h) => {
                h.point.iter().chain(&h.normal).for_each(|&v| d.f32(v));
                d.f32(h.t);
                d.bytes(&[h.material, u8::from(h.water)]);
                h.cell.iter().for_each(|&c| d.i32(c));
            }
        }
    }
    let mut touches = Vec::new();
    for _ in 0..400 {
        let b = random_box(&mut rng, w.bounds, 20);
        let min = [b.min.x, b.min.y, b.min.z].map(|v| v as f32 + 0.25);
        let max = [b.max.x, b.max.y, b.max.z].map(|v| v as f32 - 0.5);
        world.broadphase().query(min, max, &mut touches);
        d.u64(touches.len() as u64);
        for t in &touches {
            t.cell_pos.iter().for_each(|&c| d.i32(c));
            d.bytes(&[u8::from(t.solid), u8::from(t.water)]);
        }
    }
    d.0
}

/// kD trees of 8³ cell meshes: `(nodes, hits)`, the digest of every tree's nodes and the digest of
/// its closest-hit and any-hit raycasts (apart, so a change of the trees' shape is told from a change
/// of their answers).
pub fn kdtrees(w: &World, table: &MaterialTable) -> (u64, u64) {
    let mut d = Digest::new();
    let mut shape = Digest::new();
    let mut rng = ChaCha8Rng::seed_from_u64(24);
    let mut buf = MeshBuffer::new();
    let mut built = 0;
    for _ in 0..2000 {
        if built == 48 {
            break;
        }
        let b = random_box(&mut rng, w.bounds, 1);
        let cell = VoxelPos::new(b.min.x & !7, b.min.y & !7, b.min.z & !7);
        let padded = MeshInput::padded_box(VoxelBox::from_min_size(cell, [8, 8, 8]));
        let voxels = w.grid.read_box_vec(padded);
        mesh(
            &MeshInput::new(&voxels, padded.size(), padded.min),
            table,
            &mut buf,
        );
        if buf.solid_indices.is_empty() {
            continue;
        }
        built += 1;
        let m = MeshRef::new(&buf.positions, &buf.solid_indices);
        let tree = KdTree::build(&m).expect("builds");
        shape.text(&format!("{:?}", tree.nodes()));
        let (lo, hi) = tree.bounds();
        for _ in 0..64 {
            let origin: [f32; 3] =
                std::array::from_fn(|a| rng.random_range(lo[a] - 3.0..hi[a] + 3.0));
            let target: [f32; 3] = std::array::from_fn(|a| rng.random_range(lo[a]..=hi[a]));
            hash_hits(&mut d, &tree, &m, &ray_toward(origin, target));
        }
    }
    (shape.0, d.0)
}

/// The unit ray from `origin` toward `target`.
fn ray_toward(origin: [f32; 3], target: [f32; 3]) -> Ray {
    let dir: [f32; 3] = std::array::from_fn(|a| target[a] - origin[a]);
    let len = dir.iter().map(|v| v * v).sum::<f32>().sqrt().max(1e-6);
    Ray {
        origin,
        dir: dir.map(|v| v / len),
    }
}

/// Hash `ray`'s closest hit (t, triangle, normal) and any-hit answer through `tree`, reach 100.
fn hash_hits(d: &mut Digest, tree: &KdTree, m: &MeshRef<'_>, ray: &Ray) {
    match tree.raycast(m, ray, 100.0) {
        None => d.u32(u32::MAX),
        Some(h) => {
            d.f32(h.t);
            d.u32(h.triangle);
            h.normal.iter().for_each(|&v| d.f32(v));
        }
    }
    d.bytes(&[u8::from(tree.raycast_any(m, ray, 100.0))]);
}

/// Closest-hit and any-hit raycasts through the kD trees of whole 32³ chunk meshes (the trees the
/// raycast bench's 32³ set measures), hits only: the trees' nodes may change shape, their answers
/// may not.
pub fn chunk_kdtree_hits(w: &World, table: &MaterialTable) -> u64 {
    let mut d = Digest::new();
    let mut rng = ChaCha8Rng::seed_from_u64(25);
    let mut buf = MeshBuffer::new();
    let mut built = 0;
    for pos in surface_candidates(&w.grid) {
        if built == 12 {
            break;
        }
        let padded = MeshInput::padded_box(VoxelBox::from_min_size(pos.min_voxel(), [32, 32, 32]));
        let voxels = w.grid.read_box_vec(padded);
        mesh(
            &MeshInput::new(&voxels, padded.size(), padded.min),
            table,
            &mut buf,
        );
        if buf.solid_indices.len() < 3 * 512 {
            continue;
        }
        built += 1;
        let m = MeshRef::new(&buf.positions, &buf.solid_indices);
        let tree = KdTree::build(&m).expect("builds");
        let (lo, hi) = tree.bounds();
        for k in 0..256 {
            let origin: [f32; 3] =
                std::array::from_fn(|a| rng.random_range(lo[a] - 3.0..hi[a] + 3.0));
            let target: [f32; 3] = if k % 2 == 0 {
                // A triangle's corner: rays through shared edges and vertices, where ties are.
                let t = rng.random_range(0..buf.solid_indices.len() / 3);
                let i = buf.solid_indices[3 * t + rng.random_range(0..3)] as usize;
                buf.positions[i]
            } else {
                std::array::from_fn(|a| rng.random_range(lo[a]..=hi[a]))
            };
            hash_hits(&mut d, &tree, &m, &ray_toward(origin, target));
        }
    }
    d.u64(built);
    d.0
}

pub fn render(w: &World, table: &MaterialTable) -> u64 {
    let mut d = Digest::new();
    let image = render_topdown(&w.grid, table, 96, 80);
    for y in 0..80 {
        for x in 0..96 {
            d.bytes(&image.pixel(x, y).unwrap_or([1, 2, 3, 4]));
        }
    }
    d.0
}

pub fn floating(w: &World, table: &MaterialTable) -> u64 {
    let mut d = Digest::new();
    // Two copies of the terrain around the world's centre, lifted clear of it, so there are
    // pieces (with partial voxels) to find.
    let mut grid = w.grid.clone();
    let [sx, sy, sz] = w.bounds.size().map(|s| s as i32);
    let c = VoxelPos::new(
        w.bounds.min.x + sx / 2,
        w.bounds.min.y,
        w.bounds.min.z + sz / 2,
    );
    let part = VoxelBox::new(
        VoxelPos::new(c.x - 30, c.y, c.z - 20),
        VoxelPos::new(c.x + 10, c.y + sy, c.z + 19),
    );
    let voxels = grid.read_box_vec(part);
    for (k, lift) in [sy + 7, 2 * sy + 40].into_iter().enumerate() {
        let at = VoxelPos::new(part.min.x + 13 * k as i32, part.min.y + lift, part.min.z);
        grid.write_box(
            VoxelBox::from_min_size(at, part.size().map(|s| s as u32)),
            &voxels,
        );
    }
    let found = find_floating(&grid, table, w.bounds.min.y, &Progress::new()).expect("finds");
    d.u64(found.len() as u64);
    for (i, p) in found.pieces().iter().enumerate() {
        d.text(&format!("{p:?}"));
        for r in found.runs_of(i) {
            d.text(&format!("{:?} {}", r.start, r.len));
        }
    }
    d.0
}

pub fn light(w: &World, table: &MaterialTable) -> u64 {
    let mut d = Digest::new();
    let volume = SolidVolume::from_grid(&w.grid, table).expect("builds");
    for s in volume.surface_in(volume.bounds()) {
        d.i32(s.pos.x);
        d.i32(s.pos.y);
        d.i32(s.pos.z);
        d.bytes(&[s.open]);
    }
    d.0
}
