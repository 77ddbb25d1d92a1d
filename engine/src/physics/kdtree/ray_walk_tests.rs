//! Tests of the ray walk (`ray_walk.rs`): branches over every kind of child pair, rays lying in split
//! planes, hostile rays, tiny trees and a tree whose walk needs the large stack, built by uneven
//! splits from a few thousand quads. Each compares the closest hit (and the any-hit answer) with
//! brute force over every triangle, and the early reads a walk makes for each leaf it reaches go
//! with that leaf.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::ray_walk::SHALLOW_STACK;
use super::test_meshes::{brute_closest, quad_soup, random_ray, soup, test_meshes, Mesh};
use super::*;

/// The raycast's `t` equals brute force's, and the any-hit answer says whether there is one.
fn assert_agrees(m: &Mesh, tree: &KdTree, ray: &Ray, max_t: f32) {
    let got = tree.raycast(&m.mesh(), ray, max_t).map(|h| h.t);
    let want = brute_closest(m, ray, max_t);
    assert_eq!(
        got.map(f32::to_bits),
        want.map(f32::to_bits),
        "{}: {ray:?} up to {max_t}",
        m.name
    );
    let any = tree.raycast_any(&m.mesh(), ray, max_t);
    assert_eq!(any, want.is_some(), "{}: any-hit {ray:?}", m.name);
}

/// The kinds of a branch's two children, as an index: 0 both leaves, 1 left leaf only, 2 right
/// leaf only, 3 both branches.
fn child_kinds(tree: &KdTree, branch: &Node) -> usize {
    let c = branch.child();
    let nodes = tree.nodes();
    usize::from(!nodes[c].is_leaf()) * 2 + usize::from(!nodes[c + 1].is_leaf())
}

/// Branches whose children are two leaves, a leaf and a branch (either way round) or two branches,
/// in quad trees and in trees of one or two triangles per leaf, from one triangle up: the same
/// hits as brute force, with rays in both directions (so either child is the near one).
#[test]
fn branches_over_every_child_kind_match_brute_force() {
    let mut rng = ChaCha8Rng::seed_from_u64(61);
    let mut seen = [[0usize; 4]; 2];
    for n in (1..=24).chain([40, 97, 250]) {
        for m in [quad_soup(&mut rng, n, n % 3 == 0), soup(&mut rng, n)] {
            let tree = KdTree::build(&m.mesh()).expect("builds");
            tree.assert_valid(&m.mesh());
            for node in tree.nodes().iter().filter(|node| !node.is_leaf()) {
                seen[usize::from(tree.is_quad_tree())][child_kinds(&tree, node)] += 1;
            }
            let (lo, hi) = tree.bounds();
            for i in 0..200 {
                let ray = random_ray(&mut rng, &m, lo, hi);
                let back = Ray {
                    origin: ray.origin,
                    dir: ray.dir.map(|d| -d),
                };
                let max_t = if i % 7 == 0 { 3.0 } else { 1000.0 };
                assert_agrees(&m, &tree, &ray, max_t);
                assert_agrees(&m, &tree, &back, max_t);
            }
        }
    }
    for (quads, kinds) in seen.iter().enumerate() {
        assert!(
            kinds.iter().all(|&k| k > 0),
            "quads {quads}: child kinds seen {kinds:?}"
        );
    }
}

/// Rays lying exactly in a split plane (direction 0 or −0 on its axis, so every crossing of that
/// plane is NaN and every other one on that axis ±inf), and rays crossing it at a right angle.
#[test]
fn rays_in_split_planes_match_brute_force() {
    let mut rng = ChaCha8Rng::seed_from_u64(62);
    let mut meshes: Vec<Mesh> = test_meshes()
        .into_iter()
        .filter(|m| m.name.starts_with("quads"))
        .collect();
    meshes.push(quad_soup(&mut rng, 60, false));
    for m in meshes {
        let tree = KdTree::build(&m.mesh()).expect("builds");
        let (lo, hi) = tree.bounds();
        let branches: Vec<Node> = tree
            .nodes()
            .iter()
            .filter(|node| !node.is_leaf())
            .copied()
            .collect();
        for (k, node) in branches.iter().enumerate().filter(|(k, _)| k % 3 == 0) {
            let a = node.axis();
            for plane in node.splits() {
                let mut origin: [f32; 3] =
                    std::array::from_fn(|b| rng.random_range(lo[b] - 2.0..hi[b] + 2.0));
                origin[a] = plane;
                let mut dir: [f32; 3] = std::array::from_fn(|_| rng.random_range(-1.0..1.0));
                dir[a] = if k % 2 == 0 { 0.0 } else { -0.0 };
                assert_agrees(&m, &tree, &Ray { origin, dir }, 1000.0);
                let mut across = [0.0f32; 3];
                across[a] = if k % 2 == 0 { 1.0 } else { -1.0 };
                assert_agrees(
                    &m,
                    &tree,
                    &Ray {
                        origin,
                        dir: across,
                    },
                    1000.0,
                );
            }
        }
    }
}

