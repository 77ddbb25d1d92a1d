//! Height fields: the terrain surface height of each biome as a function of (x, z).
//!
//! Heights are computed as a fraction of the world's Y size and scaled, so a 64-voxel-high world and a
//! 4096-voxel-high one have the same proportions. Horizontal feature sizes scale with the Y size too
//! (`scale` below), which keeps slopes, and therefore surface materials, the same at every size.
//!
//! The 2D sources are SuperSimplex rather than Perlin: the `noise` crate's 2D Perlin has only four
//! diagonal gradients, which shows as grid-aligned streaks in ridged and thresholded noise.
//!
//! Each biome has a sea level of its own ([`Shape::sea_fraction`], used when it is alone in a world,
//! as the presets are) and a datum ([`Shape::datum`]): in a mix of biomes every shape is shifted so
//! its datum lands on the mix's common sea level, which keeps each biome's lakes, beaches and snow
//! lines where they belong relative to the shared water.

use noise::{Fbm, MultiFractal, NoiseFn, RidgedMulti, SuperSimplex};

use super::biome::Biome;
use super::math::{derive_seed, lerp, smoothstep};

/// Noise salts: one per noise source, so each is seeded independently from the world seed.
const SALT_BASE: u32 = 1;
const SALT_MASK: u32 = 2;
const SALT_RIDGE: u32 = 3;
const SALT_WARP_X: u32 = 4;
const SALT_WARP_Z: u32 = 5;
const SALT_DETAIL: u32 = 6;

/// Wavelength in voxels of the finest octave generation uses.
const FINEST_VOXELS: f64 = 3.0;

/// The 2D noise primitive behind every fractal.
type Source = SuperSimplex;

/// The surface height function of one world.
pub(crate) struct Shape {
    biome: Biome,
    /// World height in voxels.
    y_size: f64,
    /// One over the horizontal feature scale in voxels.
    inv_scale: f64,
    /// Main fractal relief.
    base: Fbm<Source>,
    /// Low-frequency regional mask (lakes, mountain ranges, island groups).
    mask: Fbm<Source>,
    /// Ridged relief for mountains.
    ridge: RidgedMulti<Source>,
    /// Domain warp along X (winding canyons).
    warp_x: Fbm<Source>,
    /// Domain warp along Z.
    warp_z: Fbm<Source>,
    /// Canyon network.
    detail: Fbm<Source>,
}

fn fbm(seed: u32, salt: u32, octaves: usize, persistence: f64) -> Fbm<Source> {
    Fbm::<Source>::new(derive_seed(seed, salt))
        .set_octaves(octaves)
        .set_persistence(persistence)
}

impl Shape {
    /// The height function for `biome` in a world `y_size` voxels high.
    pub(crate) fn new(biome: Biome, y_size: u32, seed: u32) -> Self {
        Self::with_detail(biome, y_size, seed, FINEST_VOXELS)
    }

    /// [`Shape::new`] whose finest octave has a wavelength of about `finest` voxels instead of
    /// [`FINEST_VOXELS`]: a preview with pixels several voxels wide skips the octaves it cannot show.
    pub(crate) fn with_detail(biome: Biome, y_size: u32, seed: u32, finest: f64) -> Self {
        let y_size = f64::from(y_size.max(1));
        let scale = y_size.max(16.0);
        // Enough octaves for the finest one to reach a few voxels, within a sane range.
        let octaves = ((scale / finest.max(FINEST_VOXELS)).log2()
            / Fbm::<Source>::DEFAULT_LACUNARITY.log2())
        .ceil();
        let octaves = (octaves as usize).clamp(3, 10);
        // Persistence of the main relief: smoother rolling hills, rougher elsewhere.
        let roughness = match biome {
            Biome::Hills | Biome::Plains => 0.4,
            Biome::Islands | Biome::Marsh => 0.45,
            _ => 0.5,
        };
        Self {
            biome,
            y_size,
            inv_scale: 1.0 / scale,
            base: fbm(seed, SALT_BASE, octaves, roughness),
            mask: fbm(seed, SALT_MASK, 3, 0.5),
            ridge: RidgedMulti::<Source>::new(derive_seed(seed, SALT_RIDGE))
                .set_octaves(octaves)
                .set_persistence(0.6),
            warp_x: fbm(seed, SALT_WARP_X, 3, 0.5),
            warp_z: fbm(seed, SALT_WARP_Z, 3, 0.5),
            detail: fbm(seed, SALT_DETAIL, 3, 0.5),
        }
    }

