//! The glTF scene export against today's single-mesh glb export of the same world, in the same run.
//!
//! World: `canyons` 1024×256×1024, seed 1, generated here, with a quick sun-and-sky bake (8
//! particles) so both exports write baked light. The scene has 128-voxel tiles, 3 levels, collision
//! and light; the single mesh is `export_glb_lit` at LOD 0 with the same light. Both write a real file
//! (under the system temp folder), timed wall-clock, interleaved, best of `STRATA_SCENE_RUNS` (3).
//!
//! Printed before the criterion groups (so `cargo bench --bench scene -- nomatch` prints only these):
//! ```text
//! scene: time ratio R (scene S s / single-mesh glb G s), goal <= 2
//! scene: size ratio R with meshopt (scene B bytes / single-mesh glb B bytes), goal <= 1.5
//! ```
//! The criterion group times the scene export of the 256×128×256 world.

mod common;

use std::time::Instant;

use criterion::{criterion_group, criterion_main, Criterion};
use strata_engine::gen::{generate, GeneratorSettings, Preset};
use strata_engine::light::{bake, LightSettings, SolidVolume};
use strata_engine::mesh::{
    export_glb_lit, export_scene, scene_bytes, ExportLooks, SceneCompression, SceneOptions,
};
use strata_engine::progress::Progress;
use strata_engine::voxel::MaterialTable;

fn ratios() {
    let table = MaterialTable::builtin();
    let settings = GeneratorSettings {
        preset: Preset::Canyons,
        size: [1024, 256, 1024],
        seed: 1,
    };
    let grid = generate(&settings, &table, &Progress::new()).expect("generates");
    let volume = SolidVolume::from_grid(&grid, &table).expect("volume");
    let light_settings = LightSettings {
        particles: 8,
        ..LightSettings::default()
    };
    let (light, _) = bake(&volume, &light_settings, &Progress::new()).expect("bakes");
    drop(volume);
    let runs: usize = std::env::var("STRATA_SCENE_RUNS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(3);
    let dir = std::env::temp_dir().join(format!("strata-scene-bench-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let single_path = dir.join("single.glb");
    let scene_path = dir.join("scene.glb");
    let mut options = SceneOptions::new(settings.bounds());
    options.light = Some(&light);
    let looks = ExportLooks {
        light: Some(&light),
        textures: None,
    };
    let (mut best_single, mut best_scene) = (f64::INFINITY, f64::INFINITY);
    for _ in 0..runs {
        let t = Instant::now();
        export_glb_lit(
            &grid,
            &table,
            0,
            None,
            looks,
            &single_path,
            &Progress::new(),
        )
        .expect("single mesh");
        best_single = best_single.min(t.elapsed().as_secs_f64());
        let t = Instant::now();
        export_scene(&grid, &table, &options, &scene_path, &Progress::new()).expect("scene");
        best_scene = best_scene.min(t.elapsed().as_secs_f64());
    }
    let size = |p: &std::path::Path| std::fs::metadata(p).map_or(0, |m| m.len());
    let single_bytes = size(&single_path);
    let plain_bytes = size(&scene_path);
    options.compression = SceneCompression::Meshopt;
    let (packed, stats) =
        scene_bytes(&grid, &table, &options, &Progress::new()).expect("meshopt scene");
    println!(
        "scene: time ratio {:.2} (scene {best_scene:.2} s / single-mesh glb {best_single:.2} s), goal <= 2",
        best_scene / best_single
    );
    println!(
        "scene: size ratio {:.2} with meshopt (scene {} bytes / single-mesh glb {single_bytes} bytes), goal <= 1.5; uncompressed {:.2}",
        packed.len() as f64 / single_bytes as f64,
        packed.len(),
        plain_bytes as f64 / single_bytes as f64
    );
    println!(
        "scene: {} tiles, triangles per level {:?}, {} collision triangles",
        stats.tiles, stats.lod_triangles, stats.collision_triangles
    );
    let _ = std::fs::remove_dir_all(&dir);
}

fn bench(c: &mut Criterion) {
    ratios();
    let table = MaterialTable::builtin();
    let size = common::timing_size();
    let grid = common::canyons(size);
    let bounds = GeneratorSettings {
        preset: Preset::Canyons,
        size,
        seed: 1,
    }
    .bounds();
    let options = SceneOptions::new(bounds);
    let mut group = c.benchmark_group("scene");
    group.sample_size(10);
    group.bench_function("export 256x128x256", |b| {
        b.iter(|| scene_bytes(&grid, &table, &options, &Progress::new()).expect("scene"));
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
