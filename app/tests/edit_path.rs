//! Every path that changes voxels reaches every consumer of the edit notification: a recording
//! consumer registered with the editor, the viewport's meshes (chunks marked for remeshing) and
//! physics (the picking ray sees the new surface). Paths: a brush stroke, sea level, a box edit (what
//! region tools and generate-into-a-box use), undo, redo, a history jump, and a new document.

use std::sync::{Arc, Mutex};

use strata::app::action::{Action, BoxEdit};
use strata::app::{EditorApp, Start};
use strata::document::{Document, EditConsumer};
use strata::region::region_op::RegionOp;
use strata_engine::gen::{GeneratorSettings, Preset, WorldSettings};
use strata_engine::region::{Fill, PasteMode, Region};
use strata_engine::storage::Grid;
use strata_engine::tools::{Brush, SeaLevelMode, Tool, ToolKind};
use strata_engine::voxel::{Voxel, VoxelBox, VoxelPos};

#[derive(Default)]
struct Seen {
    boxes: Vec<VoxelBox>,
    documents: usize,
}

struct Recorder(Arc<Mutex<Seen>>);

impl EditConsumer for Recorder {
    fn name(&self) -> &str {
        "recorder"
    }
    fn on_edit(&mut self, _doc: &Document, changed: VoxelBox) {
        if let Ok(mut s) = self.0.lock() {
            s.boxes.push(changed);
        }
    }
    fn on_document(&mut self, _doc: Option<&Document>) {
        if let Ok(mut s) = self.0.lock() {
            s.documents += 1;
        }
    }
}

fn editor() -> (EditorApp, Arc<Mutex<Seen>>) {
    let settings = GeneratorSettings {
        preset: Preset::Flat,
        size: [96, 48, 96],
        seed: 1,
    };
    let mut app = EditorApp::new(Start::Generate(settings), false, None);
    app.wait_for_job();
    let seen = Arc::new(Mutex::new(Seen::default()));
    app.add_consumer(Box::new(Recorder(seen.clone())));
    (app, seen)
}

fn grid(app: &EditorApp) -> Grid {
    app.doc.as_ref().expect("doc").grid().clone()
}

/// Every voxel that differs between `before` and `after` within `world` lies in one of `boxes`.
fn covered(before: &Grid, after: &Grid, world: VoxelBox, boxes: &[VoxelBox]) -> usize {
    let mut changed = 0;
    for z in world.min.z..world.max.z {
        for y in world.min.y..world.max.y {
            for x in world.min.x..world.max.x {
                let p = VoxelPos::new(x, y, z);
                if before.get(p) != after.get(p) {
                    changed += 1;
                    assert!(
                        boxes.iter().any(|b| b.contains(p)),
                        "voxel {p:?} changed outside every published box {boxes:?}"
                    );
                }
            }
        }
    }
    changed
}

/// Apply `actions` and check every consumer saw the change; returns how many voxels changed.
fn check_path(app: &mut EditorApp, seen: &Arc<Mutex<Seen>>, what: &str, actions: Vec<Action>) {
    let before = grid(app);
    let world = app.doc.as_ref().expect("doc").bounds();
    seen.lock().expect("lock").boxes.clear();
    // Mesh what earlier paths left waiting, so this path's chunks are counted afresh.
    {
        let doc = app.doc.as_ref().expect("doc");
        let camera = app.viewport.camera.position;
        let _ = app.viewport.meshes.update(
            doc.grid(),
            doc.materials(),
            camera,
            std::time::Duration::from_secs(60),
            None,
        );
    }
    assert_eq!(app.viewport.meshes.urgent_count(), 0);
    let urgent_before = 0;
    app.apply_all(actions);
    // A write over `sync_voxels` runs as a job: wait for it and install it.
    app.wait_for_job();
    let after = grid(app);
    let boxes = seen.lock().expect("lock").boxes.clone();
    let changed = covered(&before, &after, world, &boxes);
    assert!(changed > 0, "{what}: the path changed voxels");
    assert!(!boxes.is_empty(), "{what}: the recorder saw the boxes");
    assert!(
        app.viewport.meshes.urgent_count() > urgent_before,
        "{what}: the viewport marked chunks for remeshing"
    );
}

fn surface_y(app: &mut EditorApp, x: f32, z: f32) -> f32 {
    let doc = app.doc.as_mut().expect("doc");
    doc.raycast([x, 200.0, z], [0.0, -1.0, 0.0], 400.0)
        .map_or(f32::NAN, |h| h.point[1])
}

