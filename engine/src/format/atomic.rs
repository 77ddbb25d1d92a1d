//! Atomic saves: write a temporary file in the same folder, fsync it, keep the previous file as
//! `NAME.bak`, then rename the temporary over `NAME`. At every instant `NAME` is either the old or the
//! new complete file, never a partial one.

use std::fs::{self, File};
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU32, Ordering};

use crate::{Error, Result};

/// Longest file name most file systems accept, in bytes.
const MAX_NAME_BYTES: usize = 255;

/// `path` with `.bak` appended to its file name (`world.strata` -> `world.strata.bak`). When that
/// name would pass 255 bytes, the name is cut to its first 100 bytes and a hash of the whole
/// name is added: `NAME[..100].1a2b3c4d.bak`.
pub fn backup_path(path: &Path) -> PathBuf {
    let mut name = path.file_name().unwrap_or_default().to_os_string();
    if name.len() + 4 > MAX_NAME_BYTES {
        let prefix = temp_prefix(path);
        return path.with_file_name(format!("{}bak", &prefix[1..]));
    }
    name.push(".bak");
    path.with_file_name(name)
}

/// Bytes of the target's name kept in a temporary file's name: with the hash, pid and counter the
/// temporary name stays under 160 bytes, so targets with names of up to 255 bytes can be saved.
const TEMP_NAME_PREFIX: usize = 100;
/// Temporary files of saves whose process is gone are removed by the next save of the same name; where
/// process ids cannot be checked, those older than this are.
const STALE_TEMP_SECS: u64 = 24 * 60 * 60;

/// Distinguishes temporary files of one process (an OBJ and its `.mtl` written at once).
static TEMP_COUNTER: AtomicU32 = AtomicU32::new(0);

/// The prefix every temporary file of `path` starts with: `.` + the start of the name + a hash of the
/// whole name, so two long names that share a start do not share temporaries.
fn temp_prefix(path: &Path) -> String {
    let name = path.file_name().unwrap_or_default().to_string_lossy();
    let mut cut = name.len().min(TEMP_NAME_PREFIX);
    while !name.is_char_boundary(cut) {
        cut -= 1;
    }
    format!(
        ".{}.{:08x}.",
        &name[..cut],
        crc32fast::hash(name.as_bytes())
    )
}

fn temp_path(path: &Path, kind: &str) -> PathBuf {
    let n = TEMP_COUNTER.fetch_add(1, Ordering::Relaxed);
    path.with_file_name(format!(
        "{}{}-{n}.{kind}",
        temp_prefix(path),
        std::process::id()
    ))
}

/// Remove temporary files left by killed saves of `path` (see [`STALE_TEMP_SECS`]); best effort.
fn remove_stale_temps(path: &Path) {
    let prefix = temp_prefix(path);
    let dir = parent_dir(path);
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let name = e.file_name();
        let Some(rest) = name.to_str().and_then(|n| n.strip_prefix(&prefix)) else {
            continue;
        };
        let Some((pid, _)) = rest.split_once('-') else {
            continue;
        };
        let is_temp = rest.ends_with(".tmp") || rest.ends_with(".baktmp");
        let Ok(pid) = pid.parse::<u32>() else {
            continue;
        };
        if is_temp && pid != std::process::id() && is_stale(pid, &e) {
            let _ = fs::remove_file(e.path());
        }
    }
}

fn is_stale(pid: u32, entry: &fs::DirEntry) -> bool {
    let proc_root = Path::new("/proc/self");
    if cfg!(target_os = "linux") && proc_root.exists() {
        return !Path::new("/proc").join(pid.to_string()).exists();
    }
    entry
        .metadata()
        .and_then(|m| m.modified())
        .ok()
        .and_then(|t| t.elapsed().ok())
        .is_some_and(|age| age.as_secs() > STALE_TEMP_SECS)
}

