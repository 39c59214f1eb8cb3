"""Boards and outcomes: lines, the turn checks, the stalemate rules, several
boards, and the dilemmas' outcomes (overachievers disqualified, Chaos wins
above a count), from docs/rules/ttt/outcomes.md.
"""

from __future__ import annotations

from games.ttt.rules import STALEMATES, parse_check
from games.ttt.schema import (
    ANY_ROW_STALEMATES,
    GOAL_CHECK,
    LAST_PENTAGON_CHECK,
    LAST_ROW_STALEMATES,
    SHAPE_CHECKS,
    STUCK_STALEMATES,
    measure_shape,
    parse_stalemate,
)


class OutcomesMixin:
    def _init_outcomes(self, r):
        self.checks = [parse_check(c) for c in r["turn_checks"] if c not in SHAPE_CHECKS]
        self.goal_check = GOAL_CHECK in r["turn_checks"]
        self.last_pentagon = LAST_PENTAGON_CHECK in r["turn_checks"]
        self.stalemate = r["stalemate"]
        self.overachievers = r["overachievers_disqualified"]
        self.chaos_limits = dict(r["chaos_wins_if_more_than"])
        # the general scoring sums a side's pieces over its colours, as the rules
        # say ("the number of the side's pieces"); the six original rules take
        # the best colour, which differs only for partners with assigned colours
        self.general = (
            r["stalemate"] not in STALEMATES[:6]
            or self.overachievers
            or bool(self.chaos_limits)
            or r["stalemate"] == "most-pieces-wins"
        )
        self.disqualified = set()
        # "Stalemate loses/wins": the seat to move that has no legal move and
        # no pass, while the stalemate it makes is scored (else None)
        self.stuck = None
        # "Last K-in-a-row wins": K, and the side whose ply last made a K-line (None: none yet)
        self.last_row_k = int(r["stalemate"].split("-")[1]) if r["stalemate"] in LAST_ROW_STALEMATES else 0
        self.last_row = None
        self.decided = {}  # board -> players' results on it
        self.closed = None  # at the end: the boards decided in play (shown locked)
        self.result = None

    def returns(self):
        return list(self.result) if self.result is not None else [0.0] * self.n

    def chaos_outcome(self):
        if self.result is None:
            return 0.0
        if all(v == -1.0 for v in self.result):
            return 1.0
        if all(v == 1.0 for v in self.result):
            return -1.0
        return 0.0

    # lines ------------------------------------------------------------------------------
    def run_through(self, c, col, diag):
        """The longest run of colour col through cell c (orthogonal lines only unless diag)."""
        best = 0
        for d in self.line_dirs():
            if not diag and not self.orthogonal(d):
                continue
            best = max(best, len(self.line_cells(c, d, lambda p: self.board.get(p) == col)))
        return best

    def lines(self):
        """Every maximal same-colour line as (colour, length, cells, whether it
        is a toroid's whole wrapping line)."""
        out = []
        for c, col in self.board.items():
            for d in self.line_dirs():
                cells = self.line_cells(c, d, lambda p, col=col: self.board.get(p) == col)
                back = self.go(c, d, -1)
                if back in cells and (min(cells) != c or not self.whole_line(c, d, cells)):
                    continue  # not the run's first cell (a toroid's whole line: its least cell)
                out.append((col, len(cells), cells, self.whole_line(c, d, cells)))
        return out

    def whole_line(self, c, d, cells):
        """Whether ``cells`` is a toroid's whole wrapping line through c along d."""
        return self.kind == "toroid" and self.go(c, d, len(cells)) == c and len(cells) > 1

    # turn checks ------------------------------------------------------------------------
    def _check_result(self, effect):
        """The result of a turn check met by the seat to move: effect 0 its
        side wins, 1 its side loses, 2 everyone loses."""
        ms = self.side[self.seat]
        if effect == 2:
            return [-1.0] * self.n
        if effect == 0:
            return [1.0 if self.side[p] == ms else -1.0 for p in range(self.n)]
        return [-1.0 if self.side[p] == ms else 1.0 for p in range(self.n)]

    def line_checks(self, cells):
        """The turn checks through the cells a ply's pieces landed on: True
        when they end the ply (a result, the last open board decided, or an
        overachiever's check). A check that decides one board of several
        stops the checks but not the ply."""
        for k, effect, diag in self.checks:
            if not any(self.run_through(w, self.board[w], diag) >= k for w in cells):
                continue
            if self.B > 1:
                self.decided[self.board_of(cells[0])] = self._check_result(effect)
                if len(self.decided) == self.B:
                    self._most_boards(by_check=True)
                    return True
                return False
            if self.overachievers:
                return bool(self._overachiever_check(effect))
            self.result = self._check_result(effect)
            return True
        return False

    def note_last_row(self, cells):
        """ "Last K-in-a-row wins": the mover's side made a K-line through a
        piece that arrived (any colour, as the turn checks read lines)."""
        k = self.last_row_k
        if k and any(self.run_through(w, self.board[w], True) >= k for w in cells):
            self.last_row = self.side[self.seat]

    def pentagon_check(self):
        """ "Last pentagon wins" after a ply: when the pentagons left (on the
        board, in reserves; of colours a seat owns) are all one side's, that
        side wins as its first seat's met win check would make it. True when
        the game ended."""
        if not self.last_pentagon:
            return False
        colours = {col for c, col in self.board.items() if self.shape[c] == "pentagon"}
        colours |= {col for col in range(len(self.colours)) if self.sres[col].get("pentagon", 0) > 0}
        owners = [s for s in range(self.seats) if self.owned[s] & colours]
        if not owners or len({self.side[s] for s in owners}) != 1:
            return False
        mover, self.seat = self.seat, owners[0]
        try:
            if self.overachievers:
                return bool(self._overachiever_check(0))
            self.result = self._check_result(0)
            return True
        finally:
            self.seat = mover

    def _overachiever_check(self, effect):
        """ "Overachiever(s) disqualified" on a met check: True when the game
        ended; False when play goes on."""
        mover = self.seat
        chaos_mover = self.chaos and mover == self.seats - 1
        players = set(range(self.n))
        if effect == 2 or (effect == 0 and chaos_mover):
            self.result = [-1.0] * self.n
            return True
        if effect == 0:
            winners, losers = {p for p in players if self.side[p] == self.side[mover]}, set()
        else:
            winners = {p for p in players if self.side[p] != self.side[mover]}
            losers = players - winners
        winners -= self.disqualified
        if effect == 0 and not winners:
            return False  # a disqualified player's line
        if winners and not self.disqualified:
            self.disqualified = set(winners)
            if self.disqualified | losers != players:
                return False
            winners = set()
        self.result = [1.0 if p in winners else -1.0 for p in range(self.n)]
        return True

    # stalemate --------------------------------------------------------------------------
    def _stalemate(self):
        if self.B > 1:
            return self._most_boards()
        return self._stalemate_one_board()

    def _stalemate_one_board(self):
        st = self.stalemate
        if self.general:
            return self._stalemate_general()
        if st == "draws":
            self.result = [0.0] * self.n
            return
        if st in ("all-win", "all-lose"):
            self.result = [1.0 if st == "all-win" else -1.0] * self.n
            return
        colour_score = [0] * len(self.colours)
        for c, col in self.board.items():
            if st == "most-pieces-wins":
                colour_score[col] += 1
            else:
                colour_score[col] = max(colour_score[col], self.run_through(c, col, True))
        sides = sorted(set(self.side))
        side_score = {s: 0 for s in sides}
        for seat in range(self.seats):
            for col in self.owned[seat]:
                side_score[self.side[seat]] = max(side_score[self.side[seat]], colour_score[col])
        best, worst = max(side_score.values()), min(side_score.values())
        if best == worst:
            self.result = [0.0] * self.n
        elif st == "least-in-a-row-loses":
            self.result = [-1.0 if side_score[self.side[p]] == worst else 1.0 for p in range(self.n)]
        else:
            self.result = [1.0 if side_score[self.side[p]] == best else -1.0 for p in range(self.n)]

    def side_colours(self, side):
        return {col for seat in range(self.seats) if self.side[seat] == side for col in self.owned[seat]}

    def area(self, colours):
        """Spaces the side occupies or could reach by orthogonal steps of one
        of its pieces through spaces with no piece (locked ones included), on
        each piece's own board."""
        every = {(x, y, z) for x in range(self.X) for y in range(self.Y) for z in range(self.Z)}
        seen = {c for c, col in self.board.items() if col in colours}
        todo = list(seen)
        while todo:
            c = todo.pop()
            for d in self.neighbour_dirs():
                if not self.orthogonal(d):
                    continue
                n = self.go(c, d)
                if (
                    n in every
                    and n not in seen
                    and n not in self.board
                    and self.board_of(n) == self.board_of(c)
                ):
                    seen.add(n)
                    todo.append(n)
        return len(seen)

    def side_score(self, side, measure):
        colours = self.side_colours(side)
        if measure == "area":
            return self.area(colours)
        if measure == "in-a-row":
            return max([n for col, n, _, _ in self.lines() if col in colours], default=0)
        if measure.endswith("-in-a-row"):
            k = int(measure.split("-")[0])
            # K-long segments, each counted by its first space; every space of a
            # toroid's whole wrapping line starts one
            return sum(
                (n if whole and n >= k else max(0, n - k + 1))
                for col, n, _, whole in self.lines()
                if col in colours
            )
        shape = measure_shape(measure)
        return sum(
            1 for c, col in self.board.items() if col in colours and (shape is None or self.shape[c] == shape)
        )

    def _verdicts(self, st, eligible, tie_draws):
        """Each side's result under stalemate rule ``st`` with only the
        ``eligible`` sides able to win; a tie of every eligible side draws
        (``tie_draws``)."""
        sides = sorted(set(self.side))
        if st in ("draws", "all-win", "all-lose"):
            return {s: {"draws": 0.0, "all-win": 1.0, "all-lose": -1.0}[st] for s in sides}
        if st in ANY_ROW_STALEMATES:  # every side with a K-line wins, if any has one
            has = {s: self.side_score(s, f"{st.split('-')[1]}-in-a-row") > 0 for s in sides}
            if not any(has[s] for s in eligible):
                return {s: 0.0 for s in sides}
            return {s: (1.0 if has[s] else -1.0) if s in eligible else 0.0 for s in sides}
        if st in STUCK_STALEMATES + LAST_ROW_STALEMATES:
            # the seat with no move left loses (wins), the side of the last K-line wins; none: a draw
            mine = self.side[self.stuck] if st in STUCK_STALEMATES and self.stuck is not None else None
            if st in LAST_ROW_STALEMATES:
                mine = self.last_row
            if mine is None:
                return {s: 0.0 for s in sides}
            win = -1.0 if st == "stalemate-loses" else 1.0
            return {s: (win if s == mine else -win) if s in eligible else 0.0 for s in sides}
        extreme, measure, verdict = parse_stalemate(st)
        score = {s: self.side_score(s, measure) for s in sides}
        if extreme == "vs-chaos":
            chaos = sides[-1]
            out = {}
            for s in sides[:-1]:
                if score[s] > score[chaos]:
                    out[s] = 1.0
                elif score[s] < score[chaos]:
                    out[s] = -1.0
                else:
                    out[s] = {
                        "more-pieces-than-chaos-wins": -1.0,
                        "fewer-pieces-than-chaos-loses": 1.0,
                        "more-pieces-than-chaos-wins-fewer-loses": 0.0,
                    }[st]
            return out
        scores = [score[s] for s in eligible]
        if not scores or (tie_draws and len(scores) >= 2 and max(scores) == min(scores)):
            return {s: 0.0 for s in sides}
        target = max(scores) if extreme == "most" else min(scores)
        win = 1.0 if verdict == "wins" else -1.0
        return {s: (win if score[s] == target else -win) if s in eligible else 0.0 for s in sides}

    def eligible_sides(self):
        return {
            self.side[seat] for seat in range(self.seats) if seat >= self.n or seat not in self.disqualified
        }

    def chaos_count_exceeded(self):
        """ "Chaos wins if total circles > 9": some shape's pieces (every
        board's) above its limit."""
        return any(
            sum(1 for c in self.board if self.shape[c] == shape) > limit
            for shape, limit in self.chaos_limits.items()
        )

    def _stalemate_general(self):
        if self.chaos_count_exceeded():
            self.result = [-1.0] * self.n
            return
        verdict = self._verdicts(self.stalemate, self.eligible_sides(), not self.disqualified)
        if self.overachievers and not self.disqualified:
            winners = {p for p in range(self.n) if verdict[self.side[p]] == 1.0}
            if winners:
                self.disqualified = winners
                verdict = self._verdicts(self.stalemate, self.eligible_sides(), False)
        self.result = [-1.0 if p in self.disqualified else verdict[self.side[p]] for p in range(self.n)]

    # several boards -----------------------------------------------------------------------
    def _most_boards(self, by_check=False):
        """The rules page: most board wins win, the others lose; on a tie of
        every player, sign(won - lost) when every board ended alike for all
        players, else a draw."""
        self.closed = set(self.decided)  # the boards decided in play (shown locked)
        for b in range(self.B):
            if b not in self.decided:
                self.decided[b] = self._board_stalemate(b)
        wins = [sum(self.decided[b][p] == 1.0 for b in range(self.B)) for p in range(self.n)]
        lost = [sum(self.decided[b][p] == -1.0 for b in range(self.B)) for p in range(self.n)]
        if max(wins) != min(wins):
            self.result = [1.0 if w == max(wins) else -1.0 for w in wins]
        elif all(len(set(self.decided[b])) == 1 for b in range(self.B)):
            self.result = [float((wins[0] > lost[0]) - (wins[0] < lost[0]))] * self.n
        else:
            self.result = [0.0] * self.n
        if self.general:
            self._boards_game_end(wins, by_check)

    def _on_board(self, b, rule):
        """``rule()`` read with the pieces of board b only."""
        saved = self.board
        self.board = {c: col for c, col in saved.items() if self.board_of(c) == b}
        try:
            return rule()
        finally:
            self.board = saved

    def _board_stalemate(self, b):
        """The stalemate rule on board b alone."""
        if self.general:  # the dilemmas' outcomes per board
            return self._board_general(b)
        self.result = None
        self._on_board(b, self._stalemate_one_board)
        out, self.result = self.result, None
        return out

    def _board_general(self, b):
        """Board b scored as a one-board game of its own pieces: the stalemate
        rule's verdict per side, every side eligible, a tie of all drawn."""
        verdict = self._on_board(b, lambda: self._verdicts(self.stalemate, sorted(set(self.side)), True))
        return [verdict[self.side[p]] for p in range(self.n)]

    def _boards_game_end(self, wins, by_check):
        """ "Chaos wins if total ..." over every board (not when a turn check
        decided the last board); overachievers: the game's winners (most
        boards) are disqualified and the most boards among the rest wins."""
        if not by_check and self.chaos_count_exceeded():
            self.result = [-1.0] * self.n
            return
        if not self.overachievers or self.disqualified:
            return
        self.disqualified = {p for p in range(self.n) if self.result[p] == 1.0}
        if not self.disqualified:
            return  # no winners (a draw, or all lost): nobody disqualified
        rest = [wins[p] for p in range(self.n) if p not in self.disqualified]
        self.result = [
            1.0 if p not in self.disqualified and wins[p] == max(rest) else -1.0 for p in range(self.n)
        ]
