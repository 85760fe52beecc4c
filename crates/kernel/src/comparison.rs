//! Rubenstein et al.'s delay comparison test: it lives in pathpool-sbd, where the simulator's
//! sender check (docs/security.md) runs it too.

pub use pathpool_sbd::comparison::*;
