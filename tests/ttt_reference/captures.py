"""Captures: powers, covers and their results, "must capture", and the
cover of a by-stack mover, from docs/rules/ttt/captures.md (with "Powers
of by-stack movers") (its own rank table and its own reading of who is covered
and of what each result does, not the engine's).

A piece arriving on pieces of colours its mover does not own (a flat
board's one piece, or every such piece of a stack above its highest locked
cell) starts a conflict decided by the shapes' capture classes and ranks;
the captor's result removes, converts or reincarnates (x1, x2) the
captives, and when several colours' pieces capture the mover and one of
them converts or reincarnates, the captive is a pot dealt among them
(pots.py). "Must capture" makes every non-capture illegal when a capture
exists. A by-stack mover covers after its stack landed; two by-rank pieces
then compare their players' poker hands in the stack.
"""

from __future__ import annotations

from .geometry import ALL_DIRS, step
from .shapes import outranks

TRIAGONALS = [d for d in ALL_DIRS if all(d)]

#: a result's reincarnated pieces per captive ("reincarnates-x3": the Factory's
#: "convert, remove, triple, and add them to one's own reserves")
GAINS = {"reincarnates": 1, "reincarnates-x2": 2, "reincarnates-x3": 3}
#: the results that give the captive to the captor
SPLITTING = ("converts", "reincarnates", "reincarnates-x2", "reincarnates-x3")


def pot_multiple(results):
    """How many times a pot's pieces are dealt: "three reincarnate (x2)
    captors of two pieces, then one captor gets two and the others each get
    one" doubles a pot of x2 captors; a pot of x3 captors is tripled the same
    way. Captors whose gains differ (or that convert or remove) deal it once."""
    gains = {GAINS.get(r, 0) for r in results}
    return gains.pop() if len(gains) == 1 and min(gains) > 1 else 1


def pot_gain(result, multiple):
    """The reserve pieces a captor of ``result`` takes per dealt piece: its
    own gain when the pot was dealt once, else one (the pot was multiplied)."""
    return GAINS.get(result, 0) if multiple == 1 else 1


