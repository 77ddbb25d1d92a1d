//! The Materials window: the open project's material table with swatches, and every edit of it
//! (add, rename, recolour, reorder, duplicate, remove; liquid, shaping, enhancement thresholds,
//! look, emission, albedo texture; save and apply palettes). Each change is one undo step through
//! `Document::change_materials` ([`super::material_edit`]).
//!
//! ```text
//!   ┌ Materials ───────────────────────────────────────────┐
//!   │ Add Material  Duplicate Material  Remove Material…   │
//!   │ ■ Air        │ Name [Grass     ]                      │
//!   │ ■ Grass   ◀──│ Colour ■  Colour hex [#5a8c3c]         │
//!   │ ■ Rock       │ Liquid □   Shaping ◉ Smooth ○ Sharp    │
//!   │ ■ Water      │ Look, thresholds, emission, texture    │
//!   │ Save Palette…  Load Palette…                         │
//!   └──────────────────────────────────────────────────────┘
//! ```
//!
//! Removing a material that voxels use opens a prompt asking which material takes them (the
//! nearest colour of the same kind by default). A refused edit (a taken or empty name, a 65th
//! material, a bad value, a corrupt texture) is reported in the window and nothing changes.

use std::path::Path;

use eframe::egui;
use strata_engine::materials::{add, duplicate, move_to, read_palette, remove, set, MaterialPatch};
use strata_engine::voxel::{Material, MaterialTable, AIR};

use super::material_edit::{default_heir, patch_between, step_name, unique_name, MaterialEdit};
use super::material_fields::{self, FieldTexts};
use super::material_files::{read_texture, write_palette};
use super::material_picker::{kind_text, material_picker, swatch};
use crate::app::action::Action;
use crate::app::panel::{panel_path, Panel, Placement, View};
use crate::document::Document;
use crate::files::file_jobs::PathSpec;

/// The window's name.
pub const NAME: &str = "Materials";

/// The tag of the texture prompt ([`crate::app::panel::panel_path`]).
pub const TAG_TEXTURE: u32 = 1;
/// The tag of the Save Palette prompt.
pub const TAG_SAVE_PALETTE: u32 = 2;
/// The tag of the Apply Palette prompt.
pub const TAG_LOAD_PALETTE: u32 = 3;

/// The prompt that asks where a removed material's voxels go.
#[derive(Debug, Clone, PartialEq)]
struct Removing {
    id: u8,
    name: String,
    voxels: u64,
    into: u8,
}

/// The draft of the selected material and the typed texts, taken from the table at a revision.
#[derive(Debug, Clone)]
struct Draft {
    id: u8,
    revision: u64,
    material: Material,
    name: String,
    texts: FieldTexts,
}

/// The Materials window.
#[derive(Default)]
pub struct MaterialsPanel {
    selected: u8,
    draft: Option<Draft>,
    removing: Option<Removing>,
    /// The table a palette is saved from, kept while the file prompt is open.
    saving: Option<MaterialTable>,
    /// The material a texture prompt is for.
    texturing: Option<String>,
    error: Option<String>,
    note: Option<String>,
    /// The window has shown this document (the first showing selects material 1).
    shown: bool,
}

impl MaterialsPanel {
    /// The last refusal the window shows, if any.
    pub fn error(&self) -> Option<&str> {
        self.error.as_deref()
    }

    /// The selected material's id.
    pub fn selected(&self) -> u8 {
        self.selected
    }

    /// Select material `id`.
    pub fn select(&mut self, id: u8) {
        self.selected = id;
        self.draft = None;
    }

    /// True while the prompt for a removed material's voxels is open.
    pub fn removing(&self) -> bool {
        self.removing.is_some()
    }

    /// Send a table change, or report why the engine refused it.
    fn send(
        &mut self,
        step: String,
        change: strata_engine::Result<strata_engine::materials::TableChange>,
        out: &mut Vec<Action>,
    ) {
        match change {
            Ok(change) => {
                self.error = None;
                out.push(Action::Materials(MaterialEdit::Table { step, change }));
            }
            Err(e) => self.error = Some(e.to_string()),
        }
        // Read the row again next frame, whatever happened to the edit.
        self.draft = None;
    }

