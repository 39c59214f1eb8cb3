"""Turns and legal moves: the action ids, who is to move, placements and
moves, passes, draw offers, and the end of a ply.

Action ids, in order: a placement ``(k*P + c)*T + t`` (k the shape's index
in rank order, c the chosen colour when players choose, else 0); a move
``move0 + f*T + u``; a move reaching the goal that names a replacement
``rep0 + (r*T + f)*T + u``; a by-stack move (stacks.py); then pass, offer,
agree, refuse when the rule set has them, and end-chain (jumps.py) last.
"""

from __future__ import annotations


class TurnsMixin:
    def _layout_placements_and_moves(self):
        self.P = len(self.colours) if self.choose else 1
        a = len(self.names) * self.P * self.T
        self.move0 = a
        if self.any_move:
            a += self.T * self.T
        self.rep0 = a
        if self.any_move:
            a += len(self.replacers) * self.T * self.T
        self.num_actions = a

    def _layout_pass_and_offers(self):
        a = self.num_actions
        self.a_pass = self.a_offer = self.a_agree = self.a_refuse = None
        if self.passing:
            self.a_pass, a = a, a + 1
        if self.agree:
            self.a_offer, self.a_agree, self.a_refuse, a = a, a + 1, a + 2, a + 3
        self.num_actions = a

    def _init_turns(self):
        self.plies = 0
        self.offer_by = None
        self.answerer = None

    # decoding ---------------------------------------------------------------------------
    def placement_parts(self, a, s=None):
        """(shape, colour index, target) of a placement id of seat s (default:
        the seat to move)."""
        k, rest = divmod(a, self.P * self.T)
        ch, t = divmod(rest, self.T)
        return self.names[k], (ch if self.choose else min(self.owned[self.seat if s is None else s])), t

    def move_parts(self, a):
        """(source target, destination target, replacement shape or None) of
        a move id, or None for any other action."""
        if not self.any_move or a is None or not self.move0 <= a < self.stk0:
            return None
        if a < self.rep0:
            f, u = divmod(a - self.move0, self.T)
            return f, u, None
        r, rest = divmod(a - self.rep0, self.T * self.T)
        f, u = divmod(rest, self.T)
        return f, u, self.replacers[r]

    def is_piece_action(self, a):
        """A placement or a move (not a by-stack move, pass, offer or end-chain)."""
        return a is not None and a < self.stk0

    # who moves, and what they may do ----------------------------------------------------------
    def current_player(self):
        if self.result is not None:
            return -4
        if self.offer_by is not None:
            return self.answerer
        if self.chaos and self.seat == self.seats - 1:
            return -1
        return self.seat

    def is_chaos(self, s):
        return self.chaos and s == self.seats - 1

    def legal_actions(self):
        if self.result is not None:
            return []
        if self.offer_by is not None:
            return [self.a_agree, self.a_refuse]
        acts = self.seat_actions(self.seat)
        if self.agree and not self.offered and self.left == self.ppt and not self.is_chaos(self.seat):
            acts.append(self.a_offer)
        return acts

    def seat_actions(self, s):
        """Seat s's placements, moves and pass in the position as it stands."""
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
                    if c is not None and self.may_enter(s, c):
                        out += self.move_ids(s, name, f, u)
        if phase["pass"]:
            out.append(self.a_pass)
        return sorted(out)

    def move_ids(self, s, name, f, u):
        """The ids of seat s moving its ``name`` from f to u: one, or one per
        replacement shape when the move must name one."""
        if self.reaches(s, name, f, u):
            return [self.rep0 + (r * self.T + f) * self.T + u for r in range(len(self.replacers))]
        return [self.move0 + f * self.T + u]

    def has_move(self, s):
        return any(a != self.a_pass for a in self.seat_actions(s))

    # applying -----------------------------------------------------------------------------
    def apply(self, a):
        assert a in self.legal_actions(), (a, self.legal_actions())
        self.play(a)

    def play(self, a):
        """Apply the legal action ``a`` (each concept takes the actions it rules)."""
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
        goal_reached = False
        if a < self.move0:
            name, col, t = self.placement_parts(a)
            self.sres[col][name] -= 1
            self.reserve[col] -= 1
        else:
            f, t, replace = self.move_parts(a)
            src = self.top_cell(f)
            col, name = self.board.pop(src), self.shape.pop(src)
            name = replace or name
            goal_reached = self.reaches_goal(self.seat, f, t)
        dest = self.landing(t)
        self.board[dest] = col
        self.shape[dest] = name
        return self.end_ply(dest, col, goal_reached)

    def end_ply(self, stays, col, goal_reached):
        """The rest of a ply once the piece stays on ``stays`` (None: it did
        not, e.g. lost a cover): line checks, goal, length bound, next seat."""
        self.end_carry([] if stays is None else [stays], goal_reached and stays is not None)

    def end_carry(self, landed, goal_reached):
        """The end of a ply whose pieces landed on the cells ``landed`` (a
        by-stack move carries several; any of them may make a line)."""
        self.passes = 0
        self.plies += 1
        if landed:
            self.note_last_row(landed)
        if landed and self.line_checks(landed):
            return
        if self.pentagon_check():
            return
        if goal_reached:
            return self._stalemate_or_next_phase()
        if self.limit and self.plies >= self.limit:
            return self._stalemate()
        self._ply_done()

    def _ply_done(self):
        self.left -= 1
        if self.left == 0 or not self.has_move(self.seat):
            self._next_seat()

    def _next_answerer(self, s):
        s = (s + 1) % self.seats
        if self.is_chaos(s):
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
            self.stuck = self.seat  # "Stalemate loses/wins" score this seat
            self._stalemate_or_next_phase()
            self.stuck = None
