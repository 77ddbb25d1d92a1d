//! Sequential-impulse contact solver with speculative contacts, Coulomb friction, restitution and a
//! separate position pass.
//!
//! ```text
//!   prepare:   per contact: offsets ra, rb; effective masses along n, t1, t2; restitution target
//!   velocity:  N iterations over all contacts:  friction (|jt| <= μ·jn), then normal:
//!                gap > 0  (speculative):  vn >= −gap / h      (may close the gap, never cross it)
//!                gap <= 0 (touching):      vn >= bounce        (e·approach speed when fast, else 0)
//!   integrate: x += v·h,  q += ½ ω q h
//!   position:  M iterations: recompute the gap from the stored body-frame anchors and push the bodies
//!              apart by β·(penetration − slop), capped (no velocity is added, so nothing pops)
//! ```
//!
//! B is either another body or the terrain (`b = None`, infinite mass). Sleeping bodies also act with
//! infinite mass: the caller passes their inverse masses as zero.

use super::contact::Contact;
use super::math::{integrate_rotation, rotate, rotate_inv, tangents};
use super::shape::Body;
use crate::vec3::{add, add_scaled, cross, dot, scale, sub, V3};

/// Velocity iterations per substep.
pub const VELOCITY_ITERATIONS: usize = 8;
/// Position iterations per substep.
pub const POSITION_ITERATIONS: usize = 3;
/// Penetration (voxels) left alone by the position pass, so resting contacts persist.
pub const SLOP: f32 = 0.005;
/// Fraction of the remaining penetration removed per position iteration.
pub const BAUMGARTE: f32 = 0.4;
/// Largest position correction per iteration (voxels).
pub const MAX_CORRECTION: f32 = 0.2;
/// Approach speed (voxels/s) below which contacts do not bounce.
pub const BOUNCE_THRESHOLD: f32 = 1.0;

/// One prepared contact constraint.
#[derive(Debug, Clone, Copy)]
pub struct Constraint {
    /// Body A.
    pub a: usize,
    /// Body B (`None`: terrain).
    pub b: Option<usize>,
    n: V3,
    t1: V3,
    t2: V3,
    ra: V3,
    rb: V3,
    /// A's point in A's frame.
    local_a: V3,
    /// B's point in B's frame (world point for terrain).
    local_b: V3,
    gap: f32,
    mass_n: f32,
    mass_t: [f32; 2],
    friction: f32,
    bounce: f32,
    jn: f32,
    jt: [f32; 2],
}

/// Mass view of a body for the solver (zero inverses for static or sleeping bodies).
#[derive(Debug, Clone, Copy)]
pub struct Mass {
    /// 1 / mass.
    pub inv_mass: f32,
    /// Scale on the inverse inertia (1 awake, 0 static).
    pub inv_inertia_scale: f32,
}

fn inv_i(body: &Body, m: Mass, v: V3) -> V3 {
    scale(body.apply_inv_inertia(v), m.inv_inertia_scale)
}

fn effective_mass(
    bodies: &[Body],
    masses: &[Mass],
    a: usize,
    b: Option<usize>,
    ra: V3,
    rb: V3,
    d: V3,
) -> f32 {
    let ta = cross(ra, d);
    let mut k = masses[a].inv_mass + dot(ta, inv_i(&bodies[a], masses[a], ta));
    if let Some(b) = b {
        let tb = cross(rb, d);
        k += masses[b].inv_mass + dot(tb, inv_i(&bodies[b], masses[b], tb));
    }
    if k > 1e-12 {
        1.0 / k
    } else {
        0.0
    }
}

fn relative_velocity(bodies: &[Body], c: &Constraint) -> V3 {
    let va = bodies[c.a].point_velocity(c.ra);
    match c.b {
        Some(b) => sub(va, bodies[b].point_velocity(c.rb)),
        None => va,
    }
}

