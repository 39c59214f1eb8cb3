# cython: language_level=3, boundscheck=False, wraparound=False
"""Poker-hand ranks of stacks. The specification: "A player's rank
in a move “by stack” or “by full stack” is determined from the full set of
pieces in the destination stack (after the move) owned by that player or by
no player (“communal pieces”), ignoring any pieces of the lowest possible
rank (chips), using the following hierarchy: highest-5-of-a-shape outranks
highest-4-of-a-shape which outranks highest-5-straight which outranks
highest-full-house (i.e. three-of-a-shape-plus-pair) which outranks
highest-4-straight which outranks highest-3-of-a-shape which outranks
highest-2-pair which outranks highest-3-straight which outranks
highest-pair which outranks highest-2-straight which outranks
highest-singleton."

Decisions (docs/rules/ttt/pots.md, "Poker-hand rank of a stack"), each tested
against a brute-force evaluator in tests/test_ttt_pots.py:
- "highest" inside a class compares the shapes that name the hand in the
  specification's rank chain circle < triangle < x < cross < star < pentagon, with no
  exception for circle over pentagon: that exception is a cycle, so it cannot
  pick "all players with the highest rank" among three hands (circles beat
  pentagons beat stars beat circles);
- straights run along that chain and do not wrap from pentagon to circle
  (the chain has two ends; the circle's one win over the pentagon is about two
  pieces meeting, not an order);
- a full house compares its three-of-a-shape, then its pair; two pair the
  higher pair, then the lower; a straight its top shape;
- no kickers: the tic-tac-toe variations specification names each class
  by its own shapes only ("highest-pair"), so two hands of one class and the same naming shapes tie
  (and the pot-split rule shares a tie);
- a hand is the best class any subset of the pieces makes (six circles are
  five of a shape).
Which pieces are chips (the lowest rank, "Pieces that cannot capture have
the lowest rank") is the caller's choice: it leaves them out of ``counts``.
"""
from games.ttt.poker cimport (N_SHAPES, HAND_NONE, HAND_SINGLETON, HAND_2_STRAIGHT, HAND_PAIR,
                              HAND_3_STRAIGHT, HAND_TWO_PAIR, HAND_3_OF, HAND_4_STRAIGHT,
                              HAND_FULL_HOUSE, HAND_5_STRAIGHT, HAND_4_OF, HAND_5_OF)

HAND_NAMES = ("none", "singleton", "2-straight", "pair", "3-straight", "2-pair", "3-of-a-shape",
              "4-straight", "full-house", "5-straight", "4-of-a-shape", "5-of-a-shape")
SHAPES = ("circle", "triangle", "x", "cross", "star", "pentagon")     # schema.SHAPES_ALL


cdef inline int _code(int cls, int a, int b) noexcept nogil:
    return (cls << 6) | ((a + 1) << 3) | (b + 1)


cdef inline int _best(const int* n, int need, int skip) noexcept nogil:
    """The highest shape (other than ``skip``) with at least ``need`` pieces, or -1."""
    cdef int k
    for k in range(N_SHAPES - 1, -1, -1):
        if k != skip and n[k] >= need:
            return k
    return -1


cdef inline int _straight(const int* n, int length) noexcept nogil:
    """The top shape of the highest run of ``length`` consecutive shapes, or -1."""
    cdef int top, j
    cdef bint ok
    for top in range(N_SHAPES - 1, length - 2, -1):
        ok = True
        for j in range(length):
            if n[top - j] < 1:
                ok = False
                break
        if ok:
            return top
    return -1


