"""The tic-tac-toe cores under the toolkit's search code: UCT (mcts/) and the
alpha-beta solver (solvers/) run on every kind of rule set, and small rule sets
solve to their known values (docs/solved.md, "Tic-tac-toe variations")."""

import json

import pyspiel
import pytest

import games  # noqa: F401
from games.ttt import make_core, rules

CAT = rules.catalogue()


def spec(name):
    """The ``rules=`` value of a catalogue game or an example file."""
    return name if name in CAT else f"games/ttt/examples/{name}.json"


def core(name):
    return make_core(rules.resolve(spec(name)))


def test_examples_load_and_do_not_duplicate_the_catalogue():
    examples = [rules.load(p) for p in sorted(rules.EXAMPLES_DIR.glob("*.json"))]
    assert examples and not {rs.name for rs in examples} & set(CAT)
    assert not {rs.canonical for rs in examples} & {rs.canonical for rs in CAT.values()}


@pytest.mark.parametrize(
    "name",
    [
        "Tic-Tac-Toe",
        "3P-Notakto",
        "Connect4",
        "Tapatan",
        "9-Holes",
        "Wild-TTT-6sq3143",
        "Connect6-19x19",
        "TTT-2-vs-Chaos",
    ],
)
def test_uct_runs_on_every_kind_of_rule_set(name):
    uct = pytest.importorskip("mcts.uct")
    c = core(name)
    result = uct.UCTSearch(uct_c=1.4, max_simulations=300, seed=1).search(c)
    assert result["action"] in c.legal_action_list()


@pytest.mark.parametrize(
    "name,value",
    [
        ("Tic-Tac-Toe", 0.0),
        ("Treblecross15", 1.0),
        ("Connect4-4x4", 0.0),
        ("Connect4-4x5", 0.0),
        ("TTT-2-vs-Chaos", None),
    ],
)
def test_alphabeta_solves_small_rule_sets(name, value):
    from solvers.exhaustive import solve

    result = solve(f"ttt(rules={spec(name)})", tt_log2=20)
    assert result["complete"]
    if value is not None:
        assert result["value"] == value
    else:
        assert -1.0 <= result["value"] <= 1.0


CENTRE = ["black@(2,2,1)"]


@pytest.mark.parametrize(
    "name,value,winning",
    [
        ("Tapatan", 0.0, []),
        ("Achi", 1.0, CENTRE),  # king steps
        ("Tapatan-Traditional", 1.0, CENTRE),
        ("Achi-Traditional", 1.0, CENTRE),  # the drawn lines
    ],
)
def test_both_readings_of_tapatan_and_achi_solve(name, value, winning):
    """docs/solved.md: the two readings of "Moves adjacent" give different
    values for Tapatan; the traditional board's is Dudeney's (the first
    player wins by opening in the centre)."""
    from solvers.exhaustive import solve

    result = solve(f"ttt(rules={spec(name)})", tt_log2=20)
    assert result["complete"] and result["value"] == value
    assert result["winning_first_moves"] == winning


def test_symmetry_keys_agree_with_plain_keys_on_a_solve():
    from solvers.exhaustive import solve

    plain = solve("ttt(rules=Tapatan)", tt_log2=20, symmetry=False)
    sym = solve("ttt(rules=Tapatan)", tt_log2=20, symmetry=True)
    assert plain["value"] == sym["value"] == 0.0
    assert plain["opening_values"] == sym["opening_values"]


@pytest.mark.parametrize(
    "players,reserves",
    [
        ("4", {"black": 4, "white": 4, "pink": 4, "yellow": 4}),
        ("3-vs-chaos", {"black": 4, "white": 4, "pink": 4, "yellow": 4}),
        ("partners", {"black": 4, "white": 4, "pink": 4, "yellow": 4}),
    ],
)
def test_search_with_three_and_four_players_and_chaos(players, reserves, tmp_path):
    path = tmp_path / "many.json"
    path.write_text(
        json.dumps(
            {
                "name": "many",
                "players": players,
                "board": {"kind": "squares", "size": [4, 4, 1]},
                "reserves": reserves,
                "turn_checks": ["first-3-wins"],
            }
        )
    )
    game = pyspiel.load_game(f"ttt(rules={path})")
    c = game.new_core()
    uct = pytest.importorskip("mcts.uct")
    result = uct.UCTSearch(uct_c=1.4, max_simulations=300, seed=2).search(c)
    assert result["action"] in c.legal_action_list()
    from solvers.alphabeta import iterative_deepening

    found = iterative_deepening(game, c, max_depth=2)
    assert found["depth"] == 2 and found["best_move"] in c.legal_action_list()
