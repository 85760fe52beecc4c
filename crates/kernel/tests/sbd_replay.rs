//! The SBD daemon's grouping replayed on samples files the daemon recorded on the testbed
//! (`samples.csv` beside each MPTCP-SBD run's `sbd.log`), one line per file and a total; the
//! table of docs/kernel.md, "The SBD daemon" (PATHPOOL_WRITE_DOCS=1 writes it there).
//! Ignored by default; the files are named in PATHPOOL_SBD_SAMPLES (separated by spaces):
//!
//!     PATHPOOL_SBD_SAMPLES="$(ls $PWD/out/realfair/fixed/sbd-*/real/repeat-*/samples.csv)" \
//!         cargo test --release -p pathpool-kernel --test sbd_replay -- --ignored --nocapture

mod replay;

use replay::{counts, replay, write_doc_table};

#[test]
#[ignore]
fn replay_recorded_samples() {
    let files = std::env::var("PATHPOOL_SBD_SAMPLES").expect("PATHPOOL_SBD_SAMPLES: the samples.csv files to replay, separated by spaces");
    let mut table = String::from("| samples | together | apart | some in group 0 | not yet | outcomes in order |\n|---|---|---|---|---|---|\n");
    for f in files.split_whitespace() {
        let o = replay(std::path::Path::new(f));
        let (t, a, z, n) = counts(&o);
        // The run's case and repeat, without the folder it was kept in.
        let name: Vec<&str> = f.rsplit('/').skip(1).take(3).collect();
        table += &format!("| {} {} | {t} | {a} | {z} | {n} | `{o}` |\n", name.get(2).unwrap_or(&"?"), name.first().unwrap_or(&"?"));
    }
    print!("{table}");
    write_doc_table("sbd-replay", &table);
}
