//! The recursive-subdivision rule and its 128-entry tables.
//!
//! One level turns a voxel into 2×2×2 fragments. The fragment toward corner `(dx, dy, dz)` looks at
//! the source voxel and its three face neighbours on that side; it is solid when at least `threshold`
//! of those four are solid:
//!
//! ```text
//!   window bits (7):  0 centre | 1 −x | 2 +x | 3 −y | 4 +y | 5 −z | 6 +z
//!   fragment bits (8): corner = dx + 2·dy + 4·dz
//!
//!        +y                     corner (1,1,0) counts: centre, +x, +y, −z
//!         │  ┌───┬───┐
//!         │  │ 2 │ 3 │  dz = 0 slice
//!         │  ├───┼───┤
//!         │  │ 0 │ 1 │
//!         └──┴───┴───┴── +x
//! ```
//!
//! A level depends only on those 7 bits, so a 128-entry table per threshold gives exactly the plain
//! rule; applied level after level (each level's fragments are the next level's voxels) it gives the
//! exact result at any depth. The fragment altitude's parity equals `dy` at every level (a fragment's
//! altitude is twice its source's plus `dy`), so the paper's strata (thresholds alternating by the
//! parity of the fragment's altitude) fold into the same table: even-altitude corners from one
//! threshold, odd ones from the other.
//!
//! A [`RuleSet`] holds that combined table for every material, because thresholds vary by material.
//! [`SubdivideRules`] adds height bands that override the material thresholds over a range of
//! altitudes, and the material-borders switch.

use crate::voxel::{EnhanceThreshold, MaterialTable, MATERIAL_COUNT};

/// Window bit of the centre voxel.
pub(crate) const CENTRE: u8 = 1;
/// Fragment bits of the corners with `dy = 0` (even altitude).
#[cfg(test)]
pub(crate) const EVEN_CORNERS: u8 = 0b0011_0011;

/// Number of solid voxels in the window of `corner`: the centre and the face neighbours on its side.
pub const fn corner_count(window: u8, corner: u8) -> u8 {
    let dx = corner & 1;
    let dy = (corner >> 1) & 1;
    let dz = (corner >> 2) & 1;
    (window & 1)
        + ((window >> (1 + dx)) & 1)
        + ((window >> (3 + dy)) & 1)
        + ((window >> (5 + dz)) & 1)
}

/// The plain rule for one threshold: fragment bits of every 7-bit window.
pub fn plain_table(threshold: u8) -> [u8; 128] {
    strata_table(EnhanceThreshold::uniform(threshold))
}

/// The rule with strata: corners with `dy = 0` use `t.even`, those with `dy = 1` use `t.odd`.
pub fn strata_table(t: EnhanceThreshold) -> [u8; 128] {
    let mut table = [0u8; 128];
    for (window, out) in table.iter_mut().enumerate() {
        let w = window as u8;
        for corner in 0..8u8 {
            let threshold = if corner & 2 == 0 { t.even } else { t.odd };
            if corner_count(w, corner) >= threshold {
                *out |= 1 << corner;
            }
        }
    }
    table
}

/// Combined tables and thresholds for every material.
#[derive(Debug, Clone)]
pub(crate) struct RuleSet {
    /// `lut[material][window]` = fragment bits.
    pub lut: Box<[[u8; 128]; MATERIAL_COUNT]>,
    /// `thresholds[material]`.
    pub thresholds: [EnhanceThreshold; MATERIAL_COUNT],
    /// `threshold − 5` per material as a wrapping byte, for even (`[0]`) and odd (`[1]`) altitudes:
    /// the vector kernel's form. With `e` minus the number of a fragment's four cells that do not
    /// count, the fragment is solid when `e > threshold − 5` (at least `threshold` count).
    pub minus_five: [[u8; MATERIAL_COUNT]; 2],
}

