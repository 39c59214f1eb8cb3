"""Pots and poker ranks: the poker-hand rank of a stack by brute force, the
pot a split capture leaves (a chance node draws the captor the round-robin
deal starts from), and the pot showdown of by-stack covers, from
docs/rules/ttt/pots.md and docs/rules/ttt/rounds.md ("Pots inside
rounds").

The showdown: when a by-stack mover's power converts or reincarnates (or it
is captured by a defender whose power does), every seat with a powered
piece of its own in the destination stack shows its poker hand (own and
communal powered pieces); the seats with the highest are the captors; each
keeps its own pieces that make its hand (lowest first); the rest of the
stack above its lock is the pot, dealt highest rank first (powered pieces,
the shape, the topmost), round-robin from a chance-drawn captor (seat
order), each captor under its piece's result (the mover for the mover's
seat, else its topmost own powered piece); all-x2 captors double the pot
(two deals per piece).
"""

from __future__ import annotations

import functools
import itertools
from collections import Counter

from .captures import GAINS, SPLITTING, pot_gain, pot_multiple
from .shapes import RANK

#: the hands' classes, lowest first, as the tic-tac-toe variations specification orders them
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


@functools.cache
def _brute_force(counts):
    pieces = [s for s, k in enumerate(counts) for _ in range(k)]
    best = (0, ())
    for size in range(1, min(5, len(pieces)) + 1):
        for hand in set(itertools.combinations(pieces, size)):
            named = _classify(hand)
            if named is not None:
                best = max(best, (CLASSES.index(named[0]), named[1]))
    return best


def brute_force(counts):
    """(class index, naming shape indices) of the best hand among pieces
    counted per shape (``counts``, RANK order): every sub-multiset of at most
    five pieces matched against the shape of each named hand."""
    return _brute_force(tuple(counts))


def multisets(max_pieces):
    """Every multiset of up to ``max_pieces`` pieces of the six shapes, as counts."""
    for total in range(max_pieces + 1):
        for combo in itertools.combinations_with_replacement(range(6), total):
            yield tuple(combo.count(s) for s in range(6))


@functools.cache
def hand_pieces(counts):
    """The pieces (per shape, RANK order) that make the hand of ``counts``:
    the smallest sub-multiset whose brute-force rank is the whole one's (so
    written apart from the engine's ``poker.hand_uses`` table)."""
    full = brute_force(counts)
    best = (0,) * 6
    for sub in itertools.product(*[range(c + 1) for c in counts]):
        if 0 < sum(sub) <= 5 and brute_force(sub) == full and (sum(best) == 0 or sum(sub) < sum(best)):
            best = sub
    return best


