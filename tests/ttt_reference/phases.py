"""Setup and phases: seats, sides and colours, the pre-placed pieces and the
reserves, the spaces some seats may not enter or leave, and the phases
(which seats play, what is locked, when a phase ends and who folds).
"""

from __future__ import annotations

from games.ttt.rules import PALETTE, seats_of
from games.ttt.schema import SHAPES_ALL


class PhasesMixin:
    def _init_setup(self, r):
        n, chaos = seats_of(r["players"])
        self.n, self.chaos, self.seats = n, chaos, n + chaos  # Chaos, when it plays, is the last seat
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
        if not self.choose:  # a pre-placed piece of a colour no seat owns is communal
            self.colours += [
                c
                for c in PALETTE
                if c not in self.colours and any(q["colour"] == c for q in r["board"]["pieces"])
            ]
        self.side = [0, 1, 0, 1] if r["players"] == "partners" else list(range(n))
        if chaos:
            self.side.append(max(self.side) + 1)
        self.props = r["shapes"]
        self.names = [s for s in SHAPES_ALL if s in self.props]  # in rank order
        self.sres = [{s: r["reserves"].get(c, {}).get(s, 0) for s in self.names} for c in self.colours]
        self.reserve = [sum(d.values()) for d in self.sres]
        self.board, self.shape = {}, {}  # cell -> colour index, cell -> shape name
        for q in r["board"]["pieces"]:
            for w in self.copies(q["at"]):
                self.board[w] = self.colours.index(q["colour"])
                self.shape[w] = q["shape"]
        self.phases = r["phases"]
        self.phase = 0
        self.folded = set()
        self.ppt = r["pieces_per_turn"]
        self.passing = any(ph["pass"] for ph in self.phases)
        self.agree = r["agree_draw"]
        self.limit = r["move_limit"]
        self._init_spaces(r)

    # spaces --------------------------------------------------------------------------
    def _init_spaces(self, r):
        """Locked, sticky and exclusive spaces and per-player entry/exit locks,
        of the board and of each ``on_boards`` entry (on its boards only), as
        the rules page words them: a seat may not place or move onto a space
        whose entry is locked for it, nor move from one whose exit is."""

        def seat(name):
            return self.n if name == "chaos" else name - 1

        board = r["board"]
        self.locked = {w for a in board["locked"] for w in self.copies(a)}
        self.on_boards = board.get("on_boards", [])
        self.locked |= {
            w for e in self.on_boards for a in e.get("locked", []) for w in self.copies(a, e["boards"])
        }
        # (boards or None for every board, the fields) of the board and of each on_boards entry
        layers = [(None, board)] + [(e["boards"], e) for e in self.on_boards]
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

    # phases --------------------------------------------------------------------------
    def phase_locked(self):
        return {w for a in self.phases[self.phase]["locked"] for w in self.copies(a)}

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
        """The phase ends: the game's stalemate after the last one, else the
        fold rule ("less than most committed": a player with fewer pieces on
        spaces it can no longer leave than the most committed folds) and the
        next phase."""
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
