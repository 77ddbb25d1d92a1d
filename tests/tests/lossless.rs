//! Lossless guard: digests of everything the engine derives from a world, pinned to the values the
//! code gave before the storage, mesher and physics speed-ups (issue 33), so a faster path that
//! changes a single voxel, row, mip, file byte, triangle or ray hit fails here.
//!
//! Worlds: every preset at 160×96×160 (seed 5), the nine-biome mix at 256×96×256 with 64-voxel
//! biome cells (seed 5), and a heightmap import (a seeded 128² map into 160×96×160, terrace
//! smoothing radius 3). For each world the digests cover:
//!
//! - `voxels`: every stored chunk's level 0 and its three mips, dense;
//! - `rows`: every row as `read_row` gives it, level 0 through the grid and each mip level;
//! - `boxes` / `gets`: seeded unaligned `read_box` boxes and single voxels;
//! - `stats`: voxel counts per material;
//! - `file`: the `.strata` bytes;
//! - `mesh`: `mesh_chunk` of every chunk that can own surface at LOD 0 to 3; `node`: `mesh_node` at
//!   levels 1 and 2;
//! - `physics`: world raycasts and broadphase queries; `kdtree`: kD trees of 8³ cell meshes and their
//!   raycasts;
//! - `render`, `floating`, `region`, `godot`, `light`: the top-down render, floating pieces, a region
//!   copy read back, the vxr forest bytes and the light bake's surface voxels.
//!
//! The digests are FNV-1a 64 over the values' little-endian bytes (floats by their bits).
//! `STRATA_PRINT_DIGESTS=1` prints the table as it stands in this file.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use strata_engine::floating::find_floating;
use strata_engine::format::godot::{encode_forest, ForestOptions};
use strata_engine::format::project::{Project, ProjectHeader};
use strata_engine::gen::{
    generate_world, heightmap_grid, BiomeSettings, GeneratorSettings, Heightmap, HeightmapSettings,
    Preset, WorldSettings,
};
use strata_engine::light::SolidVolume;
use strata_engine::mesh::{mesh, mesh_chunk, mesh_node, MeshBuffer, MeshInput, NodeKey};
use strata_engine::physics::kdtree::MeshRef;
use strata_engine::physics::{KdTree, PhysicsWorld, Ray, DEFAULT_CACHE_BYTES};
use strata_engine::progress::Progress;
use strata_engine::region::Region;
use strata_engine::render::render_topdown;
use strata_engine::storage::{Grid, RowBuf};
use strata_engine::voxel::{ChunkPos, MaterialTable, Voxel, VoxelBox, VoxelPos};

/// FNV-1a, 64 bits.
struct Digest(u64);

impl Digest {
    fn new() -> Self {
        Self(0xcbf2_9ce4_8422_2325)
    }

    fn bytes(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 ^= u64::from(b);
            self.0 = self.0.wrapping_mul(0x0000_0100_0000_01b3);
        }
    }

    fn u32(&mut self, v: u32) {
        self.bytes(&v.to_le_bytes());
    }

    fn i32(&mut self, v: i32) {
        self.bytes(&v.to_le_bytes());
    }

    fn u64(&mut self, v: u64) {
        self.bytes(&v.to_le_bytes());
    }

    fn f32(&mut self, v: f32) {
        self.u32(v.to_bits());
    }

    fn voxels(&mut self, voxels: &[Voxel]) {
        for v in voxels {
            self.bytes(&[v.material, v.occupancy]);
        }
    }

    fn pos(&mut self, p: ChunkPos) {
        self.i32(p.x);
        self.i32(p.y);
        self.i32(p.z);
    }

    fn text(&mut self, s: &str) {
        self.bytes(s.as_bytes());
    }
}

struct World {
    name: &'static str,
    grid: Grid,
    header: ProjectHeader,
    bounds: VoxelBox,
}