fn apply(bodies: &mut [Body], masses: &[Mass], c: &Constraint, impulse: V3) {
    let (a, ma) = (c.a, masses[c.a]);
    bodies[a].velocity = add_scaled(bodies[a].velocity, impulse, ma.inv_mass);
    let dw = inv_i(&bodies[a], ma, cross(c.ra, impulse));
    bodies[a].angular_velocity = add(bodies[a].angular_velocity, dw);
    if let Some(b) = c.b {
        let mb = masses[b];
        bodies[b].velocity = add_scaled(bodies[b].velocity, impulse, -mb.inv_mass);
        let dw = inv_i(&bodies[b], mb, cross(c.rb, impulse));
        bodies[b].angular_velocity = sub(bodies[b].angular_velocity, dw);
    }
}

/// Build the constraint of contact `k` between `a` and `b` (terrain when `None`).
pub fn prepare(
    bodies: &[Body],
    masses: &[Mass],
    a: usize,
    b: Option<usize>,
    k: &Contact,
) -> Constraint {
    let n = k.normal;
    let (t1, t2) = tangents(n);
    let ra = sub(k.point_a, bodies[a].position);
    let local_a = rotate_inv(bodies[a].orientation, ra);
    let (rb, local_b, friction, restitution) = match b {
        Some(b) => {
            let rb = sub(k.point_b, bodies[b].position);
            (
                rb,
                rotate_inv(bodies[b].orientation, rb),
                (bodies[a].material.friction * bodies[b].material.friction).sqrt(),
                bodies[a]
                    .material
                    .restitution
                    .max(bodies[b].material.restitution),
            )
        }
        None => (
            [0.0; 3],
            k.point_b,
            bodies[a].material.friction,
            bodies[a].material.restitution,
        ),
    };
    let mut c = Constraint {
        a,
        b,
        n,
        t1,
        t2,
        ra,
        rb,
        local_a,
        local_b,
        gap: k.separation,
        mass_n: effective_mass(bodies, masses, a, b, ra, rb, n),
        mass_t: [
            effective_mass(bodies, masses, a, b, ra, rb, t1),
            effective_mass(bodies, masses, a, b, ra, rb, t2),
        ],
        friction,
        bounce: 0.0,
        jn: 0.0,
        jt: [0.0; 2],
    };
    let vn = dot(relative_velocity(bodies, &c), n);
    if vn < -BOUNCE_THRESHOLD && k.separation <= 0.01 {
        c.bounce = -restitution * vn;
    }
    c
}

impl Constraint {
    /// The contact's point on B (world space) for bodies in their current poses.
    pub fn point_b(&self, bodies: &[Body]) -> V3 {
        match self.b {
            Some(b) => add(
                bodies[b].position,
                rotate(bodies[b].orientation, self.local_b),
            ),
            None => self.local_b,
        }
    }

    /// The contact's unit normal (from B towards A).
    pub fn normal(&self) -> V3 {
        self.n
    }

    /// The gap when the contact was found (negative: penetration).
    pub fn gap(&self) -> f32 {
        self.gap
    }

    /// True when the stored effective mass along the normal is the one `masses` give now (a
    /// constraint prepared before one of its bodies woke would overshoot).
    pub fn mass_matches(&self, bodies: &[Body], masses: &[Mass]) -> bool {
        let k = effective_mass(bodies, masses, self.a, self.b, self.ra, self.rb, self.n);
        (k - self.mass_n).abs() <= 1e-6 * k.abs().max(1.0)
    }

    /// The contact in words, for assertion messages: who touches what, where, and the solver's state.
    pub fn describe(&self, bodies: &[Body]) -> String {
        let other = match self.b {
            Some(b) => format!("body {b} ({:?})", bodies[b].shape),
            None => "the terrain".to_owned(),
        };
        format!(
            "the contact of body {} ({:?}) with {other}: point on B {:?}, normal {:?}, gap {}, \
             offsets {:?} / {:?}, effective masses {} / {:?}, impulses {} / {:?}",
            self.a,
            bodies[self.a].shape,
            self.point_b(bodies),
            self.n,
            self.gap,
            self.ra,
            self.rb,
            self.mass_n,
            self.mass_t,
            self.jn,
            self.jt
        )
    }
}

/// Debug builds: stop where a contact leaves one of its bodies with a non-finite state, naming the
/// contact (a NaN would otherwise spread to every body it touches and only show up at the end).
#[inline]
fn debug_assert_finite(bodies: &[Body], c: &Constraint, pass: &str) {
    for i in std::iter::once(c.a).chain(c.b) {
        debug_assert!(
            bodies[i].is_finite(),
            "body {i} became non-finite in the {pass} pass, from {}; body now {:?}",
            c.describe(bodies),
            bodies[i]
        );
    }
}

