//! Terrain presets and the generator settings a user chooses (preset, world size, seed), and the full
//! [`WorldSettings`] (the same plus the biome mix) that generation reads.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

use super::biome::{Biome, BiomeSettings};
use super::limits::{MAX_HORIZONTAL_SIZE, MAX_VERTICAL_SIZE};
use crate::voxel::{VoxelBox, VoxelPos};
use crate::{Error, Result};

/// The kind of landscape the generator produces.
///
/// Serialized in lower case, the same spelling as [`Preset::name`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Preset {
    /// Rolling grassy hills with a few lakes.
    Hills,
    /// Ridged peaks with snow caps and deep valleys.
    Mountains,
    /// Terraced sandstone plateaus cut by winding canyons with a river at the bottom.
    Canyons,
    /// Mostly ocean with sandy-beached islands.
    Islands,
    /// One perfectly level layer of grass over ground over rock; no caves, no water.
    Flat,
    /// No preset: the world's [`BiomeSettings`] say what it holds (`strata new --biomes`). Not in
    /// [`Preset::ALL`] and not accepted by [`Preset::from_name`]; a header may name it.
    Custom,
}

impl Preset {
    /// Every preset, in menu order.
    pub const ALL: [Preset; 5] = [
        Preset::Hills,
        Preset::Mountains,
        Preset::Canyons,
        Preset::Islands,
        Preset::Flat,
    ];

    /// The preset's lower-case name, as used on the command line and in files.
    pub fn name(self) -> &'static str {
        match self {
            Preset::Hills => "hills",
            Preset::Mountains => "mountains",
            Preset::Canyons => "canyons",
            Preset::Islands => "islands",
            Preset::Flat => "flat",
            Preset::Custom => "custom",
        }
    }

    /// A one-line description for menus and `--help` text.
    pub fn description(self) -> &'static str {
        match self {
            Preset::Hills => "rolling grassy hills with lakes and caves",
            Preset::Mountains => "ridged snow-capped peaks and valleys",
            Preset::Canyons => "terraced sandstone plateaus cut by river canyons",
            Preset::Islands => "ocean dotted with sandy islands",
            Preset::Flat => "level grass over ground over rock",
            Preset::Custom => "a biome mix chosen biome by biome",
        }
    }

    /// The preset called `name` (case-insensitive, surrounding spaces ignored).
    ///
    /// # Errors
    /// [`Error::Invalid`] listing the valid names when `name` matches none.
    pub fn from_name(name: &str) -> Result<Preset> {
        let wanted = name.trim();
        Preset::ALL
            .into_iter()
            .find(|p| p.name().eq_ignore_ascii_case(wanted))
            .ok_or_else(|| {
                let names: Vec<&str> = Preset::ALL.iter().map(|p| p.name()).collect();
                Error::Invalid(format!(
                    "unknown terrain preset {name:?}; expected one of: {}",
                    names.join(", ")
                ))
            })
    }

    /// The biome a preset world consists of; `None` for [`Preset::Custom`].
    pub fn biome(self) -> Option<Biome> {
        match self {
            Preset::Hills => Some(Biome::Hills),
            Preset::Mountains => Some(Biome::Mountains),
            Preset::Canyons => Some(Biome::Canyons),
            Preset::Islands => Some(Biome::Islands),
            Preset::Flat => Some(Biome::Flat),
            Preset::Custom => None,
        }
    }

    /// True when the preset carves caves below the surface. Canyons has none: its relief is the
    /// canyon network itself, and its plateaus stay solid so the world packs tightly.
    pub fn has_caves(self) -> bool {
        self.biome().is_none_or(Biome::default_caves)
    }

    /// True when the preset fills low ground with water up to a sea level.
    pub fn has_water(self) -> bool {
        self.biome().is_none_or(Biome::has_water)
    }
}

impl fmt::Display for Preset {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Preset {
    type Err = Error;

    fn from_str(s: &str) -> Result<Self> {
        Preset::from_name(s)
    }
}

/// Everything the generator's output depends on, besides the material table.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct GeneratorSettings {
    /// Landscape kind.
    pub preset: Preset,
    /// World size in voxels, `[x, y, z]`; Y is up.
    pub size: [u32; 3],
    /// Seed; the same settings always produce the same world.
    pub seed: u32,
}

