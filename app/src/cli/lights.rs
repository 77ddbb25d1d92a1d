//! `strata lights`: the project's point and spot lights, listed or edited.
//!
//! ```text
//! strata lights FILE [--json]
//! strata lights FILE --add-point X,Y,Z [--color R,G,B] [--intensity F] [--range R] [-o OUT]
//! strata lights FILE --add-spot X,Y,Z --dir DX,DY,DZ --angle DEG [--color R,G,B] [--intensity F]
//!                    [--range R] [-o OUT]
//! strata lights FILE --remove N [-o OUT]
//! ```
//!
//! Each edit is one undo step made through the editor's edit path (`Document::change_lights`),
//! under the project lock for an in-place save; the baked light goes stale within the changed
//! light's range. `--json` prints `{"lights": [{"index", "kind": "point"|"spot", "position": [x, y,
//! z], "color": [r, g, b], "intensity", "range", "direction": null|[dx, dy, dz], "angle":
//! null|deg}]}` (colours linear).

use std::path::PathBuf;

use serde_json::{json, Value};
use strata_engine::light::{PlacedLight, Spot};

use super::args::{parse_point, parse_triple};
use super::progress::with_bar;
use super::project_edit::{load, open_for_edit};
use crate::{AppError, AppResult};

/// `strata lights`.
#[derive(Debug, clap::Args)]
pub struct LightsArgs {
    /// Project file.
    file: PathBuf,
    /// Print the lights as JSON.
    #[arg(long)]
    json: bool,
    /// Add a point light at X,Y,Z (world voxel units).
    #[arg(long, value_name = "X,Y,Z", allow_hyphen_values = true,
          conflicts_with_all = ["add_spot", "remove"])]
    add_point: Option<String>,
    /// Add a spot light at X,Y,Z (needs --dir and --angle).
    #[arg(
        long,
        value_name = "X,Y,Z",
        allow_hyphen_values = true,
        conflicts_with = "remove"
    )]
    add_spot: Option<String>,
    /// With --add-spot: where the cone points, DX,DY,DZ (not all zero).
    #[arg(long, value_name = "DX,DY,DZ", allow_hyphen_values = true)]
    dir: Option<String>,
    /// With --add-spot: the cone's full opening angle in degrees (more than 0, less than 180).
    #[arg(long, value_name = "DEG", allow_hyphen_values = true)]
    angle: Option<String>,
    /// Linear colour R,G,B (each 0 to 64). Default 1,1,1.
    #[arg(long, value_name = "R,G,B", allow_hyphen_values = true)]
    color: Option<String>,
    /// Brightness (0 to 100000): the light a surface facing it one voxel away receives. Default 25.
    #[arg(long, value_name = "F", allow_hyphen_values = true)]
    intensity: Option<String>,
    /// Distance in voxels at which the light reaches zero (more than 0, at most 256). Default 16.
    #[arg(long, value_name = "R", allow_hyphen_values = true)]
    range: Option<String>,
    /// Remove the light with this index (as listed).
    #[arg(long, value_name = "N", allow_hyphen_values = true)]
    remove: Option<String>,
    /// Write the result here instead of over FILE.
    #[arg(short = 'o', long = "out")]
    out: Option<PathBuf>,
}

/// One finite number.
fn number(text: &str, flag: &str) -> AppResult<f32> {
    let v: f32 = text
        .trim()
        .parse()
        .map_err(|_| AppError::Usage(format!("{flag} {text:?}: not a number")))?;
    if !v.is_finite() {
        return Err(AppError::Usage(format!(
            "{flag} {text}: must be a finite number"
        )));
    }
    Ok(v)
}

/// What the command was asked to do.
enum Edit {
    Add(PlacedLight),
    Remove(usize),
}

impl LightsArgs {
    /// Run the command.
    ///
    /// # Errors
    /// Bad values (before anything is read), a light outside the world, a bad index, an unreadable
    /// project, an unwritable output; nothing is written then.
    pub fn run(self) -> AppResult<()> {
        let Some(edit) = self.edit()? else {
            if self.out.is_some() {
                return Err(AppError::Usage(
                    "-o OUT writes an edited project; add --add-point, --add-spot or --remove"
                        .into(),
                ));
            }
            let project = load(&self.file)?;
            return report(&project.lights, self.json);
        };
        let mut doc = open_for_edit(&self.file, self.out.as_deref(), &[])?;
        let mut lights = doc.lights().to_vec();
        let name = match edit {
            Edit::Add(l) => {
                lights.push(l);
                if l.spot.is_some() {
                    "Add spot light"
                } else {
                    "Add point light"
                }
            }
            Edit::Remove(i) => {
                if i >= lights.len() {
                    return Err(AppError::Usage(format!(
                        "--remove {i}: {} has {} light{}{}",
                        self.file.display(),
                        lights.len(),
                        if lights.len() == 1 { "" } else { "s" },
                        if lights.is_empty() {
                            String::new()
                        } else {
                            format!(" (indices 0 to {})", lights.len() - 1)
                        }
                    )));
                }
                lights.remove(i);
                "Remove light"
            }
        };
        doc.change_lights(name, lights)?;
        let target = self.out.clone().unwrap_or_else(|| self.file.clone());
        with_bar("saving", |p| doc.project().save_with(&target, p))?;
        if self.json {
            return report(doc.lights(), true);
        }
        out!(
            "{name}: {} light{} now; saved {} (undo steps in its history: {})",
            doc.lights().len(),
            if doc.lights().len() == 1 { "" } else { "s" },
            target.display(),
            doc.history().undo_len()
        )?;
        Ok(())
    }

