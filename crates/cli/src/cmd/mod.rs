//! One module per subcommand.

pub mod cwndsim;
mod window_flags;
pub mod windowsim;
