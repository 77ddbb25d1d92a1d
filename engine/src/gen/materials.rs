//! Material choice: the surface and soil layers of each column, and rock strata by absolute height,
//! one set of rules per biome.
//!
//! Underground rock depends only on the voxel's Y (flat horizontal bands), never on per-voxel noise, so
//! whole X rows stay uniform and the storage packs them. Only the thin surface and soil layers vary
//! from column to column.

use noise::{Fbm, MultiFractal, NoiseFn, SuperSimplex};

use super::biome::Biome;
use super::math::{derive_seed, hash01};
use crate::voxel::MaterialTable;
use crate::Result;

const SALT_PATCH: u32 = 20;
const SALT_BANDS: u32 = 21;

/// Material ids the generator uses, looked up by name once.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Palette {
    pub(crate) water: u8,
    pub(crate) grass: u8,
    pub(crate) leafy_grass: u8,
    pub(crate) ground: u8,
    pub(crate) sand: u8,
    pub(crate) sandstone: u8,
    pub(crate) rock: u8,
    pub(crate) slate: u8,
    pub(crate) basalt: u8,
    pub(crate) limestone: u8,
    pub(crate) snow: u8,
    pub(crate) clay: u8,
    pub(crate) mud: u8,
    pub(crate) ice: u8,
    pub(crate) glacier: u8,
    pub(crate) cracked_lava: u8,
}

impl Palette {
    /// Look every material up in `table`.
    ///
    /// # Errors
    /// [`crate::Error::Invalid`] naming a material the table lacks.
    pub(crate) fn new(table: &MaterialTable) -> Result<Self> {
        Ok(Self {
            water: table.require("Water")?,
            grass: table.require("Grass")?,
            leafy_grass: table.require("LeafyGrass")?,
            ground: table.require("Ground")?,
            sand: table.require("Sand")?,
            sandstone: table.require("Sandstone")?,
            rock: table.require("Rock")?,
            slate: table.require("Slate")?,
            basalt: table.require("Basalt")?,
            limestone: table.require("Limestone")?,
            snow: table.require("Snow")?,
            clay: table.require("Clay")?,
            mud: table.require("Mud")?,
            ice: table.require("Ice")?,
            glacier: table.require("Glacier")?,
            cracked_lava: table.require("CrackedLava")?,
        })
    }
}

/// The layers at the top of one column, counted in whole voxels down from its highest solid voxel.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Layers {
    /// Surface material (grass, sand, snow, rock).
    pub(crate) top: u8,
    /// Voxels of `top`, including the partially filled one; 0 exposes the strata.
    pub(crate) top_depth: u8,
    /// Material just under the surface (ground, sand).
    pub(crate) soil: u8,
    /// Voxels of `soil` under the surface layer.
    pub(crate) soil_depth: u8,
}

/// Per-biome material rules: surface choice by height, slope and patch noise, strata by Y. Heights
/// are in the biome's own frame (see [`super::shape::Shape::datum`]).
pub(crate) struct MaterialRules {
    biome: Biome,
    palette: Palette,
    /// Rock material for each Y in `0..y_size`.
    strata: Vec<u8>,
    /// Real sea level in voxels (0 without water).
    sea: f64,
    /// Columns whose surface is below `sea + beach` get sand.
    beach: f64,
    /// Snow above this height (mountains only; infinite elsewhere).
    snow_line: f64,
    /// Bare rock above this height, below the snow (mountains only; infinite elsewhere).
    rock_line: f64,
    /// Height variation of the snow line and beach, in voxels.
    jitter: f64,
    /// Slope (rise per voxel) above which the surface is bare rock.
    steep: f64,
    /// One over the horizontal patch size in voxels.
    patch_freq: f64,
    patch: Fbm<SuperSimplex>,
}

