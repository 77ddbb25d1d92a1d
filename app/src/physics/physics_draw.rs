//! What the Physics panel draws over the terrain: each body as its shape, coloured by state; contact
//! points and normals on demand; floating pieces found by Cleanup as wire boxes.

use strata_engine::floating::FloatingPiece;
use strata_engine::physics::body::{BodyState, ContactPoint, Simulation};
use strata_engine::physics::Shape;

use crate::viewport::overlay::{Overlay, SolidKind};

/// Awake and out of the water.
pub const MOVING: [u8; 4] = [235, 140, 40, 255];
/// At rest.
pub const ASLEEP: [u8; 4] = [125, 135, 155, 255];
/// Awake and touching water.
pub const IN_WATER: [u8; 4] = [50, 190, 235, 255];
/// Contact points (small crosses).
const CONTACT: [u8; 4] = [255, 60, 60, 255];
/// Contact normals.
const NORMAL: [u8; 4] = [255, 240, 80, 255];
/// A floating piece marked for deletion.
const DOOMED: [u8; 4] = [240, 60, 60, 255];
/// A floating piece the user keeps.
const KEPT: [u8; 4] = [120, 220, 120, 255];

/// Length of a drawn normal, voxels.
const NORMAL_LENGTH: f32 = 0.8;
/// Half the size of a contact cross, voxels.
const CROSS: f32 = 0.12;

/// The colour of a body in `state` (lost bodies are not drawn).
pub fn state_color(state: BodyState) -> Option<[u8; 4]> {
    match state {
        BodyState::Moving => Some(MOVING),
        BodyState::InWater => Some(IN_WATER),
        BodyState::Asleep => Some(ASLEEP),
        BodyState::Lost(_) => None,
    }
}

/// Every body of `sim` as a solid.
pub fn bodies(sim: &Simulation, out: &mut Vec<Overlay>) {
    for (i, b) in sim.bodies().iter().enumerate() {
        let Some(color) = state_color(sim.state(i)) else {
            continue;
        };
        let (kind, half_extents) = match b.shape {
            Shape::Sphere { radius } => (SolidKind::Sphere, [radius; 3]),
            Shape::Box { half } => (SolidKind::Box, half),
            Shape::Capsule {
                radius,
                half_height,
            } => (SolidKind::Capsule, [radius, half_height, radius]),
        };
        out.push(Overlay::Solid {
            kind,
            center: b.position,
            rotation: b.orientation,
            half_extents,
            color,
        });
    }
}

/// Contact points as small crosses and their normals as short lines.
pub fn contacts(points: &[ContactPoint], out: &mut Vec<Overlay>) {
    if points.is_empty() {
        return;
    }
    let mut crosses = Vec::with_capacity(points.len() * 6);
    let mut normals = Vec::with_capacity(points.len() * 2);
    for c in points {
        let p = c.point;
        for k in 0..3 {
            let (mut a, mut b) = (p, p);
            a[k] -= CROSS;
            b[k] += CROSS;
            crosses.extend([a, b]);
        }
        let tip = [0, 1, 2].map(|k| p[k] + c.normal[k] * NORMAL_LENGTH);
        normals.extend([p, tip]);
    }
    out.push(Overlay::Lines {
        points: crosses,
        color: CONTACT,
    });
    out.push(Overlay::Lines {
        points: normals,
        color: NORMAL,
    });
}

/// Floating pieces as wire boxes: red when marked for deletion, green when kept.
pub fn pieces<'a>(pieces: impl Iterator<Item = (&'a FloatingPiece, bool)>, out: &mut Vec<Overlay>) {
    for (p, delete) in pieces {
        let b = p.bounds();
        out.push(Overlay::WireBox {
            min: [b.min.x as f32, b.min.y as f32, b.min.z as f32],
            max: [b.max.x as f32, b.max.y as f32, b.max.z as f32],
            color: if delete { DOOMED } else { KEPT },
        });
    }
}
