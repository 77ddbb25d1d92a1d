//! The scalar field the mesher contours, and the per-material facts it needs.
//!
//! Each voxel becomes one density sample at its centre: `density = occupancy − 0.5` when the voxel
//! belongs to the surface being meshed, and `−0.5` (empty) otherwise. The surface is where density
//! crosses 0, that is where occupancy crosses one half. Two fields are contoured per box:
//!
//! ```text
//!   voxel class:     Air    Solid (not liquid)   Liquid (water)
//!   solid field:    −0.5    occupancy − 0.5       −0.5
//!   water field:    −0.5    −0.5                  occupancy − 0.5
//! ```
//!
//! So the ground under a lake is meshed by the solid field (water counts as empty there), and the water
//! body is meshed by the water field; its faces against solid ground are dropped by the quad pass
//! (`nets`), which leaves the water surface a separate sheet the viewport can draw apart.
//!
//! Materials missing from the table are treated as smooth solids with a neutral grey color, so meshing
//! never fails on unexpected ids.

use super::needed_rows::{crossing_cell_rows, needed_row_bits, needed_rows};
use super::one_material_rows::{lone_densities, scan_lone};
use super::set_bits::set_bits;
use crate::voxel::{MaterialTable, Shaping, Voxel, MATERIAL_COUNT};

/// Which of the two surfaces a pass extracts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Surface {
    /// Every non-liquid material.
    Solid,
    /// Liquid materials (water).
    Water,
}

/// What a material is to the mesher.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Class {
    Air,
    Solid,
    Liquid,
}

/// Per-material lookup tables built once per mesh call from a [`MaterialTable`].
#[derive(Debug, Clone)]
pub(crate) struct MaterialLut {
    pub class: [Class; MATERIAL_COUNT],
    pub sharp: [bool; MATERIAL_COUNT],
}

/// `occupancy_f32 − 0.5` for every non-air occupancy byte.
static DENSITY_OF_BYTE: [f32; 256] = density_table();

/// [`EMPTY`] for the first 256 entries (not matter), then [`DENSITY_OF_BYTE`]: a branch-free lookup
/// indexed by `member << 8 | occupancy`.
static DENSITY_OR_EMPTY: [f32; 512] = {
    let mut t = [EMPTY; 512];
    let mut i = 0;
    while i < 256 {
        t[256 + i] = DENSITY_OF_BYTE[i];
        i += 1;
    }
    t
};

const fn density_table() -> [f32; 256] {
    let mut t = [0.0f32; 256];
    let mut i = 0;
    while i < 256 {
        // (v + 1) / 256 − 0.5 = (v − 127) / 256, exact in f32.
        t[i] = (i as f32 - 127.0) / 256.0;
        i += 1;
    }
    t
}

/// Density of an empty sample.
pub(crate) const EMPTY: f32 = -0.5;
/// Density of a full sample (occupancy byte 255).
pub(crate) const FULL: f32 = 0.5;

impl MaterialLut {
    /// Tables for `table`; ids past its end are smooth grey solids.
    pub fn new(table: &MaterialTable) -> Self {
        let mut lut = Self {
            class: [Class::Solid; MATERIAL_COUNT],
            sharp: [false; MATERIAL_COUNT],
        };
        lut.class[0] = Class::Air;
        for (i, m) in table.materials.iter().enumerate().take(MATERIAL_COUNT) {
            if i != 0 {
                lut.class[i] = if m.liquid {
                    Class::Liquid
                } else {
                    Class::Solid
                };
            }
            lut.sharp[i] = m.shaping == Shaping::Sharp;
        }
        lut
    }

    /// The class of material `id` in `table` (a cheap lookup for callers without a table).
    pub fn class_in(table: &MaterialTable, id: u8) -> Class {
        match table.get(id & 0x3f) {
            _ if id & 0x3f == 0 => Class::Air,
            Some(m) if m.liquid => Class::Liquid,
            _ => Class::Solid,
        }
    }

    /// The class of a voxel's material.
    #[inline]
    pub fn class_of(&self, v: Voxel) -> Class {
        self.class[usize::from(v.material & 0x3f)]
    }

    /// True when voxels of class `c` are matter for `surface`.
    #[inline]
    pub fn member(surface: Surface, c: Class) -> bool {
        matches!(
            (surface, c),
            (Surface::Solid, Class::Solid) | (Surface::Water, Class::Liquid)
        )
    }
}

