//! Biomes and the biome settings a user chooses: which biomes, how large their cells are, caves.
//!
//! A world is a set of biomes laid over the ground in seeded cells ([`super::biome_map`]). Each biome
//! has its own height shape ([`super::shape`]) and material rules ([`super::materials`]). The five
//! presets are one-biome worlds: `hills`, `mountains`, `canyons`, `islands` and `flat` are both
//! presets and biomes, so `--preset hills` and `--biomes hills` make the same world.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

use super::limits::MAX_HORIZONTAL_SIZE;
use crate::{Error, Result};

/// Smallest accepted biome size, in voxels.
pub const MIN_BIOME_SIZE: u32 = 16;
/// Largest accepted biome size, in voxels (the largest world side).
pub const MAX_BIOME_SIZE: u32 = MAX_HORIZONTAL_SIZE;
/// Biome size when none is given, in voxels.
pub const DEFAULT_BIOME_SIZE: u32 = 256;

/// One kind of landscape.
///
/// Serialized in lower case, the same spelling as [`Biome::name`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Biome {
    /// Open water over a sandy sea floor.
    Water,
    /// Low, gently rolling grassland with a few ponds.
    Plains,
    /// Sand dunes with gentle windward slopes and steep lee faces.
    Dunes,
    /// Ridged peaks with snow caps and deep valleys.
    Mountains,
    /// Snowfields, glacier shelves and a frozen sea.
    Arctic,
    /// Mud flats and shallow pools barely above the water.
    Marsh,
    /// Rolling grassy hills with a few lakes.
    Hills,
    /// Terraced sandstone plateaus cut by winding canyons with a river at the bottom.
    Canyons,
    /// Rough basalt ridges with cracked lava in the lows.
    Lavascape,
    /// Mostly ocean with sandy-beached islands.
    Islands,
    /// One level layer of grass over ground over rock.
    Flat,
}

impl Biome {
    /// Every biome, in menu order (the nine Roblox biomes, then the two preset-only landscapes).
    pub const ALL: [Biome; 11] = [
        Biome::Water,
        Biome::Plains,
        Biome::Dunes,
        Biome::Mountains,
        Biome::Arctic,
        Biome::Marsh,
        Biome::Hills,
        Biome::Canyons,
        Biome::Lavascape,
        Biome::Islands,
        Biome::Flat,
    ];

    /// The biome's lower-case name, as used on the command line and in files.
    pub fn name(self) -> &'static str {
        match self {
            Biome::Water => "water",
            Biome::Plains => "plains",
            Biome::Dunes => "dunes",
            Biome::Mountains => "mountains",
            Biome::Arctic => "arctic",
            Biome::Marsh => "marsh",
            Biome::Hills => "hills",
            Biome::Canyons => "canyons",
            Biome::Lavascape => "lavascape",
            Biome::Islands => "islands",
            Biome::Flat => "flat",
        }
    }

    /// A one-line description for menus and `--help` text.
    pub fn description(self) -> &'static str {
        match self {
            Biome::Water => "open water over a sandy sea floor",
            Biome::Plains => "low rolling grassland with ponds",
            Biome::Dunes => "sand dunes with steep lee faces",
            Biome::Mountains => "ridged snow-capped peaks and valleys",
            Biome::Arctic => "snowfields, glacier shelves and a frozen sea",
            Biome::Marsh => "mud flats and shallow pools",
            Biome::Hills => "rolling grassy hills with lakes",
            Biome::Canyons => "terraced sandstone plateaus cut by river canyons",
            Biome::Lavascape => "basalt ridges with cracked lava in the lows",
            Biome::Islands => "ocean dotted with sandy islands",
            Biome::Flat => "level grass over ground over rock",
        }
    }

    /// The biome called `name` (case-insensitive, surrounding spaces ignored).
    ///
    /// # Errors
    /// [`Error::Invalid`] listing the valid names when `name` matches none.
    pub fn from_name(name: &str) -> Result<Biome> {
        let wanted = name.trim();
        Biome::ALL
            .into_iter()
            .find(|b| b.name().eq_ignore_ascii_case(wanted))
            .ok_or_else(|| {
                let names: Vec<&str> = Biome::ALL.iter().map(|b| b.name()).collect();
                Error::Invalid(format!(
                    "unknown biome {name:?}; expected one of: {}",
                    names.join(", ")
                ))
            })
    }

    /// Parse a comma-separated list such as `hills,mountains,canyons` (spaces and case ignored).
    ///
    /// # Errors
    /// [`Error::Invalid`] for an empty list, an empty item or an unknown name.
    pub fn parse_list(text: &str) -> Result<Vec<Biome>> {
        if text.trim().is_empty() {
            return Err(Error::Invalid(
                "the biome list is empty; name at least one biome".into(),
            ));
        }
        text.split(',')
            .map(|item| {
                if item.trim().is_empty() {
                    Err(Error::Invalid(format!(
                        "the biome list {text:?} has an empty name; separate names with single commas"
                    )))
                } else {
                    Biome::from_name(item)
                }
            })
            .collect()
    }

    /// True when the biome fills its lows with water when it is alone in a world.
    pub fn has_water(self) -> bool {
        !matches!(self, Biome::Flat | Biome::Dunes | Biome::Lavascape)
    }

    /// True when the biome carves caves by default when it is alone in a world (the presets' rule).
    pub fn default_caves(self) -> bool {
        !matches!(self, Biome::Flat | Biome::Canyons)
    }
}