/// Refuse to write `out` when it is the same file as `input` (by identity: device and inode on Unix,
/// so a hard link, a symlink or `./x` are caught, not only the same spelling).
///
/// # Errors
/// [`Error::Invalid`] naming both paths.
pub fn refuse_same_file(input: &Path, out: &Path) -> Result<()> {
    if same_file(input, out) {
        return Err(Error::Invalid(format!(
            "{} is the input file {}: writing it would destroy the input; choose another output",
            out.display(),
            input.display()
        )));
    }
    Ok(())
}

/// The file `path` names, spelled absolutely: its folder resolved (symlinks followed) and its own
/// name kept, so a file that does not exist yet compares equal to every other spelling of it.
fn spelled(path: &Path) -> Option<PathBuf> {
    let dir = fs::canonicalize(parent_dir(path)).ok()?;
    Some(dir.join(path.file_name()?))
}

/// True when `a` and `b` are one file: the same file on disk (a hard link or a symlink to it), or the
/// same name however spelled (`./x`, `dir/../x`), existing or not.
pub fn names_same_file(a: &Path, b: &Path) -> bool {
    same_file(a, b) || matches!((spelled(a), spelled(b)), (Some(x), Some(y)) if x == y)
}

/// Every file a save of `path` writes: the file itself (a symlink's target) and, when it exists
/// already, the backup that keeps its previous contents.
pub fn files_written_by_save(path: &Path) -> Vec<PathBuf> {
    let target = fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf());
    let mut out = vec![path.to_path_buf()];
    if fs::metadata(&target).is_ok_and(|m| m.is_file()) {
        out.push(backup_path(&target));
    }
    out
}

/// Refuse a command whose writes would replace a file it reads. `reads` are its inputs;
/// `in_place` is the one input it edits in place and may therefore replace (a project saved over
/// itself); `writes` is every file it writes, sidecars included (each save's backup is added here).
///
/// # Errors
/// [`Error::Invalid`] naming the output and the input it would overwrite.
pub fn refuse_overwriting_inputs(
    reads: &[&Path],
    in_place: Option<&Path>,
    writes: &[PathBuf],
) -> Result<()> {
    for w in writes {
        for (k, file) in files_written_by_save(w).iter().enumerate() {
            for r in reads {
                let replaces_itself = k == 0 && in_place.is_some_and(|p| p == *r);
                if !replaces_itself && names_same_file(file, r) {
                    let what = if k == 0 {
                        format!("{}", file.display())
                    } else {
                        format!("{} (the backup of {})", file.display(), w.display())
                    };
                    return Err(Error::Invalid(format!(
                        "{what} is the input file {}: writing it would destroy the input; choose \
                         another output",
                        r.display()
                    )));
                }
            }
        }
    }
    Ok(())
}

/// True when both paths exist and name the same file.
pub fn same_file(a: &Path, b: &Path) -> bool {
    let (Ok(ma), Ok(mb)) = (fs::metadata(a), fs::metadata(b)) else {
        return false;
    };
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        ma.dev() == mb.dev() && ma.ino() == mb.ino()
    }
    #[cfg(not(unix))]
    {
        let _ = (ma, mb);
        matches!((fs::canonicalize(a), fs::canonicalize(b)), (Ok(x), Ok(y)) if x == y)
    }
}

/// Where a save of `path` really goes: `path` itself, or the file a symlink points to (the link is
/// written through and kept). Anything that is not a regular file is refused, so a device node, a FIFO
/// or a folder is never replaced.
fn resolve_target(path: &Path) -> Result<PathBuf> {
    let link = match fs::symlink_metadata(path) {
        Ok(m) => m,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(path.to_path_buf()),
        Err(e) => return Err(Error::io(path, e)),
    };
    let target = if link.file_type().is_symlink() {
        fs::canonicalize(path).map_err(|e| {
            Error::Invalid(format!(
                "is a symlink whose target cannot be resolved ({e}); refusing to replace the link"
            ))
            .in_file(path)
        })?
    } else {
        path.to_path_buf()
    };
    let meta = fs::metadata(&target).map_err(|e| Error::io(&target, e))?;
    if meta.is_dir() {
        return Err(
            Error::Invalid("is a folder: give a file name for the output".into()).in_file(path),
        );
    }
    if !meta.is_file() {
        return Err(Error::Invalid(
            "is not a regular file (a device, FIFO or socket): refusing to replace it".into(),
        )
        .in_file(path));
    }
    Ok(target)
}

