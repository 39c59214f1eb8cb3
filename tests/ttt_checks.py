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
    rec = {"name": name, "board": {"kind": "squares", "size": [3, 3, 1]}, "turn_checks": [],
           "stalemate": "most-pieces-wins", "cloaking": "hides"}
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
    return (s.information_state_string(player), tuple(s.information_state_tensor(player)),
            s.observation_string(player), tuple(s.observation_tensor(player)),
            core_of(s).info_state_key(player))


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


def play_rounds_against_reference(rs, games: int, seed: int, *, views: bool | None = None,
                                  boards: bool = False, ref_class=None, shape_views: bool = False):
    """Random games of a rule set with simultaneous rounds on the engine and
    ``CloakedSimRefState`` side by side: the player to decide, the seats still
    to plan and their legal plans, disqualifications, every player's view and
    the attempts (``views``: default, when the rule set cloaks a space), and
    the ending (with ``boards``, each board's result too). ``ref_class`` is
    the reference model (default ``CloakedSimRefState``); with ``shape_views``
    every player's view of the shapes is compared as well.

    Returns (attempts played, games in which a round decided a board while the
    game went on)."""
    from ttt_reference import CloakedSimRefState
    ref_class = ref_class or CloakedSimRefState
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
                    expect = [None if b not in ref.decided else [float(v) for v in ref.decided[b]]
                              for b in range(ref.B)]
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
            if player == -1:              # Chaos and the pot's start: uniform
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
    pyspiel.random_sim_test(pyspiel.load_game(f"ttt(rules={path})"), num_sims=num_sims, serialize=True,
                            verbose=False)
