//! kD tree tests: validator after every build, queries against brute force and against parry3d.

use parry3d::math::Vector;
use parry3d::query::{Ray as PRay, RayCast};
use parry3d::shape::TriMesh;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::test_meshes::{brute_closest, quad_soup, random_ray, test_meshes, Mesh};
use super::*;

#[test]
fn nodes_are_twelve_bytes_and_pack_fields() {
    assert_eq!(size_of::<Node>(), 12);
    let b = Node::branch(2, [1.5, -3.0], (1 << 28) - 1, [false, true]);
    assert!(!b.is_leaf());
    assert_eq!(
        (b.axis(), b.splits(), b.child()),
        (2, [1.5, -3.0], (1 << 28) - 1)
    );
    assert_eq!((b.child_is_leaf(0), b.child_is_leaf(1)), (false, true));
    let b = Node::branch(0, [0.0, 1.0], 5, [true, false]);
    assert_eq!(
        (b.axis(), b.child(), b.child_is_leaf(0), b.child_is_leaf(1)),
        (0, 5, true, false)
    );
    let l = Node::leaf(&[7, 9]);
    assert!(l.is_leaf());
    assert_eq!(&*l.triangles(), &[7, 9]);
    assert_eq!(&*Node::leaf(&[4]).triangles(), &[4]);
}

#[test]
fn bad_meshes_are_rejected() {
    let p = [[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]];
    assert!(KdTree::build(&MeshRef::new(&p, &[0, 1])).is_err());
    assert!(KdTree::build(&MeshRef::new(&p, &[0, 1, 3])).is_err());
    let nan = [[f32::NAN, 0.0, 0.0], p[1], p[2]];
    assert!(KdTree::build(&MeshRef::new(&nan, &[0, 1, 2])).is_err());
    // A non-finite vertex that no triangle uses is fine.
    assert!(KdTree::build(&MeshRef::new(&nan, &[1, 2, 1])).is_ok());
    let none = MeshRef::new(&p, &[]);
    let empty = KdTree::build(&none).expect("empty mesh");
    empty.assert_valid(&none);
    assert!(empty.is_empty());
    let ray = Ray {
        origin: [0.0; 3],
        dir: [1.0, 0.0, 0.0],
    };
    assert_eq!(empty.raycast(&none, &ray, 10.0), None);
    let mut out = Vec::new();
    empty.query_aabb(&none, [-1.0; 3], [1.0; 3], &mut out);
    assert!(out.is_empty());
}

#[test]
fn trees_are_valid_and_small() {
    let mut scratch = BuildScratch::default();
    let mut tree = KdTree::new();
    for m in test_meshes() {
        tree.rebuild(&m.mesh(), &mut scratch).expect("builds");
        tree.assert_valid(&m.mesh());
        // Everything but the triangle soup is made of quads, and gets a quad tree.
        assert_eq!(
            tree.is_quad_tree(),
            !m.name.starts_with("soup"),
            "{}",
            m.name
        );
        // Every leaf but at most one holds two triangles, so there are fewer nodes than triangles
        // (12 bytes per triangle at most).
        let single = tree
            .nodes()
            .iter()
            .filter(|n| n.is_leaf() && n.triangles().len() == 1)
            .count();
        assert!(single <= 1, "{}: {single} one-triangle leaves", m.name);
        assert!(
            tree.nodes().len() <= tree.triangle_count(),
            "{}: {} nodes for {} triangles",
            m.name,
            tree.nodes().len(),
            tree.triangle_count()
        );
    }
}

#[test]
fn corrupted_trees_fail_validation() {
    let m = &test_meshes()[0];
    let tree = KdTree::build(&m.mesh()).expect("builds");
    let mut bad = tree.clone();
    let at = bad
        .nodes
        .iter()
        .position(|n| !n.is_leaf())
        .expect("a branch");
    let [s0, s1] = bad.nodes[at].splits();
    let old = bad.nodes[at];
    let kinds = [old.child_is_leaf(0), old.child_is_leaf(1)];
    bad.nodes[at] = Node::branch(old.axis(), [s0 - 0.5, s1], old.child(), kinds);
    let r = std::panic::catch_unwind(|| bad.assert_valid(&m.mesh()));
    assert!(r.is_err(), "a plane that cuts its triangles passed");
    let mut bad = tree.clone();
    let leaf = bad
        .nodes
        .iter()
        .position(|n| n.is_leaf() && n.triangles().len() == 2)
        .expect("a full leaf");
    let first = bad.nodes[leaf].triangles()[0];
    bad.nodes[leaf] = Node::leaf(&[first, first]);
    let r = std::panic::catch_unwind(|| bad.assert_valid(&m.mesh()));
    assert!(r.is_err(), "a duplicated triangle passed");
    // A quad leaf whose box misses part of its quad.
    assert!(tree.is_quad_tree());
    let mut bad = tree.clone();
    let leaf = bad
        .nodes
        .iter()
        .position(|n| n.is_quad_leaf() && n.quad_box()[3] > 1)
        .expect("a quad leaf");
    let node = bad.nodes[leaf];
    let mut q = node.quad_box();
    q[3] = q[0];
    bad.nodes[leaf] = Node::quad_leaf(node.triangles()[0], q);
    let r = std::panic::catch_unwind(|| bad.assert_valid(&m.mesh()));
    assert!(r.is_err(), "a quad box that cuts its quad passed");
}

