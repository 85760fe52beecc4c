//! `pathpool reproduce <paper>|all [--quick] [--seed-offset N] [--jobs N] --out DIR`: the source papers'
//! experiments beside the published numbers (report.md, figures, CSVs, summary.json).

use crate::error::CliError;
use clap::Args;
use pathpool_reproduce::{papers, reproduce, Failure, Options, Paper, ScenarioFiles};
use std::io::Write as _;
use std::path::PathBuf;

#[derive(Args)]
pub struct ReproduceArgs {
    /// A paper, or `all`: ferlin2016 ([S0] MPTCP-SBD), raiciu2009 ([S1] coupled controllers),
    /// zhang2019 ([S2] trend-line SBD), jowkar2022 ([S3] LIA/OLIA/BALIA windows), zongor2019
    /// ([S4] overlapping paths).
    pub paper: String,
    /// Fewer seeds and shorter runs (a few minutes per paper).
    #[arg(long)]
    pub quick: bool,
    /// Run seeds N+1, N+2, ... instead of 1, 2, ...: the same experiments with other seeds,
    /// to see how far the headline numbers spread over seeds.
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub seed_offset: u64,
    /// Simulations run in parallel [default: the number of cores].
    #[arg(long, value_name = "N")]
    pub jobs: Option<String>,
    /// Output folder: report.md, summary.json, one folder of figures and CSVs per paper, and
    /// runs/ (each finished simulation; running again with the same folder resumes).
    #[arg(long, value_name = "DIR")]
    pub out: PathBuf,
    /// A folder with one folder of scenario files per paper, read instead of the files built
    /// into pathpool (the repository's scenarios/papers when it was built).
    #[arg(long, value_name = "DIR")]
    pub scenarios: Option<PathBuf>,
}

pub fn run(args: ReproduceArgs) -> Result<(), CliError> {
    let chosen: Vec<&'static dyn Paper> = match args.paper.as_str() {
        "all" => papers::all(),
        name => vec![papers::by_name(name).ok_or_else(|| {
            CliError::usage(format!("<paper>: expected one of {} or all, got '{name}'", papers::names().join(", ")))
        })?],
    };
    let jobs = match &args.jobs {
        None => std::thread::available_parallelism().map_or(1, |n| n.get()),
        Some(s) => s.parse::<usize>().ok().filter(|&n| n >= 1).ok_or_else(|| CliError::usage(format!("--jobs: expected a whole number >= 1, got '{s}'")))?,
    };
    let scenarios = match &args.scenarios {
        None => ScenarioFiles::BuiltIn,
        Some(dir) if dir.is_dir() => ScenarioFiles::Folder(dir.clone()),
        Some(dir) => {
            return Err(CliError::usage(format!(
                "--scenarios: '{}' is not a folder; expected a folder with one folder of scenario files per paper (like the sources' scenarios/papers), or leave --scenarios out to use the built-in files",
                dir.display()
            )))
        }
    };
    let largest = u64::MAX - pathpool_reproduce::MAX_SEEDS;
    if args.seed_offset > largest {
        return Err(CliError::usage(format!("--seed-offset: expected at most {largest}, got {} (the seeds after it must fit in 64 bits, not wrap around to 0)", args.seed_offset)));
    }
    let opts = Options { quick: args.quick, scenarios, seed_offset: args.seed_offset };
    let offset = if args.seed_offset > 0 { format!(" --seed-offset {}", args.seed_offset) } else { String::new() };
    let command = format!("pathpool reproduce {}{}{offset}", args.paper, if args.quick { " --quick" } else { "" });
    let done = reproduce(&chosen, &opts, &args.out, jobs, &command).map_err(|f| match f {
        Failure::Input(m) => CliError::usage(m),
        Failure::Run(m) => CliError::runtime(m),
    })?;
    let mut o = std::io::stdout().lock();
    let _ = writeln!(o, "{} runs ({} reused from an earlier run{})", done.counts.run + done.counts.reused, done.counts.reused, pathpool_reproduce::mismatch_note(done.counts.mismatched));
    let _ = writeln!(o, "report:  {}", done.report.display());
    let _ = writeln!(o, "summary: {}", done.summary.display());
    Ok(())
}
