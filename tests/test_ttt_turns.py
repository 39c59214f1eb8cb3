"""Turns and legal moves: who moves (seats, partners, Chaos as the chance
player, one player against Chaos), placements and colour choice, pieces per
turn, moves and the reserves rule, passes and agreed draws. Hand-played
games check what docs/rules/ttt/turns.md says; the catalogue's small games and
rule sets made for the combinations no catalogue game covers are compared
move by move with the reference model (tests/ttt_reference/): same player to
move, same legal actions (or chance outcomes), same returns; so are random
rule sets. Cells are numbered x + X*(y + Y*z) from 0."""

import copy
import json

import pyspiel
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import games  # noqa: F401  (registers ttt)
from games.ttt import make_core, rules
from tiers import sweep
from ttt_checks import (
    assert_is_legal_agrees_with_legal_actions,
    new_core,
    parsed_or_rejected,
    play,
    play_against_reference,
    random_sim_test_of,
    rule_set,
)
from ttt_records import rule_records
from ttt_reference import ReferenceState

CAT = rules.catalogue()


# -- hand-played turns ----------------------------------------------------------------------------


def test_connect6_two_stones_a_turn_and_the_preplaced_white_stone():
    c = make_core("Connect6-19x19")
    assert c.cells()[9 + 19 * 9] == 2  # white on (10,10)
    assert 180 not in c.legal_action_list()
    order = []
    for a in [0, 1, 340, 341, 2, 3, 342, 343, 4]:
        order.append(c.player())
        c.apply_action(a)
    assert order == [0, 0, 1, 1, 0, 0, 1, 1, 0]
    assert not c.terminal()  # five in a row is not enough
    c.apply_action(5)
    assert c.terminal() and c.returns_list() == [1.0, -1.0]


def test_tapatan_places_then_moves_adjacent():
    c = play(make_core("Tapatan"), [0, 4, 8, 2, 6])
    assert all(a < 9 for a in c.legal_action_list())  # White still holds a piece
    play(c, [3])
    # Black: 0, 8, 6; White: 4, 2, 3; empty: 1, 5, 7. Moves are 9 + from*9 + to.
    assert c.legal_action_list() == [9 + 0 * 9 + 1, 9 + 6 * 9 + 7, 9 + 8 * 9 + 5, 9 + 8 * 9 + 7]
    play(c, [9 + 8 * 9 + 5, 9 + 2 * 9 + 1, 9 + 5 * 9 + 2])
    assert not c.terminal()
    play(c, [9 + 3 * 9 + 7])  # White 1, 4, 7
    assert c.terminal() and c.returns_list() == [-1.0, 1.0]


def test_nine_holes_ignores_diagonals_and_moves_anywhere():
    c = play(make_core("9-Holes"), [0, 1, 4, 3, 8])
    assert not c.terminal()  # Black's diagonal 0-4-8 does not count
    play(c, [6])
    moves = c.legal_action_list()
    # linear or knight on 3x3 reaches every empty space (2, 5, 7) from every piece
    assert moves == sorted(9 + f * 9 + u for f in (0, 4, 8) for u in (2, 5, 7))
    play(c, [9 + 0 * 9 + 2, 9 + 6 * 9 + 7])
    assert not c.terminal()
    play(c, [9 + 4 * 9 + 5])  # Black 2, 5, 8: a column
    assert c.terminal() and c.returns_list() == [1.0, -1.0]


def test_agreed_draw_offer_refuse_and_accept():
    c = make_core("4on7sq")
    offer, agree, refuse = 49, 50, 51
    assert c.num_actions == 52 and offer in c.legal_action_list()
    c.apply_action(offer)
    assert c.player() == 1 and c.legal_action_list() == [agree, refuse]
    c.apply_action(refuse)
    assert c.player() == 0 and offer not in c.legal_action_list()  # must choose another move
    c.apply_action(0)
    assert c.player() == 1 and offer in c.legal_action_list()
    play(c, [offer, agree])
    assert c.terminal() and c.returns_list() == [0.0, 0.0] and c.ending() == "agreed draw"


def test_draw_needs_every_other_non_chaos_player():
    c = new_core(
        "d3",
        players="3",
        board={"kind": "squares", "size": [4, 4, 1]},
        reserves={"black": 5, "white": 5, "pink": 5},
        agree_draw=True,
    )
    offer, agree, refuse = 16, 17, 18
    play(c, [0, offer])
    assert c.player() == 2
    c.apply_action(agree)
    assert c.player() == 0 and not c.terminal()  # player 0 answers too
    c.apply_action(refuse)
    assert c.player() == 1 and offer not in c.legal_action_list()


