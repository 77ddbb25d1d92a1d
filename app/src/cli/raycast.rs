//! `strata raycast FILE --from X,Y,Z --dir X,Y,Z [--json]` and `strata raycast FILE --rays RAYS.txt`:
//! cast rays against the terrain surface (solid and water) with the engine's world raycast.
//!
//! Text output is one line per ray, `hit t x y z nx ny nz material` or `miss`; `t` is the distance in
//! voxels (the direction is normalized) and `material` the material's name.

use std::io::Write;
use std::path::{Path, PathBuf};

use serde_json::{json, Value};
use strata_engine::format::input::{read_input_text, MAX_TEXT_BYTES};
use strata_engine::physics::{PhysicsWorld, WorldHit, DEFAULT_CACHE_BYTES};
use strata_engine::voxel::MaterialTable;

use crate::{AppError, AppResult};

/// One ray from the command line or a rays file.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RayArg {
    /// Start point.
    pub origin: [f32; 3],
    /// Direction (non-zero, finite).
    pub dir: [f32; 3],
}

/// Where the rays come from.
#[derive(Debug, Clone, Copy)]
enum RaySource<'a> {
    /// `--from` and `--dir`.
    One {
        /// `--from` text.
        from: &'a str,
        /// `--dir` text.
        dir: &'a str,
    },
    /// `--rays FILE`.
    File(&'a Path),
}

/// `strata raycast`.
#[derive(Debug, clap::Args)]
pub struct RaycastArgs {
    /// Project file.
    file: PathBuf,
    /// Ray origin X,Y,Z (with --dir).
    #[arg(
        long,
        allow_hyphen_values = true,
        requires = "dir",
        required_unless_present = "rays"
    )]
    from: Option<String>,
    /// Ray direction X,Y,Z, any non-zero length (with --from).
    #[arg(long, allow_hyphen_values = true, requires = "from")]
    dir: Option<String>,
    /// File of rays, one `ox oy oz dx dy dz` per line (instead of --from/--dir).
    #[arg(long, conflicts_with_all = ["from", "dir"])]
    rays: Option<PathBuf>,
    /// Print JSON instead of text.
    #[arg(long)]
    json: bool,
}

impl RaycastArgs {
    /// Run the command.
    ///
    /// # Errors
    /// Bad numbers, a zero direction, a malformed rays file (with its line number), or an
    /// unreadable project.
    pub fn run(self) -> AppResult<()> {
        let source = match (&self.rays, &self.from, &self.dir) {
            (Some(path), _, _) => RaySource::File(path),
            (None, Some(from), Some(dir)) => RaySource::One { from, dir },
            _ => {
                return Err(AppError::Usage(
                    "raycast needs --from X,Y,Z --dir X,Y,Z or --rays FILE".into(),
                ))
            }
        };
        run(&self.file, source, self.json)
    }
}

fn run(file: &Path, source: RaySource<'_>, json: bool) -> AppResult<()> {
    let rays = match source {
        RaySource::One { from, dir } => vec![RayArg {
            origin: parse_vector(from, "--from")?,
            dir: checked_dir(parse_vector(dir, "--dir")?, "--dir")?,
        }],
        RaySource::File(path) => {
            let text = read_input_text(path, MAX_TEXT_BYTES)?;
            parse_rays(&text).map_err(|m| AppError::Usage(format!("{}: {m}", path.display())))?
        }
    };
    let project = super::project_edit::load(file)?;
    let table = &project.header.materials;
    let mut world = PhysicsWorld::new(&project.grid, table, DEFAULT_CACHE_BYTES);
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    let io = |e| AppError::io("stdout", e);
    // Each ray is cast and written before the next, so memory does not grow with the ray count
    // (a JSON array is written element by element, byte for byte what serializing it whole gives).
    let array = json && matches!(source, RaySource::File(_));
    if array {
        write!(out, "[").map_err(io)?;
    }
    for (i, r) in rays.iter().enumerate() {
        let hit = world.raycast(&project.grid, r.origin, r.dir, f32::INFINITY)?;
        if json {
            if array && i > 0 {
                write!(out, ",").map_err(io)?;
            }
            write!(out, "{}", hit_json(r, hit.as_ref(), table)).map_err(io)?;
        } else {
            writeln!(out, "{}", hit_line(hit.as_ref(), table)).map_err(io)?;
        }
    }
    if array {
        write!(out, "]").map_err(io)?;
    }
    if json {
        writeln!(out).map_err(io)?;
    }
    out.flush().map_err(io)
}

/// The material's name with spaces replaced by `_` (so a text line keeps its field count), or `#ID`
/// for an id the table does not know.
fn material_name(table: &MaterialTable, id: u8) -> String {
    match table.get(id) {
        Some(m) => m.name.split_whitespace().collect::<Vec<_>>().join("_"),
        None => format!("#{id}"),
    }
}

