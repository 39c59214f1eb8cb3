"""What the tic-tac-toe tests share: the builders of rule sets, pieces and
powers; the OpenSpiel state after a history and every view a player has of
it; the engine played against the reference model (tests/ttt_reference/);
engine-only checks; and, in one place, the few engine internals the tests
read (the event log and what it tells each player)."""

from __future__ import annotations

import copy
import random
from collections import namedtuple

import pytest

from games.ttt import make_core
from games.ttt.schema import REINCARNATING

CAN, MUST = "can-capture", "must-capture"

# -- rule sets ---------------------------------------------------------------------------------

#: the fields of a record's ``board`` that ``rule_set`` takes as keywords
BOARD_FIELDS = ("kind", "size", "pieces", "locked", "sticky", "exclusive", "entry_locked", "exit_locked")


def rule_set(name, base=None, **fields):
    """The validated rule set named ``name`` of the record ``base`` (copied)
    with ``fields`` over it. A whole ``board`` replaces the base's; a board
    field given alone (``kind``, ``size``, ``pieces``, ``locked``, ...) goes
    into the board."""
    from games.ttt import rules

    rec = copy.deepcopy(base or {})
    rec["name"] = name
    if "board" in fields:
        rec["board"] = fields.pop("board")
    for key in BOARD_FIELDS:
        if key in fields:
            value = fields.pop(key)
            rec.setdefault("board", {"kind": "squares"})[key] = list(value) if key == "size" else value
    rec.update(fields)
    return rules.parse(rec)


def problems(name, base=None, **fields):
    """What validation lists against the record ``rule_set`` builds (it must refuse it)."""
    from games.ttt import rules

    with pytest.raises(rules.RuleSetError) as info:
        rule_set(name, base, **fields)
    return info.value.problems


def new_core(name, base=None, **fields):
    """The starting position of the rule set ``rule_set`` builds."""
    return make_core(rule_set(name, base, **fields))


def play(core, actions):
    """Apply ``actions`` to ``core``; returns it."""
    for a in actions:
        core.apply_action(a)
    return core


def movers(core, actions):
    """Apply ``actions`` to ``core``; returns who was to move at each."""
    out = []
    for a in actions:
        out.append(core.player())
        core.apply_action(a)
    return out


def power(cond, result, move="stationary", how=CAN, **extra):
    """A shape's record with a power: ``how`` (can or must capture) under
    condition ``cond`` with ``result``, moving by ``move``."""
    return {"move": move, "power": how, "condition": cond, "result": result, **extra}


def piece(at, colour, shape="circle"):
    """A pre-placed piece on 1-based ``at`` (x, y, z)."""
    return {"at": list(at), "colour": colour, "shape": shape}


#: a hand-made position: only the pre-placed pieces, empty reserves, passes allowed
POSITION = {"reserves": {"black": {}, "white": {}}, "move_limit": 20, "phases": [{"pass": True}]}


def position(pieces, shapes, size, kind="squares", **fields):
    """The rule set of a hand-made position: ``pieces`` on a board of
    ``kind`` and ``size``, ``shapes`` their records (``POSITION`` and
    ``fields`` for the rest)."""
    return rule_set("pos", POSITION, kind=kind, size=size, pieces=list(pieces), shapes=shapes, **fields)


def cells(X, Y):
    """Every space of an X x Y flat board, as a phase's ``cloaked`` list."""
    return [[x, y, 1] for x in range(1, X + 1) for y in range(1, Y + 1)]


def cloaked_rule_set(name, **fields):
    """A small hidden (``cloaking: hides``) 3x3 rule set, ``fields`` over it; line
    moves pass over pieces unless ``fields`` says ``line_moves``."""
    base = {
        "board": {"kind": "squares", "size": [3, 3, 1]},
        "turn_checks": [],
        "stalemate": "most-pieces-wins",
        "cloaking": "hides",
        "line_moves": "over-pieces",
    }
    return rule_set(name, base, **fields)


def hides_four_each(name, **fields):
    """A hidden (``cloaking: hides``) 3x3 rule set with four pieces each, ``fields`` over it."""
    base = {"board": {"kind": "squares", "size": [3, 3, 1]}, "reserves": {"black": 4, "white": 4}}
    return rule_set(name, dict(base, cloaking="hides"), **fields)


