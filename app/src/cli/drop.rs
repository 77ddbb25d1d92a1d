//! `strata drop FILE [--bodies N] [--shape sphere|box|capsule|mixed] [--seed N] [--seconds T]
//! [--at X,Y,Z] [--json]`: drop rigid bodies onto the world's terrain, simulate, and report where they
//! ended, how deep they ever sank into the terrain, and whether they rest or float.
//!
//! JSON output: `{"bodies": [{"shape", "size", "start", "final", "max_penetration", "at_rest",
//! "in_water", "lost"}], "count", "at_rest", "in_water", "lost", "max_penetration", "seconds", "steps",
//! "wall_ms"}`; sizes (a body's smallest full extent) and penetrations are in voxels. A body's `lost` is
//! `null`, or why it left the simulation (`"fell out"` of the world, or `"non-finite"`); its `final`
//! is then where it left from, never `null`. The top-level `lost` counts them.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Instant;

use serde_json::{json, Value};
use strata_engine::physics::body::{run_drop, DropReport, DropSettings, Lost, ShapeChoice};
use strata_engine::physics::{PhysicsWorld, DEFAULT_CACHE_BYTES};

use super::progress::with_bar;
use crate::{AppError, AppResult};

/// `strata drop`.
#[derive(Debug, Clone, clap::Args)]
pub struct DropArgs {
    /// Project file.
    file: PathBuf,
    /// Number of bodies.
    #[arg(long, default_value_t = 32)]
    bodies: usize,
    /// Body shape: sphere, box, capsule or mixed.
    #[arg(long, default_value = "mixed")]
    shape: String,
    /// Random seed of placement, sizes and orientations.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Simulated seconds.
    #[arg(long, default_value_t = 10.0, allow_hyphen_values = true)]
    seconds: f32,
    /// Drop the bodies around this point X,Y,Z instead of over the whole world.
    #[arg(long, allow_hyphen_values = true)]
    at: Option<String>,
    /// Print JSON instead of text.
    #[arg(long)]
    json: bool,
}

impl DropArgs {
    /// Run the command.
    ///
    /// # Errors
    /// Bad options (before the file is read), an unreadable project, an empty world.
    pub fn run(self) -> AppResult<()> {
        run(&self.file, &self)
    }
}

/// Check the options and turn them into engine settings (before any file is read).
fn settings(args: &DropArgs) -> AppResult<DropSettings> {
    use strata_engine::physics::body::drop::{MAX_BODIES, MAX_SECONDS};
    if args.bodies == 0 || args.bodies > MAX_BODIES {
        return Err(AppError::Usage(format!(
            "--bodies {} must be between 1 and {MAX_BODIES}",
            args.bodies
        )));
    }
    if !(args.seconds.is_finite() && args.seconds > 0.0 && args.seconds <= MAX_SECONDS) {
        return Err(AppError::Usage(format!(
            "--seconds {} must be positive and at most {MAX_SECONDS}",
            args.seconds
        )));
    }
    let shape = ShapeChoice::from_name(&args.shape)
        .map_err(|e| AppError::Usage(format!("--shape: {e}")))?;
    let at = match args.at.as_deref() {
        None => None,
        Some(text) => {
            let p: [f32; 3] = super::parse_triple(text, "--at")?;
            if p.iter().any(|c| !c.is_finite()) {
                return Err(AppError::Usage(format!(
                    "--at: {text:?} must be three finite numbers X,Y,Z"
                )));
            }
            Some(p)
        }
    };
    Ok(DropSettings {
        count: args.bodies,
        shape,
        seed: args.seed,
        seconds: args.seconds,
        at,
        ..DropSettings::default()
    })
}

fn run(file: &Path, args: &DropArgs) -> AppResult<()> {
    let settings = settings(args)?;
    let project = super::project_edit::load(file)?;
    if let Some(p) = settings.at {
        // Bodies dropped beside the world would only fall out of it: say so instead.
        let b = project.header.bounds;
        let inside = |v: f32, lo: i32, hi: i32| v >= lo as f32 && v <= hi as f32;
        if !(inside(p[0], b.min.x, b.max.x) && inside(p[2], b.min.z, b.max.z)) {
            return Err(AppError::Usage(format!(
                "--at {},{},{} is outside the world {} (X {} to {}, Z {} to {})",
                p[0],
                p[1],
                p[2],
                file.display(),
                b.min.x,
                b.max.x,
                b.min.z,
                b.max.z
            )));
        }
    }
    let table = &project.header.materials;
    let grid = &project.grid;
    let started = Instant::now();
    let report = with_bar("simulating", |p| {
        let mut world = PhysicsWorld::new(grid, table, DEFAULT_CACHE_BYTES);
        run_drop(&mut world, grid, table, &settings, p)
    })?;
    let wall_ms = started.elapsed().as_secs_f64() * 1e3;
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    let io = |e| AppError::io("stdout", e);
    if args.json {
        writeln!(out, "{}", report_json(&report, wall_ms)).map_err(io)?;
    } else {
        write!(out, "{}", report_text(&report, &settings, wall_ms)).map_err(io)?;
    }
    out.flush().map_err(io)
}

/// Totals over the bodies.
struct Totals {
    rest: usize,
    water: usize,
    lost: usize,
    penetration: f32,
}

fn totals(r: &DropReport) -> Totals {
    Totals {
        rest: r.bodies.iter().filter(|b| b.at_rest).count(),
        water: r.bodies.iter().filter(|b| b.in_water).count(),
        lost: r.bodies.iter().filter(|b| b.lost.is_some()).count(),
        penetration: r
            .bodies
            .iter()
            .map(|b| b.max_penetration)
            .fold(0.0, f32::max),
    }
}

