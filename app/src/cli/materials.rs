//! `strata materials`: the project's material table, listed or edited.
//!
//! ```text
//! strata materials FILE [--json]
//! strata materials FILE --add NAME [--color R,G,B] [--like NAME] [--liquid] [--sharp]
//!                                  [--emission R,G,B] [--emission-strength F] [-o OUT]
//! strata materials FILE --set NAME [--color R,G,B] [--name NEW] [--liquid on|off] [--sharp on|off]
//!                                  [--emission R,G,B] [--emission-strength F] [--texture PNG|none]
//!                                  [-o OUT]
//! strata materials FILE --remove NAME --into OTHER [-o OUT]
//! strata materials FILE --palette PALETTE.ron|PALETTE.vox|LIST [-o OUT]
//! strata materials FILE --export-palette OUT.ron
//! ```
//!
//! Each edit is one undo step in the project's history, made through the editor's edit path
//! (`Document::change_materials`): voxels follow when ids move, and baked light goes stale where a
//! changed material shows. `--json` prints `{"materials": [{"id", "name", "color": [r, g, b],
//! "liquid", "sharp", "emission": [r, g, b], "emission_strength", "texture": null | {"width",
//! "height"}, "voxels"}]}` (sRGB bytes; `voxels` = how many voxels of the world hold it).

use std::path::{Path, PathBuf};

use serde_json::{json, Value};
use strata_engine::format::project::Project;
use strata_engine::materials::{
    add, apply_palette, like, read_palette, remove, set, MaterialPatch, Palette, TableChange,
};
use strata_engine::voxel::{Emission, Material, MaterialTable, Shaping, MATERIAL_COUNT};

use super::args::{parse_in_range, parse_triple};
use super::progress::with_bar;
use super::project_edit::{load, open_for_edit, refuse_clobbering};
use crate::{AppError, AppResult};

/// Largest PNG `--texture` reads, in bytes.
const MAX_TEXTURE_FILE: u64 = strata_engine::voxel::MAX_TEXTURE_BYTES as u64;

/// `strata materials`.
#[derive(Debug, clap::Args)]
pub struct MaterialsArgs {
    /// Project file.
    file: PathBuf,
    /// Print the table as JSON.
    #[arg(long)]
    json: bool,
    /// Add a material with this name.
    #[arg(long, value_name = "NAME", conflicts_with_all = ["set", "remove", "palette", "export_palette"])]
    add: Option<String>,
    /// Change the material with this name.
    #[arg(long, value_name = "NAME", conflicts_with_all = ["remove", "palette", "export_palette"])]
    set: Option<String>,
    /// Remove the material with this name (its voxels go to --into).
    #[arg(long, value_name = "NAME", requires = "into", conflicts_with_all = ["palette", "export_palette"])]
    remove: Option<String>,
    /// With --remove: the material that takes the removed one's voxels.
    #[arg(long, value_name = "OTHER")]
    into: Option<String>,
    /// Map the project onto a palette: a material table (.ron), a MagicaVoxel .vox (colours only)
    /// or a list of `Name R G B` lines.
    #[arg(long, value_name = "PALETTE", conflicts_with = "export_palette")]
    palette: Option<PathBuf>,
    /// Write the project's table as a .ron palette.
    #[arg(long, value_name = "OUT.ron")]
    export_palette: Option<PathBuf>,
    /// sRGB colour R,G,B (0 to 255 each).
    #[arg(long, allow_hyphen_values = true)]
    color: Option<String>,
    /// With --add: copy this material's properties first.
    #[arg(long, value_name = "NAME")]
    like: Option<String>,
    /// With --set: the new name.
    #[arg(long, value_name = "NEW")]
    name: Option<String>,
    /// Liquid: a flag with --add, `on`/`off` with --set.
    #[arg(long, num_args = 0..=1, default_missing_value = "on", value_parser = ["on", "off"])]
    liquid: Option<String>,
    /// Sharp shaping: a flag with --add, `on`/`off` with --set.
    #[arg(long, num_args = 0..=1, default_missing_value = "on", value_parser = ["on", "off"])]
    sharp: Option<String>,
    /// Emission colour R,G,B (sRGB; with --emission-strength 0 turns it off).
    #[arg(long, allow_hyphen_values = true)]
    emission: Option<String>,
    /// Emission strength, 0 to 1000 (default 1 when --emission is given).
    #[arg(long, allow_hyphen_values = true)]
    emission_strength: Option<String>,
    /// With --set: an albedo texture PNG (at most 2048 pixels a side, 4 MiB), or `none`.
    #[arg(long, value_name = "PNG|none")]
    texture: Option<String>,
    /// Write the result here instead of over FILE.
    #[arg(short = 'o', long = "out")]
    out: Option<PathBuf>,
}

/// A colour `R,G,B` of bytes.
fn parse_color(text: &str, what: &str) -> AppResult<(u8, u8, u8)> {
    let [r, g, b] = parse_triple::<u8>(text, what)
        .map_err(|_| AppError::Usage(format!("{what} {text}: give R,G,B, each 0 to 255")))?;
    Ok((r, g, b))
}

