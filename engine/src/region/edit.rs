//! [`RegionEdit`]: paste, fill, delete, cut and move as one undo step, with the exact changed box.
//!
//! ```text
//!   RegionEdit::begin(grid, Some(history), "Paste", progress)
//!     .paste / .fill / .delete / .cut / .move_box      any number, in order
//!        for each chunk the target box touches (Z, Y, X order), one progress unit:
//!          read old voxels ─ new = combine(old, source) ─ tight box of old != new
//!          └─ history.record(tight box) ─ Grid::write_box(tight box)   (mips follow the write)
//!     .finish()  -> the union of the tight boxes: one undo step (none if nothing changed)
//!     .abort()   -> every box restored from the history: the grid is bit for bit as before
//! ```
//!
//! Recording each chunk's tight box just before writing it keeps the undo data to the voxels that
//! really change, lets undo restore them newest first (bit-exact even when a move's source and
//! destination overlap), and makes the union of the boxes the exact changed box. Every written voxel
//! is normalized, so Air never carries occupancy. The step opens at the first change, so an edit
//! that changes nothing leaves no step and keeps the redo stack.

use super::rows::Region;
use crate::history::History;
use crate::progress::Progress;
use crate::storage::{Chunk, Grid};
use crate::voxel::{ChunkPos, Voxel, VoxelBox, VoxelPos, AIR, COORD_LIMIT};
use crate::{Error, Result};

/// How pasted voxels combine with the world's.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum PasteMode {
    /// Every region voxel is written, Air included.
    #[default]
    Replace,
    /// Per voxel, the one with the higher occupancy stays (Air counts 0; a tie keeps the world's).
    Merge,
    /// Region voxels are written only where the world holds Air.
    AirOnly,
}

impl PasteMode {
    /// Every mode, in menu order.
    pub const ALL: [PasteMode; 3] = [PasteMode::Replace, PasteMode::Merge, PasteMode::AirOnly];

    /// The command-line name: `replace`, `merge` or `air`.
    pub fn name(self) -> &'static str {
        match self {
            PasteMode::Replace => "replace",
            PasteMode::Merge => "merge",
            PasteMode::AirOnly => "air",
        }
    }

    /// The mode called `name` (see [`PasteMode::name`]; either case).
    pub fn from_name(name: &str) -> Option<Self> {
        Self::ALL
            .into_iter()
            .find(|m| m.name().eq_ignore_ascii_case(name.trim()))
    }

    /// The voxel that ends up where the world holds `world` and the region `region`.
    #[inline]
    pub fn combine(self, world: Voxel, region: Voxel) -> Voxel {
        match self {
            PasteMode::Replace => region,
            PasteMode::Merge => {
                if units(region) > units(world) {
                    region
                } else {
                    world
                }
            }
            PasteMode::AirOnly => {
                if world.is_air() {
                    region
                } else {
                    world
                }
            }
        }
    }
}

/// Occupancy units: 0 for Air, `occupancy + 1` for matter.
#[inline]
fn units(v: Voxel) -> u16 {
    if v.is_air() {
        0
    } else {
        u16::from(v.occupancy) + 1
    }
}

/// What [`RegionEdit::fill`] writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Fill {
    /// The voxel written (normalized; Air deletes).
    pub voxel: Voxel,
    /// Write only where the world holds Air.
    pub only_air: bool,
}

impl Fill {
    /// Fill everything with `voxel`.
    pub fn new(voxel: Voxel) -> Self {
        Self {
            voxel: Voxel::new(voxel.material, voxel.occupancy),
            only_air: false,
        }
    }

    /// Fill only the Air voxels with `voxel`.
    pub fn only_air(voxel: Voxel) -> Self {
        Self {
            only_air: true,
            ..Self::new(voxel)
        }
    }
}

/// Where the new voxels of a write come from.
#[derive(Clone, Copy)]
enum Source<'r> {
    Region {
        region: &'r Region,
        at: VoxelPos,
        mode: PasteMode,
    },
    Fill(Fill),
}

