"""scripts/kernel_measure.py: which kernel runs the controllers' absurd windows distorted."""
from scripts.kernel_measure import distorted


def test_only_the_repeats_with_kernel_warnings_are_named():
    summary = {"sum_ratio": 0.9, "kernel_warnings": ["repeat 2: the BPF controllers entered 12 ...", "repeat 2: more", "repeat 3: x"]}
    assert distorted(summary) == ["repeat 2", "repeat 3"]


def test_a_single_run_and_a_clean_run():
    assert distorted({"kernel_warnings": ["the BPF controllers entered 1 ..."]}) == ["the run"]
    assert distorted({"sum_ratio": 1.0}) == []


def test_the_note_names_each_distorted_run_under_the_folder_it_is_given(tmp_path):
    import json
    from types import SimpleNamespace
    from scripts.kernel_measure import distorted_note

    def run(root, name, summary):
        folder = tmp_path / root / "real" / name
        folder.mkdir(parents=True)
        (folder / "summary.json").write_text(json.dumps(summary))

    run("paced", "shared-lia", {"kernel_warnings": ["repeat 2: the BPF controllers entered 3 ..."]})
    run("paced", "shared-olia", {"sum_ratio": 0.9})
    run("unpaced", "shared-lia", {"sum_ratio": 0.9})
    args = SimpleNamespace(out=str(tmp_path / "paced"))
    rows = [("shared", "lia"), ("shared", "olia"), ("disjoint", "olia")]
    paced = distorted_note(args, rows, label="Paced kernel runs")
    assert paced.startswith("Paced kernel runs during which") and paced.endswith(": shared lia repeat 2.")
    unpaced = distorted_note(args, rows, out=str(tmp_path / "unpaced"), label="Kernel runs not paced")
    assert unpaced.startswith("Kernel runs not paced during which") and unpaced.endswith(": none.")
