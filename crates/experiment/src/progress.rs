//! A progress bar in simulated seconds, drawn only when stderr is a terminal (so logs and
//! pipes stay quiet).

use indicatif::{ProgressBar, ProgressStyle};
use std::io::IsTerminal;

pub struct Progress {
    bar: Option<ProgressBar>,
}

impl Progress {
    /// `total_ps`: the simulated time the run will reach.
    pub fn new(total_ps: u64) -> Self {
        if !std::io::stderr().is_terminal() {
            return Progress { bar: None };
        }
        let bar = ProgressBar::new(total_ps / crate::units::PS_PER_SEC);
        if let Ok(style) = ProgressStyle::with_template("{bar:40} {pos}/{len} s simulated  {elapsed} elapsed, {eta} left") {
            bar.set_style(style);
        }
        Progress { bar: Some(bar) }
    }

    /// Silent, whatever stderr is.
    pub fn hidden() -> Self {
        Progress { bar: None }
    }

    pub fn update(&self, now_ps: u64) {
        if let Some(bar) = &self.bar {
            bar.set_position(now_ps / crate::units::PS_PER_SEC);
        }
    }

    pub fn finish(&self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}
