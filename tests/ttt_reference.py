"""A slow, direct Python model of the tic-tac-toe rules (docs/rules/ttt.md),
written from the rules text rather than from the engine, so that tests can
compare the Cython engine with it move by move on rule sets that no OpenSpiel
game covers (movement, Chaos, partners, passes, agreed draws, stalemate rules).

It reads only the validated record of a ``RuleSet`` and the documented action
encoding; coordinates are 0-based (x, y, z) tuples.
"""

from __future__ import annotations

import copy
import itertools

from games.ttt.rules import PALETTE, parse_check, seats_of

LINE_DIRS = [d for d in itertools.product((-1, 0, 1), repeat=3) if d > (0, 0, 0)]
ALL_DIRS = [d for d in itertools.product((-1, 0, 1), repeat=3) if d != (0, 0, 0)]
KNIGHT = [d for d in itertools.product((-2, -1, 0, 1, 2), repeat=3) if sorted(map(abs, d)) == [0, 1, 2]]


class RefState:
    def __init__(self, rs):
        r = rs.record
        self.X, self.Y, self.Z = r["board"]["size"]
        # boards (issue 11 item 5): B copies of the board side by side along x
        self.B, self.bX = r.get("boards", 1), self.X
        self.X *= self.B
        self.decided = {}  # board -> players' results on it
        self.gravity = r["board"]["kind"] == "stacks"
        n, chaos = seats_of(r["players"])
        self.n, self.chaos, self.seats = n, chaos, n + chaos
        mode = r["colours"]
        if mode == "assigned":
            self.colours = list(PALETTE[: self.seats])
            self.owned = [{s} for s in range(self.seats)]
        elif mode == "shared":
            self.colours = ["black"]
            self.owned = [{0}] * self.seats
        elif mode == "partners-share":
            self.colours = ["black", "white"]
            self.owned = [{0}, {1}, {0}, {1}]
        else:
            used = set(r["reserves"]) | {q["colour"] for q in r["board"]["pieces"]}
            self.colours = [c for c in PALETTE if c in used]
            self.owned = [set(range(len(self.colours)))] * self.seats
        self.choose = mode == "players-choose"
        self.side = [0, 1, 0, 1] if r["players"] == "partners" else list(range(n))
        if chaos:
            self.side.append(max(self.side) + 1)
        self.reserve = [r["reserves"].get(c, {}).get("circle", 0) for c in self.colours]
        self.locked = {w for a in r["board"]["locked"] for w in self.copies(a)}
        # per-board spaces (issue 13): an on_boards entry's spaces on its boards only
        self.on_boards = r["board"].get("on_boards", [])
        self.locked |= {
            w for e in self.on_boards for a in e.get("locked", []) for w in self.copies(a, e["boards"])
        }
        self.board = {
            w: self.colours.index(q["colour"]) for q in r["board"]["pieces"] for w in self.copies(q["at"])
        }
        self.shape_move = r["shapes"]["circle"]["move"]
        self.phases = r["phases"]
        self.phase = 0
        self.folded = set()
        any_move = any(ph["movement"] == "allowed" for ph in self.phases)
        self.move = self.shape_move if any_move else "stationary"
        self.ppt = r["pieces_per_turn"]
        self.passing = any(ph["pass"] for ph in self.phases)
        self.agree = r["agree_draw"]
        self.checks = [parse_check(c) for c in r["turn_checks"]]
        self.stalemate = r["stalemate"]
        self.limit = r["move_limit"]
        self.T = self.X * self.Y if self.gravity else self.X * self.Y * self.Z
        self.P = len(self.colours) if self.choose else 1
        a = self.P * self.T
        self.move0 = a
        if self.move != "stationary":
            a += self.T * self.T
        self.a_pass = self.a_offer = self.a_agree = self.a_refuse = None
        if self.passing:
            self.a_pass, a = a, a + 1
        if self.agree:
            self.a_offer, self.a_agree, self.a_refuse, a = a, a + 1, a + 2, a + 3
        self.num_actions = a
        self.plies = 0
        self.offer_by = None
        self.answerer = None
        self.result = None
        self._init_outcomes(r)  # ttt-outcomes
        self._init_spaces(r)
        self._start_phase(0)

    # spaces (issue 11 item 4) ---------------------------------------------------
    def _init_spaces(self, r):
        """Read sticky, exclusive and per-player entry/exit locks from the
        record as the rules page words them: a seat may not place or move onto
        a space whose entry is locked for it, nor move from one whose exit is."""

        def seat(name):
            return self.n if name == "chaos" else name - 1

        board = r["board"]
        # (boards or None for every board, the fields) of the board and of each on_boards entry
        layers = [(None, board)] + [(e["boards"], e) for e in board.get("on_boards", [])]
        self.sticky = {w for which, f in layers for a in f.get("sticky", []) for w in self.copies(a, which)}
        self.exclusive = {}  # cell -> seats it is exclusive to
        for which, f in layers:
            for g in f.get("exclusive", []):
                for a in g["at"]:
                    for w in self.copies(a, which):
                        self.exclusive[w] = {seat(s) for s in g["players"]}
        self.seat_locks = {}  # (kind, phase or None) -> {cell: seats}
        for kind in ("entry_locked", "exit_locked"):
            for where, groups in [(None, [(which, g) for which, f in layers for g in f.get(kind, [])])] + [
                (i, [(None, g) for g in ph.get(kind, [])]) for i, ph in enumerate(self.phases)
            ]:
                table = self.seat_locks.setdefault((kind, where), {})
                for which, g in groups:
                    for a in g["at"]:
                        for w in self.copies(a, which):
                            table.setdefault(w, set()).update(seat(s) for s in g["players"])

    def _seat_locked(self, kind, s, c):
        return any(s in self.seat_locks[(kind, where)].get(c, ()) for where in (None, self.phase))

    def may_enter(self, s, c):
        if c in self.exclusive and s not in self.exclusive[c]:
            return False
        return not self._seat_locked("entry_locked", s, c)

    def may_exit(self, s, c):
        if c in self.sticky or (c in self.exclusive and s not in self.exclusive[c]):
            return False
        return not self._seat_locked("exit_locked", s, c)

    # phases ------------------------------------------------------------------
    def phase_locked(self):
        return {w for a in self.phases[self.phase]["locked"] for w in self.copies(a)}

    # boards (issue 11 item 5) -------------------------------------------------
    def copies(self, at, boards=None):
        """Every board's copy of a 1-based [x, y, z] (0-based, x along all
        boards); with ``boards`` (1-based numbers), those boards' copies only."""
        return [
            (at[0] - 1 + b * self.bX, at[1] - 1, at[2] - 1)
            for b in range(self.B)
            if boards is None or b + 1 in boards
        ]

    def board_of(self, c):
        return c[0] // self.bX

    def _check_result(self, effect):
        ms = self.side[self.seat]
        if effect == 2:
            return [-1.0] * self.n
        if effect == 0:
            return [1.0 if self.side[p] == ms else -1.0 for p in range(self.n)]
        return [-1.0 if self.side[p] == ms else 1.0 for p in range(self.n)]

    def _most_boards(self, by_check=False):
        """The rules page: most board wins win, the others lose; on a tie of
        every player, sign(won - lost) when every board ended alike for all
        players, else a draw."""
        self.closed = set(self.decided)  # ttt-boards: the boards decided in play (shown locked)
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
        if self.general:  # ttt-boards
            self._boards_game_end(wins, by_check)

    def _board_stalemate(self, b):
        """The stalemate rule on board b alone."""
        if self.general:  # ttt-boards: the dilemmas' outcomes per board
            return self._board_general(b)
        saved = self.board
        self.board = {c: col for c, col in saved.items() if self.board_of(c) == b}
        self.result = None
        self._stalemate_one_board()
        self.board = saved
        out, self.result = self.result, None
        return out

    # ttt-boards: several boards with the dilemmas' outcomes (docs/rules/ttt.md,
    # "Several boards with every outcome and with simultaneous phases") ----------
    def _board_general(self, b):
        """Board b scored as a one-board game of its own pieces: the stalemate
        rule's verdict per side, every side eligible, a tie of all drawn."""
        saved = self.board
        self.board = {c: col for c, col in saved.items() if self.board_of(c) == b}
        verdict = self._verdicts(self.stalemate, sorted(set(self.side)), True)
        self.board = saved
        return [verdict[self.side[p]] for p in range(self.n)]

    def _boards_game_end(self, wins, by_check):
        """ "Chaos wins if total ..." over every board (not when a turn check
        decided the last board); overachievers: the game's winners (most
        boards) are disqualified and the most boards among the rest wins."""
        if not by_check and any(len(self.board) > limit for limit in self.chaos_limits.values()):
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

    def playing(self):
        """Seats that take turns in this phase: not locked for it, not folded."""
        locked = {self.n if s == "chaos" else s - 1 for s in self.phases[self.phase]["locked_players"]}
        return [s for s in range(self.seats) if s not in locked and s not in self.folded]

    def _start_phase(self, k):
        self.phase = k
        self.passes = 0
        self.left = self.ppt
        self.offered = False
        if not self.playing():
            return self._stalemate_or_next_phase()
        self.seat = self.playing()[0]
        self._turn_start()

    def _stalemate_or_next_phase(self):
        if self.phase + 1 == len(self.phases):
            return self._stalemate()
        if self.phases[self.phase]["fold"] == "less-than-most-committed":
            locked = self.phase_locked()
            committed = [
                sum(
                    1
                    for c, col in self.board.items()
                    if (c in locked or not self.may_exit(p, c)) and col in self.owned[p]
                )
                for p in range(self.n)
            ]
            self.folded |= {p for p in range(self.n) if committed[p] < max(committed)}
        self._start_phase(self.phase + 1)

    # geometry --------------------------------------------------------------
    def target_xyz(self, t):
        return (t % self.X, (t // self.X) % self.Y, t // (self.X * self.Y))

    def xyz_target(self, x, y, z):
        return x + self.X * (y + self.Y * z)

    def on_board(self, x, y, z):
        return 0 <= x < self.X and 0 <= y < self.Y and 0 <= z < (1 if self.gravity else self.Z)

    def height(self, t):
        x, y, _ = self.target_xyz(t)
        h = 0
        for z in range(self.Z):
            if (x, y, z) in self.board or (x, y, z) in self.locked:
                h = z + 1
        return h

    def landing(self, t):
        """Cell a piece sent to target t ends on, or None if t is full or that
        cell is locked for the phase."""
        if self.gravity:
            h = self.height(t)
            x, y, _ = self.target_xyz(t)
            c = (x, y, h) if h < self.Z else None
        else:
            c = self.target_xyz(t)
            c = None if c in self.board or c in self.locked else c
        if c is not None and self.board_of(c) in self.decided:  # boards: decided boards lock
            return None
        return None if c in self.phase_locked() else c

    def top_cell(self, t):
        if self.gravity:
            h = self.height(t)
            x, y, _ = self.target_xyz(t)
            return (x, y, h - 1) if h else None
        return self.target_xyz(t)

    # moves -----------------------------------------------------------------
    def current_player(self):
        if self.result is not None:
            return -4
        if self.offer_by is not None:
            return self.answerer
        if self.chaos and self.seat == self.seats - 1:
            return -1
        return self.seat

    def seat_actions(self, s):
        out = []
        for ch in range(self.P):
            for col in self.owned[s] if self.choose else self.owned[s]:
                if self.choose and col != ch:
                    continue
                if self.reserve[col] <= 0:
                    continue
                for t in range(self.T):
                    if self.landing(t) is not None and self.may_enter(s, self.landing(t)):
                        out.append(ch * self.T + t)
        phase = self.phases[self.phase]
        if self.move != "stationary" and phase["movement"] == "allowed":
            for f in range(self.T):
                src = self.top_cell(f)
                if src is None or src not in self.board or src in self.phase_locked():
                    continue
                if not self.may_exit(s, src) or self.board_of(src) in self.decided:
                    continue
                col = self.board[src]
                if col not in self.owned[s] or self.reserve[col] > 0:
                    continue
                fx, fy, fz = self.target_xyz(f)
                dests = set()
                steps = [d for d in ALL_DIRS if not (self.gravity and d[2])]
                if self.move == "adjacent-orthogonal" or (
                    self.move == "adjacent-alquerque" and (fx % self.bX + fy) % 2
                ):
                    # no diagonal: by the rule, or none is drawn through this point
                    steps = [d for d in steps if sum(map(abs, d)) == 1]
                for d in steps:
                    k = 1
                    while True:
                        p = (fx + k * d[0], fy + k * d[1], fz + k * d[2])
                        if not self.on_board(*p) or self.board_of(p) != self.board_of((fx, fy, fz)):
                            break
                        dests.add(self.xyz_target(*p))
                        if self.move in ("adjacent", "adjacent-orthogonal", "adjacent-alquerque"):
                            break
                        k += 1
                if self.move == "linear-or-knight":
                    for d in KNIGHT:
                        if self.gravity and d[2]:
                            continue
                        p = (fx + d[0], fy + d[1], fz + d[2])
                        if self.on_board(*p) and self.board_of(p) == self.board_of((fx, fy, fz)):
                            dests.add(self.xyz_target(*p))
                for u in sorted(dests):
                    if u != f and self.landing(u) is not None and self.may_enter(s, self.landing(u)):
                        out.append(self.move0 + f * self.T + u)
        if phase["pass"]:
            out.append(self.a_pass)
        return sorted(out)

    def legal_actions(self):
        if self.result is not None:
            return []
        if self.offer_by is not None:
            return [self.a_agree, self.a_refuse]
        acts = self.seat_actions(self.seat)
        if (
            self.agree
            and not self.offered
            and self.left == self.ppt
            and not (self.chaos and self.seat == self.seats - 1)
        ):
            acts.append(self.a_offer)
        return acts

    def has_move(self, s):
        return any(a != self.a_pass for a in self.seat_actions(s))

    # applying ------------------------------------------------------------------
    def apply(self, a):
        assert a in self.legal_actions(), (a, self.legal_actions())
        if self.offer_by is not None:
            if a == self.a_refuse:
                self.offer_by = self.answerer = None
                self.offered = True
                return
            self.answerer = self._next_answerer(self.answerer)
            if self.answerer == self.offer_by:
                self.offer_by = self.answerer = None
                self.result = [0.0] * self.n
            return
        if a == self.a_offer:
            self.offer_by = self.seat
            self.answerer = self._next_answerer(self.seat)
            return
        if a == self.a_pass:
            self.passes += 1
            self.plies += 1
            limit = self.limit and self.plies >= self.limit
            if self.passes >= len(self.playing()) and not (limit and self.phase + 1 < len(self.phases)):
                return self._stalemate_or_next_phase()
            if limit:
                return self._stalemate()
            return self._next_seat()
        if a < self.move0:
            ch, t = divmod(a, self.T)
            col = ch if self.choose else min(self.owned[self.seat])
            self.reserve[col] -= 1
        else:
            f, t = divmod(a - self.move0, self.T)
            src = self.top_cell(f)
            col = self.board.pop(src)
        dest = self.landing(t)
        self.board[dest] = col
        self.passes = 0
        self.plies += 1
        for k, effect, diag in self.checks:
            if self.run_through(dest, col, diag) >= k and self.B > 1:  # boards: decides one board
                self.decided[self.board_of(dest)] = self._check_result(effect)
                if len(self.decided) == self.B:
                    return self._most_boards(by_check=True)
                break
            if self.run_through(dest, col, diag) >= k:
                if self.overachievers:  # ttt-outcomes
                    if self._overachiever_check(effect):
                        return
                    break
                ms = self.side[self.seat]
                if effect == 2:
                    self.result = [-1.0] * self.n
                elif effect == 0:
                    self.result = [1.0 if self.side[p] == ms else -1.0 for p in range(self.n)]
                else:
                    self.result = [-1.0 if self.side[p] == ms else 1.0 for p in range(self.n)]
                return
        if self.limit and self.plies >= self.limit:
            return self._stalemate()
        self.left -= 1
        if self.left == 0 or not self.has_move(self.seat):
            self._next_seat()

    def _next_answerer(self, s):
        s = (s + 1) % self.seats
        if self.chaos and s == self.seats - 1:
            s = 0
        return s

    def _next_seat(self):
        playing = self.playing()
        self.seat = min((s for s in playing if s > self.seat), default=playing[0])
        self.left = self.ppt
        self.offered = False
        self._turn_start()

    def _turn_start(self):
        if not self.phases[self.phase]["pass"] and not self.has_move(self.seat):
            self._stalemate_or_next_phase()

    def run_through(self, c, col, diag):
        best = 0
        for d in LINE_DIRS:
            if not diag and sum(map(abs, d)) != 1:
                continue
            n = 1
            for sign in (1, -1):
                p = tuple(a + sign * b for a, b in zip(c, d))
                while self.board.get(p) == col and self.board_of(p) == self.board_of(c):
                    n += 1
                    p = tuple(a + sign * b for a, b in zip(p, d))
            best = max(best, n)
        return best

    def _stalemate(self):
        if self.B > 1:
            return self._most_boards()
        return self._stalemate_one_board()

    def _stalemate_one_board(self):
        st = self.stalemate
        if self.general:  # ttt-outcomes
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

    def returns(self):
        return list(self.result) if self.result is not None else [0.0] * self.n

    # -- outcomes of the dilemmas (ttt-outcomes), from docs/rules/ttt.md "Outcomes" --
    def _init_outcomes(self, r):
        from games.ttt.rules import STALEMATES

        self.overachievers = r["overachievers_disqualified"]
        self.chaos_limits = dict(r["chaos_wins_if_more_than"])
        original = STALEMATES[:6]
        # the general scoring sums a side's pieces over its colours, as the rules
        # say ("the number of the side's pieces"); the original code here takes
        # the best colour, which differs only for partners with assigned colours
        self.general = (
            r["stalemate"] not in original
            or self.overachievers
            or bool(self.chaos_limits)
            or r["stalemate"] == "most-pieces-wins"
        )
        self.disqualified = set()

    def side_colours(self, side):
        return {col for seat in range(self.seats) if self.side[seat] == side for col in self.owned[seat]}

    def lines(self):
        """Every maximal same-colour line as (colour, length, cells)."""
        out = []
        for c, col in self.board.items():
            for d in LINE_DIRS:
                if self.board.get(tuple(a - b for a, b in zip(c, d))) == col:
                    continue
                cells = [c]
                while self.board.get(tuple(a + b for a, b in zip(cells[-1], d))) == col:
                    cells.append(tuple(a + b for a, b in zip(cells[-1], d)))
                out.append((col, len(cells), cells))
        return out

    def area(self, colours):
        """Spaces the side occupies or could reach by orthogonal steps of one
        of its pieces through spaces with no piece (locked ones included)."""
        every = {(x, y, z) for x in range(self.X) for y in range(self.Y) for z in range(self.Z)}
        seen = {c for c, col in self.board.items() if col in colours}
        todo = list(seen)
        while todo:
            c = todo.pop()
            for axis in range(3):
                for sign in (1, -1):
                    n = list(c)
                    n[axis] += sign
                    n = tuple(n)
                    if (
                        n in every
                        and n not in seen
                        and n not in self.board
                        and self.board_of(n) == self.board_of(c)
                    ):  # ttt-boards: one board
                        seen.add(n)
                        todo.append(n)
        return len(seen)

    def side_score(self, side, measure):
        colours = self.side_colours(side)
        if measure == "area":
            return self.area(colours)
        if measure == "in-a-row":
            return max([n for col, n, _ in self.lines() if col in colours], default=0)
        if measure.endswith("-in-a-row"):
            k = int(measure.split("-")[0])
            return sum(max(0, n - k + 1) for col, n, _ in self.lines() if col in colours)
        # pieces, or pieces of a shape (every piece is a circle for now)
        return sum(1 for col in self.board.values() if col in colours)

    def _verdicts(self, st, eligible, tie_draws):
        from games.ttt.schema import parse_stalemate

        sides = sorted(set(self.side))
        if st in ("draws", "all-win", "all-lose"):
            return {s: {"draws": 0.0, "all-win": 1.0, "all-lose": -1.0}[st] for s in sides}
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

    def _stalemate_general(self):
        # every piece is a circle until shapes arrive: the circles are all the pieces
        if any(len(self.board) > limit for shape, limit in self.chaos_limits.items()):
            self.result = [-1.0] * self.n  # "Chaos wins if total circles > 9"
            return
        verdict = self._verdicts(self.stalemate, self.eligible_sides(), not self.disqualified)
        if self.overachievers and not self.disqualified:
            winners = {p for p in range(self.n) if verdict[self.side[p]] == 1.0}
            if winners:
                self.disqualified = winners
                verdict = self._verdicts(self.stalemate, self.eligible_sides(), False)
        self.result = [-1.0 if p in self.disqualified else verdict[self.side[p]] for p in range(self.n)]

    def _overachiever_check(self, effect):
        """True when the game ended; False when play goes on."""
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

    def chaos_outcome(self):
        if self.result is None:
            return 0.0
        if all(v == -1.0 for v in self.result):
            return 1.0
        if all(v == 1.0 for v in self.result):
            return -1.0
        return 0.0


class SimRefState(RefState):
    """The reference model with simultaneous and single phases (docs/rules/ttt.md,
    "Simultaneous play"), written from the rules text: in such a phase each
    round every seat that plays registers a plan (a ply legal on the board as
    it was at the start of the round, Chaos last by chance), then all plans
    are applied together; a piece that several plans move, and all pieces that
    several plans send to one target, are destroyed. Sequential phases play as
    in ``RefState``."""

    def __init__(self, rs):
        self.plans = None  # {seat: action} while a round is open
        super().__init__(rs)

    def _start_phase(self, k):
        if self.phases[k]["order"] == "sequential":
            self.plans = None
            return super()._start_phase(k)
        self.phase = k
        self.passes = 0
        self.left = self.ppt
        self.offered = False
        self._open_round()

    def _open_round(self):
        playing = self.playing()
        if not playing or (
            not self.phases[self.phase]["pass"] and any(not self.has_move(s) for s in playing)
        ):
            self.plans = None
            return self._stalemate_or_next_phase()
        self.plans = {}
        self.seat = playing[0]

    def legal_actions(self):
        if self.result is None and self.plans is not None:
            return self.seat_actions(self.seat)  # no draw offers inside a round
        return super().legal_actions()

    def simultaneous_players(self):
        if self.result is not None or self.plans is None:
            return []
        return [s for s in self.playing() if s >= self.seat and s < self.n]

    def apply(self, a):
        if self.result is not None or self.plans is None:
            return super().apply(a)
        assert a in self.legal_actions(), (a, self.legal_actions())
        self.plans[self.seat] = a
        later = [s for s in self.playing() if s > self.seat]
        if later:
            self.seat = later[0]
            return
        self._resolve()

    def _resolve(self):
        plans, self.plans = self.plans, None
        self.plies += len(plans)
        sending = {}  # seat -> (target, colour) of the piece it sends
        sources = {}  # seat -> source target of its move
        for s, a in plans.items():
            if a == self.a_pass:
                continue
            if self._round_attempt(s):
                continue  # ttt-cloaksim: an attempt only reveals
            if a < self.move0:
                ch, t = divmod(a, self.T)
                col = ch if self.choose else min(self.owned[s])
                self.reserve[col] -= 1
                sending[s] = (t, col)
            else:
                f, t = divmod(a - self.move0, self.T)
                sources[s] = f
                sending[s] = (t, None)
        for col in range(len(self.colours)):
            if self.reserve[col] < 0:  # overdrawn shared reserve: emptied, nothing placed
                self.reserve[col] = 0
                for s in [s for s in sending if s not in sources and sending[s][1] == col]:
                    del sending[s]
        for f in set(sources.values()):
            movers = [s for s in sources if sources[s] == f]
            self._round_lift(movers, self.top_cell(f))  # ttt-cloaksim
            col = self.board.pop(self.top_cell(f))
            for s in movers:
                if len(movers) > 1:
                    del sending[s]  # contested piece: destroyed, nobody moves it
                else:
                    sending[s] = (sending[s][0], col)
        landed = []
        for t in set(t for t, _ in sending.values()):
            senders = [s for s in sending if sending[s][0] == t]
            if len(senders) > 1:
                continue  # collision: every piece sent here is destroyed
            s = senders[0]
            dest = self.landing(t)
            self.board[dest] = sending[s][1]
            self._round_land(s, dest)  # ttt-cloaksim
            landed.append((s, dest, sending[s][1]))
        return self._round_end(plans, landed)

    def _round_end(self, plans, landed):
        """After a round's pieces landed: the turn checks over them, then the
        round ends (shared by the shapes-and-captures rounds below)."""
        if self.B > 1:  # ttt-boards: each board by its own landed pieces
            return self._resolve_boards(plans, landed)
        for k, effect, diag in self.checks:
            sides = {self.side[s] for s, dest, col in landed if self.run_through(dest, col, diag) >= k}
            if not sides:
                continue
            mover = min(
                s
                for s, dest, col in landed
                if self.side[s] in sides and self.run_through(dest, col, diag) >= k
            )
            if self.overachievers:  # ttt-cloaksim: the round's winners are one set
                if self._round_overachievers(effect, sides):
                    return
                break
            if effect == 2:
                self.result = [-1.0] * self.n
            elif len(sides) > 1:
                self.result = [0.0] * self.n  # several sides at once: nobody was first
            elif effect == 0:
                self.result = [1.0 if self.side[p] == self.side[mover] else -1.0 for p in range(self.n)]
            else:
                self.result = [-1.0 if self.side[p] == self.side[mover] else 1.0 for p in range(self.n)]
            return
        if self.limit and self.plies >= self.limit:
            return self._stalemate()
        if all(a == self.a_pass for a in plans.values()) or self.phases[self.phase]["order"] == "single":
            return self._stalemate_or_next_phase()
        self._open_round()

    # hooks for cloaking in rounds (ttt-cloaksim; CloakedSimRefState)
    def _round_attempt(self, s):
        return False

    def _round_lift(self, movers, cell):
        pass

    def _round_land(self, s, dest):
        pass

    def _round_overachievers(self, effect, sides):
        """ "Overachiever(s) disqualified" after a round (docs/rules/ttt.md,
        "Cloaking and overachievers in simultaneous rounds"): the pieces of
        ``sides`` completed the check together, so their winners are one set.
        True when the game ended."""
        players = set(range(self.n))
        chaos_side = self.side[-1] if self.chaos else None
        if effect == 2 or (effect == 0 and chaos_side in sides):
            self.result = [-1.0] * self.n  # all lose / Chaos's line: Chaos wins
            return True
        if effect == 0:
            winners, losers = {p for p in players if self.side[p] in sides}, set()
        else:
            losers = {p for p in players if self.side[p] in sides}
            winners = players - losers
        winners -= self.disqualified
        if effect == 0 and not winners:
            return False  # only disqualified players completed
        if winners and not self.disqualified:
            self.disqualified = set(winners)  # the first set of winners
            if self.disqualified | losers != players:
                return False
            winners = set()  # all disqualified or lost: Chaos wins
        self.result = [1.0 if p in winners else -1.0 for p in range(self.n)]
        return True

    def _resolve_boards(self, plans, landed):
        """SimRefState with several boards, after the plans landed: each board
        is decided by the pieces that landed on it (first check in the listed
        order that holds for one of them; several sides at once draw that board,
        an all-lose check loses it for everyone); the boards decided in the round
        lock together; then the round ends as on one board."""
        for b in range(self.B):
            mine = [(s, dest, col) for s, dest, col in landed if self.board_of(dest) == b]
            for k, effect, diag in self.checks:
                holders = [s for s, dest, col in mine if self.run_through(dest, col, diag) >= k]
                if not holders:
                    continue
                sides = {self.side[s] for s in holders}
                ms = self.side[min(holders)]
                if effect == 2:
                    self.decided[b] = [-1.0] * self.n
                elif len(sides) > 1:
                    self.decided[b] = [0.0] * self.n
                elif effect == 0:
                    self.decided[b] = [1.0 if self.side[p] == ms else -1.0 for p in range(self.n)]
                else:
                    self.decided[b] = [-1.0 if self.side[p] == ms else 1.0 for p in range(self.n)]
                break
        if len(self.decided) == self.B:
            return self._most_boards(by_check=True)
        if self.limit and self.plies >= self.limit:
            return self._stalemate()
        if all(a == self.a_pass for a in plans.values()) or self.phases[self.phase]["order"] == "single":
            return self._stalemate_or_next_phase()
        self._open_round()


class CloakedRefState(RefState):
    """The reference model with cloaking (issue 11 item 3), from the seed's
    sentences as docs/rules/ttt.md reads them: a player fully sees every piece
    it placed, every piece it can move, every piece on a non-cloaked space,
    every piece it has fully seen before and every piece it attempted to
    cover; under obscurity also every piece of its own colours, and the colour
    of every other piece. A player's legal actions are those of the position
    as it sees it (a hidden piece looks like an empty space); an action legal
    there but not in truth only reveals the pieces on its target (and source)
    and ends the turn. Chaos plays the true position.

    ``seen`` maps each occupied cell to the seats that fully saw its piece and
    moves with the piece."""

    def __init__(self, rs):
        r = rs.record
        self.cloak = r["cloaking"] if any(ph["cloaked"] for ph in r["phases"]) else "none"
        width, boards = r["board"]["size"][0], r.get("boards", 1)  # ttt-boards: every board's copy
        self.cloaked = [
            {(a[0] - 1 + b * width, a[1] - 1, a[2] - 1) for a in ph["cloaked"] for b in range(boards)}
            for ph in r["phases"]
        ]
        self.seen = {}
        self.plain = False  # a view: the plain rules, no cloaking
        self.last_attempt = False
        self.phase = 0
        super().__init__(rs)
        self.seen = {c: set() for c in self.board} | self.seen
        self.refresh()

    # who sees what --------------------------------------------------------------
    def is_chaos(self, s):
        return self.chaos and s == self.seats - 1

    def can_move(self, p, c):
        col = self.board.get(c)
        if col is None or self.move == "stationary" or self.phases[self.phase]["movement"] != "allowed":
            return False
        if p not in self.playing() or col not in self.owned[p] or self.reserve[col] > 0:
            return False
        if c in self.locked or c in self.phase_locked():
            return False
        if not self.may_exit(p, c) or self.board_of(c) in self.decided:
            return False  # ttt-boards: exit locked for p, or a decided board
        if self.gravity:
            t = self.xyz_target(c[0], c[1], 0)
            return self.top_cell(t) == c
        return True

    def fully_sees(self, p, c):
        if c not in self.board:
            return False
        if p in self.seen.get(c, set()) or c not in self.cloaked[self.phase]:
            return True
        if self.cloak == "obscures" and self.board[c] in self.owned[p]:
            return True
        return self.can_move(p, c)

    def sees_piece(self, p, c):
        return c in self.board and (self.cloak == "obscures" or self.fully_sees(p, c))

    def refresh(self):
        if self.cloak == "none":
            return
        for c in self.board:
            for p in range(self.seats):
                if self.fully_sees(p, c):
                    self.seen.setdefault(c, set()).add(p)

    def view(self, p):
        """Per cell (index x + X*(y + Y*z)) what p sees, as the engine's
        ``player_view`` spells it."""
        out = []
        for z in range(self.Z):
            for y in range(self.Y):
                for x in range(self.X):
                    c = (x, y, z)
                    if self.fully_sees(p, c):
                        out.append("xopy"[self.board[c]])
                    elif self.sees_piece(p, c):
                        out.append("XOPY"[self.board[c]])
                    else:
                        out.append(
                            "#"
                            if c in self.locked
                            or c in self.phase_locked()
                            or self.board_of(c) in getattr(self, "closed", self.decided)
                            else "."
                        )  # ttt-boards: boards decided in play lock
        return out

    def plain_copy(self, viewer=None):
        """A copy that plays the plain rules: the truth, or (viewer given) the
        position as the viewer sees it."""
        v = copy.copy(self)
        v.plain = True
        v.board = dict(self.board)
        v.reserve = list(self.reserve)
        if viewer is not None:
            v.board = {c: col for c, col in self.board.items() if self.sees_piece(viewer, c)}
        return v

    # rules -----------------------------------------------------------------------
    def seat_actions(self, s):
        if self.plain or self.cloak != "hides" or self.is_chaos(s):
            return super().seat_actions(s)
        return self.plain_copy(viewer=s).seat_actions(s)

    def _start_phase(self, k):
        self.refresh()
        self.phase = k
        self.refresh()
        super()._start_phase(k)

    def apply(self, a):
        self.last_attempt = False
        if self.plain or self.cloak == "none":
            return super().apply(a)
        actor = self.answerer if self.offer_by is not None else self.seat
        placing = self.offer_by is None and a < self.move0
        moving = (
            self.offer_by is None
            and not placing
            and self.move != "stationary"
            and a < self.move0 + self.T * self.T
        )
        if not (placing or moving):
            super().apply(a)
            return self.refresh()
        t = (a % self.T) if placing else (a - self.move0) % self.T
        f = None if placing else (a - self.move0) // self.T
        assert a in self.legal_actions(), (a, self.legal_actions())
        if self.cloak == "hides" and not self.is_chaos(actor):
            truth = self.plain_copy()
            looks = self.plain_copy(viewer=actor)
            if a not in truth.legal_actions() or (moving and truth.top_cell(f) != looks.top_cell(f)):
                self.last_attempt = True
                for target in [t] + ([f] if moving else []):
                    for c in self.board:
                        if self.xyz_target(c[0], c[1], 0 if self.gravity else c[2]) == target:
                            self.seen.setdefault(c, set()).add(actor)
                self.passes = 0
                self.plies += 1
                if self.limit and self.plies >= self.limit:
                    self._stalemate()
                else:
                    self._next_seat()
                return self.refresh()
        dest = self.landing(t)
        if placing:
            self.seen[dest] = {actor}
        else:
            self.seen[dest] = self.seen.pop(self.top_cell(f))
        super().apply(a)
        self.refresh()


# -- ttt-shapes: shapes, per-shape movement, goals (issue 12 items 1, 2, 7; issue 11's
# goal-reached stalemate), from docs/rules/ttt.md "Shapes, movement and goals" ----------

KNIGHT3 = [d for d in itertools.product((-2, -1, 0, 1, 2), repeat=3) if sorted(map(abs, d)) == [1, 1, 2]]
FORWARD_MOVES = ("forward-orthogonal", "forward-diagonal")


class ShapeRefState(RefState):
    """The reference model with shapes: every piece has a colour and a shape;
    reserves are per colour and shape; a placement names a shape (action
    ``(k*P + c)*T + t`` with k the shape's index among the rule set's shapes in
    the seed's rank order); each shape moves by its own rule; "cannot move
    backwards" is measured in rows from the mover's goal line, and a move of
    such a piece onto its goal line (from off it) must name a replacement
    shape (action ``rep0 + (r*T + f)*T + u``); "goal-reached-stalemate" makes
    a move onto the mover's goal line a stalemate. Pre-placed pieces may have
    any shape and any colour (a colour no seat owns is communal)."""

    def __init__(self, rs):
        import types

        from games.ttt.schema import GOAL_CHECK, SHAPES_ALL, goal_sides, needs_goals

        r = rs.record
        self._ready = False
        shim = dict(
            r,
            board=dict(r["board"], pieces=[]),
            shapes={"circle": {"move": "stationary", "power": "none"}},
            turn_checks=[c for c in r["turn_checks"] if c != GOAL_CHECK],
        )
        super().__init__(types.SimpleNamespace(record=shim))
        self._ready = True
        self.props = r["shapes"]
        self.names = [s for s in SHAPES_ALL if s in self.props]
        if not self.choose:
            self.colours += [
                c
                for c in PALETTE
                if c not in self.colours and any(q["colour"] == c for q in r["board"]["pieces"])
            ]
        self.board, self.shape = {}, {}
        for q in r["board"]["pieces"]:
            for w in self.copies(q["at"]):
                self.board[w] = self.colours.index(q["colour"])
                self.shape[w] = q["shape"]
        self.sres = [{s: r["reserves"].get(c, {}).get(s, 0) for s in self.names} for c in self.colours]
        self.reserve = [sum(d.values()) for d in self.sres]
        self.goals = goal_sides(r["players"], r["board"]["size"]) if needs_goals(r) else []
        self.goal_check = GOAL_CHECK in r["turn_checks"]
        self.replacers = [s for s in self.names if self.backwards(s)] if self.goals else []
        self.any_move = any(p["move"] != "stationary" for p in self.props.values()) and any(
            ph["movement"] == "allowed" for ph in self.phases
        )
        self.move = "moves" if self.any_move else "stationary"
        a = len(self.names) * self.P * self.T
        self.move0 = a
        if self.any_move:
            a += self.T * self.T
            self.rep0 = a
            a += len(self.replacers) * self.T * self.T
        if self.passing:
            self.a_pass, a = a, a + 1
        if self.agree:
            self.a_offer, self.a_agree, self.a_refuse, a = a, a + 1, a + 2, a + 3
        self.num_actions = a
        self._start_phase(0)

    def _start_phase(self, k):
        if self._ready:
            super()._start_phase(k)

    # shapes and goals --------------------------------------------------------
    def backwards(self, name):
        """A shape that moves, not only forward, and is not marked otherwise."""
        p = self.props[name]
        return (
            p["move"] != "stationary"
            and p["move"] not in FORWARD_MOVES
            and not p.get("cannot_move_backwards", False)
        )

    def goal_dist(self, s, t):
        """Rows from target t to seat s's goal line, or None (Chaos, no goals)."""
        if s >= self.n or s >= len(self.goals):
            return None
        axis, high = self.goals[s]
        x, y, _ = self.target_xyz(t)
        v, size = (x % self.bX, self.bX) if axis == 0 else (y, self.Y)
        return size - 1 - v if high else v

    def destinations(self, s, f, name):
        move = self.props[name]["move"]
        fx, fy, fz = self.target_xyz(f)
        goal = self.goals[s] if s < len(self.goals) else None
        if move in FORWARD_MOVES and goal is None:
            return set()
        dirs = [d for d in ALL_DIRS if not (self.gravity and d[2])]
        orth = [d for d in dirs if sum(map(abs, d)) == 1]
        diag = [d for d in dirs if sum(map(abs, d)) > 1]
        slide, jumps = False, []
        if move == "adjacent":
            steps = dirs
        elif move == "adjacent-orthogonal":
            steps = orth
        elif move == "adjacent-diagonal":
            steps = diag
        elif move == "adjacent-alquerque":
            steps = orth + (diag if (fx % self.bX + fy) % 2 == 0 else [])
        elif move in ("orthogonal", "diagonal", "linear", "linear-or-knight"):
            steps = {"orthogonal": orth, "diagonal": diag}.get(move, dirs)
            slide = True
            jumps = KNIGHT if move == "linear-or-knight" else []
        elif move in FORWARD_MOVES:
            toward = 1 if goal[1] else -1
            steps = [d for d in (orth if move == "forward-orthogonal" else diag) if d[goal[0]] == toward]
        elif move == "knight-2x1x0":
            steps, jumps = [], KNIGHT
        elif move == "knight-2x1x1":
            steps, jumps = [], KNIGHT3
        elif move == "adjacent-or-knight":  # ttt-cloakcap: the union of the two
            steps, jumps = dirs, KNIGHT
        else:
            steps = []
        out = set()
        here = (fx, fy, fz)
        for d in steps:
            k = 1
            while True:
                p = (fx + k * d[0], fy + k * d[1], fz + k * d[2])
                if not self.on_board(*p) or self.board_of(p) != self.board_of(here):
                    break
                out.add(self.xyz_target(*p))
                if not slide:
                    break
                k += 1
        for d in jumps:
            if self.gravity and d[2]:
                continue
            p = (fx + d[0], fy + d[1], fz + d[2])
            if self.on_board(*p) and self.board_of(p) == self.board_of(here):
                out.add(self.xyz_target(*p))
        out.discard(f)
        no_back = self.props[name]["move"] in FORWARD_MOVES or self.props[name].get("cannot_move_backwards")
        if no_back and goal is not None:
            out = {u for u in out if self.goal_dist(s, u) <= self.goal_dist(s, f)}
        return out

    def reaches(self, s, name, f, u):
        """A move that must name a replacement: the shape cannot move
        backwards and the piece arrives on the mover's goal line from off it."""
        if self.backwards(name) or self.props[name]["move"] == "stationary" or not self.replacers:
            return False
        d0, d1 = self.goal_dist(s, f), self.goal_dist(s, u)
        return d0 is not None and d0 > 0 and d1 == 0

    # moves -------------------------------------------------------------------
    def seat_actions(self, s):
        out = []
        phase = self.phases[self.phase]
        for k, name in enumerate(self.names):
            for ch in range(self.P):
                col = ch if self.choose else min(self.owned[s])
                if col not in self.owned[s] or self.sres[col][name] <= 0:
                    continue
                for t in range(self.T):
                    c = self.landing(t)
                    if c is not None and self.may_enter(s, c):
                        out.append((k * self.P + ch) * self.T + t)
        if self.any_move and phase["movement"] == "allowed":
            for f in range(self.T):
                name = self.movable_shape(s, f)
                if name is None:
                    continue
                for u in self.destinations(s, f, name):
                    c = self.landing(u)
                    if c is None or not self.may_enter(s, c):
                        continue
                    if self.reaches(s, name, f, u):
                        out += [self.rep0 + (r * self.T + f) * self.T + u for r in range(len(self.replacers))]
                    else:
                        out.append(self.move0 + f * self.T + u)
        if phase["pass"]:
            out.append(self.a_pass)
        return sorted(out)

    def apply(self, a):
        if self.offer_by is not None or a in (self.a_pass, self.a_offer):
            return super().apply(a)
        assert a in self.legal_actions(), (a, self.legal_actions())
        goal_reached = False
        if a < self.move0:
            k, rest = divmod(a, self.P * self.T)
            ch, t = divmod(rest, self.T)
            col = ch if self.choose else min(self.owned[self.seat])
            name = self.names[k]
            self.sres[col][name] -= 1
            self.reserve[col] -= 1
        else:
            if a < self.rep0:
                r, (f, t) = None, divmod(a - self.move0, self.T)
            else:
                r, rest = divmod(a - self.rep0, self.T * self.T)
                f, t = divmod(rest, self.T)
            src = self.top_cell(f)
            col, name = self.board.pop(src), self.shape.pop(src)
            if r is not None:
                name = self.replacers[r]
            d0, d1 = self.goal_dist(self.seat, f), self.goal_dist(self.seat, t)
            goal_reached = self.goal_check and d0 is not None and d0 > 0 and d1 == 0
        dest = self.landing(t)
        self.board[dest] = col
        self.shape[dest] = name
        return self.end_ply(dest, col, goal_reached)

    def movable_shape(self, s, f):
        """The shape of the top piece of target f that seat s may move, or None:
        unlocked, free to leave, on an undecided board, its own, and "cannot
        move a placed piece if [...] an identical piece in reserve"."""
        src = self.top_cell(f)
        if src is None or src not in self.board or src in self.phase_locked():
            return None
        if not self.may_exit(s, src) or self.board_of(src) in self.decided:
            return None
        col, name = self.board[src], self.shape[src]
        if col not in self.owned[s] or self.sres[col][name] > 0:
            return None
        return name

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
                    self._most_boards()
                    return True
                return False
            if self.overachievers:
                return bool(self._overachiever_check(effect))
            self.result = self._check_result(effect)
            return True
        return False

    def end_ply(self, stays, col, goal_reached):
        """The rest of a ply once the piece stays on ``stays`` (None: it did
        not, e.g. lost a cover): line checks, goal, length bound, next seat."""
        self.passes = 0
        self.plies += 1
        if stays is not None and self.line_checks([stays]):
            return
        if goal_reached and stays is not None:
            return self._stalemate_or_next_phase()
        if self.limit and self.plies >= self.limit:
            return self._stalemate()
        self.left -= 1
        if self.left == 0 or not self.has_move(self.seat):
            self._next_seat()

    # outcomes counting shapes ---------------------------------------------------
    def side_score(self, side, measure):
        from games.ttt.schema import measure_shape

        shape = measure_shape(measure)
        if shape is None:
            return super().side_score(side, measure)
        colours = self.side_colours(side)
        return sum(1 for c, col in self.board.items() if col in colours and self.shape[c] == shape)

    def _stalemate_general(self):
        for shape, limit in self.chaos_limits.items():
            if sum(1 for c in self.board if self.shape[c] == shape) > limit:
                self.result = [-1.0] * self.n  # "Chaos wins if total circles > 9"
                return
        saved = self.chaos_limits
        self.chaos_limits = {}
        try:
            super()._stalemate_general()
        finally:
            self.chaos_limits = saved


class CloakedShapeRefState(CloakedRefState, ShapeRefState):
    """Cloaking with shapes: "every piece they can move" is per shape, and
    under obscurity a piece not fully seen shows its colour but not its shape."""

    def can_move(self, p, c):
        col = self.board.get(c)
        if col is None or not self.any_move or self.phases[self.phase]["movement"] != "allowed":
            return False
        name = self.shape[c]
        if p not in self.playing() or col not in self.owned[p] or self.sres[col][name] > 0:
            return False
        if self.props[name]["move"] == "stationary":
            return False
        if c in self.locked or c in self.phase_locked():
            return False
        if not self.may_exit(p, c) or self.board_of(c) in self.decided:
            return False  # as CloakedRefState: exit locked for p, or a decided board
        if self.gravity:
            return self.top_cell(self.xyz_target(c[0], c[1], 0)) == c
        return True

    def shape_view(self, p):
        from games.ttt.schema import SHAPE_LETTERS

        out = []
        for z in range(self.Z):
            for y in range(self.Y):
                for x in range(self.X):
                    c = (x, y, z)
                    if self.fully_sees(p, c):
                        out.append(SHAPE_LETTERS[self.shape[c]])
                    elif self.sees_piece(p, c):
                        out.append("?")
                    else:
                        out.append(".")
        return out

    def plain_copy(self, viewer=None):
        v = super().plain_copy(viewer)
        v.sres = [dict(d) for d in self.sres]
        v.shape = dict(self.shape)
        return v


class CloakedSimRefState(CloakedRefState, SimRefState):
    """Cloaking inside simultaneous rounds (ttt-cloaksim), from docs/rules/ttt.md
    "Cloaking and overachievers in simultaneous rounds": every player plans on
    the start-of-round board as it sees it. When the round resolves, each plan
    is judged on the true start-of-round board: one that is illegal there
    (or, on stacks, a move whose true top piece its planner does not see) is
    an attempt, which reveals to its planner every piece on its target (and
    source) and does nothing else. The other plans resolve as in
    ``SimRefState``; a placed piece is seen by its placer, a moved piece keeps
    who has seen it, a destroyed piece is forgotten. Sequential phases play
    as in ``CloakedRefState``."""

    def __init__(self, rs):
        self.round_attempts = set()
        self.attempts = []  # the seats of every attempt so far, in order
        self.carried = {}  # seat -> who had seen the piece its move lifted
        super().__init__(rs)

    def apply(self, a):
        if self.result is not None or self.plans is None:
            actor = self.answerer if self.offer_by is not None else self.seat
            CloakedRefState.apply(self, a)
            self.attempts += [actor] if self.last_attempt else []
            return
        self.last_attempt = False
        SimRefState.apply(self, a)

    def _resolve(self):
        self.round_attempts = set()
        self.carried = {}
        if self.cloak == "hides":
            for s, a in self.plans.items():
                if a == self.a_pass or self.is_chaos(s):
                    continue
                truth, looks = self.plain_copy(), self.plain_copy(viewer=s)
                moving = a >= self.move0
                f = (a - self.move0) // self.T if moving else None
                if a not in truth.seat_actions(s) or (
                    moving and self.gravity and truth.top_cell(f) != looks.top_cell(f)
                ):
                    self.round_attempts.add(s)
            for s in self.round_attempts:
                a = self.plans[s]
                targets = (
                    {a % self.T}
                    if a < self.move0
                    else {(a - self.move0) % self.T, (a - self.move0) // self.T}
                )
                for c in self.board:
                    if self.xyz_target(c[0], c[1], 0 if self.gravity else c[2]) in targets:
                        self.seen.setdefault(c, set()).add(s)
        self.attempts += sorted(self.round_attempts)
        SimRefState._resolve(self)
        self.refresh()

    def _round_attempt(self, s):
        return s in self.round_attempts

    def _round_lift(self, movers, cell):
        seen = self.seen.pop(cell, set())
        for s in movers:
            self.carried[s] = seen

    def _round_land(self, s, dest):
        self.seen[dest] = set(self.carried.pop(s)) if s in self.carried else {s}


# -- ttt-stacks: moves "by stack" and "by full stack" (issue 12 item 6), from
# docs/rules/ttt.md "Stacks" ---------------------------------------------------------

BY_STACK = ("orth-by-stack", "orth-by-full-stack")


class StackRefState(ShapeRefState):
    """Shapes on stacks with the seed's "by stack" movers: an ``orth-by-stack``
    piece moves from any height and takes every piece above it along; an
    ``orth-by-full-stack`` piece moves only from the bottom of its stack
    (nothing under it but the floor or a locked cell), taking the whole
    stack. Both go any distance along x or y to a stack that has room for all
    of them; the carried pieces keep their order and land from that stack's
    lowest free height. Every carried cell must be free to leave for the
    mover, every landing cell free to enter; the reserves rule and "cannot
    move backwards" (with the replacement) look at the mover only. Action
    ``stk0 + (r1*S + c)*T + u``: c the mover's cell index x + X*(y + Y*z), r1 = 0,
    or the replacement shape's index + 1."""

    def __init__(self, rs):
        self._stacks_laid_out = False
        super().__init__(rs)
        self._stack_layout()

    def _stack_layout(self):
        """The by-stack ids after the replacement moves (once; the parent's
        constructor already asks for legal moves when the first phase starts)."""
        if self._stacks_laid_out or not getattr(self, "_ready", False):
            return
        self._stacks_laid_out = True
        self.S = self.X * self.Y * self.Z
        stacky = any(self.props[n]["move"] in BY_STACK for n in self.names)
        self.stk0 = self.rep0 + len(self.replacers) * self.T * self.T if self.any_move else None
        self.nstk = (1 + len(self.replacers)) * self.S * self.T if (stacky and self.any_move) else 0
        for name in ("a_pass", "a_offer", "a_agree", "a_refuse"):
            if getattr(self, name) is not None:
                setattr(self, name, getattr(self, name) + self.nstk)
        self.num_actions += self.nstk

    def cell_index(self, c):
        return c[0] + self.X * (c[1] + self.Y * c[2])

    def carried(self, s, c):
        """The cells that move when seat s moves the by-stack piece on cell c
        (c first), or None when it may not move."""
        if c not in self.board or self.board_of(c) in self.decided:
            return None
        col, name = self.board[c], self.shape[c]
        move = self.props[name]["move"]
        if move not in BY_STACK or col not in self.owned[s] or self.sres[col][name] > 0:
            return None
        x, y, z = c
        # the bottom: on the floor or a locked cell (a seat's view may show an
        # empty cell under the piece: a hidden piece, whose height shows)
        if move == "orth-by-full-stack" and z > 0 and (x, y, z - 1) not in self.locked:
            return None
        cells = [(x, y, h) for h in range(z, self.height(self.xyz_target(x, y, 0)))]
        for w in cells:
            if w in self.locked or w in self.phase_locked() or not self.may_exit(s, w):
                return None
        return cells

    def room(self, s, u, n):
        x, y, _ = self.target_xyz(u)
        h = self.height(u)
        if self.landing(u) is None or h + n > self.Z:
            return False
        return all(
            (x, y, h + j) not in self.phase_locked() and self.may_enter(s, (x, y, h + j)) for j in range(n)
        )

    def stack_moves(self, s):
        out = []
        if not self.nstk or self.phases[self.phase]["movement"] != "allowed":
            return out
        for c in sorted(self.board, key=self.cell_index):
            cells = self.carried(s, c)
            if cells is None:
                continue
            name = self.shape[c]
            f = self.xyz_target(c[0], c[1], 0)
            no_back = self.props[name].get("cannot_move_backwards") and s < len(self.goals)
            for d in ((1, 0), (-1, 0), (0, 1), (0, -1)):
                k = 1
                while True:
                    x, y = c[0] + k * d[0], c[1] + k * d[1]
                    if not (0 <= x < self.X and 0 <= y < self.Y) or self.board_of((x, y, 0)) != self.board_of(
                        c
                    ):
                        break
                    u = self.xyz_target(x, y, 0)
                    if self.room(s, u, len(cells)) and not (
                        no_back and self.goal_dist(s, u) > self.goal_dist(s, f)
                    ):
                        if self.reaches(s, name, f, u):
                            out += [
                                self.stk0 + ((r + 1) * self.S + self.cell_index(c)) * self.T + u
                                for r in range(len(self.replacers))
                            ]
                        else:
                            out.append(self.stk0 + self.cell_index(c) * self.T + u)
                    k += 1
        return out

    def seat_actions(self, s):
        self._stack_layout()
        if not getattr(self, "_stacks_laid_out", False):
            return super().seat_actions(s)
        return sorted(super().seat_actions(s) + self.stack_moves(s))

    def apply(self, a):
        if not (self.nstk and self.offer_by is None and self.stk0 <= a < self.stk0 + self.nstk):
            return super().apply(a)
        assert a in self.legal_actions(), (a, self.legal_actions())
        self._stack_move(a)

    def _stack_move(self, a):
        r1, rest = divmod(a - self.stk0, self.S * self.T)
        ci, u = divmod(rest, self.T)
        c = next(w for w in self.board if self.cell_index(w) == ci)
        f = self.xyz_target(c[0], c[1], 0)
        cells = self.carried(self.seat, c)
        lifted = [(self.board.pop(w), self.shape.pop(w)) for w in cells]
        if r1:
            lifted[0] = (lifted[0][0], self.replacers[r1 - 1])
        ux, uy, _ = self.target_xyz(u)
        h = self.height(u)
        landed = []
        for j, (col, name) in enumerate(lifted):
            self.board[(ux, uy, h + j)] = col
            self.shape[(ux, uy, h + j)] = name
            landed.append((ux, uy, h + j))
        d0, d1 = self.goal_dist(self.seat, f), self.goal_dist(self.seat, u)
        goal_reached = self.goal_check and d0 is not None and d0 > 0 and d1 == 0
        self.end_carry(landed, goal_reached)

    def end_carry(self, landed, goal_reached):
        """The end of a ply whose pieces landed on several cells of one stack
        (a by-stack move carries them): any of them may make a line."""
        self.passes = 0
        self.plies += 1
        if self.line_checks(landed):
            return
        if goal_reached:
            return self._stalemate_or_next_phase()
        if self.limit and self.plies >= self.limit:
            return self._stalemate()
        self.left -= 1
        if self.left == 0 or not self.has_move(self.seat):
            self._next_seat()


class CloakedStackRefState(CloakedRefState, StackRefState):
    """Cloaking with by-stack moves (docs/rules/ttt.md, "Stacks"): a seat sees
    a stack as high as its highest visible piece, so what a by-stack move
    carries and whether a destination has room are judged on that view
    ("appear"); a move that is not legal in truth, or whose source stack
    holds hidden pieces above the highest one the mover sees (it would carry
    pieces the mover does not know of), is an attempt that only reveals both
    stacks to the mover. A real move carries who saw each piece with it.
    A piece a seat may move by stack (from any height) is one it fully sees."""

    def can_move(self, p, c):
        col = self.board.get(c)
        if col is None or not self.any_move or self.phases[self.phase]["movement"] != "allowed":
            return False
        if p not in self.playing():
            return False
        name = self.shape[c]
        if self.props[name]["move"] in BY_STACK:
            return self.carried(p, c) is not None
        if col not in self.owned[p] or self.sres[col][name] > 0 or self.props[name]["move"] == "stationary":
            return False
        if c in self.locked or c in self.phase_locked() or not self.may_exit(p, c):
            return False
        if self.board_of(c) in self.decided:
            return False
        return self.top_cell(self.xyz_target(c[0], c[1], 0)) == c

    shape_view = CloakedShapeRefState.shape_view

    def plain_copy(self, viewer=None):
        v = super().plain_copy(viewer)
        v.sres = [dict(d) for d in self.sres]
        v.shape = dict(self.shape)
        return v

    def apply(self, a):
        stack_move = self.nstk and self.offer_by is None and self.stk0 <= a < self.stk0 + self.nstk
        if not stack_move:
            return super().apply(a)
        self.last_attempt = False
        if self.plain or self.cloak == "none":
            return StackRefState.apply(self, a)
        assert a in self.legal_actions(), (a, self.legal_actions())
        actor = self.seat
        ci, u = divmod((a - self.stk0) % (self.S * self.T), self.T)
        c = (ci % self.X, (ci // self.X) % self.Y, ci // (self.X * self.Y))
        f = self.xyz_target(c[0], c[1], 0)
        if self.cloak == "hides" and not self.is_chaos(actor):
            truth = self.plain_copy()
            looks = self.plain_copy(viewer=actor)
            if a not in truth.legal_actions() or truth.height(f) != looks.height(f):
                self.last_attempt = True
                for w in self.board:
                    if self.xyz_target(w[0], w[1], 0) in (u, f):
                        self.seen.setdefault(w, set()).add(actor)
                self.passes = 0
                self.plies += 1
                if self.limit and self.plies >= self.limit:
                    self._stalemate()
                else:
                    self._next_seat()
                return self.refresh()
        cells = self.carried(actor, c)
        ux, uy, _ = self.target_xyz(u)
        h = self.height(u)
        moved = [self.seen.pop(w, set()) for w in cells]
        for j, who in enumerate(moved):  # before the move: the next turn's views read them
            self.seen[(ux, uy, h + j)] = who
        self._stack_move(a)
        self.refresh()


# -- ttt-captures: powers, covers, results (issue 12 items 3-5) ------------------------
# Written from docs/rules/ttt.md, "Captures", not from the engine: its own rank
# table, its own reading of who is covered and of what each result does.
SEED_RANK = ["circle", "triangle", "x", "cross", "star", "pentagon"]


def seed_outranks(a, b):
    """ "Pentagon outranks star which outranks cross which outranks X which
    outranks triangle which outranks circle (but circle outranks pentagon and
    only pentagon)"."""
    if (a, b) == ("circle", "pentagon"):
        return True
    if (a, b) == ("pentagon", "circle"):
        return False
    return SEED_RANK.index(a) > SEED_RANK.index(b)


class CaptureRefState(ShapeRefState):
    """The shapes reference model with the seed's covers: a piece arriving on
    pieces of colours its mover does not own (a flat board's one piece, or
    every such piece of a stack above its highest locked cell) starts a
    conflict decided by rank; the captor's result removes, converts or
    reincarnates (x1, x2) the captives; "must capture" makes every
    non-capture illegal when a capture exists."""

    def power(self, name):
        return self.props[name]["power"]

    def level(self, name):
        """0 no power, 1 cover by rank, 2 any other capture."""
        p = self.props[name]
        if p["power"] == "none":
            return 0
        return 1 if p["condition"] == "cover-by-rank" else 2

    def fight(self, att, dfn):
        la, ld = self.level(att), self.level(dfn)
        if la == ld == 0:
            return "none"
        if la > ld:
            return "attacker"
        if ld > la:
            return "defender"
        if la == 2:
            return "attacker"
        if seed_outranks(att, dfn):
            return "attacker"
        if seed_outranks(dfn, att):
            return "defender"
        return "both"

    def stack_cells(self, t):
        """Stacks: the cells of target t above its highest locked cell, bottom first."""
        x, y, _ = self.target_xyz(t)
        base = max([z + 1 for z in range(self.Z) if (x, y, z) in self.locked], default=0)
        return [(x, y, z) for z in range(base, self.Z)]

    def covered(self, s, t):
        """The cells holding pieces a piece of seat s arriving on target t covers, top first."""
        if self.gravity:
            cells = [c for c in self.stack_cells(t) if c in self.board]
            return [c for c in reversed(cells) if self.board[c] not in self.owned[s]]
        c = self.target_xyz(t)
        return [c] if c in self.board and self.board[c] not in self.owned[s] else []

    def above(self, a, b):
        """Shape a ranks strictly above shape b in a capture."""
        la, lb = self.level(a), self.level(b)
        return la > lb if la != lb else (la == 1 and seed_outranks(a, b))

    def outcome(self, s, name, t):
        """("none"|"win"|"lose"|"mutual", cells involved); for "lose" the
        captors: "all players with the highest rank on the stack"."""
        fights = [(c, self.fight(name, self.shape[c])) for c in self.covered(s, t)]
        losers = [c for c, f in fights if f == "defender"]
        if losers:
            best = [c for c in losers if not any(self.above(self.shape[e], self.shape[c]) for e in losers)]
            return "lose", best or losers[:1]
        ties = [c for c, f in fights if f == "both"]
        if ties:
            return "mutual", ties
        wins = [c for c, f in fights if f == "attacker"]
        return ("win", wins) if wins else ("none", [])

    def flat_cover_ok(self, s, name, t):
        c = self.target_xyz(t)
        if (
            self.gravity
            or c not in self.board
            or c in self.phase_locked()
            or self.board_of(c) in self.decided
        ):
            return False
        if self.board[c] in self.owned[s] or not self.may_enter(s, c):
            return False
        return self.fight(name, self.shape[c]) != "none"

    def piece_of(self, s, a):
        """(shape, target) of the piece action a brings, or None."""
        if a in (self.a_pass, self.a_offer, self.a_agree, self.a_refuse):
            return None
        if a < self.move0:
            k, rest = divmod(a, self.P * self.T)
            return self.names[k], rest % self.T
        if not self.any_move:
            return None
        if a < self.rep0:
            f, t = divmod(a - self.move0, self.T)
        else:
            f, t = divmod((a - self.rep0) % (self.T * self.T), self.T)
        return self.shape[self.top_cell(f)], t

    def captures(self, s, a):
        got = self.piece_of(s, a)
        return got is not None and self.outcome(s, got[0], got[1])[0] == "win"

    pot = None

    def current_player(self):
        if self.pot is not None and self.result is None:
            return -1
        return super().current_player()

    def legal_actions(self):
        if self.pot is not None:
            return list(range(len(self.pot["captors"])))
        return super().legal_actions()

    def forcing_shape(self, s, a):
        """The shape whose power decides whether the capture of action ``a``
        forces: the moving or placed piece's."""
        return self.piece_of(s, a)[0]

    def captors(self, s, a):
        """goalforce: the capturing shapes of the captures action ``a``
        makes ([] when it captures nothing): one, forcing_shape's."""
        return [self.forcing_shape(s, a)] if self.captures(s, a) else []

    def forces(self, s, a):
        """ "Must capture": whether one of the captures of ``a`` is made by a
        must-capture shape (docs/rules/ttt.md, "Must capture")."""
        return any(self.power(n) == "must-capture" for n in self.captors(s, a))

    def seat_actions(self, s):
        if self.pot is not None:
            return list(range(len(self.pot["captors"])))
        out = set(super().seat_actions(s))
        phase = self.phases[self.phase]
        if not self.gravity:
            for k, name in enumerate(self.names):
                for ch in range(self.P):
                    col = ch if self.choose else min(self.owned[s])
                    if col not in self.owned[s] or self.sres[col][name] <= 0:
                        continue
                    out |= {
                        (k * self.P + ch) * self.T + t
                        for t in range(self.T)
                        if self.flat_cover_ok(s, name, t)
                    }
            if self.any_move and phase["movement"] == "allowed":
                for f in range(self.T):
                    name = self.movable_shape(s, f)
                    if name is None:
                        continue
                    for u in self.destinations(s, f, name):
                        if not self.flat_cover_ok(s, name, u):
                            continue
                        if self.reaches(s, name, f, u):
                            out |= {
                                self.rep0 + (r * self.T + f) * self.T + u for r in range(len(self.replacers))
                            }
                        else:
                            out.add(self.move0 + f * self.T + u)
        out = sorted(out)
        forced = any(self.forces(s, a) for a in out)
        if forced:  # "no non-capture is legal" (a pass is one)
            out = [a for a in out if self.captures(s, a)]
        return out

    def deal(self, start):
        """The pot round-robin from captor ``start``: each piece to the next
        captor, under its own result."""
        pot, self.pot = self.pot, None
        n = len(pot["captors"])
        for i in range(pot["pieces"]):
            col, shape = pot["captors"][(start + i) % n]
            result = self.props[shape]["result"]
            if result == "converts":
                cell = self.landing(pot["t"])
                self.board[cell], self.shape[cell] = col, pot["name"]
            elif result in ("reincarnates", "reincarnates-x2"):
                got = 2 if result == "reincarnates-x2" and pot["pieces"] == 1 else 1
                self.sres[col][pot["name"]] += got
                self.reserve[col] += got
        self.end_ply(None, None, False)

    def apply(self, a):
        if self.pot is not None:
            assert a in self.legal_actions()
            return self.deal(a)
        got = self.piece_of(self.seat, a) if self.offer_by is None else None
        if got is None or self.outcome(self.seat, got[0], got[1])[0] == "none":
            return super().apply(a)
        assert a in self.legal_actions(), (a, self.legal_actions())
        s = self.seat
        name, t = got
        goal_reached = False
        if a < self.move0:
            ch = (a % (self.P * self.T)) // self.T
            col = ch if self.choose else min(self.owned[s])
            self.sres[col][name] -= 1
            self.reserve[col] -= 1
            replace = None
        else:
            if a < self.rep0:
                replace, f = None, (a - self.move0) // self.T
            else:
                r, rest = divmod(a - self.rep0, self.T * self.T)
                replace, f = self.replacers[r], rest // self.T
            src = self.top_cell(f)
            col = self.board.pop(src)
            self.shape.pop(src)
            d0, d1 = self.goal_dist(s, f), self.goal_dist(s, t)
            goal_reached = self.goal_check and d0 is not None and d0 > 0 and d1 == 0
        stays = self.cover_land(s, name, col, t, replace)
        if self.pot is not None:
            return  # the ply ends when the pot is dealt
        self.end_ply(stays, col, goal_reached)

    def cover_land(self, s, name, col, t, replace=None):
        """A piece (shape ``name``, colour ``col``) of seat s arriving on
        target t as a cover; returns the cell where it stays as s's piece, or
        None. A pot split leaves ``self.pot`` set."""
        verdict, cells = self.outcome(s, name, t)
        stays = None  # the attacker's cell if it stays as the mover's piece

        def reincarnate(captor_col, captor_shape, captive_shape):
            n = {"reincarnates": 1, "reincarnates-x2": 2}.get(self.props[captor_shape]["result"], 0)
            self.sres[captor_col][captive_shape] += n
            self.reserve[captor_col] += n

        if not self.gravity:
            c = self.target_xyz(t)
            if verdict == "win":
                reincarnate(col, name, self.shape[c])
                self.board[c], self.shape[c] = col, replace or name
                stays = c
            elif verdict == "lose":
                reincarnate(self.board[c], self.shape[c], name)
            else:
                del self.board[c], self.shape[c]
        else:
            column = [(c, self.board[c], self.shape[c]) for c in self.stack_cells(t) if c in self.board]
            for c, _, _ in column:
                del self.board[c], self.shape[c]
            kept = []
            for c, pcol, pshape in column:
                if c in cells and verdict == "mutual":
                    continue
                if c in cells and verdict == "win":
                    result = self.props[name]["result"]
                    if result == "converts":
                        kept.append((col, pshape))
                    else:
                        reincarnate(col, name, pshape)
                    continue
                kept.append((pcol, pshape))
            if verdict == "win":
                kept.append((col, replace or name))
            elif verdict == "lose":
                firsts = {}
                for c in cells:
                    pcol, pshape = self.board_colour_before(column, c)
                    firsts.setdefault(pcol, pshape)
                splits = any(
                    p.get("result") in ("converts", "reincarnates", "reincarnates-x2")
                    for p in self.props.values()
                )
                if len(firsts) > 1 and splits:
                    captors = sorted(firsts.items())
                    doubled = all(self.props[sh]["result"] == "reincarnates-x2" for _, sh in captors)
                    self.pot = {"t": t, "name": name, "captors": captors, "pieces": 2 if doubled else 1}
                else:
                    captor_col, captor_shape = self.board_colour_before(column, cells[0])
                    if self.props[captor_shape]["result"] == "converts":
                        kept.append((captor_col, name))
                    else:
                        reincarnate(captor_col, captor_shape, name)
            cells_up = self.stack_cells(t)
            for i, (pcol, pshape) in enumerate(kept):
                self.board[cells_up[i]], self.shape[cells_up[i]] = pcol, pshape
            if verdict == "win":
                stays = cells_up[len(kept) - 1]
        return stays

    @staticmethod
    def board_colour_before(column, cell):
        for c, pcol, pshape in column:
            if c == cell:
                return pcol, pshape
        raise AssertionError(cell)


class CaptureSimRefState(SimRefState, CaptureRefState):
    """Simultaneous and single phases with shapes and captures (stationary
    shapes, placements only): every plan names a shape; per colour and shape
    an overdrawn shared reserve destroys the contested placements; a target
    that several plans send pieces to keeps the piece that ranks strictly
    above every other, a piece without power ranking lowest (it captures the
    others under its result), otherwise (a tie at the top) every piece sent
    there is destroyed; the piece that
    lands covers what the target holds as a sequential placement would."""

    def _start_phase(self, k):
        if getattr(self, "_ready", False):
            super()._start_phase(k)

    def arrive(self, s, name, col, t):
        if self.outcome(s, name, t)[0] == "none":
            dest = self.landing(t)
            self.board[dest], self.shape[dest] = col, name
            return dest
        return self.cover_land(s, name, col, t)

    def _resolve(self):
        plans, self.plans = self.plans, None
        self.plies += len(plans)
        sending = {}
        for s, a in plans.items():
            if a == self.a_pass:
                continue
            k, rest = divmod(a, self.P * self.T)
            ch, t = divmod(rest, self.T)
            col = ch if self.choose else min(self.owned[s])
            self.sres[col][self.names[k]] -= 1
            self.reserve[col] -= 1
            sending[s] = (t, col, self.names[k])
        for col in range(len(self.colours)):
            for name in self.names:
                if self.sres[col][name] < 0:  # overdrawn: emptied, none of those placed
                    self.reserve[col] -= self.sres[col][name]
                    self.sres[col][name] = 0
                    for s in [s for s in sending if sending[s][1:] == (col, name)]:
                        del sending[s]
        landed = []
        for t in sorted({t for t, _, _ in sending.values()}):
            senders = sorted(s for s in sending if sending[s][0] == t)
            winner = senders[0] if len(senders) == 1 else None
            if len(senders) > 1:  # ttt-collide: powerless colliders rank lowest
                tops = [
                    s
                    for s in senders
                    if all(self.above(sending[s][2], sending[o][2]) for o in senders if o != s)
                ]
                winner = tops[0] if tops else None
            if winner is None:
                continue  # every piece sent here is destroyed
            _, col, name = sending[winner]
            stays = self.arrive(winner, name, col, t)
            self.take_collided(senders, sending, winner, col, name, t)
            if stays is not None:
                landed.append((winner, stays, col))
        landed.sort()
        return self._round_end(plans, landed)

    def take_collided(self, senders, sending, winner, col, name, t):
        """The losers of a collision on t won by ``winner`` (colour col, shape
        name): reincarnated into its reserve, converted onto the landing
        space, or removed, by the winner's result."""
        result = self.props[name]["result"] if self.level(name) else None
        for o in senders:
            if o == winner:
                continue
            captive = sending[o][2]
            if result in ("reincarnates", "reincarnates-x2"):
                got = 1 if result == "reincarnates" else 2
                self.sres[col][captive] += got
                self.reserve[col] += got
            elif result == "converts" and self.gravity and self.landing(t) is not None:
                dest = self.landing(t)
                self.board[dest], self.shape[dest] = col, captive


# -- ttt-cloakcap: captures with cloaked spaces (invisibility, flat boards), from
# docs/rules/ttt.md "Captures with cloaked spaces" -------------------------------------


class CloakedCaptureRefState(CloakedShapeRefState, CaptureRefState):
    """Covers under invisibility: a player chooses from the position as it
    sees it (a hidden piece looks like an empty space), so "must capture"
    forces only the captures it sees; an action legal there is judged on the
    true position, where must-capture forces nothing (the forcing is about
    what the mover sees): illegal there, it is an attempt that only reveals;
    legal, it happens, a cover included. The mover then fully sees a
    defender that survived its cover ("every piece they have attempted to
    cover")."""

    unforced = False

    def power(self, name):
        p = super().power(name)
        return "can-capture" if self.unforced and p == "must-capture" else p

    def plain_copy(self, viewer=None):
        v = super().plain_copy(viewer)
        v.unforced = viewer is None  # the truth an attempt is judged on
        return v

    def apply(self, a):
        target, old, mover = None, set(), set()
        if not self.plain and self.cloak == "hides" and self.offer_by is None and self.pot is None:
            got = self.piece_of(self.seat, a)
            if got is not None and self.target_xyz(got[1]) in self.board:
                target = self.target_xyz(got[1])
                old = set(self.seen.get(target, set()))
                placing = a < self.move0
                mover = (
                    {self.seat} if placing else set(self.seen.get(self.top_cell(self.move_source(a)), set()))
                )
        actor = self.seat
        if self.is_replacement(a) and not self.plain and self.cloak != "none" and self.offer_by is None:
            self._replacement_move(a, cover=target is not None)
        else:
            super().apply(a)
        if target is not None and not self.last_attempt:
            self.seen.pop(None, None)  # (the plain landing of a cover is None)
            col = self.board.get(target)
            if col is None:
                self.seen.pop(target, None)  # both destroyed
            elif col not in self.owned[actor]:
                self.seen[target] = old | {actor}  # the defender stays, now seen by the mover
            else:
                self.seen[target] = mover  # the attacker's own: it captured
            self.refresh()

    def is_replacement(self, a):
        return (
            self.pot is None
            and self.any_move
            and bool(self.replacers)
            and self.rep0 <= a < self.rep0 + len(self.replacers) * self.T * self.T
        )

    def _replacement_move(self, a, cover):
        """CloakedRefState.apply for a move that reaches the goal and names its
        replacement (ids after the plain moves, which that method reads): an
        attempt when illegal in truth, else the move, its piece keeping who
        saw it."""
        assert a in self.legal_actions(), (a, self.legal_actions())
        actor, f, t = self.seat, self.move_source(a), (a - self.rep0) % self.T
        self.last_attempt = False
        if self.cloak == "hides" and not self.is_chaos(actor):
            truth, looks = self.plain_copy(), self.plain_copy(viewer=actor)
            if a not in truth.legal_actions() or truth.top_cell(f) != looks.top_cell(f):
                self.last_attempt = True
                for target in (t, f):
                    for c in self.board:
                        if self.xyz_target(c[0], c[1], 0 if self.gravity else c[2]) == target:
                            self.seen.setdefault(c, set()).add(actor)
                self.passes = 0
                self.plies += 1
                if self.limit and self.plies >= self.limit:
                    self._stalemate()
                else:
                    self._next_seat()
                return self.refresh()
        mover = self.seen.pop(self.top_cell(f), set())
        dest = None if cover else self.landing(t)
        super(CloakedRefState, self).apply(a)  # the plain rules (captures, shapes)
        if dest is not None:
            self.seen[dest] = mover
        self.refresh()

    def move_source(self, a):
        if a < self.rep0:
            return (a - self.move0) // self.T
        return ((a - self.rep0) % (self.T * self.T)) // self.T


# -- ttt-jumps: "Jump" and "Chain Jump" (issue 12 item 4), from docs/rules/ttt.md
# "Jumps" -- its own direction lists and its own reading of the continuation ------------

JUMP_CONDITIONS = ("jump", "chain-jump", "chain-jump-back")  # ttt-chainback: "+ back"
CHAIN_CONDITIONS = ("chain-jump", "chain-jump-back")  # ttt-chainback


class JumpRefState(CaptureRefState):
    """Captures with jumps on flat boards: a jumper (condition ``jump`` or
    ``chain-jump``, with a power) moves from f over the adjacent piece on f + d,
    of a colour its seat does not own, to the empty f + 2d, for each direction
    d its move steps along; the jumped piece is captured under the jumper's
    result whatever its rank, and a jumper never covers. After a chain-jumper's
    jump the same seat, while the piece (still a chain-jumper) can jump again,
    chooses one of its jumps or "end-chain" (the last action id; not offered
    to a piece that must capture)."""

    def __init__(self, rs):
        self.chain = None  # the chained piece's target while its continuation is pending
        self.a_stop = None
        super().__init__(rs)
        self.chains = any(
            p.get("power", "none") != "none" and p.get("condition") in CHAIN_CONDITIONS
            for p in self.props.values()
        )
        self.a_stop = None
        if self.chains:
            self.a_stop = self.num_actions
            self.num_actions += 1

    def jumper(self, name):
        p = self.props[name]
        return p.get("power", "none") != "none" and p.get("condition") in JUMP_CONDITIONS

    def jump_dirs(self, s, f, name):
        move = self.props[name]["move"]
        fx, fy, _ = self.target_xyz(f)
        orth = [d for d in ALL_DIRS if sum(map(abs, d)) == 1]
        diag = [d for d in ALL_DIRS if sum(map(abs, d)) > 1]
        if move in ("adjacent", "linear", "linear-or-knight"):
            return ALL_DIRS
        if move in ("adjacent-orthogonal", "orthogonal"):
            return orth
        if move in ("adjacent-diagonal", "diagonal"):
            return diag
        if move == "adjacent-alquerque":
            return orth + (diag if (fx % self.bX + fy) % 2 == 0 else [])
        if move in FORWARD_MOVES:
            if s >= len(self.goals):
                return []
            axis, high = self.goals[s]
            if jumps_back(self.props[name]):  # ttt-chainback: the mirror of each forward direction too
                return [d for d in (orth if move == "forward-orthogonal" else diag) if d[axis] != 0]
            return [
                d for d in (orth if move == "forward-orthogonal" else diag) if d[axis] == (1 if high else -1)
            ]
        return []

    def jumps(self, s, f, name):
        """{landing target: jumped cell} of the jumper ``name`` on target f."""
        out = {}
        here = self.target_xyz(f)
        for d in self.jump_dirs(s, f, name):
            m = tuple(a + b for a, b in zip(here, d))
            u = tuple(a + 2 * b for a, b in zip(here, d))
            if not (self.on_board(*m) and self.on_board(*u)):
                continue
            if self.board_of(m) != self.board_of(here) or self.board_of(u) != self.board_of(here):
                continue
            if (
                m not in self.board
                or self.board[m] in self.owned[s]
                or m in self.locked
                or m in self.phase_locked()
            ):
                continue
            t = self.xyz_target(*u)
            if self.landing(t) is None or not self.may_enter(s, self.landing(t)):
                continue
            no_back = self.props[name]["move"] in FORWARD_MOVES or self.props[name].get(
                "cannot_move_backwards"
            )
            no_back = no_back and not jumps_back(self.props[name])  # ttt-chainback
            if no_back and s < len(self.goals) and self.goal_dist(s, t) > self.goal_dist(s, f):
                continue
            out[t] = m
        return out

    def destinations(self, s, f, name):
        out = super().destinations(s, f, name)
        if self.jumper(name):
            out |= set(self.jumps(s, f, name))
        return out

    def flat_cover_ok(self, s, name, t):
        return not self.jumper(name) and super().flat_cover_ok(s, name, t)

    def decode_move(self, a):
        """(replacement index or None, f, u) of a move id."""
        if a < self.rep0:
            f, u = divmod(a - self.move0, self.T)
            return None, f, u
        r, rest = divmod(a - self.rep0, self.T * self.T)
        return r, rest // self.T, rest % self.T

    def jumped(self, s, a):
        """The cell the move ``a`` of seat s jumps, or None."""
        if not self.any_move or a < self.move0 or a >= self.rep0 + len(self.replacers) * self.T * self.T:
            return None
        _, f, u = self.decode_move(a)
        src = self.top_cell(f)
        if src not in self.board or not self.jumper(self.shape[src]):
            return None
        return self.jumps(s, f, self.shape[src]).get(u)

    def piece_of(self, s, a):
        if a == self.a_stop:
            return None
        return super().piece_of(s, a)

    def captures(self, s, a):
        got = self.piece_of(s, a)
        if got is not None and a >= self.move0 and self.jumper(got[0]):
            return self.jumped(s, a) is not None
        return super().captures(s, a)

    def continuation(self, s):
        t = self.chain
        name = self.movable_shape(s, t)
        out = []
        if name is not None:
            for u in sorted(self.jumps(s, t, name)):
                if self.reaches(s, name, t, u):
                    out += [self.rep0 + (r * self.T + t) * self.T + u for r in range(len(self.replacers))]
                else:
                    out.append(self.move0 + t * self.T + u)
        if not out or name is None or self.power(name) != "must-capture":
            out.append(self.a_stop)
        return sorted(out)

    def seat_actions(self, s):
        if self.chain is not None:
            return self.continuation(s)
        return super().seat_actions(s)

    def legal_actions(self):
        if self.chain is not None and self.result is None:
            return self.continuation(self.seat)
        return super().legal_actions()

    def apply(self, a):
        if self.chain is not None:
            assert a in self.legal_actions(), (a, self.legal_actions())
            self.chain = None
            if a == self.a_stop:  # the extra move declined: the turn goes on as after the jump
                self.left -= 1
                if self.left == 0 or not self.has_move(self.seat):
                    self._next_seat()
                return
            return self.jump(a)
        if self.offer_by is None and self.pot is None and self.jumped(self.seat, a) is not None:
            assert a in self.legal_actions(), (a, self.legal_actions())
            return self.jump(a)
        return super().apply(a)

    def surround_landing(self, c, col):
        """Jumps alone surround nothing (SurroundRefState takes the captives)."""

    def jump(self, a):
        s = self.seat
        r, f, u = self.decode_move(a)
        m = self.jumped(s, a)
        src = self.top_cell(f)
        col, name = self.board.pop(src), self.shape.pop(src)
        result = self.props[name]["result"]
        if result == "converts":
            self.board[m] = col
        else:
            captive = self.shape.pop(m)
            del self.board[m]
            got = {"reincarnates": 1, "reincarnates-x2": 2}.get(result, 0)
            self.sres[col][captive] += got
            self.reserve[col] += got
        landed = name if r is None else self.replacers[r]
        dest = self.target_xyz(u)
        self.board[dest], self.shape[dest] = col, landed
        self.surround_landing(dest, col)  # a jump is a move: the piece it lands as may surround
        d0, d1 = self.goal_dist(s, f), self.goal_dist(s, u)
        goal_reached = self.goal_check and d0 is not None and d0 > 0 and d1 == 0
        self.passes = 0
        self.plies += 1
        if self.line_checks([dest]):
            return
        if goal_reached:
            return self._stalemate_or_next_phase()
        if self.limit and self.plies >= self.limit:
            return self._stalemate()
        if (
            self.props[name]["condition"] in CHAIN_CONDITIONS
            and self.props[landed].get("condition") in CHAIN_CONDITIONS
            and self.props[landed].get("power", "none") != "none"
            and self.movable_shape(s, u) is not None
            and self.jumps(s, u, landed)
        ):
            self.chain = u
            return
        self.left -= 1
        if self.left == 0 or not self.has_move(self.seat):
            self._next_seat()


# -- ttt-jumps: powers of by-stack movers (issue 12 items 4, 6), from docs/rules/ttt.md
# "Powers of by-stack movers"; the hands come from the brute-force poker evaluator
# of tests/test_ttt_poker.py, not from the engine ------------------------------------------


class StackCaptureRefState(StackRefState, CaptureRefState):
    """Covers on stacks with by-stack movers: the carried pieces land on the
    destination stack, then the mover covers the pieces of other colours that
    were there (above its highest locked cell); the conflict is the covers'
    (classes, attacker wins between two highest-class pieces), except that two
    by-rank pieces compare their players' poker hands in the stack after the
    move (own and communal pieces, powerless shapes left out; a communal
    defender's player is nobody: the communal pieces alone)."""

    def hand(self, cols, board, shape, x, y):
        from test_ttt_poker import brute_force

        owned = set().union(*self.owned)
        counts = [0] * 6
        for z in range(self.Z):
            c = (x, y, z)
            if c not in board or self.power(shape[c]) == "none":
                continue
            if board[c] in cols or board[c] not in owned:
                counts[SEED_RANK.index(shape[c])] += 1
        return brute_force(counts)

    def owner_cols(self, col):
        return next((self.owned[s] for s in range(self.seats) if col in self.owned[s]), set())

    def stack_outcome(self, s, name, board, shape, x, y, h):
        """("none"|"win"|"lose"|"mutual", cells) of a mover ``name`` of seat s
        that landed at height h of stack (x, y) in ``board``/``shape``."""
        mine = self.hand(self.owned[s], board, shape, x, y)
        base = max([z + 1 for z in range(self.Z) if (x, y, z) in self.locked], default=0)
        covered = [
            (x, y, z)
            for z in reversed(range(base, h))
            if (x, y, z) in board and board[(x, y, z)] not in self.owned[s]
        ]

        def ranks_of(c):
            return self.hand(self.owner_cols(board[c]), board, shape, x, y)

        def fight(c):
            f = self.fight(name, shape[c])
            if self.level(name) == 1 and self.level(shape[c]) == 1:
                other = ranks_of(c)
                return "attacker" if mine > other else "defender" if other > mine else "both"
            return f

        def above(a, b):
            la, lb = self.level(shape[a]), self.level(shape[b])
            return la > lb if la != lb else (la == 1 and ranks_of(a) > ranks_of(b))

        fights = [(c, fight(c)) for c in covered]
        losers = [c for c, f in fights if f == "defender"]
        if losers:
            best = [c for c in losers if not any(above(e, c) for e in losers)]
            return "lose", best or losers[:1]
        ties = [c for c, f in fights if f == "both"]
        if ties:
            return "mutual", ties
        wins = [c for c, f in fights if f == "attacker"]
        return ("win", wins) if wins else ("none", [])

    def after_stack_move(self, s, a):
        """(board, shape, mover's landing cell, carried cells) after the by-stack
        move a lands, on copies; the mover keeps its shape (the replacement
        waits for the cover)."""
        r1, rest = divmod(a - self.stk0, self.S * self.T)
        ci, u = divmod(rest, self.T)
        c = next(w for w in self.board if self.cell_index(w) == ci)
        cells = self.carried(s, c)
        board, shape = dict(self.board), dict(self.shape)
        lifted = [(board.pop(w), shape.pop(w)) for w in cells]
        ux, uy, _ = self.target_xyz(u)
        h = self.height(u)
        for j, (col, name) in enumerate(lifted):
            board[(ux, uy, h + j)], shape[(ux, uy, h + j)] = col, name
        return board, shape, (ux, uy, h), len(cells)

    def is_stack_id(self, a):
        return bool(self.nstk) and self.offer_by is None and self.stk0 <= a < self.stk0 + self.nstk

    def piece_of(self, s, a):
        if self.is_stack_id(a):
            return None
        return super().piece_of(s, a)

    def captures(self, s, a):
        if self.is_stack_id(a):
            board, shape, (x, y, h), _ = self.after_stack_move(s, a)
            return self.stack_outcome(s, shape[(x, y, h)], board, shape, x, y, h)[0] == "win"
        return super().captures(s, a)

    def seat_actions(self, s):
        if self.pot is not None:
            return list(range(len(self.pot["captors"])))
        self._stack_layout()
        out = sorted(ShapeRefState.seat_actions(self, s) + self.stack_moves(s))
        forced = False
        for a in out:
            if not self.captures(s, a):
                continue
            if self.is_stack_id(a):
                _, shape, mover, _ = self.after_stack_move(s, a)
                name = shape[mover]
            else:
                name = self.piece_of(s, a)[0]
            if self.power(name) == "must-capture":
                forced = True
        if forced:
            out = [a for a in out if self.captures(s, a)]
        return out

    def apply(self, a):
        if self.pot is None and self.is_stack_id(a):
            assert a in self.legal_actions(), (a, self.legal_actions())
            return self._stack_cover(a)
        return CaptureRefState.apply(self, a)

    def _stack_cover(self, a):
        s = self.seat
        r1 = (a - self.stk0) // (self.S * self.T)
        u = (a - self.stk0) % self.T
        ci = ((a - self.stk0) // self.T) % self.S
        src = next(w for w in self.board if self.cell_index(w) == ci)
        f = self.xyz_target(src[0], src[1], 0)
        board, shape, mover, n = self.after_stack_move(s, a)
        x, y, h = mover
        name, col = shape[mover], board[mover]
        verdict, cells = self.stack_outcome(s, name, board, shape, x, y, h)
        self.board, self.shape = dict(board), dict(shape)  # board/shape stay as landed, for reading
        stays = mover if verdict in ("none", "win") else None
        if verdict != "none":
            column = [(c, board[c], shape[c]) for c in self.stack_cells(u) if c in board]
            for c, _, _ in column:
                del self.board[c], self.shape[c]
            kept, at = [], None

            def reincarnate(captor_col, captor_shape, captive_shape):
                got = {"reincarnates": 1, "reincarnates-x2": 2}.get(self.props[captor_shape]["result"], 0)
                self.sres[captor_col][captive_shape] += got
                self.reserve[captor_col] += got

            for c, pcol, pshape in column:
                if c == mover:
                    if verdict == "mutual":
                        continue
                    if verdict == "lose":
                        firsts = {}
                        for e in cells:
                            firsts.setdefault(board[e], shape[e])
                        splits = any(
                            p.get("result") in ("converts", "reincarnates", "reincarnates-x2")
                            for p in self.props.values()
                        )
                        if len(firsts) > 1 and splits:
                            captors = sorted(firsts.items())
                            doubled = all(self.props[sh]["result"] == "reincarnates-x2" for _, sh in captors)
                            self.pot = {
                                "t": u,
                                "name": name,
                                "captors": captors,
                                "pieces": 2 if doubled else 1,
                            }
                            continue
                        ccol, cshape = board[cells[0]], shape[cells[0]]
                        if self.props[cshape]["result"] == "converts":
                            kept.append((ccol, pshape))
                        else:
                            reincarnate(ccol, cshape, pshape)
                        continue
                    at = len(kept)
                elif c in cells and verdict == "mutual":
                    continue
                elif c in cells and verdict == "win":
                    if self.props[name]["result"] == "converts":
                        kept.append((col, pshape))
                    else:
                        reincarnate(col, name, pshape)
                    continue
                kept.append((pcol, pshape))
            up = self.stack_cells(u)
            for i, (pcol, pshape) in enumerate(kept):
                self.board[up[i]], self.shape[up[i]] = pcol, pshape
            stays = up[at] if at is not None else None
        if self.pot is not None:
            return  # the ply ends when the pot is dealt
        if stays is not None and r1:
            self.shape[stays] = self.replacers[r1 - 1]
        landed = [] if stays is None else [(stays[0], stays[1], stays[2] + j) for j in range(n)]
        d0, d1 = self.goal_dist(s, f), self.goal_dist(s, u)
        goal_reached = stays is not None and self.goal_check and d0 is not None and d0 > 0 and d1 == 0
        self.end_carry(landed, goal_reached)


# -- ttt-jumps: "Surround line" and "Surround orthogonal" (issue 12 item 4), from
# docs/rules/ttt.md "Surrounds" -----------------------------------------------------------


class SurroundRefState(JumpRefState):
    """Jumps and surrounds on flat boards: when a piece of a surrounding shape
    (with a power) arrives, by placement or move, the runs it closes along any
    line with another piece of its seat's colours (surround-line), or the
    one-colour orthogonal groups next to it left with no empty orthogonal
    neighbour and none of a third player's (surround-orthogonal; edges and
    locked spaces close a group), are captured under its result, before the
    ply's turn checks. Pieces on spaces locked for the phase are never taken
    (a group holding one stays)."""

    def surrounder(self, name):
        p = self.props[name]
        return p.get("power", "none") != "none" and p.get("condition") in (
            "surround-line",
            "surround-orthogonal",
        )

    def flat_cover_ok(self, s, name, t):
        return not self.surrounder(name) and super().flat_cover_ok(s, name, t)

    def takeable(self, s, c, board):
        return c in board and board[c] not in self.owned[s] and c not in self.phase_locked()

    def surrounded(self, s, c, board, shape):
        """The cells the surrounder on c (in ``board``/``shape``) captures."""
        name = shape[c]
        out = []
        if self.props[name]["condition"] == "surround-line":
            for d in ALL_DIRS:
                run, p = [], tuple(a + b for a, b in zip(c, d))
                while (
                    self.on_board(*p) and self.board_of(p) == self.board_of(c) and self.takeable(s, p, board)
                ):
                    run.append(p)
                    p = tuple(a + b for a, b in zip(p, d))
                if (
                    run
                    and self.on_board(*p)
                    and self.board_of(p) == self.board_of(c)
                    and p in board
                    and board[p] in self.owned[s]
                ):
                    out += run
            return out
        orth = [d for d in ALL_DIRS if sum(map(abs, d)) == 1]
        done = set()
        for d in orth:
            g = tuple(a + b for a, b in zip(c, d))
            if not self.on_board(*g) or self.board_of(g) != self.board_of(c) or g in done:
                continue
            if not self.takeable(s, g, board):
                continue
            group, todo, free = {g}, [g], False
            while todo:
                x = todo.pop()
                for e in orth:
                    y = tuple(a + b for a, b in zip(x, e))
                    if not self.on_board(*y) or self.board_of(y) != self.board_of(x) or y in self.locked:
                        continue
                    if y not in board:
                        free = True
                    elif board[y] == board[g]:
                        if y in self.phase_locked():
                            free = True
                        elif y not in group:
                            group.add(y)
                            todo.append(y)
                    elif board[y] not in self.owned[s]:
                        free = True
            done |= group
            if not free:
                out += sorted(group)
        return out

    def forcing_shape(self, s, a):
        """A move that reaches its goal surrounds with the replacement it
        lands as ("the shape it lands with", docs/rules/ttt.md, "Surrounds"),
        so a surrounding replacement's power decides whether that capture
        forces, as the engine's _cp_action_captures does."""
        name = self.piece_of(s, a)[0]
        if a >= self.move0 and a != self.a_pass and self.decode_move(a)[0] is not None:
            rep = self.replacers[self.decode_move(a)[0]]
            if self.surrounder(rep):
                return rep
        return name

    def goal_jumped(self, s, a):
        """The cell move ``a`` jumps (its captive), or None."""
        return self.jumped(s, a)

    def goal_parts(self, s, a):
        """goalforce (issue 12 item 3): for a move reaching its goal whose
        replacement surrounds, [(moving shape, its jump or cover captures),
        (replacement, its surround where it lands captures)] in the order
        the move applies them (the surround read after the jump; a cover the
        mover loses or ties lands nothing); None for other actions."""
        if (
            not self.any_move
            or not self.replacers
            or a == self.a_pass
            or a < self.rep0
            or a >= self.rep0 + len(self.replacers) * self.T * self.T
            or (hasattr(self, "is_stack_id") and self.is_stack_id(a))
        ):
            return None
        got = self.piece_of(s, a)
        if got is None:
            return None
        rep = self.replacers[self.decode_move(a)[0]]
        if not self.surrounder(rep):
            return None
        name, t = got
        m = self.goal_jumped(s, a)
        if m is None:
            verdict = self.outcome(s, name, t)[0]
            if verdict in ("lose", "mutual"):
                return [(name, False), (rep, False)]
        board, shape = dict(self.board), dict(self.shape)
        src = self.top_cell(self.decode_move(a)[1])
        col = board.pop(src)
        shape.pop(src)
        if m is not None:
            if self.props[name]["result"] == "converts":
                board[m] = col
            else:
                del board[m], shape[m]
        if self.gravity:
            x, y, _ = self.target_xyz(t)
            top = self._top_in(board, x, y)
            c = (x, y, 0 if top is None else top[2] + 1)
        else:
            c = self.target_xyz(t)
        board[c], shape[c] = col, rep
        return [(name, m is not None or verdict == "win"), (rep, bool(self.surrounded(s, c, board, shape)))]

    def captors(self, s, a):
        parts = self.goal_parts(s, a)
        if parts is None:
            return super().captors(s, a)
        return [n for n, hit in parts if hit]

    def captures(self, s, a):
        parts = self.goal_parts(s, a)
        if parts is not None:
            return any(hit for _, hit in parts)
        got = self.piece_of(s, a)
        if got is not None and a >= self.move0 and self.decode_move(a)[0] is not None:
            got = (self.replacers[self.decode_move(a)[0]], got[1])  # it surrounds as it lands
        if got is not None and self.surrounder(got[0]) and a != self.a_pass:
            name, t = got
            board, shape = dict(self.board), dict(self.shape)
            if a < self.move0:
                ch = (a % (self.P * self.T)) // self.T
                col = ch if self.choose else min(self.owned[s])
            else:
                _, f, _ = self.decode_move(a)
                src = self.top_cell(f)
                col = board.pop(src)
                shape.pop(src)
            c = self.target_xyz(t)
            board[c], shape[c] = col, name
            return bool(self.surrounded(s, c, board, shape))
        return super().captures(s, a)

    def surround_landing(self, stays, col):
        """The captives of the surrounding piece (of colour ``col``) that
        arrived on ``stays`` take its result."""
        if not self.surrounder(self.shape[stays]):
            return
        name = self.shape[stays]
        result = self.props[name]["result"]
        for c in self.surrounded(self.seat, stays, self.board, self.shape):
            if result == "converts":
                self.board[c] = col
                continue
            captive = self.shape.pop(c)
            del self.board[c]
            got = {"reincarnates": 1, "reincarnates-x2": 2}.get(result, 0)
            self.sres[col][captive] += got
            self.reserve[col] += got

    def end_ply(self, stays, col, goal_reached):
        if stays is not None:
            self.surround_landing(stays, col)
        return super().end_ply(stays, col, goal_reached)


# -- ttt-rounds: pot splits inside simultaneous and single rounds (issue 12 item 6 in
# rounds), from docs/rules/ttt.md "Pots inside rounds" ---------------------------------


class PotSimRefState(CaptureSimRefState):
    """Rounds whose covers leave pots: every plan of the round lands first (as
    in ``CaptureSimRefState``); then each pot the round left, in the order of
    its target, is a chance node that draws the captor starting the
    round-robin deal (uniform); after the last deal the round ends as any
    round (turn checks over the landed pieces, the move limit, the next round
    or the phase's stalemate). A converting captor's piece lands on its stack
    only while the stack has room."""

    round_tail = None  # (plans, landed, pots still to deal) while pots wait

    def arrive(self, s, name, col, t):
        stays = super().arrive(s, name, col, t)
        if self.pot is not None:  # a cover's pot: dealt after the whole round
            self.round_pots = getattr(self, "round_pots", []) + [self.pot]
            self.pot = None
        return stays

    def _round_end(self, plans, landed):
        pots = sorted(getattr(self, "round_pots", []), key=lambda pot: pot["t"])
        self.round_pots = []
        if pots:
            self.pot, self.round_tail = pots[0], (plans, landed, pots[1:])
            return
        return super()._round_end(plans, landed)

    def deal(self, start):
        if self.round_tail is None:
            return super().deal(start)
        pot, self.pot = self.pot, None
        n = len(pot["captors"])
        for i in range(pot["pieces"]):
            col, shape = pot["captors"][(start + i) % n]
            result = self.props[shape]["result"]
            if result == "converts" and self.landing(pot["t"]) is not None:
                cell = self.landing(pot["t"])
                self.board[cell], self.shape[cell] = col, pot["name"]
            elif result in ("reincarnates", "reincarnates-x2"):
                got = 2 if result == "reincarnates-x2" and pot["pieces"] == 1 else 1
                self.sres[col][pot["name"]] += got
                self.reserve[col] += got
        plans, landed, rest = self.round_tail
        if rest:
            self.pot, self.round_tail = rest[0], (plans, landed, rest[1:])
            return
        self.round_tail = None
        SimRefState._round_end(self, plans, landed)


# -- ttt-rounds: shapes that move inside simultaneous and single rounds, from
# docs/rules/ttt.md "Moving shapes inside rounds" ------------------------------------


class MoveSimRefState(PotSimRefState, StackRefState):
    """Rounds whose plans may move shapes: a plain move (its top piece), a move
    reaching the goal with its replacement shape, or a by-stack move (the mover
    and every piece above it). All moved pieces leave their stacks before any
    lands. Plans moving from one stack move nothing, and every piece that two
    of them would take is destroyed. A target that one plan sends pieces to
    gets them: a plain move's piece arrives as a placement would (covers
    included) and takes its replacement shape if it stays; a carried stack
    lands in order, its mover first (replaced if it reached its goal), with no
    cover. Several plans to one target: by rank, a piece without power
    ranking lowest; a tie at the top destroys all of them. Turn checks look at every
    landed piece (a carried stack's all), credited to the planner."""

    def _lifted(self, s, a):
        """(source target, lowest height it lifts, by_stack, replacement) of move plan a."""
        if self.nstk and a >= self.stk0:
            r1, rest = divmod(a - self.stk0, self.S * self.T)
            ci, u = divmod(rest, self.T)
            x, rem = ci % self.X, ci // self.X
            y, z = rem % self.Y, rem // self.Y
            return self.xyz_target(x, y, 0), z, u, True, (self.replacers[r1 - 1] if r1 else None)
        if a < self.rep0:
            r, (f, u) = None, divmod(a - self.move0, self.T)
        else:
            r, rest = divmod(a - self.rep0, self.T * self.T)
            f, u = divmod(rest, self.T)
        z = self.top_cell(f)[2]
        return f, z, u, False, (self.replacers[r] if r is not None else None)

    def _column(self, f):
        x, y, _ = self.target_xyz(f)
        if not self.gravity:
            return [(x, y, 0)] if (x, y, 0) in self.board else []
        return [(x, y, z) for z in range(self.Z) if (x, y, z) in self.board]

    def _resolve(self):
        plans, self.plans = self.plans, None
        self.plies += len(plans)
        sending = {}  # seat -> [target, colour, shape, carried pieces or None, replacement]
        lifts = {}  # seat -> (source target, lowest height)
        for s, a in sorted(plans.items()):
            if a == self.a_pass:
                continue
            if a < self.move0:
                k, rest = divmod(a, self.P * self.T)
                ch, t = divmod(rest, self.T)
                col = ch if self.choose else min(self.owned[s])
                self.sres[col][self.names[k]] -= 1
                self.reserve[col] -= 1
                sending[s] = [t, col, self.names[k], None, None]
            else:
                f, z, u, by_stack, replace = self._lifted(s, a)
                lifts[s] = (f, z)
                sending[s] = [u, None, None, [] if by_stack else None, replace]
        for col in range(len(self.colours)):
            for name in self.names:
                if self.sres[col][name] < 0:  # overdrawn: emptied, none of those placed
                    self.reserve[col] -= self.sres[col][name]
                    self.sres[col][name] = 0
                    for s in [s for s in sending if s not in lifts and sending[s][1:3] == [col, name]]:
                        del sending[s]
        for f in sorted({f for f, _ in lifts.values()}):
            movers = [s for s in lifts if lifts[s][0] == f]
            low = max(lifts[s][1] for s in movers)
            taken = [w for w in self._column(f) if w[2] >= low]
            pieces = [(self.board.pop(w), self.shape.pop(w)) for w in taken]
            if len(movers) > 1:
                for s in movers:  # contested: destroyed, nobody moves
                    del sending[s]
                continue
            s = movers[0]
            sending[s][1], sending[s][2] = pieces[0]
            if sending[s][3] is not None:
                sending[s][3] = pieces
        landed = []
        for t in sorted({v[0] for v in sending.values()}):
            senders = sorted(s for s in sending if sending[s][0] == t)
            winner = senders[0] if len(senders) == 1 else None
            if len(senders) > 1:  # ttt-collide: powerless colliders rank lowest
                tops = [
                    s
                    for s in senders
                    if all(self.above(sending[s][2], sending[o][2]) for o in senders if o != s)
                ]
                winner = tops[0] if tops else None
            if winner is None:
                continue  # every piece sent here is destroyed
            _, col, name, carried, replace = sending[winner]
            if carried is not None:  # a carried stack: lands in order, no cover
                x, y, _ = self.target_xyz(t)
                h = self.height(t)
                for j, (pcol, pname) in enumerate(carried):
                    w = (x, y, h + j)
                    self.board[w], self.shape[w] = pcol, (replace if j == 0 and replace else pname)
                    landed.append((winner, w, pcol))
                continue
            stays = self.arrive(winner, name, col, t)
            if stays is not None and replace:
                self.shape[stays] = replace
            self.take_collided(senders, sending, winner, col, name, t)
            if stays is not None:
                landed.append((winner, stays, col))
        landed.sort()
        return self._round_end(plans, landed)


# -- kbeauty: hidden turns (``cloaking_hides_turns``; docs/rules/ttt.md, "Hidden turns") --
# An independent account of what a player knows when another seat's unseen turn leaves
# no trace, built on CloakedRefState's views rather than on the engine's event log: a
# player knows its own actions (and whether each only revealed), the actions of others
# whose placed piece it saw land, every action that is not a placement (passes, offers:
# public), the phase after each of these, and what it sees now with its own reserves.


def hidden_turns_step(ref, a):
    """Apply action ``a`` to the CloakedRefState ``ref``; the step's record
    (actor, action, placement?, attempt?, seats that saw the placed piece,
    phase after)."""
    actor = ref.answerer if ref.offer_by is not None else ref.seat
    placing = ref.offer_by is None and a < ref.move0
    dest = ref.landing(a % ref.T) if placing else None
    ref.apply(a)
    saw = frozenset(
        p
        for p in range(ref.seats)
        if placing and not ref.last_attempt and dest is not None and ref.sees_piece(p, dest)
    )
    return actor, a, placing, ref.last_attempt, saw, ref.phase


def hidden_turns_key(ref, trace, p):
    """What player ``p`` knows after the steps ``trace`` (``hidden_turns_step``'s
    records) with the position ``ref`` they reached, under hidden turns."""
    known = []
    for actor, a, placing, attempt, saw, phase in trace:
        if actor == p:
            known.append(("own", a, attempt, phase))
        elif not placing:
            known.append(("public", actor, a, phase))
        elif p in saw:
            known.append(("seen", actor, a, phase))
    mine = tuple(ref.reserve[c] for c in sorted(ref.owned[p]))
    return tuple(known), tuple(ref.view(p)), ref.current_player(), ref.phase, mine


# -- ttt-potshow: the whole-stack pot showdown of by-stack covers (issue 12 item 6), from
# docs/rules/ttt.md "The pot showdown of by-stack covers" -------------------------------------
import functools  # noqa: E402 (this section's own import, kept with it for the merge)


@functools.cache
def hand_pieces(counts):
    """The pieces (per shape, SEED_RANK order) that make the hand of ``counts``:
    the smallest sub-multiset whose brute-force rank is the whole one's (so
    written apart from the engine's ``poker.hand_uses`` table)."""
    from test_ttt_poker import brute_force

    full = brute_force(list(counts))
    best = (0,) * 6
    for sub in itertools.product(*[range(c + 1) for c in counts]):
        if 0 < sum(sub) <= 5 and brute_force(list(sub)) == full and (sum(best) == 0 or sum(sub) < sum(best)):
            best = sub
    return best


class PotShowdownRefState(StackCaptureRefState):
    """By-stack covers whose mover's power converts or reincarnates: the
    showdown. Every seat with a non-chip piece of its own in the destination
    stack shows its poker hand (own and communal non-chip pieces); the seats
    with the highest are the captors; each keeps its own pieces that make its
    hand (lowest first); the rest of the stack above its lock is the pot,
    dealt highest rank first (non-chips, the shape, the topmost), round-robin
    from a chance-drawn captor (seat order), each captor under its piece's
    result (the mover for the mover's seat, else its topmost own powered
    piece); all-x2 captors double the pot (two deals per piece)."""

    def _column(self, x, y):
        return [(x, y, z) for z in range(self.Z) if (x, y, z) in self.board]

    def _counts(self, s, x, y):
        owned = set().union(*self.owned)
        counts = [0] * 6
        for c in self._column(x, y):
            if self.power(self.shape[c]) != "none" and (
                self.board[c] in self.owned[s] or self.board[c] not in owned
            ):
                counts[SEED_RANK.index(self.shape[c])] += 1
        return tuple(counts)

    def showdown_applies(self, s, name, board, x, y, h, shape=None):
        p = self.props[name]
        if p["power"] == "none" or p["result"] not in ("converts", "reincarnates", "reincarnates-x2"):
            return pg_captured_showdown(self, s, name, board, shape, x, y, h)  # ttt-pgshow
        base = max([z + 1 for z in range(self.Z) if (x, y, z) in self.locked], default=0)
        return any((x, y, z) in board and board[(x, y, z)] not in self.owned[s] for z in range(base, h))

    def plan(self, x, y):
        """(captor seats, kept cells, pot cells in dealing order) on self.board."""
        from test_ttt_poker import brute_force

        column = self._column(x, y)
        base = max([z + 1 for z in range(self.Z) if (x, y, z) in self.locked], default=0)
        reach = [c for c in column if c[2] >= base]
        shows = [
            s
            for s in range(self.seats)
            if any(self.board[c] in self.owned[s] and self.power(self.shape[c]) != "none" for c in column)
        ]
        hands = {s: brute_force(list(self._counts(s, x, y))) for s in shows}
        best = max(hands.values())
        captors = [s for s in shows if hands[s] == best]
        kept = set()
        for s in captors:
            need = list(hand_pieces(self._counts(s, x, y)))
            for c in reach:
                i = SEED_RANK.index(self.shape[c])
                if c not in kept and self.board[c] in self.owned[s] and need[i] > 0:
                    kept.add(c)
                    need[i] -= 1
        pot = sorted(
            (c for c in reach if c not in kept),
            reverse=True,
            key=lambda c: (self.power(self.shape[c]) != "none", SEED_RANK.index(self.shape[c]), c[2]),
        )
        return captors, kept, pot

    def captor_piece(self, s, mover, x, y):
        if (
            mover is not None
            and self.board.get(mover) in self.owned[s]
            and self.power(self.shape[mover]) != "none"
        ):  # ttt-pgshow: not a powerless mover
            return self.board[mover], self.shape[mover]
        base = max([z + 1 for z in range(self.Z) if (x, y, z) in self.locked], default=0)
        column = self._column(x, y)
        for cells in ([c for c in column if c[2] >= base], column):
            for c in reversed(cells):
                if self.board[c] in self.owned[s] and self.power(self.shape[c]) != "none":
                    return self.board[c], self.shape[c]
        raise AssertionError("a captor shows a hand of its own pieces")

    def deal_showdown(self, x, y, start, pieces, mover):
        """Deal the pot from captor ``start``; the mover's new cell if it stays
        as its seat's piece, else None."""
        _, _, pot = self.plan(x, y)
        n = len(pieces)
        results = [self.props[sh]["result"] for _, sh in pieces]
        units = 2 if all(r == "reincarnates-x2" for r in results) else 1
        colour = {c: self.board[c] for c in self._column(x, y)}
        for i, c in enumerate(pot):
            for d in range(units):
                j = (start + i * units + d) % n
                col, result = pieces[j][0], results[j]
                if result == "converts":
                    colour[c] = col
                    continue
                colour[c] = None
                if result in ("reincarnates", "reincarnates-x2"):
                    got = 2 if result == "reincarnates-x2" and units == 1 else 1
                    self.sres[col][self.shape[c]] += got
                    self.reserve[col] += got
        base = max([z + 1 for z in range(self.Z) if (x, y, z) in self.locked], default=0)
        survivors = [(colour[c], self.shape[c], c == mover) for c in self._column(x, y) if c[2] >= base]
        for c in self._column(x, y):
            if c[2] >= base:
                del self.board[c], self.shape[c]
        stays = None
        for i, (col, name, was_mover) in enumerate([v for v in survivors if v[0] is not None]):
            cell = (x, y, base + i)
            self.board[cell], self.shape[cell] = col, name
            if was_mover and col in self.owned[self.seat]:
                stays = cell
        return stays

    def captures(self, s, a):
        if self.is_stack_id(a):
            board, shape, (x, y, h), _ = self.after_stack_move(s, a)
            if self.showdown_applies(s, shape[(x, y, h)], board, x, y, h, shape=shape):
                saved = self.board, self.shape
                self.board, self.shape = board, shape
                try:
                    return s in self.plan(x, y)[0]
                finally:
                    self.board, self.shape = saved
        return super().captures(s, a)

    def _stack_cover(self, a):
        s = self.seat
        board, shape, mover, n = self.after_stack_move(s, a)
        x, y, h = mover
        if not self.showdown_applies(s, shape[mover], board, x, y, h, shape=shape):
            return StackCaptureRefState._stack_cover(self, a)  # named: StackCoverSimRefState borrows this
        r1 = (a - self.stk0) // (self.S * self.T)
        u = (a - self.stk0) % self.T
        ci = ((a - self.stk0) // self.T) % self.S
        src = next(w for w in self.board if self.cell_index(w) == ci)
        f = self.xyz_target(src[0], src[1], 0)
        self.board, self.shape = dict(board), dict(shape)
        captors, _, pot = self.plan(x, y)
        pieces = [self.captor_piece(c, mover, x, y) for c in captors]
        if len(captors) > 1:
            doubled = all(self.props[sh]["result"] == "reincarnates-x2" for _, sh in pieces)
            self.pot = {
                "showdown": (x, y),
                "t": u,
                "captors": pieces,
                "pieces": len(pot) * (2 if doubled else 1),
            }
            return  # the ply ends when the pot is dealt
        stays = self.deal_showdown(x, y, 0, pieces, mover)
        if stays is not None and r1:
            self.shape[stays] = self.replacers[r1 - 1]
        landed = [] if stays is None else [c for c in self._column(x, y) if c[2] >= stays[2]]
        d0, d1 = self.goal_dist(s, f), self.goal_dist(s, u)
        goal_reached = stays is not None and self.goal_check and d0 is not None and d0 > 0 and d1 == 0
        self.end_carry(landed, goal_reached)

    def deal(self, start):
        if not self.pot.get("showdown"):
            return super().deal(start)
        pot, self.pot = self.pot, None
        self.deal_showdown(*pot["showdown"], start, pot["captors"], None)
        self.end_ply(None, None, False)


# -- ttt-cloakcap2: reincarnation with cloaked spaces, from docs/rules/ttt.md
# "Captures with cloaked spaces", "Reincarnation": the reserves are public, so a
# cover's reincarnation is told to everyone (colour and count), its shape to the
# players of the captor's colour ----------------------------------------------------


class CloakedReincRefState(CloakedCaptureRefState):
    """CloakedCaptureRefState that also keeps, for the last ply, what a cover
    put into a reserve (``gain``: colour index, count, shape name, or None),
    read off its own reserves around the cover itself, and the text each
    player reads of it."""

    gain = None

    def apply(self, a):
        self.gain = None
        super().apply(a)

    def cover_land(self, s, name, col, t, replace=None):
        before = [dict(d) for d in self.sres]
        out = super().cover_land(s, name, col, t, replace)
        grown = [
            (c, self.sres[c][k] - before[c][k], k)
            for c in range(len(self.sres))
            for k in self.sres[c]
            if self.sres[c][k] > before[c][k]
        ]
        assert len(grown) <= 1, grown  # one captor, one captive on a flat board
        if grown:
            self.gain = grown[0]
        return out

    def gain_text(self, p):
        """The event's reincarnation as player p reads it ('' if none)."""
        if self.gain is None:
            return ""
        c, n, name = self.gain
        shape = f" {name}" if c in self.owned[p] else ""
        return f"; {self.colours[c]}'s reserve gains {n}{shape} (reincarnated)"


class CloakedObscureRefState(CloakedReincRefState):
    """Covers under obscurity (docs/rules/ttt.md, "Captures with cloaked
    spaces", "Obscurity"): a player's actions are the true rules' without
    "must capture", where a cover on a piece it sees by colour only is
    offered whenever the rest of a cover's conditions hold (that piece could
    be a shape with a power); "must capture" then keeps only the captures it
    sees (onto a piece it fully sees, or by a shape whose level is 2: it
    beats every shape). An action the true rules (without forcing) refuse is
    an attempt that reveals the pieces on its target and source."""

    shape_hidden = frozenset()  # in a player's view copy: cells whose shape it does not see

    def seat_actions(self, s):
        if not self.plain and self.cloak == "obscures" and not self.is_chaos(s) and self.pot is None:
            v = self.plain_copy()
            v.unforced = False  # forcing stays, on visible captures (captures below)
            v.shape_hidden = frozenset(c for c in self.board if not self.fully_sees(s, c))
            return v.seat_actions(s)
        return super().seat_actions(s)

    def flat_cover_ok(self, s, name, t):
        c = self.target_xyz(t)
        if c in self.shape_hidden and c in self.board and self.board[c] not in self.owned[s]:
            return (
                c not in self.phase_locked() and self.board_of(c) not in self.decided and self.may_enter(s, c)
            )
        return super().flat_cover_ok(s, name, t)

    def captures(self, s, a):
        if not super().captures(s, a):
            return False
        parts = self.goal_parts(s, a) if hasattr(self, "goal_parts") else None
        names = [self.forcing_shape(s, a)] if parts is None else [n for n, hit in parts if hit]
        return any(self.sees_capture(s, a, n) for n in names)  # goalforce: each capture by its shape

    def sees_capture(self, s, a, name):
        """Whether seat s sees that the capture of ``a`` by shape ``name`` (the
        capturing shape: a cover's the one that moved, a surround's the one
        that lands; cloak-shape-seen) will capture."""
        t = self.piece_of(s, a)[1]
        return self.target_xyz(t) not in self.shape_hidden or self.level(name) == 2

    def captors(self, s, a):
        return [n for n in super().captors(s, a) if self.sees_capture(s, a, n)]

    def apply(self, a):
        if (
            self.plain
            or self.cloak != "obscures"
            or self.offer_by is not None
            or self.pot is not None
            or self.is_chaos(self.seat)
        ):
            return super().apply(a)
        got = self.piece_of(self.seat, a)
        if got is None:
            return super().apply(a)
        assert a in self.legal_actions(), (a, self.legal_actions())
        actor, target = self.seat, self.target_xyz(got[1])
        truth = self.plain_copy()  # unforced: the attempt test asks only if it is possible
        if a not in truth.legal_actions():
            self.gain = None
            self.last_attempt = True
            cells = [target] + ([self.top_cell(self.move_source(a))] if a >= self.move0 else [])
            for c in cells:
                if c in self.board:
                    self.seen.setdefault(c, set()).add(actor)
            self.passes = 0
            self.plies += 1
            if self.limit and self.plies >= self.limit:
                self._stalemate()
            else:
                self._next_seat()
            return self.refresh()
        covering = target in self.board
        old = set(self.seen.get(target, set()))
        mover = {actor} if a < self.move0 else set(self.seen.get(self.top_cell(self.move_source(a)), set()))
        super().apply(a)
        if covering:
            self.seen.pop(None, None)
            col = self.board.get(target)
            if col is None:
                self.seen.pop(target, None)
            elif col not in self.owned[actor]:
                self.seen[target] = old | {actor}
            else:
                self.seen[target] = mover
            self.refresh()


# -- ttt-rounds3: by-stack plans onto pieces that capture, inside simultaneous and
# single rounds, from docs/rules/ttt.md "By-stack covers inside rounds" ----------------


class StackCoverSimRefState(MoveSimRefState):
    """Rounds whose by-stack plans arrive on pieces that capture. A target
    that one by-stack plan sends its pieces to gets them in order (the mover
    in the shape it moved with), then the mover covers the pieces of other
    colours that were there as a sequential by-stack move does (classes; two
    by-rank pieces compare their players' poker hands in the stack; the pot
    waits for the round's end); the mover takes its replacement only if it
    stays. Several plans to one target with a by-stack plan among them: the
    winner ranks strictly above every other by class (no power lowest), or (two by-rank pieces) by its player's hand in the stack holding
    every collider's pieces; it lands and covers as above, then captures the
    losing movers by its result; what a loser carried is destroyed. (The
    methods on the hands and the stack's verdict are StackCaptureRefState's:
    its bases and MoveSimRefState's order StackRefState and CaptureRefState
    differently, so they are borrowed, not inherited.)"""

    hand = StackCaptureRefState.hand
    owner_cols = StackCaptureRefState.owner_cols
    stack_outcome = StackCaptureRefState.stack_outcome
    after_stack_move = StackCaptureRefState.after_stack_move
    is_stack_id = StackCaptureRefState.is_stack_id

    # ttt-potrounds: the pot showdown (PotShowdownRefState's, borrowed) in rounds and
    # in the sequential phases of rule sets with rounds
    plan = PotShowdownRefState.plan
    captor_piece = PotShowdownRefState.captor_piece
    deal_showdown = PotShowdownRefState.deal_showdown
    showdown_applies = PotShowdownRefState.showdown_applies
    _counts = PotShowdownRefState._counts

    def _column(self, *args):
        """(x, y): PotShowdownRefState's stack column; (f): MoveSimRefState's."""
        if len(args) == 2:
            return PotShowdownRefState._column(self, *args)
        return MoveSimRefState._column(self, *args)

    def captures(self, s, a):
        if self.is_stack_id(a):
            board, shape, (x, y, h), _ = self.after_stack_move(s, a)
            if self.showdown_applies(s, shape[(x, y, h)], board, x, y, h, shape=shape):
                saved = self.board, self.shape
                self.board, self.shape = board, shape
                try:
                    return s in self.plan(x, y)[0]
                finally:
                    self.board, self.shape = saved
            return self.stack_outcome(s, shape[(x, y, h)], board, shape, x, y, h)[0] == "win"
        return super().captures(s, a)

    def apply(self, a):
        if self.result is None and self.plans is None and self.pot is None and self.is_stack_id(a):
            assert a in self.legal_actions(), (a, self.legal_actions())
            return PotShowdownRefState._stack_cover(self, a)  # a sequential phase's by-stack cover
        return super().apply(a)

    def deal(self, start):
        if not self.pot.get("showdown"):
            return super().deal(start)
        pot, self.pot = self.pot, None
        self.deal_showdown(*pot["showdown"], start, pot["captors"], None)
        if self.round_tail is None:
            return self.end_ply(None, None, False)  # a sequential ply's showdown
        plans, landed, rest = self.round_tail  # a round's: its next pot, or its end
        if rest:
            self.pot, self.round_tail = rest[0], (plans, landed, rest[1:])
            return
        self.round_tail = None
        SimRefState._round_end(self, plans, landed)

    collided = None  # (senders, sending, t) of the collision being resolved
    taken_first = None  # t whose losers the showdown's winner already took

    def _collision_winner(self, senders, sending, t):
        winner = self._collision_winner_by_rank(senders, sending, t)
        self.collided = (senders, sending, t) if winner is not None else None
        return winner

    def take_collided(self, senders, sending, winner, col, name, t):
        self.collided = None  # called once per target resolved: the next starts afresh
        if self.taken_first == t:
            self.taken_first = None
            return
        super().take_collided(senders, sending, winner, col, name, t)

    def _stack_land(self, s, t, carried, replace):
        """ttt-potrounds: a mover that goes to the showdown first takes the
        collision's losers (converted ones onto the stack), then the showdown
        over the stack; several captors: its pot waits for the round's end."""
        x, y, _ = self.target_xyz(t)
        h = self.height(t)
        board, shape = dict(self.board), dict(self.shape)
        for j, (pcol, pname) in enumerate(carried):
            board[(x, y, h + j)], shape[(x, y, h + j)] = pcol, pname
        col, name = carried[0]
        if not self.showdown_applies(s, name, board, x, y, h, shape=shape):
            return self._stack_land_duel(s, t, carried, replace)
        self.board, self.shape = board, shape
        mover = (x, y, h)
        if self.collided is not None and self.collided[2] == t:
            senders, sending, _ = self.collided
            super().take_collided(senders, sending, s, col, name, t)
            self.taken_first = t
        captors, _, pot = self.plan(x, y)
        pieces = [self.captor_piece(c, mover, x, y) for c in captors]
        if len(captors) > 1:
            doubled = all(self.props[sh]["result"] == "reincarnates-x2" for _, sh in pieces)
            self.round_pots = getattr(self, "round_pots", []) + [
                {"showdown": (x, y), "t": t, "captors": pieces, "pieces": len(pot) * (2 if doubled else 1)}
            ]
            return []
        seat, self.seat = self.seat, s
        try:
            stays = self.deal_showdown(x, y, 0, pieces, mover)
        finally:
            self.seat = seat
        if stays is None:
            return []
        if replace:
            self.shape[stays] = replace
        return [c for c in self._column(x, y) if c[2] >= stays[2]]

    def piece_of(self, s, a):
        if self.is_stack_id(a):  # the mover's shape, for "must capture"
            _, shape, mover, _ = self.after_stack_move(s, a)
            return shape[mover], None
        return super().piece_of(s, a)

    def _collision_hand(self, s, t, pieces):
        x, y, _ = self.target_xyz(t)
        board, shape = dict(self.board), dict(self.shape)
        h = self.Z  # off the board's top: only counted, never read as cells
        for j, (pcol, pname) in enumerate(pieces):
            board[(x, y, h + j)], shape[(x, y, h + j)] = pcol, pname
        saved, self.Z = self.Z, self.Z + len(pieces)
        try:
            return self.hand(self.owned[s], board, shape, x, y)
        finally:
            self.Z = saved

    def _collision_winner_by_rank(self, senders, sending, t):
        pieces = []
        for s in senders:
            pieces += sending[s][3] if sending[s][3] is not None else [(sending[s][1], sending[s][2])]
        hands = {s: self._collision_hand(s, t, pieces) for s in senders}

        def above(a, b):
            la, lb = self.level(sending[a][2]), self.level(sending[b][2])
            return la > lb if la != lb else (la == 1 and hands[a] > hands[b])

        tops = [s for s in senders if all(above(s, o) for o in senders if o != s)]
        return tops[0] if tops else None

    def _stack_land_duel(self, s, t, carried, replace):
        """Land seat s's carried pieces on stack t and play the mover's cover;
        returns the landed cells credited to s (none when the mover does not
        stay)."""
        x, y, _ = self.target_xyz(t)
        h = self.height(t)
        for j, (pcol, pname) in enumerate(carried):
            self.board[(x, y, h + j)], self.shape[(x, y, h + j)] = pcol, pname
        mover = (x, y, h)
        col, name = carried[0]
        board, shape = dict(self.board), dict(self.shape)
        verdict, cells = self.stack_outcome(s, name, board, shape, x, y, h)
        stays = mover if verdict in ("none", "win") else None
        if verdict != "none":
            column = [(c, board[c], shape[c]) for c in self.stack_cells(t) if c in board]
            for c, _, _ in column:
                del self.board[c], self.shape[c]
            kept, at = [], None

            def reincarnate(captor_col, captor_shape, captive_shape):
                got = {"reincarnates": 1, "reincarnates-x2": 2}.get(self.props[captor_shape]["result"], 0)
                self.sres[captor_col][captive_shape] += got
                self.reserve[captor_col] += got

            for c, pcol, pshape in column:
                if c == mover:
                    if verdict == "mutual":
                        continue
                    if verdict == "lose":
                        firsts = {}
                        for e in cells:
                            firsts.setdefault(board[e], shape[e])
                        splits = any(
                            p.get("result") in ("converts", "reincarnates", "reincarnates-x2")
                            for p in self.props.values()
                        )
                        if len(firsts) > 1 and splits:
                            captors = sorted(firsts.items())
                            doubled = all(self.props[sh]["result"] == "reincarnates-x2" for _, sh in captors)
                            self.round_pots = getattr(self, "round_pots", []) + [
                                {"t": t, "name": name, "captors": captors, "pieces": 2 if doubled else 1}
                            ]
                            continue
                        ccol, cshape = board[cells[0]], shape[cells[0]]
                        if self.props[cshape]["result"] == "converts":
                            kept.append((ccol, pshape))
                        else:
                            reincarnate(ccol, cshape, pshape)
                        continue
                    at = len(kept)
                elif c in cells and verdict == "mutual":
                    continue
                elif c in cells and verdict == "win":
                    if self.props[name]["result"] == "converts":
                        kept.append((col, pshape))
                    else:
                        reincarnate(col, name, pshape)
                    continue
                kept.append((pcol, pshape))
            up = self.stack_cells(t)
            for i, (pcol, pshape) in enumerate(kept):
                self.board[up[i]], self.shape[up[i]] = pcol, pshape
            stays = up[at] if at is not None else None
        if stays is None:
            return []
        if replace:
            self.shape[stays] = replace
        return [(stays[0], stays[1], stays[2] + j) for j in range(len(carried))]

    # "Stalemate if goal is reached" in rounds (docs/rules/ttt.md, "Goals reached
    # inside rounds"): after the round's turn checks and the move limit, a
    # round in which a plan's piece reached its goal from off it and stayed is
    # a stalemate. ``round_goal`` is set by _resolve and read by the round's end
    # (the two ways SimRefState._round_end goes on after its checks and limit).
    round_goal = False

    def _goal_instead(self):
        if self.round_goal:
            self.round_goal = False
            self._stalemate_or_next_phase()
            return True
        return False

    def _stalemate(self):
        self.round_goal = False  # the move limit comes first in a round
        super()._stalemate()

    def _open_round(self):
        if not self._goal_instead():
            super()._open_round()

    def _stalemate_or_next_phase(self):
        self.round_goal = False
        super()._stalemate_or_next_phase()

    def _resolve(self):
        plans, self.plans = self.plans, None
        self.plies += len(plans)
        self.round_goal = False
        goals = set()  # seats whose move plan ends on their goal line from off it
        sending = {}  # seat -> [target, colour, shape, carried pieces or None, replacement]
        lifts = {}
        for s, a in sorted(plans.items()):
            if a == self.a_pass:
                continue
            if a < self.move0:
                k, rest = divmod(a, self.P * self.T)
                ch, t = divmod(rest, self.T)
                col = ch if self.choose else min(self.owned[s])
                self.sres[col][self.names[k]] -= 1
                self.reserve[col] -= 1
                sending[s] = [t, col, self.names[k], None, None]
            else:
                f, z, u, by_stack, replace = self._lifted(s, a)
                lifts[s] = (f, z)
                sending[s] = [u, None, None, [] if by_stack else None, replace]
                d0, d1 = self.goal_dist(s, f), self.goal_dist(s, u)
                if self.goal_check and d0 is not None and d0 > 0 and d1 == 0:
                    goals.add(s)
        for col in range(len(self.colours)):
            for name in self.names:
                if self.sres[col][name] < 0:
                    self.reserve[col] -= self.sres[col][name]
                    self.sres[col][name] = 0
                    for s in [s for s in sending if s not in lifts and sending[s][1:3] == [col, name]]:
                        del sending[s]
        for f in sorted({f for f, _ in lifts.values()}):
            movers = [s for s in lifts if lifts[s][0] == f]
            low = max(lifts[s][1] for s in movers)
            taken = [w for w in self._column(f) if w[2] >= low]
            pieces = [(self.board.pop(w), self.shape.pop(w)) for w in taken]
            if len(movers) > 1:
                for s in movers:
                    del sending[s]
                continue
            s = movers[0]
            sending[s][1], sending[s][2] = pieces[0]
            if sending[s][3] is not None:
                sending[s][3] = pieces
        landed = []
        for t in sorted({v[0] for v in sending.values()}):
            senders = sorted(s for s in sending if sending[s][0] == t)
            winner = senders[0] if len(senders) == 1 else None
            if len(senders) > 1 and any(sending[s][3] is not None for s in senders):
                winner = self._collision_winner(senders, sending, t)
            elif len(senders) > 1:  # ttt-collide: powerless colliders rank lowest
                tops = [
                    s
                    for s in senders
                    if all(self.above(sending[s][2], sending[o][2]) for o in senders if o != s)
                ]
                winner = tops[0] if tops else None
            if winner is None:
                continue
            _, col, name, carried, replace = sending[winner]
            if carried is not None:
                for w in self._stack_land(winner, t, carried, replace):
                    landed.append((winner, w, self.board[w]))
                self.take_collided(senders, sending, winner, col, name, t)
                continue
            stays = self.arrive(winner, name, col, t)
            if stays is not None and replace:
                self.shape[stays] = replace
            self.take_collided(senders, sending, winner, col, name, t)
            if stays is not None:
                landed.append((winner, stays, col))
        landed.sort()
        self.round_goal = bool(goals & {w for w, _, _ in landed})
        self.goal_seats = goals
        return self._round_end(plans, landed)


# -- ttt-rounds3: surrounds inside simultaneous and single rounds, from docs/rules/ttt.md
# "Surrounds inside rounds" ------------------------------------------------------------


class SurroundSimRefState(StackCoverSimRefState):
    """Rounds with surrounding shapes (flat boards): after every plan of the
    round has landed, each landed surrounder finds its captives on that board
    (SurroundRefState's line and group rules), all before any is taken; a
    captive of surrounders of one colour gets the result of the lowest seat's
    surrounder, one of several colours' surrounders is destroyed; then the
    round's turn checks over the landed pieces still standing. (Borrowed from
    SurroundRefState, whose bases differ from MoveSimRefState's.)"""

    surrounder = SurroundRefState.surrounder
    takeable = SurroundRefState.takeable
    surrounded = SurroundRefState.surrounded
    decode_move = JumpRefState.decode_move

    def flat_cover_ok(self, s, name, t):
        return not self.surrounder(name) and super().flat_cover_ok(s, name, t)

    goal_parts = SurroundRefState.goal_parts  # goalforce: a goal move's captures, each by its shape

    def goal_jumped(self, s, a):
        return None  # no jumps here (JumpSimRefState adds them)

    def captors(self, s, a):
        parts = self.goal_parts(s, a)
        if parts is None:
            return super().captors(s, a)
        return [n for n, hit in parts if hit]

    def captures(self, s, a):
        parts = self.goal_parts(s, a)
        if parts is not None:
            return any(hit for _, hit in parts)
        got = None if self.is_stack_id(a) else self.piece_of(s, a)
        if (
            got is not None
            and self.move0 <= a
            and (self.a_pass is None or a < self.a_pass)
            and self.decode_move(a)[0] is not None
        ):  # ttt-chainback: a round without passes too
            got = (self.replacers[self.decode_move(a)[0]], got[1])
        if got is not None and self.surrounder(got[0]) and a != self.a_pass:
            name, t = got
            board, shape = dict(self.board), dict(self.shape)
            if a < self.move0:
                ch = (a % (self.P * self.T)) // self.T
                col = ch if self.choose else min(self.owned[s])
            else:
                _, f, _ = self.decode_move(a)
                src = self.top_cell(f)
                col = board.pop(src)
                shape.pop(src)
            c = self.target_xyz(t)
            board[c], shape[c] = col, name
            return bool(self.surrounded(s, c, board, shape))
        return super().captures(s, a)

    def end_ply(self, stays, col, goal_reached):
        """A sequential phase's ply: the arriving surrounder captures at once
        (SurroundRefState.end_ply's rule)."""
        if stays is not None:
            SurroundRefState.surround_landing(self, stays, col)
        return super().end_ply(stays, col, goal_reached)

    def _round_end(self, plans, landed):
        takers = {}
        captors = {}
        own = {}  # ttt-chainback: each plan's own piece (a carried stack's mover, the lowest)
        for s, w, col in landed:
            own.setdefault(s, w)
        for s, w, col in landed:
            if w == own[s] and w in self.board and self.surrounder(self.shape[w]):
                captors[s] = (self.board[w], self.shape[w])
                for c in self.surrounded(s, w, self.board, self.shape):
                    takers.setdefault(c, []).append(s)
        for c, seats in sorted(takers.items()):
            cols = {captors[s][0] for s in seats}
            if len(cols) == 1:
                col, name = captors[min(seats)]
                result = self.props[name]["result"]
                if result == "converts":
                    self.board[c] = col
                    continue
                got = {"reincarnates": 1, "reincarnates-x2": 2}.get(result, 0)
                self.sres[col][self.shape[c]] += got
                self.reserve[col] += got
            del self.board[c], self.shape[c]
        landed = [(s, w, col) for s, w, col in landed if w not in takers]
        if self.round_goal:  # a goal counts only for a piece that stayed
            self.round_goal = bool(getattr(self, "goal_seats", set()) & {s for s, _, _ in landed})
        return super()._round_end(plans, landed)


# -- ttt-stackjump: jumps, chain jumps and surrounds on stacks boards (issue 12 item 4 with item 6),
# from docs/rules/ttt.md "Jumps and chain jumps" ("On stacks") -------------------------------


class StackJumpRefState(SurroundRefState):
    """Jumps on stacks, read from the seed's "moves are always to the tops of
    stacks (so height is ignored [...]), but fall to the lowest empty space":
    a jumper (the top piece of its stack) jumps along the stacks' grid over
    the *top piece* of the adjacent stack, when that piece is of a colour its
    seat does not own and not on a space locked for the phase, to the stack
    directly beyond, where it falls to the lowest empty space (a full stack,
    or one whose landing space is locked for the phase, cannot be jumped
    to). Only that top piece is captured; the pieces under it stay. A jumper
    (or a surrounder) lands on a stack's pieces without covering them.
    Surrounds on stacks are read on the board of the stacks' tops: each
    stack is its top piece, a wall (a locked top) or empty (a liberty); the
    captives are tops."""

    def outcome(self, s, name, t):
        p = self.props[name]
        if p.get("power", "none") != "none" and p.get("condition") in JUMP_CONDITIONS + (
            "surround-line",
            "surround-orthogonal",
        ):
            return "none", []
        return super().outcome(s, name, t)

    def jumps(self, s, f, name):
        if not self.gravity:
            return super().jumps(s, f, name)
        out = {}
        fx, fy, _ = self.target_xyz(f)
        for d in self.jump_dirs(s, f, name):
            if d[2] != 0:
                continue  # the stacks' grid is flat: height is ignored
            mx, my, ux, uy = fx + d[0], fy + d[1], fx + 2 * d[0], fy + 2 * d[1]
            if not (self.on_board(mx, my, 0) and self.on_board(ux, uy, 0)):
                continue
            if len({self.board_of((fx, fy, 0)), self.board_of((mx, my, 0)), self.board_of((ux, uy, 0))}) > 1:
                continue
            m = self.top_cell(self.xyz_target(mx, my, 0))
            if m is None or m not in self.board or self.board[m] in self.owned[s] or m in self.phase_locked():
                continue
            t = self.xyz_target(ux, uy, 0)
            if self.landing(t) is None or not self.may_enter(s, self.landing(t)):
                continue
            no_back = self.props[name]["move"] in FORWARD_MOVES or self.props[name].get(
                "cannot_move_backwards"
            )
            no_back = no_back and not jumps_back(self.props[name])  # ttt-chainback
            if no_back and s < len(self.goals) and self.goal_dist(s, t) > self.goal_dist(s, f):
                continue
            out[t] = m
        return out

    def jump(self, a):
        if not self.gravity:
            return super().jump(a)
        s = self.seat
        r, f, u = self.decode_move(a)
        m = self.jumped(s, a)
        src = self.top_cell(f)
        col, name = self.board.pop(src), self.shape.pop(src)
        result = self.props[name]["result"]
        if result == "converts":
            self.board[m] = col
        else:  # the top piece leaves: nothing lies above it
            captive = self.shape.pop(m)
            del self.board[m]
            got = {"reincarnates": 1, "reincarnates-x2": 2}.get(result, 0)
            self.sres[col][captive] += got
            self.reserve[col] += got
        landed = name if r is None else self.replacers[r]
        dest = self.landing(u)  # falls to the lowest empty space of the stack beyond
        self.board[dest], self.shape[dest] = col, landed
        self.surround_landing(dest, col)  # a jump is a move: the piece it lands as may surround
        d0, d1 = self.goal_dist(s, f), self.goal_dist(s, u)
        goal_reached = self.goal_check and d0 is not None and d0 > 0 and d1 == 0
        self.passes = 0
        self.plies += 1
        if self.line_checks([dest]):
            return
        if goal_reached:
            return self._stalemate_or_next_phase()
        if self.limit and self.plies >= self.limit:
            return self._stalemate()
        if (
            self.props[name]["condition"] in CHAIN_CONDITIONS
            and self.props[landed].get("condition") in CHAIN_CONDITIONS
            and self.props[landed].get("power", "none") != "none"
            and self.movable_shape(s, u) is not None
            and self.jumps(s, u, landed)
        ):
            self.chain = u
            return
        self.left -= 1
        if self.left == 0 or not self.has_move(self.seat):
            self._next_seat()

    # -- surrounds on stacks: read on the board of the stacks' tops ----------------------
    def _top_in(self, board, x, y):
        """The top cell of stack (x, y) in ``board`` (a piece or a locked space), or None."""
        zs = [z for z in range(self.Z) if (x, y, z) in board or (x, y, z) in self.locked]
        return (x, y, max(zs)) if zs else None

    def surrounded(self, s, c, board, shape):
        if not self.gravity:
            return super().surrounded(s, c, board, shape)
        x0, y0 = c[0], c[1]
        home = self.board_of(c)

        def stack(x, y):
            """'edge', 'wall', 'empty' or the top cell of stack (x, y)."""
            if not (0 <= x < self.X and 0 <= y < self.Y) or self.board_of((x, y, 0)) != home:
                return "edge"
            top = self._top_in(board, x, y)
            if top is None:
                return "empty"
            return "wall" if top in self.locked else top

        out = []
        flat = [(dx, dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1) if (dx, dy) != (0, 0)]
        if self.props[shape[c]]["condition"] == "surround-line":
            for dx, dy in flat:
                run, x, y = [], x0 + dx, y0 + dy
                while isinstance(stack(x, y), tuple) and self.takeable(s, stack(x, y), board):
                    run.append(stack(x, y))
                    x, y = x + dx, y + dy
                end = stack(x, y)
                if run and isinstance(end, tuple) and board[end] in self.owned[s]:
                    out += run
            return out
        orth = [(1, 0), (-1, 0), (0, 1), (0, -1)]
        done = set()
        for dx, dy in orth:
            g = (x0 + dx, y0 + dy)
            top = stack(*g)
            if g in done or not isinstance(top, tuple) or not self.takeable(s, top, board):
                continue
            colour = board[top]
            group, todo, free = {g}, [g], False
            while todo:
                x, y = todo.pop()
                for ex, ey in orth:
                    n = (x + ex, y + ey)
                    v = stack(*n)
                    if v in ("edge", "wall"):
                        continue
                    if v == "empty":
                        free = True
                    elif board[v] == colour:
                        if v in self.phase_locked():
                            free = True
                        elif n not in group:
                            group.add(n)
                            todo.append(n)
                    elif board[v] not in self.owned[s]:
                        free = True
            done |= group
            if not free:
                out += sorted(stack(*n) for n in group)
        return out

    def captures(self, s, a):
        if not self.gravity or self.goal_parts(s, a) is not None:
            return super().captures(s, a)
        got = self.piece_of(s, a)
        if got is not None and a >= self.move0 and self.decode_move(a)[0] is not None:
            got = (self.replacers[self.decode_move(a)[0]], got[1])
        if got is None or not self.surrounder(got[0]) or a == self.a_pass:
            return super().captures(s, a)
        return self.surrounds_on_arrival(s, a, *got)

    def surrounds_on_arrival(self, s, a, name, t):
        """Whether the piece ``name`` that action ``a`` brings to stack ``t``
        surrounds anything where it lands (on the top of that stack, after its
        own lift from its source). Shared with SurroundStackSimRefState."""
        board, shape = dict(self.board), dict(self.shape)
        if a < self.move0:
            ch = (a % (self.P * self.T)) // self.T
            col = ch if self.choose else min(self.owned[s])
        else:
            _, f, _ = self.decode_move(a)
            src = self.top_cell(f)
            col = board.pop(src)
            shape.pop(src)
        x, y, _ = self.target_xyz(t)
        top = self._top_in(board, x, y)
        c = (x, y, 0 if top is None else top[2] + 1)
        board[c], shape[c] = col, name
        return bool(self.surrounded(s, c, board, shape))


# ---- ttt-pgshow ----
# The showdown when the by-stack mover is the one captured (issues 12, 13; slip 19,
# 3P-PublicGoods), from docs/rules/ttt.md "The pot showdown of by-stack covers", "A mover
# captured by converting or reincarnating defenders": the seed's "For conversion and
# reincarnation on cover, all players with the highest rank on the stack split the pot"
# whoever converts or reincarnates.


def pg_captured_showdown(ref, s, name, board, shape, x, y, h):
    """Whether seat s's by-stack mover ``name`` (landed at height h of stack
    (x, y) in ``board``/``shape``), whose own power neither converts nor
    reincarnates, goes to the showdown: the cover's verdict is "lose" and one
    of the defenders that take it converts or reincarnates, and some seat has
    a powered piece of its own in the stack (else the duel stands)."""
    if shape is None:
        return False
    verdict, cells = ref.stack_outcome(s, name, board, shape, x, y, h)
    if verdict != "lose" or not any(
        ref.props[shape[c]]["result"] in ("converts", "reincarnates", "reincarnates-x2") for c in cells
    ):
        return False
    column = [(x, y, z) for z in range(ref.Z) if (x, y, z) in board]
    return any(
        board[c] in ref.owned[q] and ref.power(shape[c]) != "none" for q in range(ref.seats) for c in column
    )


# ---- ttt-cloakstack ----
# Jumps and surrounds with cloaked spaces (issue 12 item 4 with issue 11 item 3),
# from docs/rules/ttt.md "Jumps and surrounds with cloaked spaces": its own reading
# of which jumps a player may try, of what an attempt reveals and of what each
# player reads of a capture.


class CloakedJumpRefState(CloakedCaptureRefState, SurroundRefState):
    """Jumps and surrounds under invisibility on flat boards, in sequential
    phases. A player chooses from the position as it sees it; a jumping shape
    may also try to jump over a space cloaked now that looks empty to it (it
    may hide a piece), but such a tried jump never forces ("must capture"
    forces only captures the mover sees). The truth judges: an action legal
    there happens with its true captives; otherwise it is an attempt that
    reveals to the mover what stands on its source, its target and, for a
    jumping shape moving two steps along a line, the space between. After a
    capture each player reads the captives it saw before (the mover all of
    them): gone, or converted to the captor's colour; a reincarnation's count
    is public, its shapes told to the captor's colour's players."""

    phantoms = frozenset()
    last_captives = ()
    last_actor = None

    def plain_copy(self, viewer=None):
        v = super().plain_copy(viewer)
        v.phantoms = frozenset()
        if viewer is not None and self.cloak == "hides" and not self.gravity:
            v.phantoms = frozenset(
                c
                for c in self.cloaked[self.phase]
                if c not in v.board and c not in self.locked and c not in self.phase_locked()
            )
        return v

    def jumps(self, s, f, name):
        out = super().jumps(s, f, name)
        if not self.phantoms:
            return out
        here = self.target_xyz(f)
        no_back = self.props[name]["move"] in FORWARD_MOVES or self.props[name].get("cannot_move_backwards")
        for d in self.jump_dirs(s, f, name):
            m = tuple(a + b for a, b in zip(here, d))
            u = tuple(a + 2 * b for a, b in zip(here, d))
            if m not in self.phantoms or not self.on_board(*u) or self.board_of(u) != self.board_of(here):
                continue
            t = self.xyz_target(*u)
            if self.landing(t) is None or not self.may_enter(s, self.landing(t)):
                continue
            if no_back and s < len(self.goals) and self.goal_dist(s, t) > self.goal_dist(s, f):
                continue
            out.setdefault(t, m)
        return out

    def jumped(self, s, a):
        m = super().jumped(s, a)
        return m if m is None or m in self.board else None  # a tried jump is no visible capture

    def _between(self, f, u):
        fx, fu = self.target_xyz(f), self.target_xyz(u)
        d = tuple(b - a for a, b in zip(fx, fu))
        if all(x in (-2, 0, 2) for x in d) and any(d):
            return tuple(a + b // 2 for a, b in zip(fx, d))
        return None

    def apply(self, a):
        self.last_captives, self.last_actor = [], None
        if (
            self.plain
            or self.cloak == "none"
            or self.offer_by is not None
            or self.pot is not None
            or a == self.a_pass
            or a == self.a_offer
        ):
            return super().apply(a)
        got = self.piece_of(self.seat, a)
        if got is None:
            return super().apply(a)
        actor, t = self.seat, got[1]
        src, mid, mover_name = None, None, None
        if a >= self.move0:
            _, f, _ = self.decode_move(a)
            src = self.top_cell(f)
            mover_name = self.shape[src]
            if self.jumper(mover_name):
                mid = self._between(f, t)
        before = {
            c: (col, self.shape[c], {p for p in range(self.seats) if self.sees_piece(p, c)})
            for c, col in self.board.items()
        }
        dest = self.target_xyz(t)
        super().apply(a)
        if self.last_attempt:
            if mid is not None and mid in self.board:
                self.seen.setdefault(mid, set()).add(actor)
            return self.refresh()
        self.last_actor = actor
        gains = {"reincarnates": 1, "reincarnates-x2": 2}
        for c, (col, name, saw) in before.items():
            if c in (src, dest) or self.board.get(c) == col:
                continue
            converted = c in self.board
            captor = self.board.get(dest)
            by = mover_name if c == mid else self.shape.get(dest)
            gain = 0 if converted or by is None else gains.get(self.props[by].get("result"), 0)
            self.last_captives.append((c, saw, converted, name, gain, captor))
            if converted:
                self.seen.setdefault(c, set()).add(actor)
            else:
                self.seen.pop(c, None)
        self.last_captives.sort(key=lambda e: e[0][0] + self.X * (e[0][1] + self.Y * e[0][2]))
        self.refresh()

    def capture_text(self, p):
        """What player p reads of the last action's captives (the engine's
        ``_xk_text`` of the last event)."""
        text, gains, captor = "", [], None
        for c, saw, converted, name, gain, col in self.last_captives:
            if p == self.last_actor or p in saw:
                text += f"; the piece on ({c[0] + 1},{c[1] + 1},{c[2] + 1}) was captured"
                if converted:
                    text += f" and became {self.colours[col]}"
            if gain:
                gains += [name] * gain
                captor = col
        if gains:
            shapes = f" ({', '.join(sorted(gains))})" if captor in self.owned[p] else ""
            text += f"; {self.colours[captor]}'s reserve gains {len(gains)}{shapes} (reincarnated)"
        return text


class CloakedJumpObscureRefState(CloakedJumpRefState, CloakedObscureRefState):
    """Jumps and surrounds under obscurity: every piece's colour is seen, so
    a jump's or a surround's captives are all seen by every player (whose
    text tells them), while shapes stay hidden; covers are judged as in
    CloakedObscureRefState."""

    def flat_cover_ok(self, s, name, t):
        if self.jumper(name) or self.surrounder(name):
            return False  # they never cover, whatever the shape they cannot see
        return super().flat_cover_ok(s, name, t)


# ---- ttt-cloakrounds ----
# Shapes and moving shapes inside cloaked rounds, from docs/rules/ttt.md "Shapes and
# moving shapes in cloaked rounds": the cloaked round of CloakedSimRefState with the
# shapes path's plans (a placement names its shape; a move reaching the goal names its
# replacement), written here without powers and without by-stack moves (both refused
# with cloaked spaces in rounds).


class CloakedMoveSimRefState(CloakedSimRefState, CloakedShapeRefState, MoveSimRefState):
    """Every player plans on the round's start as it sees it (hidden pieces look
    like empty spaces; "every piece they can move" is per shape). When the round
    resolves each plan is judged on the true start of the round: one illegal
    there (or, on stacks, a move whose true top piece its planner does not
    see) is an attempt that reveals to its planner every piece on its target
    and source, and does nothing else. The others resolve together: placements
    spend their shape's reserve (an overdrawn shared one destroys the contested
    placements), every moved piece leaves first (one that two plans move is
    destroyed), a target one plan sends a piece to receives it (a replacement
    shape if the plan named one), several plans to one target destroy every
    piece sent there. A placed piece is seen by its placer, a moved piece keeps
    who had seen it, a destroyed piece is forgotten; then who sees what is
    refreshed on the new board."""

    def plan_parts(self, a):
        """(kind, source target or None, target, replacement shape or None) of
        a plan; kind 0 placement, 1 move."""
        if a < self.move0:
            return 0, None, a % self.T, None
        if a < self.rep0:
            f, t = divmod(a - self.move0, self.T)
            return 1, f, t, None
        r, rest = divmod(a - self.rep0, self.T * self.T)
        f, t = divmod(rest, self.T)
        return 1, f, t, self.replacers[r]

    def _resolve(self):
        assert not self.nstk and not any(self.level(n) for n in self.names), "not modelled here"
        self.round_attempts = set()
        if self.cloak == "hides":
            for s, a in self.plans.items():
                if a == self.a_pass or self.is_chaos(s):
                    continue
                truth, looks = self.plain_copy(), self.plain_copy(viewer=s)
                kind, f, t, _ = self.plan_parts(a)
                if a not in truth.seat_actions(s) or (
                    kind == 1 and self.gravity and truth.top_cell(f) != looks.top_cell(f)
                ):
                    self.round_attempts.add(s)
            for s in self.round_attempts:
                kind, f, t, _ = self.plan_parts(self.plans[s])
                targets = {t} if kind == 0 else {t, f}
                for c in self.board:
                    if self.xyz_target(c[0], c[1], 0 if self.gravity else c[2]) in targets:
                        self.seen.setdefault(c, set()).add(s)
        self.attempts += sorted(self.round_attempts)
        plans, self.plans = self.plans, None
        self.plies += len(plans)
        sending = {}  # seat -> [target, colour, shape, replacement, who saw the piece]
        sources = {}  # seat -> source target of its move
        for s, a in sorted(plans.items()):
            if a == self.a_pass or s in self.round_attempts:
                continue
            kind, f, t, rep = self.plan_parts(a)
            if kind == 0:
                name = self.names[a // (self.P * self.T)]
                ch = (a % (self.P * self.T)) // self.T
                col = ch if self.choose else min(self.owned[s])
                self.sres[col][name] -= 1
                self.reserve[col] -= 1
                sending[s] = [t, col, name, None, {s}]
            else:
                sources[s] = f
                sending[s] = [t, None, None, rep, None]
        for col in range(len(self.colours)):
            for name in self.names:
                if self.sres[col][name] < 0:  # overdrawn shared reserve: none of those placed
                    self.reserve[col] -= self.sres[col][name]
                    self.sres[col][name] = 0
                    for s in [s for s in sending if s not in sources and sending[s][1:3] == [col, name]]:
                        del sending[s]
        for f in sorted(set(sources.values())):
            movers = [s for s in sources if sources[s] == f]
            cell = self.top_cell(f)
            col, name, seen = self.board.pop(cell), self.shape.pop(cell), self.seen.pop(cell, set())
            if len(movers) > 1:
                for s in movers:  # a piece two plans move: destroyed
                    del sending[s]
                continue
            sending[movers[0]][1:3] = [col, name]
            sending[movers[0]][4] = seen
        landed = []
        for t in sorted({v[0] for v in sending.values()}):
            senders = [s for s in sending if sending[s][0] == t]
            if len(senders) > 1:
                continue  # every piece sent here is destroyed
            s = senders[0]
            _, col, name, rep, seen = sending[s]
            dest = self.landing(t)
            self.board[dest], self.shape[dest] = col, rep or name
            self.seen[dest] = set(seen)
            landed.append((s, dest, col))
        landed.sort()
        self._round_end(plans, landed)
        self.refresh()


# ---- ttt-chainback ----
# "Chain Jump (+ back)" (docs/rules/ttt.md, "Chain Jump (+ back)"): read as
# international draughts' man, which moves forwards only but captures
# backwards too. JumpRefState and StackJumpRefState ask ``jumps_back`` in
# their direction lists and landing tests; everything else is a chain jump's.


def jumps_back(props):
    """Whether a shape's jumps (the first and a chain's extra ones) may go
    backwards: condition ``chain-jump-back`` with a power. Such a shape's
    landing is not held to its goal distance, and a forward mover jumps along
    the forward directions and their mirrors (never sideways)."""
    return props.get("power", "none") != "none" and props.get("condition") == "chain-jump-back"


class JumpSimRefState(SurroundSimRefState):
    """Jumps and chain jumps inside simultaneous and single rounds (every
    phase a round; docs/rules/ttt.md, "Jumps inside rounds"), on flat boards
    and stacks. A jump is a move plan legal on the round's starting board
    (JumpRefState's and StackJumpRefState's jump lists). When the round
    resolves, a jumped piece is taken only if no plan lifts from its target
    (it did not move away) and no other plan lifts from the jumper's (the
    jumper moved); several plans over one piece destroy it without a result;
    a single captor applies its result. A chain-jumper jumps once (no extra
    move in a round). Taking the captive off before the round's lifts is the
    same as after them here (no plan lifts from its target); its reincarnated
    pieces join the captor's reserve once every plan has landed, with the
    round's other captures, after the overdrawn placements were judged."""

    jump_dirs = JumpRefState.jump_dirs
    decode_move = JumpRefState.decode_move

    def __init__(self, rs):
        self.jump_reserve = []
        self.a_stop = None
        super().__init__(rs)
        if any(
            p.get("power", "none") != "none" and p.get("condition") in CHAIN_CONDITIONS
            for p in self.props.values()
        ):
            self.a_stop = self.num_actions  # "end-chain": an id of the game, never legal in a round
            self.num_actions += 1

    def jumper(self, name):
        p = self.props[name]
        return p.get("power", "none") != "none" and p.get("condition") in JUMP_CONDITIONS

    def jumps(self, s, f, name):
        if self.gravity:
            return StackJumpRefState.jumps(self, s, f, name)  # its gravity branch only
        return JumpRefState.jumps(self, s, f, name)

    def destinations(self, s, f, name):
        out = super().destinations(s, f, name)
        if self.jumper(name):
            out |= set(self.jumps(s, f, name))
        return out

    def flat_cover_ok(self, s, name, t):
        return not self.jumper(name) and super().flat_cover_ok(s, name, t)

    def outcome(self, s, name, t):
        if self.jumper(name):
            return "none", []  # a jumper never covers, on stacks too
        return super().outcome(s, name, t)

    def _jump_of(self, s, a):
        """(jumped cell, source target, jumper colour, jumper shape) of plan a, or None."""
        if a is None or a < self.move0 or a == self.a_pass or a == self.a_stop or self.is_stack_id(a):
            return None
        if a >= self.rep0 + len(self.replacers) * self.T * self.T:
            return None
        _, f, u = self.decode_move(a)
        src = self.top_cell(f)
        if src is None or src not in self.board or not self.jumper(self.shape[src]):
            return None
        m = self.jumps(s, f, self.shape[src]).get(u)
        return None if m is None else (m, f, self.board[src], self.shape[src])

    def goal_jumped(self, s, a):
        got = self._jump_of(s, a)
        return None if got is None else got[0]

    def captures(self, s, a):
        if self.goal_parts(s, a) is None and self._jump_of(s, a) is not None:
            return True
        return super().captures(s, a)

    def _resolve(self):
        sources = {}
        for s, a in self.plans.items():
            if a != self.a_pass and a >= self.move0:
                f = self._lifted(s, a)[0]
                sources[f] = sources.get(f, 0) + 1
        over = {}
        for s, a in sorted(self.plans.items()):
            got = self._jump_of(s, a)
            if got is None:
                continue
            m, f, col, name = got
            if sources[f] > 1 or self.xyz_target(m[0], m[1], 0 if self.gravity else m[2]) in sources:
                continue  # the jumper did not move, or the jumped piece moved away
            over.setdefault(m, []).append((col, name))
        for m, captors in sorted(over.items()):
            if len(captors) == 1:
                col, name = captors[0]
                result = self.props[name]["result"]
                if result == "converts":
                    self.board[m] = col
                    continue
                got = {"reincarnates": 1, "reincarnates-x2": 2}.get(result, 0)
                if got:
                    self.jump_reserve.append((col, self.shape[m], got))
            del self.board[m], self.shape[m]
        return super()._resolve()

    def _round_end(self, plans, landed):
        for col, captive, got in self.jump_reserve:
            self.sres[col][captive] += got
            self.reserve[col] += got
        self.jump_reserve = []
        return super()._round_end(plans, landed)


class SurroundStackSimRefState(JumpSimRefState):
    """Surrounds on stacks inside rounds (docs/rules/ttt.md, "Surrounds inside
    rounds", stacks): SurroundSimRefState's round rule (every landed
    surrounder finds its captives once every plan has landed, all before any
    is taken) read on the stacks' tops as StackJumpRefState reads them (its
    gravity branches, borrowed). Only a plan's own piece surrounds (a carried
    stack's pieces above its mover do not arrive by a move of their own)."""

    _top_in = StackJumpRefState._top_in

    def surrounded(self, s, c, board, shape):
        if self.gravity:
            return StackJumpRefState.surrounded(self, s, c, board, shape)
        return SurroundRefState.surrounded(self, s, c, board, shape)

    def outcome(self, s, name, t):
        if self.surrounder(name):
            return "none", []  # a surrounder never covers, on stacks too
        return super().outcome(s, name, t)

    def captures(self, s, a):
        if (
            not self.gravity
            or self.is_stack_id(a)
            or a == self.a_pass
            or a == self.a_stop
            or self.goal_parts(s, a) is not None
        ):
            return super().captures(s, a)
        got = self.piece_of(s, a)
        if got is not None and a >= self.move0 and self.decode_move(a)[0] is not None:
            got = (self.replacers[self.decode_move(a)[0]], got[1])
        if got is None or not self.surrounder(got[0]):
            return super().captures(s, a)
        if self._jump_of(s, a) is not None:
            return True
        return StackJumpRefState.surrounds_on_arrival(self, s, a, *got)