fn on_off(v: Option<&str>) -> Option<bool> {
    v.map(|v| v == "on")
}

impl MaterialsArgs {
    /// Run the command.
    ///
    /// # Errors
    /// Bad values (before anything is read), an unknown material, a full table, an unreadable
    /// project, palette or texture, an unwritable output.
    pub fn run(self) -> AppResult<()> {
        let editing = self.add.is_some()
            || self.set.is_some()
            || self.remove.is_some()
            || self.palette.is_some();
        self.check_options()?;
        if !editing {
            if self.out.is_some() {
                return Err(AppError::Usage(
                    "-o OUT writes an edited project; add --add, --set, --remove or --palette"
                        .into(),
                ));
            }
            return self.report();
        }
        let mut reads: Vec<&Path> = Vec::new();
        reads.extend(self.palette.as_deref());
        let texture_path = self
            .texture
            .as_deref()
            .filter(|t| *t != "none")
            .map(Path::new);
        reads.extend(texture_path);
        let mut doc = open_for_edit(&self.file, self.out.as_deref(), &reads)?;
        let texture = match texture_path {
            Some(p) => Some(read_texture(p)?),
            None => None,
        };
        let table = doc.materials().clone();
        let (step, mut change) = self.change(&table, doc.project())?;
        if let Some(png) = texture {
            let r = doc.add_texture(png)?;
            // `--set` keeps the material's id (a rename changes only its name).
            if let Some(m) = self.set.as_deref().and_then(|n| table.id_of(n.trim())) {
                change.table.materials[usize::from(m)].texture = Some(r);
            }
        }
        strip_missing_textures(&mut change.table, doc.project());
        let applied = with_bar(&step, |p| doc.change_materials(&step, change, p))?;
        let target = self.out.clone().unwrap_or_else(|| self.file.clone());
        with_bar("saving", |p| doc.project().save_with(&target, p))?;
        let voxels = if applied.changed.is_empty() {
            "no voxel changed".to_owned()
        } else {
            format!(
                "voxels remapped within {}",
                super::project_edit::fmt_box(applied.changed)
            )
        };
        out!(
            "{step}: {voxels}; saved {} (undo steps in its history: {})",
            target.display(),
            doc.history().undo_len()
        )?;
        Ok(())
    }

    /// Refuse options that do not go with the edit asked for, before anything is read.
    fn check_options(&self) -> AppResult<()> {
        let only = |set: bool, flag: &str, with: &str| {
            if set {
                Err(AppError::Usage(format!("{flag} goes with {with}")))
            } else {
                Ok(())
            }
        };
        only(self.like.is_some() && self.add.is_none(), "--like", "--add")?;
        only(self.name.is_some() && self.set.is_none(), "--name", "--set")?;
        only(
            self.texture.is_some() && self.set.is_none(),
            "--texture",
            "--set",
        )?;
        only(
            self.into.is_some() && self.remove.is_none(),
            "--into",
            "--remove",
        )?;
        let props = self.color.is_some()
            || self.liquid.is_some()
            || self.sharp.is_some()
            || self.emission.is_some()
            || self.emission_strength.is_some();
        only(
            props && self.add.is_none() && self.set.is_none(),
            "--color, --liquid, --sharp and --emission",
            "--add or --set",
        )?;
        if let Some(c) = &self.color {
            parse_color(c, "--color")?;
        }
        if let Some(c) = &self.emission {
            parse_color(c, "--emission")?;
        }
        if let Some(s) = &self.emission_strength {
            parse_in_range(s, "--emission-strength", 0.0, 1000.0)?;
        }
        Ok(())
    }

