"""Pots and poker ranks: the poker-hand rank of a stack (games/ttt/poker.pyx)
against a brute-force evaluator written from the hierarchy of the
tic-tac-toe variations specification (every sub-multiset of at most five
pieces matched against the shape of each named hand, the best (class,
naming shapes) wins; tests/ttt_reference/pots.py); and the pot a cover
leaves when several captors of the highest rank capture the mover, split
round-robin from a chance-drawn captor (docs/rules/ttt/pots.md),
after a sequential cover or after a round's joint action (one chance node
per pot, in target order; "Pots inside rounds").
The whole-stack showdown of by-stack covers is test_ttt_showdowns.py's."""

import json

import pyspiel
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import games  # noqa: F401  (registers ttt)
from games.ttt import make_core, poker, rules
from games.ttt.rules import RuleSetError
from tiers import sweep
from ttt_checks import (
    CAN,
    parsed_or_rejected,
    play_against_reference,
    power,
    random_sim_test_of,
    rule_set,
    same_pieces,
)
from ttt_records import pot_round_records
from ttt_reference import brute_force, multisets
from ttt_reference.pots import CLASSES
from ttt_reference.shapes import RANK


def engine_key(counts):
    name, shapes = poker.describe(poker.rank(list(counts)))
    return CLASSES.index(name), tuple(RANK.index(s) for s in shapes)


# -- poker hands ---------------------------------------------------------------------------------


def test_every_multiset_of_up_to_nine_pieces_matches_brute_force():
    all_sets = list(multisets(9))
    assert len(all_sets) == 5005
    keys = {}
    for counts in all_sets:
        key = brute_force(counts)
        assert engine_key(counts) == key, (counts, engine_key(counts), key)
        keys[counts] = key
    # the int ranks order hands exactly as the brute-force keys do
    by_rank = sorted(all_sets, key=lambda c: poker.rank(list(c)))
    for a, b in zip(by_rank, by_rank[1:], strict=False):  # each hand and the next
        ra, rb = poker.rank(list(a)), poker.rank(list(b))
        assert (ra < rb) == (keys[a] < keys[b]) and (ra == rb) == (keys[a] == keys[b])


@pytest.mark.parametrize(
    "pieces, name, shapes",
    [
        ({"circle": 5}, "5-of-a-shape", ["circle"]),
        ({"circle": 6}, "5-of-a-shape", ["circle"]),
        (["circle", "triangle", "x", "cross", "star"], "5-straight", ["star"]),
        (["triangle", "x", "cross", "star", "pentagon"], "5-straight", ["pentagon"]),
        # no wrap: pentagon-circle-triangle-x-cross is not a 5-straight, it holds a 4-straight
        (["pentagon", "circle", "triangle", "x", "cross"], "4-straight", ["cross"]),
        (["pentagon", "circle"], "singleton", ["pentagon"]),
        ({"pentagon": 3, "circle": 2}, "full-house", ["pentagon", "circle"]),
        ({"circle": 3, "pentagon": 2}, "full-house", ["circle", "pentagon"]),
        ({"star": 2, "x": 2, "circle": 1}, "2-pair", ["star", "x"]),
        ({"x": 2, "cross": 1, "star": 1}, "3-straight", ["star"]),
        ({}, "none", []),
    ],
)
def test_named_hands(pieces, name, shapes):
    assert poker.describe(poker.rank(pieces)) == (name, shapes)


def test_the_hierarchy_in_order():
    # one hand of each class, every class beating the one below, even with lower shapes
    ladder = [
        {"pentagon": 1},
        {"circle": 1, "triangle": 1},
        {"circle": 2},
        ["circle", "triangle", "x"],
        {"circle": 2, "triangle": 2},
        {"circle": 3},
        ["circle", "triangle", "x", "cross"],
        {"circle": 3, "triangle": 2},
        ["circle", "triangle", "x", "cross", "star"],
        {"circle": 4},
        {"circle": 5},
    ]
    ranks = [poker.rank(h) for h in ladder]
    assert ranks == sorted(ranks) and len(set(ranks)) == len(ranks)
    assert poker.rank({"pentagon": 1}) > poker.rank({"circle": 1})  # no circle-over-pentagon exception


def test_bad_input_is_refused_clearly():
    with pytest.raises(ValueError, match="unknown shape"):
        poker.rank({"hexagon": 1})
    with pytest.raises(ValueError, match="negative"):
        poker.rank([0, 0, -1, 0, 0, 0])


# -- pots of covers ----------------------------------------------------------------------------


