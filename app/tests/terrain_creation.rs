//! Terrain creation driven like a user: the New World window previews a biome mix before generating
//! it, and the Generate Terrain panel fills a box of the open world as one undo step.

use egui_kittest::kittest::Queryable;
use egui_kittest::Harness;

use strata::app::action::Action;
use strata::app::{EditorApp, Start};
use strata::generate::generate_region::{self, GenerateRegionPanel};
use strata::generate::new_world::{self, NewWorldWindow};
use strata_engine::gen::{generate_region, Biome, GeneratorSettings, Preset, WorldSettings};
use strata_engine::progress::Progress;
use strata_engine::storage::Grid;
use strata_engine::voxel::{VoxelBox, VoxelPos};

fn editor(name: &str) -> Harness<'static, EditorApp> {
    let dir = std::env::temp_dir().join(format!("strata-terrain-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let settings = GeneratorSettings {
        preset: Preset::Flat,
        size: [64, 48, 64],
        seed: 1,
    };
    let mut app = EditorApp::new(Start::Generate(settings), false, Some(dir));
    app.wait_for_job();
    Harness::builder()
        .with_size([1280.0, 900.0])
        .with_max_steps(1000)
        .build_ui_state(|ui, app: &mut EditorApp| app.run(ui), app)
}

fn window<'a>(h: &'a mut Harness<'_, EditorApp>) -> &'a mut NewWorldWindow {
    h.state_mut()
        .panels
        .get_mut::<NewWorldWindow>()
        .expect("the New World window")
}

fn grid(h: &Harness<'_, EditorApp>) -> Grid {
    h.state().doc.as_ref().expect("doc").grid().clone()
}

/// Every voxel position of `area`.
fn positions(area: VoxelBox) -> impl Iterator<Item = VoxelPos> {
    (area.min.z..area.max.z).flat_map(move |z| {
        (area.min.y..area.max.y)
            .flat_map(move |y| (area.min.x..area.max.x).map(move |x| VoxelPos::new(x, y, z)))
    })
}

/// True when `a` and `b` hold the same voxels everywhere in `area` except inside `except`.
fn same_outside(a: &Grid, b: &Grid, area: VoxelBox, except: VoxelBox) -> bool {
    positions(area)
        .filter(|p| !except.contains(*p))
        .all(|p| a.get(p) == b.get(p))
}

#[test]
fn new_world_previews_a_biome_mix_then_generates_it() {
    let mut h = editor("new-world");
    h.state_mut().apply(Action::ShowPanel(new_world::NAME));
    h.run_steps(3);
    h.get_by_label("Biome mix").click();
    h.run_steps(2);
    // Keep the world small and the mix known.
    {
        let w = window(&mut h);
        w.settings.size = [96, 48, 96];
        w.settings.seed = 7;
        w.biomes.biomes = vec![Biome::Hills, Biome::Mountains, Biome::Canyons];
        w.biomes.biome_size = 48;
    }
    h.run_steps(2);
    h.state_mut().wait_for_panel_jobs(new_world::NAME);
    h.run_steps(3);
    h.state_mut().wait_for_panel_jobs(new_world::NAME);
    h.run_steps(2);
    assert!(
        window(&mut h).preview_current(),
        "the preview shows the settings before anything is generated"
    );
    h.get_by_label("Top-down preview of the world");
    // Changing a setting makes the preview stale until a new one arrives for the new settings.
    window(&mut h).settings.seed = 8;
    h.run_steps(1);
    assert!(!window(&mut h).preview_current());
    for _ in 0..3 {
        h.state_mut().wait_for_panel_jobs(new_world::NAME);
        h.run_steps(2);
    }
    assert!(
        window(&mut h).preview_current(),
        "the preview follows the seed"
    );
    assert_eq!(window(&mut h).preview_settings().map(|w| w.seed), Some(8));
    // An empty mix is refused with a message and no Generate.
    window(&mut h).biomes.biomes.clear();
    h.run_steps(2);
    h.get_by_label_contains("the biome list is empty");
    window(&mut h).biomes.biomes = vec![Biome::Hills, Biome::Canyons];
    h.run_steps(2);
    h.get_by_label("Generate").click();
    h.run_steps(2);
    h.state_mut().wait_for_job();
    h.run_steps(2);
    let doc = h.state().doc.as_ref().expect("doc");
    let world = doc.header().world().expect("a generated world");
    assert_eq!(world.preset, Preset::Custom);
    assert_eq!(world.seed, 8);
    assert_eq!(world.biomes.biomes, vec![Biome::Hills, Biome::Canyons]);
    assert_eq!(doc.bounds().size(), [96, 48, 96]);
    // The document holds exactly what the command line's generator makes of those settings.
    let expected = strata_engine::gen::generate_world(
        &WorldSettings::with_biomes([96, 48, 96], 8, world.biomes.clone()),
        doc.materials(),
        &Progress::new(),
    )
    .expect("generate");
    assert!(same_outside(
        doc.grid(),
        &expected,
        doc.bounds(),
        VoxelBox::new(VoxelPos::new(0, 0, 0), VoxelPos::new(0, 0, 0))
    ));
}

