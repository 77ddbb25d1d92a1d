//! `strata sculpt FILE --tool add|subtract|grow|erode|smooth|flatten|paint --at X,Y,Z --radius R
//! [--strength S] [--dabs N] [--shape sphere|cube|cylinder] [--material NAME] [-o OUT]`: the editor's
//! brush without the editor. `N` dabs at one spot are one stroke, so one undo step named after the
//! tool, run by the editor's own kernels through the editor's edit path (`Document::dab`): the
//! world's bottom layer is kept and baked light goes stale where the stroke reaches.
//!
//! `--at` is a point in world units (voxel `(x, y, z)` spans `x..x+1` and so on), as a click on the
//! surface gives; Flatten levels to the horizontal plane through it.

use std::path::PathBuf;

use clap::ValueEnum;
use strata_engine::tools::{
    Brush, BrushShape, Tool, ToolKind, MAX_SIZE, MAX_STRENGTH, MIN_SIZE, MIN_STRENGTH,
};
use strata_engine::voxel::{MaterialTable, VoxelBox, COORD_LIMIT};

use super::args::{parse_in_range, parse_point};
use super::project_edit::{fmt_box, open_for_edit, save};
use crate::{AppError, AppResult};

/// The most dabs one command applies.
pub const MAX_DABS: u32 = 10_000;

/// The brush tools `sculpt` offers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum SculptTool {
    /// Add matter of `--material`.
    Add,
    /// Remove matter.
    Subtract,
    /// Raise the surface where matter meets air.
    Grow,
    /// Wear the surface away where matter meets air.
    Erode,
    /// Smooth bumps and edges.
    Smooth,
    /// Level the ground to the horizontal plane through `--at`.
    Flatten,
    /// Change the material of the surface to `--material`.
    Paint,
}

impl From<SculptTool> for ToolKind {
    fn from(t: SculptTool) -> Self {
        match t {
            SculptTool::Add => ToolKind::Add,
            SculptTool::Subtract => ToolKind::Subtract,
            SculptTool::Grow => ToolKind::Grow,
            SculptTool::Erode => ToolKind::Erode,
            SculptTool::Smooth => ToolKind::Smooth,
            SculptTool::Flatten => ToolKind::Flatten,
            SculptTool::Paint => ToolKind::Paint,
        }
    }
}

/// Brush shapes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ShapeArg {
    /// A ball.
    Sphere,
    /// An axis-aligned cube.
    Cube,
    /// An upright cylinder as tall as it is wide.
    Cylinder,
}

impl From<ShapeArg> for BrushShape {
    fn from(s: ShapeArg) -> Self {
        match s {
            ShapeArg::Sphere => BrushShape::Sphere,
            ShapeArg::Cube => BrushShape::Cube,
            ShapeArg::Cylinder => BrushShape::Cylinder,
        }
    }
}

/// `strata sculpt`.
#[derive(Debug, clap::Args)]
pub struct SculptArgs {
    /// Project file.
    file: PathBuf,
    /// The brush tool.
    #[arg(long)]
    tool: SculptTool,
    /// Dab centre X,Y,Z in world units (voxel x spans x..x+1).
    #[arg(long, allow_hyphen_values = true)]
    at: String,
    /// Brush radius in voxels, 0.5 to 32.
    #[arg(long)]
    radius: String,
    /// How much one dab changes, 0.1 to 1 (default 1, the editor's default).
    #[arg(long)]
    strength: Option<String>,
    /// Dabs at the spot, 1 to 10000 (default 1); all of them are one undo step.
    #[arg(long, default_value_t = 1)]
    dabs: u32,
    /// Brush shape (default sphere).
    #[arg(long, value_enum, default_value_t = ShapeArg::Sphere)]
    shape: ShapeArg,
    /// Material of Add and Paint (and of new matter where Grow, Smooth or Flatten find no
    /// neighbour), any case; default Grass, else the first solid material.
    #[arg(long)]
    material: Option<String>,
    /// Write the result here instead of over FILE.
    #[arg(short = 'o', long = "out")]
    out: Option<PathBuf>,
}

impl SculptArgs {
    /// Run the command.
    ///
    /// # Errors
    /// A bad point, radius, strength, dab count or material; unreadable input, unwritable output.
    pub fn run(self) -> AppResult<()> {
        let at = parse_point(&self.at, "--at")?;
        let limit = COORD_LIMIT as f32;
        if at.iter().any(|v| v.abs() >= limit) {
            return Err(AppError::Usage(format!(
                "--at {}: coordinates must lie within ±{COORD_LIMIT}",
                self.at
            )));
        }
        let radius = parse_in_range(
            &self.radius,
            "--radius",
            f64::from(MIN_SIZE) / 2.0,
            f64::from(MAX_SIZE) / 2.0,
        )?;
        let strength = match &self.strength {
            Some(s) => parse_in_range(
                s,
                "--strength",
                f64::from(MIN_STRENGTH),
                f64::from(MAX_STRENGTH),
            )?,
            None => f64::from(Brush::default().strength),
        };
        if self.dabs == 0 || self.dabs > MAX_DABS {
            return Err(AppError::Usage(format!(
                "--dabs {} is out of range: it must be 1 to {MAX_DABS}",
                self.dabs
            )));
        }
        let mut doc = open_for_edit(&self.file, self.out.as_deref(), &[])?;
        let kind = ToolKind::from(self.tool);
        let material = brush_material(doc.materials(), self.material.as_deref(), kind)?;
        let tool = Tool::new(kind, material);
        let mut brush = Brush::new(self.shape.into(), (radius * 2.0) as f32, strength as f32);
        // As in the editor: the world's lowest layer stays, so the ground always has a floor.
        brush.floor_y = Some(doc.bounds().min.y.saturating_add(1));
        doc.begin_stroke(kind.name());
        let mut changed = VoxelBox::default();
        for _ in 0..self.dabs {
            if let Some(b) = doc.dab(&tool, &brush, at) {
                changed = changed.union(&b);
            }
        }
        doc.end_stroke();
        note!(
            "{}: {} dabs, radius {radius}, strength {strength}{}",
            kind.name(),
            self.dabs,
            if changed.is_empty() {
                String::new()
            } else {
                format!(", within {}", fmt_box(changed))
            }
        )?;
        save(&doc, &self.file, self.out.as_deref(), changed)
    }
}

/// The material `--material` names (or the default), checked against what `kind` needs.
fn brush_material(table: &MaterialTable, name: Option<&str>, kind: ToolKind) -> AppResult<u8> {
    let names = || {
        table
            .materials
            .iter()
            .map(|m| m.name.as_str())
            .collect::<Vec<_>>()
            .join(", ")
    };
    let id = match name {
        Some(n) => table.id_of(n.trim()).ok_or_else(|| {
            AppError::Usage(format!(
                "unknown material {n:?}; this world's materials are: {}",
                names()
            ))
        })?,
        None => table.require("Grass").ok().unwrap_or_else(|| {
            (1..table.len())
                .find(|&i| table.get(i as u8).is_some_and(|m| !m.liquid))
                .map_or(0, |i| i as u8)
        }),
    };
    let m = table.get(id);
    let solid = id != 0 && m.is_some_and(|m| !m.liquid);
    if matches!(kind, ToolKind::Add | ToolKind::Paint) && !solid {
        let what = m.map_or_else(|| format!("#{id}"), |m| m.name.clone());
        return Err(AppError::Usage(format!(
            "{} needs a solid material; {what} is {}",
            kind.name(),
            if id == 0 { "empty space" } else { "a liquid" }
        )));
    }
    Ok(id)
}