impl Default for GeneratorSettings {
    fn default() -> Self {
        Self {
            preset: Preset::Hills,
            size: [256, 128, 256],
            seed: 1,
        }
    }
}

impl GeneratorSettings {
    /// Check the world size: X and Z in `1..=16384`, Y in `1..=4096`.
    ///
    /// # Errors
    /// [`Error::Invalid`] naming the first axis out of range.
    pub fn validate(&self) -> Result<()> {
        let limits = [
            ('X', MAX_HORIZONTAL_SIZE),
            ('Y', MAX_VERTICAL_SIZE),
            ('Z', MAX_HORIZONTAL_SIZE),
        ];
        for (&value, (axis, max)) in self.size.iter().zip(limits) {
            if value == 0 || value > max {
                return Err(Error::Invalid(format!(
                    "world size {axis} = {value} is out of range; it must be 1 to {max} voxels"
                )));
            }
        }
        Ok(())
    }

    /// The world's voxels: from the origin (inclusive) to `size` (exclusive).
    pub fn bounds(&self) -> VoxelBox {
        VoxelBox::from_min_size(VoxelPos::new(0, 0, 0), self.size)
    }
}

/// Everything a generated world depends on besides the material table: size, seed and biome mix.
///
/// `biomes` decides the terrain; `preset` only records where the settings came from (a preset, or
/// [`Preset::Custom`] for a biome list) so files and `strata info` can say so.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct WorldSettings {
    /// The preset chosen, or [`Preset::Custom`].
    pub preset: Preset,
    /// World size in voxels, `[x, y, z]`; Y is up.
    pub size: [u32; 3],
    /// Seed; the same settings always produce the same world.
    pub seed: u32,
    /// Biomes, biome size and caves.
    pub biomes: BiomeSettings,
}

impl Default for WorldSettings {
    fn default() -> Self {
        Self::from_preset(&GeneratorSettings::default())
    }
}

impl WorldSettings {
    /// The one-biome world of a preset, with the preset's caves ([`Preset::Custom`] gives the default
    /// biome mix).
    pub fn from_preset(settings: &GeneratorSettings) -> Self {
        Self {
            preset: settings.preset,
            size: settings.size,
            seed: settings.seed,
            biomes: settings
                .preset
                .biome()
                .map_or_else(BiomeSettings::default, BiomeSettings::single),
        }
    }

    /// A world of `biomes` ([`Preset::Custom`]).
    pub fn with_biomes(size: [u32; 3], seed: u32, biomes: BiomeSettings) -> Self {
        Self {
            preset: Preset::Custom,
            size,
            seed,
            biomes,
        }
    }

    /// The settings a project header stores: `generator` (preset, size, seed) plus `biomes`. A
    /// header written before biomes existed has none: the preset's one-biome world.
    pub fn from_header(generator: &GeneratorSettings, biomes: Option<&BiomeSettings>) -> Self {
        match biomes {
            Some(b) => Self {
                biomes: b.clone(),
                ..Self::from_preset(generator)
            },
            None => Self::from_preset(generator),
        }
    }

    /// Preset, size and seed: the `generator` record of a project header.
    pub fn generator(&self) -> GeneratorSettings {
        GeneratorSettings {
            preset: self.preset,
            size: self.size,
            seed: self.seed,
        }
    }

    /// Check the world size and the biome settings.
    ///
    /// # Errors
    /// [`Error::Invalid`] saying what is out of range.
    pub fn validate(&self) -> Result<()> {
        self.generator().validate()?;
        self.biomes.validate()
    }

    /// The world's voxels: from the origin (inclusive) to `size` (exclusive).
    pub fn bounds(&self) -> VoxelBox {
        VoxelBox::from_min_size(VoxelPos::new(0, 0, 0), self.size)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for p in Preset::ALL {
            assert_eq!(Preset::from_name(p.name()).ok(), Some(p));
            assert_eq!(Preset::from_name(&p.name().to_uppercase()).ok(), Some(p));
            assert_eq!(p.to_string(), p.name());
            assert_eq!(p.name().parse::<Preset>().ok(), Some(p));
            assert!(!p.description().is_empty());
        }
        assert_eq!(Preset::from_name(" Canyons ").ok(), Some(Preset::Canyons));
    }

