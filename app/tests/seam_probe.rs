//! EXPLORATION: rays through seams between nodes of different levels.

use strata_engine::format::project::Project;
use strata_engine::mesh::{mesh_node, MeshBuffer, NodeKey};
use strata_engine::storage::Grid;
use strata_engine::voxel::{ChunkPos, VoxelPos};

type V = [f64; 3];
fn sub(a: V, b: V) -> V {
    [a[0] - b[0], a[1] - b[1], a[2] - b[2]]
}
fn dot(a: V, b: V) -> f64 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}
fn cross(a: V, b: V) -> V {
    [
        a[1] * b[2] - a[2] * b[1],
        a[2] * b[0] - a[0] * b[2],
        a[0] * b[1] - a[1] * b[0],
    ]
}
fn f(p: [f32; 3]) -> V {
    p.map(f64::from)
}

/// Triangles as drawn from `eye` (skirt bottoms behind their rim collapse), front faces only.
struct Drawn {
    tris: Vec<[V; 3]>,
    skirt: Vec<bool>,
}

fn drawn(buf: &MeshBuffer, eye: V, skirts: bool) -> Drawn {
    let from = buf.skirt_from.unwrap_or(usize::MAX);
    let pos = |i: u32| -> V {
        let i = i as usize;
        let p = f(buf.positions[i]);
        if i < from {
            return p;
        }
        let n = f(buf.normals[i]);
        let rim = f(buf.positions[buf.skirt_rims[i - from] as usize]);
        if std::env::var("SEAM_NOCOLLAPSE").is_err() && dot(n, sub(eye, rim)) < 0.0 {
            rim
        } else {
            p
        }
    };
    let mut out = Drawn {
        tris: Vec::new(),
        skirt: Vec::new(),
    };
    let lists: Vec<(&[u32], bool)> = if skirts {
        vec![(&buf.solid_indices, false), (&buf.skirt_indices, true)]
    } else {
        vec![(&buf.solid_indices, false)]
    };
    for (list, sk) in lists {
        for t in list.chunks_exact(3) {
            let tri = [pos(t[0]), pos(t[1]), pos(t[2])];
            let n = cross(sub(tri[1], tri[0]), sub(tri[2], tri[0]));
            if dot(n, sub(eye, tri[0])) > 0.0 || (sk && std::env::var("SEAM_NOCULL").is_ok()) {
                out.tris.push(tri);
                out.skirt.push(sk);
            }
        }
    }
    out
}

fn hit(d: &Drawn, o: V, dir: V, max_t: f64) -> Option<(f64, bool)> {
    let mut best: Option<(f64, bool)> = None;
    for (k, t) in d.tris.iter().enumerate() {
        let e1 = sub(t[1], t[0]);
        let e2 = sub(t[2], t[0]);
        let p = cross(dir, e2);
        let det = dot(e1, p);
        if det.abs() < 1e-12 {
            continue;
        }
        let inv = 1.0 / det;
        let s = sub(o, t[0]);
        let u = dot(s, p) * inv;
        if !(0.0..=1.0).contains(&u) {
            continue;
        }
        let q = cross(s, e1);
        let v = dot(dir, q) * inv;
        if v < 0.0 || u + v > 1.0 {
            continue;
        }
        let tt = dot(e2, q) * inv;
        if tt > 0.0 && tt <= max_t && best.is_none_or(|b| tt < b.0) {
            best = Some((tt, d.skirt[k]));
        }
    }
    best
}

fn solid(grid: &Grid, p: V) -> bool {
    let v = grid.get(VoxelPos::new(
        p[0].floor() as i32,
        p[1].floor() as i32,
        p[2].floor() as i32,
    ));
    v.occupancy >= 128
}

/// The true surface height (occupancy crossing) at column (x, z) from the top.
fn surface(grid: &Grid, x: f64, z: f64, top: i32) -> Option<f64> {
    let (xi, zi) = (x.floor() as i32, z.floor() as i32);
    for y in (0..top).rev() {
        let v = grid.get(VoxelPos::new(xi, y, zi));
        if v.occupancy >= 128 {
            return Some(y as f64 + 1.0);
        }
    }
    None
}

