//! Unit tests of the row-packed box.
use super::*;

fn dense_from_fn<const N: usize>(f: impl Fn(usize, usize, usize) -> Voxel) -> Vec<Voxel> {
    let mut v = Vec::with_capacity(N * N * N);
    for z in 0..N {
        for y in 0..N {
            for x in 0..N {
                v.push(f(x, y, z));
            }
        }
    }
    v
}

#[test]
fn uniform_boxes_cost_nothing() {
    let b = PackedBox::<32>::from_dense(&vec![Voxel::filled(7); 32 * 32 * 32]);
    assert_eq!(b.uniform_material(), Some(7));
    assert_eq!(b.heap_bytes(), 0);
    assert_eq!(b.read_row(3, 9), &[Voxel::filled(7); 32][..]);
    b.assert_valid();
}

#[test]
fn only_surface_rows_are_allocated() {
    // Ground below y = 3 with a partially filled layer at y = 3 in half the rows.
    let dense = dense_from_fn::<8>(|_, y, z| match y {
        0..3 => Voxel::filled(2),
        3 if z % 2 == 0 => Voxel::new(2, 100),
        _ => Voxel::AIR,
    });
    let b = PackedBox::<8>::from_dense(&dense);
    b.assert_valid();
    assert_eq!(b.allocated_rows(), 4);
    // The four partial rows are identical: one stored copy serves them all.
    assert_eq!(b.stored_rows(), 1);
    // One-byte headers (one stored row) plus that row.
    assert_eq!(b.heap_bytes(), 64 + 8 * 2);
    let mut out = vec![Voxel::AIR; 512];
    b.to_dense(&mut out);
    assert_eq!(out, dense);
}

#[test]
fn writes_repack_and_collapse() {
    let mut b = PackedBox::<8>::uniform(0);
    b.write_with([1, 2, 3], [4, 3, 5], |_, _, row| {
        row[1..4].fill(Voxel::new(5, 10));
    });
    b.assert_valid();
    assert_eq!(b.allocated_rows(), 2);
    assert_eq!(b.get(2, 2, 4), Voxel::new(5, 10));
    assert_eq!(b.get(0, 2, 4), Voxel::AIR);
    // Filling the rows completely packs them again, and the box collapses to Uniform(Air)
    // once they are cleared.
    b.write_with([0, 2, 3], [8, 3, 5], |_, _, row| row.fill(Voxel::filled(5)));
    b.assert_valid();
    assert_eq!(b.allocated_rows(), 0);
    b.write_with([0, 0, 0], [8, 8, 8], |_, _, row| {
        row.fill(Voxel::new(0, 99))
    });
    b.assert_valid();
    assert_eq!(b.uniform_material(), Some(0));
}

#[test]
fn header_width_follows_the_stored_row_count() {
    // 256 distinct rows need two-byte headers...
    let dense = dense_from_fn::<16>(|x, y, z| Voxel::new(2, (x + 16 * y + z) as u8 ^ 0x55));
    let mut b = PackedBox::<16>::from_dense(&dense);
    b.assert_valid();
    assert_eq!(b.stored_rows(), 256);
    assert_eq!(b.heap_bytes(), 256 * 2 + 256 * 16 * 2);
    // ...and once most rows are solid again, one byte per row is enough.
    b.write_with([0, 0, 0], [16, 16, 15], |_, _, row| {
        row.fill(Voxel::filled(3))
    });
    b.assert_valid();
    assert_eq!(b.stored_rows(), 16);
    assert_eq!(b.heap_bytes(), 256 + 16 * 16 * 2);
    let mut out = vec![Voxel::AIR; 16 * 16 * 16];
    b.to_dense(&mut out);
    assert_eq!(out[16 * 16 * 15..], dense[16 * 16 * 15..]);
}

#[test]
fn writes_normalize_air() {
    let mut b = PackedBox::<4>::uniform(3);
    b.write_with([0, 0, 0], [1, 1, 1], |_, _, row| {
        row[0] = Voxel {
            material: 0,
            occupancy: 7,
        }
    });
    b.assert_valid();
    assert_eq!(b.get(0, 0, 0), Voxel::AIR);
}