#[test]
fn quad_leaves_pack_their_box() {
    let q = [0, 1023, 512, 1, 1022, 1023];
    let n = Node::quad_leaf(40, q);
    assert!(n.is_leaf() && n.is_quad_leaf());
    assert_eq!(n.quad_box(), q);
    assert_eq!(&*n.triangles(), &[40, 41]);
    assert!(!Node::leaf(&[4, 5]).is_quad_leaf());
}

/// Rays along the axes and in the axis planes (direction components exactly 0, so plane crossings
/// are infinite or NaN) against voxel-face quads, whose boxes are flat: same hits as brute force.
#[test]
fn axis_aligned_rays_match_brute_force() {
    let mut rng = ChaCha8Rng::seed_from_u64(14);
    for m in test_meshes().iter().filter(|m| m.name.starts_with("quads")) {
        let tree = KdTree::build(&m.mesh()).expect("builds");
        let (lo, hi) = tree.bounds();
        let mut hits = 0;
        for i in 0..3000 {
            // Origins on the voxel grid and half-way between, so many rays run inside face planes.
            let origin: [f32; 3] = std::array::from_fn(|a| {
                let v = rng.random_range(lo[a] as i32 - 2..hi[a] as i32 + 2) as f32;
                if rng.random_bool(0.5) {
                    v
                } else {
                    v + 0.5
                }
            });
            let mut dir = [0.0f32; 3];
            dir[i % 3] = if rng.random_bool(0.5) { 1.0 } else { -1.0 };
            if i % 2 == 1 {
                dir[(i + 1) % 3] = rng.random_range(-1.0..1.0);
            }
            let ray = Ray { origin, dir };
            let got = tree.raycast(&m.mesh(), &ray, 1000.0);
            let want = brute_closest(m, &ray, 1000.0);
            assert_eq!(got.map(|h| h.t), want, "{}: {ray:?}", m.name);
            hits += usize::from(want.is_some());
        }
        assert!(hits > 300, "{}: only {hits} hits", m.name);
    }
}

#[test]
fn aabb_queries_match_brute_force() {
    let mut rng = ChaCha8Rng::seed_from_u64(11);
    let mut out = Vec::new();
    for m in test_meshes() {
        let tree = KdTree::build(&m.mesh()).expect("builds");
        let (lo, hi) = tree.bounds();
        let mut nonempty = 0;
        for _ in 0..500 {
            let min: [f32; 3] = std::array::from_fn(|a| rng.random_range(lo[a] - 2.0..hi[a]));
            let max: [f32; 3] = std::array::from_fn(|a| min[a] + rng.random_range(0.0..4.0));
            out.clear();
            tree.query_aabb(&m.mesh(), min, max, &mut out);
            out.sort_unstable();
            let want: Vec<u32> = (0..m.indices.len() / 3)
                .filter(|&t| {
                    let c = [0, 1, 2].map(|k| m.positions[m.indices[t * 3 + k] as usize]);
                    (0..3).all(|a| {
                        c.iter().any(|p| p[a] <= max[a]) && c.iter().any(|p| p[a] >= min[a])
                    })
                })
                .map(|t| t as u32)
                .collect();
            assert_eq!(out, want, "{}: box {min:?}..{max:?}", m.name);
            nonempty += usize::from(!out.is_empty());
        }
        assert!(nonempty > 50, "{}: too few boxes hit ({nonempty})", m.name);
    }
}

