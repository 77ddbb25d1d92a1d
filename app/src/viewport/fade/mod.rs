//! Cross-fades between levels of detail, so a node's shape and colour change gradually when the
//! view refines or coarsens instead of swapping in one frame.
//!
//! When the visible set changes, the nodes that join it and overlap nodes that leave it (a parent
//! giving way to its children, or children to their parent) fade in over [`FADE`], while the nodes
//! they replace stay on screen and fade out over the same time. Both use the same per-pixel dither
//! threshold `d` in [0, 1): a node fading in with progress `p` shows the pixels with `d < p`, one
//! fading out shows those with `d >= p`. Started together, the two are exact complements, so every
//! pixel shows one surface or the other and never the sky between them; and ground does not drop the
//! pixels it does not show but pushes them back (`terrain.frag`), so where one level's silhouette
//! reaches beyond the other's, its pixels still cover the sky there. A node that leaves in the
//! middle of its own fade-in starts its fade-out fully shown, so an interrupted fade can overlap but
//! never leave a gap. Nodes that appear where nothing was drawn (the first frame, new surface after
//! an edit) and nodes that leave with no replacement change at once.
//!
//! This module keeps the timing only; the scene keeps the leaving meshes alive and draws with the
//! states it reads here.

use std::time::{Duration, Instant};

use rustc_hash::{FxHashMap, FxHashSet};
use strata_engine::mesh::NodeKey;

/// How long a cross-fade takes.
pub const FADE: Duration = Duration::from_millis(400);

/// How a node is drawn this frame.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum FadeState {
    /// Fully shown.
    Full,
    /// Fading in: the pixels whose dither threshold is below the progress (0 to 1).
    In(f32),
    /// Fading out: the pixels whose dither threshold is at or above the progress (0 to 1).
    Out(f32),
}

impl FadeState {
    /// Whether a pixel with dither threshold `d` shows the node.
    pub fn shows(self, d: f32) -> bool {
        match self {
            Self::Full => true,
            Self::In(p) => d < p,
            Self::Out(p) => d >= p,
        }
    }

    /// The shader's `fade` uniform: (0, 0) full, (1, p) fading in, (−1, p) fading out.
    pub fn uniform(self) -> [f32; 2] {
        match self {
            Self::Full => [0.0, 0.0],
            Self::In(p) => [1.0, p],
            Self::Out(p) => [-1.0, p],
        }
    }
}

/// Fades in progress (see the module docs).
#[derive(Debug, Default)]
pub struct Fades {
    joining: FxHashMap<NodeKey, Instant>,
    leaving: FxHashMap<NodeKey, Instant>,
}

fn progress(start: Instant, now: Instant) -> f32 {
    (now.saturating_duration_since(start).as_secs_f32() / FADE.as_secs_f32()).min(1.0)
}

/// Every strict ancestor of the `keys`.
fn ancestors<'a>(keys: impl Iterator<Item = &'a NodeKey>) -> FxHashSet<NodeKey> {
    let mut out = FxHashSet::default();
    for k in keys {
        let mut up = k.parent();
        while let Some(p) = up {
            if !out.insert(p) {
                break;
            }
            up = p.parent();
        }
    }
    out
}

/// True when `key` or one of its ancestors is in `set`.
fn under(key: NodeKey, set: &FxHashSet<NodeKey>) -> bool {
    let mut k = Some(key);
    while let Some(n) = k {
        if set.contains(&n) {
            return true;
        }
        k = n.parent();
    }
    false
}

impl Fades {
    /// The visible set changes from `old` to `new` at `now`. Returns the nodes of `old` that keep
    /// being drawn while they fade out.
    pub fn change(
        &mut self,
        old: &FxHashSet<NodeKey>,
        new: &FxHashSet<NodeKey>,
        now: Instant,
    ) -> Vec<NodeKey> {
        let leavers: FxHashSet<NodeKey> = old.difference(new).copied().collect();
        let joiners: FxHashSet<NodeKey> = new.difference(old).copied().collect();
        let above_leavers = ancestors(leavers.iter());
        let above_joiners = ancestors(joiners.iter());
        // Two nodes overlap when one holds the other.
        let overlaps = |key: NodeKey, others: &FxHashSet<NodeKey>, above: &FxHashSet<NodeKey>| {
            above.contains(&key) || under(key, others)
        };
        for &j in &joiners {
            self.leaving.remove(&j);
            if overlaps(j, &leavers, &above_leavers) {
                self.joining.insert(j, now);
            } else {
                self.joining.remove(&j);
            }
        }
        let mut fading = Vec::new();
        for &l in &leavers {
            self.joining.remove(&l);
            if overlaps(l, &joiners, &above_joiners) {
                self.leaving.insert(l, now);
                fading.push(l);
            } else {
                self.leaving.remove(&l);
            }
        }
        fading
    }

    /// How a visible node is drawn at `now`.
    pub fn visible_state(&self, key: NodeKey, now: Instant) -> FadeState {
        match self.joining.get(&key) {
            Some(&start) if progress(start, now) < 1.0 => FadeState::In(progress(start, now)),
            _ => FadeState::Full,
        }
    }

    /// How a leaving node is drawn at `now` (`None`: it is not leaving, or its fade is over).
    pub fn leaving_state(&self, key: NodeKey, now: Instant) -> Option<FadeState> {
        let start = *self.leaving.get(&key)?;
        let p = progress(start, now);
        (p < 1.0).then_some(FadeState::Out(p))
    }

    /// Forget the fades that are over at `now`; returns the leaving nodes whose fade ended.
    pub fn expire(&mut self, now: Instant) -> Vec<NodeKey> {
        self.joining.retain(|_, s| progress(*s, now) < 1.0);
        let done: Vec<NodeKey> = self
            .leaving
            .iter()
            .filter(|(_, s)| progress(**s, now) >= 1.0)
            .map(|(k, _)| *k)
            .collect();
        for k in &done {
            self.leaving.remove(k);
        }
        done
    }

    /// True while any fade runs.
    pub fn active(&self) -> bool {
        !self.joining.is_empty() || !self.leaving.is_empty()
    }

    /// Drop every fade (a new document).
    pub fn clear(&mut self) {
        self.joining.clear();
        self.leaving.clear();
    }
}

#[cfg(test)]
mod fade_tests;
