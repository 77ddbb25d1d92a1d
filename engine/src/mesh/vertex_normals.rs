//! Full-resolution vertex normals made unit length in one pass over a box's new vertices.
//!
//! At LOD 0 a vertex's normal is its cell's density gradient over its length (`nets`). The square
//! root and the division are the longest chain in placing a vertex, and in the vertex loop they sit
//! between branches that follow the data (how many crossings a cell has, which component they
//! belong to): after a mispredicted branch the chain is on the critical path again. The vertex loop
//! therefore stores the raw outward gradient, and this pass divides every gradient by its length
//! afterwards, four at a time with no branch, so the chains overlap. The arithmetic is
//! [`normalize`]'s, operation for operation: the normals are the same to the bit.

use crate::vec3::{normalize, scale};

/// The normal given to a vertex whose gradient vanishes.
pub(crate) const UP: [f32; 3] = [0.0, 1.0, 0.0];

/// The outward density gradient of a cell with corner densities `d` (density grows inward), not
/// normalised: the vertex loop stores it and [`normalize_gradients`] makes it unit length.
#[inline]
pub(crate) fn outward_gradient(d: &[f32; 8]) -> [f32; 3] {
    let gx = (d[1] - d[0]) + (d[3] - d[2]) + (d[5] - d[4]) + (d[7] - d[6]);
    let gy = (d[2] - d[0]) + (d[3] - d[1]) + (d[6] - d[4]) + (d[7] - d[5]);
    let gz = (d[4] - d[0]) + (d[5] - d[1]) + (d[6] - d[2]) + (d[7] - d[3]);
    [-gx, -gy, -gz]
}

/// Replace each outward gradient in `normals` by its unit vector ([`normalize`], or [`UP`] where the
/// gradient's length is not above `1e-12`).
pub(crate) fn normalize_gradients(normals: &mut [[f32; 3]]) {
    let mut quads = normals.chunks_exact_mut(4);
    for quad in &mut quads {
        let mut length = [0.0f32; 4];
        for (l, a) in length.iter_mut().zip(quad.iter()) {
            *l = (a[0] * a[0] + a[1] * a[1] + a[2] * a[2]).sqrt();
        }
        let inverse = length.map(|l| 1.0 / l);
        for (k, n) in quad.iter_mut().enumerate() {
            *n = if length[k] > 1e-12 {
                scale(*n, inverse[k])
            } else {
                UP
            };
        }
    }
    for n in quads.into_remainder() {
        *n = normalize(*n).unwrap_or(UP);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mesh::test_rng::XorShift;

    #[test]
    fn batch_equals_normalize_bit_for_bit() {
        let mut rng = XorShift(0x2545_f491_4f6c_dd1du64);
        let mut next = || rng.next_u64();
        // Gradients as the mesher makes them (sums of density differences in steps of 1/256),
        // smooth ones, vanishing ones and tiny ones, in runs of every length modulo four.
        let mut gradients = Vec::new();
        for round in 0..40_000u32 {
            let g = match round % 5 {
                0 => [0.0, 0.0, 0.0],
                1 => [1e-13, -1e-14, 0.0],
                2 => [0, 1, 2].map(|_| (next() % 2049) as f32 / 256.0 - 4.0),
                _ => [0, 1, 2].map(|_| (next() >> 40) as f32 / (1u64 << 22) as f32 - 2.0),
            };
            gradients.push(g);
        }
        let mut checked = 0;
        for len in [0, 1, 2, 3, 4, 5, 7, 40_000] {
            let mut batch = gradients[..len].to_vec();
            normalize_gradients(&mut batch);
            for (b, g) in batch.iter().zip(&gradients[..len]) {
                let twin = normalize(*g).unwrap_or(UP);
                assert_eq!(
                    b.map(f32::to_bits),
                    twin.map(f32::to_bits),
                    "gradient {g:?}"
                );
                checked += 1;
            }
        }
        assert!(checked > 40_000);
        assert!(gradients.iter().any(|g| normalize(*g).is_none()));
    }
}
