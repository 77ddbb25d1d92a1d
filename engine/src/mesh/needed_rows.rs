//! Which rows of a density box the vertex and quad passes read, so the density fill writes only
//! those: the rows within −1..=+2 (in Y and Z) of a cell row with surface cells. Cells read their
//! sample rows +0..=+1; sharp normals take central differences one row further on each side.
//!
//! ```text
//!   z ↑   · · · · · ·      a cell row with surface cells at (y, z) = ■ marks rows
//!         · ▪ ▪ ▪ ▪ ·      y − 1 ..= y + 2 and z − 1 ..= z + 2 (▪)
//!         · ▪ ▪ ▪ ▪ ·
//!         · ▪ ■ ▪ ▪ ·
//!         · ▪ ▪ ▪ ▪ ·
//!         · · · · · ·  → y
//! ```
//!
//! Columns of at most 64 rows keep the marks as one bit set over Y per Z, spread by shifts; taller
//! ones keep one flag per row (the scalar twin, tested equal). For those columns the cell rows with
//! surface cells, and the sample rows whose edges can cross the surface, are found as bit sets over
//! Y per Z too (`crossing_cell_rows`): the vertex and quad passes visit only their set bits instead
//! of testing every row. This file imports nothing from the mesher.

/// Mark in `needed` (one flag per row, index `z · ny + y`) the rows the vertex and quad passes read:
/// those within rows −1..=+2 (Y and Z) of a cell row with surface cells (cells read rows +0..=+1,
/// sharp normals one more on each side). `bits` are the rows' inside bits, `full` a full row's.
pub(crate) fn needed_rows(bits: &[u64], [ny, nz]: [usize; 2], full: u64, needed: &mut Vec<bool>) {
    needed.clear();
    needed.resize(ny * nz, false);
    for z in 0..nz - 1 {
        for y in 0..ny - 1 {
            if !cell_row_crosses(bits, [y, z], ny, full) {
                continue;
            }
            for zz in z.saturating_sub(1)..(z + 3).min(nz) {
                for yy in y.saturating_sub(1)..(y + 3).min(ny) {
                    needed[zz * ny + yy] = true;
                }
            }
        }
    }
}

/// The cell rows with surface cells, for columns of at most 64 rows: `crossing[z]` bit `y` set when
/// cell row `(y, z)` has one (its four sample rows are not all outside or all inside), for `z` in
/// `0..nz − 1` and `y` in `0..ny − 1`.
///
/// Each sample row is classed once (all outside, all inside) into two bit sets over Y per Z; a cell
/// row is uniform when its four rows are all in one class, which two shifts and three ANDs per set
/// tell for a whole Z at once, instead of four row reads per cell row (`cell_row_crosses`, the twin
/// the tests compare with).
///
/// `edge_rows[z]` gets the same for the quad pass: bit `y` set when sample rows `(y, z)`,
/// `(y + 1, z)` and `(y, z + 1)` are not all outside or all inside (only then can an edge from row
/// `(y, z)` cross the surface).
pub(crate) fn crossing_cell_rows(
    bits: &[u64],
    [ny, nz]: [usize; 2],
    full: u64,
    (crossing, edge_rows): (&mut Vec<u64>, &mut Vec<u64>),
) {
    debug_assert!(ny <= 64);
    crossing.clear();
    edge_rows.clear();
    if ny < 2 || nz < 2 {
        crossing.resize(nz.saturating_sub(1), 0);
        edge_rows.resize(nz.saturating_sub(1), 0);
        return;
    }
    // Bits 0..ny − 1: the cell rows of one Z.
    let cells = u64::MAX >> (65 - ny);
    // Each row's class bit set in a register (bit y = row y): 0/1 bytes written to memory and read
    // back as a word would wait for their stores to retire.
    let classes = |slab: &[u64]| {
        let (mut outside, mut inside) = (0u64, 0u64);
        for (y, &row) in slab.iter().enumerate() {
            outside |= u64::from(row == 0) << y;
            inside |= u64::from(row == full) << y;
        }
        (outside, inside)
    };
    let mut near = classes(&bits[..ny]);
    for far_slab in bits[ny..ny * nz].chunks_exact(ny) {
        let far = classes(far_slab);
        let uniform = |(a, b): (u64, u64)| a & (a >> 1) & b & (b >> 1);
        let same = uniform((near.0, far.0)) | uniform((near.1, far.1));
        crossing.push(!same & cells);
        let uniform = |(a, b): (u64, u64)| a & (a >> 1) & b;
        let same = uniform((near.0, far.0)) | uniform((near.1, far.1));
        edge_rows.push(!same & cells);
        near = far;
    }
}

