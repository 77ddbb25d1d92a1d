//! [`Enhancer`]: a method resolved against a material table, ready to compute fragments.
//!
//! It holds everything that does not change between chunks: which materials can be solid, the rule
//! tables (or the approximate table, or the probe pattern), the dependency window. It is immutable
//! and `Sync`, so chunks are computed in parallel and an editor job can share it through an `Arc`.

use super::approx::ApproxTables;
use super::resample::Pattern;
use super::rules::SubdivideRules;
use super::subdivide::{subdivide, upsample_nearest, Kernel, Scratch};
use super::surface::Window;
use super::Method;
use crate::storage::Grid;
use crate::voxel::{MaterialTable, Voxel, VoxelBox, VoxelPos, MATERIAL_COUNT};
use crate::Result;

/// How the fragments are made.
#[derive(Debug, Clone)]
pub(crate) enum Kind {
    /// Exact recursive subdivision.
    Subdivide {
        /// Levels (1..=4).
        levels: u32,
        /// Tables and thresholds.
        rules: SubdivideRules,
    },
    /// The paper's 7-bit table of whole blocks.
    Approximate {
        /// Thresholds per material and band, and the borders switch.
        rules: SubdivideRules,
        /// Blocks per window and threshold pair.
        tables: ApproxTables,
    },
    /// Direct resampling.
    Resample(Pattern),
}

/// A validated method resolved against a material table.
#[derive(Debug, Clone)]
pub struct Enhancer {
    method: Method,
    factor: usize,
    solid: [bool; MATERIAL_COUNT],
    pub(crate) kind: Kind,
    window: Window,
    key_by_material: bool,
}

impl Enhancer {
    /// Resolve `method` against `table` (per-material thresholds, liquids).
    ///
    /// # Errors
    /// [`crate::Error::Invalid`] when a parameter is out of range.
    pub fn new(method: &Method, table: &MaterialTable) -> Result<Self> {
        method.validate()?;
        let mut solid = [false; MATERIAL_COUNT];
        for (m, s) in solid.iter_mut().enumerate().skip(1) {
            *s = table.get(m as u8).is_none_or(|mat| !mat.liquid);
        }
        let (kind, window, key_by_material) = match method {
            Method::Subdivide(p) => {
                let rules = SubdivideRules::new(table, p.threshold, &p.bands, p.material_borders);
                if p.approximate_table {
                    let tables = ApproxTables::new(p.levels, &rules.thresholds_in_use());
                    (
                        Kind::Approximate { rules, tables },
                        Window::Faces,
                        p.material_borders,
                    )
                } else {
                    let window = if p.levels == 1 {
                        Window::Faces
                    } else {
                        Window::Box {
                            lo: [-1; 3],
                            hi: [1; 3],
                        }
                    };
                    (
                        Kind::Subdivide {
                            levels: p.levels,
                            rules,
                        },
                        window,
                        p.material_borders,
                    )
                }
            }
            Method::Resample(p) => {
                let pattern = Pattern::new(p);
                let window = Window::Box {
                    lo: pattern.lo,
                    hi: pattern.hi,
                };
                (Kind::Resample(pattern), window, true)
            }
        };
        Ok(Self {
            method: method.clone(),
            factor: method.factor() as usize,
            solid,
            kind,
            window,
            key_by_material,
        })
    }

    /// The method this enhancer runs.
    pub fn method(&self) -> &Method {
        &self.method
    }

    /// Fragments per voxel edge.
    pub fn factor(&self) -> usize {
        self.factor
    }

    /// The voxels a voxel's fragments depend on.
    pub fn window(&self) -> Window {
        self.window
    }

    /// Voxels read around a box: the window's reach, and at least 2 (subdivision's halo and pad).
    pub(crate) fn halo(&self) -> usize {
        self.window.reach().max(2)
    }

    /// True when a voxel's uniformity is judged on its material too, not only its solidity.
    pub(crate) fn key_by_material(&self) -> bool {
        self.key_by_material
    }

    /// The class byte of a voxel: its material when solid for enhancement (occupancy at least ½, not
    /// a liquid), else 0.
    #[inline]
    pub fn classify(&self, v: Voxel) -> u8 {
        // Without branches (`solid[0]` is false), so gathering a box vectorizes.
        let m = v.material & 0x3f;
        m * u8::from((v.occupancy >= 127) & self.solid[usize::from(m)])
    }

    /// Class bytes of box `b` into `out` (X fastest).
    pub fn gather(&self, grid: &Grid, b: VoxelBox, voxels: &mut Vec<Voxel>, out: &mut Vec<u8>) {
        voxels.clear();
        voxels.resize(b.volume(), Voxel::AIR);
        grid.read_box(b, voxels);
        out.clear();
        out.extend(voxels.iter().map(|&v| self.classify(v)));
    }

