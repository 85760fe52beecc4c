"""scripts/kernel_measure.py: which kernel runs the controllers' absurd windows distorted."""
from scripts.kernel_measure import distorted


def test_only_the_repeats_with_kernel_warnings_are_named():
    summary = {"sum_ratio": 0.9, "kernel_warnings": ["repeat 2: the BPF controllers entered 12 ...", "repeat 2: more", "repeat 3: x"]}
    assert distorted(summary) == ["repeat 2", "repeat 3"]


def test_a_single_run_and_a_clean_run():
    assert distorted({"kernel_warnings": ["the BPF controllers entered 1 ..."]}) == ["the run"]
    assert distorted({"sum_ratio": 1.0}) == []
