"""docs/python.md's tutorial: its ```python blocks run in order, in one namespace, from a
folder that sees the repository's scenarios/ (its outputs go to that folder's out/)."""

import re


def test_the_tutorial_runs(root, tmp_path, monkeypatch):
    text = (root / "docs" / "python.md").read_text()
    blocks = re.findall(r"```python\n(.*?)```", text, flags=re.S)
    assert len(blocks) >= 3
    (tmp_path / "scenarios").symlink_to(root / "scenarios")
    monkeypatch.chdir(tmp_path)
    namespace = {}
    for i, block in enumerate(blocks):
        exec(compile(block, f"docs/python.md (python block {i + 1})", "exec"), namespace)
    assert (tmp_path / "out/python-tutorial/sum_ratio.png").stat().st_size > 10_000
