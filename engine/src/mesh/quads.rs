//! Quad emission, the mesher's last pass: one quad per sign-changing edge whose lower sample lies in
//! the box's core, joining the vertices of the four cells around the edge (see `nets` for the
//! layout, the winding and the ownership rule). Kept apart from vertex placement because it reads
//! only what that pass leaves behind (the cell maps and the inside bits), and it is a hot loop of
//! its own.

use super::buffer::MeshBuffer;
use super::components::COMPONENT;
use super::input::{MeshInput, BORDER};
use super::mesh_field::{Class, MaterialLut, Surface, ROW_MIXED};
use super::set_bits::set_bits;
use crate::vec3::{dot, sub};

/// True when the rows `(y, z)` and the rows at the given (dy, dz) offsets are all inside or all
/// outside: no cell or edge between them can cross the surface. `rows` holds each X row's state
/// (`mesh_field::ROW_*`), index `z · ny + y`.
#[inline]
pub(crate) fn rows_uniform(
    rows: &[u8],
    ny: usize,
    y: usize,
    z: usize,
    offsets: &[(usize, usize)],
) -> bool {
    let first = rows[z * ny + y];
    first != ROW_MIXED
        && offsets
            .iter()
            .all(|&(dy, dz)| rows[(z + dz) * ny + y + dy] == first)
}

/// What the quad pass reads: the field and the cell maps the vertex pass filled.
pub(crate) struct Quads<'a> {
    /// The box being meshed.
    pub input: &'a MeshInput<'a>,
    /// Material classes (water faces against solid are dropped).
    pub lut: &'a MaterialLut,
    /// The surface being contoured.
    pub surface: Surface,
    /// One density sample per input voxel.
    pub density: &'a [f32],
    /// State of each X row (`mesh_field::ROW_*`), index `z · ny + y`.
    pub rows: &'a [u8],
    /// Inside bits of each X row when rows fit in 64 samples (else empty), index `z · ny + y`.
    pub bits: &'a [u64],
    /// The rows whose edges can cross the surface (`Rows::edge_rows`), one bit set over Y per Z,
    /// when columns fit in 64 rows (else empty).
    pub edge_rows: &'a [u64],
    /// Index strides of the box: `[1, sx, sx·sy]`.
    pub strides: [usize; 3],
    /// First vertex of each surface cell.
    pub cell_vertex: &'a [u32],
    /// Corner inside-mask of each surface cell.
    pub cell_mask: &'a [u8],
}

