//! Small vector math on plain arrays: `[f32; 3]` for geometry, and the few `[f64; 3]` operations
//! the exact ray–triangle test needs.
//!
//! Mesh vertices, brush planes, rays and rigid-body state are all plain arrays (so they can be
//! compared bit for bit, stored in compact buffers and printed as JSON without conversion). These
//! free functions are the one place their arithmetic is written, so every subsystem rounds the same
//! way. They evaluate in a fixed order (`x`, then `y`, then `z`) and never fuse operations, so
//! results are reproducible across callers.

/// A 3-vector.
pub type V3 = [f32; 3];

/// `a + b`.
#[inline]
pub fn add(a: V3, b: V3) -> V3 {
    [a[0] + b[0], a[1] + b[1], a[2] + b[2]]
}

/// `a − b`.
#[inline]
pub fn sub(a: V3, b: V3) -> V3 {
    [a[0] - b[0], a[1] - b[1], a[2] - b[2]]
}

/// `a · s`.
#[inline]
pub fn scale(a: V3, s: f32) -> V3 {
    [a[0] * s, a[1] * s, a[2] * s]
}

/// `a + b · s`.
#[inline]
pub fn add_scaled(a: V3, b: V3, s: f32) -> V3 {
    [a[0] + b[0] * s, a[1] + b[1] * s, a[2] + b[2] * s]
}

/// The dot product `a · b`.
#[inline]
pub fn dot(a: V3, b: V3) -> f32 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}

/// The cross product `a × b` (right-handed).
#[inline]
pub fn cross(a: V3, b: V3) -> V3 {
    [
        a[1] * b[2] - a[2] * b[1],
        a[2] * b[0] - a[0] * b[2],
        a[0] * b[1] - a[1] * b[0],
    ]
}

/// `|a|`.
#[inline]
pub fn length(a: V3) -> f32 {
    dot(a, a).sqrt()
}

/// `a / |a|`, or `None` when `|a|` is not above `1e-12`.
#[inline]
pub fn normalize(a: V3) -> Option<V3> {
    let l = length(a);
    (l > 1e-12).then(|| scale(a, 1.0 / l))
}

/// `a − b` in `f64`.
#[inline]
pub fn sub64(a: [f64; 3], b: [f64; 3]) -> [f64; 3] {
    [a[0] - b[0], a[1] - b[1], a[2] - b[2]]
}

/// `a · b` in `f64`.
#[inline]
pub fn dot64(a: [f64; 3], b: [f64; 3]) -> f64 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}

/// `a × b` in `f64`.
#[inline]
pub fn cross64(a: [f64; 3], b: [f64; 3]) -> [f64; 3] {
    [
        a[1] * b[2] - a[2] * b[1],
        a[2] * b[0] - a[0] * b[2],
        a[0] * b[1] - a[1] * b[0],
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn products_and_lengths() {
        let (x, y, z) = ([1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]);
        assert_eq!(cross(x, y), z);
        assert_eq!(cross(y, z), x);
        assert_eq!(cross(z, x), y);
        let (a, b) = ([1.5, -2.0, 3.25], [-0.5, 4.0, 2.0]);
        assert_eq!(dot(cross(a, b), a), 0.0);
        assert_eq!(dot(cross(a, b), b), 0.0);
        assert_eq!(sub(add(a, b), b), a);
        assert_eq!(add_scaled(a, b, 2.0), add(a, scale(b, 2.0)));
        assert_eq!(length([3.0, 4.0, 12.0]), 13.0);
        assert_eq!(normalize([0.0, 0.0, -2.0]), Some([0.0, 0.0, -1.0]));
        assert_eq!(normalize([1e-13, 0.0, 0.0]), None);
    }

    #[test]
    fn f64_matches_f32_on_exact_inputs() {
        let (a, b) = ([1.5f32, -2.0, 3.25], [-0.5f32, 4.0, 2.0]);
        let (a64, b64) = (a.map(f64::from), b.map(f64::from));
        assert_eq!(sub64(a64, b64), sub(a, b).map(f64::from));
        assert_eq!(dot64(a64, b64), f64::from(dot(a, b)));
        assert_eq!(cross64(a64, b64), cross(a, b).map(f64::from));
    }
}