#[test]
fn probe() {
    let Ok(path) = std::env::var("SEAM_WORLD") else {
        return;
    };
    let project = Project::load(std::path::Path::new(&path)).expect("load");
    let grid = &project.grid;
    let table = &project.header.materials;
    let mut rng = fastrand::Rng::with_seed(5);
    let skirts_fine = std::env::var("SEAM_NO_FINE_SKIRT").is_err();
    for fine_level in 0..=2u32 {
        let (mut rays, mut misses, mut skirt_hits) = (0, 0, 0);
        let mut examples = Vec::new();
        for trial in 0..40 {
            // A fine node and the coarse node next to its parent along x or z.
            let span = 1 << (fine_level + 1);
            let px = rng.i32(0..((384 / 32 / span) as i32 - 1).max(1));
            let pz = rng.i32(0..((384 / 32 / span) as i32).max(1));
            let along_x = trial % 2 == 0;
            let parent = NodeKey {
                level: fine_level + 1,
                pos: ChunkPos::new(px, 0, pz),
            };
            let coarse_pos = if along_x {
                ChunkPos::new(px + 1, 0, pz)
            } else {
                ChunkPos::new(pz, 0, px + 1)
            };
            let parent = if along_x {
                parent
            } else {
                NodeKey {
                    level: fine_level + 1,
                    pos: ChunkPos::new(pz, 0, px),
                }
            };
            let coarse = NodeKey {
                level: fine_level + 1,
                pos: coarse_pos,
            };
            // The children of the parent touching the coarse node.
            let fines: Vec<NodeKey> = parent
                .children()
                .into_iter()
                .filter(|c| {
                    let b = c.voxel_box();
                    let cb = coarse.voxel_box();
                    if along_x {
                        b.max.x == cb.min.x
                    } else {
                        b.max.z == cb.min.z
                    }
                })
                .collect();
            let mut cbuf = MeshBuffer::new();
            mesh_node(grid, coarse, table, &mut cbuf).expect("coarse");
            let mut fbufs = Vec::new();
            for k in &fines {
                let mut b = MeshBuffer::new();
                mesh_node(grid, *k, table, &mut b).expect("fine");
                fbufs.push(b);
            }
            let cb = coarse.voxel_box();
            let face = if along_x { cb.min.x } else { cb.min.z } as f64;
            for _ in 0..60 {
                // A point on the face at the true surface.
                let u = cb.min.z as f64 * f64::from(u8::from(along_x))
                    + cb.min.x as f64 * f64::from(u8::from(!along_x))
                    + rng.f64() * (cb.max.x - cb.min.x) as f64;
                let (x, z) = if along_x { (face, u) } else { (u, face) };
                let Some(h) = surface(grid, x, z, 96) else {
                    continue;
                };
                if h >= 95.0 || h < 1.0 {
                    continue;
                }
                // Only surfaces inside these nodes' vertical range.
                let m = 4.0 * f64::from(1u32 << (fine_level + 1));
                if h < cb.min.y as f64 + m || h >= cb.max.y as f64 - m {
                    continue;
                }
                let lo = if along_x { cb.min.z } else { cb.min.x } as f64;
                if u < lo + m || u > lo + (cb.max.x - cb.min.x) as f64 - m {
                    continue;
                }
                let target = [x, h - 1.0 - 0.5 * f64::from(1u32 << (fine_level + 1)), z];
                for _ in 0..6 {
                    let el = 0.05 + rng.f64() * 1.3;
                    let az = rng.f64() * std::f64::consts::TAU;
                    let r = [20.0, 80.0, 250.0][rng.usize(0..3)];
                    let dir_out = [el.cos() * az.sin(), el.sin(), el.cos() * az.cos()];
                    let eye = [
                        target[0] + dir_out[0] * r,
                        target[1] + dir_out[1] * r,
                        target[2] + dir_out[2] * r,
                    ];
                    // Unobstructed until the ray enters the ground near the target.
                    let steps = (r * 2.0) as usize;
                    let first = (0..steps).find(|&k| {
                        let t = k as f64 * 0.5;
                        solid(
                            grid,
                            [
                                eye[0] - dir_out[0] * t,
                                eye[1] - dir_out[1] * t,
                                eye[2] - dir_out[2] * t,
                            ],
                        )
                    });
                    let depth = h - target[1];
                    let allowed = depth / el.sin() + 2.0;
                    if first.is_some_and(|k| r - k as f64 * 0.5 > allowed) {
                        continue;
                    }
                    let dir = [-dir_out[0], -dir_out[1], -dir_out[2]];
                    let reach = r + 4.0 * f64::from(1u32 << (fine_level + 1));
                    let mut best: Option<(f64, bool)> = None;
                    let dc = drawn(&cbuf, eye, true);
                    if let Some(hh) = hit(&dc, eye, dir, reach) {
                        best = Some(hh);
                    }
                    for fb in &fbufs {
                        let df = drawn(fb, eye, skirts_fine);
                        if let Some(hh) = hit(&df, eye, dir, reach) {
                            if best.is_none_or(|b| hh.0 < b.0) {
                                best = Some(hh);
                            }
                        }
                    }
                    rays += 1;
                    match best {
                        None => {
                            misses += 1;
                            if misses <= 6 {
                                // Where the ray crosses the face plane and the meshes' heights there.
                                let a = if along_x { 0 } else { 2 };
                                let tf = (face - eye[a]) / dir[a];
                                let pc = [
                                    eye[0] + dir[0] * tf,
                                    eye[1] + dir[1] * tf,
                                    eye[2] + dir[2] * tf,
                                ];
                                let down = [0.0, -1.0, 0.0];
                                let vh = |d: &Drawn, off: f64| {
                                    let mut o = pc;
                                    o[a] += off;
                                    o[1] = 200.0;
                                    hit(d, o, down, 400.0).map(|h| 200.0 - h.0)
                                };
                                let up_eye = [pc[0], 300.0, pc[2]];
                                let dc_all = drawn(&cbuf, up_eye, true);
                                let df_all: Vec<Drawn> =
                                    fbufs.iter().map(|b| drawn(b, up_eye, true)).collect();
                                let fine_h: Vec<Option<f64>> =
                                    df_all.iter().map(|d| vh(d, -0.05)).collect();
                                println!(
                                    "  miss: dir {dir:.3?} crosses face at {pc:.2?}; true h {:?}; coarse h(+) {:?} h(-) {:?}; fine h(-) {:?} h(+) {:?}",
                                    surface(grid, pc[0] + if along_x {0.01} else {0.0}, pc[2] + if along_x {0.0} else {0.01}, 96),
                                    vh(&dc_all, 0.05), vh(&dc_all, -0.05), fine_h,
                                    df_all.iter().map(|d| vh(d, 0.05)).collect::<Vec<_>>()
                                );
                            }
                            if examples.len() < 5 {
                                examples.push((coarse, along_x, target, eye));
                            }
                        }
                        Some((_, true)) => skirt_hits += 1,
                        _ => {}
                    }
                }
            }
        }
        println!(
            "fine level {fine_level}: {rays} rays, {misses} misses, {skirt_hits} through skirts; {examples:?}"
        );
    }
}