def pot_cases():
    """Covers on stacks whose captors of the highest rank split the captive."""
    out = []
    add = lambda name, **kw: out.append(rule_set(name, **kw))
    add(
        "pot-4p",
        players="4",
        board={
            "kind": "stacks",
            "size": [2, 1, 6],
            "pieces": [
                {"at": [1, 1, 1], "colour": "white", "shape": "x"},
                {"at": [1, 1, 2], "colour": "pink", "shape": "star"},
                {"at": [1, 1, 3], "colour": "yellow", "shape": "pentagon"},
            ],
        },
        reserves={c: {"circle": 2} for c in ("black", "white", "pink", "yellow")},
        move_limit=30,
        shapes={
            "circle": {},
            "x": power("cover", "reincarnates-x2"),
            "star": power("cover", "reincarnates-x2"),
            "pentagon": power("cover", "reincarnates-x2"),
        },
    )
    add(
        "pot-mixed",
        players="3",
        board={
            "kind": "stacks",
            "size": [2, 1, 5],
            "pieces": [
                {"at": [1, 1, 1], "colour": "white", "shape": "x"},
                {"at": [1, 1, 2], "colour": "pink", "shape": "pentagon"},
            ],
        },
        reserves={
            "black": {"circle": 3, "x": 1},
            "white": {"circle": 2},
            "pink": {"circle": 2, "pentagon": 1},
        },
        move_limit=30,
        phases=[{"pass": True}],
        shapes={"circle": {}, "x": power("cover", "reincarnates-x2"), "pentagon": power("cover", "converts")},
    )
    x3 = power("cover", "reincarnates-x3")
    add(
        "pot-x3",
        players="3",
        board={
            "kind": "stacks",
            "size": [2, 1, 5],
            "pieces": [
                {"at": [1, 1, 1], "colour": "white", "shape": "x"},
                {"at": [1, 1, 2], "colour": "pink", "shape": "star"},
            ],
        },
        reserves={c: {"circle": 2} for c in ("black", "white", "pink")},
        move_limit=20,
        phases=[{"pass": True}],
        shapes={"circle": {}, "x": x3, "star": x3},
    )
    add(
        "pot-x3-with-x2",
        players="3",
        board={
            "kind": "stacks",
            "size": [2, 1, 5],
            "pieces": [
                {"at": [1, 1, 1], "colour": "white", "shape": "x"},
                {"at": [1, 1, 2], "colour": "pink", "shape": "star"},
            ],
        },
        reserves={c: {"circle": 2} for c in ("black", "white", "pink")},
        move_limit=20,
        phases=[{"pass": True}],
        shapes={"circle": {}, "x": x3, "star": power("cover", "reincarnates-x2")},
    )
    return out


POT_CASES = pot_cases()


def _case(name):
    return next(r for r in POT_CASES if r.name == name)


@pytest.mark.parametrize("rs", POT_CASES, ids=lambda rs: rs.name)
def test_pot_rule_sets_match_reference(rs):
    play_against_reference(rs, games=sweep(full=60, quick=6), seed=sum(map(ord, rs.name)), check=same_pieces)


@pytest.mark.slow
@pytest.mark.parametrize("rs", POT_CASES, ids=lambda rs: rs.name)
def test_pot_rule_sets_match_reference_long(rs):
    play_against_reference(rs, games=800, seed=7, check=same_pieces)


@pytest.mark.parametrize("rs", POT_CASES, ids=lambda rs: rs.name)
def test_random_sim_test_on_pot_rule_sets(rs, tmp_path):
    random_sim_test_of(rs, tmp_path, num_sims=sweep(full=8, quick=1))


def test_pot_is_split_round_robin_from_a_random_start():
    """ "all players with the highest rank on the stack split the pot [...]
    allocated [...] round-robin to the captors starting randomly": a black
    circle covering the white X, pink star and yellow pentagon (three captors
    that capture other than by rank: all of the highest rank), each
    reincarnating x2, makes a pot of two circles; a chance node picks the
    first captor uniformly (1/3 each), which gets one, the next captor the
    other."""
    rs = _case("pot-4p")
    assert rs.compile()["pots"]
    for start, winners in ((0, ("white", "pink")), (1, ("pink", "yellow")), (2, ("yellow", "white"))):
        core = make_core(rs)
        core.apply_action(0)  # black circle on stack 1
        assert core.player() == -1
        assert core.pending_pot() == {
            "target": 0,
            "shape": "circle",
            "pieces": 2,
            "captors": ["white", "pink", "yellow"],
        }
        outcomes = core.chance_outcome_list()
        assert [a for a, _ in outcomes] == [0, 1, 2]
        assert all(abs(p - 1 / 3) < 1e-12 for _, p in outcomes)
        core.apply_action(start)
        assert core.player() == 1 and core.pending_pot() is None
        res = core.shape_reserves()
        assert res["black"]["circle"] == 1
        for colour in ("white", "pink", "yellow"):
            assert res[colour]["circle"] == 2 + (1 if colour in winners else 0), (start, colour)
        assert sum(1 for v in core.cells() if v > 0) == 3  # the attacker did not stay


