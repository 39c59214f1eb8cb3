"""Engine-only checks shared by the tic-tac-toe test files (the reference
model itself lives in ttt_reference.py)."""

from __future__ import annotations

import random

import pytest

from games.ttt import make_core


def cells(X, Y):
    """Every space of an X x Y flat board, as a phase's ``cloaked`` list."""
    return [[x, y, 1] for x in range(1, X + 1) for y in range(1, Y + 1)]


def cloaked_rule_set(name, **kw):
    """A small hidden (``cloaking: hides``) 3x3 rule set for the cloaked-capture
    tests, ``kw`` overriding any field."""
    from games.ttt import rules

    rec = {
        "name": name,
        "board": {"kind": "squares", "size": [3, 3, 1]},
        "turn_checks": [],
        "stalemate": "most-pieces-wins",
        "cloaking": "hides",
    }
    rec.update(kw)
    return rules.parse(rec)


def saved_rule_set(rs, _dir=[]):
    """A rule-set file for ``rs`` (OpenSpiel loads ttt by name or path), one
    temporary directory per test process."""
    import json
    import tempfile
    from pathlib import Path

    if not _dir:
        _dir.append(tempfile.TemporaryDirectory())
    path = Path(_dir[0].name) / f"{rs.name}.json"
    if not path.exists():
        path.write_text(json.dumps(rs.to_json()))
    return str(path)


def state_after(rs, *history):
    """The OpenSpiel state of ``rs`` after ``history``."""
    import pyspiel

    s = pyspiel.load_game("ttt", {"rules": saved_rule_set(rs)}).new_initial_state()
    for a in history:
        s.apply_action(a)
    return s


def views(s, player):
    """Every view one player has of a state, in comparable form (information
    state and observation, string and tensor, and the core's key)."""
    from games.openspiel import core_of

    return (
        s.information_state_string(player),
        tuple(s.information_state_tensor(player)),
        s.observation_string(player),
        tuple(s.observation_tensor(player)),
        core_of(s).info_state_key(player),
    )


def piece_count(core):
    """Pieces on the board and in every reserve."""
    return sum(1 for v in core.cells() if v > 0) + sum(core.reserves().values())


def jump_count_check(results, covers, same_pieces):
    """A ``check`` for play_against_reference: positions agree (``same_pieces``)
    and the piece count moves only as the captures' ``results`` allow. With
    ``covers`` (a piece may be captured by covering: fights, communal captors)
    only its direction is checked; otherwise each ply removes at most one
    (removes) or adds at most one (x2). Chance nodes (a pot's deal pending, its
    captive in nobody's hands; or Chaos to move) are counted, and the plies up
    to the next decision are checked together: Chaos's jump and its chain's
    extra jump may each remove a piece."""
    last = {}

    def check(core, ref):
        same_pieces(core, ref)
        if core.player() == -1:
            last["plies"] = last.get("plies", 1) + 1
            return
        total = piece_count(core)
        plies = last.pop("plies", 1)
        if "prev" in last and core.player() != -4:
            delta = total - last["prev"]
            if covers:
                assert delta <= 0 or "reincarnates-x2" in results
            else:
                low = -plies if "removes" in results else 0
                high = plies if "reincarnates-x2" in results else 0
                assert low <= delta <= high, (delta, plies)
        last["prev"] = total
        if core.player() == -4:
            last.clear()

    return check


def parsed_or_rejected(rec):
    """The rule set of a generated record, or Hypothesis's rejection of the
    example when validation refuses it (a lock under a stack, a count too
    large: validation's job, tested elsewhere). Rejected rather than passed,
    so a generator that only ever makes refused records fails as
    Unsatisfiable instead of passing without playing a game."""
    from hypothesis import assume

    from games.ttt import rules

    try:
        return rules.parse(rec)
    except rules.RuleSetError:
        assume(False)


def assert_is_legal_agrees_with_legal_actions(rs, games: int, seed: int = 3) -> None:
    """Along random games of ``rs``: every action in the legal list applies,
    every other action raises ValueError."""
    rng = random.Random(seed)
    for _ in range(games):
        core = make_core(rs)
        while not core.terminal():
            if core.player() == -1:
                core.apply_action(rng.choice([a for a, _ in core.chance_outcome_list()]))
                continue
            legal = set(core.legal_action_list())
            for a in range(core.num_actions):
                if a in legal:
                    core.clone().apply_action(a)
                else:
                    with pytest.raises(ValueError):
                        core.clone().apply_action(a)
            core.apply_action(rng.choice(sorted(legal)))