def test_chaos_is_the_chance_player_moves_last_and_can_beat_everyone():
    c = new_core("c", players="2-vs-chaos", reserves={"black": 3, "white": 3, "pink": 3})
    play(c, [0, 1])
    assert c.player() == -1
    outcomes = c.chance_outcome_list()
    assert [a for a, _ in outcomes] == list(range(2, 9)) and sum(p for _, p in outcomes) == pytest.approx(1)
    play(c, [4, 8, 7, 6, 3, 5])
    assert c.player() == -1
    c.apply_action(2)  # pink 2-4-6
    assert c.terminal() and c.returns_list() == [-1.0, -1.0]


def test_a_round_of_passes_is_a_stalemate():
    c = new_core("p", reserves={"black": 5, "white": 4}, phases=[{"pass": True}], stalemate="all-lose")
    play(c, [9, 0, 9])
    assert not c.terminal()
    c.apply_action(9)
    assert c.terminal() and c.returns_list() == [-1.0, -1.0] and c.ending() == "stalemate"


def test_wild_ttt_colour_choice_locks_and_whoever_completes_wins():
    c = make_core("Wild-TTT-6sq3143")
    legal = c.legal_action_list()
    assert c.num_actions == 72 and len(legal) == 68
    assert not {2, 15, 36 + 2, 36 + 15} & set(legal)  # (3,1,1) and (4,3,1) are locked
    # Black (player 0) starts a white row; White (player 1) finishes it and wins.
    play(c, [36 + 6, 36 + 7, 30])
    c.apply_action(36 + 8)
    assert c.returns_list() == [-1.0, 1.0]


def test_cannot_move_while_holding_an_identical_piece():
    c = new_core(
        "m", reserves={"black": 4, "white": 3}, shapes={"circle": {"move": "adjacent"}}, move_limit=30
    )
    play(c, [0, 8, 2, 6, 3])  # Black 0, 2, 3; White 8, 6
    play(c, [5])  # White placed its last piece
    assert all(a < 9 for a in c.legal_action_list())  # Black still holds one
    c.apply_action(7)  # Black's last piece (0, 2, 3, 7)
    assert any(a >= 9 for a in c.legal_action_list())  # White (no reserve) moves


# -- the engine against the reference model ------------------------------------------------


SMALL_CATALOGUE = [
    "Tic-Tac-Toe",
    "3on15line",
    "Treblecross15",
    "3P-Misere-Notakto",
    "3P-Notakto",
    "Tapatan",
    "Achi",
    "9-Holes",
    "Connect4",
    "3P-MostWins-3x4",
    "3P-LeastLoses-3x4",
    "Wild-TTT-6sq3143",
    "4on7sq",
]


