"""pathpool.correct_grouping(): [S0] §IV-B's judgement, the rule behind summary.json's
decision_accuracy: right when subflows share a group exactly where they share a bottleneck,
a subflow in group 0 (not bottlenecked) right only where the truth has it alone."""

import pytest

import pathpool


@pytest.mark.parametrize(
    "groups, truth, right",
    [
        ([1, 1], [1, 1], True),  # SB: all in one group
        ([1, 2], [1, 1], False),
        ([0, 0], [1, 1], False),  # not bottlenecked is in no group: never shared
        ([1, 2], [1, 2], True),  # NSB: each alone
        ([0, 2], [1, 2], True),  # alone by being in no group
        ([3, 3], [1, 2], False),
        ([1, 1, 2], [5, 5, 7], True),  # ids are labels, not values
        ([2, 2, 1], [5, 5, 7], True),
    ],
)
def test_s0s_judgement(groups, truth, right):
    assert pathpool.correct_grouping(groups, truth) is right


def test_lengths_must_agree():
    with pytest.raises(ValueError, match="groups has 2 subflows and truth 3"):
        pathpool.correct_grouping([1, 1], [1, 1, 1])


def test_a_run_scores_its_decisions_with_the_same_rule(root, tmp_path):
    r = pathpool.run(root / "scenarios/examples/mptcp-shared-bottleneck.toml", overrides={"simulation.duration": "30s", "simulation.warmup": "10s"}, out=tmp_path / "r")
    d = r.decisions
    assert len(d) > 0
    by_time = [g.sort_values("subflow") for _, g in d.groupby(["time_s", "connection"])]
    right = [pathpool.correct_grouping(g["group"].tolist(), g["truth"].tolist()) for g in by_time]
    assert sum(right) / len(right) == pytest.approx(r.summary["decision_accuracy"], abs=1e-12)
