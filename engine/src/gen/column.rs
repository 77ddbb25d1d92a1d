//! Per-column 2D data: surface height, slope and layer materials for the 32×32 voxel columns of one
//! chunk column, computed once and reused for every chunk stacked in it.

use super::materials::{Layers, MaterialRules};
use super::shape::Shape;
use crate::voxel::CHUNK_SIZE;

/// Edge of the height grid: the chunk's columns plus a one-voxel border for slopes.
const GRID: usize = CHUNK_SIZE + 2;

/// One voxel column (fixed x, z) of a chunk column.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Cell {
    /// Surface height in voxels; voxel `y` is solid over `clamp(h - y, 0, 1)` of its height.
    pub(crate) h: f32,
    /// Highest voxel with any solid (`ceil(h) - 1`); -1 when the column is empty.
    pub(crate) top: i32,
    /// Surface and soil layers.
    pub(crate) layers: Layers,
    /// False for columns outside the world's X/Z bounds (all Air).
    pub(crate) inside: bool,
}

/// The 2D data of one chunk column, with reusable buffers.
pub(crate) struct ColumnData {
    /// Cells by `lz * 32 + lx`.
    pub(crate) cells: Vec<Cell>,
    /// Scratch heights on a (32 + 2)² grid, index `(lz + 1) * GRID + (lx + 1)`.
    heights: Vec<f64>,
    /// Largest `top` over the cells inside the world (-1 if none).
    pub(crate) max_top: i32,
    /// Largest surface height over the cells inside the world.
    pub(crate) max_h: f32,
    /// True when any cell lies inside the world.
    pub(crate) any_inside: bool,
}

impl ColumnData {
    /// Empty buffers, ready for [`ColumnData::compute`].
    pub(crate) fn new() -> Self {
        let empty = Cell {
            h: 0.0,
            top: -1,
            layers: Layers {
                top: 0,
                top_depth: 0,
                soil: 0,
                soil_depth: 0,
            },
            inside: false,
        };
        Self {
            cells: vec![empty; CHUNK_SIZE * CHUNK_SIZE],
            heights: vec![0.0; GRID * GRID],
            max_top: -1,
            max_h: 0.0,
            any_inside: false,
        }
    }

    /// Fill the data for chunk column (`cx`, `cz`) of a world of X/Z size `size_xz`.
    pub(crate) fn compute(
        &mut self,
        shape: &Shape,
        rules: &MaterialRules,
        size_xz: [u32; 2],
        cx: i32,
        cz: i32,
    ) {
        let x0 = i64::from(cx) * CHUNK_SIZE as i64;
        let z0 = i64::from(cz) * CHUNK_SIZE as i64;
        self.max_top = -1;
        self.max_h = 0.0;
        self.any_inside = false;
        let span = |o: i64, size: u32| o < i64::from(size) && o + CHUNK_SIZE as i64 > 0;
        if !span(x0, size_xz[0]) || !span(z0, size_xz[1]) {
            for cell in &mut self.cells {
                cell.inside = false;
                cell.top = -1;
            }
            return;
        }
        // Heights are sampled at column centres; the border feeds the slope's central differences.
        for gz in 0..GRID {
            for gx in 0..GRID {
                let x = (x0 + gx as i64 - 1) as f64 + 0.5;
                let z = (z0 + gz as i64 - 1) as f64 + 0.5;
                self.heights[gz * GRID + gx] = shape.height(x, z);
            }
        }
        for lz in 0..CHUNK_SIZE {
            for lx in 0..CHUNK_SIZE {
                let (x, z) = (x0 + lx as i64, z0 + lz as i64);
                let cell = &mut self.cells[lz * CHUNK_SIZE + lx];
                cell.inside = (0..i64::from(size_xz[0])).contains(&x)
                    && (0..i64::from(size_xz[1])).contains(&z);
                if !cell.inside {
                    cell.top = -1;
                    continue;
                }
                self.any_inside = true;
                let g = (lz + 1) * GRID + (lx + 1);
                let h = self.heights[g];
                let dx = (self.heights[g + 1] - self.heights[g - 1]) * 0.5;
                let dz = (self.heights[g + GRID] - self.heights[g - GRID]) * 0.5;
                let slope = dx.hypot(dz);
                let hf = h as f32;
                cell.h = hf;
                cell.top = hf.ceil() as i32 - 1;
                cell.layers = rules.layers(x as f64 + 0.5, z as f64 + 0.5, h, slope);
                self.max_top = self.max_top.max(cell.top);
                self.max_h = self.max_h.max(hf);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::materials::Palette;
    use super::super::preset::Preset;
    use super::*;
    use crate::voxel::MaterialTable;

    fn setup(preset: Preset, y: u32) -> (Shape, MaterialRules) {
        let palette = Palette::new(&MaterialTable::builtin()).expect("palette");
        let shape = Shape::new(preset, y, 11);
        let sea = shape.sea_fraction() * f64::from(y);
        (shape, MaterialRules::new(preset, y, 11, sea, palette))
    }

    #[test]
    fn cells_match_the_height_function() {
        let (shape, rules) = setup(Preset::Hills, 64);
        let mut data = ColumnData::new();
        data.compute(&shape, &rules, [100, 100], 1, 2);
        for lz in 0..CHUNK_SIZE {
            for lx in 0..CHUNK_SIZE {
                let cell = data.cells[lz * CHUNK_SIZE + lx];
                let (x, z) = (32 + lx, 64 + lz);
                assert_eq!(cell.inside, x < 100 && z < 100);
                if cell.inside {
                    let h = shape.height(x as f64 + 0.5, z as f64 + 0.5) as f32;
                    assert_eq!(cell.h, h);
                    assert!(cell.top as f32 <= h && h <= cell.top as f32 + 1.0);
                    assert!(cell.top <= data.max_top);
                } else {
                    assert_eq!(cell.top, -1);
                }
            }
        }
        assert!(data.max_top >= 0);
    }

    #[test]
    fn outside_columns_are_empty() {
        let (shape, rules) = setup(Preset::Flat, 64);
        let mut data = ColumnData::new();
        data.compute(&shape, &rules, [64, 64], 5, 0);
        assert!(data.cells.iter().all(|c| !c.inside && c.top == -1));
        assert_eq!(data.max_top, -1);
        assert!(!data.any_inside);
        data.compute(&shape, &rules, [64, 64], 0, 0);
        assert!(data
            .cells
            .iter()
            .all(|c| c.inside && c.h == 16.0 && c.top == 15));
    }
}