impl fmt::Display for Biome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Biome {
    type Err = Error;

    fn from_str(s: &str) -> Result<Self> {
        Biome::from_name(s)
    }
}

/// Which biomes a world holds, how large their cells are and whether caves are carved.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct BiomeSettings {
    /// The biomes, at least one. Order and repeats do not matter: [`BiomeSettings::normalized`].
    pub biomes: Vec<Biome>,
    /// Typical width of one biome cell, in voxels (16 to 16384).
    pub biome_size: u32,
    /// Carve cave tunnels below the surface.
    pub caves: bool,
}

impl Default for BiomeSettings {
    /// The nine Roblox biomes, 256-voxel cells, caves on.
    fn default() -> Self {
        Self {
            biomes: Biome::ALL[..9].to_vec(),
            biome_size: DEFAULT_BIOME_SIZE,
            caves: true,
        }
    }
}

impl BiomeSettings {
    /// One biome alone, with its default caves: what a preset makes.
    pub fn single(biome: Biome) -> Self {
        Self {
            biomes: vec![biome],
            biome_size: DEFAULT_BIOME_SIZE,
            caves: biome.default_caves(),
        }
    }

    /// Check the list is not empty and the biome size is in range.
    ///
    /// # Errors
    /// [`Error::Invalid`] saying what is wrong.
    pub fn validate(&self) -> Result<()> {
        if self.biomes.is_empty() {
            return Err(Error::Invalid(
                "the biome list is empty; name at least one biome".into(),
            ));
        }
        if !(MIN_BIOME_SIZE..=MAX_BIOME_SIZE).contains(&self.biome_size) {
            return Err(Error::Invalid(format!(
                "biome size {} is out of range; it must be {MIN_BIOME_SIZE} to {MAX_BIOME_SIZE} voxels",
                self.biome_size
            )));
        }
        Ok(())
    }

    /// The biomes sorted in [`Biome::ALL`] order without repeats: the world depends on the set only.
    pub fn normalized(&self) -> Vec<Biome> {
        let mut v = self.biomes.clone();
        v.sort_unstable();
        v.dedup();
        v
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for b in Biome::ALL {
            assert_eq!(Biome::from_name(b.name()).ok(), Some(b));
            assert_eq!(Biome::from_name(&b.name().to_uppercase()).ok(), Some(b));
            assert_eq!(b.to_string(), b.name());
            assert!(!b.description().is_empty());
            let text = ron::to_string(&b).expect("serialize");
            assert_eq!(text, b.name());
        }
        assert_eq!(
            Biome::parse_list(" Hills, mountains ,CANYONS").ok(),
            Some(vec![Biome::Hills, Biome::Mountains, Biome::Canyons])
        );
    }

    #[test]
    fn bad_lists_name_the_problem() {
        for bad in ["", " ", "hills,", "hills,volcano", "desert"] {
            match Biome::parse_list(bad) {
                Err(Error::Invalid(msg)) => assert!(
                    msg.contains("empty") || msg.contains("unknown biome"),
                    "{bad:?}: {msg}"
                ),
                other => panic!("{bad:?} gave {other:?}"),
            }
        }
        match Biome::parse_list("hills,volcano") {
            Err(Error::Invalid(msg)) => {
                assert!(msg.contains("\"volcano\""), "{msg}");
                for b in Biome::ALL {
                    assert!(msg.contains(b.name()), "{msg}");
                }
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn settings_are_checked_and_normalized() {
        let mut s = BiomeSettings::default();
        assert!(s.validate().is_ok());
        assert_eq!(s.biomes.len(), 9);
        for bad in [0, 1, 15, MAX_BIOME_SIZE + 1] {
            s.biome_size = bad;
            assert!(matches!(s.validate(), Err(Error::Invalid(_))), "{bad}");
        }
        s.biome_size = 16;
        assert!(s.validate().is_ok());
        s.biomes.clear();
        assert!(s.validate().is_err());
        s.biomes = vec![Biome::Canyons, Biome::Hills, Biome::Canyons];
        assert_eq!(s.normalized(), vec![Biome::Hills, Biome::Canyons]);
        assert!(!BiomeSettings::single(Biome::Canyons).caves);
        assert!(BiomeSettings::single(Biome::Hills).caves);
    }
}