    fn toolbar(&mut self, ui: &mut egui::Ui, doc: &Document, out: &mut Vec<Action>) {
        let table = doc.materials();
        let name = table
            .get(self.selected)
            .map_or("", |m| m.name.as_str())
            .to_owned();
        ui.horizontal_wrapped(|ui| {
            if ui
                .button("Add Material")
                .on_hover_text("Add a new material (a new id at the end)")
                .clicked()
            {
                let n = unique_name(table, "New material");
                let change = add(table, Material::new(n.clone(), (128, 128, 128)));
                if change.is_ok() {
                    self.selected = u8::try_from(table.len()).unwrap_or(AIR);
                }
                self.send(format!("Add {n}"), change, out);
            }
            if ui
                .button("Duplicate Material")
                .on_hover_text("Copy the selected material as a new one")
                .clicked()
            {
                let n = unique_name(table, &format!("{name} copy"));
                let change = duplicate(table, &name, &n);
                if change.is_ok() {
                    self.selected = u8::try_from(table.len()).unwrap_or(AIR);
                }
                self.send(format!("Duplicate {name}"), change, out);
            }
            if ui
                .button("Remove Material…")
                .on_hover_text("Remove the selected material; its voxels go to another")
                .clicked()
            {
                self.ask_remove(doc, out);
            }
            let last = u8::try_from(table.len().saturating_sub(1)).unwrap_or(AIR);
            for (label, to) in [
                ("Move Up", self.selected.saturating_sub(1)),
                ("Move Down", self.selected.saturating_add(1).min(last)),
            ] {
                if ui
                    .button(label)
                    .on_hover_text("Change the material's id (voxels follow)")
                    .clicked()
                {
                    let change = move_to(table, &name, to);
                    if change.is_ok() {
                        self.selected = to;
                    }
                    self.send(format!("Move {name}"), change, out);
                }
            }
        });
    }

    /// Remove the selected material: at once when no voxel uses it, else through the prompt.
    fn ask_remove(&mut self, doc: &Document, out: &mut Vec<Action>) {
        let table = doc.materials();
        let id = self.selected;
        let name = table.get(id).map_or_else(String::new, |m| m.name.clone());
        let into = default_heir(table, id);
        let into_name = table
            .get(into)
            .map_or("Air", |m| m.name.as_str())
            .to_owned();
        // The engine's refusals (Air, the last solid) come before any prompt.
        let change = remove(table, &name, &into_name);
        let voxels = doc.grid().stats().by_material[usize::from(id) % 64];
        if change.is_err() || voxels == 0 || id == AIR {
            let was = self.selected;
            if change.is_ok() {
                self.selected = was.saturating_sub(1).max(1);
            }
            self.send(format!("Remove {name}"), change, out);
            return;
        }
        self.error = None;
        self.removing = Some(Removing {
            id,
            name,
            voxels,
            into,
        });
    }

    /// The prompt of a removal (modal).
    fn remove_prompt(&mut self, ctx: &egui::Context, doc: &Document, out: &mut Vec<Action>) {
        let Some(r) = self.removing.as_mut() else {
            return;
        };
        let table = doc.materials();
        let mut answer = None;
        egui::Modal::new(egui::Id::unique("remove material")).show(ctx, |ui| {
            ui.heading(format!("Remove {}", r.name));
            ui.label(format!(
                "{} voxels are {}. Which material takes them?",
                r.voxels, r.name
            ));
            let mut others = table.clone();
            // The picker lists every material but the one going away.
            if let Some(m) = others.materials.get_mut(usize::from(r.id)) {
                m.name = format!("{} (removed)", m.name);
            }
            material_picker(
                ui,
                &others,
                Some(&doc.project().textures),
                "Give its voxels to",
                &mut r.into,
            );
            if r.into == r.id {
                ui.colored_label(ui.visuals().warn_fg_color, "Choose another material");
            }
            ui.horizontal(|ui| {
                if ui
                    .add_enabled(r.into != r.id, egui::Button::new("Remove"))
                    .clicked()
                {
                    answer = Some(true);
                }
                if ui.button("Cancel").clicked() {
                    answer = Some(false);
                }
            });
        });
        match (answer, self.removing.take()) {
            (Some(true), Some(r)) => {
                let into = table
                    .get(r.into)
                    .map_or_else(String::new, |m| m.name.clone());
                let change = remove(table, &r.name, &into);
                if change.is_ok() {
                    self.selected = r.id.saturating_sub(1).max(1);
                }
                self.send(format!("Remove {} into {into}", r.name), change, out);
            }
            (None, r) => self.removing = r,
            (Some(_), _) => {}
        }
    }