/// `hit t x y z nx ny nz material` or `miss`.
fn hit_line(hit: Option<&WorldHit>, table: &MaterialTable) -> String {
    match hit {
        None => "miss".into(),
        Some(h) => format!(
            "hit {} {} {} {} {} {} {} {}",
            h.t,
            h.point[0],
            h.point[1],
            h.point[2],
            h.normal[0],
            h.normal[1],
            h.normal[2],
            material_name(table, h.material)
        ),
    }
}

fn hit_json(ray: &RayArg, hit: Option<&WorldHit>, table: &MaterialTable) -> Value {
    match hit {
        None => json!({"from": ray.origin, "dir": ray.dir, "hit": false}),
        Some(h) => json!({
            "from": ray.origin,
            "dir": ray.dir,
            "hit": true,
            "t": h.t,
            "point": h.point,
            "normal": h.normal,
            "material": material_name(table, h.material),
            "material_id": h.material,
            "water": h.water,
            "chunk": h.cell,
        }),
    }
}

/// Parse `X,Y,Z` as three finite numbers.
fn parse_vector(text: &str, what: &str) -> AppResult<[f32; 3]> {
    let v: [f32; 3] = super::parse_triple(text, what)?;
    if v.iter().any(|c| !c.is_finite()) {
        return Err(AppError::Usage(format!(
            "{what}: {text:?} must be three finite numbers"
        )));
    }
    Ok(v)
}

fn checked_dir(dir: [f32; 3], what: &str) -> AppResult<[f32; 3]> {
    if dir.iter().all(|&c| c == 0.0) {
        return Err(AppError::Usage(format!("{what}: the direction is zero")));
    }
    Ok(dir)
}

/// The longest line a rays file may have, in bytes (six numbers need well under a hundred).
const MAX_RAY_LINE: usize = 4096;

/// Parse a rays file: one `ox oy oz dx dy dz` per line (spaces or tabs); blank lines and lines
/// starting with `#` are skipped. Errors name the 1-based line.
fn parse_rays(text: &str) -> Result<Vec<RayArg>, String> {
    let mut rays = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let n = i + 1;
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        if line.len() > MAX_RAY_LINE {
            return Err(format!(
                "line {n} is {} bytes long; a ray line `ox oy oz dx dy dz` is at most {MAX_RAY_LINE}",
                line.len()
            ));
        }
        let fields: Vec<&str> = line.split_whitespace().take(7).collect();
        if fields.len() != 6 {
            return Err(format!(
                "line {n}: expected 6 numbers `ox oy oz dx dy dz`, got {}",
                if fields.len() > 6 {
                    "more fields".to_owned()
                } else {
                    format!("{} fields", fields.len())
                }
            ));
        }
        let mut v = [0.0f32; 6];
        for (slot, f) in v.iter_mut().zip(&fields) {
            *slot = f
                .parse::<f32>()
                .ok()
                .filter(|x| x.is_finite())
                .ok_or_else(|| format!("line {n}: {f:?} is not a finite number"))?;
        }
        let dir = [v[3], v[4], v[5]];
        if dir.iter().all(|&c| c == 0.0) {
            return Err(format!("line {n}: the direction is zero"));
        }
        rays.push(RayArg {
            origin: [v[0], v[1], v[2]],
            dir,
        });
    }
    if rays.is_empty() {
        return Err("no rays (expected lines `ox oy oz dx dy dz`)".into());
    }
    Ok(rays)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_rays_and_names_bad_lines() {
        let rays = parse_rays("# header\n1 2 3 0 -1 0\n\n4\t5 6 1 0 0\n").expect("rays");
        assert_eq!(rays.len(), 2);
        assert_eq!(rays[1].origin, [4.0, 5.0, 6.0]);
        let e = parse_rays("1 2 3 0 -1 0\n1 2 3 0 0\n").expect_err("short line");
        assert!(e.starts_with("line 2:"), "{e}");
        let e = parse_rays("1 2 3 0 -1 0\n\n1 2 x 0 0 1\n").expect_err("bad number");
        assert!(e.contains("line 3") && e.contains("\"x\""), "{e}");
        let e = parse_rays("1 2 3 0 0 0\n").expect_err("zero dir");
        assert!(e.contains("line 1") && e.contains("zero"), "{e}");
        assert!(parse_rays("1 2 3 nan 0 1\n").is_err());
        assert!(parse_rays("\n# only comments\n").is_err());
        let e = parse_rays("1 2 3 0 -1 0 7\n").expect_err("seven fields");
        assert!(e.contains("more fields"), "{e}");
        // A line of millions of fields is refused by its length, before it is split.
        let long = "1 ".repeat(5_000_000);
        let e = parse_rays(&long).expect_err("long line");
        assert!(e.contains("line 1 is 9999999 bytes long"), "{e}");
    }

    #[test]
    fn parses_vectors() {
        assert_eq!(
            parse_vector("1,-2.5,3", "--from").ok(),
            Some([1.0, -2.5, 3.0])
        );
        assert!(parse_vector("1,2", "--from").is_err());
        assert!(parse_vector("1,inf,2", "--from").is_err());
        assert!(checked_dir([0.0, -0.0, 0.0], "--dir").is_err());
    }
}
