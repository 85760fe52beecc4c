//! The papers pathpool reproduces; `docs/reproduce.md` says what each covers.

use crate::Paper;

mod ferlin2016;
mod jowkar2022;
mod zhang2019;
mod zongor2019;
mod raiciu2009;
pub mod seeds;

/// Every paper, in the order of the report.
pub fn all() -> Vec<&'static dyn Paper> {
    vec![&ferlin2016::Ferlin2016, &raiciu2009::Raiciu2009, &zhang2019::Zhang2019, &jowkar2022::Jowkar2022, &zongor2019::Zongor2019]
}

pub fn by_name(name: &str) -> Option<&'static dyn Paper> {
    all().into_iter().find(|p| p.name() == name)
}

pub fn names() -> Vec<&'static str> {
    all().iter().map(|p| p.name()).collect()
}
