//! `strata`: the editor and its command line in one binary. Subcommands run headless for batch work
//! and scripting; with none, the editor opens on the built-in default world.

use std::io::Write;
use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
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
