//! Terminal progress bars for long jobs: a worker thread runs the job while the calling thread draws
//! an indicatif bar from the shared [`Progress`] counters (hidden when stderr is not a terminal).

use std::time::Duration;

use indicatif::{ProgressBar, ProgressStyle};
use strata_engine::progress::Progress;

/// Run `job` on a worker thread, showing `label` and its progress until it returns.
pub fn with_bar<T: Send>(label: &str, job: impl FnOnce(&Progress) -> T + Send) -> T {
    let progress = Progress::new();
    let bar = ProgressBar::new(0);
    bar.set_style(
        ProgressStyle::with_template(
            "{msg:12} [{bar:40}] {percent:>3}% {elapsed_precise} eta {eta}",
        )
        .unwrap_or_else(|_| ProgressStyle::default_bar())
        .progress_chars("=> "),
    );
    bar.set_message(label.to_owned());
    let result = std::thread::scope(|s| {
        let worker = s.spawn(|| job(&progress));
        while !worker.is_finished() {
            let (done, total) = progress.counts();
            bar.set_length(total.max(1));
            bar.set_position(done);
            std::thread::sleep(Duration::from_millis(50));
        }
        worker.join()
    });
    bar.finish_and_clear();
    match result {
        Ok(v) => v,
        Err(panic) => std::panic::resume_unwind(panic),
    }
}
