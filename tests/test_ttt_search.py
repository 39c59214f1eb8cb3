"""The tic-tac-toe cores under the toolkit's search code: UCT (mcts/) and the
alpha-beta solver (solvers/) run on every kind of rule set, and small rule sets
solve to their known values (docs/rules/ttt.md, "Solved")."""
import pytest

import games  # noqa: F401
from games.ttt import rules
from games.ttt._engine import make_core

CAT = rules.catalogue()


def core(name):
    rs = CAT[name] if name in CAT else rules.load(rules.EXAMPLES_DIR / f"{name}.json")
    return make_core(rs.compile())


def test_examples_load_and_do_not_duplicate_the_catalogue():
    examples = [rules.load(p) for p in sorted(rules.EXAMPLES_DIR.glob("*.json"))]
    assert examples and not {rs.name for rs in examples} & set(CAT)
    assert not {rs.canonical for rs in examples} & {rs.canonical for rs in CAT.values()}


@pytest.mark.parametrize("name", ["Tic-Tac-Toe", "3P-Notakto", "Connect4", "Tapatan", "9-Holes",
                                  "Wild-TTT-6sq3143", "Connect6-19x19", "TTT-2-vs-Chaos"])
def test_uct_runs_on_every_kind_of_rule_set(name):
    uct = pytest.importorskip("mcts.uct")
    c = core(name)
    result = uct.UCTSearch(uct_c=1.4, max_simulations=300, seed=1).search(c)
    assert result["action"] in c.legal_action_list()


@pytest.mark.parametrize("name,value", [
    ("Tic-Tac-Toe", 0.0), ("Treblecross15", 1.0), ("Achi", 1.0), ("Connect4-4x4", 0.0),
    ("Connect4-4x5", 0.0), ("TTT-2-vs-Chaos", None),
])
def test_alphabeta_solves_small_rule_sets(name, value):
    ab = pytest.importorskip("solvers._alphabeta")
    c = core(name)
    v, exact = ab.Searcher(c, tt_log2=20).value(c)
    assert exact
    if value is not None:
        assert v == value
    else:
        assert -1.0 <= v <= 1.0


def test_symmetry_keys_agree_with_plain_keys_on_a_solve():
    ab = pytest.importorskip("solvers._alphabeta")
    c = core("Tapatan")
    plain = ab.Searcher(c, tt_log2=20, symmetry=False).value(c)
    sym = ab.Searcher(c, tt_log2=20, symmetry=True).value(c)
    assert plain == sym == (0.0, True)


@pytest.mark.parametrize("players,reserves", [
    ("4", {"black": 4, "white": 4, "pink": 4, "yellow": 4}),
    ("3-vs-chaos", {"black": 4, "white": 4, "pink": 4, "yellow": 4}),
    ("partners", {"black": 4, "white": 4, "pink": 4, "yellow": 4}),
])
def test_search_with_three_and_four_players_and_chaos(players, reserves):
    rs = rules.parse({"name": "many", "players": players, "board": {"kind": "squares", "size": [4, 4, 1]},
                      "reserves": reserves, "turn_checks": ["first-3-wins"]})
    c = make_core(rs.compile())
    uct = pytest.importorskip("mcts.uct")
    result = uct.UCTSearch(uct_c=1.4, max_simulations=300, seed=2).search(c)
    assert result["action"] in c.legal_action_list()
    ab = pytest.importorskip("solvers._alphabeta")
    searcher = ab.Searcher(c, root_player=c.num_players - 1, tt_log2=20)
    best, move, values, exact, completed = searcher.root_moves(c, 2)
    assert completed and move in c.legal_action_list()