class CapturesMixin:
    def _init_captures(self):
        self.powers = any(self.level(n) for n in self.names)
        self.musts = any(self.props[n].get("power") == "must-capture" for n in self.names)
        self.splits = any(p.get("result") in SPLITTING for p in self.props.values())

    def power(self, name):
        return self.props[name]["power"]

    def level(self, name):
        """0 no power, 1 cover by rank, 2 any other capture."""
        p = self.props[name]
        if p["power"] == "none":
            return 0
        return 1 if p["condition"] == "cover-by-rank" else 2

    def fight(self, att, dfn):
        """Who wins when ``att`` covers ``dfn``: "attacker", "defender", "both" (mutual) or "none"."""
        la, ld = self.level(att), self.level(dfn)
        if la == ld == 0:
            return "none"
        if la > ld:
            return "attacker"
        if ld > la:
            return "defender"
        if la == 2:
            return "attacker"
        if outranks(att, dfn):
            return "attacker"
        if outranks(dfn, att):
            return "defender"
        return "both"

    def above(self, a, b):
        """Shape a ranks strictly above shape b in a capture."""
        la, lb = self.level(a), self.level(b)
        return la > lb if la != lb else (la == 1 and outranks(a, b))

    def gain(self, col, captive, n):
        """n reincarnated ``captive`` pieces into colour col's reserve."""
        self.sres[col][captive] += n
        self.reserve[col] += n

    def reincarnate(self, captor_col, captor_shape, captive_shape):
        self.gain(captor_col, captive_shape, GAINS.get(self.props[captor_shape]["result"], 0))

    # covers --------------------------------------------------------------------------------
    def covered(self, s, t):
        """The cells holding pieces a piece of seat s arriving on target t covers, top first."""
        if self.gravity:
            cells = [c for c in self.stack_cells(t) if c in self.board]
            return [c for c in reversed(cells) if self.board[c] not in self.owned[s]]
        c = self.target_xyz(t)
        return [c] if c in self.board and self.board[c] not in self.owned[s] else []

    def outcome(self, s, name, t):
        """("none"|"win"|"lose"|"mutual", cells involved) of seat s's ``name``
        arriving on target t; for "lose" the captors: "all players with the
        highest rank on the stack"."""
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

    def triagonal(self, name):
        p = self.props[name]
        return p.get("power", "none") != "none" and p.get("condition") == "move-on-triagonal"

    def triagonal_targets(self, s, f, name):
        """ "Move on triagonal": the targets seat s's ``name`` on target f
        captures by one step along a 3-D triagonal onto an opponent's piece
        on an open space it may enter (not away from its goal line if it
        cannot move backwards)."""
        if not self.triagonal(name):
            return []
        here, out = self.target_xyz(f), []
        for d in TRIAGONALS:
            c = step(here, d)
            if (
                not self.on_board(*c)
                or self.board_of(c) != self.board_of(here)
                or self.board_of(c) in self.decided
            ):
                continue
            if c not in self.board or self.board[c] in self.owned[s] or c in self.phase_locked():
                continue
            if not self.may_enter(s, c):
                continue
            u = self.xyz_target(*c)
            if self.no_back(name) and s < len(self.goals) and self.goal_dist(s, u) > self.goal_dist(s, f):
                continue
            out.append(u)
        return out

    def diagonal(self, name):
        p = self.props[name]
        return p.get("power", "none") != "none" and p.get("condition") == "move-on-diagonal-en-passant"

    def forward_diagonals(self, s):
        """The diagonal steps forward of seat s: two components non-zero, the
        one on its goal's axis towards its goal line (none without a goal)."""
        if s >= self.n or s >= len(self.goals):
            return []
        axis, high = self.goals[s]
        return [d for d in ALL_DIRS if sum(map(bool, d)) == 2 and d[axis] == (1 if high else -1)]

    def diagonal_targets(self, s, f, name):
        """ "Move on diag + en passe": the targets seat s's ``name`` on target f
        captures by one step diagonally forward onto an opponent's piece on an
        open space it may enter, or onto the space a pawn's double step just
        passed over (en passant)."""
        if not self.diagonal(name):
            return []
        here, out = self.target_xyz(f), []
        for d in self.forward_diagonals(s):
            c = step(here, d)
            if not self.on_board(*c) or self.board_of(c) != self.board_of(here):
                continue
            u = self.xyz_target(*c)
            if c in self.phase_locked() or not self.may_enter(s, u):
                continue
            if c in self.board and self.board[c] not in self.owned[s]:
                out.append(u)
            elif c not in self.board and self.en_passant_victim(s, f, u, name) is not None:
                out.append(u)
        return out

    def en_passant_victim(self, s, f, u, name, ep=False):
        """The cell of the pawn that seat s's ``name`` moving from f to the
        empty target u takes en passant (``ep``: the space passed over and the
        pawn, by default the current one), or None."""
        ep = self.ep if ep is False else ep
        if ep is None or ep[0] != u or not self.diagonal(name) or self.target_xyz(u) in self.board:
            return None
        if ep[1] not in self.board or self.board[ep[1]] in self.owned[s]:
            return None
        here, there = self.target_xyz(f), self.target_xyz(u)
        if tuple(b - a for a, b in zip(here, there, strict=True)) not in self.forward_diagonals(s):
            return None
        return ep[1]

    def flat_cover_ok(self, s, name, t):
        """Seat s may bring its ``name`` onto target t's piece of a flat board
        as a cover (a triagonal or diagonal capturer only along its steps)."""
        if self.triagonal(name) or self.diagonal(name):
            return False
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
        """(shape, target) of the piece action ``a`` of seat s brings, or
        None; a by-stack move's is its mover with no target."""
        if self.is_stack_id(a):
            return self.shape[self.stack_move_parts(a)[0]], None
        if not self.is_piece_action(a):
            return None
        if a < self.move0:
            name, _, t = self.placement_parts(a, s)
            return name, t
        f, u, _ = self.move_parts(a)
        return self.shape[self.top_cell(f)], u

    # what an action captures ----------------------------------------------------------------
    def capture_parts(self, s, a):
        """[(capturing shape, whether it captures)] of action ``a`` of seat s:
        one part, or (surround.py) two for a move whose goal replacement
        surrounds."""
        if not self.powers:
            return []
        if self.is_stack_id(a):
            return [(self.piece_of(s, a)[0], self.stack_captures(s, a))]
        if not self.is_piece_action(a):
            return []
        return [(self.forcing_shape(s, a), self.hits(s, a))]

    def forcing_shape(self, s, a):
        """The shape whose power decides whether the capture of ``a`` forces:
        the moving or placed piece's."""
        return self.piece_of(s, a)[0]

    def hits(self, s, a):
        """Whether the piece action ``a`` captures: here, its cover wins (en
        passant: the cover of the pawn as if it had made one step)."""
        name, t = self.piece_of(s, a)
        victim = None
        if self.en_passant and a >= self.move0:
            victim = self.en_passant_victim(s, self.move_parts(a)[0], t, name)
        if victim is None:
            return self.outcome(s, name, t)[0] == "win"
        c = self.target_xyz(t)
        self.board[c], self.shape[c] = self.board.pop(victim), self.shape.pop(victim)
        won = self.outcome(s, name, t)[0] == "win"
        self.board[victim], self.shape[victim] = self.board.pop(c), self.shape.pop(c)
        return won

    def captors(self, s, a):
        """The capturing shapes of the captures action ``a`` makes ([] when it captures nothing)."""
        return [n for n, hit in self.capture_parts(s, a) if hit]

    def captures(self, s, a):
        return bool(self.captors(s, a))

    def forces(self, s, a):
        """ "Must capture": one of the captures of ``a`` is made by a must-capture shape."""
        return any(self.power(n) == "must-capture" for n in self.captors(s, a))

    def seat_actions(self, s):
        out = set(super().seat_actions(s))
        if self.powers and not self.gravity:
            phase = self.phases[self.phase]
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
                        if self.flat_cover_ok(s, name, u):
                            out |= set(self.move_ids(s, name, f, u))
                    for u in self.triagonal_targets(s, f, name) + self.diagonal_targets(s, f, name):
                        out |= set(self.move_ids(s, name, f, u))
        out = sorted(out)
        if self.musts and any(self.forces(s, a) for a in out):
            out = [a for a in out if self.captures(s, a)]  # "no non-capture is legal" (a pass is one)
        return out

    # applying a cover ----------------------------------------------------------------------
    def play(self, a):
        got = self.piece_of(self.seat, a) if self.offer_by is None and self.is_piece_action(a) else None
        if got is None or self.outcome(self.seat, got[0], got[1])[0] == "none":
            return super().play(a)
        s = self.seat
        name, t = got
        goal_reached, replace = False, None
        if a < self.move0:
            _, col, _ = self.placement_parts(a)
            self.sres[col][name] -= 1
            self.reserve[col] -= 1
        else:
            f, _, replace = self.move_parts(a)
            src = self.top_cell(f)
            col = self.board.pop(src)
            self.shape.pop(src)
            goal_reached = self.reaches_goal(s, f, t)
        stays = self.cover_land(s, name, col, t, replace)
        if self.pot is not None:
            return  # the ply ends when the pot is dealt
        self.end_ply(stays, col, goal_reached)

    def cover_land(self, s, name, col, t, replace=None):
        """A piece (shape ``name``, colour ``col``) of seat s arriving on
        target t as a cover; returns the cell where it stays as s's piece, or
        None. A split leaves a pot (pots.py)."""
        verdict, cells = self.outcome(s, name, t)
        if not self.gravity:
            c = self.target_xyz(t)
            if verdict == "win":
                self.reincarnate(col, name, self.shape[c])
                self.board[c], self.shape[c] = col, replace or name
                return c
            if verdict == "lose":
                self.reincarnate(self.board[c], self.shape[c], name)
            else:
                del self.board[c], self.shape[c]
            return None
        column = [(c, self.board[c], self.shape[c]) for c in self.stack_cells(t) if c in self.board]
        before = {c: (pcol, pshape) for c, pcol, pshape in column}
        for c, _, _ in column:
            del self.board[c], self.shape[c]
        kept = []
        for c, pcol, pshape in column:
            if c in cells and verdict == "mutual":
                continue
            if c in cells and verdict == "win":
                if self.props[name]["result"] == "converts":
                    kept.append((col, pshape))
                else:
                    self.reincarnate(col, name, pshape)
                continue
            kept.append((pcol, pshape))
        if verdict == "win":
            kept.append((col, replace or name))
        elif verdict == "lose":
            firsts = {}
            for c in cells:
                firsts.setdefault(*before[c])
            if not self.pot_of(firsts, t, name):
                captor_col, captor_shape = before[cells[0]]
                if self.props[captor_shape]["result"] == "converts":
                    kept.append((captor_col, name))
                else:
                    self.reincarnate(captor_col, captor_shape, name)
        up = self.stack_cells(t)
        for i, (pcol, pshape) in enumerate(kept):
            self.board[up[i]], self.shape[up[i]] = pcol, pshape
        return up[len(kept) - 1] if verdict == "win" else None

    def pot_of(self, firsts, t, name):
        """Captors of several colours (``firsts``: colour -> its first
        captor's shape) with a result that gives the captive away split it:
        the captive ``name`` becomes a pot on target t. True if it did."""
        if len(firsts) < 2 or not self.splits:
            return False
        captors = sorted(firsts.items())
        multiple = pot_multiple([self.props[sh]["result"] for _, sh in captors])
        self.add_pot({"t": t, "name": name, "captors": captors, "pieces": multiple})
        return True

    # the cover of a by-stack mover -------------------------------------------------------------
    def owner_cols(self, col):
        """The colours of the seat that owns col (none for a communal colour)."""
        return next((self.owned[s] for s in range(self.seats) if col in self.owned[s]), set())

    def stack_outcome(self, s, name, board, shape, x, y, h):
        """("none"|"win"|"lose"|"mutual", cells) of a by-stack mover ``name``
        of seat s that landed at height h of stack (x, y) in ``board``/``shape``:
        the covers' classes, except that two by-rank pieces compare their
        players' poker hands in the stack (own and communal pieces, powerless
        shapes left out; a communal defender's player is nobody)."""
        covered = [
            (x, y, z)
            for z in reversed(range(self.base(x, y), h))
            if (x, y, z) in board and board[(x, y, z)] not in self.owned[s]
        ]
        hands = {}

        def hand_of(cols):
            key = frozenset(cols)
            if key not in hands:
                hands[key] = self.hand(cols, board, shape, x, y)
            return hands[key]

        def fight(c):
            if self.level(name) == 1 and self.level(shape[c]) == 1:
                mine, other = hand_of(self.owned[s]), hand_of(self.owner_cols(board[c]))
                return "attacker" if mine > other else "defender" if other > mine else "both"
            return self.fight(name, shape[c])

        def above(a, b):
            la, lb = self.level(shape[a]), self.level(shape[b])
            if la != lb:
                return la > lb
            return la == 1 and hand_of(self.owner_cols(board[a])) > hand_of(self.owner_cols(board[b]))

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

    def stack_captures(self, s, a):
        """Whether the by-stack move ``a`` of seat s captures: its cover wins."""
        board, shape, (x, y, h), _ = self.after_stack_move(s, a)
        return self.stack_outcome(s, shape[(x, y, h)], board, shape, x, y, h)[0] == "win"

    def cover_by_stack(self, s, u, mover, n):
        """The landed by-stack mover on ``mover`` (its n pieces landed on
        stack u) covers the pieces of other colours under it: the one
        resolution of a by-stack cover, in a sequential ply and in a round.
        Returns the cells credited to s (none when the mover did not stay)."""
        x, y, h = mover
        col, name = self.board[mover], self.shape[mover]
        board, shape = dict(self.board), dict(self.shape)
        verdict, cells = self.stack_outcome(s, name, board, shape, x, y, h)
        if verdict == "none":
            return super().cover_by_stack(s, u, mover, n)
        column = [(c, board[c], shape[c]) for c in self.stack_cells(u) if c in board]
        for c, _, _ in column:
            del self.board[c], self.shape[c]
        kept, at = [], None
        for c, pcol, pshape in column:
            if c == mover:
                if verdict == "mutual":
                    continue
                if verdict == "lose":
                    firsts = {}
                    for e in cells:
                        firsts.setdefault(board[e], shape[e])
                    if not self.pot_of(firsts, u, name):
                        ccol, cshape = board[cells[0]], shape[cells[0]]
                        if self.props[cshape]["result"] == "converts":
                            kept.append((ccol, pshape))
                        else:
                            self.reincarnate(ccol, cshape, pshape)
                    continue
                at = len(kept)
            elif c in cells and verdict == "mutual":
                continue
            elif c in cells and verdict == "win":
                if self.props[name]["result"] == "converts":
                    kept.append((col, pshape))
                else:
                    self.reincarnate(col, name, pshape)
                continue
            kept.append((pcol, pshape))
        up = self.stack_cells(u)
        for i, (pcol, pshape) in enumerate(kept):
            self.board[up[i]], self.shape[up[i]] = pcol, pshape
        if at is None:
            return []
        return [(up[at][0], up[at][1], up[at][2] + j) for j in range(n)]


