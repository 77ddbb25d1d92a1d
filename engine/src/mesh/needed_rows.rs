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
//! ones keep one flag per row (the scalar twin, tested equal). This file imports nothing from the
//! mesher.

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

/// [`needed_rows`] for columns of at most 64 rows, as one bit set per Z (bit `y`): each Z's cell
/// rows are tested once, and the marks spread by shifts instead of a 4 × 4 loop per cell row.
pub(crate) fn needed_row_bits(
    bits: &[u64],
    [ny, nz]: [usize; 2],
    full: u64,
    needed: &mut Vec<u64>,
) {
    debug_assert!(ny <= 64);
    needed.clear();
    needed.resize(nz, 0);
    let column = u64::MAX >> (64 - ny);
    for z in 0..nz - 1 {
        let mut crossing = 0u64;
        for y in 0..ny - 1 {
            crossing |= u64::from(cell_row_crosses(bits, [y, z], ny, full)) << y;
        }
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

    #[test]
    fn needed_row_bits_equal_the_row_by_row_marks() {
        let mut state = 0x1234_5678_9abc_def1u64;
        for (ny, nz) in [(2, 2), (5, 3), (36, 36), (20, 7), (64, 9), (63, 4)] {
            let full = u64::MAX >> (64 - 36);
            for round in 0..20 {
                // Sparse surfaces (rows mostly all in or all out) and dense ones.
                let bits: Vec<u64> = (0..ny * nz)
                    .map(|_| {
                        state ^= state << 13;
                        state ^= state >> 7;
                        state ^= state << 17;
                        match state % (2 + round) {
                            0 => state & full,
                            1 => full,
                            _ => 0,
                        }
                    })
                    .collect();
                let (mut flags, mut sets) = (Vec::new(), Vec::new());
                needed_rows(&bits, [ny, nz], full, &mut flags);
                needed_row_bits(&bits, [ny, nz], full, &mut sets);
                let expanded: Vec<bool> = (0..ny * nz)
                    .map(|r| sets[r / ny] >> (r % ny) & 1 == 1)
                    .collect();
                assert_eq!(expanded, flags, "{ny}×{nz}, round {round}");
            }
        }
    }
}
