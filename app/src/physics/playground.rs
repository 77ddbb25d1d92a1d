//! The Physics panel's scratch simulation: test bodies over the document's terrain, played in real
//! time on the UI thread under a per-frame compute budget.
//!
//! ```text
//!   first drop ──> Simulation::new(table)    bodies; floor = the world's bottom
//!   each frame (playing) ──> Simulation::advance(real seconds since the last frame, STEP_BUDGET)
//!   edit (any path: tools, undo, redo, cleanup) ──> Simulation::on_world_edited(world, grid, box)
//!   new document ──> everything dropped
//! ```
//!
//! Bodies are a scratch layer: they live here only, never in the document, its undo history or its
//! file. They collide with the document's one physics world, which the document keeps current on
//! every edit and lends to the panel once a frame ([`Document::with_physics`]); every method that
//! needs collision takes that world.

use std::time::{Duration, Instant};

use strata_engine::physics::body::{
    drop_bodies, rain_bodies, Advance, Body, ContactPoint, DropSpec, RainSpec, SimSettings,
    SimStatus, Simulation,
};
use strata_engine::physics::PhysicsWorld;
use strata_engine::voxel::VoxelBox;

use crate::document::Document;

/// Compute the simulation may spend per frame: at 60 frames per second it leaves most of the
/// 16.7 ms frame to the UI and the viewport. Steps beyond it are dropped and the simulation runs
/// slower than real time instead.
pub const STEP_BUDGET: Duration = Duration::from_millis(6);

/// Gap (voxels) under which a contact is drawn.
const CONTACT_MARGIN: f32 = 0.05;

/// The bodies and their simulation (see the module docs).
#[derive(Default)]
pub struct Playground {
    sim: Option<Simulation>,
    /// Stepping in real time.
    pub playing: bool,
    last_tick: Option<Instant>,
    contacts: Vec<ContactPoint>,
    contacts_stale: bool,
    /// Frames to wait before finding contacts again (finding them cost more than the budget).
    contacts_wait: u32,
    last: Advance,
}

impl Playground {
    /// The simulation, once something was dropped.
    pub fn sim(&self) -> Option<&Simulation> {
        self.sim.as_ref()
    }

    /// Counts of bodies by state.
    pub fn status(&self) -> SimStatus {
        self.sim
            .as_ref()
            .map(Simulation::status)
            .unwrap_or_default()
    }

    /// Fixed steps per real second (measured over half a second while playing; 0 when paused).
    pub fn steps_per_second(&self) -> f64 {
        if self.playing {
            self.sim
                .as_ref()
                .map_or(0.0, |s| s.pacer().steps_per_second())
        } else {
            0.0
        }
    }

    /// Simulated seconds per real second while playing (1 is real time).
    pub fn speed(&self) -> f64 {
        self.sim.as_ref().map_or(0.0, |s| {
            self.steps_per_second() * f64::from(s.settings().dt)
        })
    }

    /// What the last frame of play did.
    pub fn last_frame(&self) -> Advance {
        self.last
    }

    /// The contacts found the last time they were asked for (see [`Playground::refresh_contacts`]).
    pub fn contacts(&self) -> &[ContactPoint] {
        &self.contacts
    }

    /// Forget everything (a new document).
    pub fn reset_all(&mut self) {
        *self = Self::default();
    }

    fn ensure(&mut self, doc: &Document) -> &mut Simulation {
        self.sim.get_or_insert_with(|| {
            let settings = SimSettings {
                floor_y: Some(doc.bounds().min.y as f32),
                ..SimSettings::default()
            };
            Simulation::new(doc.materials(), settings)
        })
    }

    /// Drop bodies as `spec` says; returns how many were added. Starts playing.
    ///
    /// # Errors
    /// A message naming the bad value (outside the world, size, density, count, spread) or the
    /// simulation's body limit.
    pub fn drop_at(
        &mut self,
        world: &mut PhysicsWorld,
        doc: &Document,
        spec: &DropSpec,
    ) -> Result<usize, String> {
        spec.check(&doc.bounds()).map_err(|e| e.to_string())?;
        self.spawn(doc, |sim| {
            drop_bodies(world, doc.grid(), &doc.bounds(), spec, sim.bodies())
        })
    }

    /// Rain bodies as `spec` says; returns how many were added. Starts playing.
    ///
    /// # Errors
    /// As [`Playground::drop_at`].
    pub fn rain(
        &mut self,
        world: &mut PhysicsWorld,
        doc: &Document,
        spec: &RainSpec,
    ) -> Result<usize, String> {
        spec.check(&doc.bounds()).map_err(|e| e.to_string())?;
        self.spawn(doc, |sim| {
            rain_bodies(world, doc.grid(), &doc.bounds(), spec, sim.bodies())
        })
    }