def saved_rule_set(rs, _dir=[]):  # noqa: B006 (one temporary directory per test process)
    """A rule-set file for ``rs`` (OpenSpiel loads ttt by name or path)."""
    import json
    import tempfile
    from pathlib import Path

    if not _dir:
        _dir.append(tempfile.TemporaryDirectory())
    path = Path(_dir[0].name) / f"{rs.name}.json"
    if not path.exists():
        path.write_text(json.dumps(rs.to_json()))
    return str(path)


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


# -- the OpenSpiel face ---------------------------------------------------------------------------


def state_after(rs, *history):
    """The OpenSpiel state of ``rs`` after ``history``."""
    import pyspiel

    s = pyspiel.load_game("ttt", {"rules": saved_rule_set(rs)}).new_initial_state()
    for a in history:
        s.apply_action(a)
    return s


#: the views a player has of a state, in the order ``Views`` lists them
VIEW_NAMES = (
    "information_state_string",
    "information_state_tensor",
    "observation_string",
    "observation_tensor",
    "info_state_key",
)
Views = namedtuple("Views", VIEW_NAMES)
PlanViews = namedtuple("PlanViews", VIEW_NAMES + ("legal_plans",))


def views(s, player):
    """Every view one player has of an OpenSpiel state, in comparable form
    (information state and observation, string and tensor, and the core's key)."""
    from games.openspiel import core_of

    return Views(
        s.information_state_string(player),
        tuple(s.information_state_tensor(player)),
        s.observation_string(player),
        tuple(s.observation_tensor(player)),
        core_of(s).info_state_key(player),
    )


def core_views(core, player, plans=False):
    """Every view the core gives ``player`` (with ``plans``, also its legal
    plans while it is to plan in a round)."""
    got = [getattr(core, name)(player) for name in VIEW_NAMES]
    got = [tuple(v) if isinstance(v, list) else v for v in got]
    if not plans:
        return Views(*got)
    legal = core.player_legal_action_list(player) if player in core.simultaneous_player_list() else None
    return PlanViews(*got, legal)


def assert_all_differ(a, b):
    """Two histories' views (``views``, ``core_views``) differ in every form."""
    for name in VIEW_NAMES:
        assert getattr(a, name) != getattr(b, name), name


def assert_info_differs(a, b):
    """Information states (string, tensor, key) differ; the observation may not."""
    for name in ("information_state_string", "information_state_tensor", "info_state_key"):
        assert getattr(a, name) != getattr(b, name), name


def random_nodes(rs, seeds, face="state"):
    """Every node of one random game of ``rs`` per seed, as (history, node):
    an OpenSpiel state (``face`` "state") or a core ("core")."""
    out = []
    for seed in seeds:
        rng, history = random.Random(seed), []
        node = state_after(rs) if face == "state" else make_core(rs)
        while True:
            out.append((tuple(history), node.clone()))
            if face == "state":
                if node.is_terminal():
                    break
                legal = (
                    [a for a, _ in node.chance_outcomes()] if node.is_chance_node() else node.legal_actions()
                )
            else:
                if node.terminal():
                    break
                legal = node.legal_action_list() or [a for a, _ in node.chance_outcome_list()]
            a = rng.choice(legal)
            history.append(a)
            node.apply_action(a)
    return out


def _own_pasts(nodes, p):
    """Everything p observed before each node of ``nodes`` (random_nodes'
    OpenSpiel states, one game after another): its observation after every
    event, with its information states at its decisions and its actions."""
    out, past, before = [], (), None
    for history, node in nodes:
        if not history:  # a new game
            past = ()
        else:  # ``before`` is the node this one's last action was applied to
            past += (before.observation_string(p),)
            if before.current_player() == p:
                past += ((before.information_state_string(p), history[-1]),)
        out.append(past)
        before = node
    return out


