//! Which tool a dab runs and with which options ([`Tool`]), and the tool list in menu order
//! ([`ToolKind`]) with names, shortcuts and Ctrl inversion.

use super::brush::Plane;

/// The terrain tools, in menu order (digit shortcuts 1–9 follow this order).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum ToolKind {
    /// Add matter of the chosen material toward the brush shape.
    #[default]
    Add,
    /// Remove matter toward the inverse brush shape.
    Subtract,
    /// Raise occupancy where matter is near (surfaces swell).
    Grow,
    /// Lower occupancy where empty space is near (surfaces shrink).
    Erode,
    /// Blend occupancy with the neighbours' average (spikes and pits even out).
    Smooth,
    /// Move the surface toward a plane.
    Flatten,
    /// Change the material of surface voxels.
    Paint,
    /// Change one material into another inside the brush.
    Replace,
    /// Fill air below a level with water, or clear water.
    SeaLevel,
}

impl ToolKind {
    /// Every tool in menu order.
    pub const ALL: [ToolKind; 9] = [
        ToolKind::Add,
        ToolKind::Subtract,
        ToolKind::Grow,
        ToolKind::Erode,
        ToolKind::Smooth,
        ToolKind::Flatten,
        ToolKind::Paint,
        ToolKind::Replace,
        ToolKind::SeaLevel,
    ];

    /// Display name, also the undo step name of its strokes.
    pub const fn name(self) -> &'static str {
        match self {
            ToolKind::Add => "Add",
            ToolKind::Subtract => "Subtract",
            ToolKind::Grow => "Grow",
            ToolKind::Erode => "Erode",
            ToolKind::Smooth => "Smooth",
            ToolKind::Flatten => "Flatten",
            ToolKind::Paint => "Paint",
            ToolKind::Replace => "Replace",
            ToolKind::SeaLevel => "Sea Level",
        }
    }

    /// The tool Ctrl switches to while held: Add ↔ Subtract, Grow ↔ Erode; others stay.
    pub const fn inverted(self) -> ToolKind {
        match self {
            ToolKind::Add => ToolKind::Subtract,
            ToolKind::Subtract => ToolKind::Add,
            ToolKind::Grow => ToolKind::Erode,
            ToolKind::Erode => ToolKind::Grow,
            other => other,
        }
    }

    /// Digit shortcut, 1–9 in menu order.
    pub fn digit(self) -> u8 {
        ToolKind::ALL
            .iter()
            .position(|&k| k == self)
            .map_or(0, |i| i as u8 + 1)
    }

    /// The tool for digit shortcut `d` (1–9).
    pub fn from_digit(d: u8) -> Option<ToolKind> {
        ToolKind::ALL.get(usize::from(d).checked_sub(1)?).copied()
    }

    /// Letter shortcut (MagicaVoxel / Goxel habit): T Add, R Subtract, G Paint.
    pub const fn letter(self) -> Option<char> {
        match self {
            ToolKind::Add => Some('T'),
            ToolKind::Subtract => Some('R'),
            ToolKind::Paint => Some('G'),
            _ => None,
        }
    }

    /// The tool for a letter shortcut (case-insensitive).
    pub fn from_letter(c: char) -> Option<ToolKind> {
        ToolKind::ALL
            .into_iter()
            .find(|k| k.letter() == Some(c.to_ascii_uppercase()))
    }

    /// True for tools that change occupancy (shape); false for Paint and Replace (material only)
    /// and Sea Level (water).
    pub const fn sculpts(self) -> bool {
        matches!(
            self,
            ToolKind::Add
                | ToolKind::Subtract
                | ToolKind::Grow
                | ToolKind::Erode
                | ToolKind::Smooth
                | ToolKind::Flatten
        )
    }
}

/// Which side of the plane Flatten may change (Roblox's Erode-to-flat / Grow-to-flat / Flatten All).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum FlattenMode {
    /// Cut matter above the plane and fill below it.
    #[default]
    Both,
    /// Only cut matter above the plane.
    Erode,
    /// Only fill below the plane.
    Grow,
}

/// What Sea Level does.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum SeaLevelMode {
    /// Fill air below the level with water.
    #[default]
    Fill,
    /// Turn water into air.
    Clear,
}

/// A tool with its options. One value serves every tool, so the editor can keep one `Tool`, switch
/// `kind` with shortcuts and keep the options the user set.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Tool {
    /// Which tool.
    pub kind: ToolKind,
    /// Material of Add and Paint, target of Replace, and the fallback for new matter of Grow, Smooth
    /// and Flatten when no neighbour has any. Must be a solid material for Add and Paint.
    pub material: u8,
    /// Replace: the material that is replaced.
    pub source_material: u8,
    /// Flatten: the fixed plane; `None` uses the horizontal plane through each dab centre.
    pub flatten_plane: Option<Plane>,
    /// Flatten: which side may change.
    pub flatten_mode: FlattenMode,
    /// Sea Level: fill or clear.
    pub sea_level_mode: SeaLevelMode,
}

impl Tool {
    /// Tool `kind` with `material` and default options.
    pub fn new(kind: ToolKind, material: u8) -> Self {
        Self {
            kind,
            material,
            source_material: 0,
            flatten_plane: None,
            flatten_mode: FlattenMode::Both,
            sea_level_mode: SeaLevelMode::Fill,
        }
    }

    /// The same tool with the kind Ctrl switches to ([`ToolKind::inverted`]).
    pub fn inverted(&self) -> Self {
        Self {
            kind: self.kind.inverted(),
            ..*self
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shortcuts_and_inversion() {
        for (i, k) in ToolKind::ALL.into_iter().enumerate() {
            assert_eq!(k.digit(), i as u8 + 1);
            assert_eq!(ToolKind::from_digit(k.digit()), Some(k));
            assert_eq!(k.inverted().inverted(), k);
        }
        assert_eq!(ToolKind::from_digit(0), None);
        assert_eq!(ToolKind::from_digit(10), None);
        assert_eq!(ToolKind::from_letter('t'), Some(ToolKind::Add));
        assert_eq!(ToolKind::from_letter('R'), Some(ToolKind::Subtract));
        assert_eq!(ToolKind::from_letter('g'), Some(ToolKind::Paint));
        assert_eq!(ToolKind::from_letter('x'), None);
        assert_eq!(ToolKind::Add.inverted(), ToolKind::Subtract);
        assert_eq!(ToolKind::Grow.inverted(), ToolKind::Erode);
        assert_eq!(ToolKind::Smooth.inverted(), ToolKind::Smooth);
        let t = Tool::new(ToolKind::Add, 7).inverted();
        assert_eq!((t.kind, t.material), (ToolKind::Subtract, 7));
        assert_eq!(ToolKind::SeaLevel.name(), "Sea Level");
    }
}
