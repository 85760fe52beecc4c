//! Replays the SBD daemon's samples files (`flow,ack_time_us,rtt_us`, flow = `TOKEN.sfID`, as
//! `pathpool kernel sbd --samples` writes them) through its grouping, and counts the outcomes.
//! Each test file uses part of it.
#![allow(dead_code)]

use pathpool_kernel::grouping::{ConnGroups, Outcome};

fn parse(line: &str) -> Option<(u32, u32, u64, u32)> {
    let mut f = line.split(',');
    let (token, sf) = f.next()?.split_once(".sf")?;
    Some((u32::from_str_radix(token, 16).ok()?, sf.parse().ok()?, f.next()?.parse().ok()?, f.next()?.parse().ok()?))
}

/// A file's outcomes, in order: 'T' all subflows together, 'A' each apart, '0' some subflow
/// not bottlenecked, '.' a decision window without evidence ("not yet"); 'M' another grouping
/// of three or more subflows.
pub fn replay(path: &std::path::Path) -> String {
    replay_timed(path).iter().map(|o| o.1).collect()
}

/// The outcomes of [`replay`], each with the time (µs, the file's clock) of the sample that
/// completed it.
pub fn replay_timed(path: &std::path::Path) -> Vec<(u64, char)> {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut g = ConnGroups::default();
    let mut out = Vec::new();
    let mut timed = Vec::new();
    for (i, line) in text.lines().enumerate().skip(1) {
        let (token, sf, ack_us, rtt_us) = parse(line).unwrap_or_else(|| panic!("{}:{}: expected TOKEN.sfID,ack_time_us,rtt_us, got {line:?}", path.display(), i + 1));
        g.on_sample(token, sf, ack_us * 1000, rtt_us, &mut out);
        timed.extend(out.drain(..).map(|o| (ack_us, letter(&o))));
    }
    timed
}

fn letter(o: &Outcome) -> char {
    match o {
        Outcome::NotYet { .. } => '.',
        Outcome::Decision(d) => {
            let groups: Vec<u32> = d.groups.iter().map(|x| x.1).collect();
            if groups.contains(&0) {
                '0'
            } else if groups.iter().all(|&x| x == groups[0]) {
                'T'
            } else if (1..groups.len()).all(|i| !groups[..i].contains(&groups[i])) {
                'A'
            } else {
                'M'
            }
        }
    }
}

/// (together, apart, some in group 0, not yet) of a replay's outcomes.
pub fn counts(outcomes: &str) -> (usize, usize, usize, usize) {
    let n = |c| outcomes.chars().filter(|&x| x == c).count();
    (n('T'), n('A'), n('0'), n('.'))
}

/// With PATHPOOL_WRITE_DOCS=1, puts `table` between `<!-- NAME:begin -->` and
/// `<!-- NAME:end -->` in docs/kernel.md (the doc names the command beside the markers).
pub fn write_doc_table(name: &str, table: &str) {
    if std::env::var_os("PATHPOOL_WRITE_DOCS").is_none() {
        return;
    }
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/kernel.md");
    let doc = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let (begin, end) = (format!("<!-- {name}:begin -->\n"), format!("<!-- {name}:end -->"));
    let (Some(b), Some(e)) = (doc.find(&begin), doc.find(&end)) else {
        panic!("{}: expected the markers {begin:?} and {end:?}", path.display());
    };
    let fresh = format!("{}{begin}{table}{}", &doc[..b], &doc[e..]);
    std::fs::write(&path, fresh).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
}

/// A file's closed intervals as the grouping saw them, with the time of each from the file's
/// first sample (s).
pub fn intervals(path: &std::path::Path) -> Vec<(f64, pathpool_kernel::grouping::IntervalRecord)> {
    intervals_of(path, ConnGroups::default())
}

/// [`intervals`] through the grouping `g` (e.g. another comparison window).
pub fn intervals_of(path: &std::path::Path, mut g: ConnGroups) -> Vec<(f64, pathpool_kernel::grouping::IntervalRecord)> {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    g.record_intervals();
    let mut out = Vec::new();
    let mut first_ns = None;
    for (i, line) in text.lines().enumerate().skip(1) {
        let (token, sf, ack_us, rtt_us) = parse(line).unwrap_or_else(|| panic!("{}:{}: expected TOKEN.sfID,ack_time_us,rtt_us, got {line:?}", path.display(), i + 1));
        first_ns.get_or_insert(ack_us * 1000);
        g.on_sample(token, sf, ack_us * 1000, rtt_us, &mut out);
    }
    let first = first_ns.unwrap_or(0);
    g.take_intervals().into_iter().map(|r| (r.time_ns.saturating_sub(first) as f64 / 1e9, r)).collect()
}

/// A decision filter's decisions on one file's tested intervals: (time ns, groups).
pub type Decisions = Vec<(u64, Vec<u32>)>;

/// The shift of sbd-shifting on a samples file's clock: its first sample came 0.07 s after the
/// traffic started in the recorded runs (their sbd.log against the replay), so 29.9 s after the
/// first sample, which does not flatter a reaction.
pub const SHIFT_AFTER_FIRST_NS: u64 = 29_900_000_000;

/// Both subflows in one group other than 0 (coupled by pp_mptcp_sbd).
pub fn together(g: &[u32]) -> bool {
    g.iter().all(|&x| x != 0 && x == g[0])
}

/// How many of a run's decisions are right: all together on sbd-shared, all apart on
/// sbd-disjoint; None on other cases.
pub fn right(case: &str, d: &Decisions) -> Option<usize> {
    if case.ends_with("sbd-shared") {
        Some(d.iter().filter(|x| together(&x.1)).count())
    } else if case.ends_with("sbd-disjoint") {
        Some(d.iter().filter(|x| x.1.iter().all(|&g| g != 0) && x.1[0] != x.1[1]).count())
    } else {
        None
    }
}

/// The reaction on sbd-shifting (s after the shift): the first decision uncoupling the
/// subflows, in a run coupled at the shift; on sbd-shifting-join the first grouping them, in a
/// run apart at it. None: no reaction, or none to make. `first_ns`: the file's first sample.
pub fn reaction(case: &str, d: &Decisions, first_ns: u64) -> Option<f64> {
    let join = case.ends_with("sbd-shifting-join");
    let shift = first_ns + SHIFT_AFTER_FIRST_NS;
    let last = d.iter().rev().find(|x| x.0 < shift);
    let ready = if join { last.is_some_and(|x| !together(&x.1)) } else { last.is_none_or(|x| together(&x.1)) };
    let first = d.iter().find(|x| x.0 >= shift && together(&x.1) == join);
    if ready {
        first.map(|x| (x.0 - shift) as f64 / 1e9)
    } else {
        None
    }
}

/// A median of reactions and the list per run ("never" for None), as the tables show them.
pub fn reactions_cell(reactions: &[Option<f64>]) -> String {
    let mut r: Vec<f64> = reactions.iter().map(|x| x.unwrap_or(f64::INFINITY)).collect();
    r.sort_by(f64::total_cmp);
    let show = |x: f64| if x.is_finite() { format!("{x:.1} s") } else { "never".into() };
    let per = reactions.iter().map(|x| x.map_or("never".into(), |v| format!("{v:.1}"))).collect::<Vec<_>>().join(", ");
    format!("{} ({per})", r.get(r.len() / 2).map_or("never".into(), |&x| show(x)))
}
