//! Surface extraction: one vertex per used surface cell, one quad per sign-changing edge (surface
//! nets, with dual-contouring placement for sharp materials).
//!
//! Samples sit at voxel centres. A *cell* is the cube between eight neighbouring samples; cell `c`
//! has its lowest corner on sample `c`. A cell whose corners do not all agree on inside/outside
//! (`density > 0`) gets one vertex when a quad of this box uses it (see below). Every edge between two samples that disagree gets one quad joining
//! the four cells around that edge:
//!
//! ```text
//!        c axis                      the edge s → s + a (axis a, pointing at the viewer)
//!          ^                         is shared by four cells; their vertices form a quad:
//!          |  v3 ─────── v2
//!          |  │ cell     │ cell      v0 = cell s − b − c     v1 = cell s − c
//!          |  │ s−b      │ s         v2 = cell s             v3 = cell s − b
//!          |  ─ ─ ─ s ─ ─ ─ ─
//!          |  │ cell     │ cell      wound counter-clockwise when the outside is at s + a,
//!          |  │ s−b−c    │ s−c       reversed when the outside is at s
//!          |  v0 ─────── v1
//!          +───────────────────> b axis
//! ```
//!
//! A cell with a checkerboard face gets one vertex per inside component (`components`), which keeps
//! the surface manifold; every other cell has exactly one.
//!
//! Vertex placement inside its cell (`local` in `0..=1` per axis):
//! - **Smooth** materials: the mean of the edge crossings (surface nets), which rounds corners off;
//! - **Sharp** materials: the point closest to the crossing planes (`qef`), which keeps corners and
//!   creases where the data has them and equals the smooth placement on flat faces.
//!
//! # Ownership and seams
//! The input box carries a border of [`BORDER`] samples on every side. Quads are emitted only for edges
//! whose lower sample lies in the core (`BORDER..size − BORDER` on each axis), so boxes that tile space
//! emit every edge exactly once. Vertices of border cells are recomputed by both neighbours from the
//! same samples with the same arithmetic in world coordinates (`cell_world + (0.5 + local) × scale`),
//! so shared vertices are bit-identical and neighbouring meshes meet without cracks.
//!
//! Cells in the outermost layer (`BORDER − 1` and `size − BORDER − 1` on some axis) can have all their
//! crossings on edges a neighbouring box owns; such cells get no vertex, since no quad here would use
//! it. On terrain chunks that is about a quarter of all surface cells (a surface lying in a chunk's low
//! border layer belongs to the chunk below). Narrow boxes find the used cells a whole row at a time
//! from the rows' inside bits; wide boxes check each surface cell's crossing edges.

use super::buffer::MeshBuffer;
use super::components::{COUNT, CROSSINGS, CROSS_BITS, CROSS_COUNT};
use super::cube::{crossing_point, edge_points, ALL_EDGES, EDGE_CORNERS, UPPER_FACE_EDGES};
use super::input::{MeshInput, BORDER};
use super::mesh_field::{fill_density, MaterialLut, Surface, EMPTY, FULL, MIXED_MATERIALS};
use super::qef;
use super::quads::{rows_uniform, Quads};
use super::ramp;
use super::set_bits::set_bits;
use super::vertex_blend::blend;
use super::vertex_normals::{normalize_gradients, outward_gradient};
use crate::vec3::normalize;

/// Index strides of a box: `[1, sx, sx·sy]`.
pub(crate) fn strides(size: [usize; 3]) -> [usize; 3] {
    [1, size[0], size[0] * size[1]]
}

