//! Congestion-control names in scenario files.

use crate::error::{Result, Source};
use crate::fields::Located;
use crate::suggest::did_you_mean;

pub const NAMES: &[&str] = &[
    "reno",
    "cubic",
    "uncoupled",
    "uncoupled-cubic",
    "fully-coupled",
    "linked-increases",
    "lia",
    "olia",
    "balia",
    "wvegas",
];

pub fn check(cc: &Located<String>, src: &Source) -> Result<()> {
    if NAMES.contains(&cc.value.as_str()) {
        return Ok(());
    }
    let hint = did_you_mean(&cc.value, NAMES.iter().copied());
    Err(cc.error(src, format!("unknown congestion control \"{}\"{hint}; expected one of: {}", cc.value, NAMES.join(", "))))
}
