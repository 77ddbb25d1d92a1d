//! One level of detail (or the collision mesh) of one tile, in the tile's local coordinates: the
//! plain vertex and index lists the cutter fills, the simplifier reduces and the writer encodes.

use rustc_hash::FxHashMap;

/// One level (or the collision) of one tile, in the tile's local coordinates.
#[derive(Debug, Default, Clone)]
pub(super) struct TileLevel {
    /// Positions relative to the tile's corner, world units.
    pub positions: Vec<[f32; 3]>,
    /// Unit normals.
    pub normals: Vec<[f32; 3]>,
    /// Linear baked light (white without a bake).
    pub light: Vec<[f32; 3]>,
    /// The four material ids of each vertex, heaviest first, flag bits dropped.
    pub slots: Vec<[u8; 4]>,
    /// Their weights, summing to 255.
    pub weights: Vec<[u8; 4]>,
    /// Solid triangles.
    pub solid: Vec<u32>,
    /// Liquid triangles.
    pub water: Vec<u32>,
}

impl TileLevel {
    /// Triangles over both lists.
    pub fn triangles(&self) -> usize {
        (self.solid.len() + self.water.len()) / 3
    }

    /// A copy holding only the vertices `solid` and `water` use, in first-use order.
    pub fn compacted(&self, solid: &[u32], water: &[u32]) -> TileLevel {
        let mut out = TileLevel::default();
        let mut map: FxHashMap<u32, u32> = FxHashMap::default();
        for (src, water_list) in [(solid, false), (water, true)] {
            for &v in src {
                let next = out.positions.len() as u32;
                let local = *map.entry(v).or_insert_with(|| {
                    out.push_from(self, v as usize);
                    next
                });
                if water_list {
                    out.water.push(local);
                } else {
                    out.solid.push(local);
                }
            }
        }
        out
    }

    fn push_from(&mut self, src: &TileLevel, k: usize) {
        self.positions.push(src.positions[k]);
        self.normals.push(src.normals[k]);
        self.light.push(src.light[k]);
        self.slots.push(src.slots[k]);
        self.weights.push(src.weights[k]);
    }
}
