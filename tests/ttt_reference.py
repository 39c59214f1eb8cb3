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
KNIGHT = [d for d in itertools.product((-2, -1, 0, 1, 2), repeat=3)
          if sorted(map(abs, d)) == [0, 1, 2]]


class RefState:
    def __init__(self, rs):
        r = rs.record
        self.X, self.Y, self.Z = r["board"]["size"]
        self.gravity = r["board"]["kind"] == "stacks"
        n, chaos = seats_of(r["players"])
        self.n, self.chaos, self.seats = n, chaos, n + chaos
        mode = r["colours"]
        if mode == "assigned":
            self.colours = list(PALETTE[:self.seats])
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
        self.side = ([0, 1, 0, 1] if r["players"] == "partners" else list(range(n)))
        if chaos:
            self.side.append(max(self.side) + 1)
        self.reserve = [r["reserves"].get(c, {}).get("circle", 0) for c in self.colours]
        self.locked = {tuple(v - 1 for v in a) for a in r["board"]["locked"]}
        self.board = {tuple(v - 1 for v in q["at"]): self.colours.index(q["colour"])
                      for q in r["board"]["pieces"]}
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
        self._start_phase(0)

    # phases ------------------------------------------------------------------
    def phase_locked(self):
        return {tuple(v - 1 for v in a) for a in self.phases[self.phase]["locked"]}

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
            committed = [sum(1 for c, col in self.board.items() if c in locked and col in self.owned[p])
                         for p in range(self.n)]
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
            for col in (self.owned[s] if self.choose else self.owned[s]):
                if self.choose and col != ch:
                    continue
                if self.reserve[col] <= 0:
                    continue
                for t in range(self.T):
                    if self.landing(t) is not None:
                        out.append(ch * self.T + t)
        phase = self.phases[self.phase]
        if self.move != "stationary" and phase["movement"] == "allowed":
            for f in range(self.T):
                src = self.top_cell(f)
                if src is None or src not in self.board or src in self.phase_locked():
                    continue
                col = self.board[src]
                if col not in self.owned[s] or self.reserve[col] > 0:
                    continue
                fx, fy, fz = self.target_xyz(f)
                dests = set()
                steps = [d for d in ALL_DIRS if not (self.gravity and d[2])]
                if self.move == "adjacent-orthogonal" or (self.move == "adjacent-alquerque"
                                                          and (fx + fy) % 2):
                    # no diagonal: by the rule, or none is drawn through this point
                    steps = [d for d in steps if sum(map(abs, d)) == 1]
                for d in steps:
                    k = 1
                    while True:
                        p = (fx + k * d[0], fy + k * d[1], fz + k * d[2])
                        if not self.on_board(*p):
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
                        if self.on_board(*p):
                            dests.add(self.xyz_target(*p))
                for u in sorted(dests):
                    if u != f and self.landing(u) is not None:
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
        if (self.agree and not self.offered and self.left == self.ppt
                and not (self.chaos and self.seat == self.seats - 1)):
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
            if self.run_through(dest, col, diag) >= k:
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
                while self.board.get(p) == col:
                    n += 1
                    p = tuple(a + sign * b for a, b in zip(p, d))
            best = max(best, n)
        return best

    def _stalemate(self):
        st = self.stalemate
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
        self.cloaked = [{tuple(v - 1 for v in a) for a in ph["cloaked"]} for ph in r["phases"]]
        self.seen = {}
        self.plain = False      # a view: the plain rules, no cloaking
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
                        out.append("#" if c in self.locked or c in self.phase_locked() else ".")
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
        moving = self.offer_by is None and not placing and self.move != "stationary" \
            and a < self.move0 + self.T * self.T
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