    /// Sea level as a fraction of the Y size when the biome is alone in a world (water fills below
    /// it); 0 for biomes without water.
    pub(crate) fn sea_fraction(&self) -> f64 {
        if !self.biome.has_water() {
            return 0.0;
        }
        match self.biome {
            Biome::Hills | Biome::Water | Biome::Marsh => 0.30,
            Biome::Mountains => 0.19,
            Biome::Canyons => 0.195,
            Biome::Islands => 0.40,
            Biome::Plains => 0.20,
            Biome::Arctic => 0.25,
            Biome::Flat | Biome::Dunes | Biome::Lavascape => 0.0,
        }
    }

    /// The height (fraction of the Y size) that lines up with a mix's common sea level: the sea level
    /// for biomes with water, a level a little below the ground for dry ones.
    pub(crate) fn datum(&self) -> f64 {
        match self.biome {
            Biome::Flat => self.flat_height() / self.y_size - 0.03,
            Biome::Dunes | Biome::Lavascape => 0.2,
            _ => self.sea_fraction(),
        }
    }

    /// The flat preset's ground height: a whole number of voxels, at least 1.
    pub(crate) fn flat_height(&self) -> f64 {
        (self.y_size * 0.25).round().clamp(1.0, self.y_size)
    }

    /// Surface height in voxels at world column (x, z), clamped to `0..=y_size`.
    pub(crate) fn height(&self, x: f64, z: f64) -> f64 {
        if self.biome == Biome::Flat {
            return self.flat_height();
        }
        (self.fraction(x, z) * self.y_size).clamp(0.0, self.y_size)
    }

    /// Surface height at world column (x, z) as an unclamped fraction of the Y size.
    pub(crate) fn fraction(&self, x: f64, z: f64) -> f64 {
        let u = x * self.inv_scale;
        let v = z * self.inv_scale;
        match self.biome {
            Biome::Hills => self.hills(u, v),
            Biome::Mountains => self.mountains(u, v),
            Biome::Canyons => self.canyons(u, v),
            Biome::Islands => self.islands(u, v),
            Biome::Flat => self.flat_height() / self.y_size,
            Biome::Water => self.water(u, v),
            Biome::Plains => self.plains(u, v),
            Biome::Dunes => self.dunes(u, v),
            Biome::Arctic => self.arctic(u, v),
            Biome::Marsh => self.marsh(u, v),
            Biome::Lavascape => self.lavascape(u, v),
        }
    }

    fn hills(&self, u: f64, v: f64) -> f64 {
        let relief = self.base.get([u * 0.9, v * 0.9]);
        let lakes = self.mask.get([u * 0.35 + 17.3, v * 0.35 - 4.1]);
        0.48 + 0.24 * relief - 0.16 * smoothstep(0.0, 0.45, lakes)
    }

    fn mountains(&self, u: f64, v: f64) -> f64 {
        // A light domain warp breaks the ridge lines into branching spurs.
        let wu = u + 0.12 * self.warp_x.get([u * 2.0, v * 2.0]);
        let wv = v + 0.12 * self.warp_z.get([u * 2.0 + 9.2, v * 2.0 - 3.3]);
        let ridges = (self.ridge.get([wu * 1.1, wv * 1.1]) * 0.5 + 0.5).clamp(0.0, 1.0);
        let range = smoothstep(-0.6, 0.3, self.mask.get([u * 0.35, v * 0.35]));
        let foothills = self.base.get([u * 1.3 + 31.7, v * 1.3 + 5.9]);
        let massif = range * (0.25 + 0.45 * ridges.powf(1.2));
        0.2 + massif + 0.1 * ridges * (1.0 - range) + 0.03 * foothills
    }

    /// Approximate distance (in scale units) to the nearest canyon centre line: the zero set of a
    /// domain-warped fractal.
    fn canyon_distance(&self, u: f64, v: f64) -> f64 {
        let network = |u: f64, v: f64| {
            let wu = u + 0.5 * self.warp_x.get([u * 0.6, v * 0.6]);
            let wv = v + 0.5 * self.warp_z.get([u * 0.6 + 9.2, v * 0.6 - 3.3]);
            self.detail.get([wu * 0.3, wv * 0.3])
        };
        // |n| / |grad n| estimates the distance to the zero set, so canyon widths do not depend on how
        // steeply the noise happens to cross zero.
        const E: f64 = 0.002;
        let n = network(u, v);
        let gu = (network(u + E, v) - n) / E;
        let gv = (network(u, v + E) - n) / E;
        n.abs() / gu.hypot(gv).max(0.1)
    }

