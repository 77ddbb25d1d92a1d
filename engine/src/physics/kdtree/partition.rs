//! The kD builder's partition of a node's items by a plane, without a branch per item.
//!
//! The builder's trees are defined by an in-place swap partition (its scalar twin, [`by_swaps`]):
//!
//! ```text
//!   left = 0
//!   for j in 0..n:  if below(j) { swap(left, j); left += 1 }
//! ```
//!
//! Its order matters beyond the two sets: children sum their items' midpoints in item order (float
//! rounding) and a skewed side is cut by `select_nth`, so a faster partition must leave the items in
//! exactly that order. Before step `j` the slots `left..j` hold the items above the plane seen so far,
//! as a queue: an item above joins the back, and an item below takes slot `left`, whose item (the
//! queue's front) moves to slot `j`, the back. So the result is the items below in their order, then
//! the queue:
//!
//! ```text
//!   below:  front[left++] = j;  if the queue is not empty: queue.push(queue.pop_front())
//!   above:  queue.push(j)
//! ```
//!
//! [`queue_order`] runs that on item indices with selects instead of branches (the plane test is a coin
//! toss near the top of a tree, so the swap loop mispredicts about once per two items), and [`gather`] writes
//! the items in the new order to a second buffer (the builder's children then work in that one),
//! summing each side's [`SideFacts`] on the way, which spares the builder its own pass over them.
//! Even three items mispredict often enough that this is faster (a two-quad node has its own code in
//! the builder), and a node of at most [`SMALL`] items skips the queue: [`small_split`] looks its
//! order up in a table the swap loop itself fills at compile time. The swap loop stays as the twin
//! the tests compare both against. The builder's [`Item`]
//! (one triangle or quad) lives here, below both.

/// One triangle (or one quad) while building: its bounds and (first) triangle id.
#[derive(Debug, Clone, Copy)]
pub(super) struct Item {
    pub(super) min: [f32; 3],
    pub(super) max: [f32; 3],
    pub(super) id: u32,
}

impl Item {
    /// Twice the midpoint on `axis` (halving is not needed to compare).
    #[inline]
    pub(super) fn mid2(&self, axis: usize) -> f32 {
        self.min[axis] + self.max[axis]
    }
}

/// Reusable buffers of [`queue_order`] and [`gather`].
#[derive(Debug, Clone, Default)]
pub(super) struct PartitionWork {
    /// Item indices: the items below the plane, then (from `n`) the queue of those above.
    order: Vec<u32>,
}

impl PartitionWork {
    /// Make room for nodes of up to `n` items.
    pub(super) fn reserve(&mut self, n: usize) {
        if self.order.len() < 2 * n {
            self.order.resize(2 * n, 0);
        }
    }
}

/// Where [`queue_order`] left the new order in its work buffers.
#[derive(Debug, Clone, Copy)]
pub(super) struct QueueOrder {
    /// Items below the plane (`work.order[..left]`).
    pub(super) left: usize,
    /// The queue of the items above: `work.order[n + head..n + tail]`.
    head: usize,
    tail: usize,
}

/// The order [`by_swaps`] would give `items` for `mid2(axis) < mean2`, as item indices in `work`
/// (which must have room for them: [`PartitionWork::reserve`]); [`gather`] moves the items.
pub(super) fn queue_order(
    items: &[Item],
    axis: usize,
    mean2: f32,
    work: &mut PartitionWork,
) -> QueueOrder {
    let n = items.len();
    let (front, queue) = work.order[..2 * n].split_at_mut(n);
    let (mut left, mut head, mut tail) = (0usize, 0usize, 0usize);
    for (j, it) in items.iter().enumerate() {
        let below = it.mid2(axis) < mean2;
        // `left <= j` and `head <= tail <= j`: every index is in range.
        front[left] = j as u32;
        left += usize::from(below);
        let rotate = below & (head != tail);
        let queued = queue[head.min(n - 1)];
        queue[tail] = std::hint::select_unpredictable(rotate, queued, j as u32);
        tail += usize::from(!below | rotate);
        head += usize::from(rotate);
    }
    QueueOrder { left, head, tail }
}

