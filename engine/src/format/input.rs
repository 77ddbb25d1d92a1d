//! Reading an input file whole, safely: only regular files (a symlink is followed, then checked), and
//! never more than a per-format limit, so `/dev/zero`, a FIFO or a region file symlinked to a device
//! cannot make a reader allocate without bound.
//!
//! The limits are generous for real data and small enough that reading the file whole is always safe
//! on the machines Strata targets. They are listed in the "Limits" section of `docs/cli.md`.

use std::fs::File;
use std::io::Read;
use std::path::Path;

use crate::{Error, Result};

/// Largest `.strata` project file read (16 GiB).
pub const MAX_PROJECT_BYTES: u64 = 16 << 30;
/// Largest godot_voxel region file read (1 GiB).
pub const MAX_REGION_BYTES: u64 = 1 << 30;
/// Largest godot_voxel v4 block or container file read (256 MiB).
pub const MAX_BLOCK_BYTES: u64 = 256 << 20;
/// Largest small text or JSON file read (a forest's meta file, a ray list): 256 MiB.
pub const MAX_TEXT_BYTES: u64 = 256 << 20;
/// Largest PNG read (1 GiB).
pub const MAX_PNG_BYTES: u64 = 1 << 30;
/// Largest raw or RLE voxel stream read by `import` (32 GiB).
pub const MAX_VOXEL_STREAM_BYTES: u64 = 32 << 30;

/// Check that `path` names a regular file of at most `max_bytes` bytes and return its length.
///
/// # Errors
/// [`Error::Io`] when it cannot be inspected; [`Error::InFile`] wrapping [`Error::Invalid`] when it is
/// not a regular file (a device, FIFO, socket or folder) or is larger than `max_bytes`.
pub fn check_input(path: &Path, max_bytes: u64) -> Result<u64> {
    let meta = std::fs::metadata(path).map_err(|e| Error::io(path, e))?;
    check_meta(path, &meta, max_bytes)
}

fn check_meta(path: &Path, meta: &std::fs::Metadata, max_bytes: u64) -> Result<u64> {
    if meta.is_dir() {
        return Err(Error::Invalid("is a folder, not a file".into()).in_file(path));
    }
    if !meta.is_file() {
        return Err(Error::Invalid(
            "is not a regular file (a device, FIFO or socket): only regular files are read".into(),
        )
        .in_file(path));
    }
    if meta.len() > max_bytes {
        return Err(Error::Invalid(format!(
            "is {} bytes; files of this kind are read up to {max_bytes} bytes",
            meta.len()
        ))
        .in_file(path));
    }
    Ok(meta.len())
}

/// Read the regular file `path` whole, refusing anything else or anything over `max_bytes`.
///
/// # Errors
/// As [`check_input`], and [`Error::Io`] when reading fails. A file that grows past `max_bytes` while
/// it is read is refused too.
pub fn read_input(path: &Path, max_bytes: u64) -> Result<Vec<u8>> {
    // Checked by path first: opening a FIFO would block until a writer appears.
    check_input(path, max_bytes)?;
    let file = File::open(path).map_err(|e| Error::io(path, e))?;
    let meta = file.metadata().map_err(|e| Error::io(path, e))?;
    let len = check_meta(path, &meta, max_bytes)?;
    let mut bytes = Vec::with_capacity(usize::try_from(len).unwrap_or(0));
    file.take(max_bytes.saturating_add(1))
        .read_to_end(&mut bytes)
        .map_err(|e| Error::io(path, e))?;
    if bytes.len() as u64 > max_bytes {
        return Err(
            Error::Invalid(format!("grew past {max_bytes} bytes while it was read")).in_file(path),
        );
    }
    Ok(bytes)
}

/// [`read_input`] as UTF-8 text.
///
/// # Errors
/// As [`read_input`], and [`Error::InFile`] when the bytes are not UTF-8.
pub fn read_input_text(path: &Path, max_bytes: u64) -> Result<String> {
    String::from_utf8(read_input(path, max_bytes)?)
        .map_err(|e| Error::Invalid(format!("is not UTF-8 text: {e}")).in_file(path))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn refuses_devices_folders_and_oversized_files() {
        let dir = std::env::temp_dir().join(format!("strata-input-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("dir");
        let f = dir.join("small.bin");
        std::fs::write(&f, [1u8, 2, 3]).expect("write");
        assert_eq!(read_input(&f, 3).expect("fits"), [1, 2, 3]);
        let big = read_input(&f, 2).expect_err("over the limit").to_string();
        assert!(
            big.contains("3 bytes") && big.contains("small.bin"),
            "{big}"
        );
        let folder = read_input(&dir, 100).expect_err("folder").to_string();
        assert!(folder.contains("is a folder"), "{folder}");
        #[cfg(unix)]
        {
            let zero = read_input(Path::new("/dev/zero"), 1 << 20)
                .expect_err("device")
                .to_string();
            assert!(zero.contains("not a regular file"), "{zero}");
            let link = dir.join("zero.link");
            let _ = std::fs::remove_file(&link);
            std::os::unix::fs::symlink("/dev/zero", &link).expect("symlink");
            let linked = read_input(&link, 1 << 20).expect_err("symlink to a device");
            assert!(linked.to_string().contains("not a regular file"));
            let fifo = dir.join("pipe");
            let made = std::process::Command::new("mkfifo").arg(&fifo).status();
            if made.is_ok_and(|s| s.success()) {
                let e = read_input(&fifo, 1 << 20).expect_err("FIFO").to_string();
                assert!(e.contains("not a regular file"), "{e}");
            }
        }
        std::fs::remove_dir_all(&dir).expect("cleanup");
    }
}
