//! PNG encoding and decoding, in one place: screenshots, `strata render`, thumbnails and heightmaps.
//! The `image` crate does the work (png only); decoding is capped so a hostile file cannot ask for
//! gigabytes, and every failure names the file.

use std::path::Path;

use image::codecs::png::PngEncoder;
use image::{DynamicImage, ExtendedColorType, ImageEncoder, ImageFormat, ImageReader, Limits};
use strata_engine::gen::MAX_HORIZONTAL_SIZE;

use crate::{AppError, AppResult};

/// Largest allocation a decode may make, bytes.
const MAX_DECODE_BYTES: u64 = 2 << 30;

/// Encode `rgba` (`width × height` pixels, 4 bytes each, rows top to bottom) as a PNG; `target` names
/// the file in errors.
///
/// # Errors
/// When `rgba` does not hold `width × height` pixels, or the encoder fails.
pub fn encode_rgba(rgba: &[u8], width: u32, height: u32, target: &Path) -> AppResult<Vec<u8>> {
    let expected = u64::from(width) * u64::from(height) * 4;
    if rgba.len() as u64 != expected {
        return Err(AppError::Usage(format!(
            "{}: {} bytes of pixels for a {width}x{height} image (needs {expected})",
            target.display(),
            rgba.len()
        )));
    }
    let mut bytes = Vec::new();
    PngEncoder::new(&mut bytes)
        .write_image(rgba, width, height, ExtendedColorType::Rgba8)
        .map_err(|e| AppError::Usage(format!("{}: PNG encoding failed: {e}", target.display())))?;
    Ok(bytes)
}

/// Encode `samples` (`width × height`, rows top to bottom) as a 16-bit greyscale PNG; `target` names
/// the file in errors.
///
/// # Errors
/// When `samples` does not hold `width × height` pixels, or the encoder fails.
pub fn encode_grey16(
    samples: &[u16],
    width: u32,
    height: u32,
    target: &Path,
) -> AppResult<Vec<u8>> {
    let image =
        image::ImageBuffer::<image::Luma<u16>, Vec<u16>>::from_raw(width, height, samples.to_vec())
            .ok_or_else(|| {
                AppError::Usage(format!(
                    "{}: {} samples for a {width}x{height} image",
                    target.display(),
                    samples.len()
                ))
            })?;
    let mut bytes = Vec::new();
    DynamicImage::ImageLuma16(image)
        .write_to(&mut std::io::Cursor::new(&mut bytes), ImageFormat::Png)
        .map_err(|e| AppError::Usage(format!("{}: PNG encoding failed: {e}", target.display())))?;
    Ok(bytes)
}

/// Encode `grey` (`width × height` bytes, rows top to bottom) as an 8-bit greyscale PNG; `target`
/// names the file in errors.
///
/// # Errors
/// When `grey` does not hold `width × height` pixels, or the encoder fails.
pub fn encode_grey8(grey: &[u8], width: u32, height: u32, target: &Path) -> AppResult<Vec<u8>> {
    if grey.len() as u64 != u64::from(width) * u64::from(height) {
        return Err(AppError::Usage(format!(
            "{}: {} bytes of pixels for a {width}x{height} image",
            target.display(),
            grey.len()
        )));
    }
    let mut bytes = Vec::new();
    PngEncoder::new(&mut bytes)
        .write_image(grey, width, height, ExtendedColorType::L8)
        .map_err(|e| AppError::Usage(format!("{}: PNG encoding failed: {e}", target.display())))?;
    Ok(bytes)
}

/// Decode the PNG at `path`; sides above the largest world are refused.
///
/// # Errors
/// Unreadable file, not a PNG, corrupt data, or sides above the largest world.
pub fn read_png(path: &Path) -> AppResult<DynamicImage> {
    let bytes = strata_engine::format::input::read_input(
        path,
        strata_engine::format::input::MAX_PNG_BYTES,
    )?;
    decode(&bytes).map_err(|e| AppError::Usage(format!("{}: {e}", path.display())))
}

/// Decode PNG bytes held in memory, with the same limits as [`read_png`].
///
/// # Errors
/// Not a PNG, corrupt data, or sides above the largest world (the message names no file).
pub fn decode(bytes: &[u8]) -> Result<DynamicImage, String> {
    // The header alone gives the size: refuse a too-large image by name before decoding anything.
    let header = ImageReader::with_format(std::io::Cursor::new(bytes), ImageFormat::Png);
    if let Ok((w, h)) = header.into_dimensions() {
        if w > MAX_HORIZONTAL_SIZE || h > MAX_HORIZONTAL_SIZE {
            return Err(format!(
                "the image is {w}x{h} pixels; at most {MAX_HORIZONTAL_SIZE} per side is accepted \
                 (the largest world)"
            ));
        }
    }
    let mut reader = ImageReader::with_format(std::io::Cursor::new(bytes), ImageFormat::Png);
    let mut limits = Limits::default();
    limits.max_image_width = Some(MAX_HORIZONTAL_SIZE);
    limits.max_image_height = Some(MAX_HORIZONTAL_SIZE);
    limits.max_alloc = Some(MAX_DECODE_BYTES);
    reader.limits(limits);
    reader
        .decode()
        .map_err(|e| format!("not a readable PNG image: {e}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn encode_then_decode_round_trips_and_garbage_is_an_error() {
        let rgba: Vec<u8> = (0..4 * 3 * 2).map(|i| (i * 7) as u8).collect();
        let png = encode_rgba(&rgba, 3, 2, Path::new("t.png")).expect("encode");
        let back = decode(&png).expect("decode").to_rgba8();
        assert_eq!(back.dimensions(), (3, 2));
        assert_eq!(back.into_raw(), rgba);
        assert!(decode(b"not a png").is_err());
        assert!(encode_rgba(&rgba, 5, 5, Path::new("t.png")).is_err());
        let deep: Vec<u16> = (0..6).map(|i| i * 13_000 + 7).collect();
        let png = encode_grey16(&deep, 3, 2, Path::new("t.png")).expect("encode");
        assert_eq!(decode(&png).expect("decode").to_luma16().into_raw(), deep);
        assert!(encode_grey16(&deep, 4, 2, Path::new("t.png")).is_err());
        let png = encode_grey8(&rgba[..6], 3, 2, Path::new("t.png")).expect("encode");
        assert_eq!(
            decode(&png).expect("decode").to_luma8().into_raw(),
            rgba[..6]
        );
        assert!(encode_grey8(&rgba[..5], 3, 2, Path::new("t.png")).is_err());
    }

    #[test]
    fn images_wider_than_the_largest_world_are_refused_by_size() {
        let side = MAX_HORIZONTAL_SIZE + 1;
        let mut bytes = Vec::new();
        PngEncoder::new(&mut bytes)
            .write_image(&vec![0u8; side as usize], side, 1, ExtendedColorType::L8)
            .expect("encode");
        let err = decode(&bytes).expect_err("too wide");
        assert!(err.contains("16385x1") && err.contains("16384"), "{err}");
    }
}
