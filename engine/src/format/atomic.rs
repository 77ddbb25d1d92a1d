//! Atomic saves: write a temporary file in the same folder, fsync it, keep the previous file as
//! `NAME.bak`, then rename the temporary over `NAME`. At every instant `NAME` is either the old or the
//! new complete file, never a partial one.

use std::fs::{self, File};
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

use crate::{Error, Result};

/// `path` with `.bak` appended to its file name (`world.strata` -> `world.strata.bak`).
pub fn backup_path(path: &Path) -> PathBuf {
    let mut name = path.file_name().unwrap_or_default().to_os_string();
    name.push(".bak");
    path.with_file_name(name)
}

fn temp_path(path: &Path) -> PathBuf {
    let mut name = std::ffi::OsString::from(".");
    name.push(path.file_name().unwrap_or_default());
    name.push(format!(".{}.tmp", std::process::id()));
    path.with_file_name(name)
}

/// Write `bytes` to `path` atomically, keeping any previous file as [`backup_path`].
///
/// # Errors
/// [`Error::Io`] naming the file that could not be written, synced, linked or renamed; the previous
/// file is left in place and the temporary file is removed.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<()> {
    let mut f = AtomicFile::create(path)?;
    f.write_all(bytes).map_err(|e| Error::io(&f.tmp, e))?;
    f.commit()
}

/// A file written through a temporary sibling and renamed into place by [`AtomicFile::commit`], for
/// output too large to build in memory. Dropped without commit, it removes the temporary file.
#[derive(Debug)]
pub struct AtomicFile {
    path: PathBuf,
    tmp: PathBuf,
    file: Option<BufWriter<File>>,
}

impl AtomicFile {
    /// Start writing `path`.
    ///
    /// # Errors
    /// [`Error::Io`] when the temporary file cannot be created.
    pub fn create(path: &Path) -> Result<Self> {
        let tmp = temp_path(path);
        let file = File::create(&tmp).map_err(|e| Error::io(&tmp, e))?;
        Ok(Self {
            path: path.to_path_buf(),
            tmp,
            file: Some(BufWriter::new(file)),
        })
    }

    /// Flush, fsync, keep the previous file as `NAME.bak` and rename into place.
    ///
    /// # Errors
    /// [`Error::Io`]; the previous file is untouched and the temporary removed.
    pub fn commit(mut self) -> Result<()> {
        let result = self.finish();
        if result.is_err() {
            let _ = fs::remove_file(&self.tmp);
        }
        result
    }

    fn finish(&mut self) -> Result<()> {
        let Some(buffered) = self.file.take() else {
            return Ok(());
        };
        let file = buffered
            .into_inner()
            .map_err(|e| Error::io(&self.tmp, e.into_error()))?;
        file.sync_all().map_err(|e| Error::io(&self.tmp, e))?;
        drop(file);
        if self.path.exists() {
            let bak = backup_path(&self.path);
            let _ = fs::remove_file(&bak);
            if fs::hard_link(&self.path, &bak).is_err() {
                fs::copy(&self.path, &bak).map_err(|e| Error::io(&bak, e))?;
            }
        }
        fs::rename(&self.tmp, &self.path).map_err(|e| Error::io(&self.path, e))?;
        sync_dir(&self.path);
        Ok(())
    }
}

impl Write for AtomicFile {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        match &mut self.file {
            Some(f) => f.write(buf),
            None => Err(std::io::Error::other("file already committed")),
        }
    }

    fn flush(&mut self) -> std::io::Result<()> {
        match &mut self.file {
            Some(f) => f.flush(),
            None => Ok(()),
        }
    }
}

impl Drop for AtomicFile {
    fn drop(&mut self) {
        if self.file.take().is_some() {
            let _ = fs::remove_file(&self.tmp);
        }
    }
}

/// Best effort: persist the rename itself (not supported on every platform).
fn sync_dir(path: &Path) {
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    if let Ok(d) = File::open(dir) {
        let _ = d.sync_all();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_previous_as_backup() {
        let dir = std::env::temp_dir().join(format!("strata-atomic-{}", std::process::id()));
        fs::create_dir_all(&dir).expect("temp dir");
        let p = dir.join("w.strata");
        write_atomic(&p, b"one").expect("first save");
        assert!(!backup_path(&p).exists());
        write_atomic(&p, b"two").expect("second save");
        assert_eq!(fs::read(&p).expect("read"), b"two");
        assert_eq!(fs::read(backup_path(&p)).expect("read bak"), b"one");
        let leftovers = fs::read_dir(&dir).expect("list").count();
        assert_eq!(leftovers, 2, "no temporary files remain");
        let bad = dir.join("missing-folder").join("x.strata");
        assert!(matches!(write_atomic(&bad, b"x"), Err(Error::Io { .. })));
        fs::remove_dir_all(&dir).expect("cleanup");
    }
}
