//! See the crate description in Cargo.toml; filled in by its issue.
