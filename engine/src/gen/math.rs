//! Small numeric helpers shared by the generator: seed mixing, hashing and easing curves.
//!
//! Everything here is a pure function so generation stays independent of thread count and call order.

/// SplitMix64 finalizer: a well-mixed 64-bit value from any input.
fn splitmix64(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// A noise seed derived from the world seed and a per-purpose salt.
///
/// The result stays below 2^30: the `noise` crate seeds octave `i` with `seed + i` without wrapping,
/// so leaving headroom avoids an overflow panic in debug builds.
pub(crate) fn derive_seed(seed: u32, salt: u32) -> u32 {
    (splitmix64((u64::from(seed) << 32) | u64::from(salt)) as u32) & 0x3fff_ffff
}

/// A deterministic pseudo-random value in `[0, 1)` for an integer key.
pub(crate) fn hash01(seed: u32, salt: u32, key: i64) -> f64 {
    let h = splitmix64(splitmix64((u64::from(seed) << 32) | u64::from(salt)) ^ key as u64);
    (h >> 11) as f64 / (1u64 << 53) as f64
}

/// Hermite easing of `x` between `e0` (0) and `e1` (1), clamped.
pub(crate) fn smoothstep(e0: f64, e1: f64, x: f64) -> f64 {
    let t = ((x - e0) / (e1 - e0)).clamp(0.0, 1.0);
    t * t * (3.0 - 2.0 * t)
}

/// Linear interpolation from `a` (t = 0) to `b` (t = 1).
pub(crate) fn lerp(a: f64, b: f64, t: f64) -> f64 {
    a + (b - a) * t
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn derived_seeds_differ_and_leave_headroom() {
        let mut seen = std::collections::HashSet::new();
        for seed in [0, 1, 2, u32::MAX] {
            for salt in 0..16 {
                let s = derive_seed(seed, salt);
                assert!(s < 1 << 30);
                assert!(seen.insert(s), "collision for {seed}/{salt}");
            }
        }
        assert_eq!(derive_seed(7, 3), derive_seed(7, 3));
    }

    #[test]
    fn hash_is_uniformish_and_stable() {
        let n = 10_000;
        let mean = (0..n).map(|k| hash01(5, 1, k)).sum::<f64>() / n as f64;
        assert!((mean - 0.5).abs() < 0.02, "{mean}");
        assert!((0..n).all(|k| (0.0..1.0).contains(&hash01(5, 1, k))));
        assert_eq!(hash01(1, 2, -3), hash01(1, 2, -3));
        assert_ne!(hash01(1, 2, 3), hash01(1, 3, 3));
    }

    #[test]
    fn easing() {
        assert_eq!(smoothstep(0.0, 1.0, -1.0), 0.0);
        assert_eq!(smoothstep(0.0, 1.0, 2.0), 1.0);
        assert_eq!(smoothstep(2.0, 4.0, 3.0), 0.5);
        assert_eq!(lerp(2.0, 4.0, 0.25), 2.5);
    }
}
