"""pathpool.correct_grouping(): [S0] §IV-B's judgement of one detector decision, by the same
Rust function that scores pathpool's own outputs (decision_accuracy in summary.json,
``detect --truth``)."""

from pathpool import _pathpool


def correct_grouping(groups, truth):
    """True when ``groups`` (one group id per subflow, 0 for a subflow judged not
    bottlenecked) puts subflows together exactly where ``truth`` (one bottleneck id per
    subflow) does; a subflow in group 0 is right only where the truth has it alone.
    ValueError when the lengths differ; TypeError/OverflowError for ids that are not whole
    numbers from 0 to 2^32 - 1."""
    return _pathpool.correct_grouping(list(groups), list(truth))