/// Velocity iterations over `cs` for a substep of `h` seconds.
pub fn solve_velocities(bodies: &mut [Body], masses: &[Mass], cs: &mut [Constraint], h: f32) {
    for _ in 0..VELOCITY_ITERATIONS {
        for c in cs.iter_mut() {
            let v = relative_velocity(bodies, c);
            let limit = c.friction * c.jn;
            for (i, t) in [c.t1, c.t2].into_iter().enumerate() {
                let lambda = -dot(v, t) * c.mass_t[i];
                let old = c.jt[i];
                c.jt[i] = (old + lambda).clamp(-limit, limit);
                let d = c.jt[i] - old;
                apply(bodies, masses, c, scale(t, d));
                debug_assert_finite(bodies, c, "friction");
            }
            let vn = dot(relative_velocity(bodies, c), c.n);
            let target = if c.gap > 0.0 { -c.gap / h } else { c.bounce };
            let lambda = (target - vn) * c.mass_n;
            let old = c.jn;
            c.jn = (old + lambda).max(0.0);
            let d = c.jn - old;
            apply(bodies, masses, c, scale(c.n, d));
            debug_assert_finite(bodies, c, "normal velocity");
        }
    }
}

/// Position iterations: push penetrating pairs apart without touching velocities.
pub fn solve_positions(bodies: &mut [Body], masses: &[Mass], cs: &[Constraint]) {
    for _ in 0..POSITION_ITERATIONS {
        for c in cs {
            let ra = rotate(bodies[c.a].orientation, c.local_a);
            let pa = add(bodies[c.a].position, ra);
            let (pb, rb) = match c.b {
                Some(b) => {
                    let rb = rotate(bodies[b].orientation, c.local_b);
                    (add(bodies[b].position, rb), rb)
                }
                None => (c.local_b, [0.0; 3]),
            };
            let gap = dot(c.n, sub(pa, pb));
            let fix = (BAUMGARTE * (gap + SLOP)).clamp(-MAX_CORRECTION, 0.0);
            if fix >= 0.0 {
                continue;
            }
            let k = effective_mass(bodies, masses, c.a, c.b, ra, rb, c.n);
            let p = scale(c.n, -fix * k);
            let ma = masses[c.a];
            let a = &mut bodies[c.a];
            a.position = add_scaled(a.position, p, ma.inv_mass);
            let dw = inv_i(a, ma, cross(ra, p));
            a.orientation = integrate_rotation(a.orientation, dw, 1.0);
            if let Some(b) = c.b {
                let mb = masses[b];
                let bb = &mut bodies[b];
                bb.position = add_scaled(bb.position, p, -mb.inv_mass);
                let dw = inv_i(bb, mb, cross(rb, p));
                bb.orientation = integrate_rotation(bb.orientation, scale(dw, -1.0), 1.0);
            }
            debug_assert_finite(bodies, c, "position");
        }
    }
}

#[cfg(all(test, debug_assertions))]
mod tests {
    use super::super::shape::{BodyMaterial, Shape};
    use super::*;

    #[test]
    #[should_panic(
        expected = "body 0 became non-finite in the friction pass, from the contact of \
                               body 0 (Sphere { radius: 0.5 }) with the terrain: point on B [0.0, NaN"
    )]
    fn the_step_that_turns_a_body_non_finite_names_the_contact() {
        let ball = Body::new(
            Shape::Sphere { radius: 0.5 },
            BodyMaterial::default(),
            [0.0, 0.45, 0.0],
        );
        let mut bodies = vec![ball];
        let masses = [Mass {
            inv_mass: ball.inv_mass,
            inv_inertia_scale: 1.0,
        }];
        let bad = Contact::from_b([0.0, f32::NAN, 0.0], [0.0, 1.0, 0.0], -0.05);
        let mut cs = vec![prepare(&bodies, &masses, 0, None, &bad)];
        solve_velocities(&mut bodies, &masses, &mut cs, 1.0 / 120.0);
    }
}
