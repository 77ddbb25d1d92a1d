//! Tests of the box SAT: resting faces, tilted edges, stacked and crossed boxes.

use super::super::math::{axes, quat_from_axis_angle, QUAT_IDENTITY};
use super::*;

fn unit_box(center: V3) -> BoxGeom {
    BoxGeom {
        center,
        axes: axes(QUAT_IDENTITY),
        half: [0.5; 3],
    }
}

/// A big triangle in the plane y = 0 facing up.
fn floor() -> [V3; 3] {
    [[-10.0, 0.0, -10.0], [0.0, 0.0, 10.0], [10.0, 0.0, -10.0]]
}

#[test]
fn box_resting_on_triangle_gives_four_corners() {
    let mut out = Vec::new();
    box_contacts(
        &unit_box([0.0, 0.45, 0.0]),
        &Other::Triangle(floor()),
        0.1,
        &mut out,
    );
    assert_eq!(out.len(), 4, "{out:?}");
    for c in &out {
        assert!((c.separation + 0.05).abs() < 1e-5, "{c:?}");
        assert!((c.normal[1] - 1.0).abs() < 1e-6);
        assert!((c.point_a[1] + 0.05).abs() < 1e-5 && c.point_b[1].abs() < 1e-5);
    }
    out.clear();
    box_contacts(
        &unit_box([0.0, 0.7, 0.0]),
        &Other::Triangle(floor()),
        0.1,
        &mut out,
    );
    assert!(out.is_empty(), "0.2 apart with margin 0.1: {out:?}");
}

#[test]
fn tilted_box_touches_with_its_lowest_edge() {
    let q = quat_from_axis_angle([0.0, 0.0, 1.0], std::f32::consts::FRAC_PI_4);
    let half_diag = 0.5 * std::f32::consts::SQRT_2;
    let b = BoxGeom {
        center: [0.0, half_diag - 0.02, 0.0],
        axes: axes(q),
        half: [0.5; 3],
    };
    let mut out = Vec::new();
    box_contacts(&b, &Other::Triangle(floor()), 0.1, &mut out);
    assert_eq!(out.len(), 2, "{out:?}");
    for c in &out {
        assert!((c.separation + 0.02).abs() < 1e-4, "{c:?}");
        assert!(c.point_a[0].abs() < 1e-4, "the edge is at x = 0: {c:?}");
    }
}

#[test]
fn stacked_boxes_and_separated_boxes() {
    let mut out = Vec::new();
    let top = unit_box([0.2, 0.95, 0.1]);
    let bottom = unit_box([0.0, 0.0, 0.0]);
    box_contacts(&top, &Other::Box(bottom), 0.1, &mut out);
    assert_eq!(out.len(), 4, "{out:?}");
    for c in &out {
        assert!(
            (c.normal[1] - 1.0).abs() < 1e-6 && (c.separation + 0.05).abs() < 1e-5,
            "{c:?}"
        );
    }
    out.clear();
    box_contacts(
        &unit_box([3.0, 0.0, 0.0]),
        &Other::Box(bottom),
        0.1,
        &mut out,
    );
    assert!(out.is_empty());
    // Edge on edge: two boxes rotated 45° about crossing axes.
    let qa = quat_from_axis_angle([1.0, 0.0, 0.0], std::f32::consts::FRAC_PI_4);
    let qb = quat_from_axis_angle([0.0, 0.0, 1.0], std::f32::consts::FRAC_PI_4);
    let d = std::f32::consts::SQRT_2;
    let a = BoxGeom {
        center: [0.0, d - 0.03, 0.0],
        axes: axes(qa),
        half: [0.5; 3],
    };
    let b = BoxGeom {
        center: [0.0; 3],
        axes: axes(qb),
        half: [0.5; 3],
    };
    box_contacts(&a, &Other::Box(b), 0.1, &mut out);
    assert_eq!(out.len(), 1, "{out:?}");
    assert!(
        (out[0].separation + 0.03).abs() < 1e-3 && out[0].normal[1] > 0.99,
        "{out:?}"
    );
    assert!(out[0].point_a[0].abs() < 1e-3 && out[0].point_a[2].abs() < 1e-3);
}
