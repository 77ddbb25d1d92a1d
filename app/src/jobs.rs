//! Long operations off the UI thread: generate, open, save, import, export, autosave. Each runs on its
//! own thread with a shared [`Progress`] the UI draws as a bar and can cancel; the result comes back
//! through a channel the UI polls once per frame, so the editor never freezes.

use std::path::PathBuf;
use std::sync::mpsc::{channel, Receiver, TryRecvError};
use std::sync::Arc;
use std::time::Instant;

use strata_engine::format::project::Project;
use strata_engine::progress::Progress;

use crate::{AppError, AppResult};

/// What a finished job hands back.
pub enum JobOutput {
    /// A project to open; `path` is `None` for a new (generated or imported) world.
    Opened {
        /// The project.
        project: Box<Project>,
        /// Where it came from.
        path: Option<PathBuf>,
    },
    /// The document revision `revision` was written to `path`.
    Saved {
        /// The file.
        path: PathBuf,
        /// The document revision that was saved.
        revision: u64,
    },
    /// An autosave finished.
    Autosaved {
        /// The revision that was autosaved.
        revision: u64,
    },
    /// Something was written that does not change the document (an export).
    Wrote {
        /// What to tell the user.
        message: String,
    },
}

/// One running job.
pub struct Job {
    label: String,
    progress: Arc<Progress>,
    rx: Receiver<AppResult<JobOutput>>,
    started: Instant,
    /// A background job (autosave) shows no modal progress.
    pub quiet: bool,
}

impl Job {
    /// Run `work` on a new thread.
    pub fn spawn(
        label: impl Into<String>,
        work: impl FnOnce(&Progress) -> AppResult<JobOutput> + Send + 'static,
    ) -> Self {
        let progress = Arc::new(Progress::new());
        let (tx, rx) = channel();
        let p = progress.clone();
        std::thread::spawn(move || {
            // The receiver may be gone if the editor closed; nothing to report then.
            let _ = tx.send(work(&p));
        });
        Self {
            label: label.into(),
            progress,
            rx,
            started: Instant::now(),
            quiet: false,
        }
    }

    /// What the job does, for the progress dialog.
    pub fn label(&self) -> &str {
        &self.label
    }

    /// Fraction done, 0 to 1.
    pub fn fraction(&self) -> f32 {
        self.progress.fraction()
    }

    /// Seconds since the job started.
    pub fn elapsed_secs(&self) -> f32 {
        self.started.elapsed().as_secs_f32()
    }

    /// Ask the job to stop; it reports [`strata_engine::Error::Cancelled`] soon after.
    pub fn cancel(&self) {
        self.progress.cancel();
    }

    /// The result, once the job has finished.
    pub fn poll(&self) -> Option<AppResult<JobOutput>> {
        match self.rx.try_recv() {
            Ok(r) => Some(r),
            Err(TryRecvError::Empty) => None,
            Err(TryRecvError::Disconnected) => Some(Err(AppError::Usage(format!(
                "{} stopped unexpectedly",
                self.label
            )))),
        }
    }

    /// Block until the job finishes (tests and shutdown).
    pub fn wait(self) -> AppResult<JobOutput> {
        self.rx.recv().unwrap_or_else(|_| {
            Err(AppError::Usage(format!(
                "{} stopped unexpectedly",
                self.label
            )))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_job_reports_its_result_and_can_be_cancelled() {
        let job = Job::spawn("count", |p| {
            p.start(10);
            for _ in 0..10 {
                p.advance(1);
            }
            Ok(JobOutput::Wrote {
                message: "done".into(),
            })
        });
        match job.wait() {
            Ok(JobOutput::Wrote { message }) => assert_eq!(message, "done"),
            _ => panic!("expected the job's message"),
        }
        let job = Job::spawn("spin", |p| loop {
            p.check()?;
            std::thread::yield_now();
        });
        job.cancel();
        assert!(job.wait().is_err());
    }
}
