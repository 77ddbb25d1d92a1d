//! No sky through the terrain: the real editor (Xvfb, Mesa's software GL) tours a seeded set of
//! camera positions over three worlds (`strata open --camera-path --screenshots`), near, mid-range,
//! far and grazing, and every screenshot, taken while the view refines after each jump and once it
//! has settled, must show no background pixel inside the terrain's silhouette: where mesh nodes of
//! different levels meet, where skirts hang, where cross-fades dither, nothing may open onto the sky.
//!
//! Inside the silhouette means: with terrain on both sides along the pixel's vertical, the line
//! through it on screen that world-vertical lines follow (toward the vertical vanishing point; a
//! column when the camera looks level). The pixels of that line are the rays of one vertical plane
//! through the eye, of one heading, steeper below and shallower above. The worlds are height fields
//! (ground and water under an open sky: no caves, whose mouths overhang) seen from above the ground, and any drawing of a height
//! field, however coarse, is one too: a ray that misses it passes over everything there, so every
//! shallower ray of its plane misses it as well. A background pixel with terrain above it on its
//! vertical is therefore a hole, with no tolerance: a crack, a pin hole, a missing node. The one
//! place a coarse mesh is not a height field is the world's outer edge, where a coarse rim may lean
//! out over the wall under it; pixels whose ray passes the world's side within two of the coarsest
//! samples drawn there, no higher than the ground there, are left out. Background is the colour the
//! tour draws instead of the sky (no terrain has it); terrain is anything but it and the ground
//! grid's lines over it. Anti-aliasing is off, so a pixel shows what its centre ray meets.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

use common::{ok, s, temp_dir};
use image::RgbaImage;
use serde_json::{json, Value};
use strata::viewport::camera::EditorCamera;
use strata_engine::format::project::Project;
use strata_engine::mesh::MAX_NODE_LEVEL;
use strata_engine::voxel::{VoxelBox, CHUNK_SIZE};
use three_d::{InnerSpace, Vec3};

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
        "(open_panels: Some([]), hint_seen: true, antialiasing: false)\n",
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
        // The full path by default (the cameras were chosen for its level-of-detail distances);
        // CRACKS_QUALITY=fast tours the fast path, whose coarser levels from half the distance
        // open a 6-pixel gap at one grazing camera of the biome world, as the full path does with
        // the LOD distance preference at 3 chunks (docs/benchmarks.md, "the fast path").
        .args([
            "--viewport-quality",
            &std::env::var("CRACKS_QUALITY").unwrap_or_else(|_| "full".into()),
        ])
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

/// The sky or the ground grid's lines blended over it: not terrain.
fn is_background(p: [f32; 3]) -> bool {
    let d: Vec<f32> = (0..3).map(|c| GRID[c] - SKY[c]).collect();
    let v: Vec<f32> = (0..3).map(|c| p[c] - SKY[c]).collect();
    let t = (v.iter().zip(&d).map(|(a, b)| a * b).sum::<f32>()
        / d.iter().map(|b| b * b).sum::<f32>())
    .clamp(0.0, 1.0);
    (0..3).all(|c| (v[c] - t * d[c]).abs() <= 4.0)
}

/// One screenshot with the camera it was taken from.
struct Shot<'a> {
    img: &'a RgbaImage,
    camera: EditorCamera,
    /// The viewport's pixels in the screenshot: x0, y0, x1, y1 (exclusive).
    rect: [u32; 4],
}

impl Shot<'_> {
    fn pixel(&self, x: u32, y: u32) -> [f32; 3] {
        let p = self.img.get_pixel(x, y).0;
        [f32::from(p[0]), f32::from(p[1]), f32::from(p[2])]
    }

    /// The view direction through the centre of pixel (x, y).
    fn ray(&self, x: f32, y: f32) -> Vec3 {
        let [x0, y0, x1, y1] = self.rect.map(|v| v as f32);
        Vec3::from(self.camera.pick_ray(x - x0, y - y0, x1 - x0, y1 - y0).dir)
    }

    /// Where direction `d` lands on screen, pixels (`None` behind the eye).
    fn project(&self, d: Vec3) -> Option<[f32; 2]> {
        let c = &self.camera;
        let depth = d.dot(c.forward());
        if depth <= 1e-6 {
            return None;
        }
        let [x0, y0, x1, y1] = self.rect.map(|v| v as f32);
        let (w, h) = (x1 - x0, y1 - y0);
        let half = (c.fov_y * 0.5).tan();
        let ndc_x = d.dot(c.right()) / depth / (half * w / h);
        let ndc_y = d.dot(c.up()) / depth / half;
        Some([x0 + (ndc_x + 1.0) * 0.5 * w, y0 + (1.0 - ndc_y) * 0.5 * h])
    }

    /// True when a terrain pixel lies on the vertical of pixel (x, y), above it (`up`) or below.
    fn terrain_along_vertical(&self, x: u32, y: u32, up: bool) -> bool {
        let (cx, cy) = (x as f32 + 0.5, y as f32 + 0.5);
        let d = self.ray(cx, cy);
        // A little steeper or shallower along the same heading: the vertical's way on screen.
        let step = if up { 1e-3 } else { -1e-3 };
        let Some(q) = self.project(d + Vec3::unit_y() * step) else {
            return false;
        };
        let (dx, dy) = (q[0] - cx, q[1] - cy);
        let len = dx.hypot(dy);
        if len < 1e-9 {
            return false;
        }
        let (dx, dy) = (dx / len, dy / len);
        let [x0, y0, x1, y1] = self.inner();
        let mut t = 1.0;
        loop {
            let (px, py) = ((cx + dx * t).floor(), (cy + dy * t).floor());
            if px < x0 as f32 || py < y0 as f32 || px >= x1 as f32 || py >= y1 as f32 {
                return false;
            }
            if !is_background(self.pixel(px as u32, py as u32)) {
                return true;
            }
            t += 1.0;
        }
    }

    /// The viewport two pixels in from its edges.
    fn inner(&self) -> [u32; 4] {
        let [x0, y0, x1, y1] = self.rect;
        let (x1, y1) = (x1.min(self.img.width()), y1.min(self.img.height()));
        [x0 + 2, y0 + 2, x1.saturating_sub(2), y1.saturating_sub(2)]
    }

    /// Background pixels with terrain on both sides along their vertical.
    fn enclosed_sky(&self) -> Vec<(u32, u32)> {
        let [x0, y0, x1, y1] = self.inner();
        let mut found = Vec::new();
        for y in y0..y1 {
            for x in x0..x1 {
                if is_sky(self.pixel(x, y))
                    && self.terrain_along_vertical(x, y, true)
                    && self.terrain_along_vertical(x, y, false)
                {
                    found.push((x, y));
                }
            }
        }
        found
    }
}

