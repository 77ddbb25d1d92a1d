//! Long operations off the UI thread: generate, open, save, import, export, autosave, and the
//! panels' work (bakes, previews). Each job runs on its own thread with a shared [`Progress`] the UI
//! draws as a bar and can cancel; the result comes back through a channel the UI polls once per frame
//! and is applied on the UI thread, so the editor never freezes.
//!
//! ```text
//!   Job::spawn(label, kind, work) ──> JobRunner::start ──> thread: work(&progress) ─┐
//!   every frame: JobRunner::poll ──> (JobKind, owner, result) ──> EditorApp applies it ─┘
//! ```
//!
//! A [`JobKind::Document`] job replaces or writes the document (open, generate, import, recover):
//! at most one runs at a time, it shows a modal progress window with Cancel, and no other document
//! job starts until it ends. [`JobKind::Modal`] jobs (save, export) show the same window but only
//! read a copy. [`JobKind::Background`] jobs (autosave, bakes, previews) show no window and may run
//! beside the others; they work on copies and their results go to the panel that started them.

use std::sync::mpsc::{channel, Receiver, Sender, TryRecvError};
use std::sync::Arc;
use std::time::Instant;

use strata_engine::progress::Progress;

use super::job_output::JobOutput;
use crate::{AppError, AppResult};

/// How a job relates to the document and the UI.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum JobKind {
    /// Replaces or writes the document: modal, one at a time.
    Document,
    /// Reads a copy (save, export): modal progress, one at a time.
    Modal,
    /// Quiet, beside the others (autosave, bakes, previews).
    Background,
}

/// One running job.
pub struct Job {
    label: String,
    kind: JobKind,
    owner: Option<&'static str>,
    progress: Arc<Progress>,
    rx: Receiver<AppResult<JobOutput>>,
    started: Instant,
}

impl std::fmt::Debug for Job {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Job")
            .field("label", &self.label)
            .field("kind", &self.kind)
            .field("owner", &self.owner)
            .finish_non_exhaustive()
    }
}

impl Job {
    /// Run `work` on a new thread.
    pub fn spawn(
        label: impl Into<String>,
        kind: JobKind,
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
            kind,
            owner: None,
            progress,
            rx,
            started: Instant::now(),
        }
    }

    /// Route the result to the panel called `panel`.
    pub fn owned_by(mut self, panel: &'static str) -> Self {
        self.owner = Some(panel);
        self
    }

    /// What the job does, for the progress window.
    pub fn label(&self) -> &str {
        &self.label
    }

    /// How it relates to the document.
    pub fn kind(&self) -> JobKind {
        self.kind
    }

    /// The panel that receives the result, if any.
    pub fn owner(&self) -> Option<&'static str> {
        self.owner
    }

    /// The job's progress handle (a panel keeps it to draw its own bar and to cancel).
    pub fn progress(&self) -> Arc<Progress> {
        self.progress.clone()
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
            Err(TryRecvError::Disconnected) => Some(Err(self.stopped())),
        }
    }

    /// Block until the job finishes (tests and shutdown).
    pub fn wait(self) -> AppResult<JobOutput> {
        self.rx.recv().unwrap_or_else(|_| Err(self.stopped()))
    }

    fn stopped(&self) -> AppError {
        AppError::Usage(format!("{} stopped unexpectedly", self.label))
    }
}

/// Where the jobs of one panel (or of the editor itself) deliver their results: a typed channel, so
/// each receiver gets exactly the type its own jobs make. A job started with [`Inbox::spawn`]
/// sends its value here before it reports [`JobOutput::Delivered`]; the owner takes the value when
/// it hears the job finished.
pub struct Inbox<T> {
    tx: Sender<T>,
    rx: Receiver<T>,
}

impl<T> Default for Inbox<T> {
    fn default() -> Self {
        let (tx, rx) = channel();
        Self { tx, rx }
    }
}

impl<T: Send + 'static> Inbox<T> {
    /// Run `work` on a new thread as a job whose result lands in this inbox.
    pub fn spawn(
        &self,
        label: impl Into<String>,
        kind: JobKind,
        work: impl FnOnce(&Progress) -> AppResult<T> + Send + 'static,
    ) -> Job {
        let tx = self.tx.clone();
        Job::spawn(label, kind, move |progress| {
            let value = work(progress)?;
            // The inbox may be gone (its panel was reset); nothing to deliver then.
            let _ = tx.send(value);
            Ok(JobOutput::Delivered)
        })
    }

    /// The oldest result delivered and not yet taken.
    pub fn take(&self) -> Option<T> {
        self.rx.try_recv().ok()
    }
}

/// A finished job: who it was for and what it gave.
pub struct Finished {
    /// The job's label.
    pub label: String,
    /// Its kind.
    pub kind: JobKind,
    /// The panel that started it, if any.
    pub owner: Option<&'static str>,
    /// Its result.
    pub result: AppResult<JobOutput>,
    /// True when Cancel was pressed, even if the job finished anyway (a result that writes the
    /// document is then dropped).
    pub cancelled: bool,
}

/// Every running job: at most one modal (document, save or export) job and any background jobs.
#[derive(Default)]
pub struct JobRunner {
    modal: Option<Job>,
    background: Vec<Job>,
    held: bool,
}

