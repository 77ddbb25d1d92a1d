//! Advisory locks on project files, so two programs editing one project in place take turns instead
//! of each saving over the other's change (a lost update).
//!
//! ```text
//!   writer A: lock(w.strata) ── load ── edit ── save (temp + rename) ── unlock
//!   writer B:        lock(w.strata) … waits … ─────────────────────────┴─> locked: load A's result
//! ```
//!
//! A save replaces the file by renaming a new one over it, so a lock taken on the old file no longer
//! guards the name. Whoever gets the lock therefore checks that the name still leads to the file it
//! locked, and locks again if a save replaced it meanwhile. The locks are the operating system's
//! advisory file locks (`flock` on Unix): released when the process ends, however it ends.

use std::fs::{File, TryLockError};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use crate::{Error, Result};

/// How often a waiting writer tries again.
const POLL: Duration = Duration::from_millis(25);

/// An exclusive advisory lock on a project file, held until dropped.
#[derive(Debug)]
pub struct ProjectLock {
    path: PathBuf,
    file: File,
}

/// What one attempt at the lock found.
#[derive(Debug)]
enum Attempt {
    Locked(ProjectLock),
    /// Another program holds it.
    Busy,
    /// Locked, but a save has put a new file under the name since it was opened.
    Replaced,
}

/// How long [`ProjectLock::acquire`] waits while another program holds the lock.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LockWait {
    /// Give up at once.
    Never,
    /// Try again until this much time has passed.
    Up(Duration),
}

impl ProjectLock {
    /// Lock `path` (which must exist), waiting as `wait` says while another program holds it.
    ///
    /// # Errors
    /// [`Error::Io`] when the file cannot be opened or locked; [`Error::Invalid`] saying another
    /// program holds the lock when `wait` runs out.
    pub fn acquire(path: &Path, wait: LockWait) -> Result<Self> {
        let started = Instant::now();
        loop {
            let file = File::open(path).map_err(|e| Error::io(path, e))?;
            match Self::try_opened(file, path)? {
                Attempt::Locked(lock) => return Ok(lock),
                // A save replaced the file while we waited: lock the new one.
                Attempt::Replaced => continue,
                Attempt::Busy => {}
            }
            let out_of_time = match wait {
                LockWait::Never => true,
                LockWait::Up(d) => started.elapsed() >= d,
            };
            if out_of_time {
                return Err(Error::Invalid(format!(
                    "{} is being edited by another program (it holds the file's lock); close it \
                     there, or write to another file",
                    path.display()
                )));
            }
            std::thread::sleep(POLL);
        }
    }

    /// One attempt on `file`, opened from `path` earlier.
    fn try_opened(file: File, path: &Path) -> Result<Attempt> {
        match file.try_lock() {
            Ok(()) if still_named(&file, path) => Ok(Attempt::Locked(Self {
                path: path.to_path_buf(),
                file,
            })),
            Ok(()) => Ok(Attempt::Replaced),
            Err(TryLockError::WouldBlock) => Ok(Attempt::Busy),
            Err(TryLockError::Error(e)) => Err(Error::io(path, e)),
        }
    }

    /// The file locked.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Lock the file the name leads to now (after this process saved over it: the save put a new
    /// file under the name, and the lock still guards the old one).
    ///
    /// # Errors
    /// As [`ProjectLock::acquire`] without waiting; the old lock is kept then.
    pub fn renew(&mut self) -> Result<()> {
        if still_named(&self.file, &self.path) {
            return Ok(());
        }
        let new = Self::acquire(&self.path, LockWait::Never)?;
        *self = new;
        Ok(())
    }
}

