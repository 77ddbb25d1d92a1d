//! Sleeping: bodies that stay slow for a while stop being simulated until something wakes them.
//!
//! A sleeping body keeps its pose, has zero velocity, and acts as an immovable body to the awake ones.
//! It wakes when an awake, moving body touches it, or when the terrain near it is edited
//! ([`super::Simulation::on_edit`]).

use super::shape::Body;
use crate::vec3::length;

/// Linear speed (voxels/s) below which a body counts as slow.
pub const SLEEP_LINEAR: f32 = 0.08;
/// Angular speed (rad/s) below which a body counts as slow.
pub const SLEEP_ANGULAR: f32 = 0.15;
/// Seconds a body must stay slow before it sleeps.
pub const SLEEP_TIME: f32 = 0.5;

/// True when the body is below both sleep thresholds.
pub fn is_slow(b: &Body) -> bool {
    length(b.velocity) < SLEEP_LINEAR && length(b.angular_velocity) < SLEEP_ANGULAR
}

/// True when awake body `b` moves enough to wake a sleeping body it touches. `slack` is the speed
/// gravity adds in one substep (a body resting on a sleeper carries that much before the solve).
pub fn disturbs(b: &Body, slack: f32) -> bool {
    !b.asleep
        && (length(b.velocity) > 2.0 * SLEEP_LINEAR + slack
            || length(b.angular_velocity) > 2.0 * SLEEP_ANGULAR)
}

/// Count the body's slow time after a step of `dt` seconds and put it to sleep when it is due.
pub fn update(b: &mut Body, dt: f32) {
    if b.asleep {
        return;
    }
    if is_slow(b) {
        b.rest_time += dt;
        if b.rest_time >= SLEEP_TIME {
            b.asleep = true;
            b.velocity = [0.0; 3];
            b.angular_velocity = [0.0; 3];
        }
    } else {
        b.rest_time = 0.0;
    }
}

/// Wake the body (it is simulated again from the next substep); a lost body stays asleep.
pub fn wake(b: &mut Body) {
    if b.lost.is_some() {
        return;
    }
    b.asleep = false;
    b.rest_time = 0.0;
}

#[cfg(test)]
mod tests {
    use super::super::shape::{BodyMaterial, Shape};
    use super::*;

    #[test]
    fn sleeps_after_staying_slow_and_wakes() {
        let mut b = Body::new(
            Shape::Sphere { radius: 1.0 },
            BodyMaterial::default(),
            [0.0; 3],
        );
        b.velocity = [0.01, 0.0, 0.0];
        for _ in 0..59 {
            update(&mut b, 1.0 / 120.0);
        }
        assert!(!b.asleep);
        b.velocity = [1.0, 0.0, 0.0];
        update(&mut b, 1.0 / 120.0);
        assert_eq!(b.rest_time, 0.0, "a fast step resets the timer");
        b.velocity = [0.0; 3];
        for _ in 0..61 {
            update(&mut b, 1.0 / 120.0);
        }
        assert!(b.asleep && b.velocity == [0.0; 3]);
        wake(&mut b);
        assert!(!b.asleep && b.rest_time == 0.0);
        // Resting with one substep of gravity does not disturb a neighbour; moving does.
        b.velocity = [0.0, -0.08, 0.0];
        assert!(!disturbs(&b, 9.81 / 120.0));
        b.velocity = [0.5, 0.0, 0.0];
        assert!(disturbs(&b, 9.81 / 120.0));
    }
}
