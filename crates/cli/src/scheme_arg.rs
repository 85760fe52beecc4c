//! `--cc NAME`: a multipath scheme, offered in `--help` from the scheme table
//! (`pathpool_cc::Scheme`) with what each one is, so that the help names every scheme the
//! command's backend runs and no list of names is kept here. The value is checked where it is
//! used (the scenario's or the QUIC controller's parser), which names the valid ones.

use clap::builder::{PossibleValue, TypedValueParser};
use pathpool_cc::{Backend, Scheme};

#[derive(Clone, Copy)]
pub struct SchemeArg(pub Backend);

impl TypedValueParser for SchemeArg {
    type Value = String;

    fn parse_ref(&self, _: &clap::Command, _: Option<&clap::Arg>, value: &std::ffi::OsStr) -> Result<String, clap::Error> {
        Ok(value.to_string_lossy().into_owned())
    }

    fn possible_values(&self) -> Option<Box<dyn Iterator<Item = PossibleValue> + '_>> {
        Some(Box::new(Scheme::on(self.0).map(|s| PossibleValue::new(s.name()).help(s.about()))))
    }
}