/// Write `bytes` to `path` atomically, keeping any previous file as [`backup_path`].
///
/// # Errors
/// As [`AtomicFile::create`] and [`AtomicFile::commit`].
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<()> {
    let mut f = AtomicFile::create(path)?;
    f.write_all(bytes).map_err(|e| Error::io(&f.path, e))?;
    f.commit()
}

/// A file written through a temporary sibling and renamed into place by [`AtomicFile::commit`], for
/// output too large to build in memory. Dropped without commit, it removes the temporary file.
///
/// A symlink is written through (its target is replaced, the link kept); a device node, FIFO, socket
/// or folder is refused; an existing file's permissions are kept.
#[derive(Debug)]
pub struct AtomicFile {
    path: PathBuf,
    tmp: PathBuf,
    file: Option<BufWriter<File>>,
}

impl AtomicFile {
    /// Start writing `path`. Temporary files left by killed saves of the same name are removed.
    ///
    /// # Errors
    /// [`Error::InFile`] when `path` is a folder, a device, a FIFO or a socket (or a symlink to one, or a
    /// dangling one); [`Error::Io`] naming `path` when the temporary file cannot be created.
    pub fn create(path: &Path) -> Result<Self> {
        let path = resolve_target(path)?;
        remove_stale_temps(&path);
        let tmp = temp_path(&path, "tmp");
        let file = File::create(&tmp).map_err(|e| Error::io(&path, e))?;
        Ok(Self {
            path,
            tmp,
            file: Some(BufWriter::new(file)),
        })
    }

    /// The file this writes (a symlink's target when the name given was a symlink).
    pub fn target(&self) -> &Path {
        &self.path
    }

    /// Flush and fsync the new file, then keep the previous file as `NAME.bak` and rename into place.
    ///
    /// # Errors
    /// [`Error::Io`] naming the target; the previous file and its backup are untouched and the
    /// temporary removed.
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
        let path = self.path.clone();
        let file = buffered
            .into_inner()
            .map_err(|e| Error::io(&path, e.into_error()))?;
        let previous = fs::metadata(&path).ok().filter(fs::Metadata::is_file);
        if let Some(meta) = &previous {
            file.set_permissions(meta.permissions())
                .map_err(|e| Error::io(&path, e))?;
        }
        file.sync_all().map_err(|e| Error::io(&path, e))?;
        drop(file);
        // The new file is durable; only now is the backup generation rotated. The old NAME is linked
        // (or copied) to a temporary name and renamed over NAME.bak, so at every instant NAME.bak is a
        // complete backup (the previous one or the new one).
        if previous.is_some() {
            let bak = backup_path(&path);
            let bak_tmp = temp_path(&path, "baktmp");
            if fs::hard_link(&path, &bak_tmp).is_err() {
                fs::copy(&path, &bak_tmp).map_err(|e| {
                    let _ = fs::remove_file(&bak_tmp);
                    Error::io(&bak, e)
                })?;
            }
            fs::rename(&bak_tmp, &bak).map_err(|e| {
                let _ = fs::remove_file(&bak_tmp);
                Error::io(&bak, e)
            })?;
            // Renaming one hard link over another of the same file does nothing and leaves the
            // temporary name behind (a `.bak` that was a hard link to NAME).
            if bak_tmp.exists() {
                let _ = fs::remove_file(&bak_tmp);
            }
        }
        fs::rename(&self.tmp, &path).map_err(|e| Error::io(&path, e))?;
        sync_dir(&path);
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

fn parent_dir(path: &Path) -> &Path {
    match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    }
}