def logged_attempts(core):
    """The seats of every logged attempt, in order (a round logs its plans in seat order)."""
    return [core._event(i)[1] for i in range(core._log_count()) if core._event(i)[2]]


def play_rounds_against_reference(
    rs,
    games: int,
    seed: int,
    *,
    views: bool | None = None,
    boards: bool = False,
    ref_class=None,
    shape_views: bool = False,
):
    """Random games of a rule set with simultaneous rounds on the engine and
    ``ReferenceState`` side by side: the player to decide, the seats still
    to plan and their legal plans, disqualifications, every player's view and
    the attempts (``views``: default, when the rule set cloaks a space), and
    the ending (with ``boards``, each board's result too). ``ref_class`` is
    the reference model (default ``ReferenceState``); with ``shape_views``
    every player's view of the shapes is compared as well.

    Returns (attempts played, games in which a round decided a board while the
    game went on)."""
    from ttt_reference import ReferenceState

    ref_class = ref_class or ReferenceState
    if views is None:
        views = rs.record["cloaking"] != "none" and any(ph["cloaked"] for ph in rs.record["phases"])
    rng = random.Random(seed)
    attempts = decided_in_round = 0
    for g in range(games):
        core = make_core(rs)
        ref = ref_class(rs)
        steps = 0
        while True:
            where = (rs.name, g, steps, core.to_string())
            player = core.player()
            assert player == ref.current_player(), where
            assert core.simultaneous_player_list() == ref.simultaneous_players(), where
            assert core.disqualified_players() == sorted(ref.disqualified), where
            if views:
                for p in range(core.num_players):
                    assert core.player_view(p) == ref.view(p), (p,) + where
                    if shape_views:
                        assert core._sh_letters(p) == ref.shape_view(p), (p,) + where
                assert logged_attempts(core) == ref.attempts, where
            if player == -4:
                assert core.returns_list() == ref.returns(), where
                assert core.chaos_outcome() == ref.chaos_outcome(), where
                if boards:
                    expect = [
                        None if b not in ref.decided else [float(v) for v in ref.decided[b]]
                        for b in range(ref.B)
                    ]
                    got = [None if r is None else [float(v) for v in r] for r in core.board_results()]
                    assert got == expect, where
                break
            if player == -1:
                legal = ref.seat_actions(ref.seat)
                assert [a for a, _ in core.chance_outcome_list()] == legal, where
            else:
                legal = core.legal_action_list()
                assert legal == ref.legal_actions(), where
                for p in core.simultaneous_player_list():
                    assert core.player_legal_action_list(p) == ref.seat_actions(p), (p,) + where
            before = len(ref.decided) if boards else 0
            in_round = ref.plans is not None
            a = rng.choice(legal)
            core.apply_action(a)
            ref.apply(a)
            if boards and in_round and ref.result is None and len(ref.decided) > before:
                decided_in_round += 1
            steps += 1
            assert steps <= core.max_game_length, where
        attempts += len(ref.attempts)
    return attempts, decided_in_round


def play_against_reference(rs, games: int, seed: int, ref_class, check=None) -> list[int]:
    """Random games of ``rs`` on the engine and on ``ref_class`` (a reference
    model of tests/ttt_reference.py) side by side: same player, same legal
    actions (chance outcomes included), same returns, and ``check(core, ref)``
    before every decision; returns every action played, in order."""
    rng = random.Random(seed)
    played = []
    for g in range(games):
        core = make_core(rs)
        ref = ref_class(rs)
        assert core.num_actions == ref.num_actions
        steps = 0
        while True:
            player = core.player()
            assert player == ref.current_player(), (rs.name, g, steps, core.to_string())
            if check is not None:
                check(core, ref)
            if player == -4:
                assert core.returns_list() == ref.returns(), (rs.name, g, core.to_string())
                break
            if player == -1:  # Chaos and the pot's start: uniform
                outcomes = core.chance_outcome_list()
                legal = ref.seat_actions(ref.seat)
                assert [a for a, _ in outcomes] == legal, (rs.name, g, steps, core.to_string())
                assert all(abs(p - 1.0 / len(legal)) < 1e-12 for _, p in outcomes)
            else:
                legal = core.legal_action_list()
                assert legal == ref.legal_actions(), (rs.name, g, steps, core.to_string())
            a = rng.choice(legal)
            played.append(a)
            core.apply_action(a)
            ref.apply(a)
            steps += 1
            assert steps <= core.max_game_length
    return played


