//! docs/schemes.md's table is the scheme table (`pathpool_cc::Scheme`) with what each backend
//! runs for it: the test fails when the page is stale; `PATHPOOL_WRITE_DOCS=1 cargo test -p
//! pathpool --test schemes_doc` rewrites it.

mod support;
use pathpool_cc::{Backend, Scheme};
use pathpool_kernel::LinuxCc;

const BEGIN: &str = "<!-- schemes:begin (written by `PATHPOOL_WRITE_DOCS=1 cargo test -p pathpool --test schemes_doc`) -->\n";
const END: &str = "<!-- schemes:end -->";

fn table() -> String {
    let mut t = String::from("| scheme | what it is | detector preset (simulator default) | simulator | Linux testbed | multipath QUIC |\n|---|---|---|---|---|---|\n");
    for s in Scheme::all() {
        let linux = match pathpool_kernel::linux_cc(s) {
            Some(LinuxCc::Stock(cc)) => format!("yes (the kernel's `{cc}`)"),
            Some(LinuxCc::Bpf(cc)) => format!("yes (BPF `{cc}`)"),
            None => "no".to_string(),
        };
        let yes = |b: Backend| if s.runs_on(b) { "yes" } else { "no" };
        let detector = s.detector().map_or("none".to_string(), |d| format!("`{d}`"));
        t += &format!("| `{s}` | {} | {detector} | {} | {linux} | {} |\n", s.about(), yes(Backend::Sim), yes(Backend::Quic));
    }
    t
}

#[test]
fn docs_schemes_md_lists_every_scheme_and_where_it_runs() {
    support::doc_section("docs/schemes.md", BEGIN, END, &table(), "PATHPOOL_WRITE_DOCS=1 cargo test -p pathpool --test schemes_doc");
}

/// Every scheme has a colour and a legend name of its own in the figures, so a figure of a
/// new scheme never falls back to an unnamed default.
#[test]
fn every_scheme_has_a_colour_in_the_figures() {
    for name in pathpool_cc::Scheme::names() {
        assert!(pathpool_plot::scheme_color(name).is_some(), "scheme {name} has no colour in crates/plot/src/schemes.rs");
    }
}