#[test]
fn raycasts_match_brute_force() {
    let mut rng = ChaCha8Rng::seed_from_u64(12);
    let mut meshes = test_meshes();
    meshes.push(quad_soup(&mut rng, 300, true));
    for m in meshes {
        let tree = KdTree::build(&m.mesh()).expect("builds");
        let (lo, hi) = tree.bounds();
        for i in 0..2000 {
            let ray = random_ray(&mut rng, &m, lo, hi);
            let max_t = if i % 5 == 0 { 4.0 } else { 1000.0 };
            let got = tree.raycast(&m.mesh(), &ray, max_t);
            let want = brute_closest(&m, &ray, max_t);
            assert_eq!(got.map(|h| h.t), want, "{}: {ray:?}", m.name);
            let any = tree.raycast_any(&m.mesh(), &ray, max_t);
            assert_eq!(any, want.is_some(), "{}: any-hit {ray:?}", m.name);
            if let Some(h) = got {
                let n = h.normal;
                assert!((n[0] * n[0] + n[1] * n[1] + n[2] * n[2] - 1.0).abs() < 1e-4);
            }
        }
    }
}

/// A tree deeper than the walk's small stack (16 entries) walks on the large one: a row of 2^17
/// specks along X, each beside the ray's path, and a wall behind them. A ray along the row keeps the
/// far child of every branch on its way down (depth − 1 entries, more than 16), and its only hit is
/// the wall in the last of them; shallow trees walk on the small stack.
#[test]
fn deep_and_shallow_trees_walk_on_stacks_that_fit() {
    let n = 1u32 << 17;
    let specks = (0..n).map(|k| {
        let x = k as f32;
        [
            [x, 0.45, 0.0],
            [x, 0.5, 0.0],
            [x, 0.5, 0.05],
            [x, 0.45, 0.05],
        ]
    });
    // The whole row is one unit across, so every branch splits X (the longest side of its region).
    let wall = n as f32 + 1.0;
    let wall_quad = [
        [wall, -0.5, -0.5],
        [wall, 0.5, -0.5],
        [wall, 0.5, 0.5],
        [wall, -0.5, 0.5],
    ];
    let row = Mesh::from_quads("row of specks", specks.chain([wall_quad]));
    let tree = KdTree::build(&row.mesh()).expect("builds");
    assert!(tree.depth() > 17, "depth {}", tree.depth());
    let mut rng = ChaCha8Rng::seed_from_u64(33);
    for _ in 0..20 {
        let origin = [
            -1.0,
            rng.random_range(-0.4..0.4),
            rng.random_range(-0.4..0.4),
        ];
        let ray = Ray {
            origin,
            dir: [1.0, 0.0, 0.0],
        };
        let hit = tree.raycast(&row.mesh(), &ray, f32::INFINITY);
        assert_eq!(hit.map(|h| h.triangle / 2), Some(n), "{ray:?}");
        assert_eq!(hit.map(|h| h.t), Some(wall + 1.0));
    }
    for m in [
        quad_soup(&mut rng, 3, false),
        quad_soup(&mut rng, 40, false),
    ] {
        let tree = KdTree::build(&m.mesh()).expect("builds");
        assert!(tree.depth() <= 16, "{}: depth {}", m.name, tree.depth());
        let (lo, hi) = tree.bounds();
        for _ in 0..300 {
            let ray = random_ray(&mut rng, &m, lo, hi);
            let got = tree.raycast(&m.mesh(), &ray, 1000.0);
            assert_eq!(
                got.map(|h| h.t),
                brute_closest(&m, &ray, 1000.0),
                "{}: {ray:?}",
                m.name
            );
        }
    }
}