def random_sim_test_of(rs, tmp_path, num_sims: int = 8) -> None:
    """OpenSpiel's ``random_sim_test`` with serialisation on ``ttt(rules=FILE)``
    of ``rs`` written to a file (rule sets made in tests have no catalogue name)."""
    import json

    import pyspiel

    path = tmp_path / f"{rs.name}.json"
    path.write_text(json.dumps(rs.to_json()))
    pyspiel.random_sim_test(
        pyspiel.load_game(f"ttt(rules={path})"), num_sims=num_sims, serialize=True, verbose=False
    )


# -- "No move leaves a piece on a space it may not enter" (issue 12 checks) ----------
# The rule set's own words, read again here from its record (never from the
# engine's compiled Tables.ph_entry/locked), so that a wrong table or a wrong
# test of it in the engine shows up as a piece where the record forbids it.


class EntryRules:
    """Who may enter which cell, read from a rule set's record: not a space
    locked for the game (``board.locked``) or for the phase
    (``phases[i].locked``), not one exclusive to other seats, not one whose
    entry is locked for the seat (board's or the phase's ``entry_locked``);
    on stacks a piece also lands only on the floor or on a piece or locked
    cell (docs/rules/ttt.md, "Spaces" and "Stacks"). Several boards repeat
    the board's spaces (``board.on_boards`` is not read: refused)."""

    def __init__(self, rs):
        from games.ttt.rules import PALETTE, seats_of

        r = rs.record
        board = r["board"]
        if board.get("on_boards"):
            raise ValueError("EntryRules does not read board.on_boards")
        self.X, self.Y, self.Z = board["size"]
        self.B = r.get("boards", 1)
        self.GX = self.X * self.B  # cells run along x over every board
        self.gravity = board["kind"] == "stacks"
        self.n, chaos = seats_of(r["players"])
        self.seats = self.n + chaos
        self.orders = [ph["order"] for ph in r["phases"]]
        cells = lambda spaces: {tuple(a) for a in spaces}
        self.locked = cells(board["locked"])
        self.phase_locked = [cells(ph["locked"]) for ph in r["phases"]]
        self.exclusive = {}  # cell -> seats it is exclusive to
        for g in board.get("exclusive", []):
            for a in g["at"]:
                self.exclusive[tuple(a)] = {self.seat(s) for s in g["players"]}
        self.entry_locked = [self._groups(board.get("entry_locked", []))] + [
            self._groups(ph.get("entry_locked", [])) for ph in r["phases"]
        ]
        mode = r["colours"]  # who owns a colour (a round's fallback)
        if mode == "assigned":
            self.owners = {c: {c} for c in range(self.seats)}
        elif mode == "partners-share":
            self.owners = {0: {0, 2}, 1: {1, 3}}
        else:  # shared, players-choose: anyone's
            self.owners = {c: set(range(self.seats)) for c in range(len(PALETTE))}

    def seat(self, name):
        """0-based seat of a record's player number or "chaos" (Chaos is last)."""
        return self.n if name == "chaos" else name - 1

    def _groups(self, groups):
        table = {}
        for g in groups:
            for a in g["at"]:
                table.setdefault(tuple(a), set()).update(self.seat(s) for s in g["players"])
        return table

    def place(self, c):
        """(board, (x, y, z)) of cell index c: 0-based board, 1-based
        coordinates on it (x fastest over all boards, then y, then z)."""
        gx = c % self.GX
        return gx // self.X, (gx % self.X + 1, (c // self.GX) % self.Y + 1, c // (self.GX * self.Y) + 1)

    def may_enter(self, seat, xyz, phase):
        if xyz in self.locked or xyz in self.phase_locked[phase]:
            return False
        if xyz in self.exclusive and seat not in self.exclusive[xyz]:
            return False
        return not any(seat in t.get(xyz, ()) for t in (self.entry_locked[0], self.entry_locked[phase + 1]))

    def off_limits(self, seat, phase):
        """Every cell (of one board) ``seat`` may not enter in ``phase``."""
        every = [
            (x, y, z)
            for x in range(1, self.X + 1)
            for y in range(1, self.Y + 1)
            for z in range(1, self.Z + 1)
        ]
        return {w for w in every if not self.may_enter(seat, w, phase)}

    def violations(self, before, after, movers, phase, target=None):
        """Arrivals from ``before`` to ``after`` (``core.cells()`` lists) that
        break the rules: a cell empty before (or locked and empty) and holding
        a piece after, which none of the seats that may have moved it may
        enter in ``phase``, or on stacks a piece left floating; and
        ``target``, the (board, cell) a flat-board ply names (covers arrive on
        occupied cells). ``movers``: the set of seats that played (one, for a
        ply), or a function of (board, cell, colour) giving them (a round).
        Returns a list of (board, cell, colour, seats) for the message."""
        bad = []
        for c, (was, now) in enumerate(zip(before, after)):
            if was > 0 or now <= 0:
                continue
            b, w = self.place(c)
            seats = movers(b, w, now - 1) if callable(movers) else movers
            if not any(self.may_enter(s, w, phase) for s in seats):
                bad.append((b, w, now - 1, sorted(seats)))
            elif self.gravity and w[2] > 1:
                below = (w[0], w[1], w[2] - 1)
                if (
                    after[c - self.GX * self.Y] <= 0
                    and below not in self.locked
                    and not any(below in p for p in self.phase_locked)
                ):
                    bad.append((b, w, now - 1, "floating"))
        if target is not None and not any(self.may_enter(s, target[1], phase) for s in movers):
            bad.append((target[0], target[1], None, sorted(movers)))
        return bad