def test_pot_with_mixed_results():
    """Captors with different results: the pot is the one attacker (doubled
    only when every captor doubles); a converting captor that gets it keeps
    it on the stack in its colour, a reincarnating x2 captor gets two."""
    rs = _case("pot-mixed")
    X = 2
    core = make_core(rs)
    core.apply_action(0)  # black circle on stack 1: white X and pink pentagon capture
    assert core.pending_pot()["captors"] == ["white", "pink"] and core.pending_pot()["pieces"] == 1
    other = core.clone()
    core.apply_action(0)  # white first: two circles to white's reserve
    assert core.shape_reserves()["white"]["circle"] == 4 and core.cells()[0 + 2 * X] == 0
    other.apply_action(1)  # pink first: the circle turns pink on top of the stack
    assert other.cells()[0 + 2 * X] == 3 and other.shapes()[0 + 2 * X] == "circle"
    assert other.shape_reserves()["white"]["circle"] == 2


def test_a_pot_of_tripling_captors_is_tripled():
    """ "if there are three reincarnate (x2) captors of two pieces, then one
    captor gets two and the others each get one", read for captors that all
    reincarnate x3 (docs/rules/ttt/captures.md, "Reincarnate: one or
    three"): a black circle covering white's X and pink's star makes a pot
    of three circles, dealt round-robin from the captor the chance node
    picks (two to it, one to the other); with an x2 captor beside the x3 one
    the pot is the one circle, and its captor takes its own count."""
    for start, got in ((0, {"white": 2, "pink": 1}), (1, {"white": 1, "pink": 2})):
        core = make_core(_case("pot-x3"))
        core.apply_action(0)  # black circle on stack 1
        assert core.pending_pot()["pieces"] == 3
        core.apply_action(start)
        res = core.shape_reserves()
        assert {c: res[c]["circle"] - 2 for c in ("white", "pink")} == got
    for start, got in ((0, {"white": 3, "pink": 0}), (1, {"white": 0, "pink": 2})):
        core = make_core(_case("pot-x3-with-x2"))
        core.apply_action(0)
        assert core.pending_pot()["pieces"] == 1
        core.apply_action(start)
        res = core.shape_reserves()
        assert {c: res[c]["circle"] - 2 for c in ("white", "pink")} == got


def test_pot_rule_sets_are_stochastic_for_openspiel(tmp_path):
    rs = _case("pot-4p")
    path = tmp_path / "pot.json"
    path.write_text(json.dumps(rs.to_json()))
    game = pyspiel.load_game(f"ttt(rules={path})")
    assert game.get_type().chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    state = game.new_initial_state()
    state.apply_action(0)
    assert state.is_chance_node() and len(state.chance_outcomes()) == 3


# -- pots inside rounds: every plan lands, then each pot the round left is a chance node --------


X2 = {"move": "stationary", "power": CAN, "condition": "cover", "result": "reincarnates-x2"}


def _captors_stack(x):
    """A white X, pink star and yellow pentagon on stack x: three captors of the
    highest rank (each captures other than by rank)."""
    return [
        {"at": [x, 1, 1], "colour": "white", "shape": "x"},
        {"at": [x, 1, 2], "colour": "pink", "shape": "star"},
        {"at": [x, 1, 3], "colour": "yellow", "shape": "pentagon"},
    ]