    fn canyons(&self, u: f64, v: f64) -> f64 {
        let d = self.canyon_distance(u, v);
        let floor_width = 0.06 + 0.04 * self.mask.get([u * 0.5, v * 0.5]);
        let open = smoothstep(floor_width, floor_width + 0.3, d);
        let plateau = 0.64 + 0.06 * self.base.get([u * 0.6 + 13.1, v * 0.6 + 7.7]);
        let floor = 0.225 + 0.01 * self.mask.get([u * 2.0 - 5.0, v * 2.0 + 8.0]);
        let raw = lerp(floor, plateau, open);
        // Terraces: flat treads and steep risers, blended with the raw slope.
        let step = 0.065;
        let q = raw / step;
        let k = q.floor();
        let terraced = (k + smoothstep(0.45, 0.75, q - k)) * step;
        let walls = lerp(raw, terraced, 0.8);
        // The river channel sinks below the sea level along the canyon centre line.
        let river = 1.0 - smoothstep(0.0, 0.02, d);
        walls - 0.05 * river
    }

    fn islands(&self, u: f64, v: f64) -> f64 {
        let relief = self.base.get([u * 0.8, v * 0.8]);
        let groups = self.mask.get([u * 0.3 - 2.7, v * 0.3 + 11.9]);
        let e = 0.8 * relief + 0.35 * groups - 0.17;
        if e > 0.0 {
            0.40 + 0.55 * e
        } else {
            0.40 - 0.26 * (2.8 * -e).tanh()
        }
    }

    /// Sea floor 6 to 17 % of the height below the surface, with a few sandbanks.
    fn water(&self, u: f64, v: f64) -> f64 {
        let relief = self.base.get([u * 0.7, v * 0.7]);
        let banks = smoothstep(0.2, 0.6, self.mask.get([u * 0.4 + 3.1, v * 0.4 - 7.7]));
        0.13 + 0.06 * relief + 0.09 * banks
    }

    /// Low swells a little above the water; ponds fill the deepest hollows.
    fn plains(&self, u: f64, v: f64) -> f64 {
        let relief = self.base.get([u * 0.5 + 5.3, v * 0.5 - 1.9]);
        let swell = self.mask.get([u * 0.25 - 8.1, v * 0.25 + 2.2]);
        0.235 + 0.03 * relief + 0.03 * swell
    }

    /// Dune ridges across a winding wind direction: a long windward rise, then a steep lee face.
    fn dunes(&self, u: f64, v: f64) -> f64 {
        let bend = self.warp_x.get([u * 0.8, v * 0.8]);
        let phase = u * 5.0 + v * 2.0 + 1.2 * bend + 0.3 * self.base.get([u * 2.0, v * 2.0]);
        let t = phase - phase.floor();
        let profile = if t < 0.6 {
            smoothstep(0.0, 0.6, t)
        } else {
            1.0 - smoothstep(0.6, 1.0, t)
        };
        let field = self.mask.get([u * 0.5 + 4.4, v * 0.5 + 1.7]);
        0.215 + 0.03 * field + (0.05 + 0.03 * field) * profile
    }

    /// Snowfields a little above a frozen sea, with raised glacier shelves behind steep edges.
    fn arctic(&self, u: f64, v: f64) -> f64 {
        let rolling = self.base.get([u * 0.7 - 6.2, v * 0.7 + 3.9]);
        let shelf = smoothstep(0.05, 0.2, self.mask.get([u * 0.4 + 1.3, v * 0.4 - 9.4]));
        let crest = self.detail.get([u * 1.5, v * 1.5]);
        0.27 + 0.05 * rolling + 0.14 * shelf + 0.04 * shelf * crest
    }

    /// Barely above the water: the lowest hollows hold shallow pools.
    fn marsh(&self, u: f64, v: f64) -> f64 {
        let relief = self.base.get([u * 1.2 - 2.8, v * 1.2 + 6.6]);
        let swell = self.mask.get([u * 0.3 + 12.5, v * 0.3 - 0.7]);
        0.308 + 0.018 * relief + 0.01 * swell
    }