impl MaterialRules {
    /// The rules for `biome` in a world `y_size` high whose water fills below `sea` voxels (in the
    /// biome's frame; 0 without water).
    pub(crate) fn new(biome: Biome, y_size: u32, seed: u32, sea: f64, palette: Palette) -> Self {
        let y = f64::from(y_size.max(1));
        let (snow_line, rock_line) = match biome {
            Biome::Mountains => (0.6 * y, 0.5 * y),
            // Lavascape: cracked lava below this line.
            Biome::Lavascape => (f64::INFINITY, 0.255 * y),
            _ => (f64::INFINITY, f64::INFINITY),
        };
        Self {
            biome,
            palette,
            strata: strata(biome, y_size, seed, &palette),
            sea,
            beach: (0.012 * y).max(1.0),
            snow_line,
            rock_line,
            jitter: 0.05 * y,
            steep: match biome {
                Biome::Canyons => 0.8,
                Biome::Mountains | Biome::Arctic => 0.9,
                Biome::Dunes => 1.3,
                _ => 1.0,
            },
            patch_freq: 1.0 / (0.25 * y).max(8.0),
            patch: Fbm::<SuperSimplex>::new(derive_seed(seed, SALT_PATCH)).set_octaves(3),
        }
    }

    /// Rock material for each Y in the world.
    pub(crate) fn strata(&self) -> &[u8] {
        &self.strata
    }

    /// The material of the top layer of water in this biome (ice in the arctic).
    pub(crate) fn water_top(&self) -> u8 {
        match self.biome {
            Biome::Arctic => self.palette.ice,
            _ => self.palette.water,
        }
    }

    /// Surface and soil layers of the column at (x, z) with surface height `h` and slope `slope`.
    pub(crate) fn layers(&self, x: f64, z: f64, h: f64, slope: f64) -> Layers {
        let p = &self.palette;
        if self.biome == Biome::Flat {
            return Layers {
                top: p.grass,
                top_depth: 1,
                soil: p.ground,
                soil_depth: 3,
            };
        }
        let (px, pz) = (x * self.patch_freq, z * self.patch_freq);
        let patch = self.patch.get([px, pz]);
        let grain = self.patch.get([px * 3.1 + 71.3, pz * 3.1 - 12.9]);
        // 1 to 4 voxels of soil, thinner on slopes.
        let soil_depth = (1.0 + 3.0 * (grain * 0.5 + 0.5) - 2.0 * slope).clamp(1.0, 4.0) as u8;
        let shore = h < self.sea + self.beach * (1.0 + 0.6 * grain);
        match self.biome {
            Biome::Hills | Biome::Mountains | Biome::Canyons | Biome::Islands | Biome::Plains => {
                self.temperate(h, slope, patch, grain, soil_depth, shore)
            }
            _ => self.special(h, slope, patch, soil_depth, shore),
        }
    }

    /// The presets' rules (and plains): grass, beaches, snow caps, rock on steep ground.
    fn temperate(
        &self,
        h: f64,
        slope: f64,
        patch: f64,
        grain: f64,
        soil: u8,
        shore: bool,
    ) -> Layers {
        let p = &self.palette;
        if h > self.snow_line + self.jitter * patch && slope < 1.6 * self.steep {
            return layers(p.snow, p.rock, 0);
        }
        if slope > self.steep || h > self.rock_line + self.jitter * grain {
            return match self.biome {
                // Canyon walls show the horizontal bands.
                Biome::Canyons => Layers {
                    top: p.sandstone,
                    top_depth: 0,
                    soil: p.sandstone,
                    soil_depth: 0,
                },
                _ => layers(p.rock, p.rock, 0),
            };
        }
        if self.sea > 0.0 && shore {
            return layers(p.sand, p.sand, soil + 1);
        }
        match self.biome {
            Biome::Canyons if patch < 0.2 => layers(p.sand, p.sand, soil + 1),
            _ if patch > 0.3 => layers(p.leafy_grass, p.ground, soil),
            _ => layers(p.grass, p.ground, soil),
        }
    }

