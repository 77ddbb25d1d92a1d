//! The Materials window driven like a user: add a material, name and recolour it, undo; remove a
//! material the terrain uses, choosing who takes its voxels, and undo; the brush's picker lists the
//! new material; and every bad input (a taken or empty name, a 65th material, a bad emission, a
//! corrupt texture, removing Air or the last solid) is refused with a message and changes nothing.

mod common;

use eframe::egui::accesskit::Role;
use eframe::egui::{Key, Modifiers};
use egui_kittest::kittest::Queryable;
use egui_kittest::Harness;

use common::editor::{flat_app, harness};
use strata::app::action::Action;
use strata::app::panel::panel_path;
use strata::app::EditorApp;
use strata::files::file_jobs::PathSpec;
use strata::materials::materials_panel::TAG_TEXTURE;
use strata::materials::{MaterialsPanel, NAME};
use strata_engine::voxel::{MaterialTable, MATERIAL_COUNT};

fn editor(name: &str) -> Harness<'static, EditorApp> {
    let mut h = harness(flat_app(&format!("mat-{name}")), [1280.0, 800.0]);
    h.get_by_label("Edit Materials…").click();
    h.run_steps(2);
    assert!(
        h.state().panels.is_open(NAME),
        "Edit Materials… shows the window"
    );
    h.run_steps(2);
    assert!(
        h.query_by_label("Add Material").is_some(),
        "the Materials window opened"
    );
    h
}

fn table(h: &Harness<'_, EditorApp>) -> MaterialTable {
    h.state().doc.as_ref().expect("doc").materials().clone()
}

fn undo_len(h: &Harness<'_, EditorApp>) -> usize {
    h.state().doc.as_ref().expect("doc").history().undo_len()
}

fn panel<'a>(h: &'a mut Harness<'_, EditorApp>) -> &'a mut MaterialsPanel {
    h.state_mut()
        .panels
        .get_mut::<MaterialsPanel>()
        .expect("the Materials window")
}

fn panel_error(h: &mut Harness<'_, EditorApp>) -> String {
    panel(h).error().unwrap_or_default().to_owned()
}

/// Replace the text of the field labelled `label` with `text` and press Enter.
fn type_into(h: &mut Harness<'_, EditorApp>, label: &str, text: &str) {
    h.get_by_role_and_label(Role::TextInput, label).focus();
    h.run_steps(1);
    h.key_press_modifiers(Modifiers::COMMAND, Key::A);
    h.run_steps(1);
    h.key_press(Key::Backspace);
    h.run_steps(1);
    if !text.is_empty() {
        h.get_by_role_and_label(Role::TextInput, label)
            .type_text(text);
        h.run_steps(1);
    }
    h.key_press(Key::Enter);
    h.run_steps(3);
}

fn select(h: &mut Harness<'_, EditorApp>, name: &str) {
    let id = table(h).require(name).expect("material");
    panel(h).select(id);
    h.run_steps(2);
}

fn voxels_of(h: &Harness<'_, EditorApp>, id: u8) -> u64 {
    let doc = h.state().doc.as_ref().expect("doc");
    doc.grid().stats().by_material[usize::from(id)]
}