/// Row state: every sample of the row is outside.
pub(crate) const ROW_OUT: u8 = 0;
/// Row state: every sample of the row is inside.
pub(crate) const ROW_IN: u8 = 1;
/// Row state: the row has inside and outside samples.
pub(crate) const ROW_MIXED: u8 = 2;

/// [`Rows::lone`] of a row whose non-air voxels differ in material.
pub(crate) const MIXED_MATERIALS: u16 = 0x100;

/// Per-row facts about a filled box, reused between calls.
#[derive(Debug, Default, Clone)]
pub(crate) struct Rows {
    /// State of each X row (`ROW_*`), index `z · ny + y`.
    pub state: Vec<u8>,
    /// Inside bits of each X row when rows fit in 64 samples, else empty.
    pub bits: Vec<u64>,
    /// Rows whose densities were written (narrow boxes taller than 64 rows only), index `z · ny + y`.
    pub needed: Vec<bool>,
    /// Rows whose densities were written as one bit set over Y per Z (narrow boxes up to 64 rows
    /// tall).
    pub needed_bits: Vec<u64>,
    /// The cell rows with surface cells, one bit set over Y per Z (`needed_rows::crossing_cell_rows`;
    /// narrow boxes up to 64 rows tall with a surface, else empty).
    pub crossing: Vec<u64>,
    /// The sample rows whose edges can cross the surface, one bit set over Y per Z
    /// (`needed_rows::crossing_cell_rows`; as `crossing`).
    pub edge_rows: Vec<u64>,
    /// Rows that are one voxel repeated (narrow boxes only).
    pub uniform: Vec<bool>,
    /// The material byte of every voxel of each row that can be matter of the surface (0 when none
    /// can), or [`MIXED_MATERIALS`] (narrow boxes only).
    pub lone: Vec<u16>,
    /// Rows holding a liquid voxel, found by the last [`Surface::Solid`] fill (narrow boxes only).
    pub wet: Vec<bool>,
}

/// What [`fill_density`] saw.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Summary {
    /// Some sample is inside.
    pub inside: bool,
    /// Some sample is outside.
    pub outside: bool,
    /// Some voxel is a liquid (so the water field is worth contouring).
    pub liquid: bool,
}

/// Fill `out` with the densities of `voxels` (a box of `size` samples) for `surface`, and `rows` with
/// the state of each X row ([`ROW_OUT`], [`ROW_IN`] or [`ROW_MIXED`]), so the passes that follow can
/// skip rows far from the surface.
///
/// When a row fits in 64 samples, `bits` gets each row's inside bits (bit `x` set when sample `x` is
/// inside), and densities are written only for the rows the mesher can read: those within two rows
/// (in Y and Z) of a cell row that crosses the surface. Other entries of `out` are stale. Wider boxes
/// get every density and an empty `bits`.
///
/// A [`Surface::Water`] fill must follow the [`Surface::Solid`] fill of the same `voxels` with the
/// same `rows` (as [`crate::mesh::mesh`] does): it skips the rows that fill found no liquid in, which
/// on most chunks is nearly all of them.
pub(crate) fn fill_density(
    voxels: &[Voxel],
    size: [usize; 3],
    lut: &MaterialLut,
    surface: Surface,
    out: &mut Vec<f32>,
    rows: &mut Rows,
) -> Summary {
    let code = material_codes(lut, surface);
    rows.state.clear();
    rows.bits.clear();
    rows.lone.clear();
    rows.crossing.clear();
    rows.edge_rows.clear();
    if size[0] <= 64 {
        return fill_narrow(voxels, size, &code, surface, out, rows);
    }
    out.clear();
    out.reserve(voxels.len());
    let mut liquid = 0u8;
    for row in voxels.chunks_exact(size[0]) {
        let start = out.len();
        out.extend(row.iter().map(|v| {
            let c = code[usize::from(v.material & 0x3f)];
            liquid |= c;
            density_of(c, *v)
        }));
        // Min and max without early exit: a straight loop the compiler vectorises.
        let (lo, hi) = out[start..]
            .iter()
            .fold((f32::MAX, f32::MIN), |(lo, hi), &d| (lo.min(d), hi.max(d)));
        rows.state.push(row_state(hi > 0.0, lo <= 0.0));
    }
    summary(&rows.state, liquid)
}

