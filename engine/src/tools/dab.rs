//! One dab: read the brush box, run the tool's kernel on every voxel, keep only what changed.
//!
//! ```text
//!   Footprint::bounds ──grow 1──> Field::read (old voxels + solid fractions)
//!        │
//!        └─ kernel(voxel) for every voxel of the bounds ──> new voxels
//!                                                             │ diff against old
//!                                                             v
//!                     Edit { region: tight box of changed voxels, voxels } ──> Grid::write_box
//! ```
//!
//! Planning and writing are separate so a [`super::Stroke`] can record exactly the changed box in the
//! history between the two.

use super::brush::{Brush, Footprint, Plane};
use super::paint;
use super::sculpt::{self, Ctx};
use super::sculpt_field::{Field, Palette};
use super::sea_level::sea_level as sea_kernel;
use super::tool::{SeaLevelMode, Tool, ToolKind};
use crate::storage::Grid;
use crate::voxel::{MaterialTable, Voxel, VoxelBox, VoxelPos, AIR};

/// A planned change: the new contents of `region`, which is the tightest box around every voxel that
/// differs from the grid.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Edit {
    pub region: VoxelBox,
    pub voxels: Vec<Voxel>,
}

impl Edit {
    /// Write the edit into `grid`.
    pub fn write(&self, grid: &mut Grid) {
        grid.write_box(self.region, &self.voxels);
    }
}

/// Apply one dab of `tool` with `brush` at `center` (world voxel coordinates, e.g. a raycast hit) and
/// return exactly the box of voxels that changed, or `None` when nothing changed.
///
/// Every written voxel is normalized (Air ⇔ occupancy 0). Sea Level fills or clears within the
/// brush's bounding box, with the level at the dab centre's height. A material that the tool needs
/// but that does not fit it (not in `table`; Air or a liquid for Add and Paint; equal source and
/// target for Replace; a table without a liquid for Sea Level fill) makes the dab change nothing.
pub fn apply_dab(
    grid: &mut Grid,
    table: &MaterialTable,
    tool: &Tool,
    brush: &Brush,
    center: [f32; 3],
) -> Option<VoxelBox> {
    let edit = plan_dab(grid, &Palette::new(table), tool, brush, center)?;
    edit.write(grid);
    Some(edit.region)
}

/// Fill air below `level` with water (or clear water) inside `region`; returns the changed box.
/// See the `tools::sea_level` module for the exact rule.
pub fn apply_sea_level(
    grid: &mut Grid,
    table: &MaterialTable,
    region: VoxelBox,
    level: f32,
    mode: SeaLevelMode,
) -> Option<VoxelBox> {
    let edit = plan_sea_level(grid, &Palette::new(table), region, level, mode)?;
    edit.write(grid);
    Some(edit.region)
}

/// Whether `tool`'s materials allow it to do anything at all.
fn materials_fit(palette: &Palette, tool: &Tool) -> bool {
    match tool.kind {
        ToolKind::Add | ToolKind::Paint => palette.is_solid(tool.material),
        ToolKind::Replace => {
            palette.contains(tool.material)
                && palette.contains(tool.source_material)
                && tool.material != tool.source_material
        }
        _ => true,
    }
}

/// Plan one dab without touching the grid.
pub(crate) fn plan_dab(
    grid: &Grid,
    palette: &Palette,
    tool: &Tool,
    brush: &Brush,
    center: [f32; 3],
) -> Option<Edit> {
    let fp = Footprint::new(brush, center)?;
    if !materials_fit(palette, tool) {
        return None;
    }
    let mut target = fp.bounds();
    if let Some(floor) = brush.floor_y {
        target.min.y = target.min.y.max(floor);
        if target.is_empty() {
            return None;
        }
    }
    if tool.kind == ToolKind::SeaLevel {
        return plan_sea_level(grid, palette, target, fp.center[1], tool.sea_level_mode);
    }
    let field = Field::read(grid, palette, target);
    let c = Ctx {
        field: &field,
        palette,
        fp,
        strength: brush.clamped().strength,
        tool,
    };
    let out = match tool.kind {
        ToolKind::Add => run(&field, target, |p, i, v| sculpt::add(&c, p, i, v)),
        ToolKind::Subtract => run(&field, target, |p, i, v| sculpt::subtract(&c, p, i, v)),
        ToolKind::Grow => run(&field, target, |p, i, v| sculpt::grow(&c, p, i, v)),
        ToolKind::Erode => run(&field, target, |p, i, v| sculpt::erode(&c, p, i, v)),
        ToolKind::Smooth => run(&field, target, |p, i, v| sculpt::smooth(&c, p, i, v)),
        ToolKind::Flatten => {
            let plane = match tool.flatten_plane {
                Some(pl) => Plane::new(pl.point, pl.normal),
                None => Plane::horizontal(fp.center[1]),
            };
            run(&field, target, |p, i, v| {
                sculpt::flatten(&c, &plane, p, i, v)
            })
        }
        ToolKind::Paint => run(&field, target, |p, i, v| paint::paint(&c, p, i, v)),
        ToolKind::Replace => run(&field, target, |p, i, v| paint::replace(&c, p, i, v)),
        ToolKind::SeaLevel => return None,
    };
    diff(&field, target, out)
}

