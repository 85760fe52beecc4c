"""The modules other scripts share: doc tables written between their markers, units read by
the scenario loader's parsers, and the capture analyses on a simulated run's captures (the
simulator writes the testbed's capture format: raw IPv4, nanosecond pcap)."""

import subprocess
import sys
from pathlib import Path

import pytest

import pathpool
import scripts.bursts as bursts
import scripts.doc_table as doc_table
import scripts.units as units

ROOT = Path(__file__).resolve().parents[2]


def test_a_table_is_written_between_its_markers(tmp_path):
    doc = tmp_path / "doc.md"
    doc.write_text("head\n<!-- b -->\nold\n<!-- e -->\ntail\n")
    doc_table.write_between(doc, "<!-- b -->", "<!-- e -->", "| new |")
    assert doc.read_text() == "head\n<!-- b -->\n| new |\n<!-- e -->\ntail\n"


def test_missing_markers_name_the_file(tmp_path):
    doc = tmp_path / "doc.md"
    doc.write_text("no markers\n")
    with pytest.raises(SystemExit, match=r"doc\.md: markers '<!-- b -->' / '<!-- e -->' not found"):
        doc_table.write_between(doc, "<!-- b -->", "<!-- e -->", "x")
    assert doc.read_text() == "no markers\n"


def test_units_are_read_as_scenario_files_read_them():
    assert units.seconds("400us") == 0.0004 and units.seconds("1.5s") == 1.5
    assert units.rate_bps("20Mbps") == 20_000_000 and units.rate_bps("1Gb/s") == 1_000_000_000
    with pytest.raises(SystemExit, match=r"--in: expected a value with a unit like .*got '20'"):
        units.seconds("20", "--in")
    with pytest.raises(SystemExit, match=r"--rate: expected .*got '5ms'"):
        units.rate_bps("5ms", "--rate")


@pytest.fixture(scope="module")
def captured(tmp_path_factory):
    """A simulated MPTCP connection and a TCP flow on a shared bottleneck, captured at every host."""
    d = tmp_path_factory.mktemp("capture")
    scenario = ROOT / "scenarios/examples/mptcp-shared-bottleneck.toml"
    subprocess.run(
        [pathpool_cli(), "run", scenario, "--pcap", d / "pcap", "--out", d / "run", "--set", "simulation.duration=12s", "--set", "simulation.warmup=2s"],
        check=True,
        capture_output=True,
    )
    return d / "pcap"


def pathpool_cli():
    import os

    return os.environ.get("PATHPOOL_BIN", str(ROOT / "target/release/pathpool"))


