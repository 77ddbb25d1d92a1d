//! The Region tool and the Stamps panel driven like a user: drag a selection, copy and paste it
//! elsewhere and undo, rotate a pasted region, fill a box, export and import the selection in every
//! block format, and stamp a saved selection as a brush. No window and no GL: picking runs on the
//! CPU and the paste ghost is meshed but not drawn.

use std::path::{Path, PathBuf};

use eframe::egui::{Key, Modifiers, Pos2};
use egui_kittest::kittest::Queryable;
use egui_kittest::Harness;

use strata::app::action::{Action, BoxEdit};
use strata::app::panel::panel_path;
use strata::app::{EditorApp, Start};
use strata::files::file_jobs::PathPurpose;
use strata::region::region_files::sidecar_path;
use strata::region::region_state::{self as region, RegionPanel};
use strata::region::stamps::{self, StampsPanel};
use strata::viewport::overlay::Overlay;
use strata_engine::gen::{GeneratorSettings, Preset};
use strata_engine::region::{Axis, Region};
use strata_engine::storage::Grid;
use strata_engine::voxel::{Voxel, VoxelBox, VoxelPos};

const SIZE: [f32; 2] = [1280.0, 800.0];
/// Material id of Grass (the Fill default) and Rock in the built-in table.
const GRASS: u8 = 2;

fn temp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("strata-region-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).expect("temp dir");
    d
}

/// An editor on a flat 96×48×96 world with the Region tool active and only its panels shown, plus
/// an L-shaped landmark of three materials at (20..26, surface.., 20..23) so copies are asymmetric.
fn editor(dir: &Path) -> Harness<'static, EditorApp> {
    let settings = GeneratorSettings {
        preset: Preset::Flat,
        size: [96, 48, 96],
        seed: 1,
    };
    let mut app = EditorApp::new(Start::Generate(settings), false, Some(dir.join("config")));
    app.wait_for_job();
    app.prefs.in_app_file_browser = true;
    for name in ["History", "Lighting"] {
        app.panels.set_open(name, false);
    }
    let ground = surface_y(&mut app);
    let landmark = VoxelBox::new(
        VoxelPos::new(20, ground, 20),
        VoxelPos::new(26, ground + 5, 23),
    );
    app.apply_all(vec![Action::Edit(BoxEdit {
        name: "Landmark".into(),
        boxes: vec![landmark],
        write: Box::new(move |g: &mut Grid| {
            for z in 20..23 {
                for x in 20..26 {
                    for y in ground..ground + 5 {
                        let v = match (x - 20, y - ground, z - 20) {
                            (0, _, _) => Voxel::new(4, 255),
                            (_, 0, _) => Voxel::new(3, 200),
                            (_, _, 0) if y < ground + 3 => Voxel::new(5, 255),
                            _ => Voxel::AIR,
                        };
                        g.set(VoxelPos::new(x, y, z), v);
                    }
                }
            }
        }),
    })]);
    let mut h = Harness::builder()
        .with_size(SIZE)
        .with_max_steps(1000)
        .build_ui_state(|ui, app: &mut EditorApp| app.run(ui), app);
    h.run_steps(2);
    h.get_by_label("Region Tool").click();
    h.run_steps(2);
    assert_eq!(h.state().active_tool, region::NAME);
    h
}

/// The first Y above the ground in the middle of the world.
fn surface_y(app: &mut EditorApp) -> i32 {
    let doc = app.doc.as_mut().expect("doc");
    let hit = doc
        .raycast([48.0, 100.0, 48.0], [0.0, -1.0, 0.0], 200.0)
        .expect("ground");
    hit.point[1].round() as i32
}

fn grid(h: &Harness<'_, EditorApp>) -> Grid {
    h.state().doc.as_ref().expect("doc").grid().clone()
}

fn selection(h: &Harness<'_, EditorApp>) -> Option<VoxelBox> {
    h.state().doc.as_ref().expect("doc").selection()
}

fn panel<'a>(h: &'a Harness<'_, EditorApp>) -> &'a RegionPanel {
    h.state().panels.get::<RegionPanel>().expect("Region panel")
}

fn select(h: &mut Harness<'_, EditorApp>, b: VoxelBox) {
    h.state_mut().apply_all(vec![Action::Select(Some(b))]);
    h.run_steps(2);
}