/// Plan a Sea Level change of `region`.
pub(crate) fn plan_sea_level(
    grid: &Grid,
    palette: &Palette,
    region: VoxelBox,
    level: f32,
    mode: SeaLevelMode,
) -> Option<Edit> {
    if region.is_empty() || level.is_nan() {
        return None;
    }
    let water = match (mode, palette.water()) {
        (SeaLevelMode::Fill, Some(w)) => w,
        (SeaLevelMode::Fill, None) => return None,
        (SeaLevelMode::Clear, w) => w.unwrap_or(AIR),
    };
    let field = Field::read(grid, palette, region);
    let out = run(&field, region, |p, _, v| {
        sea_kernel(mode, level, water, |m| palette.is_liquid(m), p, v)
    });
    diff(&field, region, out)
}

/// Run `kernel(position, field index, old voxel)` over `target` (X fastest), collecting the results.
fn run(
    field: &Field,
    target: VoxelBox,
    mut kernel: impl FnMut(VoxelPos, usize, Voxel) -> Voxel,
) -> Vec<Voxel> {
    let mut out = Vec::with_capacity(target.volume());
    for z in target.min.z..target.max.z {
        for y in target.min.y..target.max.y {
            let row = field.index(VoxelPos::new(target.min.x, y, z));
            for (dx, x) in (target.min.x..target.max.x).enumerate() {
                let i = row + dx;
                out.push(kernel(VoxelPos::new(x, y, z), i, field.voxels[i]));
            }
        }
    }
    out
}

/// The tight box of voxels in `new` (laid out over `target`) that differ from the field, and their
/// new values; `None` when nothing differs.
fn diff(field: &Field, target: VoxelBox, new: Vec<Voxel>) -> Option<Edit> {
    let [sx, sy, _] = target.size();
    let mut lo = [usize::MAX; 3];
    let mut hi = [0usize; 3];
    let mut k = 0;
    for z in 0..target.size()[2] {
        for y in 0..sy {
            let row = field.index(VoxelPos::new(
                target.min.x,
                target.min.y + y as i32,
                target.min.z + z as i32,
            ));
            let old = &field.voxels[row..row + sx];
            for (x, (a, b)) in old.iter().zip(&new[k..k + sx]).enumerate() {
                if a != b {
                    lo = [lo[0].min(x), lo[1].min(y), lo[2].min(z)];
                    hi = [hi[0].max(x + 1), hi[1].max(y + 1), hi[2].max(z + 1)];
                }
            }
            k += sx;
        }
    }
    if lo[0] == usize::MAX {
        return None;
    }
    let at = |d: [usize; 3]| {
        VoxelPos::new(
            target.min.x + d[0] as i32,
            target.min.y + d[1] as i32,
            target.min.z + d[2] as i32,
        )
    };
    let region = VoxelBox::new(at(lo), at(hi));
    if region == target {
        return Some(Edit {
            region,
            voxels: new,
        });
    }
    let mut voxels = Vec::with_capacity(region.volume());
    for z in lo[2]..hi[2] {
        for y in lo[1]..hi[1] {
            let s = (z * sy + y) * sx;
            voxels.extend_from_slice(&new[s + lo[0]..s + hi[0]]);
        }
    }
    Some(Edit { region, voxels })
}
