//! `strata`: the editor and its command line in one binary. Subcommands run headless for batch work
//! and scripting; with none, the editor opens on the built-in default world (until the editor lands,
//! the help text is printed).

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
