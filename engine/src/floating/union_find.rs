//! A disjoint-set forest over `0..n` (union by size, path halving): the one structure both the
//! per-chunk labelling and the merge across chunk faces use.

/// Disjoint sets over `0..n`.
#[derive(Debug, Clone, Default)]
pub struct UnionFind {
    parent: Vec<u32>,
    size: Vec<u32>,
}

impl UnionFind {
    /// `n` singleton sets.
    ///
    /// # Panics
    /// When `n` does not fit `u32` (caller contract: labels are counted per world).
    pub fn new(n: usize) -> Self {
        assert!(u32::try_from(n).is_ok(), "{n} sets do not fit u32 labels");
        Self {
            parent: (0..n as u32).collect(),
            size: vec![1; n],
        }
    }

    /// Number of elements.
    pub fn len(&self) -> usize {
        self.parent.len()
    }

    /// True when there are no elements.
    pub fn is_empty(&self) -> bool {
        self.parent.is_empty()
    }

    /// The representative of `x`'s set.
    pub fn find(&mut self, mut x: u32) -> u32 {
        while self.parent[x as usize] != x {
            let grand = self.parent[self.parent[x as usize] as usize];
            self.parent[x as usize] = grand;
            x = grand;
        }
        x
    }

    /// Merge the sets of `a` and `b`.
    pub fn union(&mut self, a: u32, b: u32) {
        let (a, b) = (self.find(a), self.find(b));
        if a == b {
            return;
        }
        let (big, small) = if self.size[a as usize] >= self.size[b as usize] {
            (a, b)
        } else {
            (b, a)
        };
        self.parent[small as usize] = big;
        self.size[big as usize] += self.size[small as usize];
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unions_join_and_finds_agree() {
        let mut u = UnionFind::new(6);
        u.union(0, 1);
        u.union(2, 3);
        u.union(1, 3);
        assert_eq!(u.find(0), u.find(2));
        assert_ne!(u.find(0), u.find(4));
        assert_ne!(u.find(4), u.find(5));
        u.union(5, 5);
        assert_eq!(u.len(), 6);
        assert!(!u.is_empty());
    }
}