class EnPassantMixin:
    """ "En passant" (docs/rules/ttt/turns.md, "En passant"): the space a
    pawn's double step passed over lasts one ply (a draw offer and its
    answers are no ply, nor is a deal); a diagonal capture onto it takes that
    pawn as if it had made one step."""

    def play(self, a):
        if not self.en_passant or self.offer_by is not None or a == self.a_offer or self.dealing():
            return super().play(a)
        s, ep, self.ep = self.seat, self.ep, None
        if self.is_piece_action(a) and a >= self.move0 and not self.is_stack_id(a):
            f, u, _ = self.move_parts(a)
            name = self.shape[self.top_cell(f)]
            victim = self.en_passant_victim(s, f, u, name, ep)
            if victim is not None:  # taken as if it had made one step
                c = self.target_xyz(u)
                self.board[c], self.shape[c] = self.board.pop(victim), self.shape.pop(victim)
            double = self.props[name]["move"] == "pawn-forward-center" and (
                abs(self.goal_dist(s, f) - self.goal_dist(s, u)) == 2
            )
            if double and self.outcome(s, name, u)[0] in ("none", "win"):
                # a double step whose pawn stays: the space it passes over for the
                # next ply, set before this ply ends (which may ask for moves)
                c, here = self.target_xyz(u), self.target_xyz(f)
                self.ep = (self.xyz_target(*((x + y) // 2 for x, y in zip(here, c, strict=True))), c)
        super().play(a)
