"""Whether a bound on a median holds, from paired runs (docs/security.md, "Deciding the bound").

Each seed gives one paired ratio: a liar's run over the honest receiver's on the same seed
(or the check on over the check off). The bound is on the median of that ratio over seeds.
Runs of one setup under different seeds can differ by a factor of ten (chaotic small-buffer
runs), so neither the ratios nor their logarithms are normal: the test is the exact sign
test (distribution-free; Conover, Practical Nonparametric Statistics, 3rd ed., §3.4), one
sided each way at level ALPHA:

- "holds" when few enough seeds lie beyond the bound that a median beyond it is rejected;
- "fails" when few enough lie within it that a median within it is rejected;
- "undecided" otherwise: the runs given cannot tell (never counted as holding).

The seeds come in looks fixed before any run: the first few seeds, then, for the cells a look
leaves undecided, more seeds up to the next look's number. Looking more than once spends the
level each time (Bonferroni): the first look gets the smallest level it can reach (2**-n,
all its seeds on one side; none if that is above ALPHA) and the later looks share what is
left, so each verdict is wrong with probability at most ALPHA whichever look gave it.
"""

import math

ALPHA = 0.05


def binomial_cdf(k, n):
    """P(X <= k) for X ~ Binomial(n, 1/2)."""
    return sum(math.comb(n, j) for j in range(0, k + 1)) / 2**n if k >= 0 else 0.0


def allowed(n, level):
    """The most seeds of n that may lie on the wrong side for the sign test to reject at
    `level`; -1 when no count can."""
    k = -1
    while binomial_cdf(k + 1, n) <= level:
        k += 1
    return k


def levels(looks):
    """The level of each look, {seeds: level}, for looks at increasing numbers of seeds."""
    first, *later = looks
    if not later:
        return {first: ALPHA}
    one = 2.0**-first if 2.0**-first <= ALPHA else 0.0
    return {first: one} | {n: (ALPHA - one) / len(later) for n in later}


def decide(ratios, bound, above_is_bad, level):
    """(verdict, lower, upper) for the paired ratios at `level`: [lower, upper] holds the
    median with one-sided confidence 1 - level at each end (the order statistics the sign
    test rejects beyond), None where `level` allows no decision with this many seeds."""
    n = len(ratios)
    k = allowed(n, level)
    if k < 0:
        return "undecided", None, None
    xs = sorted(ratios)
    lower, upper = xs[k], xs[n - 1 - k]
    bad = sum(1 for r in xs if (r > bound if above_is_bad else r < bound))
    good = n - bad
    if bad <= k:
        return "holds", lower, upper
    if good <= k:
        return "fails", lower, upper
    return "undecided", lower, upper
