//! File prompts driven like a user, through Strata's own file browser: exports suggest the
//! project's file name, New Folder makes a folder to export into, an export folder typed before it
//! exists is created (never the folder above it written into), and Import Heightmap shows a
//! preview and the bit depth before importing.

mod common;

use std::path::{Path, PathBuf};

use eframe::egui::accesskit::Role;
use egui_kittest::kittest::{By, Queryable};
use egui_kittest::Harness;

use strata::app::{EditorApp, Start};
use strata_engine::gen::{GeneratorSettings, Preset};

fn temp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("strata-files-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).expect("temp dir");
    d
}

/// A small world saved as `dir/NAME`.
fn saved_world(dir: &Path, name: &str) -> PathBuf {
    let settings = GeneratorSettings {
        preset: Preset::Hills,
        size: [32, 32, 32],
        seed: 4,
    };
    common::editor::saved_world(dir, name, settings, "biome mix")
}

/// An editor on `start` whose file prompts use the in-app browser, starting in `dir`.
fn editor(dir: &Path, start: Start) -> Harness<'static, EditorApp> {
    common::editor::browsing_editor(dir, start)
}

/// The text field holding `text`.
fn field(text: &str) -> By<'_> {
    By::new().value(text).role(Role::TextInput)
}

fn menu(h: &mut Harness<'_, EditorApp>, menu: &str, item: &str) {
    h.get_by_label(menu).click();
    h.run_steps(2);
    h.get_by_label_contains(item).click();
    h.run_steps(3);
}

#[test]
fn exports_suggest_the_project_file_name() {
    let dir = temp("names");
    let file = saved_world(&dir, "canyon town.strata");
    let mut h = editor(&dir, Start::Open(file));
    menu(&mut h, "File", "Export Mesh");
    h.get(field("canyon town.glb"));
    assert!(h.query_all_by_value("biome mix.glb").next().is_none());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn new_folder_then_export_regions_into_it() {
    let dir = temp("newfolder");
    let file = saved_world(&dir, "w.strata");
    let mut h = editor(&dir, Start::Open(file));
    menu(&mut h, "File", "Export godot_voxel Regions");
    h.get_by_label("New Folder").click();
    h.run_steps(2);
    h.get_by_label("Folder name")
        .set_text_value_accesskit("regions");
    h.run_steps(2);
    h.get_by_label("Create").click();
    h.run_steps(2);
    let made = dir.join("regions");
    assert!(made.is_dir(), "New Folder made {}", made.display());
    h.get_by_label("Choose This Folder").click();
    h.run_steps(2);
    h.state_mut().wait_for_job();
    h.run_steps(2);
    let written = std::fs::read_dir(&made).expect("regions").count();
    assert!(written > 0, "the regions went into the new folder");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn an_export_folder_typed_before_it_exists_is_created() {
    let dir = temp("typed");
    let file = saved_world(&dir, "w.strata");
    let mut h = editor(&dir, Start::Open(file));
    let before: Vec<_> = std::fs::read_dir(&dir).expect("dir").collect();
    menu(&mut h, "File", "Export godot_voxel Regions");
    // A folder whose parent is missing too is refused, never answered with the folder shown.
    let deep = dir.join("out").join("level");
    h.get(field(&dir.display().to_string()))
        .set_text_value_accesskit(&deep.display().to_string());
    h.run_steps(2);
    h.get_by_label_contains("does not exist");
    // One level deep: it will be created.
    let target = dir.join("level");
    h.get(field(&deep.display().to_string()))
        .set_text_value_accesskit(&target.display().to_string());
    h.run_steps(2);
    h.get_by_label_contains("will be created");
    h.get_by_label("Choose This Folder").click();
    h.run_steps(2);
    h.state_mut().wait_for_job();
    h.run_steps(2);
    assert!(target.is_dir(), "the export made {}", target.display());
    assert!(std::fs::read_dir(&target).expect("target").count() > 0);
    let after: Vec<_> = std::fs::read_dir(&dir).expect("dir").collect();
    assert_eq!(
        after.len(),
        before.len() + 1,
        "nothing else written beside it"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn import_heightmap_shows_a_preview_and_the_bit_depth() {
    let dir = temp("heightmap");
    let (w, d) = (96u32, 64u32);
    let map = image::ImageBuffer::<image::Luma<u16>, Vec<u16>>::from_fn(w, d, |x, y| {
        image::Luma([(x * 600 + y * 40) as u16])
    });
    map.save(dir.join("deep.png")).expect("16-bit png");
    let settings = GeneratorSettings {
        preset: Preset::Flat,
        size: [32, 32, 32],
        seed: 1,
    };
    let mut h = editor(&dir, Start::Generate(settings));
    menu(&mut h, "File", "Import Heightmap…");
    assert!(h.query_by_label("Heightmap preview").is_none());
    h.get_all_by_label("Choose…")
        .next()
        .expect("a Choose button")
        .click();
    h.run_steps(3);
    h.get_by_label("deep.png").click();
    h.run_steps(2);
    h.get_by_label("Open").click();
    h.run_steps(3);
    h.get_by_label("The image is 96 × 64 pixels.");
    h.get_by_label("16-bit grayscale (65,536 height levels)");
    let preview = h.get_by_label("Heightmap preview").rect();
    assert!(
        (preview.width() - 160.0).abs() < 1.0
            && (preview.height() - 160.0 * 64.0 / 96.0).abs() < 1.0,
        "the preview keeps the map's shape: {preview:?}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn export_scene_writes_tiles_with_the_options_chosen_in_its_window() {
    let dir = temp("scene");
    let file = saved_world(&dir, "tiles.strata");
    let mut h = editor(&dir, Start::Open(file));
    menu(&mut h, "File", "Export Scene (glTF)");
    h.get_by_label("Tile size").set_value_accesskit(16.0);
    h.get_by_label("Levels of detail").set_value_accesskit(2.0);
    h.get_by_label("Collision mesh (tile_X_Z-col)").click();
    h.run_steps(2);
    h.get_by_label("Export…").click();
    h.run_steps(3);
    h.get(field("tiles.glb"));
    h.get_by_label("Save").click();
    h.run_steps(3);
    h.state_mut().wait_for_job();
    h.run_steps(3);
    let bytes = std::fs::read(dir.join("tiles.glb")).expect("the scene was written");
    assert_eq!(&bytes[..4], b"glTF");
    let json_len = u32::from_le_bytes([bytes[12], bytes[13], bytes[14], bytes[15]]) as usize;
    let text = String::from_utf8_lossy(&bytes[20..20 + json_len]);
    assert!(
        text.contains("\"tile_1_1\""),
        "16-voxel tiles of a 32-voxel world"
    );
    assert!(
        text.contains("tile_0_0_LOD1") && !text.contains("_LOD2"),
        "two levels"
    );
    assert!(!text.contains("-col"), "collision switched off");
    assert!(
        h.query_by_label("Tile size").is_none(),
        "the window closes once the export starts"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