    /// The undo step's name and the table change.
    fn change(&self, table: &MaterialTable, project: &Project) -> AppResult<(String, TableChange)> {
        let color = self
            .color
            .as_deref()
            .map(|c| parse_color(c, "--color"))
            .transpose()?;
        let emission_color = self
            .emission
            .as_deref()
            .map(|c| parse_color(c, "--emission"))
            .transpose()?;
        let strength = self
            .emission_strength
            .as_deref()
            .map(|s| parse_in_range(s, "--emission-strength", 0.0, 1000.0))
            .transpose()?
            .map(|s| s as f32);
        if let Some(name) = &self.add {
            if table.len() >= MATERIAL_COUNT {
                return Err(AppError::Usage(format!(
                    "{} already has {MATERIAL_COUNT} materials, the most a project can have",
                    self.file.display()
                )));
            }
            let color = color.unwrap_or((128, 128, 128));
            let mut m = match &self.like {
                Some(l) => like(table, l, name.trim(), color)?,
                None => Material::new(name.trim(), color),
            };
            if let Some(l) = on_off(self.liquid.as_deref()) {
                m.liquid = l;
            }
            if let Some(s) = on_off(self.sharp.as_deref()) {
                m.shaping = if s { Shaping::Sharp } else { Shaping::Smooth };
            }
            if emission_color.is_some() || strength.is_some() {
                m.emission = Some(Emission {
                    color: emission_color.unwrap_or(m.color),
                    strength: strength.unwrap_or(1.0),
                });
            }
            return Ok((format!("Add {}", name.trim()), add(table, m)?));
        }
        if let Some(name) = &self.set {
            let current = table
                .id_of(name.trim())
                .and_then(|id| table.get(id))
                .cloned();
            let emission = if emission_color.is_some() || strength.is_some() {
                let base = current.as_ref().and_then(|m| m.emission);
                let color = emission_color
                    .or(base.map(|e| e.color))
                    .or(current.as_ref().map(|m| m.color))
                    .unwrap_or((255, 255, 255));
                let strength = strength.or(base.map(|e| e.strength)).unwrap_or(1.0);
                Some(Some(Emission { color, strength }))
            } else {
                None
            };
            let patch = MaterialPatch {
                name: self.name.as_ref().map(|n| n.trim().to_owned()),
                color,
                liquid: on_off(self.liquid.as_deref()),
                sharp: on_off(self.sharp.as_deref()),
                emission,
                texture: match self.texture.as_deref() {
                    Some("none") => Some(None),
                    _ => None,
                },
                look: None,
                enhance: None,
            };
            return Ok((format!("Change {}", name.trim()), set(table, name, &patch)?));
        }
        if let (Some(name), Some(into)) = (&self.remove, &self.into) {
            return Ok((
                format!("Remove {} into {}", name.trim(), into.trim()),
                remove(table, name, into)?,
            ));
        }
        let path = self.palette.as_deref().unwrap_or(Path::new(""));
        let palette = read_palette(path)?;
        let mut change = apply_palette(table, &palette)?;
        if matches!(palette, Palette::Table(_)) {
            strip_missing_textures(&mut change.table, project);
        }
        let file = path
            .file_name()
            .map_or_else(String::new, |n| n.to_string_lossy().into_owned());
        Ok((format!("Apply palette {file}"), change))
    }

    fn report(&self) -> AppResult<()> {
        if let Some(out) = &self.export_palette {
            refuse_clobbering(&[&self.file], None, std::slice::from_ref(out))?;
            let project = load(&self.file)?;
            let mut table = project.header.materials.clone();
            for m in &mut table.materials {
                m.texture = None;
            }
            let text = ron::ser::to_string_pretty(&table, ron::ser::PrettyConfig::default())
                .map_err(|e| AppError::Usage(format!("material table: {e}")))?;
            strata_engine::format::write_atomic(out, text.as_bytes())?;
            note!(
                "{}: {} materials written as a palette",
                out.display(),
                table.len()
            )?;
            return Ok(());
        }
        let project = load(&self.file)?;
        let j = materials_json(&project);
        if self.json {
            out!("{j}")?;
            return Ok(());
        }
        for m in j["materials"].as_array().into_iter().flatten() {
            out!(
                "{:>3} {:<16} {:<14} {}{}{}{} voxels",
                m["id"],
                super::escape::text(m["name"].as_str().unwrap_or("")),
                format!("{}", m["color"]),
                if m["liquid"] == true { "liquid " } else { "" },
                if m["sharp"] == true { "sharp " } else { "" },
                if m["emission_strength"].as_f64().unwrap_or(0.0) > 0.0 {
                    format!("glows {} × {} ", m["emission"], m["emission_strength"])
                } else {
                    String::new()
                },
                m["voxels"]
            )?;
        }
        Ok(())
    }
}

/// A texture PNG's bytes, checked to decode and to be within the caps.
fn read_texture(path: &Path) -> AppResult<Vec<u8>> {
    let bytes = strata_engine::format::input::read_input(path, MAX_TEXTURE_FILE)?;
    strata_engine::voxel::png_size(&bytes).map_err(|e| e.in_file(path))?;
    crate::files::png::decode(&bytes)
        .map_err(|e| AppError::Usage(format!("{}: {e}", path.display())))?;
    Ok(bytes)
}

/// Drop texture references whose images the project does not hold (a palette from another project).
fn strip_missing_textures(table: &mut MaterialTable, project: &Project) {
    for m in &mut table.materials {
        if m.texture
            .is_some_and(|t| project.textures.png(&t).is_none())
        {
            m.texture = None;
        }
    }
}

/// The `materials` array of `strata materials --json` and `strata info --json`.
pub fn materials_json(project: &Project) -> Value {
    let stats = project.grid.stats();
    let list: Vec<Value> = project
        .header
        .materials
        .materials
        .iter()
        .enumerate()
        .map(|(id, m)| {
            let (er, eg, eb, s) = m.emission.map_or((0, 0, 0, 0.0), |e| {
                (e.color.0, e.color.1, e.color.2, e.strength)
            });
            json!({
                "id": id,
                "name": m.name,
                "color": [m.color.0, m.color.1, m.color.2],
                "liquid": m.liquid,
                "sharp": m.shaping == Shaping::Sharp,
                "emission": [er, eg, eb],
                "emission_strength": s,
                "texture": m.texture.map(|t| json!({"width": t.width, "height": t.height})),
                "voxels": if id == 0 { 0 } else { stats.by_material[id] },
            })
        })
        .collect();
    json!({ "materials": list })
}