    /// Water, dunes, arctic, marsh and lavascape.
    fn special(&self, h: f64, slope: f64, patch: f64, soil: u8, shore: bool) -> Layers {
        let p = &self.palette;
        let steep = slope > self.steep;
        match self.biome {
            Biome::Water if steep => layers(p.rock, p.rock, 0),
            Biome::Water if patch > 0.35 => layers(p.mud, p.sand, soil),
            Biome::Water => layers(p.sand, p.sand, soil + 1),
            Biome::Dunes if steep => Layers {
                top: p.sandstone,
                top_depth: 0,
                soil: p.sandstone,
                soil_depth: 0,
            },
            Biome::Dunes => layers(p.sand, p.sand, soil + 3),
            Biome::Arctic if steep => layers(p.glacier, p.ice, 1),
            Biome::Arctic if shore => layers(p.ice, p.ice, soil),
            Biome::Arctic => layers(p.snow, p.snow, soil),
            Biome::Marsh if steep => layers(p.ground, p.ground, soil),
            Biome::Marsh if shore || patch < -0.2 => layers(p.mud, p.mud, soil + 1),
            Biome::Marsh if patch > 0.2 => layers(p.leafy_grass, p.mud, soil),
            Biome::Marsh => layers(p.grass, p.mud, soil),
            Biome::Lavascape if h < self.rock_line + self.jitter * 0.3 * patch && !steep => {
                layers(p.cracked_lava, p.basalt, 1)
            }
            _ => layers(p.basalt, p.basalt, 0),
        }
    }
}

/// Two voxels of `top` over `soil_depth` voxels of `soil`.
fn layers(top: u8, soil: u8, soil_depth: u8) -> Layers {
    Layers {
        top,
        top_depth: 2,
        soil,
        soil_depth,
    }
}