fn landmark_box(h: &mut Harness<'_, EditorApp>) -> VoxelBox {
    let ground = surface_y(h.state_mut());
    VoxelBox::new(
        VoxelPos::new(18, ground - 2, 18),
        VoxelPos::new(28, ground + 6, 24),
    )
}

/// A point in the 3D view, `dx` points right of its middle.
fn in_view(h: &Harness<'_, EditorApp>, dx: f32) -> Pos2 {
    let left = h.state().left_panel_width();
    Pos2::new((left + SIZE[0] - 260.0) / 2.0 + dx, SIZE[1] / 2.0 + 60.0)
}

fn voxels(b: VoxelBox) -> impl Iterator<Item = VoxelPos> {
    (b.min.z..b.max.z).flat_map(move |z| {
        (b.min.y..b.max.y)
            .flat_map(move |y| (b.min.x..b.max.x).map(move |x| VoxelPos::new(x, y, z)))
    })
}

fn same_voxels(grid: &Grid, b: VoxelBox, expected: &Region) -> bool {
    Region::copy(grid, b).expect("copy").to_dense() == expected.to_dense()
}

#[test]
fn dragging_on_the_terrain_selects_a_snapped_box_with_its_size_shown() {
    let dir = temp("drag");
    let mut h = editor(&dir);
    let (a, b) = (in_view(&h, -60.0), in_view(&h, 60.0));
    h.hover_at(a);
    h.run_steps(2);
    let start = h.state().viewport.hover.expect("terrain at a").point;
    h.drag_at(a);
    h.run_steps(1);
    for i in 1..=6 {
        h.hover_at(a + (b - a) * (i as f32 / 6.0));
        h.run_steps(1);
    }
    let end = h.state().viewport.hover.expect("terrain at b").point;
    h.drop_at(b);
    h.run_steps(3);
    let sel = selection(&h).expect("a selection after the drag");
    for p in [start, end] {
        let (x, z) = (p[0].floor() as i32, p[2].floor() as i32);
        assert!(
            (sel.min.x..sel.max.x).contains(&x) && (sel.min.z..sel.max.z).contains(&z),
            "{p:?} inside {sel:?}"
        );
    }
    // Height above (16) and depth below (8) the dragged corners, plus the corner voxels.
    assert!(sel.size()[1] > 16 + 8, "{sel:?}");
    let size = sel.size();
    let text = format!("Selection {}×{}×{}", size[0], size[1], size[2]);
    // The status bar and the panel both show the size.
    h.get_by_label_contains(&format!("{text} = {} voxels", sel.volume()));
    h.get_by_label_contains(&format!("{text} ({} voxels)", sel.volume()));
    // Esc clears the selection.
    h.key_press(Key::Escape);
    h.run_steps(2);
    assert_eq!(selection(&h), None);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn copy_paste_elsewhere_and_undo() {
    let dir = temp("paste");
    let mut h = editor(&dir);
    let src = landmark_box(&mut h);
    select(&mut h, src);
    h.key_press_modifiers(Modifiers::COMMAND, Key::C);
    h.run_steps(2);
    let copied = panel(&h).clipboard().expect("copied").clone();
    assert_eq!(copied.size(), [10, 8, 6]);
    let before = grid(&h);
    h.get_by_label("Paste").click();
    h.run_steps(2);
    assert!(panel(&h).floating());
    let at = in_view(&h, 120.0);
    h.hover_at(at);
    h.run_steps(2);
    let target = panel(&h)
        .paste_target()
        .expect("a paste target under the cursor");
    assert_eq!(target.size(), src.size());
    assert_eq!(
        target.min.y, src.min.y,
        "Keep Height pastes at the copied height"
    );
    assert!(
        target.intersect(&src).is_empty(),
        "{target:?} away from {src:?}"
    );
    h.state_mut().wait_for_panel_jobs(region::NAME);
    h.run_steps(1);
    assert!(panel(&h).ghost_ready(), "the paste ghost is meshed");
    h.hover_at(at);
    h.run_steps(1);
    let ghost = h.state().overlays().into_iter().find_map(|o| match o {
        Overlay::Ghost { mesh, offset, .. } => Some((mesh, offset)),
        _ => None,
    });
    let (mesh, offset) = ghost.expect("a ghost overlay while the paste floats");
    assert!(mesh.triangle_count() > 0);
    assert_eq!(offset, target.min.to_array().map(|v| v as f32));
    // The ghost lies inside the paste box (region coordinates).
    let size = target.size();
    for p in &mesh.positions {
        assert!(
            (0..3).all(|k| p[k] >= -0.01 && p[k] <= size[k] as f32 + 0.01),
            "{p:?}"
        );
    }
    h.drag_at(at);
    h.run_steps(1);
    h.drop_at(at);
    h.run_steps(2);
    assert!(
        !panel(&h).floating(),
        "a click places the paste and ends it"
    );
    let after = grid(&h);
    assert!(same_voxels(&after, target, &copied), "pasted voxels");
    assert_eq!(selection(&h), Some(target), "the paste is selected");
    let history = h.state().doc.as_ref().expect("doc").history();
    assert_eq!(history.undo_names().next(), Some("Paste"));
    h.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    h.run_steps(2);
    assert_eq!(grid(&h), before, "one undo restores the world bit for bit");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn rotate_a_pasted_region_and_mirror_it() {
    let dir = temp("rotate");
    let mut h = editor(&dir);
    let src = landmark_box(&mut h);
    select(&mut h, src);
    h.get_by_label("Copy").click();
    h.run_steps(2);
    let copied = panel(&h).clipboard().expect("copied").clone();
    // Paste, turn the floating paste with R before placing it.
    h.key_press_modifiers(Modifiers::COMMAND, Key::V);
    h.run_steps(2);
    h.key_press(Key::R);
    h.run_steps(2);
    assert_eq!(panel(&h).floating_size(), Some([6, 8, 10]));
    let at = in_view(&h, 140.0);
    h.hover_at(at);
    h.run_steps(2);
    h.drag_at(at);
    h.run_steps(1);
    h.drop_at(at);
    h.run_steps(2);
    let placed = selection(&h).expect("pasted box selected");
    let turned = copied.rotated(Axis::Y, 1);
    assert!(same_voxels(&grid(&h), placed, &turned));
    // R on the placed selection turns it in place, one undo step, centred where it was.
    let before = grid(&h);
    h.key_press(Key::R);
    h.run_steps(2);
    let again = selection(&h).expect("turned box selected");
    assert_eq!(again.size(), [10, 8, 6].map(|s| s as usize));
    assert!(same_voxels(&grid(&h), again, &copied.rotated(Axis::Y, 2)));
    assert_eq!(
        h.state()
            .doc
            .as_ref()
            .expect("doc")
            .history()
            .undo_names()
            .next(),
        Some("Rotate")
    );
    h.get_by_label("Mirror").click();
    h.run_steps(2);
    let mirrored = copied.rotated(Axis::Y, 2).mirrored(Axis::X);
    assert!(same_voxels(&grid(&h), again, &mirrored));
    h.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    h.run_steps(1);
    h.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    h.run_steps(2);
    assert_eq!(grid(&h), before, "undo of Mirror and Rotate");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn fill_a_box_only_air_then_delete_cut_and_duplicate() {
    let dir = temp("fill");
    let mut h = editor(&dir);
    let ground = surface_y(h.state_mut());
    let b = VoxelBox::new(
        VoxelPos::new(50, ground - 3, 50),
        VoxelPos::new(58, ground + 4, 55),
    );
    select(&mut h, b);
    let before = grid(&h);
    h.get_by_label("Only Air").click();
    h.run_steps(1);
    h.get_by_label("Fill Selection").click();
    h.run_steps(2);
    let g = grid(&h);
    for p in voxels(b) {
        let old = before.get(p);
        let want = if old.is_air() {
            Voxel::new(GRASS, 255)
        } else {
            old
        };
        assert_eq!(g.get(p), want, "{p:?}");
    }
    assert_eq!(
        g.get(VoxelPos::new(49, ground + 1, 50)),
        Voxel::AIR,
        "outside the box"
    );
    h.get_by_label("Only Air").click();
    h.run_steps(1);
    h.get_by_label("Fill Selection").click();
    h.run_steps(2);
    assert!(voxels(b).all(|p| grid(&h).get(p) == Voxel::new(GRASS, 255)));
    h.key_press(Key::Delete);
    h.run_steps(2);
    assert!(voxels(b).all(|p| grid(&h).get(p).is_air()));
    for _ in 0..3 {
        h.key_press_modifiers(Modifiers::COMMAND, Key::Z);
        h.run_steps(1);
    }
    h.run_steps(1);
    assert_eq!(grid(&h), before, "three undo steps: Delete, Fill, Fill");
    // Duplicate places a copy on +X and selects it; Cut empties the source.
    let src = landmark_box(&mut h);
    select(&mut h, src);
    let copy = Region::copy(&grid(&h), src).expect("copy");
    h.key_press_modifiers(Modifiers::COMMAND, Key::D);
    h.run_steps(2);
    let dup = selection(&h).expect("duplicate selected");
    assert_eq!(dup.min, VoxelPos::new(src.max.x, src.min.y, src.min.z));
    assert!(same_voxels(&grid(&h), dup, &copy));
    h.key_press_modifiers(Modifiers::COMMAND, Key::X);
    h.run_steps(2);
    assert!(voxels(dup).all(|p| grid(&h).get(p).is_air()));
    assert_eq!(panel(&h).clipboard().map(Region::size), Some(copy.size()));
    // Move: the source empties and the copy lands where the click was, in one undo step.
    select(&mut h, src);
    let steps = h.state().doc.as_ref().expect("doc").history().undo_len();
    h.get_by_label("Move").click();
    h.run_steps(2);
    let at = in_view(&h, 150.0);
    h.hover_at(at);
    h.run_steps(2);
    let target = panel(&h).paste_target().expect("move target");
    assert!(
        target.intersect(&src).is_empty(),
        "{target:?} away from {src:?}"
    );
    h.drag_at(at);
    h.run_steps(1);
    h.drop_at(at);
    h.run_steps(2);
    let g = grid(&h);
    assert!(same_voxels(&g, target, &copy), "moved voxels");
    assert!(
        voxels(src).all(|p| g.get(p).is_air()),
        "the source is emptied"
    );
    let history = h.state().doc.as_ref().expect("doc").history();
    assert_eq!(history.undo_len(), steps + 1);
    assert_eq!(history.undo_names().next(), Some("Move"));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn export_and_import_the_selection_in_every_format() {
    let dir = temp("files");
    let mut h = editor(&dir);
    let src = landmark_box(&mut h);
    select(&mut h, src);
    let expected = Region::copy(&grid(&h), src).expect("copy");
    // The menu asks for a file with the in-app browser.
    h.get_by_label("File").click();
    h.run_steps(2);
    h.get_by_label_contains("Export Selection").click();
    h.run_steps(2);
    h.get_by_label_contains("Export Selection");
    h.state_mut().dialogs.browser = None;
    for ext in ["strata", "v4", "rle", "raw"] {
        let path = dir.join(format!("sel.{ext}"));
        let spec = region::export_spec();
        let purpose = panel_path(region::NAME, region::TAG_EXPORT, spec);
        h.state_mut()
            .apply_all(vec![Action::PathChosen(purpose, path.clone())]);
        h.run_steps(2);
        h.state_mut().wait_for_panel_jobs(region::NAME);
        h.run_steps(1);
        assert!(path.is_file(), "{}", path.display());
        assert_eq!(sidecar_path(&path).is_file(), ext == "rle" || ext == "raw");
        let purpose = panel_path(region::NAME, region::TAG_IMPORT, region::import_spec());
        h.state_mut()
            .apply_all(vec![Action::PathChosen(purpose, path.clone())]);
        h.run_steps(2);
        h.state_mut().wait_for_panel_jobs(region::NAME);
        h.run_steps(1);
        let back = panel(&h).clipboard().expect("imported").clone();
        assert_eq!(back.to_dense(), expected.to_dense(), "{ext}");
        assert!(panel(&h).floating(), "an import floats as a paste");
        h.key_press(Key::Escape);
        h.run_steps(1);
    }
    // Raw without its sidecar: the panel asks for the size.
    let raw = dir.join("sel.raw");
    std::fs::remove_file(sidecar_path(&raw)).expect("remove sidecar");
    let purpose = panel_path(region::NAME, region::TAG_IMPORT, region::import_spec());
    h.state_mut()
        .apply_all(vec![Action::PathChosen(purpose.clone(), raw.clone())]);
    h.run_steps(2);
    h.get_by_label_contains("has no size sidecar");
    h.get_by_label("Cancel").click();
    h.run_steps(2);
    assert!(h.query_by_label_contains("has no size sidecar").is_none());
    // A corrupt file gives an error and changes nothing.
    let bad = dir.join("bad.v4");
    std::fs::write(&bad, [7u8; 40]).expect("write");
    let before = grid(&h);
    h.state_mut()
        .apply_all(vec![Action::PathChosen(purpose, bad)]);
    h.run_steps(2);
    h.state_mut().wait_for_panel_jobs(region::NAME);
    h.run_steps(2);
    assert!(h
        .state()
        .dialogs
        .error
        .as_deref()
        .is_some_and(|e| e.contains("bad.v4")));
    assert_eq!(grid(&h), before);
    let _ = PathPurpose::OpenProject;
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_saved_stamp_is_listed_and_stamped_as_a_brush() {
    let dir = temp("stamps");
    let mut h = editor(&dir);
    let src = landmark_box(&mut h);
    select(&mut h, src);
    let copy = Region::copy(&grid(&h), src).expect("copy");
    h.state_mut().panels.set_open(stamps::NAME, true);
    h.run_steps(2);
    h.get_by_label("Save Selection").click();
    h.run_steps(2);
    h.state_mut().wait_for_panel_jobs(stamps::NAME);
    h.run_steps(3);
    let stamp = dir.join("config").join("stamps").join("stamp.strata");
    assert!(stamp.is_file());
    let listed = h
        .state()
        .panels
        .get::<StampsPanel>()
        .expect("Stamps")
        .stamps()
        .to_vec();
    assert_eq!(listed, vec![stamp]);
    h.get_by_label("Use stamp").click();
    h.run_steps(2);
    h.state_mut().wait_for_panel_jobs(stamps::NAME);
    h.run_steps(2);
    assert!(panel(&h).floating());
    for dx in [100.0, 200.0] {
        let at = in_view(&h, dx);
        h.hover_at(at);
        h.run_steps(2);
        let target = panel(&h).paste_target().expect("target");
        h.drag_at(at);
        h.run_steps(1);
        h.drop_at(at);
        h.run_steps(2);
        assert!(
            same_voxels(&grid(&h), target, &copy),
            "stamped at {target:?}"
        );
        assert!(panel(&h).floating(), "a brush stays until Esc");
    }
    h.key_press(Key::Escape);
    h.run_steps(1);
    assert!(!panel(&h).floating());
    let _ = std::fs::remove_dir_all(&dir);
}

/// Hover over the viewport until the pointer is on a selection handle; its position and handle.
fn find_handle(h: &mut Harness<'_, EditorApp>) -> Option<(Pos2, (usize, bool))> {
    let left = h.state().left_panel_width();
    for y in (60..760).step_by(12) {
        for dx in [0.0, -40.0, 40.0, -80.0, 80.0, -160.0, 160.0] {
            let p = Pos2::new((left + SIZE[0] - 260.0) / 2.0 + dx, y as f32);
            h.hover_at(p);
            h.run_steps(1);
            if let Some(handle) = panel(h).hovered_handle() {
                return Some((p, handle));
            }
        }
    }
    None
}

#[test]
fn dragging_a_handle_resizes_the_selection_along_its_axis() {
    let dir = temp("handles");
    let mut h = editor(&dir);
    h.get_by_label("Region").click();
    h.run_steps(2);
    let start = VoxelBox::new(VoxelPos::new(24, 10, 24), VoxelPos::new(72, 30, 72));
    select(&mut h, start);
    let (at, (axis, max_side)) = find_handle(&mut h).expect("a handle is on screen");
    // Drag it 80 pixels up the screen and let go.
    h.drag_at(at);
    h.run_steps(1);
    for i in 1..=8 {
        h.hover_at(at + eframe::egui::vec2(0.0, -10.0 * i as f32));
        h.run_steps(1);
    }
    h.drop_at(at + eframe::egui::vec2(0.0, -80.0));
    h.run_steps(3);
    let now = selection(&h).expect("still a selection");
    assert_ne!(now, start, "the handle changed the box");
    // Only the dragged face moved: every other coordinate is as it was.
    let (a0, b0) = (start.min.to_array(), start.max.to_array());
    let (a1, b1) = (now.min.to_array(), now.max.to_array());
    for k in 0..3 {
        if k == axis {
            if max_side {
                assert_eq!(a1[k], a0[k]);
            } else {
                assert_eq!(b1[k], b0[k]);
            }
        } else {
            assert_eq!((a1[k], b1[k]), (a0[k], b0[k]), "axis {k} untouched");
        }
    }
    // The box is still inside the world and not empty.
    assert!(!now.is_empty());
    let _ = std::fs::remove_dir_all(&dir);
}