#[test]
fn generate_into_a_box_is_one_undo_step_and_touches_nothing_else() {
    let mut h = editor("region");
    h.state_mut()
        .apply(Action::ShowPanel(generate_region::NAME));
    h.run_steps(3);
    let before = grid(&h);
    let bounds = h.state().doc.as_ref().expect("doc").bounds();
    let region = VoxelBox::new(VoxelPos::new(10, 0, 20), VoxelPos::new(50, 40, 44));
    {
        let p = h
            .state_mut()
            .panels
            .get_mut::<GenerateRegionPanel>()
            .expect("the panel");
        assert_eq!(p.region_box(), bounds, "the box starts as the whole world");
        p.biomes.biomes = vec![Biome::Mountains];
        p.seed = 3;
        // A box outside the world is refused.
        p.region = [[10, 0, 20], [90, 40, 44]];
    }
    h.run_steps(2);
    h.get_by_label_contains("must lie inside the world");
    // The Region tool's selection becomes the box.
    h.state_mut().apply(Action::Select(Some(region)));
    h.run_steps(1);
    h.get_by_label("Use selection").click();
    h.run_steps(2);
    assert_eq!(
        h.state()
            .panels
            .get::<GenerateRegionPanel>()
            .expect("the panel")
            .region_box(),
        region
    );
    let undo_before = h.state().doc.as_ref().expect("doc").history().undo_len();
    h.get_by_label("Generate into box").click();
    h.run_steps(1);
    h.state_mut().wait_for_panel_jobs(generate_region::NAME);
    h.run_steps(2);
    let after = grid(&h);
    let doc = h.state().doc.as_ref().expect("doc");
    assert_eq!(doc.history().undo_len(), undo_before + 1, "one undo step");
    assert_eq!(doc.history().undo_names().next(), Some("Generate terrain"));
    assert!(
        same_outside(&before, &after, bounds, region),
        "nothing outside the box changed"
    );
    // Inside, the box holds what a mountains world of the document's size holds there.
    let mut settings = WorldSettings::with_biomes([64, 48, 64], 3, Default::default());
    settings.biomes.biomes = vec![Biome::Mountains];
    settings.biomes.caves = h
        .state()
        .panels
        .get::<GenerateRegionPanel>()
        .expect("panel")
        .biomes
        .caves;
    let fill = generate_region(&settings, region, doc.materials(), &Progress::new()).expect("fill");
    let mut expected = before.clone();
    fill.write_into(&mut expected);
    assert!(same_outside(
        &after,
        &expected,
        bounds,
        VoxelBox::new(region.min, region.min)
    ));
    assert!(
        positions(region).any(|p| after.get(p) != before.get(p)),
        "the box changed"
    );
    // Undo restores the world bit for bit.
    h.state_mut().apply(Action::Undo);
    h.run_steps(1);
    let undone = grid(&h);
    assert!(same_outside(
        &undone,
        &before,
        bounds,
        VoxelBox::new(region.min, region.min)
    ));
}
