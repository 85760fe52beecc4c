"""The sign test that decides the liar table's cells (scripts/paired_bound.py), against the
binomial distribution's exact tail and the cases the table meets."""

from scripts import paired_bound as pb


def test_the_levels_of_the_looks_add_up_to_five_percent():
    looks = pb.levels([5, 20])
    assert looks[5] == 2.0**-5  # all five seeds on one side: p = 1/32
    assert abs(sum(looks.values()) - pb.ALPHA) < 1e-12
    assert abs(sum(pb.levels([5, 20, 100]).values()) - pb.ALPHA) < 1e-12
    assert pb.levels([4, 20]) == {4: 0.0, 20: pb.ALPHA}, "four seeds cannot reach 5 %: the look spends nothing"
    assert pb.levels([5]) == {5: pb.ALPHA}


def test_allowed_counts_are_the_binomial_tail():
    # P(X <= 1) for n = 10 is 11/1024 = 1.07 %; P(X <= 2) = 56/1024 = 5.5 %.
    assert pb.allowed(10, 0.05) == 1
    # n = 20 at 1.875 %: P(X <= 4) = 0.59 %, P(X <= 5) = 2.07 %.
    assert pb.allowed(20, 0.01875) == 4
    assert pb.allowed(4, 0.05) == -1
    # A third look at 100 seeds leaves the second's count at 20 seeds as it was.
    assert pb.allowed(20, pb.levels([5, 20, 100])[20]) == 4
    # crates/scenario/tests/liar.rs's looks: 5, 20 and 50 seeds.
    short = pb.levels([5, 20, 50])
    assert [pb.allowed(n, short[n]) for n in (5, 20, 50)] == [0, 4, 16]


def test_five_seeds_decide_only_when_unanimous():
    level = pb.levels([5, 20])[5]
    assert pb.decide([1.0, 1.0, 1.0, 1.0, 1.0], 1.05, True, level)[0] == "holds", "a liar that changed nothing"
    assert pb.decide([1.2, 1.3, 1.1, 1.06, 1.5], 1.05, True, level)[0] == "fails"
    # A median of +0 % with one seed beyond the bound is not yet evidence that it holds.
    verdict, lower, upper = pb.decide([0.9, 1.0, 1.0, 1.02, 1.3], 1.05, True, level)
    assert verdict == "undecided" and (lower, upper) == (0.9, 1.3)


def test_the_cost_bound_looks_below():
    level = pb.levels([5, 20])[20]
    ratios = [1.0] * 16 + [0.5] * 4
    assert pb.decide(ratios, 0.95, False, level)[0] == "holds", "4 of 20 below: rejected at 0.59 %"
    assert pb.decide([1.0] * 15 + [0.5] * 5, 0.95, False, level)[0] == "undecided"
    assert pb.decide([0.5] * 17 + [1.0] * 3, 0.95, False, level)[0] == "fails"