    fn list(&mut self, ui: &mut egui::Ui, doc: &Document) {
        let table = doc.materials();
        egui::ScrollArea::vertical()
            .id_salt("material list")
            .max_height(360.0)
            .show(ui, |ui| {
                for (i, m) in table.materials.iter().enumerate() {
                    let Ok(id) = u8::try_from(i) else { break };
                    ui.horizontal(|ui| {
                        swatch(ui, m, Some(&doc.project().textures));
                        let label = format!("{id:>2}  {}", m.name);
                        if ui
                            .selectable_label(self.selected == id, label)
                            .on_hover_text(kind_text(m))
                            .clicked()
                        {
                            self.select(id);
                        }
                    });
                }
            });
    }

    /// The selected material's properties.
    fn details(&mut self, ui: &mut egui::Ui, doc: &Document, out: &mut Vec<Action>) {
        let table = doc.materials();
        let revision = doc.materials_revision();
        let id = self.selected;
        let Some(row) = table.get(id).cloned() else {
            return;
        };
        if id == AIR {
            ui.label("Air is empty space: it has no properties to change.");
            return;
        }
        let draft = match self.draft.take() {
            Some(d) if d.id == id && d.revision == revision => d,
            _ => Draft {
                id,
                revision,
                name: row.name.clone(),
                texts: FieldTexts::of(&row),
                material: row.clone(),
            },
        };
        let mut d = draft;
        let mut error = None;
        let renamed = ui
            .horizontal(|ui| {
                let l = ui.label("Material name");
                ui.add(egui::TextEdit::singleline(&mut d.name).desired_width(160.0))
                    .labelled_by(l.id)
                    .lost_focus()
            })
            .inner;
        material_fields::basics(ui, &mut d.material, &mut d.texts, &mut error);
        ui.collapsing("Look", |ui| {
            material_fields::look(ui, &mut d.material, table.look(id))
        });
        ui.collapsing("Enhancement", |ui| {
            material_fields::thresholds(ui, &mut d.material)
        });
        material_fields::emission(ui, &mut d.material, &mut d.texts, &mut error);
        if self.texture_row(ui, &row, out) {
            d.material.texture = None;
        }
        if error.is_some() {
            self.error = error;
        }
        let settled = !ui.input(|i| i.pointer.any_down());
        if renamed && d.name != row.name {
            let patch = MaterialPatch {
                name: Some(d.name.trim().to_owned()),
                ..MaterialPatch::default()
            };
            let step = format!("Rename {} to {}", row.name, d.name.trim());
            self.send(step, set(table, &row.name, &patch), out);
            return;
        }
        let patch = patch_between(&row, &d.material);
        if settled && patch != MaterialPatch::default() {
            let step = step_name(&row.name, &patch);
            self.send(step, set(table, &row.name, &patch), out);
            return;
        }
        self.draft = Some(d);
    }

    /// The texture's size and buttons; true when No Texture was clicked.
    fn texture_row(&mut self, ui: &mut egui::Ui, row: &Material, out: &mut Vec<Action>) -> bool {
        let mut clear = false;
        ui.horizontal(|ui| {
            ui.label("Texture");
            match row.texture {
                Some(t) => ui.label(format!("{}×{}", t.width, t.height)),
                None => ui.weak("none"),
            };
            if ui
                .button("Load Texture…")
                .on_hover_text(
                    "An albedo PNG tiled over the surface (at most 2048 pixels a side, 4 MiB)",
                )
                .clicked()
            {
                self.texturing = Some(row.name.clone());
                let spec = PathSpec {
                    title: format!("Texture for {}", row.name),
                    filters: vec![("PNG image".into(), vec!["png".into()])],
                    ..Default::default()
                };
                out.push(Action::AskPath(panel_path(NAME, TAG_TEXTURE, spec)));
            }
            if ui
                .add_enabled(row.texture.is_some(), egui::Button::new("No Texture"))
                .on_hover_text("Show the colour again")
                .clicked()
            {
                clear = true;
            }
        });
        clear
    }