#[test]
fn add_rename_recolour_and_undo() {
    let mut h = editor("add");
    let before = table(&h);
    let steps = undo_len(&h);
    h.get_by_label("Add Material").click();
    h.run_steps(3);
    let t = table(&h);
    assert_eq!(t.len(), before.len() + 1);
    assert_eq!(
        t.materials.last().map(|m| m.name.as_str()),
        Some("New material")
    );
    assert_eq!(undo_len(&h), steps + 1, "Add is one undo step");
    type_into(&mut h, "Material name", "Moss");
    let moss = table(&h).require("Moss").expect("renamed");
    assert_eq!(usize::from(moss), before.len());
    type_into(&mut h, "Colour hex", "#3c6e28");
    let t = table(&h);
    assert_eq!(t.materials[usize::from(moss)].color, (60, 110, 40));
    assert_eq!(
        undo_len(&h),
        steps + 3,
        "add, rename, recolour: three steps"
    );
    let doc = h.state().doc.as_ref().expect("doc");
    assert_eq!(doc.history().undo_names().next(), Some("Recolour Moss"));
    h.state_mut().apply(Action::Undo);
    h.run_steps(2);
    assert_eq!(
        table(&h).materials[usize::from(moss)].color,
        (128, 128, 128)
    );
    h.state_mut().apply(Action::Redo);
    h.run_steps(2);
    assert_eq!(table(&h).materials[usize::from(moss)].color, (60, 110, 40));
    // The brush's picker lists the new material (the window closed so its list does not count).
    h.state_mut().apply(Action::TogglePanel(NAME));
    h.run_steps(2);
    assert!(h.query_by_label("Moss").is_none());
    h.get_by_label("Material").click();
    h.run_steps(2);
    h.get_by_label("Moss").click();
    h.run_steps(2);
    assert_eq!(h.state().tools().state.tool.material, moss);
    let water = table(&h).require("Water").expect("water");
    h.get_by_label("Material").click();
    h.run_steps(2);
    assert!(
        h.query_by_label("Water").is_some(),
        "liquids are listed too"
    );
    let _ = water;
}

#[test]
fn removing_a_used_material_asks_who_takes_its_voxels_and_undo_restores_them() {
    let mut h = editor("remove");
    let t = table(&h);
    let ground = (1..t.len() as u8)
        .max_by_key(|&id| voxels_of(&h, id))
        .expect("a material the flat world uses");
    let name = t.materials[usize::from(ground)].name.clone();
    let used = voxels_of(&h, ground);
    assert!(used > 0);
    let grid = h.state().doc.as_ref().expect("doc").grid().clone();
    select(&mut h, &name);
    h.get_by_label("Remove Material…").click();
    h.run_steps(2);
    assert!(panel(&mut h).removing(), "a used material asks first");
    assert!(h.query_by_label(&format!("Remove {name}")).is_some());
    let heir_default = {
        let t = table(&h);
        strata::materials::material_edit::default_heir(&t, ground)
    };
    let heir_name = t.materials[usize::from(heir_default)].name.clone();
    assert_ne!(heir_default, ground);
    h.get_by_label("Remove").click();
    h.run_steps(3);
    let after = table(&h);
    assert_eq!(after.len(), t.len() - 1);
    assert!(after.id_of(&name).is_none());
    let heir = after.require(&heir_name).expect("heir");
    assert!(voxels_of(&h, heir) >= used, "the heir took the voxels");
    let doc = h.state().doc.as_ref().expect("doc");
    assert_eq!(
        doc.history().undo_names().next(),
        Some(format!("Remove {name} into {heir_name}").as_str())
    );
    h.state_mut().apply(Action::Undo);
    h.run_steps(2);
    assert_eq!(table(&h), t);
    assert_eq!(
        *h.state().doc.as_ref().expect("doc").grid(),
        grid,
        "voxels back"
    );
    // Cancel leaves everything as it is.
    select(&mut h, &name);
    h.get_by_label("Remove Material…").click();
    h.run_steps(2);
    h.get_by_label("Cancel").click();
    h.run_steps(2);
    assert!(!panel(&mut h).removing());
    assert_eq!(table(&h), t);
}

