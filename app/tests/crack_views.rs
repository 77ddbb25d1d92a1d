//! No sky through the terrain: the real editor (Xvfb, Mesa's software GL) tours a seeded set of
//! camera positions over three worlds (`strata open --camera-path --screenshots`), near, mid-range,
//! far and grazing, and every screenshot, taken while the view refines after each jump and once it
//! has settled, must show no background pixel inside the terrain's silhouette: where mesh nodes of
//! different levels meet, where skirts hang, where cross-fades dither, nothing may open onto the sky.
//!
//! Inside the silhouette means: between two terrain pixels of the same column. The worlds are
//! height fields seen from above the ground without roll, so a ray that misses the terrain passes
//! above everything a ray through a higher pixel of the same column can hit, and background between
//! two terrain pixels of a column is a hole (a crack, a pin hole, a missing node). Background is the
//! sky colour; terrain is anything but the sky and the ground grid's lines over it.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

use common::{ok, s, temp_dir};
use image::RgbaImage;
use serde_json::{json, Value};
use strata::viewport::camera::EditorCamera;
use strata_engine::format::project::Project;
use strata_engine::mesh::MAX_NODE_LEVEL;
use strata_engine::physics::{PhysicsWorld, RayFilter};
use strata_engine::voxel::{VoxelBox, VoxelPos, CHUNK_SIZE};
use three_d::Vec3;

/// The colour the tour draws behind the terrain instead of the sky: no terrain, water or haze
/// has it, so every pixel of it is one the terrain left uncovered.
const SKY: [f32; 3] = [255.0, 0.0, 255.0];
/// The ground grid's line colour.
const GRID: [f32; 3] = [60.0, 66.0, 74.0];
/// Voxels per cell of the height bound (the 4³ mip's sample).
const CELL: i32 = 8;

/// A camera stop of the tour file.
#[derive(Debug, Clone, Copy)]
struct Stop {
    eye: [f32; 3],
    target: [f32; 3],
    kind: &'static str,
}

/// An upper bound of the ground's height per 8 × 8 column of a world, from the chunks' 4³ mips
/// (a mip sample that is not Air covers any matter below it).
struct Heights {
    bounds: VoxelBox,
    cells: [i32; 2],
    top: Vec<i32>,
}

impl Heights {
    fn of(project: &Project) -> Self {
        let bounds = project.header.bounds;
        let cells = [
            (bounds.size()[0] as i32 + CELL - 1) / CELL,
            (bounds.size()[2] as i32 + CELL - 1) / CELL,
        ];
        let mut top = vec![bounds.min.y; (cells[0] * cells[1]) as usize];
        let per = CHUNK_SIZE as i32 / CELL;
        for (p, chunk) in project.grid.chunks() {
            if chunk.is_air() {
                continue;
            }
            let mip = chunk.mip4();
            for z in 0..per {
                for x in 0..per {
                    let cx = (p.x * CHUNK_SIZE as i32 + x * CELL - bounds.min.x) / CELL;
                    let cz = (p.z * CHUNK_SIZE as i32 + z * CELL - bounds.min.z) / CELL;
                    if cx < 0 || cz < 0 || cx >= cells[0] || cz >= cells[1] {
                        continue;
                    }
                    let filled = (0..per)
                        .rev()
                        .find(|&y| !mip.get(x as usize, y as usize, z as usize).is_air());
                    if let Some(y) = filled {
                        let h = p.y * CHUNK_SIZE as i32 + (y + 1) * CELL;
                        let t = &mut top[(cz * cells[0] + cx) as usize];
                        *t = (*t).max(h);
                    }
                }
            }
        }
        Self { bounds, cells, top }
    }

    /// The bound at world column (x, z), the highest within `reach` cells around it.
    fn at(&self, x: f32, z: f32, reach: i32) -> f32 {
        let cx = ((x as i32 - self.bounds.min.x) / CELL).clamp(0, self.cells[0] - 1);
        let cz = ((z as i32 - self.bounds.min.z) / CELL).clamp(0, self.cells[1] - 1);
        let mut h = self.bounds.min.y;
        for dz in -reach..=reach {
            for dx in -reach..=reach {
                let (x, z) = (cx + dx, cz + dz);
                if x >= 0 && z >= 0 && x < self.cells[0] && z < self.cells[1] {
                    h = h.max(self.top[(z * self.cells[0] + x) as usize]);
                }
            }
        }
        h as f32
    }