/// Each material's code for `surface`: bit 0 set when it is matter of the surface, bit 1 when it is
/// a liquid.
pub(crate) fn material_codes(lut: &MaterialLut, surface: Surface) -> [u8; MATERIAL_COUNT] {
    let mut code = [0u8; MATERIAL_COUNT];
    for (c, class) in code.iter_mut().zip(lut.class.iter()) {
        *c = u8::from(MaterialLut::member(surface, *class))
            | (u8::from(*class == Class::Liquid) << 1);
    }
    code
}

/// The density of voxel `v` whose material has code `code` (see [`material_codes`]).
#[inline]
pub(crate) fn density_of(code: u8, v: Voxel) -> f32 {
    DENSITY_OR_EMPTY[(usize::from(code & 1) << 8) | usize::from(v.occupancy)]
}

fn row_state(inside: bool, outside: bool) -> u8 {
    match (inside, outside) {
        (true, true) => ROW_MIXED,
        (true, false) => ROW_IN,
        _ => ROW_OUT,
    }
}

fn summary(rows: &[u8], liquid: u8) -> Summary {
    Summary {
        inside: rows.iter().any(|&r| r != ROW_OUT),
        outside: rows.iter().any(|&r| r != ROW_IN),
        liquid: liquid & 2 != 0,
    }
}

/// True when every voxel of `row` equals the first (an OR of XORs, which the compiler vectorises).
#[inline]
fn is_uniform(row: &[Voxel]) -> bool {
    let key = |v: &Voxel| u16::from(v.material) | u16::from(v.occupancy) << 8;
    let first = row.first().map_or(0, key);
    row.iter().fold(0, |diff, v| diff | (key(v) ^ first)) == 0
}

/// Inside bits of a row of at most 64 voxels (bit `x` set when voxel `x` is matter of the surface
/// more than half full); ORs the voxels' codes into `codes`.
#[inline]
pub(crate) fn inside_bits(row: &[Voxel], code: &[u8; MATERIAL_COUNT], codes: &mut u8) -> u64 {
    let mut bits = 0u64;
    let mut seen = 0u8;
    // The bits are gathered in a register: eight 0/1 bytes written to memory and read back as one
    // word wait for the eight stores to retire.
    for (k, group) in row.chunks(8).enumerate() {
        let mut packed = 0u64;
        for (j, v) in group.iter().enumerate() {
            let c = code[usize::from(v.material & 0x3f)];
            seen |= c;
            packed |= u64::from(c & (v.occupancy >> 7) & 1) << j;
        }
        bits |= packed << (8 * k);
    }
    *codes |= seen;
    bits
}

