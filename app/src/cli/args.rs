//! Parsing of comma-separated numeric arguments (`--size 256,128,256`, `--box 0,0,0,16,16,16`).

use strata_engine::voxel::{VoxelBox, VoxelPos};

use crate::{AppError, AppResult};

fn parse_list<T: std::str::FromStr>(text: &str, n: usize, what: &str) -> AppResult<Vec<T>> {
    let parts: Vec<&str> = text.split(',').map(str::trim).collect();
    if parts.len() != n {
        return Err(AppError::Usage(format!(
            "{what} needs {n} comma-separated numbers, got {text:?}"
        )));
    }
    parts
        .iter()
        .map(|p| {
            p.parse::<T>()
                .map_err(|_| AppError::Usage(format!("{what}: {p:?} is not a valid number")))
        })
        .collect()
}

/// Parse `X,Y,Z` integers.
///
/// # Errors
/// [`AppError::Usage`] for the wrong count or a non-number.
pub fn parse_triple<T: std::str::FromStr + Copy>(text: &str, what: &str) -> AppResult<[T; 3]> {
    let v = parse_list::<T>(text, 3, what)?;
    Ok([v[0], v[1], v[2]])
}

/// Parse `X,Y,Z` finite numbers (a point in the world, `--at 12.5,40,7`).
///
/// # Errors
/// [`AppError::Usage`] for the wrong count, a non-number, NaN or an infinity.
pub fn parse_point(text: &str, what: &str) -> AppResult<[f32; 3]> {
    let v = parse_triple::<f32>(text, what)?;
    if v.iter().any(|x| !x.is_finite()) {
        return Err(AppError::Usage(format!(
            "{what} {text}: every coordinate must be a finite number"
        )));
    }
    Ok(v)
}

/// Parse one finite number in `lo..=hi`.
///
/// # Errors
/// [`AppError::Usage`] naming the option and the range.
pub fn parse_in_range(text: &str, what: &str, lo: f64, hi: f64) -> AppResult<f64> {
    let v: f64 = text
        .trim()
        .parse()
        .map_err(|_| AppError::Usage(format!("{what}: {text:?} is not a number")))?;
    if !v.is_finite() || v < lo || v > hi {
        return Err(AppError::Usage(format!(
            "{what} {text} is out of range: it must be {lo} to {hi}"
        )));
    }
    Ok(v)
}

/// Parse `A,B` numbers (`--size W,H` of an image or window, `X,Z` of a heightmap world).
///
/// # Errors
/// [`AppError::Usage`] for the wrong count or a non-number.
pub fn parse_pair<T: std::str::FromStr + Copy>(text: &str, what: &str) -> AppResult<[T; 2]> {
    let v = parse_list::<T>(text, 2, what)?;
    Ok([v[0], v[1]])
}

/// Parse a half-open box `X0,Y0,Z0,X1,Y1,Z1`.
///
/// # Errors
/// [`AppError::Usage`] for bad numbers or an empty box.
pub fn parse_box(text: &str) -> AppResult<VoxelBox> {
    let v = parse_list::<i32>(text, 6, "--box")?;
    let b = VoxelBox::new(
        VoxelPos::new(v[0], v[1], v[2]),
        VoxelPos::new(v[3], v[4], v[5]),
    );
    if b.is_empty() {
        return Err(AppError::Usage(format!(
            "--box {text} is empty: each of X1,Y1,Z1 must be greater than X0,Y0,Z0"
        )));
    }
    Ok(b)
}

/// Smallest `--window-size` side in points (the window's own minimum is larger; a capture may be
/// smaller than the editor needs, not degenerate).
pub const MIN_WINDOW: f32 = 64.0;
/// Largest `--window-size` side in points.
pub const MAX_WINDOW: f32 = 16384.0;

/// The checks every command that opens the editor window makes: the optional `--window-size W,H`
/// parsed, and `file` an existing file.
///
/// # Errors
/// [`AppError::Usage`] for a bad size or a missing file.
pub fn window_inputs(
    window_size: Option<&str>,
    file: &std::path::Path,
) -> AppResult<Option<[f32; 2]>> {
    let size = window_size
        .map(|s| parse_pair::<f32>(s, "--window-size"))
        .transpose()?;
    if let Some(pair) = size {
        if !pair
            .iter()
            .all(|v| v.is_finite() && (MIN_WINDOW..=MAX_WINDOW).contains(v))
        {
            return Err(AppError::Usage(format!(
                "--window-size {}: give a width and height from {MIN_WINDOW} to {MAX_WINDOW} points",
                window_size.unwrap_or_default()
            )));
        }
    }
    if !file.is_file() {
        return Err(AppError::Usage(format!("{}: no such file", file.display())));
    }
    Ok(size)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_and_rejects() {
        assert_eq!(
            parse_triple::<u32>("1, 2,3", "--size").ok(),
            Some([1, 2, 3])
        );
        assert!(parse_triple::<u32>("1,2", "--size").is_err());
        assert!(parse_triple::<u32>("1,-2,3", "--size").is_err());
        assert_eq!(
            parse_pair::<u32>("640, 480", "--size").ok(),
            Some([640, 480])
        );
        assert!(parse_pair::<u32>("640", "--size").is_err());
        let here = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("Cargo.toml");
        assert_eq!(
            window_inputs(Some("1024,700"), &here).ok(),
            Some(Some([1024.0, 700.0]))
        );
        for bad in ["NaN,1", "1,1", "inf,600", "800,-600", "800,100000"] {
            assert!(window_inputs(Some(bad), &here).is_err(), "{bad}");
        }
        let b = parse_box("-4,0,-4,4,8,4").expect("box");
        assert_eq!(b.volume(), 8 * 8 * 8);
        assert!(parse_box("0,0,0,0,1,1").is_err());
        assert_eq!(parse_point("1.5,-2,3", "--at").ok(), Some([1.5, -2.0, 3.0]));
        for bad in ["nan,0,0", "0,inf,0", "1,2", "a,b,c"] {
            assert!(parse_point(bad, "--at").is_err(), "{bad}");
        }
        assert_eq!(parse_in_range("0.5", "--s", 0.1, 1.0).ok(), Some(0.5));
        for bad in ["0", "1.5", "nan", "-inf", "x"] {
            assert!(parse_in_range(bad, "--s", 0.1, 1.0).is_err(), "{bad}");
        }
    }
}