#[test]
fn open_edges() {
    let Ok(path) = std::env::var("OPEN_WORLD") else {
        return;
    };
    let project = Project::load(std::path::Path::new(&path)).expect("load");
    let grid = &project.grid;
    let table = &project.header.materials;
    for level in 0..=5u32 {
        let key = NodeKey::containing(
            ChunkPos::new(
                std::env::var("OPEN_X")
                    .ok()
                    .and_then(|v| v.parse().ok())
                    .unwrap_or(2),
                0,
                2,
            ),
            level,
        );
        let mut buf = MeshBuffer::new();
        mesh_node(grid, key, table, &mut buf).expect("mesh");
        let mut edges = std::collections::HashMap::new();
        for t in buf.solid_indices.chunks_exact(3) {
            for k in 0..3 {
                let (a, b) = (t[k], t[(k + 1) % 3]);
                *edges.entry((a.min(b), a.max(b))).or_insert(0) += 1;
            }
        }
        let b = key.voxel_box();
        let s = (1u32 << level) as f32;
        let mut open = Vec::new();
        for (&(a, c), &n) in &edges {
            if n != 1 {
                continue;
            }
            let (pa, pc) = (buf.positions[a as usize], buf.positions[c as usize]);
            let m = [0, 1, 2].map(|i| 0.5 * (pa[i] + pc[i]));
            let lo = [b.min.x, b.min.y, b.min.z];
            let hi = [b.max.x, b.max.y, b.max.z];
            let near_face = (0..3)
                .any(|i| (m[i] - lo[i] as f32).abs() <= s || (m[i] - hi[i] as f32).abs() <= s);
            if !near_face {
                open.push(m);
            }
        }
        let mut flipped = Vec::new();
        for t in buf.solid_indices.chunks_exact(3) {
            let p = [0, 1, 2].map(|k| f(buf.positions[t[k] as usize]));
            let g = cross(sub(p[1], p[0]), sub(p[2], p[0]));
            let n: V = [0, 1, 2].map(|i| {
                (0..3)
                    .map(|k| f64::from(buf.normals[t[k] as usize][i]))
                    .sum::<f64>()
            });
            if dot(g, n) < 0.0 {
                flipped.push(p[0]);
            }
        }
        println!(
            "level {level}: {} triangles, {} open edges inside: {:?}; {} flipped {:?}",
            buf.solid_indices.len() / 3,
            open.len(),
            &open[..open.len().min(5)],
            flipped.len(),
            &flipped[..flipped.len().min(4)]
        );
    }
}

