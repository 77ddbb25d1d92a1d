//! `strata`: the editor and its command line in one binary. Subcommands run headless for batch work
//! and scripting; with none, the editor opens on the built-in default world.

use std::io::Write;
use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    keep_running_past_the_file_size_limit();
    let cli = strata::cli::Cli::parse();
    match strata::cli::run(cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            // stderr itself may be broken (`2>/dev/full`): the exit code still says it failed.
            let _ = writeln!(std::io::stderr(), "error: {e}");
            ExitCode::FAILURE
        }
    }
}

/// A write past the file-size limit (`ulimit -f`) raises SIGXFSZ, which kills the process without a
/// word. With a handler installed the write fails instead (EFBIG), the save is abandoned with the
/// previous file intact, and the error says which limit was hit.
fn keep_running_past_the_file_size_limit() {
    #[cfg(unix)]
    {
        let seen = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
        // Without the handler the default (terminate) stays: nothing else to do.
        let _ = signal_hook::flag::register(signal_hook::consts::SIGXFSZ, seen);
    }
}
