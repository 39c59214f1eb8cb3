"""``1-vs-chaos`` (issue 11 item 7): one player against Chaos, the random
chance player. Checks: validation, the engine against the slow reference
model, OpenSpiel's random_sim_test with serialisation, and the solver's
expectimax value against an expectimax computed independently on the
reference model."""

import copy
import json

import pyspiel
import pytest

import games  # noqa: F401  (registers ttt)
from games.ttt import make_core, rules
from test_ttt_reference import play_against_reference
from ttt_checks import random_sim_test_of
from ttt_reference import ReferenceState


def solo_rule_sets():
    base = {"players": "1-vs-chaos", "board": {"kind": "squares", "size": [3, 3, 1]}}
    out = []

    def add(name, **kw):
        rec = dict(base, name=name)
        rec.update(kw)
        out.append(rules.parse(rec))

    add("solo-ttt", reserves={"black": 5, "white": 4})
    add(
        "solo-line-loses",
        board={"kind": "squares", "size": [5, 1, 1]},
        reserves={"black": 3, "white": 2},
        turn_checks=["first-3-loses"],
        stalemate="most-pieces-wins",
    )
    add(
        "solo-move-pass",
        reserves={"black": 3, "white": 3},
        shapes={"circle": {"move": "adjacent"}},
        move_limit=30,
        phases=[{"pass": True}, {"locked_players": ["chaos"], "pass": True}],
        stalemate="most-in-a-row-wins",
    )
    add(
        "solo-shared-stacks",
        board={"kind": "stacks", "size": [3, 1, 3]},
        colours="shared",
        reserves={"black": 9},
        turn_checks=["first-3-wins-no-diagonal"],
        stalemate="all-lose",
    )
    return out


SOLO = solo_rule_sets()


def test_one_player_and_chaos_seats():
    rs = SOLO[0]
    assert rs.num_players == 1 and rs.chaos
    c = make_core(rs)
    assert c.num_players == 1 and c.player() == 0
    c.apply_action(4)  # black in the centre; Chaos (white) moves next
    assert c.player() == -1
    assert [a for a, _ in c.chance_outcome_list()] == [0, 1, 2, 3, 5, 6, 7, 8]
    assert len(c.returns_list()) == 1
    game = pyspiel.load_game("ttt(rules=games/ttt/examples/TTT-1-vs-Chaos.json)")
    assert game.num_players() == 1
    assert game.get_type().utility == pyspiel.GameType.Utility.GENERAL_SUM
    assert game.get_type().chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC


def test_chaos_completing_a_winning_line_makes_the_player_lose():
    c = make_core(SOLO[0])
    for a in [0, 3, 1, 4, 8, 5]:  # white (Chaos) completes the middle row
        c.apply_action(a)
    assert c.terminal() and c.returns_list() == [-1.0]


def test_validation_lists_every_problem_of_a_solo_rule_set():
    with pytest.raises(rules.RuleSetError) as info:
        rules.parse(
            {
                "name": "S",
                "players": "1-vs-chaos",
                "agree_draw": True,
                "reserves": {"black": 3, "pink": 3},
                "phases": [{"locked_players": [2]}],
            }
        )
    problems = info.value.problems
    assert any(p.startswith("agree_draw:") and "1-vs-chaos" in p for p in problems)
    assert any(p.startswith("reserves.pink:") for p in problems)
    assert any(p.startswith("phases[0].locked_players[0]:") and "allowed: 1, chaos" in p for p in problems)
    with pytest.raises(rules.RuleSetError) as info:
        rules.parse(
            {
                "name": "S",
                "players": "1-vs-chaos",
                "reserves": {"black": 3},
                "phases": [{"locked_players": [1, "chaos"]}],
            }
        )
    assert any("every seat is locked" in p for p in info.value.problems)


def test_canonical_form_ignores_the_name():
    a = rules.parse({"name": "A", "players": "1-vs-chaos", "reserves": {"black": 5, "white": 4}})
    b = rules.parse(
        {"name": "B", "players": "1-vs-chaos", "reserves": {"white": 4, "black": 5}, "notes": "x"}
    )
    c = rules.parse({"name": "A", "players": "2", "reserves": {"black": 5, "white": 4}})
    assert a == b and a.fingerprint == b.fingerprint and a != c


@pytest.mark.parametrize("rs", SOLO, ids=lambda rs: rs.name)
def test_engine_matches_reference(rs):
    play_against_reference(rs, games=80, seed=11)


@pytest.mark.parametrize("rs", SOLO, ids=lambda rs: rs.name)
def test_random_sim_test(rs, tmp_path):
    random_sim_test_of(rs, tmp_path, num_sims=20)


def _expectimax(ref):
    """The player's expected return under uniformly random Chaos, on the
    reference model (independent of the engine and the solver)."""
    p = ref.current_player()
    if p == -4:
        return ref.returns()[0]
    if p == -1:
        acts = ref.seat_actions(ref.seat)
    else:
        acts = ref.legal_actions()
    values = []
    for a in acts:
        child = copy.deepcopy(ref)
        child.apply(a)
        values.append(_expectimax(child))
    return sum(values) / len(values) if p == -1 else max(values)


def test_solver_value_equals_an_independent_expectimax(tmp_path):
    rs = rules.parse(
        {
            "name": "solo-small",
            "players": "1-vs-chaos",
            "board": {"kind": "squares", "size": [3, 2, 1]},
            "reserves": {"black": 3, "white": 3},
        }
    )
    path = tmp_path / "solo-small.json"
    path.write_text(json.dumps(rs.to_json()))
    from solvers.exhaustive import solve

    result = solve(f"ttt(rules={path})", tt_log2=16)
    assert result["complete"]
    assert abs(result["value"] - _expectimax(ReferenceState(rs))) < 1e-9


def test_uct_runs_on_a_solo_rule_set():
    uct = pytest.importorskip("mcts.uct")
    c = make_core(SOLO[0])
    result = uct.UCTSearch(uct_c=1.4, max_simulations=200, seed=1).search(c)
    assert result["action"] in c.legal_action_list()