impl Source<'_> {
    /// The new voxels of `part` (X fastest), given the old ones.
    fn produce(&self, part: VoxelBox, old: &[Voxel], new: &mut [Voxel]) {
        match *self {
            Source::Fill(fill) => {
                for (n, o) in new.iter_mut().zip(old) {
                    *n = if fill.only_air && !o.is_air() {
                        *o
                    } else {
                        fill.voxel
                    };
                }
            }
            Source::Region { region, at, mode } => {
                let [sx, _, _] = part.size();
                let x0 = (part.min.x - at.x) as usize;
                let mut k = 0;
                for z in part.min.z..part.max.z {
                    for y in part.min.y..part.max.y {
                        let (ry, rz) = ((y - at.y) as usize, (z - at.z) as usize);
                        region.read_row(ry, rz, x0, &mut new[k..k + sx]);
                        k += sx;
                    }
                }
                if mode != PasteMode::Replace {
                    for (n, o) in new.iter_mut().zip(old) {
                        *n = mode.combine(*o, *n);
                    }
                }
            }
        }
    }
}

/// One undoable region edit in progress (see the module docs).
///
/// Dropping an edit without [`RegionEdit::finish`] rolls it back, so an error or a cancel that
/// leaves through `?` discards the whole edit (the grid bit for bit as before; like any edit that
/// wrote something, it has cleared the redo stack). Without a history nothing is recorded: changes
/// stay as they are written and cannot be rolled back.
pub struct RegionEdit<'a> {
    grid: &'a mut Grid,
    history: Option<&'a mut History>,
    name: String,
    progress: &'a Progress,
    open: bool,
    changed: VoxelBox,
    old: Vec<Voxel>,
    new: Vec<Voxel>,
    tight: Vec<Voxel>,
}

impl std::fmt::Debug for RegionEdit<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RegionEdit")
            .field("name", &self.name)
            .field("open", &self.open)
            .field("changed", &self.changed)
            .finish_non_exhaustive()
    }
}

impl<'a> RegionEdit<'a> {
    /// Start an edit whose undo step will be called `name` (closes any group open in `history`).
    /// Each operation reports progress per chunk through `progress` and stops with
    /// [`Error::Cancelled`] when it is cancelled.
    pub fn begin(
        grid: &'a mut Grid,
        mut history: Option<&'a mut History>,
        name: &str,
        progress: &'a Progress,
    ) -> Self {
        if let Some(h) = history.as_deref_mut() {
            h.end_group();
        }
        Self {
            grid,
            history,
            name: name.to_owned(),
            progress,
            open: false,
            changed: VoxelBox::default(),
            old: Vec::new(),
            new: Vec::new(),
            tight: Vec::new(),
        }
    }

    /// The grid as it is now (for copies between operations).
    pub fn grid(&self) -> &Grid {
        self.grid
    }

    /// The union of every box changed so far (empty if none).
    pub fn changed(&self) -> VoxelBox {
        self.changed
    }

    /// Copy box `b` of the grid as it is now.
    ///
    /// # Errors
    /// As for [`Region::copy_with`].
    pub fn copy(&self, b: VoxelBox) -> Result<Region> {
        Region::copy_with(self.grid, b, self.progress)
    }

    /// Paste `region` with its minimum corner at `at`; returns the exact changed box (empty when
    /// nothing changed).
    ///
    /// # Errors
    /// [`Error::Invalid`] when the placed box runs past the coordinate range; [`Error::Cancelled`].
    pub fn paste(&mut self, region: &Region, at: VoxelPos, mode: PasteMode) -> Result<VoxelBox> {
        let target = region.placed_at(at);
        if target.size().map(|s| s as u64) != region.size().map(u64::from) || !target.in_range() {
            return Err(Error::Invalid(format!(
                "a region of {:?} placed at {at:?} runs outside the world's coordinate range \
                 ({} to {})",
                region.size(),
                -COORD_LIMIT,
                COORD_LIMIT - 1
            )));
        }
        self.write(target, Source::Region { region, at, mode })
    }

