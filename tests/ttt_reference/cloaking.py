"""Cloaking: what each seat sees, what it learns of events, obscurity and
hidden turns, from docs/rules/ttt/cloaking.md (with its sections
on shapes, stacks, captures, jumps and rounds).

A player fully sees every piece it placed, every piece it can move, every
piece on a non-cloaked space, every piece it has fully seen before and
every piece it attempted to cover; under obscurity also every piece of its
own colours, and the colour (not the shape) of every other piece. A
player's legal actions are those of the position as it sees it (a hidden
piece looks like an empty space; a jumper may also try to jump over a
cloaked space that looks empty, as it may hide a piece, but such a tried
jump never forces). An action legal there but not in the truth (where
"must capture" forces nothing: the forcing is about what the mover sees),
or a move whose true source piece (on stacks: stack height) the mover does
not see, only reveals the pieces on its target and source (and, for a
jumper, the space between) and ends the turn: an attempt. Chaos plays the
true position. Under obscurity a cover onto a piece seen by its colour only
is offered whenever the rest of a cover's conditions hold (it could be a
shape with a power), and "must capture" keeps only the captures the mover
sees (onto a piece it fully sees, or by a shape of the class that beats
every shape).

``seen`` maps each occupied cell to the seats that fully saw its piece and
moves with the piece: a placed piece is seen by its placer, a moved piece
(and every piece a by-stack move carries) keeps who saw it, a cover's
defender that stays is seen by the mover, a converted captive by the
captor's player, a destroyed piece is forgotten. In a round every plan is
judged on the true start of the round when it resolves: one illegal there
(or, on stacks, a move whose true top piece its planner does not see) is an
attempt that reveals the pieces on its target and source; the others
resolve as the round does (rounds.py).

With ``cloaking_hides_walls`` a locked space (the board's or the phase's)
that is cloaked in the current phase is a wall a seat sees only once it has
seen it: on an open space (remembered while the space stays locked), or by
an attempt whose target, source or jumped space it is ("the result will be
only to make the invisible piece or wall visible"). A seat's view leaves
the walls it does not see out of its locked spaces.
"""

from __future__ import annotations

import copy

from .captures import GAINS