/// Rock material by absolute Y: basalt at the bottom, then slate and rock, or sedimentary bands
/// (sandstone, clay, limestone) for canyons and dunes. Flat worlds are plain rock, lavascape basalt.
fn strata(biome: Biome, y_size: u32, seed: u32, p: &Palette) -> Vec<u8> {
    let n = y_size as usize;
    match biome {
        Biome::Flat => return vec![p.rock; n],
        Biome::Lavascape => return vec![p.basalt; n],
        _ => {}
    }
    let y = f64::from(y_size);
    let basalt_top = (0.03 * y).round().max(1.0) as usize;
    let mut out = Vec::with_capacity(n);
    out.resize(basalt_top.min(n), p.basalt);
    if !matches!(biome, Biome::Canyons | Biome::Dunes) {
        let slate_top = (0.2 * y).round() as usize;
        out.resize(slate_top.clamp(out.len(), n), p.slate);
        out.resize(n, p.rock);
        return out;
    }
    let rock_top = (0.1 * y).round() as usize;
    out.resize(rock_top.clamp(out.len(), n), p.rock);
    let band = (0.03 * y).max(2.0);
    let mut prev = p.rock;
    let mut k = 0i64;
    while out.len() < n {
        let thickness = (band * (0.5 + hash01(seed, SALT_BANDS, 2 * k)))
            .round()
            .max(1.0) as usize;
        let pick = hash01(seed, SALT_BANDS, 2 * k + 1);
        let mut m = if pick < 0.55 {
            p.sandstone
        } else if pick < 0.8 {
            p.clay
        } else {
            p.limestone
        };
        if m == prev {
            m = if m == p.sandstone {
                p.clay
            } else {
                p.sandstone
            };
        }
        out.resize((out.len() + thickness).min(n), m);
        prev = m;
        k += 1;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rules(biome: Biome, y: u32) -> MaterialRules {
        let table = MaterialTable::builtin();
        let palette = Palette::new(&table).expect("builtin table has every material");
        MaterialRules::new(biome, y, 4, 0.3 * f64::from(y), palette)
    }

    #[test]
    fn missing_materials_are_reported() {
        let mut table = MaterialTable::builtin();
        table.materials.retain(|m| m.name != "Basalt");
        assert!(Palette::new(&table).is_err());
    }

    #[test]
    fn strata_cover_every_height_with_a_basalt_floor() {
        for biome in Biome::ALL {
            for y in [1, 2, 33, 128, 4096] {
                let r = rules(biome, y);
                assert_eq!(r.strata().len(), y as usize);
                let p = r.palette;
                let bottom = if biome == Biome::Flat {
                    p.rock
                } else {
                    p.basalt
                };
                assert_eq!(r.strata()[0], bottom, "{biome} {y}");
            }
        }
        let r = rules(Biome::Canyons, 256);
        let p = r.palette;
        let bands = &r.strata()[40..200];
        for m in [p.sandstone, p.clay] {
            assert!(bands.contains(&m));
        }
        assert!(bands
            .iter()
            .all(|&m| [p.sandstone, p.clay, p.limestone].contains(&m)));
        let r = rules(Biome::Hills, 256);
        assert_eq!(r.strata()[100], r.palette.rock);
        assert_eq!(r.strata()[20], r.palette.slate);
    }

    #[test]
    fn surface_follows_height_and_slope() {
        let r = rules(Biome::Hills, 100);
        let p = r.palette;
        let gentle = r.layers(10.0, 10.0, 60.0, 0.1);
        assert!([p.grass, p.leafy_grass].contains(&gentle.top));
        assert_eq!(gentle.soil, p.ground);
        assert!((1..=4).contains(&gentle.soil_depth));
        assert_eq!(r.layers(10.0, 10.0, 60.0, 2.0).top, p.rock);
        assert_eq!(r.layers(10.0, 10.0, 20.0, 0.1).top, p.sand);
        let m = rules(Biome::Mountains, 100);
        assert_eq!(m.layers(0.0, 0.0, 95.0, 0.3).top, m.palette.snow);
        let c = rules(Biome::Canyons, 100);
        assert_eq!(c.layers(0.0, 0.0, 60.0, 3.0).top_depth, 0);
        let f = rules(Biome::Flat, 100).layers(3.0, 4.0, 25.0, 0.0);
        assert_eq!((f.top_depth, f.soil_depth), (1, 3));
    }

    #[test]
    fn each_new_biome_has_its_own_surface() {
        let top = |b: Biome, h: f64, slope: f64| {
            let r = rules(b, 100);
            (r.layers(10.0, 20.0, h, slope).top, r.palette)
        };
        let (t, p) = top(Biome::Dunes, 40.0, 0.2);
        assert_eq!(t, p.sand);
        let (t, p) = top(Biome::Arctic, 50.0, 0.1);
        assert_eq!(t, p.snow);
        let (t, p) = top(Biome::Arctic, 50.0, 2.0);
        assert_eq!(t, p.glacier);
        let (t, p) = top(Biome::Arctic, 30.2, 0.0);
        assert_eq!(t, p.ice);
        let (t, p) = top(Biome::Marsh, 30.2, 0.0);
        assert_eq!(t, p.mud);
        let (t, p) = top(Biome::Lavascape, 20.0, 0.1);
        assert_eq!(t, p.cracked_lava);
        let (t, p) = top(Biome::Lavascape, 45.0, 0.1);
        assert_eq!(t, p.basalt);
        let (t, p) = top(Biome::Water, 15.0, 3.0);
        assert_eq!(t, p.rock);
        let r = rules(Biome::Arctic, 100);
        assert_eq!(r.water_top(), r.palette.ice);
        assert_eq!(rules(Biome::Hills, 100).water_top(), r.palette.water);
        let lava = rules(Biome::Lavascape, 64);
        assert!(lava.strata().iter().all(|&m| m == lava.palette.basalt));
    }
}