    /// Fill box `b`; returns the exact changed box.
    ///
    /// # Errors
    /// [`Error::Invalid`] for an empty box or one outside the coordinate range; [`Error::Cancelled`].
    pub fn fill(&mut self, b: VoxelBox, fill: Fill) -> Result<VoxelBox> {
        if b.is_empty() {
            return Err(Error::Invalid(format!("the box {b:?} is empty")));
        }
        b.check_range("the box")?;
        self.write(b, Source::Fill(fill))
    }

    /// Turn box `b` to Air; returns the exact changed box.
    ///
    /// # Errors
    /// As for [`RegionEdit::fill`].
    pub fn delete(&mut self, b: VoxelBox) -> Result<VoxelBox> {
        self.fill(b, Fill::new(Voxel::AIR))
    }

    /// Copy box `b`, then turn it to Air; returns the copy.
    ///
    /// # Errors
    /// As for [`Region::copy_with`] and [`RegionEdit::fill`].
    pub fn cut(&mut self, b: VoxelBox) -> Result<Region> {
        let region = self.copy(b)?;
        self.delete(b)?;
        Ok(region)
    }

    /// Move the voxels of box `b` so its minimum corner lands at `to`: cut, then paste with `mode`
    /// (into the world as it is after the cut). Returns the union of the boxes the two halves
    /// changed, each exact; where they overlap a voxel may end up as it was.
    ///
    /// # Errors
    /// As for [`RegionEdit::cut`] and [`RegionEdit::paste`].
    pub fn move_box(&mut self, b: VoxelBox, to: VoxelPos, mode: PasteMode) -> Result<VoxelBox> {
        let region = self.copy(b)?;
        let removed = self.delete(b)?;
        let placed = self.paste(&region, to, mode)?;
        Ok(removed.union(&placed))
    }

    /// Close the undo step (none if nothing changed); returns the exact changed box.
    pub fn finish(mut self) -> VoxelBox {
        if self.open {
            if let Some(h) = self.history.as_deref_mut() {
                h.end_group();
            }
            self.open = false;
        }
        self.changed
    }

    /// Undo everything this edit wrote and drop its step: the grid is bit for bit as before.
    ///
    /// # Errors
    /// As for [`History::discard_group`].
    pub fn abort(mut self) -> Result<()> {
        self.rollback()
    }

    fn rollback(&mut self) -> Result<()> {
        if !self.open {
            return Ok(());
        }
        self.open = false;
        self.changed = VoxelBox::default();
        match self.history.as_deref_mut() {
            Some(h) => h.discard_group(self.grid),
            None => Ok(()),
        }
    }

    /// Write `source` over `target` chunk by chunk; returns the union of the tight changed boxes.
    fn write(&mut self, target: VoxelBox, source: Source<'_>) -> Result<VoxelBox> {
        let parts = target.chunks().count();
        self.progress.start(parts as u64);
        let mut changed = VoxelBox::default();
        for pos in target.chunks() {
            self.progress.check()?;
            if let Source::Fill(fill) = source {
                if let Some(done) = self.fill_whole_chunk(pos, &target, fill) {
                    changed = changed.union(&done);
                    self.progress.advance(1);
                    continue;
                }
            }
            let part = pos.voxel_box().intersect(&target);
            let n = part.volume();
            self.old.resize(n, Voxel::AIR);
            self.new.resize(n, Voxel::AIR);
            self.grid.read_box(part, &mut self.old);
            source.produce(part, &self.old, &mut self.new);
            if let Some(tight) = tight_box(part, &self.old, &self.new) {
                self.record(tight);
                if tight == part {
                    self.grid.write_box(tight, &self.new);
                } else {
                    extract(part, &self.new, tight, &mut self.tight);
                    self.grid.write_box(tight, &self.tight);
                }
                changed = changed.union(&tight);
            }
            self.progress.advance(1);
        }
        self.changed = self.changed.union(&changed);
        Ok(changed)
    }

