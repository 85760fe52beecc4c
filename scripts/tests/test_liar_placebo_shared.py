"""The placebo table's measures (scripts/liar_placebo_shared.py): the bound's ratio of medians
and the paired per-seed counts, on cases whose answers are known."""

from scripts import liar_placebo_shared as lps


def test_the_bound_gain_is_a_ratio_of_medians_not_a_median_of_ratios():
    # Medians 2.0 and 1.0: +100 %, although the per-seed ratios are 0.5, 4.0 and 1.0 (median 1.0).
    assert lps.bound_gain([1.0, 2.0, 3.0], [2.0, 0.5, 1.0]) == 2.0


def test_beyond_marks_only_moves_past_five_percent():
    assert lps.beyond(1.06) == "+"
    assert lps.beyond(1.05) == ""
    assert lps.beyond(1 / 1.05) == ""
    assert lps.beyond(0.94) == "-"


def test_paired_counts_count_up_down_and_unchanged_seeds():
    receiver = [1.10, 0.90, 1.00, 1.02, 0.0]
    honest = [1.00, 1.00, 1.00, 1.00, 0.0]
    # Up: 1.10; down: 0.90; the same: 1.00 and the two starved runs (no change).
    assert lps.paired_counts(receiver, honest) == "1 / 1 / 2"