/// [`needed_rows`] for columns of at most 64 rows, as one bit set per Z (bit `y`), from the cell rows
/// with surface cells (`crossing`, see [`crossing_cell_rows`]): the marks spread by shifts instead of
/// a 4 × 4 loop per cell row.
pub(crate) fn needed_row_bits(crossing: &[u64], [ny, nz]: [usize; 2], needed: &mut Vec<u64>) {
    debug_assert!(ny <= 64);
    needed.clear();
    needed.resize(nz, 0);
    let column = u64::MAX >> (64 - ny);
    for (z, &crossing) in crossing.iter().enumerate() {
        if crossing == 0 {
            continue;
        }
        let near = (crossing >> 1 | crossing | crossing << 1 | crossing << 2) & column;
        for marks in &mut needed[z.saturating_sub(1)..(z + 3).min(nz)] {
            *marks |= near;
        }
    }
}

/// True when the cell row at `(y, z)` has a surface cell: its four sample rows are not all outside
/// or all inside.
#[inline]
fn cell_row_crosses(bits: &[u64], [y, z]: [usize; 2], ny: usize, full: u64) -> bool {
    let r = |dy: usize, dz: usize| bits[(z + dz) * ny + y + dy];
    let (a, b, c, d) = (r(0, 0), r(1, 0), r(0, 1), r(1, 1));
    let (all, any) = (a & b & c & d, a | b | c | d);
    !(all == any && (all == 0 || all == full))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mesh::test_rng::XorShift;

    #[test]
    fn crossing_sets_and_needed_row_bits_equal_the_row_by_row_marks() {
        let mut rng = XorShift(0x1234_5678_9abc_def1);
        for (ny, nz) in [(2, 2), (5, 3), (36, 36), (20, 7), (64, 9), (63, 4)] {
            let full = u64::MAX >> (64 - 36);
            for round in 0..20 {
                // Sparse surfaces (rows mostly all in or all out) and dense ones.
                let bits: Vec<u64> = (0..ny * nz)
                    .map(|_| {
                        let state = rng.next_u64();
                        match state % (2 + round) {
                            0 => state & full,
                            1 => full,
                            _ => 0,
                        }
                    })
                    .collect();
                let (mut flags, mut sets) = (Vec::new(), Vec::new());
                let (mut crossing, mut edge_rows) = (Vec::new(), Vec::new());
                needed_rows(&bits, [ny, nz], full, &mut flags);
                crossing_cell_rows(&bits, [ny, nz], full, (&mut crossing, &mut edge_rows));
                assert_eq!((crossing.len(), edge_rows.len()), (nz - 1, nz - 1));
                for z in 0..nz - 1 {
                    for y in 0..64 {
                        let want = y + 1 < ny && cell_row_crosses(&bits, [y, z], ny, full);
                        let got = crossing[z] >> y & 1 == 1;
                        assert_eq!(got, want, "cell row ({y}, {z}), {ny}×{nz}");
                        // The quad pass's test, as it made it row by row.
                        let want = y + 1 < ny && {
                            let r = |dy: usize, dz: usize| bits[(z + dz) * ny + y + dy];
                            let (row, up, ahead) = (r(0, 0), r(1, 0), r(0, 1));
                            !((row | up | ahead) == 0 || (row & up & ahead) == full)
                        };
                        let got = edge_rows[z] >> y & 1 == 1;
                        assert_eq!(got, want, "edge row ({y}, {z}), {ny}×{nz}");
                    }
                }
                needed_row_bits(&crossing, [ny, nz], &mut sets);
                let expanded: Vec<bool> = (0..ny * nz)
                    .map(|r| sets[r / ny] >> (r % ny) & 1 == 1)
                    .collect();
                assert_eq!(expanded, flags, "{ny}×{nz}, round {round}");
            }
        }
    }
}