impl RuleSet {
    fn new(thresholds: [EnhanceThreshold; MATERIAL_COUNT]) -> Self {
        let mut lut = Box::new([[0u8; 128]; MATERIAL_COUNT]);
        let mut cache: Vec<(EnhanceThreshold, [u8; 128])> = Vec::new();
        for (m, t) in thresholds.iter().enumerate() {
            let table = match cache.iter().find(|(k, _)| k == t) {
                Some((_, table)) => *table,
                None => {
                    let table = strata_table(*t);
                    cache.push((*t, table));
                    table
                }
            };
            lut[m] = table;
        }
        let minus_five =
            [false, true].map(|odd| thresholds.map(|t| t.at_parity(odd).wrapping_sub(5)));
        Self {
            lut,
            thresholds,
            minus_five,
        }
    }
}

/// A range of altitudes whose fragments use one threshold pair whatever their material.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct HeightBand {
    /// Lowest voxel altitude in the band.
    pub min_y: i32,
    /// One past the highest voxel altitude in the band.
    pub max_y: i32,
    /// Thresholds inside the band.
    pub threshold: EnhanceThreshold,
}

/// Everything recursive subdivision decides with: the rule sets and the material-borders switch.
#[derive(Debug, Clone)]
pub(crate) struct SubdivideRules {
    base: RuleSet,
    bands: Vec<(HeightBand, RuleSet)>,
    /// Count a neighbour of another material as empty.
    pub borders: bool,
}

impl SubdivideRules {
    /// Rules from the material table's thresholds, or `threshold` for every material, plus bands.
    pub fn new(
        table: &MaterialTable,
        threshold: Option<u8>,
        bands: &[HeightBand],
        borders: bool,
    ) -> Self {
        let mut per_material = [EnhanceThreshold::uniform(2); MATERIAL_COUNT];
        for (m, slot) in per_material.iter_mut().enumerate() {
            *slot = match (threshold, table.materials.get(m)) {
                (Some(t), _) => EnhanceThreshold::uniform(t),
                (None, Some(material)) => material.enhance_threshold(),
                (None, None) => EnhanceThreshold::uniform(2),
            };
        }
        Self {
            base: RuleSet::new(per_material),
            bands: bands
                .iter()
                .map(|b| (*b, RuleSet::new([b.threshold; MATERIAL_COUNT])))
                .collect(),
            borders,
        }
    }

    /// One threshold pair for every material, no bands, no borders.
    pub fn uniform(t: EnhanceThreshold) -> Self {
        Self {
            base: RuleSet::new([t; MATERIAL_COUNT]),
            bands: Vec::new(),
            borders: false,
        }
    }

    /// Every threshold pair these rules can use.
    pub fn thresholds_in_use(&self) -> Vec<EnhanceThreshold> {
        let mut v: Vec<EnhanceThreshold> = self.base.thresholds.to_vec();
        v.extend(self.bands.iter().map(|(b, _)| b.threshold));
        v.sort_by_key(|t| (t.even, t.odd));
        v.dedup();
        v
    }

    /// The rule set for sources at voxel altitude `y`: the first band holding it, else the
    /// materials' own thresholds.
    #[inline]
    pub fn set_at(&self, y: i64) -> &RuleSet {
        for (band, set) in &self.bands {
            if y >= i64::from(band.min_y) && y < i64::from(band.max_y) {
                return set;
            }
        }
        &self.base
    }
}

/// Fragment bits and material of one source cell by the plain rule, written for clarity (the
/// reference the tables and the dense kernel are tested against; also the kernel's path for an
/// empty source between solid neighbours of different materials).
///
/// `c` is the source (0 empty, else its material), `n` the face neighbours in window-bit order
/// (−x, +x, −y, +y, −z, +z). Returns one material byte per corner (0 for an empty fragment).
pub(crate) fn rule_cell(c: u8, n: [u8; 6], set: &RuleSet, borders: bool) -> [u8; 8] {
    let mut out = [0u8; 8];
    for (corner, slot) in out.iter_mut().enumerate() {
        let side = [
            n[corner & 1],
            n[2 + ((corner >> 1) & 1)],
            n[4 + ((corner >> 2) & 1)],
        ];
        let material = if c != 0 { c } else { majority(side) };
        if material == 0 {
            continue;
        }
        let counts = |v: u8| v != 0 && (!borders || v == material);
        let count = u8::from(c != 0) + side.iter().filter(|&&v| counts(v)).count() as u8;
        let t = set.thresholds[usize::from(material)].at_parity(corner & 2 != 0);
        if count >= t {
            *slot = material;
        }
    }
    out
}