/// How well-posed a hit on triangle `tri` is: `(|cos|` of the incidence angle, smallest barycentric
/// coordinate`)`; `None` when the ray misses its plane inside the triangle.
fn conditioning(m: &Mesh, ray: &Ray, tri: usize) -> (f64, f64) {
    let c = [0, 1, 2].map(|k| m.positions[m.indices[tri * 3 + k] as usize]);
    let w = |p: [f32; 3]| p.map(f64::from);
    let (a, b, cc) = (w(c[0]), w(c[1]), w(c[2]));
    let e1 = [b[0] - a[0], b[1] - a[1], b[2] - a[2]];
    let e2 = [cc[0] - a[0], cc[1] - a[1], cc[2] - a[2]];
    let n = [
        e1[1] * e2[2] - e1[2] * e2[1],
        e1[2] * e2[0] - e1[0] * e2[2],
        e1[0] * e2[1] - e1[1] * e2[0],
    ];
    let d = w(ray.dir);
    let nl = (n[0] * n[0] + n[1] * n[1] + n[2] * n[2]).sqrt();
    let dl = (d[0] * d[0] + d[1] * d[1] + d[2] * d[2]).sqrt();
    let cos = ((n[0] * d[0] + n[1] * d[1] + n[2] * d[2]) / (nl * dl)).abs();
    // Barycentrics of the ray's crossing with the triangle's plane (the ray may miss the triangle).
    let o = w(ray.origin);
    let den = n[0] * d[0] + n[1] * d[1] + n[2] * d[2];
    let t = ((a[0] - o[0]) * n[0] + (a[1] - o[1]) * n[1] + (a[2] - o[2]) * n[2]) / den;
    let p = [0, 1, 2].map(|k| o[k] + t * d[k] - a[k]);
    let (d11, d12, d22) = (
        e1.iter().zip(&e1).map(|(x, y)| x * y).sum::<f64>(),
        e1.iter().zip(&e2).map(|(x, y)| x * y).sum::<f64>(),
        e2.iter().zip(&e2).map(|(x, y)| x * y).sum::<f64>(),
    );
    let (p1, p2) = (
        p.iter().zip(&e1).map(|(x, y)| x * y).sum::<f64>(),
        p.iter().zip(&e2).map(|(x, y)| x * y).sum::<f64>(),
    );
    let den = d11 * d22 - d12 * d12;
    let u = (d22 * p1 - d12 * p2) / den;
    let v = (d11 * p2 - d12 * p1) / den;
    (cos, u.min(v).min(1.0 - u - v).abs())
}

/// 100 000 seeded rays per mesh: same hit or miss as parry3d, distance within 1e-4 relative
/// (`|Δt| / max(t, 1)`). A disagreement is tolerated only when the ray is ill-conditioned for an f32
/// computation — it grazes the triangle (|cos| < 1e-3, where parry's f32 `t` has errors of order
/// 1e-7 / |cos|) or crosses within 1e-5 (barycentric) of an edge — and such rays must stay under
/// 0.05 % of the total.
#[test]
fn raycasts_agree_with_parry() {
    const RAYS: usize = 100_000;
    let mut rng = ChaCha8Rng::seed_from_u64(13);
    for m in test_meshes() {
        let tree = KdTree::build(&m.mesh()).expect("builds");
        let vertices: Vec<Vector> = m
            .positions
            .iter()
            .map(|p| Vector::new(p[0], p[1], p[2]))
            .collect();
        let tris: Vec<[u32; 3]> = m
            .indices
            .chunks_exact(3)
            .map(|t| [t[0], t[1], t[2]])
            .collect();
        let parry = TriMesh::new(vertices, tris).expect("parry builds");
        let (lo, hi) = tree.bounds();
        let (mut hits, mut ill) = (0, 0);
        for _ in 0..RAYS {
            let ray = random_ray(&mut rng, &m, lo, hi);
            let ours = tree.raycast(&m.mesh(), &ray, 1000.0);
            let pray = PRay::new(
                Vector::new(ray.origin[0], ray.origin[1], ray.origin[2]),
                Vector::new(ray.dir[0], ray.dir[1], ray.dir[2]),
            );
            let theirs = parry.cast_local_ray_and_get_normal(&pray, 1000.0, true);
            let agree = match (ours, theirs) {
                (None, None) => true,
                (Some(h), Some(p)) => {
                    hits += 1;
                    (h.t - p.time_of_impact).abs() / p.time_of_impact.abs().max(1.0) <= 1e-4
                }
                _ => false,
            };
            if agree {
                continue;
            }
            let tris = [
                ours.map(|h| h.triangle as usize),
                theirs.map(|p| p.subshape as usize),
            ];
            let posed = tris.iter().flatten().all(|&t| {
                let (cos, edge) = conditioning(&m, &ray, t);
                cos >= 1e-3 && edge >= 1e-5
            });
            assert!(
                !posed,
                "{}: {ray:?}: ours {ours:?}, parry {theirs:?}",
                m.name
            );
            ill += 1;
        }
        assert!(hits > RAYS * 3 / 10, "{}: only {hits} hits", m.name);
        assert!(
            ill * 2000 <= RAYS,
            "{}: {ill} ill-conditioned disagreements",
            m.name
        );
        eprintln!(
            "{}: {hits} hits, {ill} ill-conditioned disagreements",
            m.name
        );
    }
}
