"""Smoke test of the scripts behind finished investigations (docs/fidelity-notes.md,
docs/kernel.md, docs/pcap.md, docs/quic.md, docs/validation.md, BENCHMARKS.md): each runs as
``python3 -m scripts.NAME`` from the top, its imports resolve inside the package and its
arguments parse. Their inputs are captures and runs of the real testbed (root) or of tools
outside the project (ns-3, htsim), so the figures themselves are reproduced by the commands
their docs give beside them (scripts/README.md), not here."""

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

INVESTIGATIONS = [
    "scripts.ack_delay_rtt",
    "scripts.ack_pattern",
    "scripts.ack_reasons",
    "scripts.ack_sizes",
    "scripts.bench_vs_htsim",
    "scripts.compare_headlines",
    "scripts.cwnd_growth",
    "scripts.defer_decisions",
    "scripts.departure_gaps",
    "scripts.ferlin2016_sweep",
    "scripts.headline_reference",
    "scripts.interleave",
    "scripts.kernel_cuts",
    "scripts.kernel_sbd_replay",
    "scripts.kernel_ss_trace",
    "scripts.loss_episodes",
    "scripts.mptcp_acks",
    "scripts.ns3_crosscheck",
    "scripts.pcap_testbed_vantage",
    "scripts.phase_offset",
    "scripts.queue_phase",
    "scripts.sender_view",
    "scripts.window_cuts",
]


