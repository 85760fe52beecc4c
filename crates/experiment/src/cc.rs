//! Congestion-control names in scenario files.

use crate::error::{Result, Source};
use crate::fields::Located;
use crate::suggest::did_you_mean;
use pathpool_cc::Algorithm;

pub fn parse(cc: &Located<String>, src: &Source) -> Result<Algorithm> {
    cc.value.parse::<Algorithm>().map_err(|_| {
        let names: Vec<&str> = Algorithm::names().collect();
        let hint = did_you_mean(&cc.value, names.iter().copied());
        cc.error(src, format!("unknown congestion control \"{}\"{hint}; expected one of: {}", cc.value, names.join(", ")))
    })
}
