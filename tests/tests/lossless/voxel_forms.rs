//! Digests of the forms storage gives a world: dense levels, rows, boxes, single voxels, counts, the
//! file, a region copy and the vxr forest.

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use strata_engine::format::godot::{encode_forest, ForestOptions};
use strata_engine::format::project::Project;
use strata_engine::progress::Progress;
use strata_engine::region::Region;
use strata_engine::storage::RowBuf;
use strata_engine::voxel::Voxel;

use crate::digest::Digest;
use crate::worlds::{random_box, World};

pub fn voxels(w: &World) -> u64 {
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

pub fn rows(w: &World) -> u64 {
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

pub fn boxes(w: &World) -> u64 {
    let mut d = Digest::new();
    let mut rng = ChaCha8Rng::seed_from_u64(21);
    for _ in 0..48 {
        let b = random_box(&mut rng, w.bounds, 50);
        d.voxels(&w.grid.read_box_vec(b));
    }
    d.0
}

pub fn gets(w: &World) -> u64 {
    let mut d = Digest::new();
    let mut rng = ChaCha8Rng::seed_from_u64(22);
    for _ in 0..4000 {
        let b = random_box(&mut rng, w.bounds, 1);
        d.voxels(&[w.grid.get(b.min)]);
    }
    d.0
}

pub fn stats(w: &World) -> u64 {
    let mut d = Digest::new();
    let s = w.grid.stats();
    d.u64(s.chunks as u64);
    for n in s.by_material {
        d.u64(n);
    }
    d.0
}

/// The `.strata` bytes. Since format version 2 (column-coded chunk records) the bytes differ from
/// version 1's on purpose, so the file is also loaded back here: its voxels and rows must give the
/// world's own digests, which the table pins to the code before.
pub fn file(w: &World) -> u64 {
    let mut d = Digest::new();
    let p = Project::new(w.header.clone(), w.grid.clone());
    let bytes = p.to_bytes().expect("encodes");
    d.bytes(&bytes);
    let back = Project::from_bytes(&bytes).expect("the file loads");
    let loaded = World {
        name: w.name,
        grid: back.grid,
        header: back.header,
        bounds: w.bounds,
    };
    assert_eq!(
        voxels(&loaded),
        voxels(w),
        "{}: voxels after a load",
        w.name
    );
    assert_eq!(rows(&loaded), rows(w), "{}: rows after a load", w.name);
    d.0
}

pub fn region(w: &World) -> u64 {
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

pub fn godot(w: &World) -> u64 {
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