    fn size(&self) -> [f32; 2] {
        [self.bounds.size()[0] as f32, self.bounds.size()[2] as f32]
    }
}

/// `count` camera stops over the world, cycling near, mid-range, far and grazing views, in a
/// seeded order that jumps across the world between stops (so each view refines).
fn camera_stops(h: &Heights, seed: u64, count: usize) -> Vec<Stop> {
    let mut rng = fastrand::Rng::with_seed(seed);
    let [sx, sz] = h.size();
    let (x0, z0) = (h.bounds.min.x as f32, h.bounds.min.z as f32);
    let extent = sx.max(sz);
    let mut range = |lo: f32, hi: f32| lo + (hi - lo) * rng.f32();
    let mut stops = Vec::with_capacity(count);
    for i in 0..count {
        // A point on the ground inside the world's middle 80 %.
        let tx = x0 + sx * range(0.1, 0.9);
        let tz = z0 + sz * range(0.1, 0.9);
        let heading = range(0.0, std::f32::consts::TAU);
        let (kind, distance, elevation_deg) = match i % 4 {
            0 => ("near", range(24.0, 64.0), range(15.0, 50.0)),
            1 => ("mid", range(120.0, 320.0), range(10.0, 35.0)),
            2 => ("far", extent * range(0.9, 1.5), range(15.0, 45.0)),
            _ => ("grazing", range(100.0, 320.0), range(1.0, 5.0)),
        };
        let elevation = elevation_deg.to_radians();
        let (dx, dz) = (heading.sin(), heading.cos());
        let stop = if kind == "grazing" {
            // The eye just above the ground, looking across it slightly downwards.
            let (ex, ez) = (tx - dx * distance * 0.5, tz - dz * distance * 0.5);
            let ey = h.at(ex, ez, 1) + range(2.0, 8.0);
            let target = [
                ex + dx * distance,
                ey - distance * elevation.tan(),
                ez + dz * distance,
            ];
            Stop {
                eye: [ex, ey, ez],
                target,
                kind,
            }
        } else {
            let (tx, tz) = if kind == "far" {
                (x0 + sx * range(0.3, 0.7), z0 + sz * range(0.3, 0.7))
            } else {
                (tx, tz)
            };
            let ty = h.at(tx, tz, 0) - 4.0;
            let flat = distance * elevation.cos();
            let (ex, ez) = (tx - dx * flat, tz - dz * flat);
            // Never inside the ground: at least a few voxels over the highest ground around.
            let ey = (ty + distance * elevation.sin()).max(h.at(ex, ez, 1) + 3.0);
            Stop {
                eye: [ex, ey, ez],
                target: [tx, ty, tz],
                kind,
            }
        };
        stops.push(stop);
    }
    rng.shuffle(&mut stops);
    stops
}