    #[test]
    fn bad_names_are_rejected_with_the_valid_list() {
        for bad in ["", "hill", "volcano", "flat!"] {
            match Preset::from_name(bad) {
                Err(Error::Invalid(msg)) => {
                    for p in Preset::ALL {
                        assert!(msg.contains(p.name()), "{msg}");
                    }
                }
                other => panic!("{bad:?} gave {other:?}"),
            }
        }
    }

    #[test]
    fn serde_uses_lowercase_names() {
        let text = ron::to_string(&Preset::Mountains).expect("serialize");
        assert_eq!(text, "mountains");
        let back: Preset = ron::from_str("islands").expect("deserialize");
        assert_eq!(back, Preset::Islands);
        let s = GeneratorSettings::default();
        let text = ron::to_string(&s).expect("serialize settings");
        let back: GeneratorSettings = ron::from_str(&text).expect("deserialize settings");
        assert_eq!(back, s);
    }

    #[test]
    fn custom_is_not_a_menu_preset() {
        assert!(!Preset::ALL.contains(&Preset::Custom));
        assert!(Preset::from_name("custom").is_err());
        assert_eq!(Preset::Custom.biome(), None);
        let back: Preset = ron::from_str("custom").expect("deserialize");
        assert_eq!(back, Preset::Custom);
        for p in Preset::ALL {
            let biome = p.biome().expect("every menu preset is a biome");
            assert_eq!(biome.name(), p.name());
            assert_eq!(p.has_caves(), biome.default_caves());
        }
    }

    #[test]
    fn world_settings_from_presets_and_headers() {
        let g = GeneratorSettings {
            preset: Preset::Canyons,
            size: [64, 32, 48],
            seed: 5,
        };
        let w = WorldSettings::from_preset(&g);
        assert_eq!(w.biomes, BiomeSettings::single(Biome::Canyons));
        assert_eq!(w.generator(), g);
        assert_eq!(WorldSettings::from_header(&g, None), w);
        let mix = BiomeSettings {
            biomes: vec![Biome::Dunes, Biome::Marsh],
            biome_size: 64,
            caves: false,
        };
        let m = WorldSettings::with_biomes([64, 32, 48], 5, mix.clone());
        assert_eq!(m.preset, Preset::Custom);
        assert_eq!(WorldSettings::from_header(&m.generator(), Some(&mix)), m);
        assert!(m.validate().is_ok());
        let bad = WorldSettings {
            biomes: BiomeSettings {
                biome_size: 0,
                ..mix
            },
            ..m
        };
        assert!(matches!(bad.validate(), Err(Error::Invalid(_))));
        let custom = WorldSettings::from_preset(&GeneratorSettings {
            preset: Preset::Custom,
            ..g
        });
        assert_eq!(custom.biomes, BiomeSettings::default());
    }

    #[test]
    fn defaults() {
        let s = GeneratorSettings::default();
        assert_eq!(s.preset, Preset::Hills);
        assert_eq!(s.size, [256, 128, 256]);
        assert_eq!(s.seed, 1);
        assert!(s.validate().is_ok());
    }

    #[test]
    fn validate_checks_every_axis() {
        let with = |size| GeneratorSettings {
            size,
            ..GeneratorSettings::default()
        };
        assert!(with([1, 1, 1]).validate().is_ok());
        assert!(with([16384, 4096, 16384]).validate().is_ok());
        for bad in [
            [0, 64, 64],
            [64, 0, 64],
            [64, 64, 0],
            [16385, 64, 64],
            [64, 4097, 64],
            [64, 64, 16385],
            [u32::MAX, 64, 64],
        ] {
            assert!(
                matches!(with(bad).validate(), Err(Error::Invalid(_))),
                "{bad:?} accepted"
            );
        }
    }

    #[test]
    fn bounds_are_half_open_from_origin() {
        let s = GeneratorSettings {
            size: [10, 20, 30],
            ..GeneratorSettings::default()
        };
        let b = s.bounds();
        assert_eq!(b.min, VoxelPos::new(0, 0, 0));
        assert_eq!(b.max, VoxelPos::new(10, 20, 30));
        assert_eq!(b.size(), [10, 20, 30]);
    }
}
