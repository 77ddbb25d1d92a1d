//! The editor's layout and camera driven like a user: the viewport keeps its place whatever tool
//! or tab is chosen, History follows the current step, the first view and Reset Camera frame the
//! whole world, F frames the selection, and a right-drag turns the view by the preference's
//! degrees per pixel however the drag is split into frames.

use eframe::egui::{self, Modifiers, PointerButton, Pos2};
use egui_kittest::kittest::Queryable;
use egui_kittest::Harness;

use strata::app::action::{Action, BoxEdit};
use strata::app::{EditorApp, Start};
use strata::viewport::camera::EditorCamera;
use strata_engine::gen::{GeneratorSettings, Preset};
use strata_engine::storage::Grid;
use strata_engine::tools::ToolKind;
use strata_engine::voxel::{Voxel, VoxelBox, VoxelPos};

const SIZE: [f32; 2] = [1280.0, 800.0];

fn editor_sized(name: &str, size: [u32; 3]) -> Harness<'static, EditorApp> {
    let dir = std::env::temp_dir().join(format!("strata-layout-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let settings = GeneratorSettings {
        preset: Preset::Flat,
        size,
        seed: 1,
    };
    let mut app = EditorApp::new(Start::Generate(settings), false, Some(dir));
    app.wait_for_job();
    let mut h = Harness::builder()
        .with_size(SIZE)
        .with_max_steps(1000)
        .build_ui_state(|ui, app: &mut EditorApp| app.run(ui), app);
    h.run_steps(3);
    h
}

fn editor(name: &str) -> Harness<'static, EditorApp> {
    editor_sized(name, [96, 48, 96])
}

fn view_rect(h: &Harness<'_, EditorApp>) -> egui::Rect {
    h.state().viewport.rect()
}

/// The 8 corners of `b`.
fn corners(b: VoxelBox) -> Vec<three_d::Vec3> {
    (0..8)
        .map(|i| {
            let pick = |bit: usize, lo: i32, hi: i32| if i & bit == 0 { lo } else { hi } as f32;
            three_d::vec3(
                pick(1, b.min.x, b.max.x),
                pick(2, b.min.y, b.max.y),
                pick(4, b.min.z, b.max.z),
            )
        })
        .collect()
}

/// How far the corners of `b` reach from the middle of the view (0.5: to its edge, in the larger
/// of the two directions), or `None` when a corner is behind the camera.
fn reach(cam: &EditorCamera, rect: egui::Rect, b: VoxelBox) -> Option<f32> {
    let mut reach = 0.0f32;
    for c in corners(b) {
        let [x, y] = cam.project(c, rect.width(), rect.height())?;
        reach = reach
            .max((x / rect.width() - 0.5).abs())
            .max((y / rect.height() - 0.5).abs());
    }
    Some(reach)
}

#[test]
fn switching_tools_and_tabs_does_not_move_the_viewport() {
    let mut h = editor("tools");
    let rect = view_rect(&h);
    assert!(rect.width() > 500.0, "{rect:?}");
    for kind in ToolKind::ALL {
        h.get_by_label(kind.name()).click();
        h.run_steps(3);
        assert_eq!(h.state().tools().state.tool.kind, kind);
        assert_eq!(
            view_rect(&h),
            rect,
            "the viewport moved with {}",
            kind.name()
        );
    }
    for tab in ["Region", "Stamps", "Physics", "Lighting"] {
        h.get_by_label(tab).click();
        h.run_steps(3);
        assert_eq!(view_rect(&h), rect, "the viewport moved with the {tab} tab");
    }
    // A panel's tool brings its tab to the front; the viewport stays.
    h.get_by_label("Region").click();
    h.run_steps(2);
    h.get_by_label("Region Tool").click();
    h.run_steps(3);
    assert_eq!(h.state().active_tool, "Region");
    assert_eq!(view_rect(&h), rect);
    h.get_by_label("Physics").click();
    h.run_steps(2);
    h.get_by_label("Drop Tool").click();
    h.run_steps(3);
    assert_eq!(view_rect(&h), rect);
    assert!(
        h.query_by_label("Region Tool").is_none(),
        "one tab shows at a time"
    );
}

fn edit(name: String, x: i32) -> Action {
    let b = VoxelBox::new(VoxelPos::new(x, 30, 2), VoxelPos::new(x + 1, 31, 3));
    Action::Edit(BoxEdit {
        name,
        boxes: vec![b],
        write: Box::new(move |g: &mut Grid| g.fill_box(b, Voxel::filled(3))),
    })
}

/// The rectangle of the History section: from its heading to the status bar.
fn history_area(h: &Harness<'_, EditorApp>) -> egui::Rect {
    let heading = h.get_by_label("History").rect();
    egui::Rect::from_min_max(
        Pos2::new(heading.left(), heading.bottom()),
        Pos2::new(SIZE[0], SIZE[1] - 20.0),
    )
}