class CloakingMixin:
    plain = False  # a copy that plays the plain rules (the truth, or a seat's view)
    unforced = False  # the truth an attempt is judged on: "must capture" forces nothing
    shape_hidden = frozenset()  # in an obscured view: cells whose shape the seat does not see
    phantoms = frozenset()  # in a hidden view: cloaked spaces that look empty (a jump may try them)
    unseen_walls = frozenset()  # in a hidden view: the walls its viewer does not see

    def _init_cloaking(self, r):
        self.cloak = r["cloaking"] if any(ph["cloaked"] for ph in r["phases"]) else "none"
        self.cloaked = [{w for a in ph["cloaked"] for w in self.copies(a)} for ph in r["phases"]]
        self.seen = {c: set() for c in self.board}
        self.last_attempt = False
        self.attempts = []  # the seat of every attempt so far, in order
        self.carried_seen = {}  # seat -> who had seen the piece its plan lifted
        self.gain_seen = None  # (colour index, count, shape) a cover put into a reserve, or None
        self.ply_gains = []  # what the action being applied put into reserves
        self.last_captives, self.last_actor = [], None
        self.hides_walls = bool(r.get("cloaking_hides_walls", False))
        self.wall_seen = {}  # cell -> the seats that saw its wall

    # invisible walls ------------------------------------------------------------------------------
    def phase_locked(self):
        return super().phase_locked() - self.unseen_walls

    def walls(self):
        """The spaces locked for every player now (for the game or the phase)."""
        return set(self.locked) | super().phase_locked()

    def hides_wall(self, p, c):
        """Whether c holds a wall that seat p does not see (on a board
        decided in play every space shows locked: "a decided board stays
        visible")."""
        return (
            self.hides_walls
            and c in self.walls()
            and c in self.cloaked[self.phase]
            and p not in self.wall_seen.get(c, set())
            and self.board_of(c) not in (self.decided if self.closed is None else self.closed)
        )

    def refresh_walls(self):
        """Walls on open spaces are seen by everyone; an unlocked space has no wall."""
        walls = self.walls()
        self.wall_seen = {c: who for c, who in self.wall_seen.items() if c in walls}
        for c in walls - self.cloaked[self.phase]:
            self.wall_seen[c] = set(range(self.seats))

    # who sees what --------------------------------------------------------------------------------
    def can_move(self, p, c):
        """Whether seat p can move the piece on c ("every piece they can
        move"): per shape; a by-stack piece from any height it may carry."""
        col = self.board.get(c)
        if col is None or not self.any_move or self.phases[self.phase]["movement"] != "allowed":
            return False
        if p not in self.playing():
            return False
        name = self.shape[c]
        if self.is_by_stack(name):
            return self.carried(p, c) is not None
        if col not in self.owned[p] or self.sres[col][name] > 0 or self.props[name]["move"] == "stationary":
            return False
        if c in self.locked or c in self.phase_locked() or not self.may_exit(p, c):
            return False
        if self.board_of(c) in self.decided:
            return False
        if self.gravity:
            return self.top_cell(self.xyz_target(c[0], c[1], 0)) == c
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
        if self.hides_walls:
            self.refresh_walls()
        for c in self.board:
            for p in range(self.seats):
                if self.fully_sees(p, c):
                    self.seen.setdefault(c, set()).add(p)

    def plain_copy(self, viewer=None):
        """A copy that plays the plain rules: the truth (where "must capture"
        forces nothing), or (viewer given) the position as the viewer sees it."""
        v = copy.copy(self)
        v.plain = True
        v.board, v.shape = dict(self.board), dict(self.shape)
        v.reserve = list(self.reserve)
        v.sres = [dict(d) for d in self.sres]
        v.unforced = viewer is None
        v.phantoms = frozenset()
        if viewer is not None:
            v.unseen_walls = frozenset(c for c in self.walls() if self.hides_wall(viewer, c))
            v.locked = set(self.locked) - v.unseen_walls
            v.board = {c: col for c, col in self.board.items() if self.sees_piece(viewer, c)}
            if self.cloak == "hides" and not self.gravity:
                v.phantoms = frozenset(
                    c
                    for c in self.cloaked[self.phase]
                    if c not in v.board and c not in v.locked and c not in v.phase_locked()
                )
        return v

    # rules as each seat sees them -----------------------------------------------------------------
    def power(self, name):
        p = super().power(name)
        return "can-capture" if self.unforced and p == "must-capture" else p

    def seat_actions(self, s):
        if self.plain or self.cloak == "none" or self.is_chaos(s):
            return super().seat_actions(s)
        if self.cloak == "hides":
            return self.plain_copy(viewer=s).seat_actions(s)
        if self.pot is not None:
            return super().seat_actions(s)
        v = self.plain_copy()
        v.unforced = False  # forcing stays, on the captures it sees
        v.shape_hidden = frozenset(c for c in self.board if not self.fully_sees(s, c))
        return v.seat_actions(s)

    def converted_by_jump(self, m):
        if not self.plain and self.cloak != "none":
            self.seen.setdefault(m, set()).add(self.seat)  # the captor saw what it captured

    def chain_offered(self, u, name):
        """Under invisibility a chain goes on when its mover's view has a jump,
        tried ones included: the offer tells it nothing it does not see."""
        if self.plain or self.cloak != "hides" or self.is_chaos(self.seat):
            return super().chain_offered(u, name)
        return bool(self.plain_copy(viewer=self.seat).jumps(self.seat, u, name))

    def flat_cover_ok(self, s, name, t):
        c = self.target_xyz(t)
        if (
            not self.gravity
            and c in self.shape_hidden
            and c in self.board
            and self.board[c] not in self.owned[s]
            and not (self.jumper(name) or self.surrounder(name))
        ):  # a piece seen by its colour only: it could be a shape with a power
            return (
                c not in self.phase_locked() and self.board_of(c) not in self.decided and self.may_enter(s, c)
            )
        return super().flat_cover_ok(s, name, t)

    def sees_capture(self, s, a, name):
        """Whether seat s sees that the capture of ``a`` by shape ``name``
        (a cover's the one that moves, a surround's the one that lands) will
        capture: onto a piece it fully sees, or by a shape that beats every shape."""
        t = self.piece_of(s, a)[1]
        if self.level(name) == 2:
            return True
        if self.gravity:  # every piece the cover would take is one it fully sees
            return not any(c in self.shape_hidden for c in self.covered(s, t))
        return self.target_xyz(t) not in self.shape_hidden

    def captors(self, s, a):
        out = super().captors(s, a)
        if not self.shape_hidden or self.is_stack_id(a):
            return out
        return [n for n in out if self.sees_capture(s, a, n)]

    # applying -------------------------------------------------------------------------------------
    def play(self, a):
        self.last_attempt = False
        self.gain_seen = None
        self.last_captives, self.last_actor = [], None
        if self.plain or self.cloak == "none" or (self.result is None and self.plans is not None):
            return super().play(a)  # a plan: the round's resolution keeps who sees what
        if (
            self.offer_by is not None
            or self.pot is not None
            or not (self.is_piece_action(a) or self.is_stack_id(a))
        ):
            super().play(a)
            return self.refresh()
        actor = self.seat
        if not self.is_chaos(actor) and self.is_attempt(actor, a):
            return self.attempt(actor, a)
        if self.is_stack_id(a):
            self.play_by_stack_seen(actor, a)
        else:
            self.play_seen(actor, a)
        self.refresh()

    def is_attempt(self, actor, a):
        truth = self.plain_copy()
        if a not in truth.legal_actions():
            return True
        if self.cloak != "hides":
            return False
        looks = self.plain_copy(viewer=actor)
        if self.is_stack_id(a):
            f = self.stack_move_parts(a)[1]
            return truth.height(f) != looks.height(f)
        parts = self.move_parts(a)
        return parts is not None and truth.top_cell(parts[0]) != looks.top_cell(parts[0])

    def attempt_targets(self, a):
        """The targets an attempted action reveals: its target, its source and,
        when pieces block line moves, every target between them on their line
        (each piece in the way makes the move illegal by itself)."""
        if self.is_stack_id(a):
            _, f, u, _ = self.stack_move_parts(a)
            return {u, f}
        parts = self.move_parts(a)
        if parts is None:
            return {a % self.T}
        return {parts[0], parts[1]} | self.in_the_line(parts[0], parts[1])

    def in_the_line(self, f, t):
        """The targets strictly between f and t when they are two or more
        steps apart on one line and pieces block line moves; else none."""
        sliding = ("orthogonal", "rook-orthogonal-castle", "diagonal", "linear", "linear-or-knight")
        if self.over_pieces or not any(p.get("move") in sliding for p in self.props.values()):
            return set()
        here, there = self.target_xyz(f), self.target_xyz(t)
        d = [b - a for a, b in zip(here, there, strict=True)]
        k = max(abs(x) for x in d)
        if k < 2 or any(x not in (-k, 0, k) for x in d):
            return set()
        unit = [x // k for x in d]
        return {self.xyz_target(*(a + i * u for a, u in zip(here, unit, strict=True))) for i in range(1, k)}

    def between(self, a):
        """The space a move two steps along a line passes over (a jumper's
        attempt reveals it too), or None."""
        parts = self.move_parts(a)
        if parts is None or self.gravity:
            return None
        src = self.top_cell(parts[0])
        if src not in self.board or not self.jumper(self.shape[src]):
            return None
        here, there = self.target_xyz(parts[0]), self.target_xyz(parts[1])
        d = tuple(b - a for a, b in zip(here, there, strict=True))
        if all(x in (-2, 0, 2) for x in d) and any(d):
            return tuple(a + b // 2 for a, b in zip(here, d, strict=True))
        return None

    def attempt(self, actor, a):
        """The action only reveals the pieces on its target and source, and ends
        the turn (a chain's extra jump that fails ends the chain with it)."""
        self.chain = None
        self.last_attempt = True
        self.attempts.append(actor)
        targets = self.attempt_targets(a)
        for c in self.board:
            if self.target_of(c) in targets:
                self.seen.setdefault(c, set()).add(actor)
        mid = self.between(a)
        if mid is not None and mid in self.board:
            self.seen.setdefault(mid, set()).add(actor)
        if self.hides_walls:  # the walls it ran into
            for c in self.walls():
                if self.target_of(c) in targets or c == mid:
                    self.wall_seen.setdefault(c, set()).add(actor)
        self.passes = 0
        self.plies += 1
        if self.limit and self.plies >= self.limit:
            self._stalemate()
        else:
            self._next_seat()
        self.refresh()

    def play_seen(self, actor, a):
        """A real placement or move: the plain rules, with who saw each piece kept."""
        mid = self.between(a)
        parts = self.move_parts(a)
        src = mover_name = None
        if parts is None:
            t = a % self.T
            mover = {actor}
        else:
            t = parts[1]
            src = self.top_cell(parts[0])
            mover_name = self.shape[src]
            mover = self.seen.pop(src, set())
        target = self.target_xyz(t)
        covering = not self.gravity and target in self.board and mid is None
        old = set(self.seen.get(target, set()))
        dest = self.landing(t)
        if dest is not None:
            self.seen[dest] = mover  # before the move: the next turn's views read it
        self.arriving_seen = set(mover)  # a cover on a stack gives it to the attacker (cover_land)
        before = None
        if self.jumpers or self.any_surrounder:
            before = {
                c: (col, self.shape[c], {p for p in range(self.seats) if self.sees_piece(p, c)})
                for c, col in self.board.items()
            }
        self.ply_gains = []
        super().play(a)
        if covering:
            col = self.board.get(target)
            if col is None:
                self.seen.pop(target, None)  # both destroyed
            elif col not in self.owned[actor]:
                self.seen[target] = old | {actor}  # the defender stays, now seen by the mover
            else:
                self.seen[target] = mover  # the attacker's own: it captured
            assert len(self.ply_gains) <= 1, self.ply_gains  # one captor, one captive on a flat board
            self.gain_seen = self.ply_gains[0] if self.ply_gains else None
        self.last_actor = actor
        if before is None:
            return
        for c, (col, name, saw) in before.items():
            if c in (src, target) or self.board.get(c) == col:
                continue
            converted = c in self.board
            captor = self.board.get(target)
            by = mover_name if c == mid else self.shape.get(target)
            gain = 0 if converted or by is None else GAINS.get(self.props[by].get("result"), 0)
            self.last_captives.append((c, saw, converted, name, gain, captor))
            if converted:
                self.seen.setdefault(c, set()).add(actor)
            else:
                self.seen.pop(c, None)
        self.last_captives.sort(key=lambda e: self.cell_index(e[0]))

    def cover_land(self, s, name, col, t, replace=None):
        """A cover on a stack with cloaked spaces: the true stack judges it;
        every piece that stays keeps who saw it (the attacker: its placer, or
        who saw it at its source), and the mover fully sees every piece left
        from the cover's base up ("every piece they have attempted to
        cover"); captives that leave are forgotten."""
        if self.plain or self.cloak == "none" or not self.gravity:
            return super().cover_land(s, name, col, t, replace)
        verdict, cells = self.outcome(s, name, t)
        converts = lambda shape: self.props[shape].get("result") == "converts"  # noqa: E731
        column = [c for c in self.stack_cells(t) if c in self.board]
        kept = []
        for c in column:
            if c in cells and (verdict == "mutual" or (verdict == "win" and not converts(name))):
                continue
            kept.append(set(self.seen.get(c, set())))
        if verdict == "win" or (verdict == "lose" and converts(self.shape[cells[0]])):
            kept.append(set(self.arriving_seen))
        stays = super().cover_land(s, name, col, t, replace)
        for c in self.stack_cells(t):
            self.seen.pop(c, None)
        for c, who in zip(self.stack_cells(t), kept, strict=False):  # the cells from the base up
            self.seen[c] = who | {s}
        return stays

    def play_by_stack_seen(self, actor, a):
        """A real by-stack move: every carried piece keeps who saw it."""
        c, _, u, _ = self.stack_move_parts(a)
        cells = self.carried(actor, c)
        ux, uy, _ = self.target_xyz(u)
        h = self.height(u)
        moved = [self.seen.pop(w, set()) for w in cells]
        for j, who in enumerate(moved):  # before the move: the next turn's views read them
            self.seen[(ux, uy, h + j)] = who
        super().play(a)

    def _start_phase(self, k):
        self.refresh()
        self.phase = k
        self.refresh()
        super()._start_phase(k)

    # cloaked rounds ---------------------------------------------------------------------------------
    def _resolve(self):
        if self.plain or self.cloak == "none":
            return super()._resolve()
        self.round_attempts = set()
        self.carried_seen = {}
        if self.cloak == "hides" or self.powers:  # under obscurity a cover may be an attempt
            for s, a in self.plans.items():
                if a == self.a_pass or self.is_chaos(s):
                    continue
                truth, looks = self.plain_copy(), self.plain_copy(viewer=s)
                parts = self.move_parts(a)
                if a not in truth.seat_actions(s) or (
                    parts is not None and truth.top_cell(parts[0]) != looks.top_cell(parts[0])
                ):
                    self.round_attempts.add(s)
            for s in self.round_attempts:
                targets = self.attempt_targets(self.plans[s])
                for c in self.board:
                    if self.target_of(c) in targets:
                        self.seen.setdefault(c, set()).add(s)
        self.attempts += sorted(self.round_attempts)
        super()._resolve()
        self.refresh()

    def arrive(self, s, name, col, t):
        """A round's piece arrives (a cover when it covers): on stacks
        cover_land keeps the seen masks; on a flat board a defender that
        stays is seen by the planner ("attempted to cover"), an emptied
        space forgets."""
        if self.plain or self.cloak == "none":
            return super().arrive(s, name, col, t)
        self.arriving_seen = set(self.carried_seen.get(s, {s}))
        covering = self.outcome(s, name, t)[0] != "none"
        c = self.target_xyz(t)
        stays = super().arrive(s, name, col, t)
        if covering and not self.gravity and stays is None:
            if c in self.board:
                self.seen.setdefault(c, set()).add(s)
            else:
                self.seen.pop(c, None)
        return stays

    def take_collided(self, senders, sending, winner, col, name, t):
        """A collider converted onto the stack is seen by the winner's planner."""
        before = set(self.board)
        super().take_collided(senders, sending, winner, col, name, t)
        if not self.plain and self.cloak != "none":
            for c in set(self.board) - before:
                self.seen[c] = {winner}

    def _round_lift(self, movers, cells):
        if self.cloak == "none":
            return
        seen = [self.seen.pop(w, set()) for w in cells]
        for s in movers:
            self.carried_seen[s] = seen[0] if seen else set()

    def _round_land(self, s, dest):
        if self.cloak == "none":
            return
        self.seen[dest] = set(self.carried_seen.pop(s)) if s in self.carried_seen else {s}

    def gain(self, col, captive, n):
        super().gain(col, captive, n)
        if n:
            self.ply_gains.append((col, n, captive))

    # what each player reads of the last action -------------------------------------------------------
    def gain_text(self, p):
        """A cover's reincarnation as player p reads it ('' if none): the
        reserves are public, so everyone learns the colour and the count, the
        players of the captor's colour the shape."""
        if self.gain_seen is None:
            return ""
        c, n, name = self.gain_seen
        shape = f" {name}" if c in self.owned[p] else ""
        return f"; {self.colours[c]}'s reserve gains {n}{shape} (reincarnated)"

    def capture_text(self, p):
        """What player p reads of the last action's jump or surround captives:
        those it saw before (the mover all of them), gone or converted to the
        captor's colour; a reincarnation's count is public, its shapes told
        to the captor's colour's players."""
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


# hidden turns: an independent account of what a player knows when another
# seat's unseen turn leaves no trace, built on the model's views rather than
# on the engine's event log: a player knows its own actions (and whether each
# only revealed), the actions of others whose placed piece it saw land, every
# action that is not a placement (passes, offers: public), the phase after
# each of these, and what it sees now (colours and shapes) with its own
# reserves, per shape.


def hidden_turns_step(ref, a):
    """Apply action ``a`` to the reference state ``ref``; the step's record
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
    mine = tuple((ref.reserve[c], tuple(sorted(ref.sres[c].items()))) for c in sorted(ref.owned[p]))
    return tuple(known), tuple(ref.view(p)), tuple(ref.shape_view(p)), ref.current_player(), ref.phase, mine