fn worlds(table: &MaterialTable) -> Vec<World> {
    let mut out = Vec::new();
    let generated = |name, settings: WorldSettings| {
        let grid = generate_world(&settings, table, &Progress::new()).expect("generates");
        let bounds = settings.bounds();
        let mut header = ProjectHeader::new(name, bounds);
        header.set_world(&settings);
        World {
            name,
            grid,
            header,
            bounds,
        }
    };
    for preset in Preset::ALL {
        let settings = WorldSettings::from_preset(&GeneratorSettings {
            preset,
            size: [160, 96, 160],
            seed: 5,
        });
        out.push(generated(preset.name(), settings));
    }
    let mix = BiomeSettings {
        biome_size: 64,
        ..BiomeSettings::default()
    };
    out.push(generated(
        "mix9",
        WorldSettings::with_biomes([256, 96, 256], 5, mix),
    ));
    let mut rng = ChaCha8Rng::seed_from_u64(11);
    let (w, d) = (128u32, 128u32);
    let bumps: Vec<[f32; 4]> = (0..12)
        .map(|_| {
            [
                rng.random_range(0.0..128.0),
                rng.random_range(0.0..128.0),
                rng.random_range(6.0..30.0),
                rng.random_range(-9000.0..16000.0),
            ]
        })
        .collect();
    let samples = (0..w * d)
        .map(|i| {
            let (x, z) = ((i % w) as f32, (i / w) as f32);
            let h = 20000.0
                + 3000.0 * (x * 0.11).sin() * (z * 0.07).cos()
                + bumps
                    .iter()
                    .map(|b| {
                        let r2 = ((x - b[0]).powi(2) + (z - b[1]).powi(2)) / (b[2] * b[2]);
                        b[3] * (-r2).exp()
                    })
                    .sum::<f32>();
            (h + rng.random_range(0.0..40.0)).clamp(0.0, 65535.0) as u16
        })
        .collect();
    let map = Heightmap {
        width: w,
        depth: d,
        samples,
    };
    let settings = HeightmapSettings {
        size: [160, 160],
        height: 96,
        smooth_radius: 3,
    };
    let grid = heightmap_grid(&map, None, &settings, table, &Progress::new()).expect("imports");
    let bounds = VoxelBox::new(VoxelPos::new(0, 0, 0), VoxelPos::new(160, 96, 160));
    out.push(World {
        name: "heightmap",
        grid,
        header: ProjectHeader::new("heightmap", bounds),
        bounds,
    });
    out
}

fn voxels(w: &World) -> u64 {
    let mut d = Digest::new();
    let mut dense = Vec::new();
    for pos in w.grid.sorted_positions() {
        let c = w.grid.chunk(pos).expect("stored");
        d.pos(pos);
        for n in [32usize, 16, 8, 4] {
            dense.clear();
            dense.resize(n * n * n, Voxel::AIR);
            match n {
                32 => c.level0().to_dense(&mut dense),
                16 => c.mip16().to_dense(&mut dense),
                8 => c.mip8().to_dense(&mut dense),
                _ => c.mip4().to_dense(&mut dense),
            }
            d.voxels(&dense);
        }
    }
    d.0
}

fn rows(w: &World) -> u64 {
    let mut d = Digest::new();
    let mut buf = RowBuf::new();
    for pos in w.grid.sorted_positions() {
        let c = w.grid.chunk(pos).expect("stored");
        for z in 0..32 {
            for y in 0..32 {
                d.voxels(w.grid.read_row(pos, y, z, &mut buf));
            }
        }
        for z in 0..16 {
            for y in 0..16 {
                d.voxels(c.mip16().read_row(y, z, &mut buf));
            }
        }
        for z in 0..8 {
            for y in 0..8 {
                d.voxels(c.mip8().read_row(y, z, &mut buf));
            }
        }
        for z in 0..4 {
            for y in 0..4 {
                d.voxels(c.mip4().read_row(y, z, &mut buf));
            }
        }
    }
    d.0
}

