//! Input on slow frames: every pointer event of a frame is read in order. A click pressed and
//! released within one frame dabs once where it was pressed, even when the pointer moves on before
//! the frame ends; a stroke shorter than a frame follows its whole path; a drag-selection within
//! one frame spans press to release; a press on a panel never reaches the viewport; and digits typed
//! right after clicking a number field (same frame) are the field's, not tool shortcuts.

use eframe::egui::{self, accesskit::Role, Event, Key, Pos2};
use egui_kittest::kittest::Queryable;
use egui_kittest::Harness;

use strata::app::action::Action;
use strata::app::{EditorApp, Start};
use strata_engine::gen::{GeneratorSettings, Preset};
use strata_engine::storage::Grid;
use strata_engine::tools::ToolKind;
use strata_engine::voxel::{VoxelBox, VoxelPos};

const SIZE: [f32; 2] = [1280.0, 800.0];

fn editor(name: &str) -> Harness<'static, EditorApp> {
    let dir = std::env::temp_dir().join(format!("strata-slow-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let settings = GeneratorSettings {
        preset: Preset::Flat,
        size: [128, 48, 128],
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

/// The middle of the 3D view.
fn view_center(h: &Harness<'_, EditorApp>) -> Pos2 {
    let view = h.state().viewport.rect();
    Pos2::new(view.center().x, SIZE[1] / 2.0 + 40.0)
}

fn button(pos: Pos2, pressed: bool) -> Event {
    Event::PointerButton {
        pos,
        button: egui::PointerButton::Primary,
        pressed,
        modifiers: egui::Modifiers::NONE,
    }
}

/// Run one frame holding all of `events`, in order.
fn one_frame(h: &mut Harness<'_, EditorApp>, events: Vec<Event>) {
    h.input_mut().events.extend(events);
    h.step();
}

/// The terrain point under `pos` (hovering there for a frame).
fn hit_at(h: &mut Harness<'_, EditorApp>, pos: Pos2) -> [f32; 3] {
    one_frame(h, vec![Event::PointerMoved(pos)]);
    h.state()
        .viewport
        .hover
        .expect("terrain under the pointer")
        .point
}

fn grid(h: &Harness<'_, EditorApp>) -> Grid {
    h.state().doc.as_ref().expect("doc").grid().clone()
}

/// The tight box of voxels that differ between `a` and `b` within the world.
fn changed(h: &Harness<'_, EditorApp>, a: &Grid, b: &Grid) -> Option<VoxelBox> {
    let bounds = h.state().doc.as_ref().expect("doc").bounds();
    let (va, vb) = (a.read_box_vec(bounds), b.read_box_vec(bounds));
    let [sx, sy, _] = bounds.size();
    let mut out = VoxelBox::default();
    for (i, (x, y)) in va.iter().zip(&vb).enumerate() {
        if x != y {
            let p = VoxelPos::new(
                bounds.min.x + (i % sx) as i32,
                bounds.min.y + ((i / sx) % sy) as i32,
                bounds.min.z + (i / (sx * sy)) as i32,
            );
            out = out.union(&VoxelBox::from_min_size(p, [1, 1, 1]));
        }
    }
    (!out.is_empty()).then_some(out)
}

/// True when the column of voxels above (x, z) of `p` lies in `b` (horizontally).
fn covers(b: VoxelBox, p: [f32; 3]) -> bool {
    let (x, z) = (p[0].floor() as i32, p[2].floor() as i32);
    (b.min.x..b.max.x).contains(&x) && (b.min.z..b.max.z).contains(&z)
}

fn undo_len(h: &Harness<'_, EditorApp>) -> usize {
    h.state().doc.as_ref().expect("doc").history().undo_len()
}

#[test]
fn a_click_within_one_frame_dabs_where_it_was_pressed() {
    let mut h = editor("click");
    let a = view_center(&h);
    let b = a + egui::vec2(220.0, 60.0);
    let hit_b = hit_at(&mut h, b);
    let hit_a = hit_at(&mut h, a);
    let before = grid(&h);
    // Press, release and a quick move on, all before the next frame.
    one_frame(
        &mut h,
        vec![button(a, true), button(a, false), Event::PointerMoved(b)],
    );
    h.run_steps(2);
    assert!(!h.state().tools().state.stroking(), "the stroke ended");
    assert_eq!(undo_len(&h), 1, "one undo step for the click");
    let edit = changed(&h, &before, &grid(&h)).expect("the click added terrain");
    assert!(
        covers(edit, hit_a),
        "{edit:?} misses the press at {hit_a:?}"
    );
    assert!(
        !covers(edit, hit_b),
        "{edit:?} reaches the later spot {hit_b:?}"
    );
}

#[test]
fn a_stroke_shorter_than_a_frame_follows_its_whole_path() {
    let mut h = editor("stroke");
    let a = view_center(&h) - egui::vec2(150.0, 0.0);
    let b = a + egui::vec2(300.0, 0.0);
    let hit_a = hit_at(&mut h, a);
    let hit_b = hit_at(&mut h, b);
    one_frame(&mut h, vec![Event::PointerMoved(a)]);
    let before = grid(&h);
    let mut events = vec![button(a, true)];
    events.extend((1..=10).map(|k| Event::PointerMoved(a + egui::vec2(30.0 * k as f32, 0.0))));
    events.push(button(b, false));
    one_frame(&mut h, events);
    h.run_steps(2);
    assert_eq!(undo_len(&h), 1);
    let edit = changed(&h, &before, &grid(&h)).expect("the stroke added terrain");
    assert!(covers(edit, hit_a) && covers(edit, hit_b), "{edit:?}");
    // The path between was dabbed too: the middle column changed.
    let mid = [
        (hit_a[0] + hit_b[0]) / 2.0,
        0.0,
        (hit_a[2] + hit_b[2]) / 2.0,
    ];
    let after = grid(&h);
    let column = |g: &Grid| -> Vec<_> {
        (0..48)
            .map(|y| g.get(VoxelPos::new(mid[0] as i32, y, mid[2] as i32)))
            .collect()
    };
    assert_ne!(column(&before), column(&after), "the middle of the path");
}

#[test]
fn a_drag_selection_within_one_frame_spans_press_to_release() {
    let mut h = editor("select");
    h.state_mut()
        .apply(Action::ActivateTool(strata::region::NAME));
    h.run_steps(2);
    let a = view_center(&h) - egui::vec2(100.0, 0.0);
    let b = a + egui::vec2(200.0, 40.0);
    let hit_a = hit_at(&mut h, a);
    let hit_b = hit_at(&mut h, b);
    one_frame(
        &mut h,
        vec![
            Event::PointerMoved(a),
            button(a, true),
            Event::PointerMoved(a + egui::vec2(100.0, 20.0)),
            Event::PointerMoved(b),
            button(b, false),
            Event::PointerMoved(b + egui::vec2(50.0, 50.0)),
        ],
    );
    h.run_steps(2);
    let sel = h
        .state()
        .doc
        .as_ref()
        .and_then(|d| d.selection())
        .expect("a selection");
    assert!(covers(sel, hit_a) && covers(sel, hit_b), "{sel:?}");
    let far = hit_at(&mut h, b + egui::vec2(50.0, 50.0));
    assert!(
        !covers(sel, far),
        "{sel:?} follows the pointer past the release"
    );
}

#[test]
fn a_press_on_a_panel_never_reaches_the_viewport() {
    let mut h = editor("panel");
    h.state_mut()
        .apply(Action::ActivateTool(strata::region::NAME));
    h.run_steps(2);
    let inside = view_center(&h);
    // The Tools panel's Sphere button: pressed and released there, then the pointer moves into the
    // view within the same frame.
    let sphere = h
        .get_all_by_label("Sphere")
        .map(|n| n.rect())
        .min_by(|a, b| a.left().total_cmp(&b.left()))
        .expect("the Tools panel's Sphere")
        .center();
    one_frame(
        &mut h,
        vec![
            Event::PointerMoved(sphere),
            button(sphere, true),
            button(sphere, false),
            Event::PointerMoved(inside),
        ],
    );
    h.run_steps(2);
    let doc = h.state().doc.as_ref().expect("doc");
    assert_eq!(doc.selection(), None, "the panel click made a selection");
    assert_eq!(doc.history().undo_len(), 0);
    // The same clicks in the view do select (the test can fail).
    h.state_mut()
        .apply(Action::ActivateTool(strata::region::NAME));
    h.run_steps(1);
    one_frame(
        &mut h,
        vec![
            Event::PointerMoved(inside),
            button(inside, true),
            button(inside, false),
        ],
    );
    h.run_steps(2);
    assert!(h.state().doc.as_ref().and_then(|d| d.selection()).is_some());
}

#[test]
fn digits_typed_into_a_number_field_do_not_switch_tools() {
    let mut h = editor("digits");
    assert_eq!(h.state().tools().state.tool.kind, ToolKind::Add);
    // The Tools panel's first number field (the brush size's value).
    let field = h
        .get_all_by_role(Role::SpinButton)
        .next()
        .expect("a number field")
        .rect()
        .center();
    let key = |key, pressed| Event::Key {
        key,
        physical_key: None,
        pressed,
        repeat: false,
        modifiers: egui::Modifiers::NONE,
    };
    // Click the field and type 3 before the next frame: the field has not shown its text box yet.
    one_frame(
        &mut h,
        vec![
            Event::PointerMoved(field),
            button(field, true),
            button(field, false),
            key(Key::Num3, true),
            Event::Text("3".into()),
            key(Key::Num3, false),
        ],
    );
    h.run_steps(1);
    assert_eq!(
        h.state().tools().state.tool.kind,
        ToolKind::Add,
        "3 switched tools"
    );
    // Typing on into the focused field.
    h.key_press(Key::Num4);
    h.run_steps(2);
    assert_eq!(
        h.state().tools().state.tool.kind,
        ToolKind::Add,
        "4 switched tools"
    );
    // Once the field lets go of the keyboard, digits pick tools again.
    h.key_press(Key::Escape);
    h.run_steps(2);
    h.key_press(Key::Num3);
    h.run_steps(2);
    assert_eq!(h.state().tools().state.tool.kind, ToolKind::Grow);
}
