//! Row headers of a packed box, one or two bytes per row.
//!
//! The layout of Roblox's storage article spends two bytes per row so a slot index fits. Most boxes store far fewer than
//! 128 distinct rows, so they keep one byte per row instead (`0x80 | slot` or the material id); the
//! choice is made when the box is repacked, so each box still has exactly one representation.
//! Callers always see the two-byte encoding through [`Headers::get`].

/// Allocated flag in the two-byte encoding.
pub(crate) const ALLOCATED: u16 = 0x8000;
const NARROW_ALLOCATED: u8 = 0x80;
/// Most stored rows a box with one-byte headers may have.
pub(crate) const NARROW_MAX_SLOTS: usize = 128;

/// Per-row headers.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Headers {
    /// Two bytes per row (boxes storing more than 128 distinct rows).
    Wide(Box<[u16]>),
    /// One byte per row.
    Narrow(Box<[u8]>),
}

impl Headers {
    /// A one-byte header in the two-byte encoding.
    #[inline]
    pub(crate) fn widen(h: u8) -> u16 {
        // Branch-free: move the allocated bit from bit 7 to bit 15, keep the low seven bits.
        let h = u16::from(h);
        ((h & u16::from(NARROW_ALLOCATED)) << 8) | (h & 0x7f)
    }

    /// The canonical form of `wide` for a box storing `stored_rows` distinct rows.
    pub(crate) fn from_wide(wide: Box<[u16]>, stored_rows: usize) -> Self {
        if stored_rows > NARROW_MAX_SLOTS {
            return Self::Wide(wide);
        }
        Self::Narrow(
            wide.iter()
                .map(|&h| {
                    if h & ALLOCATED != 0 {
                        NARROW_ALLOCATED | (h & 0x7f) as u8
                    } else {
                        h as u8
                    }
                })
                .collect(),
        )
    }

    /// One-byte headers with every row packed as `material`.
    pub(crate) fn packed(material: u8, rows: usize) -> Self {
        Self::Narrow(vec![material; rows].into_boxed_slice())
    }

    /// Header of row `r` in the two-byte encoding.
    #[inline]
    pub(crate) fn get(&self, r: usize) -> u16 {
        match self {
            Self::Wide(h) => h[r],
            Self::Narrow(h) => Self::widen(h[r]),
        }
    }

    /// Mark row `r` packed with `material`.
    pub(crate) fn set_packed(&mut self, r: usize, material: u8) {
        match self {
            Self::Wide(h) => h[r] = u16::from(material),
            Self::Narrow(h) => h[r] = material,
        }
    }

    /// Number of rows.
    pub(crate) fn len(&self) -> usize {
        match self {
            Self::Wide(h) => h.len(),
            Self::Narrow(h) => h.len(),
        }
    }

    /// Heap bytes.
    pub(crate) fn bytes(&self) -> usize {
        match self {
            Self::Wide(h) => h.len() * 2,
            Self::Narrow(h) => h.len(),
        }
    }

    /// All headers in the two-byte encoding.
    pub(crate) fn iter(&self) -> impl Iterator<Item = u16> + '_ {
        (0..self.len()).map(|r| self.get(r))
    }

    /// True when this is the canonical width for `stored_rows`.
    pub(crate) fn is_canonical(&self, stored_rows: usize) -> bool {
        matches!(self, Self::Narrow(_)) == (stored_rows <= NARROW_MAX_SLOTS)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn narrow_round_trips_the_wide_encoding() {
        let wide: Box<[u16]> = vec![0, 63, ALLOCATED, ALLOCATED | 127, 5].into_boxed_slice();
        let h = Headers::from_wide(wide.clone(), 128);
        assert!(matches!(h, Headers::Narrow(_)));
        assert_eq!(h.iter().collect::<Vec<_>>(), wide.to_vec());
        assert_eq!(h.bytes(), 5);
        assert!(matches!(Headers::from_wide(wide, 129), Headers::Wide(_)));
    }
}
