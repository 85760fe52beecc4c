//! [S3] Jowkarishasaltaneh and But, Telecom 2022: why coupled congestion control fails on
//! disjoint paths. §7.4's window-growth simulation and §7.5's testbed (Tables 2-5) on the
//! packet simulator, with MPTCP-SBD beside the coupled controllers.

mod growth;
mod testbed;
mod verdict;

use crate::job::{Job, Results};
use crate::{Options, Paper, PaperOut};

pub struct Jowkar2022;

impl Paper for Jowkar2022 {
    fn name(&self) -> &'static str {
        "jowkar2022"
    }

    fn title(&self) -> &'static str {
        "[S3] Jowkarishasaltaneh, But: An analysis of MPTCP congestion control (Telecom 2022)"
    }

    fn plan(&self, opts: &Options) -> Result<Vec<Job>, String> {
        let mut jobs = growth::jobs();
        jobs.extend(testbed::jobs(opts)?);
        Ok(jobs)
    }

    fn report(&self, opts: &Options, results: &Results, out: &mut PaperOut) -> Result<(), String> {
        growth::report(results, out)?;
        testbed::report(opts, results, out)
    }
}
