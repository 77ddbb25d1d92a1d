//! Inside components of a cell: how many vertices a surface cell gets, and which one an edge uses.
//!
//! Plain surface nets gives each cell one vertex. Where a cell face is a checkerboard (two inside
//! corners on one diagonal, two outside on the other), the four quads of that face's edges would all
//! share the one edge between the two cells' vertices: four triangles on one edge, a pinch that is not
//! a manifold surface. Instead a cell gets one vertex per *component* of its inside corners, where
//! corners connect only along cube edges (never across a face diagonal):
//!
//! ```text
//!   face of a cell:   ● ── ○        ● inside, ○ outside
//!                     │    │        the two ● are separate components unless the cell joins
//!                     ○ ── ●        them through its other face, so the pinch opens up
//! ```
//!
//! Each sign-changing edge belongs to the component of its inside end; the quad around an edge takes,
//! in each of its four cells, the vertex of the component holding that inside sample. Cells without a
//! checkerboard face have one component, so they behave exactly like plain surface nets.

/// Component index of each corner per corner mask (bit k = corner k inside); 0xff for outside corners.
pub(crate) static COMPONENT: [[u8; 8]; 256] = build().0;
/// Corner bit mask of each component per corner mask (unused slots are 0).
#[cfg(test)]
pub(crate) static MEMBERS: [[u8; 4]; 256] = build().1;
/// Number of inside components per corner mask.
pub(crate) static COUNT: [u8; 256] = build().2;

/// Sign-changing edges per corner mask, each as `edge | component << 4` (edge = index into
/// `cube::EDGES`, component = that of the edge's inside corner); the first [`CROSS_COUNT`] are valid.
pub(crate) static CROSSINGS: [[u8; 12]; 256] = build_crossings().0;
/// Number of sign-changing edges per corner mask.
pub(crate) static CROSS_COUNT: [u8; 256] = build_crossings().1;
/// Sign-changing edges per corner mask as a bit set (bit `e` = edge `e` of `cube::EDGES`).
pub(crate) static CROSS_BITS: [u16; 256] = build_crossings().2;

const fn build_crossings() -> ([[u8; 12]; 256], [u8; 256], [u16; 256]) {
    let edges = super::cube::EDGES;
    let comp = build().0;
    let mut list = [[0u8; 12]; 256];
    let mut count = [0u8; 256];
    let mut bits = [0u16; 256];
    let mut mask = 0;
    while mask < 256 {
        let mut e = 0;
        let mut n = 0;
        while e < 12 {
            let (a, b, _) = edges[e];
            let (ia, ib) = ((mask >> a) & 1, (mask >> b) & 1);
            if ia != ib {
                let inside = if ia == 1 { a } else { b };
                list[mask][n] = e as u8 | (comp[mask][inside] << 4);
                bits[mask] |= 1 << e;
                n += 1;
            }
            e += 1;
        }
        count[mask] = n as u8;
        mask += 1;
    }
    (list, count, bits)
}

/// Corners joined by a cube edge to corner `k` (flip one coordinate bit).
const fn neighbours(k: usize) -> [usize; 3] {
    [k ^ 1, k ^ 2, k ^ 4]
}

#[allow(clippy::type_complexity)]
const fn build() -> ([[u8; 8]; 256], [[u8; 4]; 256], [u8; 256]) {
    let mut comp = [[0xffu8; 8]; 256];
    let mut members = [[0u8; 4]; 256];
    let mut count = [0u8; 256];
    let mut mask = 0;
    while mask < 256 {
        let mut n = 0u8;
        let mut start = 0;
        while start < 8 {
            if (mask >> start) & 1 == 1 && comp[mask][start] == 0xff {
                // Flood fill from `start` over inside corners (at most 8 steps).
                comp[mask][start] = n;
                let mut changed = true;
                while changed {
                    changed = false;
                    let mut k = 0;
                    while k < 8 {
                        if comp[mask][k] == n {
                            let nb = neighbours(k);
                            let mut j = 0;
                            while j < 3 {
                                let c = nb[j];
                                if (mask >> c) & 1 == 1 && comp[mask][c] == 0xff {
                                    comp[mask][c] = n;
                                    changed = true;
                                }
                                j += 1;
                            }
                        }
                        k += 1;
                    }
                }
                n += 1;
            }
            start += 1;
        }
        let mut k = 0;
        while k < 8 {
            if comp[mask][k] != 0xff {
                members[mask][comp[mask][k] as usize] |= 1 << k;
            }
            k += 1;
        }
        count[mask] = n;
        mask += 1;
    }
    (comp, members, count)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn components_cover_the_inside_corners() {
        for mask in 0..256usize {
            let n = usize::from(COUNT[mask]);
            let all: u8 = MEMBERS[mask][..n].iter().fold(0, |a, &m| a | m);
            assert_eq!(usize::from(all), mask);
            assert!(n <= 4);
        }
        // Two corners on a face diagonal with nothing joining them: two components.
        assert_eq!(COUNT[0b0000_1001], 2);
        // An edge-connected pair: one.
        assert_eq!(COUNT[0b0000_0011], 1);
        assert_eq!(COUNT[0xff], 1);
        assert_eq!(COUNT[0], 0);
        assert_eq!(CROSS_COUNT[0b0000_0001], 3);
        assert_eq!(CROSS_COUNT[0b0000_1001], 6);
        assert_eq!(CROSS_COUNT[0b0000_1111], 4);
        for mask in 0..256 {
            assert_eq!(CROSS_BITS[mask].count_ones(), u32::from(CROSS_COUNT[mask]));
        }
        // Corner 0 alone: the edges leaving it, 0 (x), 4 (y) and 8 (z).
        assert_eq!(CROSS_BITS[0b0000_0001], 0b1_0001_0001);
        let comps: Vec<u8> = CROSSINGS[0b0000_1001][..6].iter().map(|c| c >> 4).collect();
        assert_eq!(comps.iter().filter(|&&c| c == 1).count(), 3);
    }
}