/// The narrow-box path of [`fill_density`]: inside bits first, then densities of the needed rows.
fn fill_narrow(
    voxels: &[Voxel],
    size: [usize; 3],
    code: &[u8; MATERIAL_COUNT],
    surface: Surface,
    out: &mut Vec<f32>,
    rows: &mut Rows,
) -> Summary {
    let [nx, ny, nz] = size;
    let full = u64::MAX >> (64 - nx);
    let mut liquid = 0u8;
    let solid = surface == Surface::Solid;
    if solid {
        rows.wet.clear();
    }
    rows.uniform.clear();
    for (r, row) in voxels.chunks_exact(nx).enumerate() {
        if !solid && rows.wet.get(r) == Some(&false) {
            // No liquid: every sample is outside the water field (written as one EMPTY repeated).
            rows.uniform.push(true);
            rows.lone.push(0);
            rows.bits.push(0);
            rows.state.push(ROW_OUT);
            continue;
        }
        let mut row_liquid = 0u8;
        let uniform = is_uniform(row);
        rows.uniform.push(uniform);
        // Inside: matter of this surface (bit 0) with occupancy above one half (byte > 127).
        let b = if uniform {
            // Most rows (air above the ground, rock below it) are one voxel repeated.
            let id = row[0].material & 0x3f;
            rows.lone
                .push(if id == 0 { 0 } else { row[0].material.into() });
            let c = code[usize::from(id)];
            row_liquid |= c;
            full * u64::from(c & (row[0].occupancy >> 7) & 1)
        } else {
            let scan = scan_lone(row);
            rows.lone
                .push(scan.material.map_or(MIXED_MATERIALS, u16::from));
            match scan.material {
                // Air and one material: one code for the row.
                Some(material) => {
                    let c = code[usize::from(material & 0x3f)];
                    row_liquid |= c;
                    scan.inside * u64::from(c & 1)
                }
                None => inside_bits(row, code, &mut row_liquid),
            }
        };
        rows.bits.push(b);
        rows.state.push(row_state(b != 0, b != full));
        liquid |= row_liquid;
        if solid {
            rows.wet.push(row_liquid & 2 != 0);
        }
    }
    let seen = summary(&rows.state, liquid);
    if !(seen.inside && seen.outside) {
        return seen;
    }
    if out.len() != voxels.len() {
        out.clear();
        out.resize(voxels.len(), EMPTY);
    }
    // Rows the vertex and quad passes read (see `needed_rows`): as one bit set over Y per Z when a
    // column fits in 64 rows, else one flag per row.
    let column_bits = ny <= 64;
    if column_bits {
        let sets = (&mut rows.crossing, &mut rows.edge_rows);
        crossing_cell_rows(&rows.bits, [ny, nz], full, sets);
        needed_row_bits(&rows.crossing, [ny, nz], &mut rows.needed_bits);
    } else {
        needed_rows(&rows.bits, [ny, nz], full, &mut rows.needed);
    }
    let mut write = |r: usize| {
        let (row, dst) = (
            &voxels[r * nx..(r + 1) * nx],
            &mut out[r * nx..(r + 1) * nx],
        );
        if rows.uniform[r] {
            dst.fill(density_of(
                code[usize::from(row[0].material & 0x3f)],
                row[0],
            ));
        } else {
            match rows.lone[r] {
                MIXED_MATERIALS => {
                    for (o, v) in dst.iter_mut().zip(row) {
                        *o = density_of(code[usize::from(v.material & 0x3f)], *v);
                    }
                }
                material if code[usize::from(material & 0x3f)] & 1 == 1 => {
                    lone_densities(row, dst, EMPTY)
                }
                _ => dst.fill(EMPTY),
            }
        }
    };
    // Only the needed rows are visited: the set bits of each Z's marks, or the flagged rows.
    if column_bits {
        for (z, &marks) in rows.needed_bits.iter().enumerate() {
            for y in set_bits(marks) {
                write(z * ny + y);
            }
        }
    } else {
        for r in 0..ny * nz {
            if rows.needed[r] {
                write(r);
            }
        }
    }
    seen
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mesh::test_rng::XorShift;

    /// Seeded rows of air and one material (`id`), with every occupancy, and some flagged ids.
    fn rows(id: u8) -> Vec<Vec<Voxel>> {
        let mut rng = XorShift(0x2545_f491_4f6c_dd1du64 ^ u64::from(id));
        let mut next = || rng.next_u64();
        (1..=64)
            .map(|len| {
                (0..len)
                    .map(|_| {
                        let r = next();
                        // Air sometimes carries flag bits above its id 0.
                        let air = if r & 0x3000 == 0 { 0x40 } else { 0 };
                        let m = if r & 1 == 0 { air } else { id };
                        Voxel {
                            material: m,
                            occupancy: (r >> 16) as u8,
                        }
                    })
                    .collect()
            })
            .collect()
    }

    #[test]
    fn lone_kernels_equal_the_per_voxel_lookup() {
        let table = MaterialTable::builtin();
        for surface in [Surface::Solid, Surface::Water] {
            let code = material_codes(&MaterialLut::new(&table), surface);
            for id in 0..64u8 {
                for row in rows(id) {
                    let scan = scan_lone(&row);
                    let found = scan.material.expect("air and one material");
                    let all_air = row.iter().all(|v| v.material & 0x3f == 0);
                    assert_eq!(found, if all_air { 0 } else { id });
                    let member = code[usize::from(found)] & 1 == 1;
                    let mut seen = 0u8;
                    let want_bits = inside_bits(&row, &code, &mut seen);
                    assert_eq!(seen & !code[usize::from(found)], 0, "one code per row");
                    let bits = if member { scan.inside } else { 0 };
                    assert_eq!(bits, want_bits, "row {row:?}");
                    let want: Vec<u32> = row
                        .iter()
                        .map(|v| density_of(code[usize::from(v.material & 0x3f)], *v).to_bits())
                        .collect();
                    let mut got = vec![0.0f32; row.len()];
                    if member {
                        lone_densities(&row, &mut got, EMPTY);
                    } else {
                        got.fill(EMPTY);
                    }
                    let got: Vec<u32> = got.iter().map(|d| d.to_bits()).collect();
                    assert_eq!(got, want, "row {row:?}");
                }
            }
        }
    }

    #[test]
    fn density_matches_occupancy() {
        for occ in 0..=255u8 {
            let v = Voxel::new(7, occ);
            assert_eq!(DENSITY_OF_BYTE[usize::from(occ)], v.occupancy_f32() - 0.5);
        }
    }

    #[test]
    fn fields_separate_water_from_ground() {
        let table = MaterialTable::builtin();
        let lut = MaterialLut::new(&table);
        let water = table.require("Water").expect("water");
        let rock = table.require("Rock").expect("rock");
        let row = [Voxel::AIR, Voxel::filled(water), Voxel::filled(rock)];
        let voxels = row.repeat(4);
        let (mut d, mut rows) = (Vec::new(), Rows::default());
        let mut fill = |v: &[Voxel], size, surface| {
            let s = fill_density(v, size, &lut, surface, &mut d, &mut rows);
            (s, d.clone(), rows.state.clone(), rows.bits.clone())
        };
        let (s, d, rows, bits) = fill(&voxels, [3, 2, 2], Surface::Solid);
        assert!(s.inside && s.outside && s.liquid);
        assert_eq!(d, [-0.5, -0.5, 0.5].repeat(4));
        assert_eq!((rows, bits), (vec![ROW_MIXED; 4], vec![0b100; 4]));
        let (_, d, _, bits) = fill(&voxels, [3, 2, 2], Surface::Water);
        assert_eq!(d, [-0.5, 0.5, -0.5].repeat(4));
        assert_eq!(bits, vec![0b010; 4]);
        fill(&row[1..2], [1, 1, 1], Surface::Solid);
        let (s, _, rows, bits) = fill(&row[1..2], [1, 1, 1], Surface::Water);
        assert!(s.inside && !s.outside);
        assert_eq!((rows, bits), (vec![ROW_IN], vec![1]));
        // Rows without liquid skip the water fill: outside, with EMPTY (not solid) densities.
        let rocks = [Voxel::filled(rock); 3];
        let two = [row.as_slice(), &rocks].concat().repeat(2);
        fill(&two, [3, 2, 2], Surface::Solid);
        let (_, d, rows, bits) = fill(&two, [3, 2, 2], Surface::Water);
        assert_eq!(bits, vec![0b010, 0, 0b010, 0]);
        assert_eq!(rows, vec![ROW_MIXED, ROW_OUT, ROW_MIXED, ROW_OUT]);
        assert_eq!(d, [-0.5, 0.5, -0.5, -0.5, -0.5, -0.5].repeat(2));
        let wide = [row.as_slice(), &[Voxel::AIR; 62]].concat();
        let (_, d, rows, bits) = fill(&wide, [65, 1, 1], Surface::Solid);
        assert_eq!(
            (d[2], d[3], rows, bits),
            (0.5, -0.5, vec![ROW_MIXED], vec![])
        );
        assert!(lut.sharp[usize::from(rock)]);
    }

    #[test]
    fn packed_inside_bits_match_voxel_by_voxel() {
        let table = MaterialTable::builtin();
        let lut = MaterialLut::new(&table);
        let code = material_codes(&lut, Surface::Solid);
        // A seeded xorshift over materials and occupancies, rows of every length up to 64.
        let mut rng = XorShift(0x9e37_79b9_7f4a_7c15u64);
        let mut next = || rng.next_u64();
        for len in 1..=64 {
            let row: Vec<Voxel> = (0..len)
                .map(|_| {
                    let r = next();
                    Voxel::new((r & 0x3f) as u8, (r >> 8) as u8)
                })
                .collect();
            let mut seen = 0u8;
            let bits = inside_bits(&row, &code, &mut seen);
            let (mut want, mut want_seen) = (0u64, 0u8);
            for (x, v) in row.iter().enumerate() {
                let c = code[usize::from(v.material & 0x3f)];
                want_seen |= c;
                if c & 1 == 1 && v.occupancy > 127 {
                    want |= 1 << x;
                }
            }
            assert_eq!((bits, seen), (want, want_seen), "row of {len}");
        }
    }
}