impl Quads<'_> {
    /// Emit the quads of every sign-changing edge whose lower sample is in the core.
    pub(crate) fn emit(&self, out: &mut MeshBuffer) {
        if self.bits.is_empty() {
            self.emit_wide(out);
        } else {
            self.emit_bits(out);
        }
    }

    /// [`Quads::emit`] for any row length: each core sample is compared with its three neighbours.
    fn emit_wide(&self, out: &mut MeshBuffer) {
        let [nx, ny, nz] = self.input.size;
        let s = self.strides;
        for z in BORDER..nz - BORDER {
            for y in BORDER..ny - BORDER {
                if rows_uniform(self.rows, ny, y, z, &[(1, 0), (0, 1)]) {
                    continue;
                }
                let row = z * s[2] + y * s[1];
                for x in BORDER..nx - BORDER {
                    let i = row + x;
                    let in0 = self.density[i] > 0.0;
                    for (a, &step) in s.iter().enumerate() {
                        if in0 != (self.density[i + step] > 0.0) {
                            self.emit_edge(i, a, in0, out);
                        }
                    }
                }
            }
        }
    }

    /// The quad of the sign-changing edge from sample `i` along axis `a` (`in0`: sample `i` is inside).
    fn emit_edge(&self, i: usize, a: usize, in0: bool, out: &mut MeshBuffer) {
        let s = self.strides;
        if self.surface == Surface::Water {
            let outer = if in0 { i + s[a] } else { i };
            if self.lut.class_of(self.input.voxels[outer]) == Class::Solid {
                return;
            }
        }
        let (b, c) = ((a + 1) % 3, (a + 2) % 3);
        let (sb, sc) = (s[b], s[c]);
        // Corner bits of the inside sample as seen from each of the four cells.
        let inner = if in0 { 0 } else { 1 << a };
        let vertex = |cell: usize, rel: usize| {
            let mask = usize::from(self.cell_mask[cell]);
            self.cell_vertex[cell] + u32::from(COMPONENT[mask][rel | inner])
        };
        let v = [
            vertex(i - sb - sc, (1 << b) | (1 << c)),
            vertex(i - sc, 1 << c),
            vertex(i, 0),
            vertex(i - sb, 1 << b),
        ];
        // Reversed when the outside is at `i` (v0, v3, v2, v1): corner k is v[3k mod 4]. An index
        // rather than a branch: the side varies from edge to edge and mispredicts.
        let turn = if in0 { 1 } else { 3 };
        push_quad(out, self.surface, [0, 1, 2, 3].map(|k| v[(k * turn) & 3]));
    }

    /// [`Quads::emit`] for rows of at most 64 samples: sign changes come from XORs of inside bits.
    fn emit_bits(&self, out: &mut MeshBuffer) {
        let [nx, ny, nz] = self.input.size;
        // Samples BORDER..nx − BORDER along x.
        let core = ((1u64 << (nx - BORDER)) - 1) & !((1u64 << BORDER) - 1);
        let full = u64::MAX >> (64 - nx);
        // Rows BORDER..ny − BORDER (when columns fit in 64 rows).
        let core_rows = ((1u64 << (ny - BORDER).min(63)) - 1) & !((1u64 << BORDER) - 1);
        for z in BORDER..nz - BORDER {
            // The rows of slabs z and z + 1, as slices of ny: one bounds check per slab.
            let (near, far) = (
                &self.bits[z * ny..(z + 1) * ny],
                &self.bits[(z + 1) * ny..(z + 2) * ny],
            );
            // Rows whose row, the row above and the row ahead are all outside or all inside (most
            // rows) have no edge: skipped by the edge-row sets when columns fit in 64 rows, else
            // tested row by row.
            if let Some(&edge_rows) = self.edge_rows.get(z) {
                for y in set_bits(edge_rows & core_rows) {
                    self.emit_row([y, z], [near[y], near[y + 1], far[y]], core, out);
                }
            } else {
                for y in BORDER..ny - BORDER {
                    let (row, up, ahead) = (near[y], near[y + 1], far[y]);
                    if (row | up | ahead) == 0 || (row & up & ahead) == full {
                        continue;
                    }
                    self.emit_row([y, z], [row, up, ahead], core, out);
                }
            }
        }
    }

    /// The quads of row `(y, z)`'s sign-changing edges at the samples in `core`, from the inside
    /// bits of the row, the row above and the row ahead. Inlined into both loops of
    /// [`Quads::emit_bits`].
    #[inline(always)]
    fn emit_row(
        &self,
        [y, z]: [usize; 2],
        [row, up, ahead]: [u64; 3],
        core: u64,
        out: &mut MeshBuffer,
    ) {
        let [_, sy, sz] = self.strides;
        let changes = [row ^ (row >> 1), row ^ up, row ^ ahead];
        for (a, &change) in changes.iter().enumerate() {
            for x in set_bits(change & core) {
                let in0 = (row >> x) & 1 == 1;
                self.emit_edge(z * sz + y * sy + x, a, in0, out);
            }
        }
    }
}

fn dist2(a: [f32; 3], b: [f32; 3]) -> f32 {
    let d = sub(a, b);
    dot(d, d)
}

/// Two triangles of a counter-clockwise quad, split along its shorter diagonal (ties: `q0–q2`).
fn push_quad(out: &mut MeshBuffer, surface: Surface, q: [u32; 4]) {
    let p = |k: usize| out.positions[q[k] as usize];
    // The split starts at q1 instead of q0 unless q0–q2 is the shorter (or as short): an index
    // rather than a branch (the choice follows the data and mispredicts).
    let first = if dist2(p(0), p(2)) <= dist2(p(1), p(3)) {
        0
    } else {
        1
    };
    let r = |k: usize| q[(first + k) & 3];
    let tris = [r(0), r(1), r(2), r(0), r(2), r(3)];
    let list = match surface {
        Surface::Solid => &mut out.solid_indices,
        Surface::Water => &mut out.water_indices,
    };
    list.extend_from_slice(&tris);
}
