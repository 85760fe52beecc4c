//! `pathpool`: the command-line front end. Each subcommand lives in `cmd/` and only parses,
//! validates and hands over to the library crates.

mod cmd;
#[allow(dead_code)]
mod error;
#[allow(dead_code)]
mod outdir;

use clap::{Parser, Subcommand};
use error::CliError;

#[derive(Parser)]
#[command(name = "pathpool", version, about = "Multipath congestion control that knows when paths share a bottleneck")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Run a scenario file and write its summary, time series and plots.
    Run(cmd::run::RunArgs),
}

fn run(command: Command) -> Result<(), CliError> {
    match command {
        Command::Run(args) => cmd::run::run(args),
    }
}

fn main() {
    let cli = Cli::parse();
    if let Err(e) = run(cli.command) {
        eprintln!("pathpool: {e}");
        std::process::exit(e.exit_code());
    }
}
