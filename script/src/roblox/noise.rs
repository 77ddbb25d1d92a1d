//! `math.noise(x, y, z)`: gradient (Perlin) noise as Roblox provides it, 0 at every integer
//! point and within about ±1 elsewhere. The permutation is Ken Perlin's published table, so a
//! script sees the same values on every machine and every run.

use mlua::Lua;

const PERM: [u8; 256] = [
    151, 160, 137, 91, 90, 15, 131, 13, 201, 95, 96, 53, 194, 233, 7, 225, 140, 36, 103, 30, 69,
    142, 8, 99, 37, 240, 21, 10, 23, 190, 6, 148, 247, 120, 234, 75, 0, 26, 197, 62, 94, 252, 219,
    203, 117, 35, 11, 32, 57, 177, 33, 88, 237, 149, 56, 87, 174, 20, 125, 136, 171, 168, 68, 175,
    74, 165, 71, 134, 139, 48, 27, 166, 77, 146, 158, 231, 83, 111, 229, 122, 60, 211, 133, 230,
    220, 105, 92, 41, 55, 46, 245, 40, 244, 102, 143, 54, 65, 25, 63, 161, 1, 216, 80, 73, 209, 76,
    132, 187, 208, 89, 18, 169, 200, 196, 135, 130, 116, 188, 159, 86, 164, 100, 109, 198, 173,
    186, 3, 64, 52, 217, 226, 250, 124, 123, 5, 202, 38, 147, 118, 126, 255, 82, 85, 212, 207, 206,
    59, 227, 47, 16, 58, 17, 182, 189, 28, 42, 223, 183, 170, 213, 119, 248, 152, 2, 44, 154, 163,
    70, 221, 153, 101, 155, 167, 43, 172, 9, 129, 22, 39, 253, 19, 98, 108, 110, 79, 113, 224, 232,
    178, 185, 112, 104, 218, 246, 97, 228, 251, 34, 242, 193, 238, 210, 144, 12, 191, 179, 162,
    241, 81, 51, 145, 235, 249, 14, 239, 107, 49, 192, 214, 31, 181, 199, 106, 157, 184, 84, 204,
    176, 115, 121, 50, 45, 127, 4, 150, 254, 138, 236, 205, 93, 222, 114, 67, 29, 24, 72, 243, 141,
    128, 195, 78, 66, 215, 61, 156, 180,
];

fn p(i: usize) -> usize {
    usize::from(PERM[i & 255])
}

fn fade(t: f64) -> f64 {
    t * t * t * (t * (t * 6.0 - 15.0) + 10.0)
}

fn lerp(t: f64, a: f64, b: f64) -> f64 {
    a + t * (b - a)
}

fn grad(hash: usize, x: f64, y: f64, z: f64) -> f64 {
    let h = hash & 15;
    let u = if h < 8 { x } else { y };
    let v = if h < 4 {
        y
    } else if h == 12 || h == 14 {
        x
    } else {
        z
    };
    (if h & 1 == 0 { u } else { -u }) + (if h & 2 == 0 { v } else { -v })
}

/// Gradient noise at `(x, y, z)`: 0 at integer points, about −1 to 1 elsewhere.
pub fn noise3(x: f64, y: f64, z: f64) -> f64 {
    if !(x.is_finite() && y.is_finite() && z.is_finite()) {
        return 0.0;
    }
    let (fx, fy, fz) = (x.floor(), y.floor(), z.floor());
    let (xi, yi, zi) = (
        fx.rem_euclid(256.0) as usize,
        fy.rem_euclid(256.0) as usize,
        fz.rem_euclid(256.0) as usize,
    );
    let (x, y, z) = (x - fx, y - fy, z - fz);
    let (u, v, w) = (fade(x), fade(y), fade(z));
    let a = p(xi) + yi;
    let (aa, ab) = (p(a) + zi, p(a + 1) + zi);
    let b = p(xi + 1) + yi;
    let (ba, bb) = (p(b) + zi, p(b + 1) + zi);
    lerp(
        w,
        lerp(
            v,
            lerp(u, grad(p(aa), x, y, z), grad(p(ba), x - 1.0, y, z)),
            lerp(
                u,
                grad(p(ab), x, y - 1.0, z),
                grad(p(bb), x - 1.0, y - 1.0, z),
            ),
        ),
        lerp(
            v,
            lerp(
                u,
                grad(p(aa + 1), x, y, z - 1.0),
                grad(p(ba + 1), x - 1.0, y, z - 1.0),
            ),
            lerp(
                u,
                grad(p(ab + 1), x, y - 1.0, z - 1.0),
                grad(p(bb + 1), x - 1.0, y - 1.0, z - 1.0),
            ),
        ),
    )
}

/// Add `noise` to the `math` table of `globals`.
///
/// # Errors
/// When `math` is missing or Luau cannot allocate.
pub fn install(lua: &Lua, globals: &mlua::Table) -> mlua::Result<()> {
    let math: mlua::Table = globals.get("math")?;
    math.set(
        "noise",
        lua.create_function(|_, (x, y, z): (f64, Option<f64>, Option<f64>)| {
            Ok(noise3(x, y.unwrap_or(0.0), z.unwrap_or(0.0)))
        })?,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn zero_on_integers_bounded_and_smooth() {
        assert_eq!(noise3(3.0, -7.0, 12.0), 0.0);
        let mut max: f64 = 0.0;
        for i in 0..2000 {
            let t = f64::from(i) * 0.137;
            let n = noise3(t, t * 0.5 + 0.3, 1.7 - t);
            max = max.max(n.abs());
            assert!(n.abs() <= 1.1, "{n}");
            let step = (noise3(t + 1e-4, t * 0.5 + 0.3, 1.7 - t) - n).abs();
            assert!(step < 1e-3, "continuous");
        }
        assert!(max > 0.3, "not flat: {max}");
        assert_eq!(noise3(0.3, 0.4, 0.5), noise3(0.3, 0.4, 0.5));
    }
}