/// The most frequent non-zero value of three (ties: the lowest), 0 when all are 0.
fn majority(v: [u8; 3]) -> u8 {
    let mut best = 0u8;
    let mut best_count = 0;
    for &a in &v {
        if a == 0 {
            continue;
        }
        let count = v.iter().filter(|&&b| b == a).count();
        if count > best_count || (count == best_count && a < best) {
            best = a;
            best_count = count;
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tables_follow_the_rule_for_every_window_and_threshold() {
        for t in 1..=4u8 {
            let table = plain_table(t);
            for w in 0..128u8 {
                for corner in 0..8u8 {
                    let dx = usize::from(corner & 1);
                    let dy = usize::from((corner >> 1) & 1);
                    let dz = usize::from((corner >> 2) & 1);
                    let bit = |i: usize| (w >> i) & 1;
                    let count = bit(0) + bit(1 + dx) + bit(3 + dy) + bit(5 + dz);
                    assert_eq!(
                        table[usize::from(w)] >> corner & 1 == 1,
                        count >= t,
                        "t {t} window {w:07b} corner {corner}"
                    );
                }
            }
        }
        assert_eq!(plain_table(1)[0], 0, "nothing grows from nothing");
        assert_eq!(plain_table(4)[127], 0xff, "a full window stays full");
        assert_eq!(
            plain_table(4)[CENTRE as usize],
            0,
            "threshold 4 erodes a lone voxel"
        );
        assert_eq!(plain_table(1)[CENTRE as usize], 0xff);
    }

    #[test]
    fn strata_tables_split_corners_by_altitude_parity() {
        let s = strata_table(EnhanceThreshold { even: 1, odd: 4 });
        let (one, four) = (plain_table(1), plain_table(4));
        for w in 0..128 {
            assert_eq!(s[w] & EVEN_CORNERS, one[w] & EVEN_CORNERS);
            assert_eq!(s[w] & !EVEN_CORNERS, four[w] & !EVEN_CORNERS);
        }
    }

    #[test]
    fn rule_cell_matches_the_tables_on_one_material() {
        let table = MaterialTable::builtin();
        for t in 1..=4 {
            let rules = SubdivideRules::new(&table, Some(t), &[], false);
            let set = rules.set_at(0);
            for w in 0..128u8 {
                let byte = |bit: u8| if w >> bit & 1 == 1 { 7 } else { 0 };
                let n = [byte(1), byte(2), byte(3), byte(4), byte(5), byte(6)];
                let out = rule_cell(byte(0), n, set, false);
                let bits = set.lut[7][usize::from(w)];
                for (corner, &m) in out.iter().enumerate() {
                    assert_eq!(m != 0, bits >> corner & 1 == 1);
                    assert!(m == 0 || m == 7);
                }
            }
        }
    }

    #[test]
    fn bands_override_materials_inside_their_range() {
        let table = MaterialTable::builtin();
        let band = HeightBand {
            min_y: -4,
            max_y: 8,
            threshold: EnhanceThreshold::uniform(1),
        };
        let rules = SubdivideRules::new(&table, Some(4), &[band], false);
        assert_eq!(rules.set_at(-4).thresholds[7].even, 1);
        assert_eq!(rules.set_at(7).thresholds[7].odd, 1);
        assert_eq!(rules.set_at(8).thresholds[7].even, 4);
        assert_eq!(rules.set_at(-5).thresholds[7].even, 4);
    }

    #[test]
    fn majority_prefers_count_then_lower_id() {
        assert_eq!(majority([0, 0, 0]), 0);
        assert_eq!(majority([5, 0, 3]), 3);
        assert_eq!(majority([5, 5, 3]), 5);
        assert_eq!(majority([0, 9, 0]), 9);
    }
}