/// Run the editor's camera tour over `stops`; returns the screenshot list (`tour.json`).
fn tour(world: &Path, stops: &[Stop], dir: &Path) -> Vec<Value> {
    let config = dir.join("config");
    std::fs::create_dir_all(&config).expect("config dir");
    // The viewport alone (docked panels hidden), no first-launch hint over it.
    std::fs::write(
        config.join("prefs.ron"),
        "(open_panels: Some([]), hint_seen: true)\n",
    )
    .expect("prefs");
    let path = dir.join("cameras.json");
    let list: Vec<Value> = stops
        .iter()
        .map(|s| json!({"eye": s.eye, "target": s.target}))
        .collect();
    std::fs::write(&path, Value::Array(list).to_string()).expect("camera path");
    let shots = dir.join("shots");
    let out = Command::new("xvfb-run")
        .args(["-a", "-s", "-screen 0 1280x800x24"])
        .arg(env!("CARGO_BIN_EXE_strata"))
        .args(["open", s(world), "--window-size", "640,400"])
        .args(["--camera-path", s(&path), "--screenshots", s(&shots)])
        .args(["--background", "255,0,255"])
        .args(
            std::env::var("CRACKS_EXTRA")
                .map(|e| e.split(' ').map(String::from).collect::<Vec<_>>())
                .unwrap_or_default(),
        )
        .env("STRATA_CONFIG_DIR", &config)
        .env("LIBGL_ALWAYS_SOFTWARE", "1")
        .output()
        .expect("xvfb-run must be installed (apt-get install xvfb); .ci/run installs it");
    assert!(
        out.status.success(),
        "the camera tour failed under Xvfb: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = std::fs::read_to_string(shots.join("tour.json")).expect("tour.json");
    let list: Value = serde_json::from_str(&text).expect("tour.json is JSON");
    list.as_array().expect("a list of screenshots").clone()
}

fn is_sky(p: [f32; 3]) -> bool {
    (0..3).all(|c| (p[c] - SKY[c]).abs() <= 2.0)
}

/// The sky or the ground grid's lines blended over it: not evidence of terrain (grey rock can
/// look the same, which only makes the test see less terrain, never more).
fn is_background(p: [f32; 3]) -> bool {
    let d: Vec<f32> = (0..3).map(|c| GRID[c] - SKY[c]).collect();
    let v: Vec<f32> = (0..3).map(|c| p[c] - SKY[c]).collect();
    let t = (v.iter().zip(&d).map(|(a, b)| a * b).sum::<f32>()
        / d.iter().map(|b| b * b).sum::<f32>())
    .clamp(0.0, 1.0);
    (0..3).all(|c| (v[c] - t * d[c]).abs() <= 4.0)
}

/// Sky pixels between two terrain pixels of their column, within `rect` (x0, y0, x1, y1): the
/// candidates, which [`Truth`] confirms.
fn candidates(img: &RgbaImage, rect: [u32; 4]) -> Vec<(u32, u32)> {
    let [x0, y0, x1, y1] = rect;
    let (x1, y1) = (x1.min(img.width()), y1.min(img.height()));
    let pixel = |x: u32, y: u32| {
        let p = img.get_pixel(x, y).0;
        [f32::from(p[0]), f32::from(p[1]), f32::from(p[2])]
    };
    let mut found = Vec::new();
    // Two pixels in from the viewport's edges.
    for x in x0 + 2..x1.saturating_sub(2) {
        let ys = y0 + 2..y1.saturating_sub(2);
        let terrain: Vec<bool> = ys.clone().map(|y| !is_background(pixel(x, y))).collect();
        let (Some(first), Some(last)) = (
            terrain.iter().position(|&t| t),
            terrain.iter().rposition(|&t| t),
        ) else {
            continue;
        };
        for k in first..last {
            let y = ys.start + k as u32;
            if is_sky(pixel(x, y)) {
                found.push((x, y));
            }
        }
    }
    found
}

/// The `holes` none of whose eight neighbours is background that is not a hole: a pixel of sky
/// beside the sky around the terrain is a notch in its outline (where a coarse level may end a
/// thin spire a pixel sooner), not a hole in it; a crack keeps every pixel but its very end.
fn enclosed(img: &RgbaImage, holes: Vec<(u32, u32)>) -> Vec<(u32, u32)> {
    let set: std::collections::HashSet<(u32, u32)> = holes.iter().copied().collect();
    let outer = |x: u32, y: u32| {
        let p = img.get_pixel(x, y).0;
        is_sky([f32::from(p[0]), f32::from(p[1]), f32::from(p[2])]) && !set.contains(&(x, y))
    };
    holes
        .into_iter()
        .filter(|&(x, y)| {
            (0..9).all(|k| {
                let (nx, ny) = ((x + k % 3).wrapping_sub(1), (y + k / 3).wrapping_sub(1));
                nx >= img.width() || ny >= img.height() || !outer(nx, ny)
            })
        })
        .collect()
}

/// The world's full-resolution surface, for rays through screenshot pixels. A coarse mesh node
/// may move the terrain's silhouette by up to about one of its samples, so a candidate counts as a
/// hole only when the true surface covers every ray within a sample (and a pixel and a half) of
/// it, measured at the level drawn there; see [`Truth::left_out`] for what it does not check.
struct Truth {
    project: Project,
    physics: PhysicsWorld,
}

/// Directions around a pixel that the true surface must cover too.
const AROUND: [(f32, f32); 9] = [
    (0.0, 0.0),
    (1.0, 0.0),
    (-1.0, 0.0),
    (0.0, 1.0),
    (0.0, -1.0),
    (0.7, 0.7),
    (-0.7, 0.7),
    (0.7, -0.7),
    (-0.7, -0.7),
];

impl Truth {
    fn new(project: Project) -> Self {
        let physics = PhysicsWorld::new(&project.grid, &project.header.materials, 256 << 20);
        Self { project, physics }
    }

    /// Where the ray through `(x, y)` meets the true surface, and how far away.
    fn hit(&mut self, camera: &EditorCamera, rect: [u32; 4], x: f32, y: f32) -> Option<[f32; 4]> {
        let (w, h) = ((rect[2] - rect[0]) as f32, (rect[3] - rect[1]) as f32);
        let ray = camera.pick_ray(x - rect[0] as f32, y - rect[1] as f32, w, h);
        let reach = 8.0
            * self
                .project
                .header
                .bounds
                .size()
                .into_iter()
                .max()
                .unwrap_or(1) as f32;
        let hit = self
            .physics
            .raycast(&self.project.grid, ray.origin, ray.dir, reach)
            .ok()
            .flatten()?;
        Some([hit.point[0], hit.point[1], hit.point[2], hit.t])
    }

    /// True for the places the check leaves out, where a coarse level may show the background
    /// without a crack: the world's outer sides (within two samples, where the ground behind a
    /// pixel ends against nothing, also seen through water), and shores (within a sample of
    /// water: a mip block holding water is water, so the ground under it steps down there).
    fn left_out(
        &mut self,
        camera: &EditorCamera,
        rect: [u32; 4],
        x: f32,
        y: f32,
        hit: [f32; 4],
        sample: f32,
    ) -> bool {
        let (w, h) = ((rect[2] - rect[0]) as f32, (rect[3] - rect[1]) as f32);
        let ray = camera.pick_ray(x - rect[0] as f32, y - rect[1] as f32, w, h);
        let ground_only = RayFilter {
            solid: true,
            water: false,
        };
        let reach = 8.0
            * self
                .project
                .header
                .bounds
                .size()
                .into_iter()
                .max()
                .unwrap_or(1) as f32;
        let ground = self
            .physics
            .raycast_with(&self.project.grid, ray.origin, ray.dir, reach, ground_only)
            .ok()
            .flatten()
            .map(|g| [g.point[0], g.point[1], g.point[2], g.t]);
        let edge = |p: [f32; 4]| self.at_world_edge(p, 2.0 * sample + 1.0);
        edge(hit) || ground.is_some_and(edge) || self.near_water(hit, sample + 1.0)
    }

    /// True when a liquid voxel lies within `r` voxels of `p` (on a coarse grid of the box).
    fn near_water(&self, p: [f32; 4], r: f32) -> bool {
        let table = &self.project.header.materials;
        let step = (r / 3.0).max(1.0);
        let n = (2.0 * r / step).ceil() as i32;
        (0..=n).any(|i| {
            (0..=n).any(|j| {
                (0..=n).any(|k| {
                    let q = [i, j, k].map(|c| c as f32 * step - r);
                    let v = self.project.grid.get(VoxelPos::new(
                        (p[0] + q[0]).floor() as i32,
                        (p[1] + q[1]).floor() as i32,
                        (p[2] + q[2]).floor() as i32,
                    ));
                    v.occupancy > 0 && table.get(v.material).is_some_and(|m| m.liquid)
                })
            })
        })
    }

    /// True when `p` lies within `margin` voxels of the world's outer sides (the floor and the
    /// top excepted).
    fn at_world_edge(&self, p: [f32; 4], margin: f32) -> bool {
        let b = self.project.header.bounds;
        let (lo, hi) = ([b.min.x, b.min.z], [b.max.x, b.max.z]);
        [p[0], p[2]]
            .iter()
            .enumerate()
            .any(|(a, &c)| c < lo[a] as f32 + margin || c > hi[a] as f32 - margin)
    }

    /// The candidates well inside the true silhouette seen from `stop`, `drawn` the mesh nodes
    /// (level, position) on screen.
    fn holes(
        &mut self,
        stop: &Stop,
        rect: [u32; 4],
        drawn: &[[i64; 4]],
        pixels: &[(u32, u32)],
    ) -> Vec<(u32, u32)> {
        let camera = EditorCamera::looking_at(Vec3::from(stop.eye), Vec3::from(stop.target));
        let voxels_per_pixel = 2.0 * (camera.fov_y * 0.5).tan() / (rect[3] - rect[1]) as f32;
        let mut out = Vec::new();
        for &(x, y) in pixels {
            let (cx, cy) = (x as f32 + 0.5, y as f32 + 0.5);
            let Some(hit) = self.hit(&camera, rect, cx, cy) else {
                continue;
            };
            let sample = (1u32 << level_at(drawn, hit)) as f32;
            if self.left_out(&camera, rect, cx, cy, hit, sample) {
                continue;
            }
            let radius = 1.5 + sample / (voxels_per_pixel * hit[3]).max(1e-6);
            let covered = AROUND.iter().all(|(dx, dy)| {
                self.hit(&camera, rect, cx + dx * radius, cy + dy * radius)
                    .is_some()
            });
            if covered {
                out.push((x, y));
            }
        }
        out
    }
}

/// The coarsest level among the drawn nodes within a few voxels of `p` (the coarsest level when
/// none is: a frame that drew something else).
fn level_at(drawn: &[[i64; 4]], p: [f32; 4]) -> u32 {
    drawn
        .iter()
        .filter(|n| {
            let size = 32i64 << n[0];
            (0..3).all(|a| {
                let lo = (n[1 + a] * size) as f32 - 4.0;
                let hi = ((n[1 + a] + 1) * size) as f32 + 4.0;
                p[a] >= lo && p[a] <= hi
            })
        })
        .map(|n| n[0] as u32)
        .max()
        .unwrap_or(MAX_NODE_LEVEL)
}

impl Truth {
    fn debug(&mut self, stop: &Stop, rect: [u32; 4], holes: &[(u32, u32)], drawn: &[[i64; 4]]) {
        let camera = EditorCamera::looking_at(Vec3::from(stop.eye), Vec3::from(stop.target));
        let (w, h) = ((rect[2] - rect[0]) as f32, (rect[3] - rect[1]) as f32);
        for &(x, y) in holes.iter().take(3) {
            let ray = camera.pick_ray(
                x as f32 + 0.5 - rect[0] as f32,
                y as f32 + 0.5 - rect[1] as f32,
                w,
                h,
            );
            let hit = self
                .physics
                .raycast(&self.project.grid, ray.origin, ray.dir, 1e5)
                .ok()
                .flatten();
            let solid = self
                .physics
                .raycast_with(
                    &self.project.grid,
                    ray.origin,
                    ray.dir,
                    1e5,
                    strata_engine::physics::RayFilter {
                        water: false,
                        ..Default::default()
                    },
                )
                .ok()
                .flatten();
            let Some(hit) = hit else { continue };
            let p = hit.point;
            let near: Vec<String> = drawn
                .iter()
                .filter(|n| {
                    let s = 32i64 << n[0];
                    (0..3).all(|a| {
                        let lo = (n[1 + a] * s) as f32 - 3.0;
                        let hi = ((n[1 + a] + 1) * s) as f32 + 3.0;
                        p[a] >= lo && p[a] <= hi
                    })
                })
                .map(|n| format!("L{} ({},{},{})", n[0], n[1], n[2], n[3]))
                .collect();
            println!("    hole ({x},{y}): hit {:?} t {:.1} water {} n {:?}; solid hit {:?}; nodes near: {}", p, hit.t, hit.water, hit.normal, solid.map(|s| (s.point, s.t)), near.join(" "));
        }
    }
}

/// Save `img` with the `holes` in magenta, for whoever looks at a failure.
fn mark(img: &RgbaImage, holes: &[(u32, u32)], path: &Path) {
    let mut marked = img.clone();
    for &(x, y) in holes {
        marked.put_pixel(x, y, image::Rgba([255, 0, 255, 255]));
    }
    let _ = marked.save(path);
}

/// Tour `world` from `count` seeded cameras and require no holes in any screenshot.
fn check_world(world: &Path, dir: &Path, seed: u64, count: usize) {
    let started = std::time::Instant::now();
    let project = Project::load(world).expect("loads the world");
    let heights = Heights::of(&project);
    let stops = camera_stops(&heights, seed, count);
    let shots = tour(world, &stops, dir);
    let toured = started.elapsed().as_secs_f64();
    let mut truth = Truth::new(project);
    let mut failures = Vec::new();
    let (mut refining, mut settled) = (0, 0);
    for shot in &shots {
        let file = shot["file"].as_str().expect("file");
        let stop = &stops[shot["stop"].as_u64().expect("stop") as usize];
        let rect: Vec<u32> = shot["viewport"]
            .as_array()
            .expect("viewport")
            .iter()
            .map(|v| v.as_u64().expect("pixel") as u32)
            .collect();
        let rect = [rect[0], rect[1], rect[2], rect[3]];
        let img = image::open(dir.join("shots").join(file))
            .expect("screenshot")
            .to_rgba8();
        if shot["settled"].as_bool() == Some(true) {
            settled += 1;
        } else {
            refining += 1;
        }
        let drawn: Vec<[i64; 4]> = shot["drawn"]
            .as_array()
            .expect("drawn nodes")
            .iter()
            .map(|n| {
                let v: Vec<i64> = n
                    .as_array()
                    .expect("a node")
                    .iter()
                    .map(|c| c.as_i64().expect("an integer"))
                    .collect();
                [v[0], v[1], v[2], v[3]]
            })
            .collect();
        let h = enclosed(
            &img,
            truth.holes(stop, rect, &drawn, &candidates(&img, rect)),
        );
        if !h.is_empty() {
            if std::env::var("CRACKS_DEBUG").is_ok() {
                truth.debug(stop, rect, &h, &drawn);
            }
            mark(
                &img,
                &h,
                &dir.join("shots").join(file.replace(".png", "-holes.png")),
            );
            failures.push(format!(
                "{file} ({} camera {:?} -> {:?}): {} sky pixels inside the terrain, first {:?}",
                stop.kind,
                stop.eye,
                stop.target,
                h.len(),
                &h[..h.len().min(4)]
            ));
        }
    }
    println!(
        "{}: {} cameras, {settled} settled and {refining} refining screenshots; tour {toured:.0} s, \
         all {:.0} s",
        world.display(),
        stops.len(),
        started.elapsed().as_secs_f64()
    );
    assert_eq!(
        settled,
        stops.len(),
        "every camera gets a settled screenshot"
    );
    assert!(
        failures.is_empty(),
        "sky inside the terrain (screenshots kept in {}):\n{}",
        dir.display(),
        failures.join("\n")
    );
}

/// A smooth 16-bit heightmap PNG (gentle hills and one steep ridge).
fn smooth_heightmap(path: &Path, size: u32) {
    let img = image::ImageBuffer::<image::Luma<u16>, Vec<u16>>::from_fn(size, size, |x, y| {
        let (x, y) = (x as f32, y as f32);
        let v = 0.45
            + 0.25 * (x / 61.0).sin() * (y / 47.0).cos()
            + 0.15 * ((x + y) / 113.0).sin()
            + 0.12 * (-((x - y) / 24.0).powi(2)).exp();
        image::Luma([(v.clamp(0.0, 1.0) * 65535.0) as u16])
    });
    img.save(path).expect("writes the heightmap");
}

fn finish(dir: PathBuf) {
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn no_sky_inside_generated_hills_from_any_camera() {
    let dir = temp_dir("cracks-hills");
    let world = common::new_world(&dir, "hills", "hills", "384,96,384", 2);
    check_world(&world, &dir, 11, 18);
    finish(dir);
}

#[test]
fn no_sky_inside_an_imported_heightmap_from_any_camera() {
    let dir = temp_dir("cracks-heightmap");
    let png = dir.join("smooth.png");
    smooth_heightmap(&png, 512);
    let world = dir.join("smooth.strata");
    ok(&["import", s(&png), s(&world), "--height", "96"]);
    check_world(&world, &dir, 23, 18);
    finish(dir);
}

#[test]
fn no_sky_inside_a_large_biome_world_from_any_camera() {
    let dir = temp_dir("cracks-biomes");
    let world = dir.join("biomes.strata");
    ok(&[
        "new",
        s(&world),
        "--biomes",
        "mountains,hills,canyons,plains,water",
        "--size",
        "1024,128,1024",
        "--seed",
        "3",
    ]);
    check_world(&world, &dir, 37, 18);
    finish(dir);
}
