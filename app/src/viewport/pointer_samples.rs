//! Every primary-button event of a frame, in order, with what lies under it: where the button went
//! down, the path it travelled while held and where it came up.
//!
//! On a slow frame (software GL, a remote desktop, a loaded laptop) many pointer events arrive at
//! once. Reading only the pointer's latest position loses a click that is pressed and released
//! within one frame, and puts a click followed by a quick move at the new spot. So the viewport
//! reads the frame's events itself:
//!
//! ```text
//!   events:   Moved a ─ Button↓ b ─ Moved c ─ Moved d ─ Button↑ e ─ Moved f
//!   samples:            Press b ─── Move c ── Move d ── Release e            (f: hover only)
//! ```
//!
//! A press counts only where the viewport is the topmost thing under it (inside its rectangle, not
//! under a window, menu or prompt), so a click on a panel button never reaches the tools. Moves are
//! thinned to one per [`MIN_SAMPLE_POINTS`] of travel, each picked against the terrain.

use eframe::egui::{self, Event, PointerButton, Pos2};
use strata_engine::physics::WorldHit;

use super::camera::PickRay;

/// Least travel (points) between two move samples of one frame.
pub const MIN_SAMPLE_POINTS: f32 = 2.0;

/// What happened to the primary button at a sample.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PointerKind {
    /// The button went down over the viewport.
    Press,
    /// The pointer moved while the button was held.
    Move,
    /// The button came up (after a press over the viewport).
    Release,
}

/// One primary-button event over the viewport.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PointerSample {
    /// What happened.
    pub kind: PointerKind,
    /// Where, in window points.
    pub pos: Pos2,
    /// The terrain under it.
    pub hit: Option<WorldHit>,
    /// The picking ray through it.
    pub ray: PickRay,
}

/// The primary button's state between frames.
#[derive(Debug, Clone, Copy, Default)]
pub struct PointerTrack {
    /// The button went down over the viewport and has not come up yet.
    pub held: bool,
    last: Option<Pos2>,
}

impl PointerTrack {
    /// This frame's samples, in event order. `accepts(pos)` tells whether a press at `pos` is the
    /// viewport's; `pick(pos)` casts the ray and finds the terrain there.
    pub fn read(
        &mut self,
        ctx: &egui::Context,
        accepts: impl Fn(Pos2) -> bool,
        mut pick: impl FnMut(Pos2) -> (PickRay, Option<WorldHit>),
    ) -> Vec<PointerSample> {
        let (events, still_down, latest) = ctx.input(|i| {
            (
                i.events.clone(),
                i.pointer.primary_down(),
                i.pointer.latest_pos(),
            )
        });
        let mut samples = Vec::new();
        let mut sample = |kind, pos: Pos2, samples: &mut Vec<PointerSample>| {
            let (ray, hit) = pick(pos);
            samples.push(PointerSample {
                kind,
                pos,
                hit,
                ray,
            });
        };
        for event in &events {
            match *event {
                Event::PointerMoved(pos) if self.held => {
                    let far = self
                        .last
                        .is_none_or(|l| l.distance(pos) >= MIN_SAMPLE_POINTS);
                    if far {
                        sample(PointerKind::Move, pos, &mut samples);
                        self.last = Some(pos);
                    }
                }
                Event::PointerButton {
                    pos,
                    button: PointerButton::Primary,
                    pressed: true,
                    ..
                } if !self.held && accepts(pos) => {
                    self.held = true;
                    self.last = Some(pos);
                    sample(PointerKind::Press, pos, &mut samples);
                }
                Event::PointerButton {
                    pos,
                    button: PointerButton::Primary,
                    pressed: false,
                    ..
                } if self.held => {
                    self.held = false;
                    self.last = None;
                    sample(PointerKind::Release, pos, &mut samples);
                }
                _ => {}
            }
        }
        if self.held {
            // The last position of the frame, when thinning skipped it.
            if let (Some(pos), Some(last)) = (latest, self.last) {
                if pos != last {
                    sample(PointerKind::Move, pos, &mut samples);
                    self.last = Some(pos);
                }
            }
            if !still_down {
                // The release never arrived (focus lost): end where the pointer was.
                self.held = false;
                let pos = self.last.take().or(latest).unwrap_or_default();
                sample(PointerKind::Release, pos, &mut samples);
            }
        }
        samples
    }
}