@pytest.mark.parametrize("module", INVESTIGATIONS)
def test_runs_as_a_module_of_the_package(module):
    r = subprocess.run([sys.executable, "-m", module, "--help"], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert r.returncode == 0 and "usage" in r.stdout.lower(), f"{module} --help: exit {r.returncode}\n{r.stdout}\n{r.stderr}"


def test_the_security_scenarios_are_what_liar_scenarios_writes():
    """scenarios/security/*.toml say they are written by liar_scenarios: they still are."""
    for kind in ("shared", "disjoint", "starved"):
        r = subprocess.run([sys.executable, "-m", "scripts.liar_scenarios", kind], cwd=ROOT, capture_output=True, text=True, check=True)
        assert r.stdout == (ROOT / f"scenarios/security/{kind}.toml").read_text(), kind


def test_pcap_accuracy_scores_decisions_against_the_truth(tmp_path):
    d = tmp_path / "decisions.csv"
    d.write_text("time_s,flow,group\n" + "".join(f"{t},a,1\n{t},b,{1 if t < 25 else 2}\n" for t in range(20, 30)))
    r = subprocess.run([sys.executable, "-m", "scripts.pcap_accuracy", d, "--truth", "shared", "--min", "0.9"], cwd=ROOT, capture_output=True, text=True)
    assert r.returncode == 1 and "5 of 10 decisions after 20 s match 'shared' (0.500)" in r.stdout, r.stdout + r.stderr


def test_the_synflood_capture_holds_n_syns(tmp_path):
    import pathpool

    out = tmp_path / "flood.pcap"
    subprocess.run([sys.executable, "-m", "scripts.synflood_pcap", "1000", out, "--span", "1"], cwd=ROOT, check=True)
    packets = list(pathpool.packets(out))
    assert len(packets) == 1000 and all(p.linktype == 101 and p.data[33] == 0x02 for p in packets)
    assert len({p.data[12:16] + p.data[20:22] for p in packets}) == 1000, "each SYN its own connection"


def test_sender_view_tells_one_queue_from_two_and_joint_losses_from_chance():
    """docs/security.md, "What the sender can see": the comparison test reads one slow queue
    under two flows' own noise as shared and the same queue out of phase as apart; losses in
    the same bins count above what independent losses give."""
    from scripts import sender_view as sv

    def queue(k):
        return 0.040 + 0.0005 * (k % 40)

    def noise(k, seed):
        return ((k * 6364136223846793005 + seed * 1442695040888963407) >> 33) % 2000 * 1e-6

    bins = range(sv.WINDOW_BINS)
    a = [(k * sv.BIN_S, queue(k) + noise(k, 1)) for k in bins]
    b = [(k * sv.BIN_S, queue(k) + 3 * noise(k, 2)) for k in bins]
    c = [(k * sv.BIN_S, queue(k + 3) + noise(k, 2)) for k in bins]
    # (by the sign, beyond chance): one queue reads shared both ways, two out of phase apart.
    assert sv.delay_verdicts(a, b) == ({"shared": 1}, {"shared": 1})
    assert sv.delay_verdicts(a, c) == ({"apart": 1}, {"apart": 1})
    # 100 segments each, one per 10 ms; losses in the same 5 bins, or in different ones.
    x = [(k * 0.01, k % 20 == 0) for k in range(100)]
    both, chance = sv.co_losses(x, [(t + 0.0005, lost) for t, lost in x])
    assert both == 5 and chance < 1
    both, _ = sv.co_losses(x, [(t + 0.0005, k % 20 == 10) for k, (t, _) in enumerate(x)])
    assert both == 0


def test_ideal_drop_tail_seeds_sample_the_phase_of_every_tcp_flow():
    """Under ideal hosts with a drop-tail queue a seed alone changes nothing: the liar table
    moves every TCP flow's start by a seed's own draw within one base RTT, and nowhere else."""
    from scripts import liar_scenarios as ls
    from scripts import liar_table as lt

    setup = dict(rate_mbps=30, rtt_ms=30, buffer_bdp=1, subflows=3, tcp=2, queue="droptail", hosts="ideal", layout="disjoint")
    text = ls.toml(setup, 140, 20)
    draws = {}
    for seed in (1, 2, 3):
        sets = lt.phase_sets(setup, seed)
        assert sets == lt.phase_sets(setup, seed), "the same seed, the same starts"
        starts = dict(s.split("=") for s in sets[1::2])
        assert len(starts) == 3 * 2, starts
        for key, value in starts.items():
            flow = key.split(".")[1]
            assert f'name = "{flow}"' in text, f"{flow} is not a flow of the scenario"
            j = int(flow.rsplit("_", 1)[1])
            assert ls.tcp_start_s(j) <= float(value[:-1]) < ls.tcp_start_s(j) + 0.030, (key, value)
        draws[seed] = starts
    assert len({tuple(d.values()) for d in draws.values()}) == 3, "each seed its own starts"
    for other in (dict(setup, hosts="linux-6.18"), dict(setup, queue="red")):
        assert lt.phase_sets(other, 1) == [], other


def test_a_setting_of_the_check_reaches_only_its_runs_and_keeps_them_apart(tmp_path):
    """`liar_table --check-set`: the setting goes to the runs with the check on, whose folders
    it names, so a table of it never reads the defaults' runs; runs with the check off stay
    shared."""
    import json
    import types

    from scripts import liar_table as lt

    fake = tmp_path / "pathpool"
    fake.write_text("#!/bin/sh\nout=''\nprev=''\nfor x in \"$@\"; do [ \"$prev\" = --out ] && out=$x; prev=$x; done\n"
                    "mkdir -p \"$out\"\nprintf '%s\\n' \"$@\" > \"$out/args\"\necho '{\"sum_ratio\": 1.0}' > \"$out/summary.json\"\n")
    fake.chmod(0o755)
    setup = dict(rate_mbps=30, rtt_ms=30, buffer_bdp=1, subflows=3, tcp=2, queue="droptail", hosts="linux-6.18", layout="shared")
    setting = 'flows.mptcp.sbd_verify_start="evidence"'
    a = types.SimpleNamespace(bin=str(fake), out=str(tmp_path / "runs"), check_set=[setting])
    plain = types.SimpleNamespace(bin=str(fake), out=str(tmp_path / "runs"))
    for verify in (True, False):
        lt.run(a, setup, "honest", verify, 1)
        lt.run(plain, setup, "honest", verify, 1)
    folders = sorted(p.name for p in (tmp_path / "runs").iterdir() if p.name != "scenarios")
    assert len(folders) == 3, folders  # the check off: one run for both
    for name in folders:
        args = (tmp_path / "runs" / name / "args").read_text().split("\n")
        assert (setting in args) == ("evidence" in name), name
        assert json.loads((tmp_path / "runs" / name / "summary.json").read_text())["sum_ratio"] == 1.0