    /// A fill that covers chunk `pos` whole, where the chunk is missing (all Air) or of one
    /// material: done as a whole chunk, without reading or writing its voxels one by one. Returns
    /// the changed box (empty when nothing changed), or `None` when the chunk needs the general
    /// path (partly covered, of mixed voxels, or a fill of partial occupancy).
    fn fill_whole_chunk(
        &mut self,
        pos: ChunkPos,
        target: &VoxelBox,
        fill: Fill,
    ) -> Option<VoxelBox> {
        let whole = pos.voxel_box();
        if whole.intersect(target) != whole {
            return None;
        }
        let old = match self.grid.chunk(pos) {
            None => Some(AIR),
            Some(c) => Some(c.uniform_material()?),
        };
        let v = fill.voxel;
        let new = if fill.only_air && old != Some(AIR) {
            old
        } else if v.is_air() {
            Some(AIR)
        } else if v.is_default() {
            Some(v.material)
        } else {
            return None;
        };
        if new == old {
            return Some(VoxelBox::default());
        }
        self.record(whole);
        match new {
            Some(AIR) | None => {
                self.grid.remove_chunk(pos);
            }
            Some(m) => self.grid.insert_chunk(pos, Chunk::uniform(m)),
        }
        Some(whole)
    }

    fn record(&mut self, tight: VoxelBox) {
        let Some(h) = self.history.as_deref_mut() else {
            self.open = true;
            return;
        };
        if !self.open {
            h.begin_group(&self.name);
            self.open = true;
        }
        h.record(self.grid, tight, &self.name);
    }
}

impl Drop for RegionEdit<'_> {
    fn drop(&mut self) {
        // Decoding boxes this history packed moments ago cannot fail; there is no one to tell here.
        let _ = self.rollback();
    }
}

/// The tightest box of `part` where `old` and `new` (both laid out over `part`) differ.
fn tight_box(part: VoxelBox, old: &[Voxel], new: &[Voxel]) -> Option<VoxelBox> {
    let [sx, sy, _] = part.size();
    let mut lo = [usize::MAX; 3];
    let mut hi = [0usize; 3];
    for (r, (a, b)) in old.chunks_exact(sx).zip(new.chunks_exact(sx)).enumerate() {
        if a == b {
            continue;
        }
        let first = a.iter().zip(b).position(|(p, q)| p != q).unwrap_or(0);
        let last = a.iter().zip(b).rposition(|(p, q)| p != q).unwrap_or(0);
        let (y, z) = (r % sy, r / sy);
        lo = [lo[0].min(first), lo[1].min(y), lo[2].min(z)];
        hi = [hi[0].max(last + 1), hi[1].max(y + 1), hi[2].max(z + 1)];
    }
    if lo[0] == usize::MAX {
        return None;
    }
    let at = |d: [usize; 3]| {
        VoxelPos::new(
            part.min.x + d[0] as i32,
            part.min.y + d[1] as i32,
            part.min.z + d[2] as i32,
        )
    };
    Some(VoxelBox::new(at(lo), at(hi)))
}

/// Copy the voxels of `inner` out of `src` (laid out over `outer`) into `out`.
fn extract(outer: VoxelBox, src: &[Voxel], inner: VoxelBox, out: &mut Vec<Voxel>) {
    let [sx, sy, _] = outer.size();
    let dx = (inner.min.x - outer.min.x) as usize;
    let w = inner.size()[0];
    out.clear();
    for z in inner.min.z..inner.max.z {
        for y in inner.min.y..inner.max.y {
            let s = ((z - outer.min.z) as usize * sy + (y - outer.min.y) as usize) * sx + dx;
            out.extend_from_slice(&src[s..s + w]);
        }
    }
}

/// The minimum corner that keeps a box of `size` centred where `b` is centred (rounding toward
/// the minimum), e.g. to put a region turned in place back over its selection.
pub fn center_anchor(b: VoxelBox, size: [u32; 3]) -> VoxelPos {
    let c = |min: i32, have: usize, want: u32| {
        let shift = (have as i64 - i64::from(want)).div_euclid(2);
        (i64::from(min) + shift).clamp(i64::from(i32::MIN), i64::from(i32::MAX)) as i32
    };
    let s = b.size();
    VoxelPos::new(
        c(b.min.x, s[0], size[0]),
        c(b.min.y, s[1], size[1]),
        c(b.min.z, s[2], size[2]),
    )
}