    fn palettes(&mut self, ui: &mut egui::Ui, doc: &Document, out: &mut Vec<Action>) {
        ui.horizontal_wrapped(|ui| {
            if ui
                .button("Save Palette…")
                .on_hover_text(
                    "Write this project's materials as a .ron palette (without textures)",
                )
                .clicked()
            {
                self.saving = Some(doc.materials().clone());
                let spec = PathSpec {
                    title: "Save Palette".into(),
                    filters: vec![("Strata palette".into(), vec!["ron".into()])],
                    save: true,
                    suggested: Some("palette.ron".into()),
                    ..Default::default()
                };
                out.push(Action::AskPath(panel_path(NAME, TAG_SAVE_PALETTE, spec)));
            }
            if ui
                .button("Apply Palette…")
                .on_hover_text(
                    "Map this project onto a palette: a .ron table (by name, then colour), a \
                     MagicaVoxel .vox (colours) or a list of `Name R G B` lines",
                )
                .clicked()
            {
                let spec = PathSpec {
                    title: "Apply Palette".into(),
                    filters: vec![
                        (
                            "Palette".into(),
                            vec!["ron".into(), "vox".into(), "txt".into()],
                        ),
                        ("Any file".into(), vec!["*".into()]),
                    ],
                    ..Default::default()
                };
                out.push(Action::AskPath(panel_path(NAME, TAG_LOAD_PALETTE, spec)));
            }
        });
    }
}

impl Panel for MaterialsPanel {
    fn name(&self) -> &'static str {
        NAME
    }

    fn placement(&self) -> Placement {
        Placement::Window
    }

    fn ui(&mut self, ui: &mut egui::Ui, view: &View<'_>, out: &mut Vec<Action>) {
        let Some(doc) = view.doc else {
            ui.label("No world open.");
            return;
        };
        ui.set_min_width(540.0);
        let len = doc.materials().len();
        if !self.shown && len > 1 {
            // Air has nothing to edit: start on the first material.
            self.shown = true;
            self.select(1);
        }
        if usize::from(self.selected) >= len {
            self.select(u8::try_from(len - 1).unwrap_or(AIR));
        }
        ui.add_enabled_ui(!view.busy, |ui| {
            self.toolbar(ui, doc, out);
            ui.separator();
            ui.columns(2, |cols| {
                self.list(&mut cols[0], doc);
                self.details(&mut cols[1], doc, out);
            });
            ui.separator();
            self.palettes(ui, doc, out);
        });
        if let Some(e) = &self.error {
            ui.colored_label(ui.visuals().error_fg_color, e);
        } else if let Some(n) = &self.note {
            ui.weak(n);
        }
        self.remove_prompt(ui.ctx(), doc, out);
    }

    fn on_document(&mut self, _doc: Option<&Document>) {
        *self = Self::default();
    }

    fn on_path(&mut self, tag: u32, path: &Path, out: &mut Vec<Action>) {
        let file = path
            .file_name()
            .map_or_else(String::new, |n| n.to_string_lossy().into_owned());
        match tag {
            TAG_TEXTURE => {
                let Some(material) = self.texturing.take() else {
                    return;
                };
                match read_texture(path) {
                    Ok(png) => {
                        self.error = None;
                        out.push(Action::Materials(MaterialEdit::Texture { material, png }));
                    }
                    Err(e) => self.error = Some(e.to_string()),
                }
            }
            TAG_SAVE_PALETTE => {
                let Some(table) = self.saving.take() else {
                    return;
                };
                let mut path = path.to_path_buf();
                if path.extension().is_none() {
                    path.set_extension("ron");
                }
                match write_palette(&table, &path) {
                    Ok(()) => {
                        self.error = None;
                        self.note = Some(format!("Saved {} materials to {file}", table.len()));
                    }
                    Err(e) => self.error = Some(e.to_string()),
                }
            }
            TAG_LOAD_PALETTE => match read_palette(path) {
                Ok(palette) => {
                    self.error = None;
                    out.push(Action::Materials(MaterialEdit::Palette { file, palette }));
                }
                Err(e) => self.error = Some(e.to_string()),
            },
            _ => {}
        }
    }
}