#[test]
fn every_edit_path_reaches_every_consumer() {
    let (mut app, seen) = editor();
    let ground = surface_y(&mut app, 48.5, 48.5);
    let add = Tool::new(ToolKind::Add, 2);
    let brush = Brush::default();
    let stroke = vec![
        Action::BeginStroke("Add".into()),
        Action::Dab {
            tool: add,
            brush,
            center: [48.5, ground, 48.5],
        },
        Action::Dab {
            tool: add,
            brush,
            center: [48.5, ground, 48.5],
        },
        Action::EndStroke,
    ];
    check_path(&mut app, &seen, "stroke", stroke);
    assert!(
        surface_y(&mut app, 48.5, 48.5) > ground + 1.0,
        "physics sees the stroke at once"
    );
    let world = app.doc.as_ref().expect("doc").bounds();
    check_path(
        &mut app,
        &seen,
        "sea level",
        vec![Action::SeaLevel {
            region: VoxelBox::new(VoxelPos::new(0, 0, 0), VoxelPos::new(16, world.max.y, 16)),
            level: ground + 6.0,
            mode: SeaLevelMode::Fill,
        }],
    );
    let b = VoxelBox::new(VoxelPos::new(70, 0, 70), VoxelPos::new(80, 40, 80));
    let edit = BoxEdit {
        name: "Fill".into(),
        boxes: vec![b],
        write: Box::new(move |g: &mut Grid| g.fill_box(b, Voxel::new(3, 255))),
    };
    check_path(&mut app, &seen, "box edit", vec![Action::Edit(edit)]);
    assert!(
        surface_y(&mut app, 75.5, 75.5) > 39.0,
        "physics sees the box"
    );
    // Region tool paths: paste (a copy of the filled box, elsewhere), fill and delete.
    let copied = {
        let doc = app.doc.as_ref().expect("doc");
        Arc::new(Region::copy(doc.grid(), b).expect("copy"))
    };
    let region_paths = [
        (
            "paste",
            RegionOp::Place {
                clear: None,
                region: copied,
                at: VoxelPos::new(20, 0, 70),
                mode: PasteMode::Replace,
            },
        ),
        (
            "region fill",
            RegionOp::Fill {
                b: VoxelBox::new(VoxelPos::new(30, 30, 30), VoxelPos::new(40, 40, 40)),
                fill: Fill::new(Voxel::new(5, 255)),
            },
        ),
        ("region delete", RegionOp::Delete(b)),
    ];
    for (what, op) in region_paths.clone() {
        check_path(
            &mut app,
            &seen,
            what,
            vec![Action::Region {
                name: what.into(),
                op,
                select: None,
            }],
        );
    }
    check_path(&mut app, &seen, "undo", vec![Action::Undo]);
    check_path(&mut app, &seen, "redo", vec![Action::Redo]);
    // The same region paths, undo and redo as background jobs (every write over the threshold).
    app.sync_voxels = 0;
    for (what, op) in region_paths {
        app.apply_all(vec![Action::Region {
            name: what.into(),
            op,
            select: None,
        }]);
        assert!(app.busy(), "{what} runs as a job");
        app.wait_for_job();
        check_path(&mut app, &seen, "undo job", vec![Action::Undo]);
        check_path(&mut app, &seen, "redo job", vec![Action::Redo]);
    }
    check_path(&mut app, &seen, "history jump job", vec![Action::JumpTo(2)]);
    app.sync_voxels = strata::document::region_job::SYNC_VOXELS;
    check_path(&mut app, &seen, "history jump", vec![Action::JumpTo(0)]);
    assert!(
        (surface_y(&mut app, 48.5, 48.5) - ground).abs() < 1e-3,
        "physics follows undo"
    );
    let documents = seen.lock().expect("lock").documents;
    app.apply(Action::Generate(WorldSettings::from_preset(
        &GeneratorSettings {
            preset: Preset::Hills,
            size: [64, 48, 64],
            seed: 2,
        },
    )));
    app.wait_for_job();
    assert_eq!(
        seen.lock().expect("lock").documents,
        documents + 1,
        "a new document reaches the consumers"
    );
    let names = app.consumers();
    eprintln!(
        "consumers of the edit notification:\n  {}",
        names.join("\n  ")
    );
    assert!(names.iter().any(|n| n.starts_with("baked light")));
    assert!(names.iter().any(|n| n.starts_with("physics")));
    assert!(names.iter().any(|n| n == "viewport meshes"));
    assert!(names.iter().any(|n| n == "recorder"));
}