/// NaN and infinite origins and directions, a zero direction, and NaN, negative, zero and infinite
/// reaches, on an empty tree, one triangle, one quad and a few quads: no panic, brute force's
/// answer (which is no hit wherever a NaN or infinity reaches the test).
#[test]
fn hostile_rays_and_tiny_trees() {
    let mut rng = ChaCha8Rng::seed_from_u64(63);
    let empty = Mesh {
        name: "empty".into(),
        positions: vec![[0.0; 3]],
        indices: Vec::new(),
    };
    let one = Mesh {
        name: "one triangle".into(),
        positions: vec![[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]],
        indices: vec![0, 1, 2],
    };
    let meshes = [
        empty,
        one,
        quad_soup(&mut rng, 1, false),
        quad_soup(&mut rng, 3, false),
    ];
    let (nan, inf) = (f32::NAN, f32::INFINITY);
    for m in meshes {
        let tree = KdTree::build(&m.mesh()).expect("builds");
        tree.assert_valid(&m.mesh());
        let center = if m.indices.is_empty() {
            [0.0; 3]
        } else {
            let (lo, hi) = tree.bounds();
            std::array::from_fn(|a| (lo[a] + hi[a]) / 2.0)
        };
        let outside = center.map(|c| c - 30.0);
        let rays = [
            ([nan, 0.0, 0.0], [0.0, 0.0, 1.0]),
            (outside, [nan, 1.0, 1.0]),
            (outside, [inf, 1.0, 1.0]),
            ([-inf, center[1], center[2]], [1.0, 0.0, 0.0]),
            (center, [0.0, 0.0, 0.0]),
            (center, [-0.0, -0.0, -0.0]),
            (outside, [1.0, 1.0, 1.0]),
            (outside, [1e-38, 1.0, 1.0]),
            (center, [0.3, -0.2, 1.0]),
            (center, [-0.3, 0.2, -1.0]),
        ];
        for (origin, dir) in rays {
            for max_t in [nan, -1.0, 0.0, 5.0, 1000.0, inf] {
                assert_agrees(&m, &tree, &Ray { origin, dir }, max_t);
            }
        }
    }
}

/// A tree deep enough that its walk needs more than the small stack's entries walks on the large
/// one, and a few thousand quads make it: speck `k` lies by the diagonal at `x = y = z = 1000
/// (k / n)⁵`. The mean of such a run lies near its top 30 %, so every split of the crowded low end
/// (on whichever axis the region is longest) cuts off that much above and leaves the rest, a run of
/// the same shape, to split again. A ray along the diagonal passes beside every speck and keeps the
/// far child of every branch on its way down; its only hit is the wall behind the last speck (this
/// test fails when the walk takes the small stack, whose slots then wrap).
#[test]
fn trees_deeper_than_the_small_stack_walk_on_the_large_one() {
    let n = 8000;
    let specks = (0..n).map(|k| {
        let x = 1000.0 * (k as f32 / n as f32).powi(5);
        // Off the diagonal by a tenth of its distance from the origin, a hundredth across.
        let (o, s) = (0.1 * x, 0.01 * x);
        [
            [x + o, x - o, x],
            [x + o + s, x - o, x],
            [x + o + s, x - o + s, x],
            [x + o, x - o + s, x],
        ]
    });
    // A wall across the diagonal behind the last speck.
    let w = 1001.0;
    let wall = [
        [w + 1.0, w - 1.0, w],
        [w, w + 1.0, w - 1.0],
        [w - 1.0, w, w + 1.0],
        [w - 1.0, w - 1.0, w + 2.0],
    ];
    let row = Mesh::from_quads("power-law diagonal", specks.chain([wall]));
    let tree = KdTree::build(&row.mesh()).expect("builds");
    tree.assert_valid(&row.mesh());
    assert!(
        tree.depth() > SHALLOW_STACK + 1,
        "depth {} needs only the small stack",
        tree.depth()
    );
    let mut rng = ChaCha8Rng::seed_from_u64(64);
    for _ in 0..20 {
        let d = rng.random_range(-1e-3..1e-3);
        let ray = Ray {
            origin: [-1.0, -1.0 + d, -1.0],
            dir: [1.0, 1.0, 1.0],
        };
        let hit = tree.raycast(&row.mesh(), &ray, f32::INFINITY);
        assert_eq!(hit.map(|h| h.triangle / 2), Some(n), "{ray:?}");
        assert_agrees(&row, &tree, &ray, 3000.0);
    }
}

