//! Property tests: random writes against a plain dense reference, with every invariant checked after
//! every operation.

use proptest::prelude::*;

use super::Grid;
use crate::voxel::{Voxel, VoxelBox, VoxelPos};

/// Reference region: spans negative chunks and chunk borders on every axis.
const REGION: VoxelBox = VoxelBox {
    min: VoxelPos {
        x: -36,
        y: -5,
        z: -33,
    },
    max: VoxelPos { x: 30, y: 36, z: 2 },
};

#[derive(Debug, Clone)]
enum Fill {
    Solid(u8),
    Partial(u8, u8),
    Noise(u64),
}

fn voxel_at(fill: &Fill, i: usize) -> Voxel {
    match *fill {
        Fill::Solid(m) => Voxel::filled(m),
        Fill::Partial(m, o) => Voxel::new(m, o),
        Fill::Noise(seed) => {
            let h = (i as u64 ^ seed).wrapping_mul(0x9e37_79b9_7f4a_7c15) >> 40;
            // Air with garbage occupancy on purpose: the grid must normalize it.
            Voxel {
                material: (h % 5) as u8,
                occupancy: (h >> 8) as u8,
            }
        }
    }
}

fn arb_box() -> impl Strategy<Value = VoxelBox> {
    let [sx, sy, sz] = REGION.size();
    (0..sx, 0..sy, 0..sz, 1..40usize, 1..40usize, 1..40usize).prop_map(move |(x, y, z, w, h, d)| {
        let min = VoxelPos::new(
            REGION.min.x + x as i32,
            REGION.min.y + y as i32,
            REGION.min.z + z as i32,
        );
        let size = [
            w.min(sx - x) as u32,
            h.min(sy - y) as u32,
            d.min(sz - z) as u32,
        ];
        VoxelBox::from_min_size(min, size)
    })
}

fn arb_fill() -> impl Strategy<Value = Fill> {
    prop_oneof![
        (0u8..4).prop_map(Fill::Solid),
        (0u8..4, any::<u8>()).prop_map(|(m, o)| Fill::Partial(m, o)),
        any::<u64>().prop_map(Fill::Noise),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn random_writes_match_dense_reference(ops in proptest::collection::vec((arb_box(), arb_fill(), any::<bool>()), 1..12)) {
        let mut grid = Grid::new();
        let mut reference = vec![Voxel::AIR; REGION.volume()];
        for (b, fill, via_modify) in ops {
            if via_modify {
                grid.modify_box(b, |p, _| voxel_at(&fill, b.index_of(p)));
            } else {
                let src: Vec<Voxel> = (0..b.volume()).map(|i| voxel_at(&fill, i)).collect();
                grid.write_box(b, &src);
            }
            for z in b.min.z..b.max.z {
                for y in b.min.y..b.max.y {
                    for x in b.min.x..b.max.x {
                        let p = VoxelPos::new(x, y, z);
                        let v = voxel_at(&fill, b.index_of(p));
                        reference[REGION.index_of(p)] = Voxel::new(v.material, v.occupancy);
                    }
                }
            }
            grid.assert_valid();
            prop_assert_eq!(&grid.read_box_vec(REGION), &reference);
            let probe = VoxelPos::new(b.min.x, b.max.y - 1, b.min.z);
            prop_assert_eq!(grid.get(probe), reference[REGION.index_of(probe)]);
        }
        let nonair = reference.iter().filter(|v| !v.is_air()).count() as u64;
        prop_assert_eq!(grid.stats().nonair_voxels, nonair);
    }
}