#[test]
fn bad_input_is_refused_with_a_message_and_changes_nothing() {
    let mut h = editor("hostile");
    let t = table(&h);
    let steps = undo_len(&h);
    select(&mut h, "Rock");
    // A taken name, in another case.
    type_into(&mut h, "Material name", "grass");
    assert!(
        panel_error(&mut h).contains("already a material"),
        "{}",
        panel_error(&mut h)
    );
    // An empty name.
    type_into(&mut h, "Material name", "");
    assert!(
        panel_error(&mut h).contains("empty"),
        "{}",
        panel_error(&mut h)
    );
    // A colour that is not one.
    type_into(&mut h, "Colour hex", "#12xz00");
    assert!(panel_error(&mut h).contains("not a colour"));
    assert_eq!(table(&h), t);
    assert_eq!(undo_len(&h), steps);
    // Emission: NaN and negative strengths.
    h.get_by_label("Emits light").click();
    h.run_steps(3);
    let on = table(&h);
    let rock = usize::from(on.require("Rock").expect("rock"));
    assert!(on.materials[rock].emission.is_some());
    for bad in ["NaN", "-2", "inf", "1e9"] {
        type_into(&mut h, "Emission strength", bad);
        assert!(
            panel_error(&mut h).contains("0 to 1000"),
            "{bad}: {}",
            panel_error(&mut h)
        );
        assert_eq!(table(&h), on, "{bad}");
    }
    type_into(&mut h, "Emission strength", "3.5");
    let e = table(&h).materials[rock].emission.expect("emission");
    assert_eq!(e.strength, 3.5);
    // Removing Air.
    select(&mut h, "Air");
    h.get_by_label("Remove Material…").click();
    h.run_steps(2);
    assert!(panel_error(&mut h).contains("Air cannot be removed"));
    // A 65th material.
    while table(&h).len() < MATERIAL_COUNT {
        h.get_by_label("Add Material").click();
        h.run_steps(2);
    }
    let full = table(&h);
    let steps = undo_len(&h);
    h.get_by_label("Add Material").click();
    h.run_steps(2);
    assert!(
        panel_error(&mut h).contains("at most 64"),
        "{}",
        panel_error(&mut h)
    );
    assert_eq!(table(&h), full);
    assert_eq!(undo_len(&h), steps);
}

#[test]
fn the_last_solid_and_a_corrupt_texture_are_refused() {
    let mut h = editor("last-solid");
    // Keep Air, Water and one solid: the solid cannot go.
    let mut small = MaterialTable::builtin();
    let water = small.materials[usize::from(small.require("Water").expect("w"))].clone();
    let rock = small.materials[usize::from(small.require("Rock").expect("r"))].clone();
    small.materials = vec![small.materials[0].clone(), rock, water];
    let t = table(&h);
    let change = strata_engine::materials::apply_palette(
        &t,
        &strata_engine::materials::Palette::Table(small.clone()),
    )
    .expect("palette");
    h.state_mut()
        .apply(Action::Materials(strata::materials::MaterialEdit::Table {
            step: "Small palette".into(),
            change,
        }));
    h.run_steps(2);
    assert_eq!(table(&h), small);
    select(&mut h, "Rock");
    let steps = undo_len(&h);
    h.get_by_label("Remove Material…").click();
    h.run_steps(2);
    assert!(
        panel_error(&mut h).contains("at least one solid"),
        "{}",
        panel_error(&mut h)
    );
    assert_eq!(table(&h), small);
    // A PNG header over garbage: refused by the panel when the file is chosen.
    let dir = std::env::temp_dir().join(format!("strata-mat-png-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("dir");
    let bad = dir.join("corrupt.png");
    let mut bytes = b"\x89PNG\r\n\x1a\n\0\0\0\x0dIHDR\0\0\0\x10\0\0\0\x10".to_vec();
    bytes.extend_from_slice(&[0xAB; 64]);
    std::fs::write(&bad, &bytes).expect("write");
    h.state_mut().prefs.in_app_file_browser = true;
    h.get_by_label("Load Texture…").click();
    h.run_steps(2);
    assert!(
        h.state().dialogs.browser.is_some(),
        "the file browser asks for the texture"
    );
    h.state_mut().dialogs.browser = None;
    let purpose = panel_path(NAME, TAG_TEXTURE, PathSpec::default());
    h.state_mut()
        .apply(Action::PathChosen(purpose, bad.clone()));
    h.run_steps(2);
    assert!(
        panel_error(&mut h).contains("corrupt.png"),
        "{}",
        panel_error(&mut h)
    );
    assert_eq!(table(&h), small);
    assert_eq!(undo_len(&h), steps);
    let _ = std::fs::remove_dir_all(&dir);
}