def test_the_capture_reader_is_the_rust_one(captured):
    first = next(bursts.packets(captured / "server.pcap"))
    p = next(pathpool.packets(captured / "server.pcap"))
    assert p.linktype == 101 and first == (p.time_ns // 10**9 + (p.time_ns % 10**9) * 1e-9, p.length, p.data)
    assert first[2][0] >> 4 == 4, "raw IPv4"


def test_a_file_that_is_no_capture_is_named(tmp_path):
    bad = tmp_path / "notes.pcap"
    bad.write_bytes(b"this is text, not a capture\n" * 4)
    with pytest.raises(SystemExit, match="notes.pcap"):
        list(bursts.packets(bad))


def test_bursts_reports_every_sender(captured):
    out = subprocess.run([sys.executable, "-m", "scripts.bursts", captured / "client.pcap", captured / "tcp_client.pcap"], cwd=ROOT, check=True, capture_output=True, text=True).stdout
    rows = [line for line in out.splitlines() if line.startswith("| ") and "pcap" in line]
    # Two MPTCP subflows from the client, one TCP flow from tcp_client, each with data.
    assert {r.split("|")[1].strip() for r in rows} == {"client.pcap", "tcp_client.pcap"}
    assert len(rows) == 3, out
    for r in rows:
        cells = [c.strip() for c in r.split("|")[1:-1]]
        assert int(cells[2]) > 100 and float(cells[3]) >= 1.0, r


def test_sbd_eval_scores_the_decision_in_force_per_interval():
    from scripts import sbd_eval

    # Two subflows sharing one bottleneck (truth 1, 1): apart until 25 s, then together.
    decisions = [(3.0, [(1, 1), (2, 1)]), (25.0, [(1, 1), (1, 1)])]
    accuracy, first = sbd_eval.metrics(decisions, 30.0)
    intervals = [20.0 + k * sbd_eval.T_S for k in range(1, 29) if 20.0 + k * sbd_eval.T_S <= 30.0 + 1e-9]
    assert first == 25.0
    assert accuracy == pytest.approx(sum(t >= 25.0 for t in intervals) / len(intervals))


def test_the_package_is_found_or_named(monkeypatch):
    import scripts.package as package

    assert package.pathpool() is pathpool
    monkeypatch.setitem(sys.modules, "pathpool", None)  # as if not installed
    with pytest.raises(SystemExit, match=r"needs the pathpool Python package .*docs/python\.md"):
        package.pathpool()


def test_the_ns3_crosscheck_reads_scenarios_with_pathpools_units(tmp_path):
    from scripts import ns3_crosscheck as n

    sc = n.read_scenario(ROOT / "scenarios/bench/b1-n10.toml", "120s", "30s", None)
    assert (sc["duration"], sc["warmup"]) == (120.0, 30.0)
    bottleneck = sc["links"][sc["bottleneck"]]
    assert bottleneck["rate"] == 100e6 and bottleneck["buffer"] == 167
    assert len(sc["flows"]) == 10 and {f["packet_size"] for f in sc["flows"]} == {1500}
    bad = tmp_path / "bad.toml"
    bad.write_text((ROOT / "scenarios/bench/b1-n10.toml").read_text().replace('rate = "100Mbps"', 'rate = "100Mbit"', 1))
    with pytest.raises(n.ScenarioError, match=r"links\.\w+\.rate: expected a value with a unit like \"100Mbps\", got '100Mbit'"):
        n.read_scenario(bad, None, None, None)


def test_the_segment_readers_agree_on_a_capture(captured):
    from scripts import ack_pattern, mptcp_acks, queue_phase

    path = captured / "client.pcap"
    by_bursts = [(t, bursts.tcp_data(d, n)) for t, n, d in bursts.packets(path)]
    by_queue = list(queue_phase.segments(path))
    by_acks = list(mptcp_acks.tcp_segments(path))
    by_pattern = list(ack_pattern.segments(path))
    assert len(by_bursts) == len(by_queue) == len(by_acks) == len(by_pattern) > 1000
    for (t, (src, n)), (tq, _, nq, _), (ta, (addr, port), _, _, _, na, _, _), tp in zip(by_bursts, by_queue, by_acks, by_pattern):
        assert t == tq == ta == tp[0] and n == nq == na == tp[5]
        assert src == f"{'.'.join(map(str, addr))}:{port}" == ack_pattern.label((addr, port))
    payloads = [n for _, (_, n) in by_bursts if n > 0]
    # 1500-byte packets: at most 1460 bytes of payload after the IP and TCP headers.
    assert payloads and max(payloads) <= 1460


def test_sequence_order_wraps_at_32_bits():
    from scripts import ack_pattern, mptcp_acks

    assert mptcp_acks.after(5, 2**32 - 5) and not mptcp_acks.after(2**32 - 5, 5) and mptcp_acks.after(7, 7)
    order = [(0.1, "a"), (0.2, "a"), (0.3, "b"), (0.4, "a"), (0.5, "b"), (0.6, "b")]
    # The last run may go on past the capture's end: it is left out.
    assert ack_pattern.run_lengths(order, 0.0) == [2, 1, 1]
    assert ack_pattern.run_lengths(order, 0.15) == [1, 1, 1]
