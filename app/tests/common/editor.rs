//! Editors for the UI tests, driven through egui_kittest: a flat world with one panel shown, and a
//! saved world opened with Strata's own file browser.

use std::path::{Path, PathBuf};

use egui_kittest::Harness;
use strata::app::{EditorApp, Start};
use strata_engine::format::project::{Project, ProjectHeader};
use strata_engine::gen::{GeneratorSettings, Preset};

/// An editor on a flat 64×40×64 world (seed 1) with only the Tools panel and `panel` open,
/// laid out at `size`; preferences in a fresh scratch folder named after `tag`.
pub fn flat_editor(tag: &str, panel: &str, size: [f32; 2]) -> Harness<'static, EditorApp> {
    let mut app = flat_app(tag);
    app.panels
        .restore_open(&["Tools".to_owned(), panel.to_owned()]);
    harness(app, size)
}

/// An editor app (no harness yet) on a flat 64×40×64 world (seed 1), generated; preferences in a
/// fresh scratch folder named after `tag`.
pub fn flat_app(tag: &str) -> EditorApp {
    let dir = std::env::temp_dir().join(format!("strata-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    flat_app_in(dir)
}

/// [`flat_app`] with its preferences in `dir` as it is (a restart finds what the last run saved).
pub fn flat_app_in(dir: PathBuf) -> EditorApp {
    let settings = GeneratorSettings {
        preset: Preset::Flat,
        size: [64, 40, 64],
        seed: 1,
    };
    let mut app = EditorApp::new(Start::Generate(settings), false, Some(dir));
    app.wait_for_job();
    app
}

/// `settings` generated and saved as `dir/NAME` with the header name `title`.
pub fn saved_world(dir: &Path, name: &str, settings: GeneratorSettings, title: &str) -> PathBuf {
    let table = strata_engine::voxel::MaterialTable::builtin();
    let grid =
        strata_engine::gen::generate(&settings, &table, &strata_engine::progress::Progress::new())
            .expect("generate");
    let file = dir.join(name);
    Project::new(ProjectHeader::new(title, settings.bounds()), grid)
        .save(&file)
        .expect("save");
    file
}

/// An editor on `start` whose file prompts use the in-app browser, starting in `dir`
/// (preferences in `dir/config`), laid out at 1280×800.
pub fn browsing_editor(dir: &Path, start: Start) -> Harness<'static, EditorApp> {
    let mut app = EditorApp::new(start, false, Some(dir.join("config")));
    app.wait_for_job();
    app.prefs.in_app_file_browser = true;
    app.prefs.last_folder = Some(dir.to_path_buf());
    harness(app, [1280.0, 800.0])
}

/// A harness over `app` at `size`, two frames run.
pub fn harness(app: EditorApp, size: [f32; 2]) -> Harness<'static, EditorApp> {
    let mut h = Harness::builder()
        .with_size(size)
        .with_max_steps(1000)
        .build_ui_state(|ui, app: &mut EditorApp| app.run(ui), app);
    h.run_steps(2);
    h
}