#[test]
fn history_shows_the_current_step_after_many_edits_and_undo() {
    let mut h = editor("history");
    for i in 1..=60 {
        h.state_mut().apply(edit(format!("Step {i}"), i));
    }
    h.run_steps(4);
    let area = history_area(&h);
    let last = h.get_by_label("Step 60").rect();
    assert!(area.contains_rect(last), "{last:?} inside {area:?}");
    let first = h.get_by_label("Step 1").rect();
    assert!(!area.intersects(first), "the oldest steps scrolled away");
    for _ in 0..25 {
        h.state_mut().apply(Action::Undo);
    }
    h.run_steps(4);
    let current = h.get_by_label("Step 35").rect();
    assert!(area.contains_rect(current), "{current:?} inside {area:?}");
    // The tabs above are not pushed around by a long history.
    let tab = h.get_by_label("Region").rect();
    assert!(tab.bottom() < area.top(), "{tab:?} above {area:?}");
}

#[test]
fn the_first_view_frames_the_whole_world_and_reset_camera_closes_the_menu() {
    let mut h = editor_sized("first", [256, 64, 256]);
    let bounds = h.state().doc.as_ref().expect("doc").bounds();
    let rect = view_rect(&h);
    let r = reach(&h.state().viewport.camera, rect, bounds).expect("in front");
    assert!(
        (0.3..=0.5).contains(&r),
        "every corner in view, filling it: {r}"
    );
    // Look somewhere else, then View ▸ Reset Camera.
    h.state_mut()
        .viewport
        .camera
        .focus(three_d::vec3(10.0, 5.0, 10.0), 4.0);
    h.run_steps(2);
    assert!(reach(&h.state().viewport.camera, rect, bounds).is_none_or(|r| r > 0.5));
    h.get_by_label("View").click();
    h.run_steps(2);
    h.get_by_label("Reset Camera").click();
    h.run_steps(3);
    assert!(
        h.query_by_label("Reset Camera").is_none(),
        "the View menu closed"
    );
    let r = reach(&h.state().viewport.camera, rect, bounds).expect("in front");
    assert!((0.3..=0.5).contains(&r), "the whole world again: {r}");
}

#[test]
fn f_frames_the_selection() {
    let mut h = editor("focus");
    let sel = VoxelBox::new(VoxelPos::new(40, 10, 40), VoxelPos::new(60, 20, 52));
    h.state_mut().apply(Action::Select(Some(sel)));
    h.run_steps(2);
    let rect = view_rect(&h);
    let before = reach(&h.state().viewport.camera, rect, sel).expect("in front");
    assert!(
        before < 0.25,
        "the selection is small in the first view: {before}"
    );
    h.hover_at(rect.center());
    h.run_steps(1);
    h.key_press(egui::Key::F);
    h.run_steps(2);
    let after = reach(&h.state().viewport.camera, rect, sel).expect("in front");
    assert!(
        (0.3..=0.5).contains(&after),
        "the selection fills the view: {after}"
    );
}

/// Right-drag from `from` by `by` pixels in `frames` frames.
fn right_drag(h: &mut Harness<'_, EditorApp>, from: Pos2, by: egui::Vec2, frames: usize) {
    h.hover_at(from);
    h.run_steps(1);
    h.event(egui::Event::PointerButton {
        pos: from,
        button: PointerButton::Secondary,
        pressed: true,
        modifiers: Modifiers::NONE,
    });
    h.run_steps(1);
    for i in 1..=frames {
        h.hover_at(from + by * (i as f32 / frames as f32));
        h.run_steps(1);
    }
    h.event(egui::Event::PointerButton {
        pos: from + by,
        button: PointerButton::Secondary,
        pressed: false,
        modifiers: Modifiers::NONE,
    });
    h.run_steps(2);
}

#[test]
fn a_right_drag_turns_the_view_by_the_preference() {
    let mut h = editor("orbit");
    let from = view_rect(&h).center();
    let yaw0 = h.state().viewport.camera.yaw;
    right_drag(&mut h, from, egui::vec2(60.0, 0.0), 1);
    let one = (h.state().viewport.camera.yaw - yaw0).to_degrees();
    assert!((one.abs() - 18.0).abs() < 1.0, "60 pixels turn 18°: {one}");
    let yaw1 = h.state().viewport.camera.yaw;
    right_drag(&mut h, from, egui::vec2(60.0, 0.0), 7);
    let split = (h.state().viewport.camera.yaw - yaw1).to_degrees();
    assert!(
        (split - one).abs() < 0.5,
        "the same turn in 7 frames: {split} vs {one}"
    );
    // The preference sets the rate.
    let mut prefs = h.state().prefs.clone();
    prefs.orbit_degrees_per_px = 1.0;
    h.state_mut().apply(Action::SetPrefs(Box::new(prefs)));
    let yaw2 = h.state().viewport.camera.yaw;
    right_drag(&mut h, from, egui::vec2(30.0, 0.0), 3);
    let fast = (h.state().viewport.camera.yaw - yaw2).to_degrees();
    assert!(
        (fast.abs() - 30.0).abs() < 1.0,
        "30 pixels at 1°/pixel: {fast}"
    );
}
