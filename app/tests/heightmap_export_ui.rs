//! File ▸ Export Heightmap driven like a user: the window waits for a file, the file prompt suggests
//! the project's name, the Unreal size preset and the weight-layer option reach the files written by
//! the background job, and the status bar says what was written.

mod common;

use std::path::{Path, PathBuf};

use eframe::egui::accesskit::Role;
use egui_kittest::kittest::{By, Queryable};
use egui_kittest::Harness;

use strata::app::{EditorApp, Start};
use strata_engine::gen::{GeneratorSettings, Preset};

fn temp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("strata-hmui-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).expect("temp dir");
    d
}

/// A small world saved as `dir/NAME`.
fn saved_world(dir: &Path, name: &str) -> PathBuf {
    let settings = GeneratorSettings {
        preset: Preset::Mountains,
        size: [64, 64, 48],
        seed: 5,
    };
    common::editor::saved_world(dir, name, settings, "peaks")
}

/// An editor on `start` whose file prompts use the in-app browser, starting in `dir`.
fn editor(dir: &Path, start: Start) -> Harness<'static, EditorApp> {
    common::editor::browsing_editor(dir, start)
}

#[test]
fn export_heightmap_window_writes_the_maps_it_shows() {
    let dir = temp("window");
    let file = saved_world(&dir, "peaks.strata");
    let mut h = editor(&dir, Start::Open(file));
    h.get_by_label("File").click();
    h.run_steps(2);
    h.get_by_label("Export Heightmap…").click();
    h.run_steps(3);
    h.get_by_label("Choose a file for the heightmap.");
    // Export waits for a file: clicking it writes nothing and keeps the window.
    let before = std::fs::read_dir(&dir).expect("dir").count();
    h.get_by_label("Export").click();
    h.run_steps(2);
    h.state_mut().wait_for_job();
    h.get_by_label("Choose a file for the heightmap.");
    assert_eq!(std::fs::read_dir(&dir).expect("dir").count(), before);
    h.get_by_label("Choose…").click();
    h.run_steps(3);
    h.get(By::new().value("peaks.png").role(Role::TextInput));
    h.get_by_label("Save").click();
    h.run_steps(3);
    h.get_by_label("peaks.png");
    h.get_by_label("Map size").click();
    h.run_steps(2);
    h.get_by_label("Unreal 1009 × 1009").click();
    h.run_steps(2);
    h.get_by_label("One 8-bit PNG per material (Unreal layers)")
        .click();
    h.run_steps(2);
    h.get_by_label("Writes peaks.png, peaks.json (sidecar), peaks_splat.png, peaks_layers/");
    h.get_by_label("Export").click();
    h.run_steps(2);
    h.state_mut().wait_for_job();
    h.run_steps(3);
    let map = image::open(dir.join("peaks.png")).expect("heightmap");
    assert_eq!(map.color(), image::ColorType::L16);
    assert_eq!((map.width(), map.height()), (1009, 1009));
    let sidecar: serde_json::Value =
        serde_json::from_slice(&std::fs::read(dir.join("peaks.json")).expect("sidecar"))
            .expect("json");
    assert_eq!(sidecar["width"], 1009);
    assert_eq!(sidecar["splat"]["file"], "peaks_splat.png");
    assert!(dir.join("peaks_splat.png").is_file());
    let layers = std::fs::read_dir(dir.join("peaks_layers"))
        .expect("layers folder")
        .count();
    assert_eq!(
        layers,
        sidecar["surface_materials"]
            .as_array()
            .expect("materials")
            .len()
    );
    assert!(
        h.state()
            .message
            .contains("Exported a 1009 × 1009 heightmap"),
        "{}",
        h.state().message
    );
    let _ = std::fs::remove_dir_all(&dir);
}