def _named_target(core, player, action):
    """(board, x, y, z or None) of the space a placement or move lands on,
    from its action string (``black@(x,y,z) shape``, ``(x,y,z)->(x,y,z)``,
    ``... over (x,y,z)`` for a jump, ``stack(x,y)``, ``b2:...``);
    None for passes, draw offers and end-chains."""
    import re

    text = core.action_string(player, action)
    if "->" in text:  # a move: its destination (a jump adds "over ...")
        text = text.split("->", 1)[1]
    found = re.findall(r"(?:b(\d+):)?(?:stack)?\((\d+),(\d+)(?:,(\d+))?\)", text)
    if not found:
        return None
    b, x, y, z = found[0]
    return (int(b) - 1 if b else 0, int(x), int(y), int(z) if z else None)


def assert_no_forbidden_entries(rs, games: int, seed: int, entry_rules=None) -> dict:
    """Random games of ``rs`` on the engine, checking after every ply and
    every simultaneous round that no piece arrived on a space its mover may
    not enter, as ``EntryRules`` reads the rule set (``entry_rules``: another
    rule set's reading, for the checker's own test). A ply's mover is the seat
    to move (Chaos at its chance node); a round's movers for a cell are the
    seats whose plan named that space (a capture may convert the arriving
    piece in the same round, so its colour does not tell), else the owners of
    its colour. Returns counts: plies played, arrivals checked, and
    ``guarded`` plies and plans, at which the seat deciding had a cell it may
    not enter (so the property was not vacuous)."""
    er = entry_rules or EntryRules(rs)
    rng = random.Random(seed)
    stats = {"plies": 0, "arrivals": 0, "guarded": 0}
    for g in range(games):
        core = make_core(rs)
        plans = {}  # seat -> space its latest plan named (rounds)

        def planners(b, w, colour):
            named = {
                s
                for s, t in plans.items()
                if t is not None and t[:3] == (b, w[0], w[1]) and t[3] in (None, w[2])
            }
            return named or er.owners.get(colour, set(range(er.seats)))

        while not core.terminal():
            player, phase, before = core.player(), core.current_phase(), core.cells()
            legal = [a for a, _ in core.chance_outcome_list()] if player == -1 else core.legal_action_list()
            a = rng.choice(legal)
            sequential = er.orders[phase] == "sequential"
            seat = core.seat_to_move()
            target = None
            if sequential:
                movers = {seat}
                if player != -1 and not er.gravity:
                    t = _named_target(core, player, a)
                    target = None if t is None else (t[0], t[1:])
                if er.off_limits(seat, phase):
                    stats["guarded"] += 1
            else:
                movers = planners
                if player >= 0:
                    plans[player] = _named_target(core, player, a)
                    stats["guarded"] += bool(er.off_limits(player, phase))
            core.apply_action(a)
            after = core.cells()
            bad = er.violations(before, after, movers, phase, target)
            assert not bad, (
                rs.name,
                g,
                stats["plies"],
                phase,
                seat,
                core.action_string(player, a) if player != -1 else a,
                bad,
                core.to_string(),
            )
            stats["arrivals"] += sum(1 for x, y in zip(before, after) if x <= 0 < y)
            stats["plies"] += 1
            if after != before or core.current_phase() != phase:
                plans.clear()
    return stats