class PotsMixin:
    def _init_pots(self):
        self.pot = None  # the pot waiting for its chance node
        self.round_pots = []  # pots a round's resolution left, dealt after it
        self.round_tail = None  # (plans, landed, pots still to deal) while a round's pots wait
        self.resolving = False  # inside a round's resolution

    def add_pot(self, pot):
        if self.resolving:
            self.round_pots.append(pot)
        else:
            self.pot = pot

    # the chance node ----------------------------------------------------------------------------
    def current_player(self):
        if self.pot is not None and self.result is None:
            return -1
        return super().current_player()

    def legal_actions(self):
        if self.pot is not None:
            return list(range(len(self.pot["captors"])))
        return super().legal_actions()

    def seat_actions(self, s):
        if self.pot is not None:
            return list(range(len(self.pot["captors"])))
        return super().seat_actions(s)

    def play(self, a):
        if self.pot is None:
            return super().play(a)
        pot, self.pot = self.pot, None
        if pot.get("showdown"):
            self.deal_showdown(*pot["showdown"], a, pot["captors"], None, None)
        else:
            self.deal(pot, a)
        if self.round_tail is None:
            return self.end_ply(None, None, False)
        plans, landed, rest = self.round_tail  # a round's: its next pot, or its end
        if rest:
            self.pot, self.round_tail = rest[0], (plans, landed, rest[1:])
            return
        self.round_tail = None
        self._round_checks(plans, landed)

    def deal(self, pot, start):
        """The pot round-robin from captor ``start``: each piece to the next
        captor, under its own result (a converted piece lands on the pot's
        target while it has room)."""
        n = len(pot["captors"])
        for i in range(pot["pieces"]):
            col, shape = pot["captors"][(start + i) % n]
            result = self.props[shape]["result"]
            if result == "converts":
                cell = self.landing(pot["t"])
                if cell is not None:
                    self.board[cell], self.shape[cell] = col, pot["name"]
            elif result in GAINS:
                self.gain(col, pot["name"], pot_gain(result, pot["pieces"]))

    # poker hands --------------------------------------------------------------------------------
    def hand(self, cols, board, shape, x, y, extra=()):
        """The poker hand of the colours ``cols`` in stack (x, y) of
        ``board``/``shape`` (with ``extra`` (colour, shape) pieces added): its
        own and communal pieces, powerless shapes left out."""
        owned = set().union(*self.owned)
        pieces = [(board[c], shape[c]) for c in [(x, y, z) for z in range(self.Z)] if c in board]
        counts = [0] * 6
        for col, name in pieces + list(extra):
            if self.power(name) != "none" and (col in cols or col not in owned):
                counts[RANK.index(name)] += 1
        return brute_force(counts)

    # the showdown -------------------------------------------------------------------------------
    def showdown_applies(self, s, name, board, x, y, h, shape):
        """Seat s's by-stack mover ``name``, landed at height h of stack (x, y)
        in ``board``/``shape``, goes to the showdown (never a jumper or a
        surrounder: it does not cover)."""
        p = self.props[name]
        if self.jumper(name) or self.surrounder(name):
            return False
        if p["power"] == "none" or p["result"] not in SPLITTING:
            return self.captured_mover_showdown(s, name, board, shape, x, y, h)
        return any(
            (x, y, z) in board and board[(x, y, z)] not in self.owned[s] for z in range(self.base(x, y), h)
        )

    def captured_mover_showdown(self, s, name, board, shape, x, y, h):
        """A mover whose own power neither converts nor reincarnates goes to
        the showdown when the cover's verdict is "lose", one of the defenders
        that take it converts or reincarnates, and some seat has a powered
        piece of its own in the stack (else the duel stands): "For conversion
        and reincarnation on cover, all players with the highest rank on the
        stack split the pot", whoever converts or reincarnates."""
        verdict, cells = self.stack_outcome(s, name, board, shape, x, y, h)
        if verdict != "lose" or not any(self.props[shape[c]]["result"] in SPLITTING for c in cells):
            return False
        column = [(x, y, z) for z in range(self.Z) if (x, y, z) in board]
        return any(
            board[c] in self.owned[q] and self.power(shape[c]) != "none"
            for q in range(self.seats)
            for c in column
        )

    def _counts(self, s, x, y):
        owned = set().union(*self.owned)
        counts = [0] * 6
        for c in self.column(x, y):
            if self.power(self.shape[c]) != "none" and (
                self.board[c] in self.owned[s] or self.board[c] not in owned
            ):
                counts[RANK.index(self.shape[c])] += 1
        return tuple(counts)

    def plan(self, x, y):
        """(captor seats, kept cells, pot cells in dealing order) of the
        showdown over stack (x, y) of the board as it stands."""
        column = self.column(x, y)
        reach = [c for c in column if c[2] >= self.base(x, y)]
        shows = [
            s
            for s in range(self.seats)
            if any(self.board[c] in self.owned[s] and self.power(self.shape[c]) != "none" for c in column)
        ]
        hands = {s: brute_force(self._counts(s, x, y)) for s in shows}
        best = max(hands.values())
        captors = [s for s in shows if hands[s] == best]
        kept = set()
        for s in captors:
            need = list(hand_pieces(self._counts(s, x, y)))
            for c in reach:
                i = RANK.index(self.shape[c])
                if c not in kept and self.board[c] in self.owned[s] and need[i] > 0:
                    kept.add(c)
                    need[i] -= 1
        pot = sorted(
            (c for c in reach if c not in kept),
            reverse=True,
            key=lambda c: (self.power(self.shape[c]) != "none", RANK.index(self.shape[c]), c[2]),
        )
        return captors, kept, pot

    def captor_piece(self, s, mover, x, y):
        """(colour, shape) whose result captor seat s deals the pot under: the
        mover for the mover's seat (if it has a power), else its topmost own
        powered piece (above the lock first)."""
        if (
            mover is not None
            and self.board.get(mover) in self.owned[s]
            and self.power(self.shape[mover]) != "none"
        ):
            return self.board[mover], self.shape[mover]
        base = self.base(x, y)
        column = self.column(x, y)
        for cells in ([c for c in column if c[2] >= base], column):
            for c in reversed(cells):
                if self.board[c] in self.owned[s] and self.power(self.shape[c]) != "none":
                    return self.board[c], self.shape[c]
        raise AssertionError("a captor shows a hand of its own pieces")

    def deal_showdown(self, x, y, start, pieces, mover, seat):
        """Deal the showdown's pot over stack (x, y) from captor ``start``
        (``pieces``: each captor's (colour, shape)); the mover's new cell if
        it stays as ``seat``'s piece, else None."""
        _, _, pot = self.plan(x, y)
        n = len(pieces)
        results = [self.props[sh]["result"] for _, sh in pieces]
        units = pot_multiple(results)
        colour = {c: self.board[c] for c in self.column(x, y)}
        for i, c in enumerate(pot):
            for d in range(units):
                j = (start + i * units + d) % n
                col, result = pieces[j][0], results[j]
                if result == "converts":
                    colour[c] = col
                    continue
                colour[c] = None
                if result in GAINS:
                    self.gain(col, self.shape[c], pot_gain(result, units))
        base = self.base(x, y)
        survivors = [(colour[c], self.shape[c], c == mover) for c in self.column(x, y) if c[2] >= base]
        for c in self.column(x, y):
            if c[2] >= base:
                del self.board[c], self.shape[c]
        stays = None
        for i, (col, name, was_mover) in enumerate([v for v in survivors if v[0] is not None]):
            cell = (x, y, base + i)
            self.board[cell], self.shape[cell] = col, name
            if was_mover and col in self.owned[seat]:
                stays = cell
        return stays

    def stack_captures(self, s, a):
        board, shape, (x, y, h), _ = self.after_stack_move(s, a)
        if not self.showdown_applies(s, shape[(x, y, h)], board, x, y, h, shape):
            return super().stack_captures(s, a)
        saved = self.board, self.shape
        self.board, self.shape = board, shape
        try:
            return s in self.plan(x, y)[0]
        finally:
            self.board, self.shape = saved

    def cover_by_stack(self, s, u, mover, n):
        x, y, h = mover
        if not self.showdown_applies(s, self.shape[mover], self.board, x, y, h, self.shape):
            return super().cover_by_stack(s, u, mover, n)
        captors, _, pot = self.plan(x, y)
        pieces = [self.captor_piece(c, mover, x, y) for c in captors]
        if len(captors) > 1:
            multiple = pot_multiple([self.props[sh]["result"] for _, sh in pieces])
            self.add_pot({"showdown": (x, y), "t": u, "captors": pieces, "pieces": len(pot) * multiple})
            return []
        stays = self.deal_showdown(x, y, 0, pieces, mover, s)
        return [] if stays is None else [c for c in self.column(x, y) if c[2] >= stays[2]]