    /// The edit asked for, parsed and checked on its own (the world's bounds are checked once the
    /// project is read); `None` for a listing.
    fn edit(&self) -> AppResult<Option<Edit>> {
        let only_spot = |set: bool, flag: &str| {
            if set && self.add_spot.is_none() {
                Err(AppError::Usage(format!("{flag} goes with --add-spot")))
            } else {
                Ok(())
            }
        };
        only_spot(self.dir.is_some(), "--dir")?;
        only_spot(self.angle.is_some(), "--angle")?;
        let adding = self.add_point.is_some() || self.add_spot.is_some();
        if !adding && (self.color.is_some() || self.intensity.is_some() || self.range.is_some()) {
            return Err(AppError::Usage(
                "--color, --intensity and --range go with --add-point or --add-spot".into(),
            ));
        }
        if let Some(n) = &self.remove {
            let i = n.trim().parse::<usize>().map_err(|_| {
                AppError::Usage(format!("--remove {n:?}: give a light's index (0, 1, ...)"))
            })?;
            return Ok(Some(Edit::Remove(i)));
        }
        let Some(at) = self.add_point.as_ref().or(self.add_spot.as_ref()) else {
            return Ok(None);
        };
        let flag = if self.add_spot.is_some() {
            "--add-spot"
        } else {
            "--add-point"
        };
        let mut light = PlacedLight {
            position: parse_point(at, flag)?,
            ..PlacedLight::default()
        };
        if let Some(c) = &self.color {
            light.color = parse_triple(c, "--color")?;
        }
        if let Some(v) = &self.intensity {
            light.intensity = number(v, "--intensity")?;
        }
        if let Some(v) = &self.range {
            light.range = number(v, "--range")?;
        }
        if self.add_spot.is_some() {
            let (Some(dir), Some(angle)) = (&self.dir, &self.angle) else {
                return Err(AppError::Usage(
                    "--add-spot needs --dir DX,DY,DZ and --angle DEG".into(),
                ));
            };
            light.spot = Some(Spot {
                direction: parse_point(dir, "--dir")?,
                angle_degrees: number(angle, "--angle")?,
            });
        }
        // Everything but the world's bounds, before the project is read.
        let everywhere = strata_engine::voxel::VoxelBox::new(
            strata_engine::voxel::VoxelPos::new(i32::MIN / 2, i32::MIN / 2, i32::MIN / 2),
            strata_engine::voxel::VoxelPos::new(i32::MAX / 2, i32::MAX / 2, i32::MAX / 2),
        );
        light.validate(&everywhere)?;
        Ok(Some(Edit::Add(light)))
    }
}

/// The JSON form of `lights`.
pub fn lights_json(lights: &[PlacedLight]) -> Value {
    let rows: Vec<Value> = lights
        .iter()
        .enumerate()
        .map(|(i, l)| {
            json!({
                "index": i,
                "kind": if l.spot.is_some() { "spot" } else { "point" },
                "position": l.position,
                "color": l.color,
                "intensity": l.intensity,
                "range": l.range,
                "direction": l.spot.map(|s| s.direction),
                "angle": l.spot.map(|s| s.angle_degrees),
            })
        })
        .collect();
    json!({ "lights": rows })
}

fn report(lights: &[PlacedLight], json: bool) -> AppResult<()> {
    if json {
        out!(
            "{}",
            serde_json::to_string_pretty(&lights_json(lights)).unwrap_or_default()
        )?;
        return Ok(());
    }
    if lights.is_empty() {
        out!("no lights")?;
    }
    let v3 = |v: [f32; 3]| format!("{},{},{}", v[0], v[1], v[2]);
    for (i, l) in lights.iter().enumerate() {
        let spot = l.spot.map_or(String::new(), |s| {
            format!(" dir {} angle {}°", v3(s.direction), s.angle_degrees)
        });
        out!(
            "{i}: {} at {} colour {} intensity {} range {}{spot}",
            if l.spot.is_some() { "spot" } else { "point" },
            v3(l.position),
            v3(l.color),
            l.intensity,
            l.range
        )?;
    }
    Ok(())
}
