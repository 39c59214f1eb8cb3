"""The poker-hand rank of stacks (games/ttt/poker.pyx) against a brute-force
evaluator written from the seed's sentence: every sub-multiset of at most
five pieces is matched against the shape of each named hand, and the best
(class, naming shapes) wins. Checked on every multiset of up to 9 pieces of
the six shapes (5005 of them)."""

import itertools
from collections import Counter

import pytest

from games.ttt import poker

SHAPES = ["circle", "triangle", "x", "cross", "star", "pentagon"]
# the seed's hierarchy, lowest first
CLASSES = [
    "none",
    "singleton",
    "2-straight",
    "pair",
    "3-straight",
    "2-pair",
    "3-of-a-shape",
    "4-straight",
    "full-house",
    "5-straight",
    "4-of-a-shape",
    "5-of-a-shape",
]


def _classify(hand):
    """(class, naming shapes high first) of one hand of 1..5 shape indices, or None."""
    c = Counter(hand)
    n = len(hand)
    mult = sorted(c.values(), reverse=True)
    distinct = sorted(c)
    consecutive = len(distinct) == n and distinct == list(range(distinct[0], distinct[0] + n))
    if mult == [n] and n in (1, 2, 3, 4, 5):
        return {1: "singleton", 2: "pair", 3: "3-of-a-shape", 4: "4-of-a-shape", 5: "5-of-a-shape"}[n], (
            distinct[0],
        )
    if consecutive and n >= 2:
        return f"{n}-straight", (distinct[-1],)
    if mult == [3, 2]:
        three = next(s for s, k in c.items() if k == 3)
        two = next(s for s, k in c.items() if k == 2)
        return "full-house", (three, two)
    if mult == [2, 2]:
        return "2-pair", tuple(sorted(c, reverse=True))
    return None


def brute_force(counts):
    pieces = [s for s, k in enumerate(counts) for _ in range(k)]
    best = (0, ())
    for size in range(1, min(5, len(pieces)) + 1):
        for hand in set(itertools.combinations(pieces, size)):
            named = _classify(hand)
            if named is not None:
                best = max(best, (CLASSES.index(named[0]), named[1]))
    return best


def engine_key(counts):
    name, shapes = poker.describe(poker.rank(list(counts)))
    return CLASSES.index(name), tuple(SHAPES.index(s) for s in shapes)


def multisets(max_pieces):
    for total in range(max_pieces + 1):
        for combo in itertools.combinations_with_replacement(range(6), total):
            yield tuple(combo.count(s) for s in range(6))


def test_every_multiset_of_up_to_nine_pieces_matches_brute_force():
    all_sets = list(multisets(9))
    assert len(all_sets) == 5005
    keys = {}
    for counts in all_sets:
        key = brute_force(counts)
        assert engine_key(counts) == key, (counts, engine_key(counts), key)
        keys[counts] = key
    # the int ranks order hands exactly as the brute-force keys do
    by_rank = sorted(all_sets, key=lambda c: poker.rank(list(c)))
    for a, b in zip(by_rank, by_rank[1:]):
        ra, rb = poker.rank(list(a)), poker.rank(list(b))
        assert (ra < rb) == (keys[a] < keys[b]) and (ra == rb) == (keys[a] == keys[b])


@pytest.mark.parametrize(
    "pieces, name, shapes",
    [
        ({"circle": 5}, "5-of-a-shape", ["circle"]),
        ({"circle": 6}, "5-of-a-shape", ["circle"]),
        (["circle", "triangle", "x", "cross", "star"], "5-straight", ["star"]),
        (["triangle", "x", "cross", "star", "pentagon"], "5-straight", ["pentagon"]),
        # no wrap: pentagon-circle-triangle-x-cross is not a 5-straight, it holds a 4-straight
        (["pentagon", "circle", "triangle", "x", "cross"], "4-straight", ["cross"]),
        (["pentagon", "circle"], "singleton", ["pentagon"]),
        ({"pentagon": 3, "circle": 2}, "full-house", ["pentagon", "circle"]),
        ({"circle": 3, "pentagon": 2}, "full-house", ["circle", "pentagon"]),
        ({"star": 2, "x": 2, "circle": 1}, "2-pair", ["star", "x"]),
        ({"x": 2, "cross": 1, "star": 1}, "3-straight", ["star"]),
        ({}, "none", []),
    ],
)
def test_named_hands(pieces, name, shapes):
    assert poker.describe(poker.rank(pieces)) == (name, shapes)


def test_the_seeds_hierarchy_in_order():
    # one hand of each class, every class beating the one below, even with lower shapes
    ladder = [
        {"pentagon": 1},
        {"circle": 1, "triangle": 1},
        {"circle": 2},
        ["circle", "triangle", "x"],
        {"circle": 2, "triangle": 2},
        {"circle": 3},
        ["circle", "triangle", "x", "cross"],
        {"circle": 3, "triangle": 2},
        ["circle", "triangle", "x", "cross", "star"],
        {"circle": 4},
        {"circle": 5},
    ]
    ranks = [poker.rank(h) for h in ladder]
    assert ranks == sorted(ranks) and len(set(ranks)) == len(ranks)
    assert poker.rank({"pentagon": 1}) > poker.rank({"circle": 1})  # no circle-over-pentagon exception


def test_bad_input_is_refused_clearly():
    with pytest.raises(ValueError, match="unknown shape"):
        poker.rank({"hexagon": 1})
    with pytest.raises(ValueError, match="negative"):
        poker.rank([0, 0, -1, 0, 0, 0])
