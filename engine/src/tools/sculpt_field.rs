//! The voxels a dab reads: its box plus a one-voxel margin, with each voxel's solid fraction, and the
//! rule that turns a new solid fraction back into a valid voxel.
//!
//! Sculpting works on the *solid* field: Air and liquids (water) count as occupancy 0, so brushes shape
//! ground and leave water alone unless they put ground where it was (Roblox's "Ignore Water", always
//! on; Sea Level is the water tool). Kernels read the old state only (never their own output), so the
//! result of a dab does not depend on the order voxels are visited in.

use crate::storage::Grid;
use crate::voxel::{
    MaterialTable, Voxel, VoxelBox, VoxelPos, AIR, MATERIAL_COUNT, MIN_MATTER_OCCUPANCY,
};

/// What a dab needs to know about materials.
#[derive(Debug, Clone)]
pub(crate) struct Palette {
    liquid: [bool; MATERIAL_COUNT],
    count: usize,
    water: Option<u8>,
    /// Matter thinner than this occupancy byte becomes Air ([`MIN_MATTER_OCCUPANCY`]).
    floor: u8,
}

impl Palette {
    pub fn new(table: &MaterialTable) -> Self {
        let mut liquid = [false; MATERIAL_COUNT];
        for (i, m) in table.materials.iter().enumerate().take(MATERIAL_COUNT) {
            liquid[i] = m.liquid;
        }
        let named = table.id_of("Water").filter(|&id| liquid[usize::from(id)]);
        let water = named.or_else(|| liquid.iter().position(|&l| l).map(|i| i as u8));
        Self {
            liquid,
            count: table.len().min(MATERIAL_COUNT),
            water,
            floor: MIN_MATTER_OCCUPANCY,
        }
    }

    /// The palette with another thinnest-matter floor (0: keep any matter; tests compare the rule
    /// against the behaviour without it).
    #[cfg(test)]
    pub fn with_floor(mut self, floor: u8) -> Self {
        self.floor = floor;
        self
    }

    /// True for a material of the table that is neither Air nor liquid.
    #[inline]
    pub fn is_solid(&self, id: u8) -> bool {
        id != AIR && usize::from(id) < self.count && !self.liquid[usize::from(id)]
    }

    /// True for a liquid material of the table.
    #[inline]
    pub fn is_liquid(&self, id: u8) -> bool {
        usize::from(id) < self.count && self.liquid[usize::from(id)]
    }

    /// True when `id` is in the table.
    #[inline]
    pub fn contains(&self, id: u8) -> bool {
        usize::from(id) < self.count
    }

    /// The water material: "Water" if it is liquid, else the first liquid.
    pub fn water(&self) -> Option<u8> {
        self.water
    }

    /// Solid fraction of a voxel: its occupancy for solid materials, 0 for Air and liquids.
    #[inline]
    pub fn solid(&self, v: Voxel) -> f32 {
        if self.is_solid(v.material) {
            v.occupancy_f32()
        } else {
            0.0
        }
    }
}

/// A box of voxels read from the grid with their solid fractions (X fastest, then Y, then Z).
#[derive(Debug, Clone)]
pub(crate) struct Field {
    pub region: VoxelBox,
    pub voxels: Vec<Voxel>,
    pub solid: Vec<f32>,
    sx: usize,
    sxy: usize,
}

/// Offsets of the 26 neighbours.
const AROUND: [[i32; 3]; 26] = {
    let mut out = [[0; 3]; 26];
    let mut k = 0;
    let mut i = 0;
    while i < 27 {
        let d = [i % 3 - 1, (i / 3) % 3 - 1, i / 9 - 1];
        if !(d[0] == 0 && d[1] == 0 && d[2] == 0) {
            out[k] = d;
            k += 1;
        }
        i += 1;
    }
    out
};

impl Field {
    /// Read `inner` grown by one voxel on every side.
    pub fn read(grid: &Grid, palette: &Palette, inner: VoxelBox) -> Self {
        let region = VoxelBox::new(
            VoxelPos::new(inner.min.x - 1, inner.min.y - 1, inner.min.z - 1),
            VoxelPos::new(inner.max.x + 1, inner.max.y + 1, inner.max.z + 1),
        );
        let voxels = grid.read_box_vec(region);
        let solid = voxels.iter().map(|&v| palette.solid(v)).collect();
        let [sx, sy, _] = region.size();
        Self {
            region,
            voxels,
            solid,
            sx,
            sxy: sx * sy,
        }
    }

    /// Index of `p`, which must lie inside the region.
    #[inline]
    pub fn index(&self, p: VoxelPos) -> usize {
        self.region.index_of(p)
    }

    /// Linear index step for offset `d`.
    #[inline]
    fn step(&self, d: [i32; 3]) -> isize {
        d[0] as isize + d[1] as isize * self.sx as isize + d[2] as isize * self.sxy as isize
    }

    /// Solid fraction at index `i` offset by `d` (`i` must be at least one voxel inside the region).
    #[inline]
    pub fn solid_at(&self, i: usize, d: [i32; 3]) -> f32 {
        self.solid[i.wrapping_add_signed(self.step(d))]
    }

    /// Mean solid fraction of the six face neighbours of index `i`.
    #[inline]
    pub fn mean6(&self, i: usize) -> f32 {
        let (x, y, z) = (1, self.sx, self.sxy);
        let s = &self.solid;
        (s[i - x] + s[i + x] + s[i - y] + s[i + y] + s[i - z] + s[i + z]) / 6.0
    }