def assert_views_partition_histories(rs, seeds, face="state"):
    """Within each player's information sets (by information-state string)
    over random games: one information-state tensor, one key, one
    observation, the same legal actions (and their names) when it moves or
    plans, and, on the OpenSpiel face, the same own past (perfect recall);
    across them, different tensors and keys. ``face`` "core" reads the core
    directly, one decision per call (a round's plans)."""
    from games.openspiel import core_of

    nodes = random_nodes(rs, seeds, face)
    players = nodes[0][1].num_players() if face == "state" else nodes[0][1].num_players
    for p in range(players):
        groups = {}
        pasts = _own_pasts(nodes, p) if face == "state" else None
        for i, (_, node) in enumerate(nodes):
            if face == "state":
                legal = tuple(node.legal_actions()) if node.current_player() == p else None
                named = tuple(node.action_to_string(p, a) for a in legal) if legal else None
                core, extra = core_of(node), (pasts[i],)
            else:
                core = node
                planning = p in core.simultaneous_player_list() or core.player() == p
                legal = tuple(core.player_legal_action_list(p)) if planning else None
                named = tuple(core.action_string(p, a) for a in legal) if legal else None
                extra = (tuple(core.observation_tensor(p)),)
            view = (
                tuple(node.information_state_tensor(p)),
                core.info_state_key(p),
                node.observation_string(p),
                legal,
                named,
            ) + extra
            groups.setdefault(node.information_state_string(p), set()).add(view)
        for info, members in groups.items():
            assert len(members) == 1, (rs.name, p, info)
        tensors = [next(iter(m))[0] for m in groups.values()]
        keys = [next(iter(m))[1] for m in groups.values()]
        assert len(set(tensors)) == len(tensors) and len(set(keys)) == len(keys), rs.name


# -- positions and actions by name ----------------------------------------------------------------


def action_strings(core, player=None):
    """The legal actions' strings, as ``player`` (default: the one to move) reads them."""
    player = core.player() if player is None else player
    return [core.action_string(player, a) for a in core.legal_action_list()]


def legal_by_string(core, player=None):
    """{action string: action} of the legal actions."""
    return dict(zip(action_strings(core, player), core.legal_action_list(), strict=True))


def play_named(core, text, player=None):
    """Apply the legal action whose string is ``text``."""
    named = legal_by_string(core, player)
    assert text in named, (text, sorted(named))
    core.apply_action(named[text])


def stack_column(core, x, y=1):
    """The pieces of stack (x, y) (1-based), bottom up, as (colour name, shape)."""
    X, Y, Z = core.tab.params["size"]
    shapes, cells, names = core.shapes(), core.cells(), core.tab.params["colour_names"]
    cs = [x - 1 + X * (y - 1 + Y * z) for z in range(Z)]
    return [(names[cells[c] - 1], shapes[c]) for c in cs if shapes[c]]


def stack_codes(core, x, y=1):
    """The colour codes of stack (x, y) (1-based) per height, bottom first (0: empty)."""
    X, Y, Z = core.tab.params["size"]
    cells = core.cells()
    return [cells[(x - 1) + X * ((y - 1) + Y * z)] for z in range(Z)]


# -- the engine's event log ---------------------------------------------------------------------


def event_log(core):
    """Every logged event (``event``), in order."""
    return [core.event(i) for i in range(core.event_count())]


def logged_attempts(core):
    """The seats of every logged attempt, in order (a round logs its plans in seat order)."""
    return [actor for _, actor, attempt, _, _ in event_log(core) if attempt]


# -- the engine against the reference model ---------------------------------------------------------


class Played(list):
    """What ``play_against_reference`` played: every action, in order; with
    ``attempts``, the attempts that only revealed, and ``decided_in_round``,
    the rounds that decided a board while the game went on."""

    attempts = 0
    decided_in_round = 0


def count_attempts(rs, games, seed, counts):
    """How many plies of ``games`` random games of ``rs`` (chance uniform,
    seeded) were attempts for which ``counts(core, before)`` holds, ``core``
    read after the ply and ``before`` the ply as it was about to be played:
    its action's text, the true cells and the mover's view."""
    n, rng = 0, random.Random(seed)
    for core in random_decisions(rs, games, rng):
        a = rng.choice(core.legal_action_list())
        before = Ply(core.describe_action(a), core.cells(), core.player_view(core.player()), core.player())
        core.apply_action(a)
        n += bool(core.last_event()["attempt"] and counts(core, before))
    return n


def random_decisions(rs, games, rng):
    """Each decision point of ``games`` games of ``rs``, chance played uniformly
    with ``rng``: the core, on which the caller applies the decision's action."""
    for _ in range(games):
        core = make_core(rs)
        while not core.terminal():
            if core.player() == -1:
                core.apply_action(rng.choice([a for a, _ in core.chance_outcome_list()]))
                continue
            yield core


#: a ply about to be played, as ``count_attempts`` hands it to its test
Ply = namedtuple("Ply", "text cells view player")


def cloaks(rs):
    """Whether the rule set cloaks some space in some phase."""
    return rs.record["cloaking"] != "none" and any(ph["cloaked"] for ph in rs.record["phases"])