    /// Add the bodies `make` places beside the simulation's own (created for `doc` if need be).
    fn spawn(
        &mut self,
        doc: &Document,
        make: impl FnOnce(&Simulation) -> strata_engine::Result<Vec<Body>>,
    ) -> Result<usize, String> {
        let bodies = make(self.ensure(doc)).map_err(|e| e.to_string())?;
        self.add(&bodies)
    }

    fn add(&mut self, bodies: &[Body]) -> Result<usize, String> {
        let Some(sim) = self.sim.as_mut() else {
            return Ok(0);
        };
        sim.add_all(bodies).map_err(|e| e.to_string())?;
        self.contacts_stale = true;
        self.play();
        Ok(bodies.len())
    }

    /// Start stepping in real time.
    pub fn play(&mut self) {
        if !self.playing {
            self.playing = true;
            self.last_tick = None;
        }
    }

    /// Stop stepping; Play later does not catch up on the time paused.
    pub fn pause(&mut self) {
        self.playing = false;
        self.last_tick = None;
        if let Some(sim) = self.sim.as_mut() {
            sim.pause();
        }
    }

    /// One fixed step (pauses first).
    ///
    /// # Errors
    /// Errors of building collision shapes.
    pub fn step(&mut self, world: &mut PhysicsWorld, doc: &Document) -> Result<(), String> {
        self.pause();
        if let Some(sim) = self.sim.as_mut() {
            sim.step(world, doc.grid()).map_err(|e| e.to_string())?;
            self.contacts_stale = true;
        }
        Ok(())
    }

    /// Every body back where it was dropped, paused.
    pub fn reset(&mut self) {
        self.pause();
        if let Some(sim) = self.sim.as_mut() {
            sim.reset();
        }
        self.contacts_stale = true;
    }

    /// Remove every body, paused.
    pub fn clear(&mut self) {
        self.pause();
        if let Some(sim) = self.sim.as_mut() {
            sim.clear();
        }
        self.contacts.clear();
    }

    /// One frame: while playing, the steps owed since the last frame within [`STEP_BUDGET`].
    ///
    /// # Errors
    /// Errors of building collision shapes (play pauses).
    pub fn frame(&mut self, world: &mut PhysicsWorld, doc: &Document) -> Result<(), String> {
        if !self.playing {
            return Ok(());
        }
        let now = Instant::now();
        let real = self
            .last_tick
            .replace(now)
            .map_or(0.0, |t| (now - t).as_secs_f64());
        let Some(sim) = self.sim.as_mut() else {
            return Ok(());
        };
        match sim.advance(world, doc.grid(), real, STEP_BUDGET) {
            Ok(a) => {
                self.last = a;
                self.contacts_stale |= a.steps > 0;
                Ok(())
            }
            Err(e) => {
                self.pause();
                Err(e.to_string())
            }
        }
    }

    /// The voxels in `changed` were edited (and `world` already holds the edit): wake and lift the
    /// bodies near it.
    ///
    /// # Errors
    /// Errors of building collision shapes.
    pub fn on_edit(
        &mut self,
        world: &mut PhysicsWorld,
        doc: &Document,
        changed: VoxelBox,
    ) -> Result<(), String> {
        let Some(sim) = self.sim.as_mut() else {
            return Ok(());
        };
        sim.on_world_edited(world, doc.grid(), changed)
            .map_err(|e| e.to_string())?;
        self.contacts_stale = true;
        Ok(())
    }

    /// Find the contacts to draw, when the bodies moved since the last time.
    ///
    /// When finding them costs more than [`STEP_BUDGET`], the next frames skip it in proportion, so
    /// many bodies thin out the contact drawing instead of the frame rate.
    ///
    /// # Errors
    /// Errors of building collision shapes.
    pub fn refresh_contacts(
        &mut self,
        world: &mut PhysicsWorld,
        doc: &Document,
    ) -> Result<(), String> {
        if !self.contacts_stale {
            return Ok(());
        }
        if self.contacts_wait > 0 {
            self.contacts_wait -= 1;
            return Ok(());
        }
        self.contacts_stale = false;
        let Some(sim) = self.sim.as_mut() else {
            self.contacts.clear();
            return Ok(());
        };
        let started = Instant::now();
        let found = sim.contact_points(world, doc.grid(), CONTACT_MARGIN, &mut self.contacts);
        let cost = started.elapsed().as_secs_f64() / STEP_BUDGET.as_secs_f64();
        self.contacts_wait = cost.min(120.0) as u32;
        found.map_err(|e| e.to_string())
    }
}