/// Mesh one surface of `input` into `out`, appending vertices and triangles. Returns true when the
/// box holds any liquid voxel.
pub(crate) fn extract(
    input: &MeshInput,
    lut: &MaterialLut,
    surface: Surface,
    out: &mut MeshBuffer,
) -> bool {
    let mut density = std::mem::take(&mut out.scratch.density);
    let mut rows = std::mem::take(&mut out.scratch.rows);
    let mut cell_vertex = std::mem::take(&mut out.scratch.cell_vertex);
    let mut cell_mask = std::mem::take(&mut out.scratch.cell_mask);
    let seen = fill_density(
        input.voxels,
        input.size,
        lut,
        surface,
        &mut density,
        &mut rows,
    );
    if seen.inside && seen.outside {
        if cell_vertex.len() < density.len() {
            cell_vertex.resize(density.len(), 0);
            cell_mask.resize(density.len(), 0);
        }
        let [_, sy, sz] = strides(input.size);
        let first_vertex = out.normals.len();
        let ctx = Ctx {
            off: [0, 1, sy, sy + 1, sz, sz + 1, sz + sy, sz + sy + 1],
            input,
            lut,
            surface,
            density: &density,
            rows: &rows.state,
            bits: &rows.bits,
            lone: &rows.lone,
            crossing: &rows.crossing,
            strides: strides(input.size),
            scale: input.scale(),
            step: input.scale() as i32,
            origin: input.origin.to_array(),
        };
        if rows.bits.is_empty() {
            ctx.place_vertices(&mut cell_vertex, &mut cell_mask, out);
        } else {
            ctx.place_vertices_bits(&mut cell_vertex, &mut cell_mask, out);
        }
        // Full-resolution vertices hold their outward gradient so far (see `vertex_normals`).
        if input.lod == 0 {
            normalize_gradients(&mut out.normals[first_vertex..]);
        }
        Quads {
            input,
            lut,
            surface,
            density: &density,
            rows: &rows.state,
            bits: &rows.bits,
            edge_rows: &rows.edge_rows,
            strides: strides(input.size),
            cell_vertex: &cell_vertex,
            cell_mask: &cell_mask,
        }
        .emit(out);
    }
    out.scratch.density = density;
    out.scratch.cell_vertex = cell_vertex;
    out.scratch.cell_mask = cell_mask;
    out.scratch.rows = rows;
    seen.liquid
}

struct Ctx<'a> {
    input: &'a MeshInput<'a>,
    lut: &'a MaterialLut,
    surface: Surface,
    density: &'a [f32],
    /// Index offsets of a cell's eight corners.
    off: [usize; 8],
    /// State of each X row (`field::ROW_*`), index `z · ny + y`.
    rows: &'a [u8],
    /// Inside bits of each X row when rows fit in 64 samples (else empty), index `z · ny + y`.
    bits: &'a [u64],
    /// Each row's one material byte (`Rows::lone`) on narrow boxes, else empty.
    lone: &'a [u16],
    /// The cell rows with surface cells (`Rows::crossing`), one bit set over Y per Z, when columns
    /// fit in 64 rows (else empty).
    crossing: &'a [u64],
    strides: [usize; 3],
    /// Voxels per sample (`input.scale()`), as a float and as an integer.
    scale: f32,
    step: i32,
    /// World position of sample 0.
    origin: [i32; 3],
}