/// True when the ray from `eye` along `dir` passes the world's outer side within two of the
/// coarsest samples drawn there (`drawn`: level and position of each mesh node), at most that far
/// above the ground there.
fn passes_world_edge(heights: &Heights, drawn: &[[i64; 4]], eye: Vec3, dir: Vec3) -> bool {
    let b = heights.bounds;
    let reach = 4.0 * heights.size()[0].max(heights.size()[1]);
    let (lo, hi) = (
        [b.min.x as f32, b.min.z as f32],
        [b.max.x as f32, b.max.z as f32],
    );
    let mut t = 0.0;
    while t < reach {
        let p = eye + dir * t;
        let margin = 2.0 * (1u32 << level_at(drawn, [p.x, p.y, p.z])) as f32 + 1.0;
        // Half the margin a step: the band beside the side is twice the margin wide.
        t += 0.5 * margin;
        if p.y > heights.at(p.x, p.z, 1) + margin || p.y < b.min.y as f32 - margin {
            continue;
        }
        let near_side = [p.x, p.z].iter().enumerate().any(|(a, &c)| {
            let inside_other = {
                let o = [p.x, p.z][1 - a];
                o > lo[1 - a] - margin && o < hi[1 - a] + margin
            };
            inside_other && ((c - lo[a]).abs() <= margin || (c - hi[a]).abs() <= margin)
        });
        if near_side {
            return true;
        }
    }
    false
}

/// The coarsest level among the drawn nodes within a few voxels of `p` (the coarsest level when
/// none is).
fn level_at(drawn: &[[i64; 4]], p: [f32; 3]) -> u32 {
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

/// Save `img` with the `holes` in green and the pixels left out at the world's edge in yellow, for
/// whoever looks at a failure.
fn mark(img: &RgbaImage, holes: &[(u32, u32)], edge: &[(u32, u32)], path: &Path) {
    let mut marked = img.clone();
    for &(x, y) in holes {
        marked.put_pixel(x, y, image::Rgba([0, 255, 0, 255]));
    }
    for &(x, y) in edge {
        marked.put_pixel(x, y, image::Rgba([255, 255, 0, 255]));
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
    let (mut found, mut at_edge) = (0, 0);
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
        let view = Shot {
            img: &img,
            camera: EditorCamera::looking_at(Vec3::from(stop.eye), Vec3::from(stop.target)),
            rect,
        };
        let (h, edge): (Vec<_>, Vec<_>) = view.enclosed_sky().into_iter().partition(|&(x, y)| {
            let d = view.ray(x as f32 + 0.5, y as f32 + 0.5);
            !passes_world_edge(&heights, &drawn, Vec3::from(stop.eye), d)
        });
        at_edge += edge.len();
        found += h.len();
        let keep = std::env::var("CRACKS_KEEP").is_ok();
        if keep && !edge.is_empty() {
            let path = dir.join("shots").join(file.replace(".png", "-edge.png"));
            mark(&img, &h, &edge, &path);
        }
        if !h.is_empty() {
            mark(
                &img,
                &h,
                &edge,
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
        "{}: {} cameras, {settled} settled and {refining} refining screenshots, {found} sky pixels \
         inside the terrain ({at_edge} more at the world's edge); tour {toured:.0} s, all {:.0} s",
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

/// Remove the screenshots of a passing test (kept with `CRACKS_KEEP` set, for looking at them).
fn finish(dir: PathBuf) {
    if std::env::var("CRACKS_KEEP").is_err() {
        let _ = std::fs::remove_dir_all(dir);
    }
}

#[test]
fn no_sky_inside_generated_hills_from_any_camera() {
    let dir = temp_dir("cracks-hills");
    let world = dir.join("hills.strata");
    ok(&[
        "new",
        s(&world),
        "--preset",
        "hills",
        "--size",
        "384,96,384",
        "--seed",
        "2",
        "--caves",
        "off",
    ]);
    check_world(&world, &dir, 11, 17);
    finish(dir);
}

#[test]
fn no_sky_inside_an_imported_heightmap_from_any_camera() {
    let dir = temp_dir("cracks-heightmap");
    let png = dir.join("smooth.png");
    smooth_heightmap(&png, 512);
    let world = dir.join("smooth.strata");
    ok(&["import", s(&png), s(&world), "--height", "96"]);
    check_world(&world, &dir, 23, 17);
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
        "hills,canyons,plains,water",
        "--size",
        "1024,128,1024",
        "--seed",
        "3",
        "--caves",
        "off",
    ]);
    check_world(&world, &dir, 37, 17);
    finish(dir);
}