/// The counting raycast answers as the plain one, and counts what its walk takes in hand: nothing
/// for a ray that misses the tree's bounds, one leaf for a one-quad tree, and at least a leaf for
/// every hit.
#[test]
fn counted_raycasts_answer_alike_and_count_the_walk() {
    let mut rng = ChaCha8Rng::seed_from_u64(64);
    for m in test_meshes() {
        let tree = KdTree::build(&m.mesh()).expect("builds");
        let (lo, hi) = tree.bounds();
        let mut total = WalkCounts::default();
        for _ in 0..300 {
            let ray = random_ray(&mut rng, &m, lo, hi);
            let mut counts = WalkCounts::default();
            let got = tree.raycast_counted(&m.mesh(), &ray, 1000.0, &mut counts);
            assert_eq!(got, tree.raycast(&m.mesh(), &ray, 1000.0), "{}", m.name);
            if got.is_some() {
                assert!(counts.leaves >= 1, "{}: {counts:?}", m.name);
            }
            assert!(counts.branches < tree.nodes().len() as u64);
            total.branches += counts.branches;
            total.leaves += counts.leaves;
        }
        assert!(total.branches > 0 && total.leaves > 0, "{}", m.name);
        let away = Ray {
            origin: [hi[0] + 5.0, hi[1] + 5.0, hi[2] + 5.0],
            dir: [1.0, 0.0, 0.0],
        };
        let mut counts = WalkCounts::default();
        assert_eq!(
            tree.raycast_counted(&m.mesh(), &away, 1000.0, &mut counts),
            None
        );
        assert_eq!(counts, WalkCounts::default(), "{}", m.name);
        // A NaN origin is not rejected up front (its crossings are NaN, which keep every child), so
        // its walk may take the whole tree in hand; its answer is still no hit.
        let nan = Ray {
            origin: [f32::NAN; 3],
            dir: [0.0, -1.0, 0.0],
        };
        let mut counts = WalkCounts::default();
        assert_eq!(
            tree.raycast_counted(&m.mesh(), &nan, 1000.0, &mut counts),
            None
        );
        assert!(counts.branches < tree.nodes().len() as u64);
    }
    let one = Mesh::from_quads(
        "one quad",
        [[
            [0.0, 0.0, 0.0],
            [1.0, 0.0, 0.0],
            [1.0, 0.0, 1.0],
            [0.0, 0.0, 1.0],
        ]],
    );
    let tree = KdTree::build(&one.mesh()).expect("builds");
    let ray = Ray {
        origin: [0.5, 1.0, 0.25],
        dir: [0.0, -1.0, 0.0],
    };
    let mut counts = WalkCounts::default();
    let hit = tree.raycast_counted(&one.mesh(), &ray, 1000.0, &mut counts);
    assert_eq!(hit.map(|h| (h.t, h.triangle)), Some((1.0, 0)));
    assert_eq!(
        counts,
        WalkCounts {
            branches: 0,
            leaves: 1
        }
    );
}

/// The closest hit by a walk with no pruning at all: every leaf, depth first, the near child first
/// (by the sign of the direction on the branch's axis), each through the same leaf test; of hits
/// at one `t` the first one met wins. With the number of triangles hit at that `t`.
fn reference_closest(
    tree: &KdTree,
    m: &Mesh,
    ray: &Ray,
    max_t: f32,
) -> (Option<(u32, f32)>, usize) {
    let mut best: Option<(u32, f32)> = None;
    let mut tied = 0;
    let dir_len2 = ray.dir.iter().map(|d| d * d).sum::<f32>();
    let nodes = tree.nodes();
    let mut stack = vec![0usize];
    while let Some(at) = stack.pop() {
        let node = nodes[at];
        if node.is_leaf() {
            tree.leaf_hits(&m.mesh(), ray, dir_len2, node, |id, t| {
                if t >= 0.0 && t <= max_t {
                    match best {
                        Some((_, b)) if t == b => tied += 1,
                        Some((_, b)) if t > b => {}
                        _ => (best, tied) = (Some((id, t)), 1),
                    }
                }
                false
            });
            continue;
        }
        let near = usize::from(ray.dir[node.axis()].is_sign_negative());
        stack.push(node.child() + 1 - near);
        stack.push(node.child() + near);
    }
    (best, tied)
}