def synthetic():
    """Rule sets that exercise combinations the catalogue leaves out
    (test_ttt_phases.py has those of phases)."""
    base = {"board": {"kind": "squares", "size": [3, 3, 1]}, "reserves": {"black": 5, "white": 4}}
    out = []

    def add(name, **kw):
        out.append(rule_set(name, base, **kw))

    add("chaos2", players="2-vs-chaos", reserves={"black": 3, "white": 3, "pink": 3})
    add(
        "chaos3-stalemate-most",
        players="3-vs-chaos",
        board={"kind": "squares", "size": [4, 3, 1]},
        reserves={"black": 3, "white": 3, "pink": 3, "yellow": 3},
        turn_checks=["first-4-wins"],
        stalemate="most-in-a-row-wins",
    )
    add(
        "partners",
        players="partners",
        colours="partners-share",
        board={"kind": "squares", "size": [4, 4, 1]},
        reserves={"black": 8, "white": 8},
        turn_checks=["first-4-wins"],
        stalemate="most-pieces-wins",
    )
    add(
        "partners-assigned",
        players="partners",
        board={"kind": "squares", "size": [4, 4, 1]},
        reserves={"black": 4, "white": 4, "pink": 4, "yellow": 4},
        stalemate="least-in-a-row-loses",
    )
    add(
        "pass-draw",
        reserves={"black": 4, "white": 4},
        phases=[{"pass": True}],
        agree_draw=True,
        stalemate="all-win",
    )
    add(
        "alquerque-5x5",
        board={"kind": "squares", "size": [5, 5, 1]},
        reserves={"black": 4, "white": 4},
        shapes={"circle": {"move": "adjacent-alquerque"}},
        turn_checks=["first-4-wins"],
        move_limit=40,
    )
    add(
        "orthogonal-stacks",
        board={"kind": "stacks", "size": [3, 3, 2]},
        reserves={"black": 5, "white": 5},
        shapes={"circle": {"move": "adjacent-orthogonal"}},
        move_limit=40,
    )
    add(
        "two-per-turn-3d",
        board={"kind": "squares", "size": [3, 3, 3]},
        reserves={"black": 14, "white": 13},
        pieces_per_turn=2,
        turn_checks=["first-3-loses-no-diagonal", "first-3-wins"],
    )
    add(
        "stacks-move",
        board={
            "kind": "stacks",
            "size": [4, 1, 3],
            "locked": [[2, 1, 1]],
            "pieces": [{"at": [1, 1, 1], "colour": "white"}],
        },
        reserves={"black": 3, "white": 2},
        shapes={"circle": {"move": "adjacent"}},
        move_limit=30,
        stalemate="all-lose",
    )
    add(
        "stacks-knight-2d",
        board={"kind": "stacks", "size": [3, 3, 2]},
        reserves={"black": 3, "white": 3},
        shapes={"circle": {"move": "linear-or-knight"}},
        move_limit=25,
        turn_checks=["all-lose-if-any-3"],
    )
    add(
        "choose-3d-move",
        board={"kind": "squares", "size": [2, 2, 2]},
        colours="players-choose",
        reserves={"black": 2, "pink": 2},
        shapes={"circle": {"move": "linear-or-knight"}},
        move_limit=20,
        turn_checks=["first-2-wins-no-diagonal"],
        agree_draw=True,
    )
    add(
        "shared-move-pass",
        colours="shared",
        reserves={"black": 5},
        shapes={"circle": {"move": "adjacent"}},
        move_limit=40,
        phases=[{"pass": True}],
        turn_checks=["first-3-loses"],
    )
    add(
        "chaos-draw-move",
        players="2-vs-chaos",
        reserves={"black": 2, "white": 2, "pink": 2},
        shapes={"circle": {"move": "adjacent"}},
        move_limit=30,
        agree_draw=True,
        stalemate="most-pieces-wins",
    )
    add("no-checks", turn_checks=[], stalemate="most-in-a-row-wins")
    return out


def _cases():
    cat = rules.catalogue()
    return [cat[n] for n in SMALL_CATALOGUE] + synthetic()


@pytest.mark.parametrize("rs", _cases(), ids=lambda rs: rs.name)
def test_turn_rule_sets_match_reference(rs):
    play_against_reference(rs, games=sweep(full=60, quick=6), seed=hash(rs.name) % 1000)


@pytest.mark.slow
@pytest.mark.parametrize("rs", _cases(), ids=lambda rs: rs.name)
def test_turn_rule_sets_match_reference_long(rs):
    play_against_reference(rs, games=1500, seed=7)


@pytest.mark.parametrize("rs", _cases(), ids=lambda rs: rs.name)
def test_turn_rule_sets_is_legal_agrees_with_legal_actions(rs):
    assert_is_legal_agrees_with_legal_actions(rs, games=sweep(full=20, quick=2), seed=3)


# -- random rule sets ---------------------------------------------------------------------


@settings(max_examples=sweep(full=60, quick=7), deadline=None, suppress_health_check=list(HealthCheck))
@given(rule_records(), st.integers(0, 10**6))
def test_random_rule_sets_match_reference(rec, seed):
    rs = parsed_or_rejected(rec)
    play_against_reference(rs, games=4, seed=seed)


# -- one player against Chaos ---------------------------------------------------------------


def solo_rule_sets():
    base = {"players": "1-vs-chaos", "board": {"kind": "squares", "size": [3, 3, 1]}}
    out = []

    def add(name, **kw):
        out.append(rule_set(name, base, **kw))

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


def test_validation_lists_every_problem_of_one_player_against_chaos():
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


def test_canonical_form_of_one_player_against_chaos_ignores_the_name():
    a = rules.parse({"name": "A", "players": "1-vs-chaos", "reserves": {"black": 5, "white": 4}})
    b = rules.parse(
        {"name": "B", "players": "1-vs-chaos", "reserves": {"white": 4, "black": 5}, "notes": "x"}
    )
    c = rules.parse({"name": "A", "players": "2", "reserves": {"black": 5, "white": 4}})
    assert a == b and a.fingerprint == b.fingerprint and a != c


@pytest.mark.parametrize("rs", SOLO, ids=lambda rs: rs.name)
def test_solo_rule_sets_match_reference(rs):
    play_against_reference(rs, games=sweep(full=80, quick=8), seed=11)


@pytest.mark.parametrize("rs", SOLO, ids=lambda rs: rs.name)
def test_random_sim_test_on_solo_rule_sets(rs, tmp_path):
    random_sim_test_of(rs, tmp_path, num_sims=sweep(full=20, quick=1))


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