fn random_box(rng: &mut ChaCha8Rng, bounds: VoxelBox, max_edge: u32) -> VoxelBox {
    let min = VoxelPos::new(
        rng.random_range(bounds.min.x - 8..bounds.max.x),
        rng.random_range(bounds.min.y - 8..bounds.max.y),
        rng.random_range(bounds.min.z - 8..bounds.max.z),
    );
    let size = [0; 3].map(|_| rng.random_range(1..=max_edge));
    VoxelBox::from_min_size(min, size)
}

fn boxes(w: &World) -> u64 {
    let mut d = Digest::new();
    let mut rng = ChaCha8Rng::seed_from_u64(21);
    for _ in 0..48 {
        let b = random_box(&mut rng, w.bounds, 50);
        d.voxels(&w.grid.read_box_vec(b));
    }
    d.0
}

fn gets(w: &World) -> u64 {
    let mut d = Digest::new();
    let mut rng = ChaCha8Rng::seed_from_u64(22);
    for _ in 0..4000 {
        let b = random_box(&mut rng, w.bounds, 1);
        d.voxels(&[w.grid.get(b.min)]);
    }
    d.0
}

fn stats(w: &World) -> u64 {
    let mut d = Digest::new();
    let s = w.grid.stats();
    d.u64(s.chunks as u64);
    for n in s.by_material {
        d.u64(n);
    }
    d.0
}

fn file(w: &World) -> u64 {
    let mut d = Digest::new();
    let p = Project::new(w.header.clone(), w.grid.clone());
    d.bytes(&p.to_bytes().expect("encodes"));
    d.0
}

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
    d.f32(buf.skirt_depth);
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