def play_against_reference(rs, games, seed, check=None, *, views=None, shape_views=False):
    """Random games of ``rs`` on the engine and on the reference model side
    by side. Before every decision: the same player to decide, the same
    seats still to plan in a round (each with the same legal plans), the same
    disqualified players, ``check(core, ref)``, and with ``views`` (by
    default when the rule set cloaks a space) every player's view (with
    ``shape_views`` its view of the shapes too) and every attempt logged so
    far; the same legal actions, or the same chance outcomes drawn
    uniformly. After each sequential action with ``views``: the same
    attempt flag, and an attempt moves no piece. At the end: the same
    returns, Chaos's outcome and each board's result."""
    from ttt_reference import ReferenceState

    if views is None:
        views = cloaks(rs)
    rng = random.Random(seed)
    played = Played()
    for g in range(games):
        core = make_core(rs)
        ref = ReferenceState(rs)
        assert core.num_actions == ref.num_actions
        steps = 0
        while True:
            where = (rs.name, g, steps, core.to_string())
            player = core.player()
            assert player == ref.current_player(), where
            assert core.simultaneous_player_list() == ref.simultaneous_players(), where
            assert core.disqualified_players() == sorted(ref.disqualified), where
            if check is not None:
                check(core, ref)
            if views:
                for p in range(core.num_players):
                    assert core.player_view(p) == ref.view(p), (p,) + where
                    if shape_views:
                        assert core.player_shape_view(p) == ref.shape_view(p), (p,) + where
                assert logged_attempts(core) == ref.attempts, where
            if player == -4:
                assert core.returns_list() == ref.returns(), where
                assert core.chaos_outcome() == ref.chaos_outcome(), where
                if ref.B > 1:
                    expect = [
                        None if b not in ref.decided else [float(v) for v in ref.decided[b]]
                        for b in range(ref.B)
                    ]
                    got = [None if r is None else [float(v) for v in r] for r in core.board_results()]
                    assert got == expect, where
                break
            if player == -1 and ref.dealing():  # a deck's deal: the deck's shares
                outcomes, expect = core.chance_outcome_list(), ref.deal_outcomes()
                assert [a for a, _ in outcomes] == [a for a, _ in expect], where
                assert all(abs(p - q) < 1e-12 for (_, p), (_, q) in zip(outcomes, expect, strict=True)), where
                legal = [a for a, _ in outcomes]
            elif player == -1:  # Chaos and a pot's start: uniform
                outcomes = core.chance_outcome_list()
                legal = ref.round_plans(ref.seat)
                assert [a for a, _ in outcomes] == legal, where
                assert all(abs(p - 1.0 / len(legal)) < 1e-12 for _, p in outcomes), where
            else:
                legal = core.legal_action_list()
                assert legal == ref.legal_actions(), where
                for p in core.simultaneous_player_list():
                    assert core.player_legal_action_list(p) == ref.round_plans(p), (p,) + where
            decided, in_round, board = len(ref.decided), ref.plans is not None, dict(ref.board)
            a = rng.choice(legal)
            played.append(a)
            core.apply_action(a)
            ref.play(a)  # legal: one of the reference's own legal actions, compared above
            if views and not in_round and player != -1:
                attempt = core.last_event()["attempt"]
                assert attempt == ref.last_attempt, where
                if attempt:
                    assert ref.board == board, where  # nothing moved
            if in_round and ref.result is None and len(ref.decided) > decided:
                played.decided_in_round += 1
            steps += 1
            assert steps <= core.max_game_length, where
        played.attempts += len(ref.attempts)
    return played


