//! Shortcuts in the Help list and the Preferences: the digit tools are named after their tools, a
//! rebinding that takes another command's keys warns and offers to swap, and anti-aliasing is off
//! on a software renderer unless the user turns it on (and says so).

use eframe::egui::{Key, Pos2};
use egui_kittest::kittest::{NodeT, Queryable};
use egui_kittest::Harness;

use strata::app::action::Action;
use strata::app::keymap::Command;
use strata::app::prefs::Prefs;
use strata::app::{EditorApp, Start};
use strata_engine::gen::{GeneratorSettings, Preset};
use strata_engine::tools::ToolKind;

const SIZE: [f32; 2] = [1280.0, 900.0];

fn editor(name: &str, prefs: Option<Prefs>) -> Harness<'static, EditorApp> {
    let dir = std::env::temp_dir().join(format!("strata-keys-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    if let Some(p) = prefs {
        p.save(&dir).expect("writes the preferences");
    }
    let settings = GeneratorSettings {
        preset: Preset::Flat,
        size: [64, 32, 64],
        seed: 1,
    };
    let mut app = EditorApp::new(Start::Generate(settings), false, Some(dir));
    app.wait_for_job();
    let mut h = Harness::builder()
        .with_size(SIZE)
        .with_max_steps(1000)
        .build_ui_state(|ui, app: &mut EditorApp| app.run(ui), app);
    h.run_steps(2);
    h
}

fn show(h: &mut Harness<'_, EditorApp>, window: &'static str) {
    h.state_mut().apply(Action::ShowPanel(window));
    // A new window takes a sizing frame before its widgets appear.
    h.run_steps(4);
}

#[test]
fn the_shortcut_list_names_the_digit_tools() {
    let mut h = editor("names", None);
    show(&mut h, strata::app::shortcuts::NAME);
    for name in [
        "Grow tool",
        "Erode tool",
        "Smooth tool",
        "Flatten tool",
        "Sea Level tool",
    ] {
        assert!(h.query_by_label(name).is_some(), "{name} is listed");
    }
    assert!(
        h.query_by_label_contains("Brush tool").is_none(),
        "a digit tool is listed by number"
    );
}

/// The "Change" button on the row labelled `label` in the Preferences' key bindings.
fn change_button(h: &Harness<'_, EditorApp>, label: &str) -> Pos2 {
    let row = h.get_all_by_label(label).next().expect("the row").rect();
    h.get_all_by_label("Change")
        .map(|n| n.rect())
        .min_by(|a, b| {
            let d = |r: eframe::egui::Rect| (r.center().y - row.center().y).abs();
            d(*a).total_cmp(&d(*b))
        })
        .expect("a Change button")
        .center()
}

#[test]
fn a_conflicting_rebinding_warns_and_swaps() {
    let mut h = editor("swap", None);
    show(&mut h, strata::app::preferences::NAME);
    let at = change_button(&h, "Subtract tool");
    h.hover_at(at);
    h.run_steps(1);
    h.drag_at(at);
    h.drop_at(at);
    h.run_steps(2);
    assert!(h.query_by_label("Press keys…").is_some(), "recording");
    h.key_press(Key::G);
    h.run_steps(2);
    h.get_by_label_contains("G is already used by Paint tool");
    assert_eq!(
        h.state().tools().state.tool.kind,
        ToolKind::Add,
        "the recorded key is not also a shortcut"
    );
    // Cancel keeps both as they were.
    h.get_by_label("Cancel").click();
    h.run_steps(2);
    assert!(h.query_by_label_contains("already used").is_none());
    let at = change_button(&h, "Subtract tool");
    h.hover_at(at);
    h.run_steps(1);
    h.drag_at(at);
    h.drop_at(at);
    h.run_steps(2);
    h.key_press(Key::G);
    h.run_steps(2);
    h.get_by_label("Swap").click();
    h.run_steps(2);
    h.get_by_label("Apply").click();
    h.run_steps(2);
    let keymap = &h.state().keymap;
    assert_eq!(keymap.text_of(Command::SubtractTool).as_deref(), Some("G"));
    assert_eq!(keymap.text_of(Command::PaintTool).as_deref(), Some("R"));
    h.state_mut()
        .apply(Action::TogglePanel(strata::app::preferences::NAME));
    h.run_steps(2);
    h.key_press(Key::G);
    h.run_steps(2);
    assert_eq!(h.state().tools().state.tool.kind, ToolKind::Subtract);
    h.key_press(Key::R);
    h.run_steps(2);
    assert_eq!(h.state().tools().state.tool.kind, ToolKind::Paint);
}

#[test]
fn a_software_renderer_turns_antialiasing_off_unless_chosen() {
    let llvmpipe = Prefs {
        gl_renderer: Some("llvmpipe (LLVM 15.0.7, 256 bits)".into()),
        ..Prefs::default()
    };
    let mut h = editor("aa", Some(llvmpipe));
    show(&mut h, strata::app::preferences::NAME);
    h.get_by_label_contains("Software renderer: off for speed");
    let checkbox = h.get_by_label("Smooth edges (4× MSAA)");
    assert_eq!(
        checkbox.accesskit_node().toggled(),
        Some(eframe::egui::accesskit::Toggled::False),
        "shown off"
    );
    checkbox.click();
    h.run_steps(2);
    h.get_by_label("Apply").click();
    h.run_steps(2);
    let prefs = &h.state().prefs;
    assert!(
        prefs.antialiasing && prefs.antialiasing_chosen,
        "the choice is kept"
    );
    assert!(h
        .query_by_label_contains("Software renderer: off")
        .is_none());
    // The window opening on llvmpipe says why anti-aliasing is off.
    let mut h = editor("aa-note", None);
    h.state_mut()
        .renderer_found("llvmpipe (LLVM 15.0.7, 256 bits)".into(), false);
    h.run_steps(2);
    h.get_by_label_contains("Software renderer (llvmpipe): anti-aliasing off");
    assert!(
        h.state().prefs.gl_renderer.is_some(),
        "remembered for the next start"
    );
}