/// The walk (its pruning, its segments, its stack, its bit mask of directions) answers every ray as
/// the reference walk above does, triangle for triangle, rays aimed at shared corners and edges
/// included, where several triangles are hit at one `t` and the order the walk meets them decides.
#[test]
fn walk_answers_as_a_walk_without_pruning_ties_included() {
    let mut rng = ChaCha8Rng::seed_from_u64(65);
    let mut tied_rays = 0;
    for m in test_meshes() {
        let tree = KdTree::build(&m.mesh()).expect("builds");
        let (lo, hi) = tree.bounds();
        for i in 0..1500 {
            let ray = if i % 3 == 0 {
                random_ray(&mut rng, &m, lo, hi)
            } else {
                // Toward a corner (i % 3 == 1) or an edge's midpoint of a random triangle.
                let origin: [f32; 3] =
                    std::array::from_fn(|a| rng.random_range(lo[a] - 3.0..hi[a] + 3.0));
                let t = rng.random_range(0..m.indices.len() / 3);
                let [a, b, _] = [0, 1, 2].map(|k| m.positions[m.indices[t * 3 + k] as usize]);
                let w = if i % 3 == 1 { 0.0 } else { 0.5 };
                let dir: [f32; 3] = std::array::from_fn(|k| a[k] + w * (b[k] - a[k]) - origin[k]);
                Ray { origin, dir }
            };
            let (want, tied) = reference_closest(&tree, &m, &ray, 1000.0);
            tied_rays += usize::from(tied > 1);
            let got = tree.raycast(&m.mesh(), &ray, 1000.0);
            assert_eq!(
                got.map(|h| (h.triangle, h.t.to_bits())),
                want.map(|(id, t)| (id, t.to_bits())),
                "{} ray {i}: {ray:?}",
                m.name
            );
        }
    }
    // The tie rule is exercised, not just the plain closest hit.
    assert!(tied_rays > 100, "only {tied_rays} rays with tied hits");
}

/// The walk's `early` read runs for every leaf it reaches (before the box test, so for at least the
/// leaves it tests), and each leaf test gets the value read for that same leaf; a triangle tree's
/// leaves have no box, so every leaf read is also tested.
#[test]
fn early_reads_go_with_their_leaf() {
    let mut rng = ChaCha8Rng::seed_from_u64(66);
    for m in test_meshes() {
        let tree = KdTree::build(&m.mesh()).expect("builds");
        let (lo, hi) = tree.bounds();
        let (mut all_reads, mut all_tests) = (0usize, 0usize);
        for i in 0..500 {
            let ray = random_ray(&mut rng, &m, lo, hi);
            let (mut reads, mut tests, mut leaves) = (0usize, 0usize, 0usize);
            tree.walk_visiting(
                &ray,
                1000.0,
                |node| {
                    reads += 1;
                    node
                },
                |node, read, _| {
                    tests += 1;
                    assert_eq!(node, read, "{} ray {i}", m.name);
                    false
                },
                |node| leaves += usize::from(node.is_leaf()),
            );
            assert_eq!(reads, leaves, "{} ray {i}", m.name);
            assert!(tests <= reads, "{} ray {i}", m.name);
            if !tree.is_quad_tree() {
                assert_eq!(tests, reads, "{} ray {i}", m.name);
            }
            (all_reads, all_tests) = (all_reads + reads, all_tests + tests);
        }
        assert!(all_tests > 0, "{}", m.name);
        if tree.is_quad_tree() {
            // Quad boxes reject some leaves after their read.
            assert!(all_tests < all_reads, "{}", m.name);
        }
    }
}

/// The nodes a closest-hit walk takes in hand, in order, hashed per test mesh over seeded rays and
/// pinned on today's trees: a change to what the walk prunes or to the order it visits (not only to
/// its answers) fails here, as when a branch whose near child is missed goes straight to its far
/// child instead of through the stack. A change of the trees re-pins it.
#[test]
fn walks_take_the_same_nodes_in_the_same_order() {
    let mut rng = ChaCha8Rng::seed_from_u64(67);
    let mut got = Vec::new();
    for m in test_meshes() {
        let tree = KdTree::build(&m.mesh()).expect("builds");
        let (lo, hi) = tree.bounds();
        let mut hash = 0xcbf2_9ce4_8422_2325u64;
        for _ in 0..500 {
            let ray = random_ray(&mut rng, &m, lo, hi);
            let dir_len2 = ray.dir.iter().map(|d| d * d).sum::<f32>();
            let mut best: Option<f32> = None;
            tree.walk_visiting(
                &ray,
                1000.0,
                |_| (),
                |node, (), limit| {
                    tree.leaf_hits(&m.mesh(), &ray, dir_len2, node, |_, t| {
                        if t >= 0.0 && t <= *limit && best.is_none_or(|b| t < b) {
                            best = Some(t);
                            *limit = t;
                        }
                        false
                    });
                    false
                },
                |node| {
                    for word in [node.words[0], node.words[1], node.meta] {
                        hash = (hash ^ u64::from(word)).wrapping_mul(0x0100_0000_01b3);
                    }
                },
            );
        }
        got.push(hash);
    }
    assert_eq!(
        got,
        [
            11479243728454953961,
            7938269611990398691,
            6122205125624389238,
            6747750467935434704,
            1929880310484177453,
            10398087313797149863,
        ],
        "visit hashes per test mesh"
    );
}
