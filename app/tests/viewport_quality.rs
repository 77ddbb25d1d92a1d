//! The Viewport quality preference: automatic by default (the fast path on a software renderer, the
//! full one on a GPU), chosen in the Preferences and remembered, and shown in the status bar while
//! the fast path draws. Old preference files load as automatic.

mod common;

use eframe::egui;
use egui_kittest::kittest::Queryable;
use egui_kittest::Harness;

use strata::app::action::Action;
use strata::app::prefs::Prefs;
use strata::app::viewport_quality::ViewportQuality;
use strata::app::EditorApp;

const SIZE: [f32; 2] = [1280.0, 900.0];
const LLVMPIPE: &str = "llvmpipe (LLVM 15.0.7, 256 bits)";

fn temp(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("strata-quality-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

fn editor(dir: &std::path::Path) -> Harness<'static, EditorApp> {
    common::editor::harness(common::editor::flat_app_in(dir.to_path_buf()), SIZE)
}

/// Open the Preferences window and let it lay out.
fn show_preferences(h: &mut Harness<'static, EditorApp>) {
    h.state_mut()
        .apply(Action::ShowPanel(strata::app::preferences::NAME));
    h.run_steps(4);
}

#[test]
fn llvmpipe_draws_fast_until_the_user_chooses_full() {
    let dir = temp("choose");
    let mut h = editor(&dir);
    assert!(!h.state().viewport.fast(), "no renderer known yet: full");
    assert!(h.query_by_label("Fast viewport").is_none());
    h.state_mut().renderer_found(LLVMPIPE.into(), false);
    h.run_steps(2);
    assert!(h.state().viewport.fast(), "llvmpipe draws the fast path");
    h.get_by_label("Fast viewport");

    show_preferences(&mut h);
    h.get_by_label("Viewport quality");
    h.get_by_label_contains("Fast: a software renderer");
    h.get_by_label("Full").click();
    h.run_steps(2);
    h.get_by_label("Apply").click();
    h.run_steps(2);
    assert_eq!(h.state().prefs.viewport_quality, ViewportQuality::Full);
    assert!(!h.state().viewport.fast(), "Full draws the full path");
    assert!(h.query_by_label("Fast viewport").is_none());
    assert_eq!(
        Prefs::load(Some(&dir)).viewport_quality,
        ViewportQuality::Full,
        "remembered"
    );

    // The next start keeps the choice on the same renderer.
    drop(h);
    let mut h = editor(&dir);
    h.state_mut().renderer_found(LLVMPIPE.into(), false);
    h.run_steps(2);
    assert!(!h.state().viewport.fast());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_gpu_draws_full_unless_fast_is_chosen() {
    let dir = temp("gpu");
    let mut h = editor(&dir);
    h.state_mut()
        .renderer_found("NVIDIA GeForce RTX 3060/PCIe/SSE2".into(), true);
    h.run_steps(2);
    assert!(!h.state().viewport.fast());
    show_preferences(&mut h);
    h.get_by_label_contains("Full: a hardware renderer");
    h.get_by_label("Fast").click();
    h.run_steps(2);
    h.get_by_label("Apply").click();
    h.run_steps(2);
    assert!(h.state().viewport.fast(), "Fast is kept on a GPU too");
    h.get_by_label("Fast viewport");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn old_preference_files_load_as_automatic() {
    assert_eq!(
        Prefs::default().viewport_quality,
        ViewportQuality::Automatic
    );
    let dir = temp("old");
    std::fs::create_dir_all(&dir).expect("temp dir");
    std::fs::write(dir.join("prefs.ron"), "(autosave_minutes: 7)").expect("writes");
    let p = Prefs::load(Some(&dir));
    assert_eq!(p.autosave_minutes, 7);
    assert_eq!(p.viewport_quality, ViewportQuality::Automatic);
    let fast = Prefs {
        viewport_quality: ViewportQuality::Fast,
        ..Prefs::default()
    };
    fast.save(&dir).expect("saves");
    assert_eq!(
        Prefs::load(Some(&dir)).viewport_quality,
        ViewportQuality::Fast
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_command_line_takes_only_the_three_qualities() {
    for command in ["frames", "open"] {
        for bad in ["quick", "", "FULL "] {
            let out = std::process::Command::new(env!("CARGO_BIN_EXE_strata"))
                .args([command, "missing.strata", "--viewport-quality", bad])
                .output()
                .expect("runs strata");
            assert_eq!(out.status.code(), Some(2), "{command} {bad:?}");
            let err = String::from_utf8_lossy(&out.stderr);
            assert!(
                err.contains("auto, full, fast"),
                "{command} {bad:?} names the choices: {err}"
            );
        }
    }
    for q in ["auto", "full", "fast"] {
        assert!(ViewportQuality::parse(q).is_some(), "{q}");
    }
}

/// The status bar keeps its right side (the fast-path note and the frame time) clear of a long
/// message, which is cut short to the room left of it rather than drawn over them.
#[test]
fn a_long_message_stops_short_of_the_fast_path_note() {
    let dir = temp("status");
    let mut h = editor(&dir);
    h.state_mut().renderer_found(LLVMPIPE.into(), true);
    // A narrow window: the message alone is wider than the status bar's room.
    h.set_size(egui::vec2(760.0, 600.0));
    h.run_steps(3);
    let message = h.get_by_label_contains("Software renderer").rect();
    let note = h.get_by_label("Fast viewport").rect();
    assert!(
        message.max.x <= note.min.x,
        "the message ({message:?}) runs into the note ({note:?})"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// Choosing a viewport quality changes its note but moves none of the Preferences rows below it.
#[test]
fn choosing_a_quality_moves_no_row_below_it() {
    let dir = temp("rows");
    let mut h = editor(&dir);
    h.state_mut().renderer_found(LLVMPIPE.into(), false);
    show_preferences(&mut h);
    let mut tops = Vec::new();
    for choice in ["Full", "Fast", "Automatic"] {
        h.get_by_label(choice).click();
        h.run_steps(3);
        tops.push((choice, h.get_by_label("LOD distance").rect().min.y));
    }
    assert!(
        tops.iter().all(|&(_, y)| y == tops[0].1),
        "the LOD distance row moves: {tops:?}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