    /// Sharp basalt ridges over low lava plains.
    fn lavascape(&self, u: f64, v: f64) -> f64 {
        let ridges = (self.ridge.get([u * 0.9 + 2.6, v * 0.9 - 4.8]) * 0.5 + 0.5).clamp(0.0, 1.0);
        let rough = self.base.get([u * 1.5 + 7.7, v * 1.5 + 3.3]);
        0.22 + 0.16 * ridges * ridges + 0.04 * rough
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample(shape: &Shape, n: i32, step: f64) -> Vec<f64> {
        let mut out = Vec::new();
        for i in 0..n {
            for j in 0..n {
                out.push(shape.height(f64::from(i) * step, f64::from(j) * step));
            }
        }
        out
    }

    #[test]
    fn heights_stay_inside_the_world_for_every_size() {
        for biome in Biome::ALL {
            for y in [1, 16, 64, 4096] {
                let shape = Shape::new(biome, y, 3);
                for h in sample(&shape, 24, 37.0) {
                    assert!((0.0..=f64::from(y)).contains(&h), "{biome} {y}: {h}");
                }
            }
        }
    }

    #[test]
    fn biomes_sit_where_they_belong_relative_to_their_water() {
        let y = 256.0;
        let frac_below =
            |v: &[f64], t: f64| v.iter().filter(|&&h| h < t * y).count() as f64 / v.len() as f64;
        for biome in Biome::ALL {
            let shape = Shape::new(biome, 256, 4);
            let heights = sample(&shape, 48, 11.0);
            let wet = frac_below(&heights, shape.datum());
            let (lo, hi) = match biome {
                Biome::Water => (0.99, 1.0),
                Biome::Islands => (0.5, 0.95),
                Biome::Marsh => (0.05, 0.6),
                Biome::Flat | Biome::Dunes => (0.0, 0.0),
                _ => (0.0, 0.3),
            };
            assert!((lo..=hi).contains(&wet), "{biome}: {wet} below the datum");
            let sea = shape.sea_fraction();
            assert_eq!(sea > 0.0, biome.has_water(), "{biome}");
            if sea > 0.0 {
                assert_eq!(shape.datum(), sea, "{biome}");
            }
        }
    }

    #[test]
    fn heights_scale_with_the_world_height() {
        // The same relative point of a taller world is proportionally higher.
        for biome in Biome::ALL {
            let small = Shape::new(biome, 128, 9);
            let tall = Shape::new(biome, 1024, 9);
            let a = small.height(100.0, 50.0) / 128.0;
            let b = tall.height(800.0, 400.0) / 1024.0;
            assert!((a - b).abs() < 0.03, "{biome}: {a} vs {b}");
        }
    }

    #[test]
    fn flat_is_level() {
        let shape = Shape::new(Biome::Flat, 64, 1);
        assert!(sample(&shape, 10, 13.0).iter().all(|&h| h == 16.0));
        assert_eq!(Shape::new(Biome::Flat, 1, 1).flat_height(), 1.0);
    }

    #[test]
    fn presets_have_their_character() {
        let mean = |v: &[f64]| v.iter().sum::<f64>() / v.len() as f64;
        let frac_below =
            |v: &[f64], t: f64| v.iter().filter(|&&h| h < t).count() as f64 / v.len() as f64;
        let y = 256.0;
        let get = |b| sample(&Shape::new(b, 256, 1), 64, 12.0);
        let hills = get(Biome::Hills);
        assert!(
            (0.35..0.6).contains(&(mean(&hills) / y)),
            "hills mean {}",
            mean(&hills)
        );
        let islands = get(Biome::Islands);
        let sea = 0.4 * y;
        let ocean = frac_below(&islands, sea);
        assert!(
            (0.5..0.95).contains(&ocean),
            "islands ocean fraction {ocean}"
        );
        let mountains = get(Biome::Mountains);
        let peak = mountains.iter().copied().fold(0.0, f64::max);
        assert!(peak > 0.7 * y, "mountain peak {peak}");
        let canyons = get(Biome::Canyons);
        let high = 1.0 - frac_below(&canyons, 0.5 * y);
        let deep = frac_below(&canyons, 0.3 * y);
        assert!(
            high > 0.4 && deep > 0.03,
            "canyons plateau {high} floor {deep}"
        );
    }
}