def same_pieces(core, ref):
    """The engine's colour and shape on every cell are the reference's, and
    so are the per-shape reserves; on stacks no piece floats."""
    X, Y, _ = core.tab.params["size"]
    shapes, cells = core.shapes(), core.cells()
    for c, shape in enumerate(shapes):
        xyz = (c % X, (c // X) % Y, c // (X * Y))
        assert shape == ref.shape.get(xyz), (c, shape, ref.shape.get(xyz))
        if shape is not None:
            assert cells[c] == ref.board[xyz] + 1
            if ref.gravity and xyz[2] > 0:
                assert cells[c - X * Y] != 0, f"piece on {xyz} floats"
    paralysed = {(c % X, (c // X) % Y, c // (X * Y)) for c in core.paralysed()}
    assert paralysed == getattr(ref, "paralysed", set()), (paralysed, ref.paralysed)
    assert core.shape_reserves() == {ref.colours[i]: ref.sres[i] for i in range(len(ref.colours))}


def by_stack_moves(rs, played):
    """How many of the actions ``played`` (``play_against_reference``'s) are by-stack moves."""
    from ttt_reference import ReferenceState

    ref = ReferenceState(rs)
    return sum(ref.is_stack_id(a) for a in played)


def colour_totals(core):
    """Per colour, its pieces on the board and in reserve."""
    cells, reserves = core.cells(), list(core.reserves().values())
    return [sum(1 for v in cells if v == c + 1) + r for c, r in enumerate(reserves)]


def same_pieces_conserved(rs):
    """A check: ``same_pieces``, and per colour the pieces on the board and
    in reserve stay those of the start (a rule set without captures)."""
    start = colour_totals(make_core(rs))

    def check(core, ref):
        same_pieces(core, ref)
        assert colour_totals(core) == start

    return check


def piece_count(core):
    """Pieces on the board and in every reserve."""
    return sum(1 for v in core.cells() if v > 0) + sum(core.reserves().values())


def jump_count_check(results, covers):
    """A ``check`` for play_against_reference: positions agree
    (``same_pieces``) and the piece count moves only as the captures'
    ``results`` allow. With ``covers`` (a piece may be captured by covering:
    fights, communal captors) only its direction is checked; otherwise each
    ply removes at most one (removes) or adds at most one (x2; two for x3). Chance nodes
    (a pot's deal pending, its captive in nobody's hands; or Chaos to move)
    are counted, and the plies up to the next decision are checked together:
    Chaos's jump and its chain's extra jump may each remove a piece."""
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
            gain = max([REINCARNATING.get(r, 0) for r in results] + [1]) - 1
            if covers:
                assert delta <= 0 or gain
            else:
                low = -plies if "removes" in results else 0
                high = plies * gain
                assert low <= delta <= high, (delta, plies)
        last["prev"] = total
        if core.player() == -4:
            last.clear()

    return check


# -- engine-only checks ---------------------------------------------------------------------------


def assert_is_legal_agrees_with_legal_actions(rs, games: int, seed: int = 3) -> None:
    """Along random games of ``rs``: every action in the legal list applies,
    every other action raises ValueError."""
    rng = random.Random(seed)
    for core in random_decisions(rs, games, rng):
        legal = set(core.legal_action_list())
        for a in range(core.num_actions):
            if a in legal:
                core.clone().apply_action(a)
            else:
                with pytest.raises(ValueError):
                    core.clone().apply_action(a)
        core.apply_action(rng.choice(sorted(legal)))


def random_sim_test_of(rs, tmp_path, num_sims: int | None = None) -> None:
    """OpenSpiel's ``random_sim_test`` with serialisation on ``ttt(rules=FILE)``
    of ``rs`` written to a file (rule sets made in tests have no catalogue name);
    ``num_sims`` plays, by default 8 in the full tier and 1 in the default tier."""
    import json

    import pyspiel

    from tiers import sweep

    if num_sims is None:
        num_sims = sweep(full=8, quick=1)

    path = tmp_path / f"{rs.name}.json"
    path.write_text(json.dumps(rs.to_json()))
    pyspiel.random_sim_test(
        pyspiel.load_game(f"ttt(rules={path})"), num_sims=num_sims, serialize=True, verbose=False
    )


def walk_endings(game) -> list:
    """Every terminal's ending and ply count (the core's ``playout_stats``),
    walking the whole tree of ``game`` (an OpenSpiel game of ours)."""
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


# -- no move leaves a piece on a space it may not enter ------------------------------------------
# The rule set's own words, read again here from its record (never from the
# engine's compiled tables), so that a wrong table or a wrong test of it in
# the engine shows up as a piece where the record forbids it.


class EntryRules:
    """Who may enter which cell, read from a rule set's record: not a space
    locked for the game (``board.locked``) or for the phase
    (``phases[i].locked``), not one exclusive to other seats, not one whose
    entry is locked for the seat (board's or the phase's ``entry_locked``);
    on stacks a piece also lands only on the floor or on a piece or locked
    cell (docs/rules/ttt/phases.md, "Space locks", and docs/rules/ttt/stacks.md). Several boards repeat
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
        for c, (was, now) in enumerate(zip(before, after, strict=True)):
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

        def planners(b, w, colour, plans=plans):  # this game's plans
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
            stats["arrivals"] += sum(1 for x, y in zip(before, after, strict=True) if x <= 0 < y)
            stats["plies"] += 1
            if after != before or core.current_phase() != phase:
                plans.clear()
    return stats


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