impl Ctx<'_> {
    /// Give every surface cell in `1..size − 2` one vertex per inside component; record the first
    /// vertex index in `cell_vertex` and the corner mask in `cell_mask`.
    fn place_vertices(&self, cell_vertex: &mut [u32], cell_mask: &mut [u8], out: &mut MeshBuffer) {
        let [nx, ny, nz] = self.input.size;
        let [_, sy, sz] = self.strides;
        let off = self.off;
        for z in 1..nz - 2 {
            for y in 1..ny - 2 {
                if rows_uniform(self.rows, ny, y, z, &[(1, 0), (0, 1), (1, 1)]) {
                    continue;
                }
                let row = z * sz + y * sy;
                // Inside bits of the four sample rows at one x, spread to corner bits 0, 2, 4, 6.
                let column = |x: usize| {
                    let i = row + x;
                    let inside = |k: usize| u8::from(self.density[i + off[k]] > 0.0);
                    inside(0) | inside(2) << 2 | inside(4) << 4 | inside(6) << 6
                };
                let mut low = column(1);
                for x in 1..nx - 2 {
                    let high = column(x + 1);
                    let mask = low | high << 1;
                    low = high;
                    // Skip cells without crossings, and border cells whose crossings all belong to
                    // quads of a neighbouring box.
                    if CROSS_BITS[usize::from(mask)] & self.owned_edges([x, y, z]) == 0 {
                        continue;
                    }
                    let i = row + x;
                    self.cell_vertices([x, y, z], i, mask, cell_vertex, cell_mask, out);
                }
            }
        }
    }

    /// The edges of `cell` whose quads this box emits, as a bit set over [`EDGES`]. An edge is emitted
    /// when its lower sample lies in the core; only the outermost cells (`BORDER − 1` and
    /// `size − BORDER − 1` on some axis) have edges that are not.
    #[inline]
    fn owned_edges(&self, cell: [usize; 3]) -> u16 {
        let mut owned = ALL_EDGES;
        for (a, &c) in cell.iter().enumerate() {
            if c == BORDER - 1 {
                owned &= UPPER_FACE_EDGES[a];
            } else if c == self.input.size[a] - BORDER - 1 {
                owned &= !UPPER_FACE_EDGES[a];
            }
        }
        owned
    }

    /// Place the vertices of surface cell `i` (one per inside component of `mask`) and record the
    /// first one and the mask in the cell maps.
    fn cell_vertices(
        &self,
        cell: [usize; 3],
        i: usize,
        mask: u8,
        cell_vertex: &mut [u32],
        cell_mask: &mut [u8],
        out: &mut MeshBuffer,
    ) {
        // The corners as four pairs along x: one bounds check per sample row instead of per corner.
        let [_, sy, sz] = self.strides;
        let pair = |row: usize| qef::window::<2>(self.density, i + row);
        let ([d0, d1], [d2, d3], [d4, d5], [d6, d7]) = (pair(0), pair(sy), pair(sz), pair(sz + sy));
        let d = [d0, d1, d2, d3, d4, d5, d6, d7];
        // The densities go to memory once, in place: a copy would read them back in 16-byte loads
        // spanning the 8-byte stores that wrote them, which wait for the stores to retire.
        let mut corners = Corners {
            d,
            points: edge_points(&d),
            mask,
            blended: ([0; 4], [0; 4]),
        };
        // The blend does not depend on the component: one per cell.
        corners.blended = match self.shared_material(cell) {
            Some(material) => ([material, 0, 0, 0], [255, 0, 0, 0]),
            None => blend(self.input, &self.off, i, &corners.d, mask),
        };
        cell_mask[i] = mask;
        cell_vertex[i] = self.make_vertex(cell, i, &corners, 0, out);
        for component in 1..COUNT[usize::from(mask)] {
            self.make_vertex(cell, i, &corners, component, out);
        }
    }

    /// The material byte of every voxel of `cell`'s corners that can be matter of the surface, when
    /// the four sample rows through them agree on one (see `Rows::lone`); then every matter corner
    /// holds it and `blend` would return it alone.
    #[inline]
    fn shared_material(&self, cell: [usize; 3]) -> Option<u8> {
        let ny = self.input.size[1];
        let row = cell[2] * ny + cell[1];
        let lone = self.lone.get(row..row + ny + 2)?;
        let mut shared = 0u16;
        for l in [lone[0], lone[1], lone[ny], lone[ny + 1]] {
            if l == MIXED_MATERIALS || (l != 0 && shared != 0 && l != shared) {
                return None;
            }
            shared |= l;
        }
        u8::try_from(shared).ok().filter(|&m| m != 0)
    }

    fn make_vertex(
        &self,
        cell: [usize; 3],
        i: usize,
        corners: &Corners,
        component: u8,
        out: &mut MeshBuffer,
    ) -> u32 {
        let (d, mask) = (&corners.d, corners.mask);
        let (materials, weights) = corners.blended;
        let sharp = self.surface == Surface::Solid && self.lut.sharp[usize::from(materials[0])];
        // Full resolution keeps plain interpolation (see `Coarse`): its ripple is a few hundredths of
        // a voxel, and it is the mesher's hot path.
        let coarse = (self.input.lod > 0).then(|| self.coarse(cell, i, d, mask));
        // The crossings of this component: edge index (into `EDGES`) and position `t` along it,
        // kept for the QEF of sharp vertices only.
        let local = if sharp {
            let mut edges = [0u8; 12];
            let mut n = 0;
            // At full resolution the QEF reads the crossing points from the cell's lanes; on the
            // mips, from a copy of them holding the coarse crossing points.
            let mut coarse_points = None;
            let mass = match &coarse {
                None => crossings(corners, component, None, |e, _| {
                    edges[n] = e;
                    n += 1;
                }),
                Some(c) => {
                    let mut lanes = corners.points;
                    let mass = crossings(corners, component, Some(c), |e, p| {
                        edges[n] = e;
                        (0..3).for_each(|k| lanes[k][usize::from(e)] = p[k]);
                        n += 1;
                    });
                    coarse_points = Some(lanes);
                    mass
                }
            };
            let points = coarse_points.as_ref().unwrap_or(&corners.points);
            qef::place_sharp(self.density, i, self.strides, d, &edges[..n], points, mass)
        } else {
            crossings(corners, component, coarse.as_ref(), |_, _| {})
        };
        let (scale, step, origin) = (self.scale, self.step, self.origin);
        let mut position = [0.0f32; 3];
        for a in 0..3 {
            let base = origin[a] + cell[a] as i32 * step;
            position[a] = base as f32 + (0.5 + local[a]) * scale;
        }
        // At full resolution the outward gradient, made unit length after the loop over the cells.
        let normal = match &coarse {
            None => outward_gradient(d),
            Some(c) => c.normal(),
        };
        out.push_vertex(position, normal, materials, weights)
    }

    /// What a cell of a mip level needs to place its vertex (see `Coarse`).
    fn coarse(&self, cell: [usize; 3], i: usize, d: &[f32; 8], mask: u8) -> Coarse {
        let [sx, sy, sz] = self.strides;
        let ramp = ramp::cell_ramp(d, |k, axis| {
            let step = [sx, sy, sz][axis];
            let corner = i + self.off[k];
            // Corner bit set: the cell's upper side on that axis, so beyond is one step up.
            self.density[if (k >> axis) & 1 == 1 {
                corner + step
            } else {
                corner - step
            }]
        });
        let main = ramp::main_axis(ramp.gradient);
        let columns = if COUNT[usize::from(mask)] == 1 {
            self.column_heights(cell, i, main, ramp.slope[main])
        } else {
            None
        };
        Coarse {
            ramp,
            main,
            columns,
        }
    }

    /// The height of the surface along `main` on the four sample lines through the cell's corners,
    /// relative to the cell's lower corner (in samples), when each line runs from full matter one
    /// sample below the cell to none one sample above it (or the reverse, for a surface facing
    /// −`main`). The height is the line's total occupancy: matter is conserved by every way
    /// occupancy is made (a clamped ramp of any width, a fill fraction, and the mips' averages of
    /// either), so the sum is exact where reading two samples is not. Interpolating between two
    /// samples assumes a ramp at least two samples wide; on the mips the ramp is a box-filtered
    /// step about one sample wide, and the crossing it gives swings with where the surface sits
    /// between samples: a ripple every sample of height, contour rings from afar. Reads rows −1..=+2
    /// around the cell (which the narrow density fill writes) and nothing outside the cell's own
    /// lines, so a vertex shared by two chunks is placed the same in both. A line whose band is wider
    /// than the four samples read takes the ramp crossing nearest the cell (`ramp::crossing`).
    fn column_heights(
        &self,
        cell: [usize; 3],
        i: usize,
        main: usize,
        slope: f32,
    ) -> Option<[f32; 4]> {
        if cell[main] < 1 || cell[main] + 3 > self.input.size[main] {
            return None;
        }
        let s = self.strides[main];
        let (u, v) = ((main + 1) % 3, (main + 2) % 3);
        let mut h = [0.0f32; 4];
        for (k, slot) in h.iter_mut().enumerate() {
            let j = i + (k & 1) * self.strides[u] + (k >> 1) * self.strides[v];
            let at = |step: usize| self.density[j + step * s - s];
            let (first, last) = (at(0), at(3));
            let matter: f32 = (0..4).map(|step| at(step) + 0.5).sum();
            *slot = if first >= FULL && last <= EMPTY {
                // Full from 1.5 samples below the corner, then the partial samples' share.
                matter - 1.5
            } else if first <= EMPTY && last >= FULL {
                2.5 - matter
            } else {
                // A band wider than the window: two partial samples or more lie on the line, and
                // between two partial samples the ramp is read exactly.
                [1usize, 0, 2]
                    .into_iter()
                    .find(|&k| (at(k) > 0.0) != (at(k + 1) > 0.0))
                    .map(|k| k as f32 - 1.0 + ramp::crossing(at(k), at(k + 1), slope))?
            };
        }
        Some(h)
    }

    /// [`Ctx::place_vertices`] for rows of at most 64 samples: whole rows of cells are classified with
    /// bit operations on the rows' inside bits, and only the cells some emitted quad uses are visited.
    fn place_vertices_bits(
        &self,
        cell_vertex: &mut [u32],
        cell_mask: &mut [u8],
        out: &mut MeshBuffer,
    ) {
        let [_, ny, nz] = self.input.size;
        if ny < 4 || nz < 4 {
            return;
        }
        let full = self.full_row();
        // Cell rows 1..ny − 2 (when columns fit in 64 rows).
        let cell_rows = (1u64 << (ny - 2).min(63)) - 2;
        let mut maps = (cell_vertex, cell_mask);
        for z in 1..nz - 2 {
            // The rows of slabs z and z + 1, as slices of ny: one bounds check per slab.
            let (near, far) = (
                &self.bits[z * ny..(z + 1) * ny],
                &self.bits[(z + 1) * ny..(z + 2) * ny],
            );
            // Only cell rows whose four sample rows are not all outside or all inside (most are)
            // have a crossing edge: read from the crossing sets when columns fit in 64 rows, else
            // tested row by row.
            if let Some(&crossing) = self.crossing.get(z) {
                for y in set_bits(crossing & cell_rows) {
                    let rows = [near[y], near[y + 1], far[y], far[y + 1]];
                    self.place_cell_row([y, z], rows, &mut maps, out);
                }
            } else {
                for y in 1..ny - 2 {
                    let rows = [near[y], near[y + 1], far[y], far[y + 1]];
                    let [r00, r10, r01, r11] = rows;
                    if (r00 | r10 | r01 | r11) == 0 || (r00 & r10 & r01 & r11) == full {
                        continue;
                    }
                    self.place_cell_row([y, z], rows, &mut maps, out);
                }
            }
        }
    }

    /// The inside bits of a row whose samples are all inside.
    fn full_row(&self) -> u64 {
        u64::MAX >> (64 - self.input.size[0])
    }

    /// The vertices of cell row `(y, z)` (of [`Ctx::place_vertices_bits`]) whose four sample rows
    /// `(y, z)`, `(y + 1, z)`, `(y, z + 1)`, `(y + 1, z + 1)` have the inside bits `rows`. Inlined
    /// into both loops: as a call, its arguments and the cell call's spill on every row.
    #[inline(always)]
    fn place_cell_row(
        &self,
        [y, z]: [usize; 2],
        [r00, r10, r01, r11]: [u64; 4],
        (cell_vertex, cell_mask): &mut (&mut [u32], &mut [u8]),
        out: &mut MeshBuffer,
    ) {
        let [nx, ny, nz] = self.input.size;
        let [_, sy, sz] = self.strides;
        // Cells 1..nx − 2 along x; samples BORDER..nx − BORDER (the core).
        let range = (1u64 << (nx - 2)) - 2;
        let core = ((1u64 << (nx - BORDER)) - 1) & !((1u64 << BORDER) - 1);
        let in_core = |c: usize, n: usize| (BORDER..n - BORDER).contains(&c);
        let keep = |owned: bool, bits: u64| if owned { bits } else { 0 };
        let (z0, z1) = (in_core(z, nz), in_core(z + 1, nz));
        let (y0, y1) = (in_core(y, ny), in_core(y + 1, ny));
        // Cells with a crossing edge whose quad this box emits (lower sample in the core).
        // X edges: on the cell row's four sample rows, edge x belongs to cell x.
        let along = |row: u64| (row ^ (row >> 1)) & core;
        let mut used = keep(y0 && z0, along(r00))
            | keep(y1 && z0, along(r10))
            | keep(y0 && z1, along(r01))
            | keep(y1 && z1, along(r11));
        // Y and Z edges: the edge at sample x belongs to cells x − 1 and x.
        let across = (keep(y0 && z0, (r00 ^ r10) | (r00 ^ r01))
            | keep(y0 && z1, r01 ^ r11)
            | keep(y1 && z0, r10 ^ r11))
            & core;
        used |= across | (across >> 1);
        used &= range;
        for x in set_bits(used) {
            let pair = |row: u64| ((row >> x) & 3) as u8;
            let mask = pair(r00) | pair(r10) << 2 | pair(r01) << 4 | pair(r11) << 6;
            let i = z * sz + y * sy + x;
            self.cell_vertices([x, y, z], i, mask, cell_vertex, cell_mask, out);
        }
    }
}