    /// Every fragment of box `b` (X fastest, then Y, then Z, `f` per voxel edge), computed densely
    /// without skipping: the full-volume way, for comparison with the sparse [`super::Enhanced`] and
    /// for tests.
    pub fn enhance_dense(&self, grid: &Grid, b: VoxelBox, out: &mut Vec<u8>) {
        let f = self.factor;
        let s = b.size();
        let od = s.map(|d| d * f);
        out.clear();
        out.resize(od[0] * od[1] * od[2], 0);
        if b.is_empty() {
            return;
        }
        let h = self.halo() as i32;
        let g = VoxelBox::new(
            VoxelPos::new(b.min.x - h, b.min.y - h, b.min.z - h),
            VoxelPos::new(b.max.x + h, b.max.y + h, b.max.z + h),
        );
        let mut voxels = Vec::new();
        let mut cells = Vec::new();
        self.gather(grid, g, &mut voxels, &mut cells);
        let gd = g.size();
        let mut block = Vec::new();
        let mut yz = Vec::new();
        match &self.kind {
            Kind::Subdivide { levels, rules } => {
                let off = (h - 2) as usize;
                let dims = s.map(|d| d + 4);
                let mut input = Vec::with_capacity(dims[0] * dims[1] * dims[2]);
                for z in 0..dims[2] {
                    for y in 0..dims[1] {
                        let at = ((z + off) * gd[1] + y + off) * gd[0] + off;
                        input.extend_from_slice(&cells[at..at + dims[0]]);
                    }
                }
                subdivide(
                    &input,
                    dims,
                    b.min.y - 2,
                    *levels,
                    rules,
                    &mut Scratch::default(),
                    out,
                );
            }
            _ => {
                let h = h as usize;
                for z in 0..s[2] {
                    for y in 0..s[1] {
                        for x in 0..s[0] {
                            let centre = ((z + h) * gd[1] + y + h) * gd[0] + x + h;
                            let p = VoxelPos::new(
                                b.min.x + x as i32,
                                b.min.y + y as i32,
                                b.min.z + z as i32,
                            );
                            self.voxel_block(&cells, gd, centre, p.y, &mut yz, &mut block);
                            for k in 0..f {
                                for j in 0..f {
                                    let to = ((z * f + k) * od[1] + y * f + j) * od[0] + x * f;
                                    let from = (k * f + j) * f;
                                    out[to..to + f].copy_from_slice(&block[from..from + f]);
                                }
                            }
                        }
                    }
                }
            }
        }
    }

    /// One voxel's fragments by resampling or the approximate table (not exact subdivision, which
    /// works on whole tiles): `cells` must hold the voxel's window around index `centre`.
    pub(crate) fn voxel_block(
        &self,
        cells: &[u8],
        dims: [usize; 3],
        centre: usize,
        altitude: i32,
        yz: &mut Vec<isize>,
        out: &mut Vec<u8>,
    ) {
        match &self.kind {
            Kind::Resample(pattern) => pattern.voxel(cells, dims, centre, yz, out),
            Kind::Approximate { rules, tables } => {
                let (sx, sxy) = (dims[0], dims[0] * dims[1]);
                let n = [
                    cells[centre - 1],
                    cells[centre + 1],
                    cells[centre - sx],
                    cells[centre + sx],
                    cells[centre - sxy],
                    cells[centre + sxy],
                ];
                let c = cells[centre];
                let material = if c != 0 { c } else { most_frequent(&n) };
                let f = self.factor;
                out.clear();
                out.resize(f * f * f, 0);
                if material == 0 {
                    return;
                }
                let mut w = u8::from(c != 0);
                for (k, &v) in n.iter().enumerate() {
                    let counts = v != 0 && (!rules.borders || v == material);
                    w |= u8::from(counts) << (k + 1);
                }
                let t = rules.set_at(i64::from(altitude)).thresholds[usize::from(material)];
                let bits = tables.block(t, w);
                for (at, slot) in out.iter_mut().enumerate() {
                    if bits[at / 64] >> (at % 64) & 1 == 1 {
                        *slot = material;
                    }
                }
            }
            Kind::Subdivide { .. } => {
                unreachable!("exact subdivision computes whole tiles (compute.rs)")
            }
        }
    }

    /// Nearest-neighbour upsampling of the same padded cells [`Enhancer::subdivide_cells`] takes (the
    /// peer in the bench).
    pub fn upsample_cells(&self, cells: &[u8], dims: [usize; 3], out: &mut Vec<u8>) {
        upsample_nearest(cells, dims, self.factor, out);
    }

    /// Exact subdivision of padded cells (`dims − 4` interior per axis, see `subdivide.rs`); `origin_y`
    /// is the voxel altitude of row 0. Does nothing for other methods.
    pub fn subdivide_cells(
        &self,
        cells: &[u8],
        dims: [usize; 3],
        origin_y: i32,
        out: &mut Vec<u8>,
    ) {
        self.subdivide_into(cells, dims, origin_y, &mut Scratch::default(), out);
    }

    /// [`Enhancer::subdivide_cells`] with a chosen kernel: [`Kernel::Scalar`] is the cell-by-cell
    /// twin the fast kernels are tested against. A kernel this processor lacks falls back to
    /// [`Kernel::Table`].
    pub fn subdivide_cells_with(
        &self,
        kernel: Kernel,
        cells: &[u8],
        dims: [usize; 3],
        origin_y: i32,
        out: &mut Vec<u8>,
    ) {
        self.subdivide_into(
            cells,
            dims,
            origin_y,
            &mut Scratch::with_kernel(kernel),
            out,
        );
    }

    /// Both of the above: subdivide with `scratch` (and its kernel) when the method subdivides.
    fn subdivide_into(
        &self,
        cells: &[u8],
        dims: [usize; 3],
        origin_y: i32,
        scratch: &mut Scratch,
        out: &mut Vec<u8>,
    ) {
        if let Kind::Subdivide { levels, rules } = &self.kind {
            subdivide(cells, dims, origin_y, *levels, rules, scratch, out);
        }
    }
}

/// The most frequent non-zero value (ties: the lowest), 0 when all are 0.
fn most_frequent(v: &[u8; 6]) -> u8 {
    let mut best = 0u8;
    let mut best_count = 0;
    for &a in v {
        if a == 0 {
            continue;
        }
        let count = v.iter().filter(|&&b| b == a).count();
        if count > best_count || (count == best_count && a < best) {
            best = a;
            best_count = count;
        }
    }
    best
}