cdef int hand_rank(const int* n) noexcept nogil:
    cdef int a, b
    a = _best(n, 5, -1)
    if a >= 0:
        return _code(HAND_5_OF, a, -1)
    a = _best(n, 4, -1)
    if a >= 0:
        return _code(HAND_4_OF, a, -1)
    a = _straight(n, 5)
    if a >= 0:
        return _code(HAND_5_STRAIGHT, a, -1)
    a = _best(n, 3, -1)
    if a >= 0:
        b = _best(n, 2, a)
        if b >= 0:
            return _code(HAND_FULL_HOUSE, a, b)
    b = _straight(n, 4)
    if b >= 0:
        return _code(HAND_4_STRAIGHT, b, -1)
    if a >= 0:
        return _code(HAND_3_OF, a, -1)
    a = _best(n, 2, -1)
    if a >= 0:
        b = _best(n, 2, a)
        if b >= 0:
            return _code(HAND_TWO_PAIR, a, b)
    b = _straight(n, 3)
    if b >= 0:
        return _code(HAND_3_STRAIGHT, b, -1)
    if a >= 0:
        return _code(HAND_PAIR, a, -1)
    a = _straight(n, 2)
    if a >= 0:
        return _code(HAND_2_STRAIGHT, a, -1)
    a = _best(n, 1, -1)
    if a >= 0:
        return _code(HAND_SINGLETON, a, -1)
    return _code(HAND_NONE, -1, -1)


cdef void hand_uses(int code, int* used) noexcept nogil:
    """How many pieces of each shape make the hand ``code`` (the showdown: "each
    captor retains the pieces that make them highest rank"): n of a shape
    uses n of it, a full house 3 + 2, two pair 2 + 2, a straight one of each
    shape of its run, a singleton one piece."""
    cdef int cls = code >> 6, a = ((code >> 3) & 7) - 1, b = (code & 7) - 1, k, length = 0
    for k in range(N_SHAPES):
        used[k] = 0
    if cls == HAND_5_OF:
        used[a] = 5
    elif cls == HAND_4_OF:
        used[a] = 4
    elif cls == HAND_FULL_HOUSE:
        used[a] = 3
        used[b] = 2
    elif cls == HAND_3_OF:
        used[a] = 3
    elif cls == HAND_TWO_PAIR:
        used[a] = 2
        used[b] = 2
    elif cls == HAND_PAIR:
        used[a] = 2
    elif cls == HAND_SINGLETON:
        used[a] = 1
    elif cls == HAND_5_STRAIGHT:
        length = 5
    elif cls == HAND_4_STRAIGHT:
        length = 4
    elif cls == HAND_3_STRAIGHT:
        length = 3
    elif cls == HAND_2_STRAIGHT:
        length = 2
    for k in range(length):
        used[a - k] = 1


def _counts(pieces):
    """A per-shape count list from a {shape: count} mapping, a list of six
    counts, or an iterable of shape names."""
    if isinstance(pieces, dict):
        bad = [s for s in pieces if s not in SHAPES]
        if bad:
            raise ValueError(f"unknown shape(s) {bad} (allowed: {', '.join(SHAPES)})")
        out = [int(pieces.get(s, 0)) for s in SHAPES]
    elif isinstance(pieces, (list, tuple)) and len(pieces) == N_SHAPES and all(
            isinstance(v, int) for v in pieces):
        out = [int(v) for v in pieces]
    else:
        out = [0] * N_SHAPES
        for s in pieces:
            if s not in SHAPES:
                raise ValueError(f"unknown shape {s!r} (allowed: {', '.join(SHAPES)})")
            out[SHAPES.index(s)] += 1
    if any(v < 0 for v in out):
        raise ValueError(f"negative count in {pieces!r}")
    return out


def rank(pieces):
    """The hand's rank as an int (larger is higher, equal is a tie) of
    ``pieces``: {shape: count}, six counts in SHAPES order, or shape names.
    Chips must already be left out."""
    cdef int n[N_SHAPES]
    cdef int k
    counts = _counts(pieces)
    for k in range(N_SHAPES):
        n[k] = counts[k]
    return hand_rank(n)


def describe(int code):
    """(class name, [shapes naming the hand]) of a rank from ``rank``."""
    cls, a, b = code >> 6, ((code >> 3) & 7) - 1, (code & 7) - 1
    return HAND_NAMES[cls], [SHAPES[s] for s in (a, b) if s >= 0]


def uses(int code):
    """{shape: count} of the pieces that make the hand ``code`` (a value of
    ``rank``): what a pot's captor keeps (docs/rules/ttt/pots.md, "The pot
    showdown of by-stack covers")."""
    cdef int used[N_SHAPES]
    hand_uses(code, used)
    return {SHAPES[k]: used[k] for k in range(N_SHAPES) if used[k]}