fn meshes(w: &World, table: &MaterialTable) -> u64 {
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

fn nodes(w: &World, table: &MaterialTable) -> u64 {
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

fn random_ray(rng: &mut ChaCha8Rng, bounds: VoxelBox) -> ([f32; 3], [f32; 3]) {
    let lo = [bounds.min.x, bounds.min.y, bounds.min.z].map(|v| v as f32);
    let hi = [bounds.max.x, bounds.max.y, bounds.max.z].map(|v| v as f32);
    let origin: [f32; 3] = std::array::from_fn(|a| rng.random_range(lo[a] - 4.0..hi[a] + 4.0));
    let target: [f32; 3] = std::array::from_fn(|a| rng.random_range(lo[a]..hi[a]));
    (origin, std::array::from_fn(|a| target[a] - origin[a]))
}

fn physics(w: &World, table: &MaterialTable) -> u64 {
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

fn kdtrees(w: &World, table: &MaterialTable) -> u64 {
    let mut d = Digest::new();
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
        d.text(&format!("{:?}", tree.nodes()));
        let (lo, hi) = tree.bounds();
        for _ in 0..64 {
            let origin: [f32; 3] =
                std::array::from_fn(|a| rng.random_range(lo[a] - 3.0..hi[a] + 3.0));
            let target: [f32; 3] = std::array::from_fn(|a| rng.random_range(lo[a]..=hi[a]));
            let dir: [f32; 3] = std::array::from_fn(|a| target[a] - origin[a]);
            let len = dir.iter().map(|v| v * v).sum::<f32>().sqrt().max(1e-6);
            let ray = Ray {
                origin,
                dir: dir.map(|v| v / len),
            };
            match tree.raycast(&m, &ray, 100.0) {
                None => d.u32(u32::MAX),
                Some(h) => {
                    d.f32(h.t);
                    d.u32(h.triangle);
                    h.normal.iter().for_each(|&v| d.f32(v));
                }
            }
            d.bytes(&[u8::from(tree.raycast_any(&m, &ray, 100.0))]);
        }
    }
    d.0
}

fn render(w: &World, table: &MaterialTable) -> u64 {
    let mut d = Digest::new();
    let image = render_topdown(&w.grid, table, 96, 80);
    for y in 0..80 {
        for x in 0..96 {
            d.bytes(&image.pixel(x, y).unwrap_or([1, 2, 3, 4]));
        }
    }
    d.0
}

fn floating(w: &World, table: &MaterialTable) -> u64 {
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
    let pieces = find_floating(&grid, table, w.bounds.min.y, &Progress::new()).expect("finds");
    d.u64(pieces.len() as u64);
    d.text(&format!("{pieces:?}"));
    d.0
}

fn region(w: &World) -> u64 {
    let mut d = Digest::new();
    let mut rng = ChaCha8Rng::seed_from_u64(25);
    for max_edge in [40, 90] {
        let b = random_box(&mut rng, w.bounds, max_edge);
        let r = Region::copy(&w.grid, b).expect("copies");
        d.voxels(&r.to_dense());
        let [sx, sy, sz] = r.size().map(|s| s as usize);
        let mut row = vec![Voxel::AIR; sx];
        for z in (0..sz).step_by(3) {
            for y in 0..sy {
                r.read_row(y, z, 0, &mut row);
                d.voxels(&row);
            }
        }
    }
    d.0
}

fn godot(w: &World) -> u64 {
    let mut d = Digest::new();
    let regions =
        encode_forest(&w.grid, &ForestOptions::default(), &Progress::new()).expect("encodes");
    for r in regions {
        d.bytes(&[r.lod]);
        r.pos.iter().for_each(|&c| d.i32(c));
        d.bytes(&r.bytes);
    }
    d.0
}

fn light(w: &World, table: &MaterialTable) -> u64 {
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

const ASPECTS: [&str; 15] = [
    "voxels", "rows", "boxes", "gets", "stats", "file", "mesh", "node", "physics", "kdtree",
    "render", "floating", "region", "godot", "light",
];

fn digests(w: &World, table: &MaterialTable) -> [u64; 15] {
    [
        voxels(w),
        rows(w),
        boxes(w),
        gets(w),
        stats(w),
        file(w),
        meshes(w, table),
        nodes(w, table),
        physics(w, table),
        kdtrees(w, table),
        render(w, table),
        floating(w, table),
        region(w),
        godot(w),
        light(w, table),
    ]
}

/// The digests of the code before the speed-ups, per world in the order of [`worlds`], per aspect in
/// the order of [`ASPECTS`].
const EXPECTED: &[(&str, [u64; 15])] = &[
    (
        "hills",
        [
            0x35f9671689e652bf,
            0x4743eccf5bddfb16,
            0x3f478f34ee0a1ded,
            0xd443a9c6a16779f4,
            0x3182b4e550e705bd,
            0xf34daa19be7f9588,
            0xf01a98d18978a6d1,
            0xad5a37f219d0dbd3,
            0xab6a1e5d67a5f566,
            0xfe863feea95a3439,
            0x62b9b9a46ea00218,
            0x7239330968263c28,
            0x46fc143616ca04e5,
            0x582fe62a0ead17e0,
            0x2f7b3f17b8a88711,
        ],
    ),
    (
        "mountains",
        [
            0x79855ef2e98a0744,
            0xcd85493ce2a23c32,
            0xb4af05b2dc0539c5,
            0xfbea4585889ca5a6,
            0xf80cf024a6bcbc2d,
            0x387d4b8cf09cce0d,
            0xac0f359fc6b81f4b,
            0x7c16a520141ddd2a,
            0xf6a9e0ad29dbe917,
            0x3b087b46e5b294af,
            0xeb29dd52aa2f902a,
            0xf9810a2802f87377,
            0xd1eb28ad4b7cc06e,
            0x829f0597f0921199,
            0x3fe9bef6e63aafe4,
        ],
    ),
    (
        "canyons",
        [
            0x6d3549cf47d6920c,
            0xee52e189788d01b4,
            0xe73dde72b319071a,
            0x74a07722c9bcb209,
            0x0882711c51a5988e,
            0x9ba4b436de0aaa54,
            0x13fd9e49676ff36e,
            0xa8f973dfbb9568f5,
            0xa9aeabf22423a18c,
            0x44a3f01ca7c196c1,
            0xedc3ef3d07cda01a,
            0x8b90f99d4e55d26d,
            0x9a584022ac411d61,
            0x880791a1e24341af,
            0xe678e049cf8dfb60,
        ],
    ),
    (
        "islands",
        [
            0xd2a5c353aba168c5,
            0xd0d0a2baf29ecc75,
            0x143401a4158cb320,
            0xe88b931e1f321f1e,
            0xd4de920cf21ce2cf,
            0x47cedcf7454419a5,
            0xceb277ed912a49b6,
            0x0feb18e06ea5c42f,
            0xd4cb9699e685c59d,
            0x80c566e2ef5a1c50,
            0x9013f3e20678860f,
            0x3c4accf684cb0356,
            0xf4381a0efbd4d276,
            0x79874aa864468552,
            0x8254e05cdcc87a7e,
        ],
    ),
    (
        "flat",
        [
            0x6e83206053adddf5,
            0xd6a468c8c9c96ec5,
            0x4c7b29c3dca338a4,
            0x652749ef20c2ac6c,
            0x4acfa1b7bfbc6839,
            0x39a95ee9f84252e7,
            0xd4b30ecad8550e47,
            0x9016234a0ea67928,
            0xc106096911d425ef,
            0x4d9dd2e90b235016,
            0x72b90d48368f0125,
            0x78fbd9f0da2e6839,
            0xdd9a18fbffeaeca6,
            0xd7b69fe4f46623fa,
            0x9492369ee4367975,
        ],
    ),
    (
        "mix9",
        [
            0xebde8c721067fd27,
            0xe01ef91ab67eb928,
            0xdad601048ed17e47,
            0xf27844eda0e980a7,
            0x64380d1648e75ed6,
            0x5b906ce852b62082,
            0x1bfd72e5678dd085,
            0xdd35383cd5d30f27,
            0xf8f50bbc31fa41ca,
            0x34059f4a5c19c235,
            0x9ba9e763bf8eff85,
            0x7289780966b70fdd,
            0x39dc40bf1d791fd2,
            0xfa2c422991b38747,
            0x3657f722ead93c61,
        ],
    ),
    (
        "heightmap",
        [
            0xfee15209cf5d465d,
            0x794a5c1df8f41537,
            0xc0f7deadc46d3392,
            0x06981308a2e5ef3b,
            0x9ca59110ffec372b,
            0x69361693ca583ced,
            0x78bd622e2c7cbbb1,
            0xd438c4fce1a1ec00,
            0x3251076949d2ba07,
            0x143f76439e68bc74,
            0xb970a83b9c23dcce,
            0x2e2d5bedbe690eb4,
            0x8cdac0e8dd73c006,
            0x02802f142f82499d,
            0xbea21722e4207070,
        ],
    ),
];

#[test]
fn every_derived_form_of_every_world_is_unchanged() {
    let table = MaterialTable::builtin();
    let got: Vec<(&str, [u64; 15])> = worlds(&table)
        .iter()
        .map(|w| {
            w.grid.assert_valid();
            (w.name, digests(w, &table))
        })
        .collect();
    let table_text: String = got
        .iter()
        .map(|(name, d)| {
            let list: Vec<String> = d.iter().map(|v| format!("0x{v:016x}")).collect();
            format!("    (\"{name}\", [{}]),\n", list.join(", "))
        })
        .collect();
    if std::env::var_os("STRATA_PRINT_DIGESTS").is_some() {
        println!("{table_text}");
    }
    assert_eq!(got.len(), EXPECTED.len(), "digest table:\n{table_text}");
    for ((name, d), (want_name, want)) in got.iter().zip(EXPECTED) {
        assert_eq!(name, want_name);
        for (k, aspect) in ASPECTS.iter().enumerate() {
            assert_eq!(
                d[k], want[k],
                "{name}: {aspect} differs from the code before\n{table_text}"
            );
        }
    }
}