/// True when a press at `pos` belongs to the viewport occupying `rect` on `layer`: inside the
/// rectangle, and no window, menu, popup or prompt lies over it.
pub fn viewport_owns(ctx: &egui::Context, rect: egui::Rect, pos: Pos2) -> bool {
    rect.contains(pos)
        && ctx
            .layer_id_at(pos)
            .is_none_or(|l| l.order == egui::Order::Background)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn frame(
        track: &mut PointerTrack,
        ctx: &egui::Context,
        events: Vec<Event>,
    ) -> Vec<PointerKind> {
        let mut kinds = Vec::new();
        let input = egui::RawInput {
            events,
            ..Default::default()
        };
        let mut output = ctx.run_ui(input, |ui| {
            let ray = PickRay {
                origin: [0.0; 3],
                dir: [0.0, -1.0, 0.0],
            };
            kinds = track
                .read(ui.ctx(), |p| p.x > 100.0, |_| (ray, None))
                .iter()
                .map(|s| s.kind)
                .collect();
        });
        output.textures_delta.clear();
        kinds
    }

    fn button(x: f32, pressed: bool) -> Event {
        Event::PointerButton {
            pos: Pos2::new(x, 50.0),
            button: PointerButton::Primary,
            pressed,
            modifiers: egui::Modifiers::NONE,
        }
    }

    #[test]
    fn a_click_within_one_frame_is_a_press_and_a_release() {
        let ctx = egui::Context::default();
        let mut track = PointerTrack::default();
        let kinds = frame(
            &mut track,
            &ctx,
            vec![
                Event::PointerMoved(Pos2::new(200.0, 50.0)),
                button(200.0, true),
                button(200.0, false),
                Event::PointerMoved(Pos2::new(300.0, 50.0)),
            ],
        );
        assert_eq!(kinds, vec![PointerKind::Press, PointerKind::Release]);
        assert!(!track.held);
    }

    #[test]
    fn a_press_the_viewport_does_not_own_is_ignored_until_released() {
        let ctx = egui::Context::default();
        let mut track = PointerTrack::default();
        let kinds = frame(
            &mut track,
            &ctx,
            vec![
                Event::PointerMoved(Pos2::new(50.0, 50.0)),
                button(50.0, true),
                Event::PointerMoved(Pos2::new(250.0, 50.0)),
            ],
        );
        assert!(kinds.is_empty(), "{kinds:?}");
        let kinds = frame(&mut track, &ctx, vec![button(250.0, false)]);
        assert!(kinds.is_empty(), "{kinds:?}");
    }

    #[test]
    fn a_held_drag_reports_its_path_and_ends_when_the_button_is_up() {
        let ctx = egui::Context::default();
        let mut track = PointerTrack::default();
        let mut events = vec![
            Event::PointerMoved(Pos2::new(200.0, 50.0)),
            button(200.0, true),
        ];
        events.extend((1..=10).map(|k| Event::PointerMoved(Pos2::new(200.0 + k as f32, 50.0))));
        let kinds = frame(&mut track, &ctx, events);
        assert_eq!(kinds[0], PointerKind::Press);
        // Ten one-point moves thin to one sample per two points.
        assert_eq!(kinds.len(), 1 + 5, "{kinds:?}");
        assert!(track.held);
        let kinds = frame(&mut track, &ctx, vec![button(210.0, false)]);
        assert_eq!(kinds, vec![PointerKind::Release]);
    }
}
