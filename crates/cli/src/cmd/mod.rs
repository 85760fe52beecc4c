//! One module per subcommand.

pub mod bench;
pub mod detect;
mod trace_csv;
pub mod tracegen;