/// Best effort: persist the rename itself (not supported on every platform).
fn sync_dir(path: &Path) {
    if let Ok(d) = File::open(parent_dir(path)) {
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
        let e = write_atomic(&bad, b"x").expect_err("no folder");
        assert!(matches!(e, Error::Io { .. }));
        // The message names the target, not a temporary file.
        assert!(e.to_string().contains("x.strata:"), "{e}");
        assert!(!e.to_string().contains(".tmp"), "{e}");
        fs::remove_dir_all(&dir).expect("cleanup");
    }

    fn scratch(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("strata-atomic-{name}-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).expect("temp dir");
        dir
    }

    #[test]
    fn long_names_save_and_temps_are_distinct() {
        let dir = scratch("long");
        for len in [250, 255] {
            let p = dir.join("n".repeat(len - 7) + ".strata");
            write_atomic(&p, b"one").expect("long name saves");
            write_atomic(&p, b"two").expect("and saves again");
            assert_eq!(fs::read(&p).expect("read"), b"two");
        }
        let p = dir.join("same.obj");
        let a = AtomicFile::create(&p).expect("first");
        let b = AtomicFile::create(&p).expect("second");
        assert_ne!(
            a.tmp, b.tmp,
            "two writers of one name never share a temporary"
        );
        drop((a, b));
        fs::remove_dir_all(&dir).expect("cleanup");
    }

    #[test]
    fn stale_temporaries_of_the_name_are_removed() {
        let dir = scratch("stale");
        let p = dir.join("w.strata");
        // A temporary of a process that no longer exists (pids never reach 4e9 on Linux), and one of
        // another name, which must stay.
        let dead = dir.join(format!("{}4000000000-0.tmp", temp_prefix(&p)));
        let other = dir.join(format!(
            "{}4000000000-0.tmp",
            temp_prefix(&dir.join("other.strata"))
        ));
        fs::write(&dead, b"partial").expect("stale temp");
        fs::write(&other, b"partial").expect("other temp");
        write_atomic(&p, b"new").expect("save");
        if cfg!(target_os = "linux") {
            assert!(!dead.exists(), "the killed save's temporary is removed");
        }
        assert!(other.exists(), "another name's temporary is left alone");
        fs::remove_dir_all(&dir).expect("cleanup");
    }

    #[cfg(unix)]
    #[test]
    fn keeps_permissions_and_never_replaces_special_files() {
        use std::os::unix::fs::{FileTypeExt, PermissionsExt};
        let dir = scratch("special");
        let p = dir.join("secret.strata");
        write_atomic(&p, b"one").expect("save");
        fs::set_permissions(&p, fs::Permissions::from_mode(0o600)).expect("chmod");
        write_atomic(&p, b"two").expect("save again");
        let mode = fs::metadata(&p).expect("meta").permissions().mode() & 0o777;
        assert_eq!(mode, 0o600, "a 0600 file stays 0600");
        // A device node is refused and left as it is.
        let e = write_atomic(Path::new("/dev/null"), b"x").expect_err("device");
        assert!(e.to_string().contains("not a regular file"), "{e}");
        let null = fs::metadata("/dev/null").expect("meta");
        assert!(null.file_type().is_char_device());
        // A FIFO too.
        let fifo = dir.join("pipe");
        if std::process::Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .is_ok_and(|s| s.success())
        {
            assert!(write_atomic(&fifo, b"x").is_err());
            let t = fs::symlink_metadata(&fifo).expect("meta").file_type();
            assert!(t.is_fifo(), "the FIFO is still a FIFO");
        }
        // A folder is named as a folder.
        let e = write_atomic(&dir, b"x").expect_err("folder").to_string();
        assert!(e.contains("is a folder"), "{e}");
        // A symlink is written through: the target changes, the link stays a link.
        let link = dir.join("link.strata");
        std::os::unix::fs::symlink(&p, &link).expect("symlink");
        write_atomic(&link, b"three").expect("through the link");
        assert!(fs::symlink_metadata(&link)
            .expect("meta")
            .file_type()
            .is_symlink());
        assert_eq!(fs::read(&p).expect("read"), b"three");
        assert_eq!(fs::read(backup_path(&p)).expect("bak"), b"two");
        // Output = input by identity (a hard link under another name).
        let hard = dir.join("hard.strata");
        fs::hard_link(&p, &hard).expect("hard link");
        assert!(refuse_same_file(&p, &hard).is_err());
        assert!(refuse_same_file(&p, &link).is_err());
        assert!(refuse_same_file(&p, &dir.join("new.strata")).is_ok());
        fs::remove_dir_all(&dir).expect("cleanup");
    }

    #[cfg(unix)]
    #[test]
    fn writes_never_replace_an_input_however_it_is_named() {
        let dir = scratch("inputs");
        let input = dir.join("q.mtl");
        write_atomic(&input, b"project").expect("input");
        let hard = dir.join("hard.strata");
        fs::hard_link(&input, &hard).expect("hard link");
        let soft = dir.join("soft.strata");
        std::os::unix::fs::symlink(&input, &soft).expect("symlink");
        let other = dir.join("other.obj");
        let dotted = dir.join("sub").join("..").join("q.mtl");
        fs::create_dir_all(dir.join("sub")).expect("sub");
        let r = [input.as_path()];
        for bad in [&input, &hard, &soft, &dotted] {
            let e = refuse_overwriting_inputs(&r, None, std::slice::from_ref(bad))
                .expect_err("refused");
            assert!(e.to_string().contains("is the input file"), "{e}");
        }
        // An OBJ whose sidecar is the input.
        let mtl = dir.join("q.obj").with_extension("mtl");
        assert!(refuse_overwriting_inputs(&r, None, &[dir.join("q.obj"), mtl]).is_err());
        // The project edited in place may replace itself, but not another input.
        assert!(refuse_overwriting_inputs(&r, Some(&input), std::slice::from_ref(&input)).is_ok());
        let stamp = dir.join("stamp.strata");
        write_atomic(&stamp, b"stamp").expect("stamp");
        let both = [input.as_path(), stamp.as_path()];
        assert!(
            refuse_overwriting_inputs(&both, Some(&input), std::slice::from_ref(&stamp)).is_err()
        );
        // A save's backup counts: writing w.strata over an existing one keeps w.strata.bak.
        let w = dir.join("w.strata");
        write_atomic(&w, b"old").expect("w");
        let bak = backup_path(&w);
        write_atomic(&bak, b"an input named like the backup").expect("bak");
        let e = refuse_overwriting_inputs(&[bak.as_path()], None, std::slice::from_ref(&w))
            .expect_err("bak");
        assert!(e.to_string().contains("the backup of"), "{e}");
        assert!(refuse_overwriting_inputs(&r, None, &[other]).is_ok());
        fs::remove_dir_all(&dir).expect("cleanup");
    }

    #[cfg(unix)]
    #[test]
    fn a_backup_hard_linked_to_its_file_leaves_no_temporary() {
        let dir = scratch("hardbak");
        let p = dir.join("w.strata");
        write_atomic(&p, b"one").expect("save");
        fs::hard_link(&p, backup_path(&p)).expect("bak as a hard link");
        write_atomic(&p, b"two").expect("save again");
        assert_eq!(fs::read(&p).expect("read"), b"two");
        assert_eq!(fs::read(backup_path(&p)).expect("bak"), b"one");
        let names: Vec<String> = fs::read_dir(&dir)
            .expect("list")
            .flatten()
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .collect();
        assert_eq!(names.len(), 2, "{names:?}");
        fs::remove_dir_all(&dir).expect("cleanup");
    }
}