def draw_forbidden_spaces(draw, rec):
    """A copy of a generated record with spaces some seat may not enter or
    leave added (the generators of issue 12 drew none, so the property above
    passed without testing anything): one to three groups, each one or two
    free spaces, of ``board.locked``, ``board.exclusive`` (to one seat, to
    Chaos when it plays, or to all seats but one), ``board.sticky``,
    ``board.entry_locked``/``exit_locked`` for one seat, and a phase's
    ``locked`` or ``entry_locked``. Spaces under pre-placed pieces are left
    alone (validation refuses most such locks); the few records validation
    still refuses are filtered by ``parsed_or_rejected``."""
    import copy

    from hypothesis import strategies as st

    from games.ttt.rules import seats_of

    rec = copy.deepcopy(rec)
    board = rec["board"]
    X, Y, Z = board["size"]
    n, chaos = seats_of(rec.get("players", "2"))
    seats = list(range(1, n + 1)) + (["chaos"] if chaos else [])
    taken = {
        tuple(p["at"][:2]) if board["kind"] == "stacks" else tuple(p["at"]) for p in board.get("pieces", [])
    }
    free = [
        [x, y, z]
        for x in range(1, X + 1)
        for y in range(1, Y + 1)
        for z in range(1, Z + 1)
        if ((x, y) if board["kind"] == "stacks" else (x, y, z)) not in taken
    ]
    kinds = draw(
        st.lists(
            st.sampled_from(
                ["locked", "exclusive", "exclusive", "sticky", "entry", "exit", "phase-locked", "phase-entry"]
            ),
            min_size=1,
            max_size=3,
        )
    )
    used = set()
    for kind in kinds:
        spaces = (
            [
                a
                for a in draw(st.lists(st.sampled_from(free), min_size=1, max_size=2, unique_by=tuple))
                if tuple(a) not in used
            ]
            if free
            else []
        )
        if not spaces:
            continue
        used.update(tuple(a) for a in spaces)
        one = draw(st.sampled_from(seats))
        if kind == "locked":
            board.setdefault("locked", []).extend(spaces)
        elif kind == "exclusive":
            whom = draw(st.sampled_from([[one], [s for s in seats if s != one]]))
            board.setdefault("exclusive", []).append({"at": spaces, "players": whom})
        elif kind == "sticky":
            board.setdefault("sticky", []).extend(spaces)
        elif kind in ("entry", "exit"):
            board.setdefault(f"{kind}_locked", []).append({"at": spaces, "players": [one]})
        else:
            phases = rec.setdefault("phases", [{}])
            ph = phases[draw(st.integers(0, len(phases) - 1))]
            if kind == "phase-locked":
                ph.setdefault("locked", []).extend(spaces)
            else:
                ph.setdefault("entry_locked", []).append({"at": spaces, "players": [one]})
    return rec


def has_entry_limits(rs) -> bool:
    """Whether some seat may not enter some cell of ``rs`` (for counting how
    often the generators make such spaces)."""
    er = EntryRules(rs)
    return any(er.off_limits(s, p) for s in range(er.seats) for p in range(len(er.orders)))


def entry_check(rs):
    """A ``check`` for play_against_reference: the arrivals since the last
    decision (a ply, a chance outcome, or a whole round) obey ``EntryRules``
    of ``rs``, attributed to the seat that was to move (in a round, to the
    owners of each arriving colour: this check sees no plans, so use it on
    rule sets whose rounds convert nothing). A new game restarts it."""
    er = EntryRules(rs)
    last = {}

    def check(core, ref):
        cells = core.cells()
        if last.get("core") is core:
            movers = last["movers"] or (lambda b, w, colour: er.owners.get(colour, set(range(er.seats))))
            bad = er.violations(last["cells"], cells, movers, last["phase"])
            assert not bad, (rs.name, last["phase"], last["movers"], bad, core.to_string())
        phase = core.current_phase()
        last.update(
            core=core,
            cells=cells,
            phase=phase,
            movers={core.seat_to_move()} if er.orders[phase] == "sequential" else None,
        )

    return check


def walk_endings(game) -> list:
    """Every terminal's ending and ply count (the core's ``playout_stats``), walking the
    whole tree of ``game`` (an OpenSpiel game of ours): how the move-limit readings of
    docs/rules/dilemmas.md (slips 17 and 18) are shown never to bind, or to bind."""
    out, stack = [], [game.new_initial_state()]
    while stack:
        s = stack.pop()
        if s.is_terminal():
            stats = s.core.playout_stats()
            out.append((stats["ending"], stats["plies"]))
            continue
        acts = [a for a, _ in s.chance_outcomes()] if s.is_chance_node() else s.legal_actions()
        stack.extend(s.child(a) for a in acts)
    return out
