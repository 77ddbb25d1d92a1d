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
    assert_eq!(
        b.read_row(3, 9, &mut RowBuf::new()),
        &[Voxel::filled(7); 32][..]
    );
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
    // One-byte headers (one stored row), the 6-byte stored row and its middle: all eight voxels
    // (partial voxels at both ends leave no prefix or suffix run).
    assert_eq!(b.heap_bytes(), 64 + 6 + 8 * 2);
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
    // 256 distinct rows (a material per z, partial occupancies rising along x and y) need two-byte
    // headers; each row is a 6-byte stored row and a middle of all its 16 voxels...
    let dense = dense_from_fn::<16>(|x, y, z| Voxel::new(1 + z as u8, (x + 14 * y) as u8));
    let mut b = PackedBox::<16>::from_dense(&dense);
    b.assert_valid();
    assert_eq!(b.stored_rows(), 256);
    assert_eq!(b.heap_bytes(), 256 * 2 + 256 * (6 + 16 * 2));
    // ...and once most rows are solid again, one byte per row is enough.
    b.write_with([0, 0, 0], [16, 16, 15], |_, _, row| {
        row.fill(Voxel::filled(3))
    });
    b.assert_valid();
    assert_eq!(b.stored_rows(), 16);
    assert_eq!(b.heap_bytes(), 256 + 16 * (6 + 16 * 2));
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

#[test]
fn packed_flag_matches_the_headers() {
    let dense = dense_from_fn::<8>(|x, y, _| match y {
        0..3 => Voxel::filled(2),
        3 => Voxel::new(2, (x * 30) as u8),
        _ => Voxel::AIR,
    });
    let b = PackedBox::<8>::from_dense(&dense);
    let (mut b1, mut b2) = (RowBuf::new(), RowBuf::new());
    for z in 0..8 {
        for y in 0..8 {
            let (row, packed) = b.read_row_packed(y, z, &mut b1);
            assert_eq!(row, b.read_row(y, z, &mut b2));
            assert_eq!(packed, !b.is_row_allocated(y, z));
        }
    }
    let u = PackedBox::<8>::uniform(5);
    assert_eq!(
        u.read_row_packed(1, 2, &mut b1),
        (&[Voxel::filled(5); 8][..], true)
    );
}

#[test]
fn box_copies_and_row_reads_match_single_voxels() {
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;
    let mut rng = ChaCha8Rng::seed_from_u64(17);
    for _ in 0..40 {
        // Rows of every kind: packed, cliff rows (run, partial voxels, run), rows of noise.
        let cut: Vec<usize> = (0..32 * 32).map(|_| rng.random_range(0..=32)).collect();
        let kind: Vec<u8> = (0..32 * 32).map(|_| rng.random_range(0..4)).collect();
        let noise: Vec<u64> = (0..32 * 32).map(|_| rng.random()).collect();
        let dense = dense_from_fn::<32>(|x, y, z| {
            let r = z * 32 + y;
            let h = noise[r].rotate_left(x as u32 * 2);
            match kind[r] {
                0 => Voxel::filled(3),
                1 if x < cut[r] => Voxel::filled(4),
                1 if x < cut[r] + 3 => Voxel::new(4, (h % 255) as u8),
                1 => Voxel::AIR,
                2 => Voxel::new((h % 3) as u8, (h >> 8) as u8),
                _ if x >= cut[r] => Voxel::filled(2),
                _ => Voxel::new(5, (x * 9) as u8),
            }
        });
        let b = PackedBox::<32>::from_dense(&dense);
        b.assert_valid();
        let at = |x: usize, y: usize, z: usize| b.get(x, y, z);
        let mut buf = RowBuf::new();
        for z in 0..32 {
            for y in 0..32 {
                let row = b.read_row(y, z, &mut buf);
                assert!(row.iter().enumerate().all(|(x, v)| *v == at(x, y, z)));
            }
        }
        for _ in 0..20 {
            let lo: [usize; 3] = std::array::from_fn(|_| rng.random_range(0..32));
            let hi: [usize; 3] = std::array::from_fn(|a| rng.random_range(lo[a] + 1..=32));
            let size: [usize; 3] = std::array::from_fn(|a| hi[a] - lo[a]);
            // Rows spaced wider than the copy, with a margin that must stay untouched.
            let (row_stride, start) = (size[0] + 3, 5);
            let slab_stride = row_stride * size[1] + 2;
            let mut out = vec![Voxel::new(9, 9); start + slab_stride * size[2] + 7];
            b.copy_box_into(lo, hi, &mut out, start, row_stride, slab_stride);
            for (i, v) in out.iter().enumerate() {
                let rel = i.checked_sub(start);
                let inside = rel.and_then(|k| {
                    let (z, rest) = (k / slab_stride, k % slab_stride);
                    let (y, x) = (rest / row_stride, rest % row_stride);
                    (z < size[2] && y < size[1] && x < size[0]).then_some([x, y, z])
                });
                match inside {
                    Some([x, y, z]) => assert_eq!(*v, at(lo[0] + x, lo[1] + y, lo[2] + z)),
                    None => assert_eq!(*v, Voxel::new(9, 9), "write outside the copied box"),
                }
            }
        }
    }
}