impl JobRunner {
    /// Start `job`. A modal job is refused (and handed back) while another modal job runs.
    ///
    /// # Errors
    /// The job itself, when a modal job is already running.
    pub fn start(&mut self, job: Job) -> Result<(), Job> {
        match job.kind {
            JobKind::Background => self.background.push(job),
            JobKind::Document | JobKind::Modal if self.modal.is_some() => return Err(job),
            JobKind::Document | JobKind::Modal => self.modal = Some(job),
        }
        Ok(())
    }

    /// The modal job, if one runs (the progress window shows it).
    pub fn modal(&self) -> Option<&Job> {
        self.modal.as_ref()
    }

    /// True while a modal job runs: document edits and new modal jobs wait.
    pub fn busy(&self) -> bool {
        self.modal.is_some()
    }

    /// True while any job runs.
    pub fn any(&self) -> bool {
        self.modal.is_some() || !self.background.is_empty()
    }

    /// True while a background job of `owner` (or, with `None`, an unowned one) runs.
    pub fn running_for(&self, owner: Option<&'static str>) -> bool {
        self.background.iter().any(|j| j.owner == owner)
    }

    /// Cancel the modal job (it finishes with `Cancelled` soon after).
    pub fn cancel_modal(&self) {
        if let Some(job) = &self.modal {
            job.cancel();
        }
    }

    /// Cancel every background job of `owner`.
    pub fn cancel_owned(&self, owner: &'static str) {
        for job in self.background.iter().filter(|j| j.owner == Some(owner)) {
            job.cancel();
        }
    }

    /// While `held`, [`JobRunner::poll`] hands back nothing: jobs keep running and their results
    /// wait (tests step frames while a job still shows its progress).
    pub fn hold(&mut self, held: bool) {
        self.held = held;
    }

    /// Jobs that finished since the last call.
    pub fn poll(&mut self) -> Vec<Finished> {
        let mut done = Vec::new();
        if self.held {
            return done;
        }
        if let Some(result) = self.modal.as_ref().and_then(Job::poll) {
            if let Some(job) = self.modal.take() {
                done.push(finished(&job, result));
            }
        }
        let mut i = 0;
        while i < self.background.len() {
            match self.background[i].poll() {
                Some(result) => {
                    let job = self.background.remove(i);
                    done.push(finished(&job, result));
                }
                None => i += 1,
            }
        }
        done
    }

    /// Block until the modal job finishes (tests and shutdown).
    pub fn wait_modal(&mut self) -> Option<Finished> {
        let job = self.modal.take()?;
        let (label, kind, owner) = (job.label.clone(), job.kind, job.owner);
        let cancelled = job.progress.is_cancelled();
        Some(Finished {
            label,
            kind,
            owner,
            result: job.wait(),
            cancelled,
        })
    }

    /// Block until every background job of `owner` finishes (tests).
    pub fn wait_owned(&mut self, owner: Option<&'static str>) -> Vec<Finished> {
        let (mine, rest): (Vec<Job>, Vec<Job>) = std::mem::take(&mut self.background)
            .into_iter()
            .partition(|j| j.owner == owner);
        self.background = rest;
        mine.into_iter()
            .map(|job| {
                let (label, kind, owner) = (job.label.clone(), job.kind, job.owner);
                let cancelled = job.progress.is_cancelled();
                Finished {
                    label,
                    kind,
                    owner,
                    result: job.wait(),
                    cancelled,
                }
            })
            .collect()
    }
}

fn finished(job: &Job, result: AppResult<JobOutput>) -> Finished {
    Finished {
        label: job.label.clone(),
        kind: job.kind,
        owner: job.owner,
        result,
        cancelled: job.progress.is_cancelled(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn counting(kind: JobKind) -> Job {
        Job::spawn("count", kind, |p| {
            p.start(10);
            for _ in 0..10 {
                p.advance(1);
            }
            Ok(JobOutput::Wrote {
                message: "done".into(),
            })
        })
    }

    #[test]
    fn a_job_reports_its_result_and_can_be_cancelled() {
        match counting(JobKind::Modal).wait() {
            Ok(JobOutput::Wrote { message }) => assert_eq!(message, "done"),
            _ => panic!("expected the job's message"),
        }
        let job = Job::spawn("spin", JobKind::Modal, |p| loop {
            p.check()?;
            std::thread::yield_now();
        });
        job.cancel();
        assert!(job.wait().is_err());
    }

    #[test]
    fn one_modal_job_at_a_time_and_background_jobs_beside_it() {
        let mut runner = JobRunner::default();
        let spin = Job::spawn("spin", JobKind::Document, |p| loop {
            p.check()?;
            std::thread::yield_now();
        });
        assert!(runner.start(spin).is_ok());
        assert!(runner.busy());
        assert!(runner.start(counting(JobKind::Modal)).is_err());
        assert!(runner
            .start(counting(JobKind::Background).owned_by("Lighting"))
            .is_ok());
        let done = runner.wait_owned(Some("Lighting"));
        assert_eq!(done.len(), 1);
        assert_eq!(done[0].owner, Some("Lighting"));
        runner.cancel_modal();
        let finished = runner.wait_modal().expect("the modal job");
        assert!(matches!(
            finished.result,
            Err(AppError::Engine(strata_engine::Error::Cancelled))
        ));
        assert!(!runner.any());
    }
}