/// Largest node [`small_order`] serves (the table holds every node size up to it).
pub(super) const SMALL: usize = 6;

/// The swap loop's result for every node of at most [`SMALL`] items, at index `(1 << n) | below`
/// (bit `j` of `below` set when item `j` lies below the plane): the item indices in their new order,
/// and in the last byte the number below.
static SMALL_ORDERS: [[u8; 8]; 1 << (SMALL + 1)] = small_orders();

/// [`SMALL_ORDERS`], made by running the swap loop on indices for every size and side mask.
const fn small_orders() -> [[u8; 8]; 1 << (SMALL + 1)] {
    let mut table = [[0u8; 8]; 1 << (SMALL + 1)];
    let mut n = 0;
    while n <= SMALL {
        let mut below = 0;
        while below < 1 << n {
            let mut order = [0u8; 8];
            let mut k = 0;
            while k < n {
                order[k] = k as u8;
                k += 1;
            }
            let (mut left, mut j) = (0, 0);
            while j < n {
                if (below >> j) & 1 == 1 {
                    let moved = order[left];
                    order[left] = order[j];
                    order[j] = moved;
                    left += 1;
                }
                j += 1;
            }
            order[7] = left as u8;
            table[(1 << n) | below] = order;
            below += 1;
        }
        n += 1;
    }
    table
}

/// [`queue_order`] and [`gather`] in one for a node of at most [`SMALL`] items: the number of
/// items below the plane and the sides' facts, with the items written to `out` in the swap loop's
/// order; `None` for a larger node. The order is looked up in a table: the queue's bookkeeping
/// costs more than its work over a handful of items, and half of a tree's split nodes hold three or
/// four. (Unrolling each size, with every item added to both sides' facts under a mask, spared a
/// fifth of the mispredicted branches callgrind simulates but ran slower.)
#[inline]
pub(super) fn small_split(
    items: &[Item],
    out: &mut [Item],
    axis: usize,
    mean2: f32,
) -> Option<(usize, [SideFacts; 2])> {
    let n = items.len();
    if n > SMALL {
        return None;
    }
    let mut below = 0usize;
    for (j, it) in items.iter().enumerate() {
        below |= usize::from(it.mid2(axis) < mean2) << j;
    }
    let order = &SMALL_ORDERS[(1 << n) | below];
    for (o, &k) in out.iter_mut().zip(&order[..n]) {
        *o = items[usize::from(k)];
    }
    let left = usize::from(order[7]);
    let (lo, hi) = out[..n].split_at(left);
    Some((left, [side_facts(lo, axis), side_facts(hi, axis)]))
}

/// Write `items` to `out` (as long as `items`) in the order [`queue_order`] found, and return the
/// [`side_facts`] of the two sides on `axis`, summed in the same order.
pub(super) fn gather(
    items: &[Item],
    out: &mut [Item],
    work: &PartitionWork,
    order: QueueOrder,
    axis: usize,
) -> [SideFacts; 2] {
    let n = items.len();
    let (front, queue) = work.order[..2 * n].split_at(n);
    let (lo, hi) = out.split_at_mut(order.left);
    let mut facts = [SideFacts::new(), SideFacts::new()];
    for (o, &k) in lo.iter_mut().zip(&front[..order.left]) {
        *o = items[k as usize];
        facts[0].add(o, axis);
    }
    for (o, &k) in hi.iter_mut().zip(&queue[order.head..order.tail]) {
        *o = items[k as usize];
        facts[1].add(o, axis);
    }
    facts
}

/// What a child needs of the items on one side of a split: their doubled-midpoint sums, and on the
/// split axis their largest `max` and smallest `min`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) struct SideFacts {
    pub(super) sums: [f32; 3],
    pub(super) max: f32,
    pub(super) min: f32,
}

impl SideFacts {
    fn new() -> Self {
        Self {
            sums: [0.0; 3],
            max: f32::NEG_INFINITY,
            min: f32::INFINITY,
        }
    }

    #[inline]
    fn add(&mut self, it: &Item, axis: usize) {
        for (a, v) in self.sums.iter_mut().enumerate() {
            *v += it.mid2(a);
        }
        self.max = self.max.max(it.max[axis]);
        self.min = self.min.min(it.min[axis]);
    }
}

