//! Each kind of figure the reports draw (box plots by scheme with a paper's values, line
//! panels with a paper's reference line and paper markers): rendered, and what was drawn
//! checked: one legend entry per scheme plus the paper's, the paper's marks, the number of
//! runs above every box, and a legend band that takes a small part of the canvas.

use pathpool_plot::{draw_boxes, draw_panels, scheme_color, BoxGroup, BoxTitles, Panel, Series};
use std::path::PathBuf;

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::var_os("PATHPOOL_KEEP_PLOT").map_or_else(|| std::env::temp_dir().join(format!("pathpool-figure-kinds-{}", std::process::id())), PathBuf::from);
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

fn is_png(path: &PathBuf) -> bool {
    std::fs::read(path).is_ok_and(|b| b.len() > 8 && &b[1..4] == b"PNG")
}

/// S0 Fig. 5(a) as the report draws it: three schemes over n = 2 ... 5, crosses where S0
/// gives a value.
#[test]
fn a_box_plot_has_one_legend_entry_per_scheme_the_papers_crosses_and_n_per_box() {
    let mut groups = Vec::new();
    for n in 2..=5 {
        for (scheme, runs) in [("olia", 20), ("mptcp-sbd", 20), ("mptcp-sbd+pathpool", 19)] {
            let values = (0..runs).map(|k| 0.4 + 0.01 * f64::from(k)).collect();
            let paper = (scheme == "mptcp-sbd" && n == 2).then_some(0.75);
            groups.push(BoxGroup::new(format!("n = {n}"), values).scheme(scheme).paper(paper));
        }
    }
    let titles = BoxTitles { title: "NSB-n", x_label: "subflows", y_label: "sum of subflows / sum of TCP flows", paper: "S0: gain over OLIA" };
    let path = scratch("boxes.png");
    let drawn = draw_boxes(&path, &titles, &groups, 1000, 500).unwrap();
    assert!(is_png(&path));
    let legend: Vec<&str> = drawn.legend.iter().map(|e| e.text.as_str()).collect();
    assert_eq!(legend, ["OLIA", "MPTCP-SBD, S0's detector", "MPTCP-SBD, pathpool preset (default)", "S0: gain over OLIA"]);
    assert_eq!(drawn.legend.iter().map(|e| e.sample).collect::<Vec<_>>(), ["box", "box", "box", "marker"]);
    assert_eq!(drawn.paper_marks, 1);
    assert_eq!(drawn.counts, [20, 20, 19].repeat(4));
    // The old legend strip took 230 of 1000 px beside every chart.
    assert!(drawn.legend_height * 8 <= drawn.height, "legend {} of {} px", drawn.legend_height, drawn.height);
}

#[test]
fn a_box_plot_without_paper_values_has_no_paper_entry() {
    let groups = vec![BoxGroup::new("E1", vec![1.0, 2.0]), BoxGroup::new("E2", vec![1.5])];
    let titles = BoxTitles { title: "t", x_label: "experiment", y_label: "rate ratio", paper: "S1" };
    let drawn = draw_boxes(&scratch("plain.png"), &titles, &groups, 700, 400).unwrap();
    assert_eq!(drawn.legend.len(), 1, "{:?}", drawn.legend);
    assert_eq!(drawn.paper_marks, 0);
    assert_eq!(drawn.counts, [2, 1]);
}

/// S0 Fig. 8(a) as the report draws it: CDFs per scheme and S0's mean as a reference line.
#[test]
fn line_panels_draw_every_legend_entry_and_the_papers_marks() {
    let cdf = Panel {
        title: "Transition delay (CDF)".into(),
        x_label: "transition delay (s)".into(),
        y_label: "fraction of transitions".into(),
        series: vec![
            Series::step("MPTCP-SBD, S0's detector", vec![(1.0, 0.0), (4.0, 0.5), (30.0, 1.0)]).scheme("mptcp-sbd"),
            Series::step("pathpool preset", vec![(1.0, 0.0), (2.0, 1.0)]).scheme("mptcp-sbd+pathpool"),
            Series::reference("S0: mean 7 s", vec![(7.0, 0.0), (7.0, 1.0)]),
            Series::paper_markers("S0 (read off)", vec![(3.0, 0.2), (9.0, 0.9)]),
        ],
    };
    let path = scratch("lines.png");
    let drawn = draw_panels(&path, &[cdf], 900, 320).unwrap();
    assert!(is_png(&path));
    let legend: Vec<(&str, &str)> = drawn.legend.iter().map(|e| (e.text.as_str(), e.sample)).collect();
    assert_eq!(legend, [("MPTCP-SBD, S0's detector", "line"), ("pathpool preset", "line"), ("S0: mean 7 s", "line"), ("S0 (read off)", "marker")]);
    assert_eq!(drawn.paper_marks, 3);
    assert!(drawn.legend_height * 6 <= drawn.height, "legend {} of {} px", drawn.legend_height, drawn.height);
}

/// A capture with 60 flows: the legend names the first ones and how many more, in at most
/// three rows, instead of covering the chart.
#[test]
fn a_legend_of_many_lines_stays_small() {
    let series = (0..60).map(|i| Series::step(format!("flow 10.0.0.{i}:443"), vec![(0.0, 1.0), (1.0, 2.0)])).collect();
    let panel = Panel { title: "groups".into(), x_label: "time (s)".into(), y_label: "group".into(), series };
    let drawn = draw_panels(&scratch("many.png"), &[panel], 1000, 360).unwrap();
    assert!(drawn.legend.len() < 60 && drawn.legend.last().unwrap().text.ends_with("more"), "{:?}", drawn.legend);
    assert!(drawn.legend_height <= 3 * 18 + 4, "{}", drawn.legend_height);
}

#[test]
fn a_scheme_has_one_colour_in_every_figure() {
    assert_ne!(scheme_color("olia"), scheme_color("mptcp-sbd"));
    assert_ne!(scheme_color("mptcp-sbd"), scheme_color("mptcp-sbd+pathpool"));
    assert!(scheme_color("lia").is_some() && scheme_color("balia").is_some());
}
