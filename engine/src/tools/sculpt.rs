//! The occupancy kernels: Add, Subtract, Grow, Erode, Smooth and Flatten.
//!
//! Each kernel maps one voxel (its old value, solid fraction `f`, and its neighbourhood in the
//! [`Field`]) to a new solid fraction, then [`Palette::settle`] turns that into a valid voxel (matter
//! thinner than [`crate::voxel::MIN_MATTER_OCCUPANCY`] becomes Air, so carving ends in empty space). With strength
//! `s`, coverage `a` and falloff `w` (see [`super::brush`]):
//!
//! | Tool     | new solid fraction                                   | new matter's material          |
//! |----------|------------------------------------------------------|--------------------------------|
//! | Add      | `f + (max(f, a) − f)·s`                              | the tool's material            |
//! | Subtract | `f − (f − min(f, 1 − a))·s`                          | —                              |
//! | Grow     | `f + ½·s·w·mean6` (mean of the six face neighbours)  | richest neighbour, else tool's |
//! | Erode    | `f − ½·s·w·(1 − mean6)`                              | —                              |
//! | Smooth   | `f + (mean27 − f)·s·w` (3×3×3 box mean)              | richest neighbour, else tool's |
//! | Flatten  | `f + (t − f)·s·w`, `t = clamp(½ − height above plane)`| richest neighbour, else tool's |
//!
//! Grow and Erode only act where matter meets space (mean6 is 0 in open air, 1 deep inside), so they
//! move surfaces rather than fill the brush. Flatten's target `t` is the occupancy of ground whose
//! surface (occupancy ½) lies exactly on the plane, so it can set heights finer than a voxel.

use super::brush::{Footprint, Plane};
use super::sculpt_field::{Field, Palette};
use super::tool::{FlattenMode, Tool};
use crate::voxel::{Voxel, VoxelPos};

/// Occupancy change per Grow/Erode dab at full strength and falloff, per unit of neighbour pull.
const GROW_RATE: f32 = 0.5;

/// Inputs shared by every voxel of one dab.
pub(crate) struct Ctx<'a> {
    pub field: &'a Field,
    pub palette: &'a Palette,
    pub fp: Footprint,
    pub strength: f32,
    pub tool: &'a Tool,
}

impl Ctx<'_> {
    /// Material for new matter at field index `i` of a voxel that was `old`.
    #[inline]
    fn grow_material(&self, i: usize, old: Voxel) -> Option<u8> {
        if self.palette.is_solid(old.material) {
            return Some(old.material);
        }
        self.field.dominant_neighbour(i).or_else(|| {
            self.palette
                .is_solid(self.tool.material)
                .then_some(self.tool.material)
        })
    }
}

/// Add: pull occupancy up toward the brush coverage.
pub(crate) fn add(c: &Ctx, p: VoxelPos, i: usize, old: Voxel) -> Voxel {
    let a = c.fp.coverage(c.fp.distance(p));
    let f = c.field.solid[i];
    if a <= f {
        return old;
    }
    c.palette
        .settle(old, f, f + (a - f) * c.strength, Some(c.tool.material))
}

/// Subtract: pull occupancy down toward the inverse coverage.
pub(crate) fn subtract(c: &Ctx, p: VoxelPos, i: usize, old: Voxel) -> Voxel {
    let keep = 1.0 - c.fp.coverage(c.fp.distance(p));
    let f = c.field.solid[i];
    if keep >= f {
        return old;
    }
    c.palette.settle(old, f, f - (f - keep) * c.strength, None)
}

/// Grow: raise occupancy in proportion to the matter around.
pub(crate) fn grow(c: &Ctx, p: VoxelPos, i: usize, old: Voxel) -> Voxel {
    let f = c.field.solid[i];
    let w = c.fp.falloff(c.fp.distance(p));
    if w <= 0.0 || f >= 1.0 {
        return old;
    }
    let pull = c.field.mean6(i);
    if pull <= 0.0 {
        return old;
    }
    let new = (f + GROW_RATE * c.strength * w * pull).min(1.0);
    c.palette.settle(old, f, new, c.grow_material(i, old))
}

/// Erode: lower occupancy in proportion to the space around.
pub(crate) fn erode(c: &Ctx, p: VoxelPos, i: usize, old: Voxel) -> Voxel {
    let f = c.field.solid[i];
    let w = c.fp.falloff(c.fp.distance(p));
    if w <= 0.0 || f <= 0.0 {
        return old;
    }
    let pull = 1.0 - c.field.mean6(i);
    let new = (f - GROW_RATE * c.strength * w * pull).max(0.0);
    c.palette.settle(old, f, new, None)
}

/// Smooth: blend occupancy toward the 3×3×3 mean.
pub(crate) fn smooth(c: &Ctx, p: VoxelPos, i: usize, old: Voxel) -> Voxel {
    let w = c.fp.falloff(c.fp.distance(p));
    if w <= 0.0 {
        return old;
    }
    let f = c.field.solid[i];
    let new = f + (c.field.mean27(i) - f) * c.strength * w;
    if new > f {
        c.palette.settle(old, f, new, c.grow_material(i, old))
    } else {
        c.palette.settle(old, f, new, None)
    }
}

/// Flatten toward `plane` (prepared once per dab by the caller).
pub(crate) fn flatten(c: &Ctx, plane: &Plane, p: VoxelPos, i: usize, old: Voxel) -> Voxel {
    let w = c.fp.falloff(c.fp.distance(p));
    if w <= 0.0 {
        return old;
    }
    let centre = [p.x as f32 + 0.5, p.y as f32 + 0.5, p.z as f32 + 0.5];
    let target = (0.5 - plane.signed_distance(centre)).clamp(0.0, 1.0);
    let f = c.field.solid[i];
    let allowed = match c.tool.flatten_mode {
        FlattenMode::Both => target != f,
        FlattenMode::Erode => target < f,
        FlattenMode::Grow => target > f,
    };
    if !allowed {
        return old;
    }
    let new = f + (target - f) * c.strength * w;
    if new > f {
        c.palette.settle(old, f, new, c.grow_material(i, old))
    } else {
        c.palette.settle(old, f, new, None)
    }
}
