//! The Scripts panel driven by its labels: a script typed into "Script file" runs with Run, its
//! console shows what it printed, and the run is one undo step; an error names the line; Cancel on
//! an endless script leaves the project exactly as it was.

use std::time::{Duration, Instant};

use eframe::egui::accesskit::Role;
use eframe::egui::{Key, Modifiers};
use egui_kittest::kittest::Queryable;
use egui_kittest::Harness;

use strata::app::{EditorApp, Start};
use strata::scripts::scripts_panel::{ScriptsPanel, NAME};
use strata_engine::gen::{GeneratorSettings, Preset};
use strata_engine::voxel::VoxelPos;

fn editor(name: &str) -> (Harness<'static, EditorApp>, std::path::PathBuf) {
    let dir = std::env::temp_dir().join(format!("strata-scripts-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("dir");
    let settings = GeneratorSettings {
        preset: Preset::Flat,
        size: [64, 40, 64],
        seed: 1,
    };
    let mut app = EditorApp::new(Start::Generate(settings), false, Some(dir.join("config")));
    app.wait_for_job();
    app.panels
        .restore_open(&["Tools".to_owned(), NAME.to_owned()]);
    let mut h = Harness::builder()
        .with_size([1280.0, 800.0])
        .with_max_steps(1000)
        .build_ui_state(|ui, app: &mut EditorApp| app.run(ui), app);
    h.run_steps(2);
    (h, dir)
}

fn panel<'a>(h: &'a mut Harness<'_, EditorApp>) -> &'a mut ScriptsPanel {
    h.state_mut()
        .panels
        .get_mut::<ScriptsPanel>()
        .expect("the Scripts panel")
}

/// Replace the text of the field labelled `label` with `text`, as a user types it.
fn type_into(h: &mut Harness<'_, EditorApp>, role: Role, label: &str, text: &str) {
    h.get_by_role_and_label(role, label).focus();
    h.run_steps(1);
    h.key_press_modifiers(Modifiers::COMMAND, Key::A);
    h.run_steps(1);
    h.key_press(Key::Backspace);
    h.run_steps(1);
    h.get_by_role_and_label(role, label).type_text(text);
    h.run_steps(1);
}

/// Type `path` into "Script file" and press Run.
fn run_script(h: &mut Harness<'_, EditorApp>, path: &std::path::Path) {
    type_into(
        h,
        Role::TextInput,
        "Script file",
        &path.display().to_string(),
    );
    assert_eq!(
        panel(h).path,
        path.display().to_string(),
        "typed into the field"
    );
    h.get_by_label("Run").click();
    h.run_steps(2);
}

fn wait_done(h: &mut Harness<'_, EditorApp>) {
    let start = Instant::now();
    while panel(h).is_running() {
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "the script never finished"
        );
        std::thread::sleep(Duration::from_millis(20));
        h.run_steps(1);
    }
    h.run_steps(2);
}

#[test]
fn run_prints_and_makes_one_undo_step() {
    let (mut h, dir) = editor("run");
    let script = dir.join("ball.luau");
    std::fs::write(
        &script,
        "print('filling', strata.args.what)\n\
         workspace.Terrain:FillBall(Vector3.new(128, 100, 128), 12, Enum.Material.Rock)\n\
         game:GetService('ChangeHistoryService'):SetWaypoint('Rock ball')",
    )
    .expect("write");
    type_into(
        &mut h,
        Role::MultilineTextInput,
        "Arguments (KEY=VALUE per line)",
        "what=rock",
    );
    let undo_before = h.state().doc.as_ref().expect("doc").history().undo_len();
    run_script(&mut h, &script);
    wait_done(&mut h);
    assert_eq!(panel(&mut h).console(), vec!["filling rock"]);
    let _ = h.get_by_label("filling rock");
    let doc = h.state().doc.as_ref().expect("doc");
    assert_eq!(doc.history().undo_len(), undo_before + 1, "one undo step");
    assert_eq!(doc.history().undo_names().last(), Some("Rock ball"));
    assert!(
        !doc.grid().get(VoxelPos::new(32, 25, 32)).is_air(),
        "the ball is there"
    );

    std::fs::write(&script, "print('a')\nlocal x = nil\nx.y = 1").expect("write");
    run_script(&mut h, &script);
    wait_done(&mut h);
    let (error, text) = panel(&mut h).status().cloned().expect("status");
    assert!(error && text.contains("ball.luau:3"), "{text}");
}

#[test]
fn cancel_restores_the_project_exactly() {
    let (mut h, dir) = editor("cancel");
    let script = dir.join("forever.luau");
    std::fs::write(
        &script,
        "workspace.Terrain:FillBall(Vector3.new(128, 100, 128), 12, Enum.Material.Rock)\nwhile true do end",
    )
    .expect("write");
    let before = h.state().doc.as_ref().expect("doc").grid().clone();
    let undo_before = h.state().doc.as_ref().expect("doc").history().undo_len();
    run_script(&mut h, &script);
    assert!(panel(&mut h).is_running());
    std::thread::sleep(Duration::from_millis(200));
    h.run_steps(1);
    h.get_by_label("Cancel").click();
    h.run_steps(1);
    wait_done(&mut h);
    let (_, text) = panel(&mut h).status().cloned().expect("status");
    assert!(text.contains("Cancelled"), "{text}");
    let doc = h.state().doc.as_ref().expect("doc");
    assert!(doc.grid() == &before, "voxels exactly as before");
    assert_eq!(doc.history().undo_len(), undo_before);
}