fn report_json(r: &DropReport, wall_ms: f64) -> Value {
    let bodies: Vec<Value> = r
        .bodies
        .iter()
        .map(|b| {
            json!({
                "shape": b.shape.name(),
                "size": b.size,
                "start": b.start,
                "final": b.final_position,
                "max_penetration": b.max_penetration,
                "at_rest": b.at_rest,
                "in_water": b.in_water,
                "lost": b.lost.map(Lost::name),
            })
        })
        .collect();
    let t = totals(r);
    json!({
        "bodies": bodies,
        "count": r.bodies.len(),
        "at_rest": t.rest,
        "in_water": t.water,
        "lost": t.lost,
        "max_penetration": t.penetration,
        "seconds": r.seconds,
        "steps": r.steps,
        "wall_ms": wall_ms,
    })
}

fn report_text(r: &DropReport, s: &DropSettings, wall_ms: f64) -> String {
    use std::fmt::Write as _;
    let Totals {
        rest,
        water,
        lost,
        penetration: pen,
    } = totals(r);
    let n = r.bodies.len();
    let worst = r
        .bodies
        .iter()
        .map(|b| b.max_penetration / b.size)
        .fold(0.0f32, f32::max);
    let mut t = String::new();
    let shape = match s.shape {
        ShapeChoice::Sphere => "spheres",
        ShapeChoice::Box => "boxes",
        ShapeChoice::Capsule => "capsules",
        ShapeChoice::Mixed => "mixed shapes",
    };
    let _ = writeln!(
        t,
        "dropped {n} bodies ({shape}, seed {}) for {:.2} s: {} steps, {} substeps, {:.0} ms",
        s.seed, r.seconds, r.steps, r.substeps, wall_ms
    );
    let _ = writeln!(
        t,
        "at rest {rest}/{n}, in water {water}/{n}, max penetration {pen:.4} voxels ({:.1}% of size)",
        worst * 100.0
    );
    let v = |p: [f32; 3]| format!("{:.2},{:.2},{:.2}", p[0], p[1], p[2]);
    if lost == 0 {
        let _ = writeln!(t, "lost 0/{n}: every body stayed in the world");
    } else {
        let list: Vec<String> = r
            .bodies
            .iter()
            .enumerate()
            .filter_map(|(i, b)| {
                let why = b.lost?;
                Some(format!(
                    "#{i} {} {} at {}",
                    b.shape.name(),
                    why.name(),
                    v(b.final_position)
                ))
            })
            .collect();
        let _ = writeln!(t, "lost {lost}/{n}: {}", list.join("; "));
    }
    let _ = writeln!(
        t,
        "{:>5} {:<8} {:>5}  {:<26} {:<26} {:>8} {:<4} water",
        "#", "shape", "size", "start", "final", "pen", "rest"
    );
    for (i, b) in r.bodies.iter().enumerate() {
        let _ = writeln!(
            t,
            "{i:>5} {:<8} {:>5.2}  {:<26} {:<26} {:>8.4} {:<4} {}",
            b.shape.name(),
            b.size,
            v(b.start),
            v(b.final_position),
            b.max_penetration,
            if b.at_rest { "yes" } else { "no" },
            match b.lost {
                Some(why) => why.name(),
                None if b.in_water => "yes",
                None => "no",
            },
        );
    }
    t
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(bodies: usize, shape: &str, seconds: f32, at: Option<&str>) -> DropArgs {
        DropArgs {
            file: PathBuf::from("w.strata"),
            bodies,
            shape: shape.to_owned(),
            seed: 1,
            seconds,
            at: at.map(str::to_owned),
            json: false,
        }
    }

    #[test]
    fn lost_bodies_are_reported_not_null() {
        use strata_engine::physics::body::{DropBody, Shape};
        let body = |lost: Option<Lost>, y: f32| DropBody {
            shape: Shape::Sphere { radius: 0.5 },
            size: 1.0,
            density: 1.5,
            start: [1.0, 20.0, 1.0],
            final_position: [1.0, y, 1.0],
            max_penetration: 0.01,
            at_rest: lost.is_none(),
            in_water: false,
            lost,
        };
        let report = DropReport {
            bodies: vec![body(None, 3.0), body(Some(Lost::FellOut), -70.0)],
            steps: 10,
            substeps: 12,
            seconds: 10.0 / 120.0,
        };
        let s = settings(&args(2, "sphere", 1.0, None)).expect("valid");
        let text = report_text(&report, &s, 1.0);
        assert!(
            text.contains("lost 1/2: #1 sphere fell out at 1.00,-70.00,1.00"),
            "{text}"
        );
        let j = report_json(&report, 1.0);
        assert_eq!(j["lost"], 1);
        assert_eq!(j["bodies"][1]["lost"], "fell out");
        assert!(j["bodies"][0]["lost"].is_null());
        assert_eq!(j["bodies"][1]["final"][1], -70.0);
        let calm = DropReport {
            bodies: vec![body(None, 3.0)],
            ..report
        };
        assert!(report_text(&calm, &s, 1.0).contains("lost 0/1"));
    }

    #[test]
    fn options_are_checked() {
        let ok = settings(&args(5, "box", 2.0, Some("1,-2.5,3"))).expect("valid");
        assert_eq!(ok.count, 5);
        assert_eq!(ok.shape, ShapeChoice::Box);
        assert_eq!(ok.at, Some([1.0, -2.5, 3.0]));
        for bad in [
            args(0, "box", 2.0, None),
            args(5, "cone", 2.0, None),
            args(5, "box", 0.0, None),
            args(5, "box", f32::NAN, None),
            args(5, "box", 2.0, Some("1,2")),
            args(5, "box", 2.0, Some("1,2,inf")),
        ] {
            assert!(matches!(settings(&bad), Err(AppError::Usage(_))), "{bad:?}");
        }
    }
}