/// The [`SideFacts`] of `items` on `axis`, in item order.
pub(super) fn side_facts(items: &[Item], axis: usize) -> SideFacts {
    let mut facts = SideFacts::new();
    for it in items {
        facts.add(it, axis);
    }
    facts
}

/// Partition `items` by `mid2(axis) < mean2` with the swap loop; returns the number below.
#[cfg(test)]
fn by_swaps(items: &mut [Item], axis: usize, mean2: f32) -> usize {
    let mut left = 0;
    for j in 0..items.len() {
        if items[j].mid2(axis) < mean2 {
            items.swap(left, j);
            left += 1;
        }
    }
    left
}

#[cfg(test)]
mod tests {
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    use super::*;

    fn item(rng: &mut ChaCha8Rng, id: u32, levels: u32) -> Item {
        // Few distinct midpoints, so that ties with the mean and runs of one side are common.
        let min = std::array::from_fn(|_| rng.random_range(0..levels) as f32);
        Item {
            min,
            max: min.map(|v| v + rng.random_range(0..3) as f32),
            id,
        }
    }

    /// A seeded node for round `round`: `n` items on a grid of `levels` steps, an axis, and a plane
    /// at their mean, at one item's midpoint (ties) or anywhere.
    fn random_node(rng: &mut ChaCha8Rng, round: usize, n: usize) -> (Vec<Item>, usize, f32) {
        let levels = [2, 3, 8, 1000][round % 4];
        let items: Vec<Item> = (0..n).map(|id| item(rng, id as u32, levels)).collect();
        let axis = rng.random_range(0..3);
        let mean2 = match round % 3 {
            0 => items.iter().map(|it| it.mid2(axis)).sum::<f32>() / n as f32,
            1 => items[rng.random_range(0..n)].mid2(axis),
            _ => rng.random_range(-1.0..2.0 * levels as f32 + 4.0),
        };
        (items, axis, mean2)
    }

    /// Check a partition of `items` (`left` below, the items in `out`, the sides' `facts`) against
    /// the swap loop's.
    fn assert_as_swaps(
        items: &[Item],
        (axis, mean2): (usize, f32),
        (left, out, facts): (usize, &[Item], [SideFacts; 2]),
        round: usize,
    ) {
        let mut swapped = items.to_vec();
        let left_swaps = by_swaps(&mut swapped, axis, mean2);
        assert_eq!(left, left_swaps, "round {round}");
        let ids = |v: &[Item]| v.iter().map(|it| it.id).collect::<Vec<_>>();
        assert_eq!(ids(out), ids(&swapped), "round {round}");
        let (lo, hi) = swapped.split_at(left_swaps);
        assert_eq!(facts, [side_facts(lo, axis), side_facts(hi, axis)]);
    }

    #[test]
    fn queue_partition_equals_the_swap_loop() {
        let mut rng = ChaCha8Rng::seed_from_u64(33);
        let mut work = PartitionWork::default();
        for round in 0..3000 {
            let n = rng.random_range(1..200);
            let (items, axis, mean2) = random_node(&mut rng, round, n);
            let mut queued = items.clone();
            queued.iter_mut().for_each(|it| it.id = u32::MAX);
            work.reserve(n);
            let order = queue_order(&items, axis, mean2, &mut work);
            let facts = gather(&items, &mut queued, &work, order, axis);
            assert_as_swaps(&items, (axis, mean2), (order.left, &queued, facts), round);
        }
    }

    #[test]
    fn small_table_partition_equals_the_swap_loop() {
        let mut rng = ChaCha8Rng::seed_from_u64(34);
        for round in 0..3000 {
            let n = rng.random_range(1..=SMALL);
            let (items, axis, mean2) = random_node(&mut rng, round, n);
            let mut tabled = items.clone();
            tabled.iter_mut().for_each(|it| it.id = u32::MAX);
            let (left, facts) =
                small_split(&items, &mut tabled, axis, mean2).expect("a small node");
            assert_as_swaps(&items, (axis, mean2), (left, &tabled, facts), round);
        }
    }
}
