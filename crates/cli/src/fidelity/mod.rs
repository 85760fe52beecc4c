//! The fidelity suite: each case of `scenarios/fidelity/` compared on the simulator (several
//! seeds) and real Linux (several repeats) as `pathpool compare` compares any scenario
//! (crate::comparison), one quantity per case read from its file's `[fidelity]` table. Here:
//! the suite's cases and its table (report.md, and the block of docs/fidelity.md).

pub mod cases;
pub mod report;

pub use report::{doc_block, figure, report_markdown, Row};