/// The mass point of component `component` of the cell `corners` (the mean of its edge crossings,
/// read from `corners.points` at full resolution), handing each crossing's edge index (into `EDGES`) and
/// point to `visit` in order. Inlined into both of `make_vertex`'s uses, so smooth vertices store
/// nothing per crossing.
#[inline(always)]
fn crossings(
    corners: &Corners,
    component: u8,
    coarse: Option<&Coarse>,
    mut visit: impl FnMut(u8, [f32; 3]),
) -> [f32; 3] {
    let (d, m) = (&corners.d, usize::from(corners.mask));
    let mut n = 0;
    let mut sum = [0.0f32; 3];
    for &code in &CROSSINGS[m][..usize::from(CROSS_COUNT[m])] {
        if code >> 4 != component {
            continue;
        }
        let e = code & 0xf;
        let p = match coarse {
            None => {
                let (k, p) = (usize::from(e), &corners.points);
                [p[0][k], p[1][k], p[2][k]]
            }
            Some(c) => {
                let (a, b, axis) = EDGE_CORNERS[usize::from(e)];
                let (a, b) = (usize::from(a), usize::from(b));
                crossing_point(a, axis, c.crossing(d, a, b, usize::from(axis)))
            }
        };
        sum[0] += p[0];
        sum[1] += p[1];
        sum[2] += p[2];
        visit(e, p);
        n += 1;
    }
    let inv = 1.0 / n as f32;
    [sum[0] * inv, sum[1] * inv, sum[2] * inv]
}

