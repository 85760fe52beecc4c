//! A property of output folders over random sequences of runs: after every step the folder
//! holds exactly the files of the last run that finished (summary.json only if that run
//! wrote one), whatever runs failed in between; a file a user added is never removed, and
//! every run refuses the folder while it is there. `make fuzz` runs many more sequences
//! (PATHPOOL_FUZZ_CASES).

use pathpool_reproduce::out_folder::OutFolder;
use pathpool_reproduce::out_lock::Wait;
use proptest::prelude::*;
use std::collections::BTreeSet;
use std::path::Path;

const NAMES: [&str; 5] = ["summary.json", "flows.csv", "links.csv", "capture/a.pcap", "capture/b.pcap"];

#[derive(Clone, Debug)]
enum Step {
    /// A run writing the files of the mask, finishing or failing.
    Run { mask: u8, finishes: bool },
    /// A user puts a file into the folder, or takes it out again.
    UserFile(bool),
}

fn step() -> impl Strategy<Value = Step> {
    prop_oneof![
        4 => (0u8..32, any::<bool>()).prop_map(|(mask, finishes)| Step::Run { mask, finishes }),
        1 => any::<bool>().prop_map(Step::UserFile),
    ]
}

fn cases() -> u32 {
    std::env::var("PATHPOOL_FUZZ_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(24)
}

/// Top-level entries a user sees.
fn listing(dir: &Path) -> BTreeSet<String> {
    match std::fs::read_dir(dir) {
        Ok(d) => d.flatten().map(|e| e.file_name().to_string_lossy().into_owned()).filter(|n| !n.starts_with(".pathpool")).collect(),
        Err(_) => BTreeSet::new(),
    }
}

fn top(mask: u8) -> BTreeSet<String> {
    NAMES.iter().enumerate().filter(|(i, _)| mask & (1 << i) != 0).map(|(_, n)| n.split('/').next().unwrap().to_string()).collect()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: cases(), failure_persistence: None, ..ProptestConfig::default() })]
    #[test]
    fn the_folder_holds_the_last_finished_run(steps in prop::collection::vec(step(), 1..12)) {
        let dir = std::env::temp_dir().join(format!("pathpool-out-props-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let mut finished: Option<u8> = None;
        let mut user = false;
        for s in &steps {
            match *s {
                Step::UserFile(add) => {
                    if add && dir.exists() {
                        std::fs::write(dir.join("mine.txt"), "user").unwrap();
                        user = true;
                    } else if !add && user {
                        std::fs::remove_file(dir.join("mine.txt")).unwrap();
                        user = false;
                    }
                }
                Step::Run { mask, finishes } => {
                    let opened = OutFolder::open("--out", &dir, Wait::Refuse, &[]);
                    if user {
                        prop_assert!(opened.as_ref().err().is_some_and(|e| e.contains("mine.txt")), "a folder with a user's file must be refused");
                        continue;
                    }
                    let out = opened.map_err(|e| TestCaseError::fail(e))?;
                    for (i, name) in NAMES.iter().enumerate() {
                        if mask & (1 << i) != 0 {
                            let p = out.path().join(name);
                            std::fs::create_dir_all(p.parent().unwrap()).unwrap();
                            std::fs::write(p, format!("{mask}")).unwrap();
                        }
                    }
                    if finishes {
                        out.finish().map_err(|e| TestCaseError::fail(e))?;
                        finished = Some(mask);
                    }
                }
            }
            let mut expected = finished.map(top).unwrap_or_default();
            if user {
                expected.insert("mine.txt".to_string());
            }
            prop_assert_eq!(listing(&dir), expected.clone(), "after {:?}", s);
            if let Some(mask) = finished {
                if mask & 1 != 0 {
                    prop_assert_eq!(std::fs::read_to_string(dir.join("summary.json")).unwrap(), format!("{mask}"));
                }
            }
        }
        let _ = std::fs::remove_dir_all(&dir);
    }
}
