//! Tests of the level cross-fades: which nodes fade in and out as the camera moves, and how far.

use super::*;
use strata_engine::voxel::ChunkPos;

/// Side of the test world in chunks (one level-3 root), one chunk tall.
const SIDE: i32 = 8;
const ROOT: NodeKey = NodeKey {
    level: 3,
    pos: ChunkPos { x: 0, y: 0, z: 0 },
};
/// Dither thresholds sampled per chunk.
const SAMPLES: usize = 64;

/// A random cover of the root: every chunk of the bottom layer in exactly one node.
fn random_cover(rng: &mut fastrand::Rng) -> FxHashSet<NodeKey> {
    let mut out = FxHashSet::default();
    let mut stack = vec![ROOT];
    while let Some(n) = stack.pop() {
        if n.level > 0 && rng.f32() < 0.6 {
            // Only the bottom layer of children: the world is one chunk tall.
            stack.extend(n.children().into_iter().filter(|c| c.pos.y == 0));
        } else {
            out.insert(n);
        }
    }
    out
}

fn holds(node: NodeKey, chunk: ChunkPos) -> bool {
    NodeKey::containing(chunk, node.level) == node
}

fn chunks() -> impl Iterator<Item = ChunkPos> {
    (0..SIDE).flat_map(|z| (0..SIDE).map(move |x| ChunkPos::new(x, 0, z)))
}

fn threshold(i: usize) -> f32 {
    (i as f32 + 0.5) / SAMPLES as f32
}

/// For every chunk and dither threshold: how many drawn nodes show it.
fn shown_counts(
    fades: &Fades,
    visible: &FxHashSet<NodeKey>,
    leaving: &FxHashSet<NodeKey>,
    now: Instant,
) -> Vec<usize> {
    let mut drawn: Vec<(NodeKey, FadeState)> = visible
        .iter()
        .map(|&k| (k, fades.visible_state(k, now)))
        .collect();
    drawn.extend(
        leaving
            .iter()
            .filter_map(|&k| fades.leaving_state(k, now).map(|s| (k, s))),
    );
    let mut counts = Vec::new();
    for c in chunks() {
        for i in 0..SAMPLES {
            let d = threshold(i);
            counts.push(
                drawn
                    .iter()
                    .filter(|(k, s)| holds(*k, c) && s.shows(d))
                    .count(),
            );
        }
    }
    counts
}

#[test]
fn a_single_change_is_an_exact_cross_fade_and_then_settles() {
    let t0 = Instant::now();
    for seed in 0..40 {
        let mut rng = fastrand::Rng::with_seed(seed);
        let (a, b) = (random_cover(&mut rng), random_cover(&mut rng));
        let mut fades = Fades::default();
        assert!(fades.change(&FxHashSet::default(), &a, t0).is_empty());
        assert!(!fades.active(), "the first cover appears at once");
        let leaving: FxHashSet<NodeKey> = fades.change(&a, &b, t0).into_iter().collect();
        assert_eq!(leaving, a.difference(&b).copied().collect());
        for ms in [0, 1, 100, 200, 399] {
            let now = t0 + Duration::from_millis(ms);
            let counts = shown_counts(&fades, &b, &leaving, now);
            assert!(
                counts.iter().all(|&n| n == 1),
                "seed {seed}, {ms} ms: a pixel shows {:?} surfaces",
                counts.iter().find(|&&n| n != 1)
            );
        }
        let end = t0 + FADE;
        assert_eq!(
            fades.expire(end).into_iter().collect::<FxHashSet<_>>(),
            leaving
        );
        assert!(!fades.active());
        assert!(b
            .iter()
            .all(|&k| fades.visible_state(k, end) == FadeState::Full));
    }
}

#[test]
fn interrupted_fades_overlap_but_never_leave_a_gap() {
    let t0 = Instant::now();
    for seed in 0..40 {
        let mut rng = fastrand::Rng::with_seed(1000 + seed);
        let mut fades = Fades::default();
        let mut visible = FxHashSet::default();
        let mut leaving: FxHashSet<NodeKey> = FxHashSet::default();
        let mut now = t0;
        for _ in 0..12 {
            let next = random_cover(&mut rng);
            leaving.extend(fades.change(&visible, &next, now));
            leaving.retain(|k| !next.contains(k));
            visible = next;
            for _ in 0..3 {
                let counts = shown_counts(&fades, &visible, &leaving, now);
                assert!(
                    counts.iter().all(|&n| n >= 1),
                    "seed {seed}: a gap in the terrain"
                );
                now += Duration::from_millis(rng.u64(0..250));
                for k in fades.expire(now) {
                    leaving.remove(&k);
                }
            }
        }
        now += FADE;
        fades.expire(now);
        assert!(!fades.active());
    }
}

#[test]
fn a_node_that_leaves_without_replacement_goes_at_once() {
    let t0 = Instant::now();
    let mut fades = Fades::default();
    let old: FxHashSet<NodeKey> = [ROOT].into_iter().collect();
    assert!(fades.change(&old, &FxHashSet::default(), t0).is_empty());
    assert!(!fades.active());
}

#[test]
fn the_shader_uniform_encodes_the_state() {
    assert_eq!(FadeState::Full.uniform(), [0.0, 0.0]);
    assert_eq!(FadeState::In(0.25).uniform(), [1.0, 0.25]);
    assert_eq!(FadeState::Out(0.75).uniform(), [-1.0, 0.75]);
    assert!(FadeState::In(0.5).shows(0.49) && !FadeState::In(0.5).shows(0.5));
    assert!(FadeState::Out(0.5).shows(0.5) && !FadeState::Out(0.5).shows(0.49));
}