#[test]
fn root_view() {
    let Ok(path) = std::env::var("ROOT_WORLD") else {
        return;
    };
    let project = Project::load(std::path::Path::new(&path)).expect("load");
    let grid = &project.grid;
    let table = &project.header.materials;
    let key = NodeKey::containing(ChunkPos::new(2, 0, 2), 5);
    let mut buf = MeshBuffer::new();
    mesh_node(grid, key, table, &mut buf).expect("mesh");
    let eye: V = [-225.79, 503.35, 3.0];
    let target: V = [185.25, 28.0, 343.5];
    let cam = strata::viewport::camera::EditorCamera::looking_at(
        three_d::Vec3::new(eye[0] as f32, eye[1] as f32, eye[2] as f32),
        three_d::Vec3::new(target[0] as f32, target[1] as f32, target[2] as f32),
    );
    // All triangles, both facings.
    let all: Vec<[V; 3]> = buf
        .solid_indices
        .chunks_exact(3)
        .map(|t| {
            [
                f(buf.positions[t[0] as usize]),
                f(buf.positions[t[1] as usize]),
                f(buf.positions[t[2] as usize]),
            ]
        })
        .collect();
    let d = Drawn {
        skirt: vec![false; all.len()],
        tris: all.clone(),
    };
    let (mut front, mut back, mut none) = (0, 0, 0);
    let mut backs = Vec::new();
    let mut art = String::new();
    for py in (0..350).step_by(6) {
        art.push('\n');
        for px in (0..640).step_by(6) {
            let ray = cam.pick_ray(px as f32, py as f32, 640.0, 350.0);
            let dir = f(ray.dir);
            match hit(&d, eye, dir, 1e5) {
                None => {
                    none += 1;
                    art.push('.');
                }
                Some((t, _)) => {
                    // Which triangle: find it again.
                    let p = [
                        eye[0] + dir[0] * t,
                        eye[1] + dir[1] * t,
                        eye[2] + dir[2] * t,
                    ];
                    let tri = all.iter().find(|tr| {
                        let dd = Drawn {
                            skirt: vec![false],
                            tris: vec![**tr],
                        };
                        hit(&dd, eye, dir, 1e5).is_some_and(|h| (h.0 - t).abs() < 1e-6)
                    });
                    if let Some(tr) = tri {
                        let g = cross(sub(tr[1], tr[0]), sub(tr[2], tr[0]));
                        if dot(g, sub(eye, tr[0])) > 0.0 {
                            front += 1;
                            art.push('#');
                        } else {
                            back += 1;
                            art.push('b');
                            if backs.len() < 8 {
                                backs.push((px, py, p));
                            }
                        }
                    }
                }
            }
        }
    }
    println!("front {front} back {back} none {none}; backs {backs:?}{art}");
}