def round_pot_cases():
    out = []
    add = lambda name, **kw: out.append(rule_set(name, **kw))
    x2 = {"circle": {}, "x": X2, "star": X2, "pentagon": X2}
    add(
        "single-pot-4p",
        players="4",
        board={"kind": "stacks", "size": [2, 1, 6], "pieces": _captors_stack(1)},
        reserves={c: {"circle": 2} for c in ("black", "white", "pink", "yellow")},
        move_limit=30,
        shapes=x2,
        phases=[{"order": "single", "pass": True, "locked_players": [2, 3, 4]}, {"pass": True}],
    )
    add(
        "sim-two-pots",
        players="4",
        board={
            "kind": "stacks",
            "size": [3, 1, 6],
            "pieces": _captors_stack(1)
            + [
                {"at": [3, 1, 1], "colour": "white", "shape": "x"},
                {"at": [3, 1, 2], "colour": "yellow", "shape": "star"},
            ],
        },
        reserves={
            "black": {"circle": 2},
            "pink": {"circle": 2},
            "white": {"circle": 1},
            "yellow": {"circle": 1},
        },
        move_limit=20,
        shapes=x2,
        turn_checks=["first-3-wins"],
        phases=[{"order": "simultaneous", "pass": True}],
    )
    add(
        "sim-pot-mixed",
        players="3",
        board={
            "kind": "stacks",
            "size": [2, 1, 5],
            "pieces": [
                {"at": [1, 1, 1], "colour": "white", "shape": "x"},
                {"at": [1, 1, 2], "colour": "pink", "shape": "pentagon"},
            ],
        },
        reserves={
            "black": {"circle": 3, "x": 1},
            "white": {"circle": 2},
            "pink": {"circle": 2, "pentagon": 1},
        },
        move_limit=30,
        phases=[{"order": "simultaneous", "pass": True}],
        shapes={"circle": {}, "x": X2, "pentagon": power("cover", "converts")},
    )
    add(
        "sim-pot-by-rank",
        players="3",
        board={
            "kind": "stacks",
            "size": [2, 1, 4],
            "pieces": [
                {"at": [1, 1, 1], "colour": "white", "shape": "pentagon"},
                {"at": [1, 1, 2], "colour": "pink", "shape": "pentagon"},
            ],
        },
        reserves={c: {"circle": 2, "x": 1} for c in ("black", "white", "pink")},
        move_limit=16,
        shapes={
            "circle": power("cover-by-rank", "converts"),
            "x": power("cover-by-rank", "reincarnates"),
            "pentagon": power("cover-by-rank", "reincarnates-x2"),
        },
        phases=[{"order": "simultaneous", "pass": True}],
    )
    add(
        "vs-chaos-single",
        players="3-vs-chaos",
        board={
            "kind": "stacks",
            "size": [3, 1, 5],
            "pieces": _captors_stack(2)[:2] + [{"at": [2, 1, 3], "colour": "black", "shape": "pentagon"}],
        },
        reserves={
            "black": {"circle": 1},
            "white": {"circle": 1},
            "pink": {"circle": 1},
            "yellow": {"circle": 3},
        },
        move_limit=24,
        shapes=x2,
        stalemate="most-pieces-wins",
        phases=[
            {"order": "single", "pass": True, "locked_players": ["chaos"]},
            {"pass": True, "locked_players": [1, 2, 3]},
        ],
    )
    return out


ROUND_POT_CASES = round_pot_cases()


def _round_case(name):
    return next(r for r in ROUND_POT_CASES if r.name == name)


@pytest.mark.parametrize("rs", ROUND_POT_CASES, ids=lambda rs: rs.name)
def test_pots_in_rounds_match_reference(rs):
    assert rs.compile()["pots"] and rs.compile()["simultaneous"]
    play_against_reference(rs, games=sweep(full=80, quick=6), seed=sum(map(ord, rs.name)), check=same_pieces)


@pytest.mark.slow
@pytest.mark.parametrize("rs", ROUND_POT_CASES, ids=lambda rs: rs.name)
def test_pots_in_rounds_match_reference_long(rs):
    play_against_reference(rs, games=800, seed=5, check=same_pieces)


@pytest.mark.parametrize("rs", ROUND_POT_CASES, ids=lambda rs: rs.name)
def test_random_sim_test_on_pots_in_rounds(rs, tmp_path):
    random_sim_test_of(rs, tmp_path, num_sims=sweep(full=8, quick=1))
    path = tmp_path / f"{rs.name}.json"
    game = pyspiel.load_game(f"ttt(rules={path})")
    pyspiel.random_sim_test(
        pyspiel.convert_to_turn_based(game), num_sims=sweep(full=4, quick=1), serialize=False, verbose=False
    )


def test_game_type_of_pots_in_rounds_is_truthful(tmp_path):
    rs = _round_case("single-pot-4p")
    path = tmp_path / "p.json"
    path.write_text(json.dumps(rs.to_json()))
    gt = pyspiel.load_game(f"ttt(rules={path})").get_type()
    assert gt.dynamics == pyspiel.GameType.Dynamics.SIMULTANEOUS
    assert gt.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert gt.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION


def test_single_phase_pot_is_a_chance_node_after_the_joint_action(tmp_path):
    """ "All players with the highest rank on the stack split the pot
    [...] allocated [...] round-robin to the captors starting randomly". In a
    single phase only black plays: its circle on stack 1 covers the white X,
    pink star and yellow pentagon, three captors reincarnating x2, so the pot
    is two circles; after the joint action a chance node draws the first
    captor (1/3 each), which gets one circle and the next captor the other;
    then the single phase's one round is over."""
    rs = _round_case("single-pot-4p")
    for start, winners in ((0, ("white", "pink")), (1, ("pink", "yellow")), (2, ("yellow", "white"))):
        core = make_core(rs)
        assert core.player() == 0 and core.current_phase() == 0
        core.apply_action(0)  # black's plan: circle on stack 1
        assert core.player() == -1
        assert core.pending_pot() == {
            "target": 0,
            "shape": "circle",
            "pieces": 2,
            "captors": ["white", "pink", "yellow"],
        }
        outcomes = core.chance_outcome_list()
        assert [a for a, _ in outcomes] == [0, 1, 2]
        assert all(abs(p - 1 / 3) < 1e-12 for _, p in outcomes)
        core.apply_action(start)
        assert core.pending_pot() is None and core.current_phase() == 1  # the one round ended the phase
        res = core.shape_reserves()
        assert res["black"]["circle"] == 1
        for colour in ("white", "pink", "yellow"):
            assert res[colour]["circle"] == 2 + (1 if colour in winners else 0), (start, colour)
        assert core.history()[-1] == (15, start)  # the deal is in the history (seat 15)
    # OpenSpiel's face: the joint action, then the chance node
    path = tmp_path / "p.json"
    path.write_text(json.dumps(rs.to_json()))
    state = pyspiel.load_game(f"ttt(rules={path})").new_initial_state()
    assert state.is_simultaneous_node()
    state.apply_actions([0, 0, 0, 0])  # only black decides; the others' one choice
    assert state.is_chance_node() and [p for _, p in state.chance_outcomes()] == pytest.approx([1 / 3] * 3)


def test_two_pots_in_one_round_are_dealt_in_target_order():
    """Black and pink each cover a stack of captors in one round: two pots,
    two chance nodes, the lower target first; the round ends after the last."""
    rs = _round_case("sim-two-pots")
    core = make_core(rs)
    names = core.shape_names()
    T = 3
    circle = names.index("circle")
    core.apply_action(circle * T + 2)  # black circle on stack 3 (white x, yellow star)
    core.apply_action(core.legal_action_list()[-1])  # white passes
    core.apply_action(circle * T + 0)  # pink circle on stack 1 (white x, pink star: pink's own
    assert core.player() == 3  # star is not covered; yellow pentagon)
    core.apply_action(core.legal_action_list()[-1])  # yellow passes
    assert core.player() == -1 and core.pending_pot()["target"] == 0
    assert core.pending_pot()["captors"] == ["white", "yellow"]
    core.apply_action(1)  # yellow starts: two circles, one each
    assert core.player() == -1 and core.pending_pot()["target"] == 2
    assert core.pending_pot()["captors"] == ["white", "yellow"]
    core.apply_action(0)  # white starts
    assert core.pending_pot() is None and core.player() == 0  # the next round
    res = core.shape_reserves()
    assert res["white"]["circle"] == 1 + 2 and res["yellow"]["circle"] == 1 + 2
    assert res["black"]["circle"] == 1 and res["pink"]["circle"] == 1


def test_information_states_tell_pot_outcomes_apart():
    rs = _round_case("single-pot-4p")
    a, b = make_core(rs), make_core(rs)
    for core, start in ((a, 0), (b, 1)):
        core.apply_action(0)
        core.apply_action(start)
    for p in range(4):
        assert a.information_state_string(p) != b.information_state_string(p)
        assert a.info_state_key(p) != b.info_state_key(p)
    assert "pot:0" in a.information_state_string(2)


def test_validation_still_refuses_pots_in_cloaked_rounds():
    rec = _round_case("single-pot-4p").to_json()
    rec["cloaking"] = "hides"
    rec["phases"][0]["cloaked"] = [[2, 1, 1]]
    with pytest.raises(RuleSetError) as e:
        rules.parse(rec)
    assert "pot split among captors" in str(e.value) and "cloaked spaces" in str(e.value)


@settings(max_examples=sweep(full=60, quick=7), deadline=None, suppress_health_check=list(HealthCheck))
@given(pot_round_records(), st.integers(0, 10**6))
def test_random_rounds_with_pots_match_reference(rec, seed):
    rs = parsed_or_rejected(rec)
    play_against_reference(rs, games=3, seed=seed, check=same_pieces)
