//! `strata`: the editor and its command line in one binary. With no subcommand the editor opens on
//! the built-in default world; subcommands run headless for batch work and scripting.

use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    let cli = strata::cli::Cli::parse();
    match strata::cli::run(cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}