    /// Mean solid fraction of the 3×3×3 block around index `i` (itself included).
    #[inline]
    pub fn mean27(&self, i: usize) -> f32 {
        let mut sum = 0.0;
        for dz in [-(self.sxy as isize), 0, self.sxy as isize] {
            for dy in [-(self.sx as isize), 0, self.sx as isize] {
                let row = i.wrapping_add_signed(dz + dy);
                sum += self.solid[row - 1] + self.solid[row] + self.solid[row + 1];
            }
        }
        sum / 27.0
    }

    /// True when any of the 26 neighbours of index `i` is less than full ground.
    pub fn touches_open(&self, i: usize) -> bool {
        AROUND.iter().any(|&d| self.solid_at(i, d) < 1.0)
    }

    /// The material of the neighbour of index `i` with the most ground (ties: first in a fixed
    /// order), if any neighbour has ground.
    pub fn dominant_neighbour(&self, i: usize) -> Option<u8> {
        let mut best: Option<(f32, u8)> = None;
        for &d in &AROUND {
            let j = i.wrapping_add_signed(self.step(d));
            let s = self.solid[j];
            if s > 0.0 && best.is_none_or(|(b, _)| s > b) {
                best = Some((s, self.voxels[j].material));
            }
        }
        best.map(|(_, m)| m)
    }
}

impl Palette {
    /// The voxel that results from changing `old` (solid fraction `old_solid`) to solid fraction
    /// `new`.
    ///
    /// Growth takes `grow_material` (`None`: no growth possible); shrinking keeps the material, and
    /// matter that shrinks below the palette's floor becomes Air, so carving always ends in empty
    /// space. Growth keeps any amount, so weak dabs add up (a film too thin to show stays until more
    /// is added; the Clean-up action clears what is left). When the change rounds away in the
    /// occupancy byte, `old` comes back unchanged, so a dab that changes nothing writes nothing.
    #[inline]
    pub fn settle(&self, old: Voxel, old_solid: f32, new: f32, grow_material: Option<u8>) -> Voxel {
        if new > old_solid {
            let Some(m) = grow_material else {
                return old;
            };
            let v = Voxel::from_fraction_above(m, new, 0);
            if v.occupancy_f32() > old_solid {
                v
            } else {
                old
            }
        } else if new < old_solid {
            let v = Voxel::from_fraction_above(old.material, new, self.floor);
            if v.occupancy_f32() < old_solid {
                v
            } else {
                old
            }
        } else {
            old
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn settle_keeps_unchanged_voxels_identical() {
        let p = Palette::new(&MaterialTable::builtin());
        let rock = Voxel::new(3, 200);
        let s = rock.occupancy_f32();
        assert_eq!(p.settle(rock, s, s + 0.0001, Some(5)), rock);
        assert_eq!(p.settle(rock, s, s - 0.0001, Some(5)), rock);
        assert_eq!(p.settle(rock, s, 1.0, Some(5)), Voxel::new(5, 255));
        assert_eq!(p.settle(rock, s, 0.0, Some(5)), Voxel::AIR);
        assert_eq!(p.settle(Voxel::AIR, 0.0, 0.5, None), Voxel::AIR);
        assert_eq!(p.settle(Voxel::AIR, 0.0, 0.5, Some(4)), Voxel::new(4, 127));
    }

    #[test]
    fn thin_matter_settles_to_air() {
        let p = Palette::new(&MaterialTable::builtin());
        let thin = Voxel::new(3, 0);
        // Halving 1/256 rounds back to 1/256: without the floor carving could never reach Air.
        let kept = p.clone().with_floor(0);
        assert_eq!(
            kept.settle(thin, thin.occupancy_f32(), 0.5 / 256.0, None),
            thin
        );
        assert_eq!(
            p.settle(thin, thin.occupancy_f32(), 0.5 / 256.0, None),
            Voxel::AIR
        );
        let rock = Voxel::filled(3);
        assert_eq!(p.settle(rock, 1.0, 0.05, None), Voxel::AIR);
        assert_eq!(p.settle(rock, 1.0, 0.07, None), Voxel::new(3, 17));
        // Growth keeps any amount, so weak dabs add up.
        assert_eq!(p.settle(Voxel::AIR, 0.0, 0.05, Some(3)), Voxel::new(3, 12));
    }

    #[test]
    fn neighbourhood_reads() {
        let table = MaterialTable::builtin();
        let palette = Palette::new(&table);
        let water = palette.water().expect("builtin has water");
        assert!(palette.is_liquid(water) && !palette.is_solid(water));
        let mut grid = Grid::new();
        grid.set(VoxelPos::new(1, 0, 0), Voxel::filled(3));
        grid.set(VoxelPos::new(0, 1, 0), Voxel::new(4, 127));
        grid.set(VoxelPos::new(0, -1, 0), Voxel::filled(water));
        let inner = VoxelBox::from_min_size(VoxelPos::new(0, 0, 0), [1, 1, 1]);
        let f = Field::read(&grid, &palette, inner);
        let i = f.index(VoxelPos::new(0, 0, 0));
        assert_eq!(f.mean6(i), 1.5 / 6.0);
        assert_eq!(f.mean27(i), 1.5 / 27.0);
        assert_eq!(f.dominant_neighbour(i), Some(3));
        assert!(f.touches_open(i));
    }
}