/// True when `path` still names the file `file` has open.
fn still_named(file: &File, path: &Path) -> bool {
    let (Ok(a), Ok(b)) = (file.metadata(), std::fs::metadata(path)) else {
        return false;
    };
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        a.dev() == b.dev() && a.ino() == b.ino()
    }
    #[cfg(not(unix))]
    {
        a.len() == b.len() && a.modified().ok() == b.modified().ok()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::write_atomic;

    fn scratch(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("strata-lock-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("dir");
        dir
    }

    #[test]
    fn a_second_writer_waits_or_is_told_who_holds_the_file() {
        let dir = scratch("wait");
        let p = dir.join("w.strata");
        write_atomic(&p, b"0").expect("file");
        let held = ProjectLock::acquire(&p, LockWait::Never).expect("first");
        let e = ProjectLock::acquire(&p, LockWait::Never).expect_err("held");
        assert!(e.to_string().contains("another program"), "{e}");
        let started = Instant::now();
        let e =
            ProjectLock::acquire(&p, LockWait::Up(Duration::from_millis(120))).expect_err("held");
        assert!(started.elapsed() >= Duration::from_millis(120), "{e}");
        drop(held);
        ProjectLock::acquire(&p, LockWait::Never).expect("free again");
        assert!(ProjectLock::acquire(&dir.join("missing"), LockWait::Never).is_err());
        std::fs::remove_dir_all(&dir).expect("cleanup");
    }

    /// Eight threads each add one to a counter file in place: with the lock none is lost, even
    /// though every save renames a new file over the name.
    #[test]
    fn read_modify_write_under_the_lock_loses_no_update() {
        let dir = scratch("counter");
        let p = dir.join("n.strata");
        write_atomic(&p, b"0").expect("file");
        std::thread::scope(|s| {
            for _ in 0..8 {
                s.spawn(|| {
                    for _ in 0..5 {
                        let _lock = ProjectLock::acquire(&p, LockWait::Up(Duration::from_secs(30)))
                            .expect("lock");
                        let n: u32 = std::fs::read_to_string(&p)
                            .expect("read")
                            .parse()
                            .expect("number");
                        std::thread::sleep(Duration::from_millis(2));
                        write_atomic(&p, (n + 1).to_string().as_bytes()).expect("save");
                    }
                });
            }
        });
        assert_eq!(std::fs::read_to_string(&p).expect("read"), "40");
        std::fs::remove_dir_all(&dir).expect("cleanup");
    }

    /// The race a lock on a renamed-over file would lose: a writer that opened the file before
    /// another's save gets the old file's lock once that save is done, while a newcomer locks the
    /// new file. The attempt sees the name moved on and reports it, so only one of them proceeds.
    #[test]
    fn a_lock_on_a_file_a_save_replaced_is_not_taken() {
        let dir = scratch("replaced");
        let p = dir.join("w.strata");
        write_atomic(&p, b"one").expect("file");
        let holder = ProjectLock::acquire(&p, LockWait::Never).expect("lock");
        let waiter = File::open(&p).expect("opened before the save");
        write_atomic(&p, b"two").expect("the holder saves");
        drop(holder);
        let newcomer = ProjectLock::acquire(&p, LockWait::Never).expect("the new file");
        assert!(matches!(
            ProjectLock::try_opened(waiter, &p).expect("attempt"),
            Attempt::Replaced
        ));
        drop(newcomer);
        std::fs::remove_dir_all(&dir).expect("cleanup");
    }

    #[test]
    fn renew_follows_a_save_over_the_name() {
        let dir = scratch("renew");
        let p = dir.join("w.strata");
        write_atomic(&p, b"one").expect("file");
        let mut lock = ProjectLock::acquire(&p, LockWait::Never).expect("lock");
        write_atomic(&p, b"two").expect("save");
        // The name now leads to a new, unlocked file.
        let other = ProjectLock::acquire(&p, LockWait::Never).expect("new file is free");
        drop(other);
        lock.renew().expect("renew");
        assert!(
            ProjectLock::acquire(&p, LockWait::Never).is_err(),
            "held again"
        );
        assert_eq!(lock.path(), p.as_path());
        std::fs::remove_dir_all(&dir).expect("cleanup");
    }
}