/// What every vertex of one surface cell shares.
struct Corners {
    /// The corner densities.
    d: [f32; 8],
    /// Where the surface crosses each edge at full resolution (`cube::edge_points`).
    points: [[f32; 16]; 3],
    /// The inside corners (bit `k` = corner `k`).
    mask: u8,
    /// Material slots and weights (`vertex_blend::blend`).
    blended: ([u8; 4], [u8; 4]),
}

/// Vertex placement on the mips (LOD > 0), where a sample spans 2 to 8 voxels and plain interpolation
/// between two samples draws terraces and contour rings (see `Ctx::column_heights`).
struct Coarse {
    ramp: ramp::Ramp,
    /// The axis the surface faces most along.
    main: usize,
    /// Surface heights on the cell's four lines along `main`, when every line has one.
    columns: Option<[f32; 4]>,
}

impl Coarse {
    /// Where the surface crosses the edge from corner `a` to corner `b` (along `axis`).
    fn crossing(&self, d: &[f32; 8], a: usize, b: usize, axis: usize) -> f32 {
        match &self.columns {
            Some(h) => column_crossing(h, self.main, a, b, axis),
            None => ramp::crossing(d[a], d[b], self.ramp.slope[axis]),
        }
    }

    /// The vertex's outward normal.
    fn normal(&self) -> [f32; 3] {
        let g = self.ramp.gradient;
        match &self.columns {
            Some(h) => column_normal(h, self.main, g),
            None => normalize([-g[0], -g[1], -g[2]]).unwrap_or([0.0, 1.0, 0.0]),
        }
    }
}

/// Where the surface crosses the cell edge from corner `a` to corner `b` (along `axis`), from the
/// surface heights `h` on the cell's four lines along `main` (see `Ctx::column_heights`). Corner
/// bit `main` picks the level, bits of the two other axes the line.
fn column_crossing(h: &[f32; 4], main: usize, a: usize, b: usize, axis: usize) -> f32 {
    let (u, v) = ((main + 1) % 3, (main + 2) % 3);
    let line = |c: usize| (c >> u & 1) | (c >> v & 1) << 1;
    if axis == main {
        return h[line(a)].clamp(0.0, 1.0);
    }
    let level = (a >> main & 1) as f32;
    let (ha, hb) = (h[line(a)], h[line(b)]);
    if ha == hb {
        return 0.5;
    }
    ((level - ha) / (hb - ha)).clamp(0.0, 1.0)
}

/// The outward normal of a height field with heights `h` on the cell's four lines along `main`;
/// `g` (the density gradient, growing inward) gives which side is outside.
fn column_normal(h: &[f32; 4], main: usize, g: [f32; 3]) -> [f32; 3] {
    let (u, v) = ((main + 1) % 3, (main + 2) % 3);
    let du = 0.5 * ((h[1] - h[0]) + (h[3] - h[2]));
    let dv = 0.5 * ((h[2] - h[0]) + (h[3] - h[1]));
    let sign = if g[main] > 0.0 { -1.0 } else { 1.0 };
    let mut n = [0.0f32; 3];
    n[main] = sign;
    n[u] = -du * sign;
    n[v] = -dv * sign;
    normalize(n).unwrap_or([0.0, 1.0, 0.0])
}
