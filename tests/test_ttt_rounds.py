"""Simultaneous and single rounds (docs/rules/ttt/rounds.md,
"Readings of a round", "Moving shapes inside rounds", "Goals reached inside rounds"): each round
every seat that plays registers a plan legal on the board of the round's
start, then all plans resolve together.

- the engine against the reference model (tests/ttt_reference/) move by move
  on small rule sets written for these tests and on random rule sets with
  random phase orders: same player to decide, same legal plans, same seats
  still to decide, same returns;
- hand-played rounds for each rule: collisions destroy (placements, moves,
  on stacks), a piece two plans move is destroyed, reserves stay spent,
  lines completed by several sides at once draw, a single phase lasts one
  round, all-pass rounds advance the phase; moving shapes (swaps, moves onto
  a space another piece leaves, by-stack plans, goal replacements) and "stalemate
  if goal is reached" after the round; "overachievers disqualified" with
  simultaneous phases (a round's winners are one set, disqualified together);
- the OpenSpiel face: SIMULTANEOUS / IMPERFECT_INFORMATION per rule set, the
  registered ``ttt`` type as the weakest claim, ``random_sim_test`` with
  serialisation, ``convert_to_turn_based``, and CFR on the rock-paper-scissors
  rule set reaching its textbook equilibrium.

Captures, pots, showdowns, surrounds, jumps and cloaking inside rounds are
their own files' (test_ttt_captures.py, test_ttt_pots.py, ...,
test_ttt_cloaking_rounds.py); what each
player sees of a pending plan is test_ttt_views.py's.
"""

import random
from pathlib import Path

import numpy as np
import pyspiel
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import games  # noqa: F401  (registers ttt)
from games.ttt import make_core, rules
from games.ttt.rules import RuleSetError
from tiers import sweep
from ttt_checks import (
    CAN,
    cloaks,
    core_views,
    hides_four_each,
    parsed_or_rejected,
    piece,
    play,
    play_against_reference,
    play_named,
    power,
    random_sim_test_of,
    rule_set,
    same_pieces,
    saved_rule_set,
)
from ttt_records import rule_records
from ttt_round_records import move_round_records

GT = pyspiel.GameType

EXAMPLES = Path(games.__file__).parent / "ttt" / "examples"

RPS = EXAMPLES / "RPS-Shared-Lines.json"

# the three plans of RPS-Shared-Lines that beat each other in a cycle
ROCK_PAPER_SCISSORS = ("(3,1,1)->(3,2,1)", "(4,3,1)->(3,3,1)", "(2,3,1)->(2,2,1)")

BENCH = EXAMPLES / "Sim-Place-Then-Move.json"

TWO_PIECES = EXAMPLES / "Two-Piece-Rounds.json"  # a turn of two pieces: two rounds

RAW = {}  # name -> the record each test rule set was parsed from


def sim_rule_sets():
    """Small rule sets with simultaneous or single phases, each exercising a
    combination: placements, passes, Chaos, movement, stacks, shared colours
    (several plans moving one piece), colour choice, folds, locked players,
    sequential phases before and after, draw offers."""
    base = {"board": {"kind": "squares", "size": [3, 3, 1]}, "reserves": {"black": 4, "white": 4}}
    out = []

    def add(name, **kw):
        out.append(rule_set(name, base, **kw))
        RAW[name] = dict(base, name=name, **kw)

    add("sim-3x3", phases=[{"order": "simultaneous"}])
    add("single-3x3", phases=[{"order": "single"}], stalemate="most-pieces-wins")
    add(
        "sim-pass-3p",
        players="3",
        board={"kind": "squares", "size": [4, 3, 1]},
        reserves={"black": 3, "white": 3, "pink": 3},
        phases=[{"order": "simultaneous", "pass": True}],
        turn_checks=[],
        stalemate="most-pieces-wins",
    )
    add(
        "sim-chaos",
        players="2-vs-chaos",
        reserves={"black": 3, "white": 3, "pink": 3},
        phases=[{"order": "simultaneous"}],
    )
    add(
        "seq-single-sim-move",
        reserves={"black": 3, "white": 3},
        shapes={"circle": {"move": "adjacent"}},
        move_limit=24,
        phases=[
            {"movement": "placement-only"},
            {"order": "single", "movement": "placement-only"},
            {"order": "simultaneous"},
        ],
        stalemate="most-in-a-row-wins",
    )
    add(
        "sim-stacks-move",
        board={"kind": "stacks", "size": [3, 1, 3]},
        reserves={"black": 3, "white": 3},
        shapes={"circle": {"move": "adjacent"}},
        move_limit=20,
        turn_checks=["first-3-wins-no-diagonal"],
        phases=[{"order": "simultaneous"}],
    )
    add(
        "sim-shared-move",
        colours="shared",
        reserves={"black": 4},
        shapes={"circle": {"move": "adjacent"}},
        move_limit=20,
        phases=[{"order": "simultaneous", "pass": True}],
        turn_checks=["first-3-loses"],
    )
    add(
        "sim-choose",
        colours="players-choose",
        reserves={"black": 3, "white": 3},
        shapes={"circle": {"move": "linear-or-knight"}},
        move_limit=16,
        phases=[{"order": "simultaneous"}],
        turn_checks=["first-3-wins", "all-lose-if-any-2"][:1],
    )
    add(
        "sim-fold-locked",
        players="3",
        board={"kind": "squares", "size": [4, 3, 1]},
        reserves={"black": 3, "white": 3, "pink": 3},
        turn_checks=[],
        stalemate="most-pieces-wins",
        phases=[
            {
                "order": "simultaneous",
                "pass": True,
                "locked": [[2, 2, 1], [3, 2, 1]],
                "fold": "less-than-most-committed",
            },
            {"order": "simultaneous", "pass": True, "locked_players": [1]},
            {"pass": True},
        ],
    )
    add(
        "sim-partners",
        players="partners",
        board={"kind": "squares", "size": [4, 4, 1]},
        reserves={"black": 3, "white": 3, "pink": 3, "yellow": 3},
        phases=[{"order": "simultaneous"}],
        stalemate="least-in-a-row-loses",
    )
    add(
        "seq-then-sim-draws",
        agree_draw=True,
        reserves={"black": 4, "white": 4},
        phases=[{"pass": True}, {"order": "simultaneous", "pass": True}],
        turn_checks=["first-3-loses"],
    )
    add(
        "sim-chaos-move",
        players="3-vs-chaos",
        board={"kind": "squares", "size": [4, 4, 1]},
        reserves={"black": 2, "white": 2, "pink": 2, "yellow": 2},
        shapes={"circle": {"move": "adjacent"}},
        move_limit=30,
        phases=[{"order": "simultaneous", "pass": True}],
        stalemate="most-pieces-wins",
    )
    # per-player locks and the general scoring in rounds
    add(
        "sim-seat-locks-move",
        board={
            "kind": "squares",
            "size": [3, 3, 1],
            "sticky": [[2, 2, 1]],
            "entry_locked": [{"at": [[1, 1, 1], [3, 3, 1]], "players": [2]}],
            "exit_locked": [{"at": [[1, 3, 1]], "players": [1]}],
        },
        reserves={"black": 3, "white": 3},
        shapes={"circle": {"move": "adjacent"}},
        move_limit=20,
        phases=[
            {"order": "simultaneous", "pass": True, "entry_locked": [{"at": [[2, 1, 1]], "players": [1]}]}
        ],
    )
    add(
        "sim-area-chaos-limit",
        players="2-vs-chaos",
        reserves={"black": 3, "white": 3, "pink": 3},
        phases=[{"order": "simultaneous", "pass": True}],
        stalemate="most-area-wins",
        chaos_wins_if_more_than={"circle": 6},
        turn_checks=["first-3-wins", "any-piece-loses"][:1],
    )
    add(
        "single-two-pieces-3p",
        players="3",
        board={"kind": "squares", "size": [4, 3, 1]},
        reserves={"black": 3, "white": 3, "pink": 3},
        pieces_per_turn=2,
        round_plies="round-by-round",
        phases=[{"order": "single"}, {"order": "simultaneous", "pass": True}, {}],
    )
    out.append(rules.load(RPS))
    out.append(rules.load(BENCH))
    out.append(rules.load(TWO_PIECES))
    return out


@pytest.mark.parametrize("rs", sim_rule_sets(), ids=lambda rs: rs.name)
def test_round_rule_sets_match_reference(rs):
    play_against_reference(rs, games=sweep(full=80, quick=6), seed=sum(map(ord, rs.name)))


@pytest.mark.slow
@pytest.mark.parametrize("rs", sim_rule_sets(), ids=lambda rs: rs.name)
def test_round_rule_sets_match_reference_long(rs):
    play_against_reference(rs, games=2000, seed=11)


@settings(max_examples=sweep(full=60, quick=7), deadline=None, suppress_health_check=list(HealthCheck))
@given(
    rule_records(),
    st.lists(st.sampled_from(["sequential", "simultaneous", "single"]), min_size=3, max_size=3),
    st.integers(0, 10**6),
)
def test_random_rule_sets_with_simultaneous_phases_match_reference(rec, orders, seed):
    for ph, order in zip(rec["phases"], orders, strict=False):  # up to 3 phases, 3 orders
        ph["order"] = order
    if rec.get("pieces_per_turn") == 2 and any(ph["order"] != "sequential" for ph in rec["phases"]):
        rec["round_plies"] = "round-by-round"  # a turn of two pieces: two rounds
    rs = parsed_or_rejected(rec)
    play_against_reference(rs, games=3, seed=seed)


ROUND = {
    "board": {"kind": "squares", "size": [3, 3, 1]},
    "reserves": {"black": 4, "white": 4},
    "phases": [{"order": "simultaneous"}],
}


def round_set(**fields):
    return rule_set("T", ROUND, **fields)


def test_a_round_shows_the_board_of_its_start_until_every_plan_is_in():
    core = make_core(round_set())
    assert core.player() == 0 and core.simultaneous_player_list() == [0, 1]
    core.apply_action(0)  # black plans (1,1,1)
    assert core.cells()[0] == 0 and core.pending_plans() == {0: "black@(1,1,1)"}
    assert core.player() == 1 and core.simultaneous_player_list() == [1]
    assert 0 in core.legal_action_list()  # legal as if white moved first
    core.apply_action(8)
    assert core.cells()[0] == 1 and core.cells()[8] == 2 and core.pending_plans() == {}
    assert core.player() == 0 and core.reserves() == {"black": 3, "white": 3}


def test_placements_to_one_space_are_all_destroyed_and_stay_spent():
    core = make_core(round_set())
    core.apply_joint_action([4, 4])
    assert core.cells()[4] == 0 and core.reserves() == {"black": 3, "white": 3}
    assert 4 in core.legal_action_list()  # the space is free again
    assert core.playout_stats()["placements"] == 2


def test_moves_to_one_space_are_all_destroyed():
    rs = round_set(
        board={
            "kind": "squares",
            "size": [3, 3, 1],
            "pieces": [{"at": [1, 1, 1], "colour": "black"}, {"at": [3, 1, 1], "colour": "white"}],
        },
        reserves={"black": 0, "white": 0},
        shapes={"circle": {"move": "adjacent"}},
        move_limit=10,
    )
    core = make_core(rs)
    T = 9
    to_centre_b, to_centre_w = 9 + 0 * T + 4, 9 + 2 * T + 4
    core.apply_joint_action([to_centre_b, to_centre_w])
    assert core.cells() == [0] * 9  # both pieces destroyed, sources emptied
    assert core.terminal() and core.ending() == "stalemate"  # nobody can move any more


def test_a_piece_that_two_plans_move_is_destroyed_and_neither_move_happens():
    rs = round_set(
        board={"kind": "squares", "size": [3, 3, 1], "pieces": [{"at": [2, 2, 1], "colour": "black"}]},
        colours="shared",
        reserves={"black": 0},
        shapes={"circle": {"move": "adjacent"}},
        move_limit=10,
        turn_checks=[],
    )
    core = make_core(rs)
    core.apply_joint_action([9 + 4 * 9 + 0, 9 + 4 * 9 + 8])
    assert core.cells() == [0] * 9


def test_collision_on_a_stack_destroys_both_and_a_lifted_stack_takes_the_other_piece():
    rs = round_set(
        board={"kind": "stacks", "size": [3, 1, 3], "pieces": [{"at": [1, 1, 1], "colour": "black"}]},
        reserves={"black": 2, "white": 2},
    )
    core = make_core(rs)
    core.apply_joint_action([1, 1])  # both into stack 2: same landing cell
    assert core.cells()[1] == 0 and core.reserves() == {"black": 1, "white": 1}
    rs = round_set(
        board={"kind": "stacks", "size": [3, 1, 3], "pieces": [{"at": [1, 1, 1], "colour": "black"}]},
        reserves={"black": 0, "white": 1},
        shapes={"circle": {"move": "adjacent"}},
        move_limit=10,
        turn_checks=[],
    )
    core = make_core(rs)
    # black moves its piece from stack 1 to stack 2 while white places on stack 1:
    # white's piece falls to the floor the black piece left
    core.apply_joint_action([3 + 0 * 3 + 1, 0])
    assert core.cells()[:3] == [2, 1, 0]


def test_lines_completed_by_several_sides_at_once_draw_and_by_one_side_win():
    pieces = [
        {"at": [1, 1, 1], "colour": "black"},
        {"at": [2, 1, 1], "colour": "black"},
        {"at": [1, 3, 1], "colour": "white"},
        {"at": [2, 3, 1], "colour": "white"},
    ]
    rs = round_set(board={"kind": "squares", "size": [3, 3, 1], "pieces": pieces})
    both = make_core(rs)
    both.apply_joint_action([2, 8])  # (3,1,1) completes black's row, (3,3,1) white's
    assert both.terminal() and both.returns_list() == [0.0, 0.0] and both.ending() == "turn check"
    one = make_core(rs)
    one.apply_joint_action([2, 4])
    assert one.returns_list() == [1.0, -1.0]
    blocked = make_core(rs)
    blocked.apply_joint_action([2, 2])  # collision on the winning space: nothing lands
    assert not blocked.terminal()
    # all-lose-if-any: everyone loses whoever completes
    rs = round_set(
        board={"kind": "squares", "size": [3, 3, 1], "pieces": pieces}, turn_checks=["all-lose-if-any-3"]
    )
    core = make_core(rs)
    core.apply_joint_action([2, 8])
    assert core.returns_list() == [-1.0, -1.0]


def test_single_phase_lasts_one_round_and_all_pass_rounds_advance_the_phase():
    rs = round_set(
        phases=[{"order": "single"}, {"order": "simultaneous", "pass": True}, {}],
        turn_checks=[],
        stalemate="most-pieces-wins",
    )
    core = make_core(rs)
    core.apply_joint_action([0, 1])
    assert core.current_phase() == 1
    pas = core.num_actions - 1
    core.apply_joint_action([2, pas])
    assert core.current_phase() == 1
    core.apply_joint_action([pas, pas])
    assert core.current_phase() == 2 and core.simultaneous_player_list() == []  # sequential again
    assert core.player() == 0


def test_two_pieces_a_turn_plays_planned_together_by_default_and_round_plies_stays_out_elsewhere():
    assert "round_plies" not in round_set(pieces_per_turn=2, phases=[{}, {"order": "single"}]).record
    assert "round_plies" not in round_set(pieces_per_turn=2, round_plies="planned-together").record
    with pytest.raises(RuleSetError) as e:
        round_set(pieces_per_turn=2, round_plies="both")
    assert any(
        m.startswith("round_plies") and "planned-together, round-by-round" in m for m in e.value.problems
    )
    for fields in (  # where it means nothing it stays out of the record
        {"round_plies": "round-by-round"},
        {"pieces_per_turn": 2, "phases": [{}], "round_plies": "round-by-round"},
    ):
        assert "round_plies" not in round_set(**fields).record
    assert "round_plies" not in round_set(pieces_per_turn=2, phases=[{"order": "sequential"}]).record
    assert (
        round_set(pieces_per_turn=2, round_plies="round-by-round").record["round_plies"] == "round-by-round"
    )


def test_two_pieces_a_turn_single_phase_is_two_rounds_the_second_planned_on_the_firsts_result():
    rs = round_set(
        pieces_per_turn=2,
        round_plies="round-by-round",
        phases=[{"order": "single"}, {"order": "simultaneous", "pass": True}],
        turn_checks=[],
        stalemate="most-pieces-wins",
    )
    core = make_core(rs)
    assert core.pieces_left_in_turn() == 2
    core.apply_joint_action([0, 0])  # both to (1,1,1): destroyed, the single phase goes on
    assert core.current_phase() == 0 and core.pieces_left_in_turn() == 1
    assert 0 in core.player_legal_action_list(0)  # the space is free again for the second plan
    core.apply_joint_action([0, 1])
    assert core.current_phase() == 1 and core.pieces_left_in_turn() == 2  # one turn: two rounds
    assert core.reserves() == {"black": 2, "white": 2}
    pas = core.num_actions - 1
    core.apply_joint_action([2, pas])
    assert core.current_phase() == 1 and core.pieces_left_in_turn() == 1
    core.apply_joint_action([pas, pas])  # an all-pass round ends the phase whichever round it is
    assert core.terminal()


def test_no_draw_offer_inside_a_round():
    core = make_core(round_set(agree_draw=True))
    assert core.num_actions == 9 + 3
    assert max(core.legal_action_list()) < 9


@pytest.fixture(scope="module")
def written(tmp_path_factory):
    """Every test rule set as a file, so OpenSpiel can load it by path."""
    import json

    d = tmp_path_factory.mktemp("sim")
    out = {}
    for rs in sim_rule_sets():
        if rs.name in RAW:
            p = d / f"{rs.name}.json"
            p.write_text(json.dumps(RAW[rs.name]))
        else:
            p = EXAMPLES / f"{rs.name}.json"
        out[rs.name] = p
    return out


def test_game_types_tell_the_truth(written):
    for name, path in written.items():
        t = pyspiel.load_game(f"ttt(rules={path})").get_type()
        assert t.dynamics == GT.Dynamics.SIMULTANEOUS, name
        assert t.information == GT.Information.IMPERFECT_INFORMATION, name
        assert t.provides_information_state_tensor
    for name in ("Tic-Tac-Toe", "Connect4"):
        t = pyspiel.load_game(f"ttt(rules={name})").get_type()
        assert (t.dynamics, t.information) == (GT.Dynamics.SEQUENTIAL, GT.Information.PERFECT_INFORMATION)
    registered = [g for g in pyspiel.registered_games() if g.short_name == "ttt"][0]
    assert registered.dynamics == GT.Dynamics.SIMULTANEOUS
    assert registered.information == GT.Information.IMPERFECT_INFORMATION
    assert registered.chance_mode == GT.ChanceMode.EXPLICIT_STOCHASTIC
    assert registered.utility == GT.Utility.GENERAL_SUM


def test_random_sim_test_with_serialisation(written):
    for path in written.values():
        game = pyspiel.load_game(f"ttt(rules={path})")
        pyspiel.random_sim_test(game, num_sims=sweep(full=4, quick=1), serialize=True, verbose=False)
        pyspiel.random_sim_test(
            pyspiel.convert_to_turn_based(game),
            num_sims=sweep(full=3, quick=1),
            serialize=False,
            verbose=False,
        )


def test_openspiel_round_is_one_joint_action_and_chance_is_chaos(written):
    game = pyspiel.load_game(f"ttt(rules={written['sim-chaos']})")
    state = game.new_initial_state()
    assert state.current_player() == pyspiel.PlayerId.SIMULTANEOUS
    assert len(state.legal_actions(pyspiel.PlayerId.SIMULTANEOUS)) == 81
    state.apply_actions([4, 0])
    assert state.current_player() == pyspiel.PlayerId.CHANCE  # Chaos plans on the same board
    outcomes = state.chance_outcomes()
    assert [a for a, _ in outcomes] == list(range(9))  # its plan may collide
    state.apply_action(4)
    core = state.core
    assert core.cells()[4] == 0 and core.cells()[0] == 2 and core.reserves()["pink"] == 2


def _payoffs(core):
    acts = core.player_legal_action_list(0)
    assert acts == core.player_legal_action_list(1)
    m = np.zeros((len(acts), len(acts)))
    for i, x in enumerate(acts):
        for j, y in enumerate(acts):
            c = core.clone()
            c.apply_joint_action([x, y])
            assert c.terminal()
            m[i, j] = c.returns_list()[0]
    return acts, m


def test_rock_paper_scissors_payoffs_are_cyclic():
    core = make_core(rules.load(RPS))
    acts, m = _payoffs(core)
    names = [core.action_string(0, a) for a in acts]
    rock, paper, scissors = (names.index(n) for n in ROCK_PAPER_SCISSORS)
    sub = m[np.ix_([rock, paper, scissors], [rock, paper, scissors])]
    np.testing.assert_array_equal(sub, [[0, -1, 1], [1, 0, -1], [-1, 1, 0]])
    np.testing.assert_array_equal(m, -m.T)  # symmetric zero-sum
    # every other plan does worse than the uniform mix of the three
    mix = np.zeros(len(acts))
    mix[[rock, paper, scissors]] = 1 / 3
    value_against_mix = m @ mix
    assert max(value_against_mix) == pytest.approx(0.0)
    others = [i for i in range(len(acts)) if i not in (rock, paper, scissors)]
    assert all(value_against_mix[i] < -0.1 for i in others)


def test_cfr_finds_the_rock_paper_scissors_equilibrium():
    """OpenSpiel's CFR on the turn-based form (cached as a tree, which only
    speeds it up) reaches exploitability < 1e-3 and the textbook mix: a third
    on each of rock, paper and scissors, nothing on the fourth plan."""
    game = pyspiel.load_game(f"ttt(rules={RPS})")
    tb = pyspiel.convert_to_cached_tree(pyspiel.convert_to_turn_based(game))
    solver = pyspiel.CFRSolver(tb)
    for _ in range(3000):
        solver.evaluate_and_update_policy()
    avg = solver.average_policy()
    assert pyspiel.exploitability(tb, avg) < 1e-3
    core = make_core(rules.load(RPS))
    acts = core.player_legal_action_list(0)
    root = tb.new_initial_state()
    for player, state in ((0, root), (1, root.child(acts[0]))):
        probs = dict(avg.get_state_policy(state))
        names = {core.action_string(player, a): probs[a] for a in acts}
        for n in ROCK_PAPER_SCISSORS:
            assert names[n] == pytest.approx(1 / 3, abs=0.01)
        assert sum(names.values()) == pytest.approx(1.0)


def test_playout_plans_are_the_legal_plans_drawn_uniformly():
    """The playout kernel lists plans its own way (free list, packed steps)
    and draws moves by rejection sampling; its set must be the legal set and
    its first choice uniform over it (history() shows what it chose)."""
    for rs in sim_rule_sets():
        if rs.record["shapes"]["circle"]["move"] == "linear-or-knight":
            continue  # playouts list these plans as legal_actions does
        rng = random.Random(5)
        core = make_core(rs)
        while not core.terminal():
            legal = core.legal_action_list() or [a for a, _ in core.chance_outcome_list()]
            if "simultaneous round" in core.to_string():
                assert core.playout_plans() == sorted(legal), rs.name
            core.apply_action(rng.choice(legal))
    rs = rules.load(BENCH)
    core = make_core(rs)
    rng = random.Random(1)
    while core.current_phase() == 0:  # into the movement phase
        core.apply_action(rng.choice(core.legal_action_list()))
    legal = core.legal_action_list()
    start = len(core.history())
    counts = dict.fromkeys(legal, 0)
    draws = 200 * len(legal)
    for seed in range(draws):
        c = core.clone()
        c.random_playout(seed)
        counts[c.history()[start][1]] += 1
    # each count is binomial(draws, 1/len): within 5 standard deviations
    p = 1 / len(legal)
    sd = (draws * p * (1 - p)) ** 0.5
    assert all(abs(n - draws * p) < 5 * sd for n in counts.values()), counts


def test_is_legal_agrees_with_the_legal_plans_and_mid_round_states_pickle():
    import pickle

    for rs in sim_rule_sets()[:8]:
        rng = random.Random(9)
        core = make_core(rs)
        while not core.terminal():
            legal = core.legal_action_list() or [a for a, _ in core.chance_outcome_list()]
            if core.player() >= 0:
                for a in range(core.num_actions):
                    if a in legal:
                        core.clone().apply_action(a)
                    else:
                        with pytest.raises(ValueError):
                            core.clone().apply_action(a)
            copy = pickle.loads(pickle.dumps(core))
            assert copy.position_hash() == core.position_hash() and copy.history() == core.history()
            assert copy.pending_plans() == core.pending_plans()
            for p in range(core.num_players):
                assert core_views(copy, p) == core_views(core, p)
            core.apply_action(rng.choice(legal))


def test_a_round_starts_when_a_seats_only_move_enters_a_space_only_it_may_enter():
    """Whether a seat has a move at the start of a round is judged with its
    own entry locks: black, whose only move enters a space exclusive to
    black, is not stalemated."""
    rs = rule_set(
        "MB",
        turn_checks=[],
        board={"kind": "squares", "size": [4, 1, 1], "exclusive": [{"at": [[1, 1, 1]], "players": [1]}]},
        reserves={"black": 1, "white": 1},
        shapes={"circle": {"move": "adjacent"}},
        move_limit=10,
        phases=[{"order": "simultaneous"}],
    )
    c = play(make_core(rs), [1, 2])  # the first round: black (2,1), white (3,1)
    assert not c.terminal()
    move = lambda f, u: 4 + 4 * f + u
    assert c.player_legal_action_list(0) == [move(1, 0)]  # (2,1)->(1,1), exclusive to black
    assert c.player_legal_action_list(1) == [move(2, 3)]  # (3,1)->(4,1)


SIM = {"order": "simultaneous", "pass": True}


def move_cases():
    out = []
    add = lambda name, **kw: out.append(rule_set(name, **kw))
    add(
        "sim-moves-flat",
        board={"kind": "squares", "size": [3, 3, 1]},
        reserves={"black": {"circle": 2, "x": 1}, "white": {"circle": 2, "x": 1}},
        shapes={
            "circle": {"move": "adjacent"},
            "x": {"move": "orthogonal", "power": CAN, "condition": "cover", "result": "removes"},
        },
        move_limit=24,
        turn_checks=["first-3-wins"],
        phases=[SIM],
    )
    add(
        "sim-moves-by-rank-3p",
        players="3",
        board={"kind": "squares", "size": [4, 3, 1]},
        reserves={c: {"circle": 1, "star": 1, "cross": 1} for c in ("black", "white", "pink")},
        shapes={
            "circle": {"move": "adjacent-orthogonal"},
            "star": power("cover-by-rank", "reincarnates"),
            "cross": {
                "move": "knight-2x1x0",
                "power": CAN,
                "condition": "cover-by-rank",
                "result": "removes",
            },
        },
        move_limit=24,
        phases=[{"order": "simultaneous", "movement": "placement-only"}, SIM],
    )
    add(
        "sim-moves-stacks-converts",
        players="3",
        board={"kind": "stacks", "size": [3, 1, 4]},
        reserves={c: {"triangle": 2, "pentagon": 1} for c in ("black", "white", "pink")},
        shapes={
            "triangle": {"move": "adjacent"},
            "pentagon": {"move": "linear", "power": CAN, "condition": "cover", "result": "converts"},
        },
        move_limit=20,
        turn_checks=["first-3-wins"],
        phases=[SIM],
    )
    add(
        "sim-goal-replacement",
        board={"kind": "squares", "size": [3, 4, 1]},
        reserves={"black": {"triangle": 2}, "white": {"triangle": 2}},
        shapes={"triangle": {"move": "forward-orthogonal"}, "pentagon": {"move": "adjacent"}},
        move_limit=30,
        turn_checks=[],
        phases=[{"order": "simultaneous", "movement": "placement-only"}, SIM],
    )
    add(
        "single-then-sim-goals-4p",
        players="4",
        board={"kind": "squares", "size": [4, 4, 1]},
        reserves={c: {"triangle": 1, "star": 1} for c in ("black", "white", "pink", "yellow")},
        shapes={"triangle": {"move": "forward-diagonal"}, "star": {"move": "adjacent-orthogonal"}},
        move_limit=30,
        turn_checks=["first-2-wins"],
        phases=[{"order": "single", "movement": "placement-only"}, SIM, {"pass": True}],
    )
    add(
        "sim-by-stack",
        players="3",
        board={
            "kind": "stacks",
            "size": [3, 2, 4],
            "pieces": [
                {"at": [1, 1, 1], "colour": "black", "shape": "circle"},
                {"at": [1, 1, 2], "colour": "white", "shape": "circle"},
            ],
        },
        reserves={"black": {"x": 1}, "white": {"x": 1}, "pink": {"circle": 2, "x": 1}},
        shapes={"circle": {"move": "orth-by-stack"}, "x": {"move": "orth-by-full-stack"}},
        move_limit=24,
        turn_checks=["first-3-wins"],
        phases=[SIM],
    )
    add(
        "single-by-stack-public-goods-like",
        players="3-vs-chaos",
        board={
            "kind": "stacks",
            "size": [5, 1, 8],
            "exclusive": [
                {"at": [[1, 1]], "players": [1]},
                {"at": [[2, 1]], "players": [2]},
                {"at": [[3, 1]], "players": [3]},
                {"at": [[4, 1]], "players": ["chaos"]},
                {"at": [[5, 1]], "players": [1, 2, 3]},
            ],
            "pieces": [
                {"at": [1, 1, 1], "colour": "black", "shape": "circle"},
                {"at": [2, 1, 1], "colour": "white", "shape": "circle"},
                {"at": [2, 1, 2], "colour": "white", "shape": "circle"},
                {"at": [3, 1, 1], "colour": "pink", "shape": "circle"},
                {"at": [3, 1, 2], "colour": "pink", "shape": "circle"},
                {"at": [3, 1, 3], "colour": "pink", "shape": "circle"},
            ],
        },
        reserves={"yellow": {"circle": 3}},
        shapes={"circle": {"move": "orth-by-stack"}},
        stalemate="fewer-pieces-than-chaos-loses",
        turn_checks=[],
        move_limit=12,
        phases=[
            {"order": "single", "pass": True, "locked_players": ["chaos"]},
            {"pass": True, "locked_players": [1, 2, 3]},
        ],
    )
    add(
        "two-boards-moves",
        boards=2,
        board={"kind": "squares", "size": [2, 2, 1]},
        reserves={"black": {"circle": 1, "x": 1}, "white": {"circle": 1, "x": 1}},
        shapes={
            "circle": {"move": "adjacent"},
            "x": {"move": "adjacent", "power": CAN, "condition": "cover", "result": "reincarnates"},
        },
        move_limit=20,
        turn_checks=["first-2-wins"],
        phases=[SIM],
    )
    return out


def _move_case(name):
    return [r for r in move_cases() if r.name == name][0]


@pytest.mark.parametrize("rs", move_cases(), ids=lambda rs: rs.name)
def test_moving_rounds_match_reference(rs):
    assert rs.compile()["simultaneous"]
    play_against_reference(rs, games=sweep(full=60, quick=5), seed=sum(map(ord, rs.name)), check=same_pieces)


@pytest.mark.slow
@pytest.mark.parametrize("rs", move_cases(), ids=lambda rs: rs.name)
def test_moving_rounds_match_reference_long(rs):
    play_against_reference(rs, games=600, seed=9, check=same_pieces)


@pytest.mark.parametrize("rs", move_cases(), ids=lambda rs: rs.name)
def test_moving_rounds_random_sim_test(rs, tmp_path):
    random_sim_test_of(rs, tmp_path, num_sims=sweep(full=6, quick=1))
    game = pyspiel.load_game(f"ttt(rules={tmp_path / (rs.name + '.json')})")
    assert game.get_type().dynamics == pyspiel.GameType.Dynamics.SIMULTANEOUS
    pyspiel.random_sim_test(
        pyspiel.convert_to_turn_based(game), num_sims=sweep(full=3, quick=1), serialize=False, verbose=False
    )


def _flat_pair():
    """Black's X on (1,1) and white's X on (2,1) of the flat 3x3, after a
    placement round; both may cover (capture) the other."""
    rs = _move_case("sim-moves-flat")
    core = make_core(rs)
    names = core.shape_names()
    assert names == ["circle", "x"]
    x = names.index("x")
    core.apply_action(x * 9 + 0)
    core.apply_action(x * 9 + 1)
    assert core.cells()[:2] == [1, 2] and core.player() == 0
    return core


def _move_id(core, player, text):
    """The move "a1->b2" (column letter, row number) of ``player`` on a flat board."""
    text = "->".join(f"({ord(w[0]) - 96},{w[1:]},1)" for w in text.split("->"))
    for a in core.legal_action_list() if core.player() == player else []:
        if core.action_string(player, a) == text:
            return a
    raise AssertionError((text, [core.action_string(player, a) for a in core.legal_action_list()]))


def test_swap_moves_both_pieces_and_captures_nothing():
    """Decided: every moved piece leaves before any lands, so two plans that
    each cover the other's piece swap them (each target is empty when its
    piece arrives: the captive has left); nothing is captured."""
    core = _flat_pair()
    core.apply_action(_move_id(core, 0, "a1->b1"))
    core.apply_action(_move_id(core, 1, "b1->a1"))
    assert core.cells()[:2] == [2, 1] and core.shapes()[:2] == ["x", "x"]


def test_moving_onto_a_space_another_piece_leaves():
    """Black covers white's X while white moves it away: black's X arrives on
    an empty space; white's X lands where it went."""
    core = _flat_pair()
    core.apply_action(_move_id(core, 0, "a1->b1"))
    core.apply_action(_move_id(core, 1, "b1->b2"))
    assert core.cells()[:5] == [0, 1, 0, 0, 2]


def test_two_moves_to_one_space_collide():
    """Black's X and white's circle both move to b2: a circle cannot capture, so
    it has the lowest rank ("Pieces that cannot capture have the lowest rank")
    and the X ("Cover, Removes") keeps b2, removing the circle. Two circles
    moving to one space destroy each other (they "cannot cover each other"), as
    do two X's (no attacker between them)."""
    rs = rule_set(
        "collide",
        board={"kind": "squares", "size": [3, 3, 1]},
        reserves={"black": {"x": 1}, "white": {"circle": 1}},
        move_limit=10,
        phases=[SIM],
        shapes={
            "circle": {"move": "adjacent"},
            "x": {"move": "orthogonal", "power": CAN, "condition": "cover", "result": "removes"},
        },
    )
    core = make_core(rs)
    names = core.shape_names()
    core.apply_action(names.index("x") * 9 + 0)  # black X on a1
    core.apply_action(names.index("circle") * 9 + 2)  # white circle on c1
    core.apply_action(_move_id(core, 0, "a1->a2"))
    core.apply_action(_move_id(core, 1, "c1->b2"))
    assert core.cells()[3] == 1 and core.cells()[4] == 2  # different targets: both move
    core = make_core(rs)
    core.apply_action(names.index("x") * 9 + 1)  # black X on b1
    core.apply_action(names.index("circle") * 9 + 3)  # white circle on a2
    core.apply_action(_move_id(core, 0, "b1->b2"))
    core.apply_action(_move_id(core, 1, "a2->b2"))
    assert core.cells()[:9] == [0, 0, 0, 0, 1, 0, 0, 0, 0] and core.shapes()[4] == "x"
    for shape in ("circle", "x"):
        both = rule_set(
            "collide2",
            board={"kind": "squares", "size": [3, 3, 1]},
            reserves={"black": {shape: 1}, "white": {shape: 1}},
            move_limit=10,
            phases=[SIM],
            shapes=rs.record["shapes"],
        )
        core = make_core(both)
        k = core.shape_names().index(shape)
        core.apply_action(k * 9 + 1)  # black on b1
        core.apply_action(k * 9 + 3)  # white on a2
        core.apply_action(_move_id(core, 0, "b1->b2"))
        core.apply_action(_move_id(core, 1, "a2->b2"))
        assert core.cells()[:9] == [0] * 9, shape


def test_by_stack_plans_sharing_a_stack_destroy_what_both_would_carry():
    """Black's circle at the bottom of stack (1,1) carries white's circle
    above it; white plans to move that circle alone. Both lift the top piece:
    neither plan moves, white's circle (taken by both) is destroyed, black's
    stays."""
    rs = _move_case("sim-by-stack")
    core = make_core(rs)
    texts = {core.action_string(0, a): a for a in core.legal_action_list()}
    black = [t for t in texts if t.startswith("stack(1,1)@1->")]
    assert black, texts
    core.apply_action(texts[black[0]])
    texts = {core.action_string(1, a): a for a in core.legal_action_list()}
    white = [t for t in texts if t.startswith("stack(1,1)@2->")]
    core.apply_action(texts[white[0]])
    core.apply_action(core.legal_action_list()[-1])  # pink passes
    X, Y = 3, 2
    assert core.cells()[0] == 1 and core.cells()[0 + X * Y] == 0
    assert all(v == 0 for i, v in enumerate(core.cells()) if i != 0)


def test_by_stack_move_carries_and_lands_in_order():
    rs = _move_case("sim-by-stack")
    core = make_core(rs)
    texts = {core.action_string(0, a): a for a in core.legal_action_list()}
    core.apply_action(texts["stack(1,1)@1->stack(3,1)"])
    core.apply_action(core.legal_action_list()[-1])  # white passes
    core.apply_action(core.legal_action_list()[-1])  # pink passes
    X, Y = 3, 2
    assert core.cells()[0] == 0 and core.cells()[2] == 1 and core.cells()[2 + X * Y] == 2


def test_goal_replacement_in_a_round():
    """A triangle (forward only: "cannot move backwards") reaching its goal
    line in a round takes the replacement its plan names, a shape that can
    move backwards (here the pentagon)."""
    rs = _move_case("sim-goal-replacement")
    found = 0
    rng = random.Random(4)
    for _ in range(200):
        core = make_core(rs)
        while core.player() != -4:
            legal = core.legal_action_list()
            becomes = [a for a in legal if "becomes" in core.action_string(core.player(), a)]
            a = becomes[0] if becomes else rng.choice(legal)
            text = core.action_string(core.player(), a)
            core.apply_action(a)
            if becomes and core.player() == 0 and "becomes pentagon" in text and core.current_phase() == 1:
                found += 1
                assert "pentagon" in core.shapes()
                break
        if found:
            break
    assert found


def test_public_goods_like_record_is_accepted():
    """By-stack plans onto pieces that capture are played in rounds
    (test_ttt_by_stack_captures.py)."""
    rec = _move_case("single-by-stack-public-goods-like").to_json()
    rec["shapes"]["pentagon"] = {
        "move": "stationary",
        "power": CAN,
        "condition": "cover",
        "result": "reincarnates-x2",
    }
    rec["reserves"]["black"] = {"pentagon": 1}
    assert rules.parse(rec).compile()["simultaneous"]


def test_goal_reached_stalemate_is_accepted_with_goal_replacements_in_rounds():
    """ "Stalemate if goal is reached" is played in rounds (below)."""
    rec = _move_case("sim-goal-replacement").to_json()
    rec["turn_checks"] = ["goal-reached-stalemate"]
    assert rules.parse(rec).compile()["simultaneous"]


@settings(max_examples=sweep(full=80, quick=10), deadline=None, suppress_health_check=list(HealthCheck))
@given(move_round_records(), st.integers(0, 10**6))
def test_random_moving_rounds_match_reference(rec, seed):
    rs = parsed_or_rejected(rec)
    play_against_reference(rs, games=3, seed=seed, check=same_pieces)


# -- "stalemate if goal is reached" inside rounds ----------------------------------------------


def goal_round_cases():
    out = []
    add = lambda name, **kw: out.append(rule_set(name, **kw))
    # "Stalemate if goal is reached" in rounds
    add(
        "sim-goal-stalemate",
        board={"kind": "squares", "size": [3, 4, 1]},
        reserves={"black": {"triangle": 2}, "white": {"triangle": 2}},
        shapes={
            "triangle": {"move": "forward-orthogonal"},
            "pentagon": {"move": "adjacent", "power": CAN, "condition": "cover", "result": "removes"},
        },
        move_limit=30,
        turn_checks=["goal-reached-stalemate", "first-3-wins"],
        stalemate="most-pieces-wins",
        phases=[{"order": "simultaneous", "movement": "placement-only"}, SIM, {"pass": True}],
    )
    add(
        "single-goal-stalemate-4p",
        players="4",
        board={"kind": "squares", "size": [4, 4, 1]},
        reserves={c: {"triangle": 1, "star": 1} for c in ("black", "white", "pink", "yellow")},
        shapes={"triangle": {"move": "forward-diagonal"}, "star": {"move": "adjacent-orthogonal"}},
        move_limit=30,
        turn_checks=["goal-reached-stalemate", "first-2-wins"],
        phases=[{"order": "single", "movement": "placement-only"}, SIM, {"pass": True}],
    )
    add(
        "sim-goal-stalemate-by-stack",
        players="2",
        board={
            "kind": "stacks",
            "size": [2, 3, 3],
            "pieces": [piece((1, 2, 1), "black", "x"), piece((2, 2, 1), "white", "x")],
        },
        reserves={"black": {"circle": 2}, "white": {"circle": 2}},
        shapes={
            "x": {"move": "orth-by-stack", "power": CAN, "condition": "cover-by-rank", "result": "converts"},
            "circle": {"move": "orth-by-stack"},
        },
        move_limit=16,
        turn_checks=["goal-reached-stalemate"],
        stalemate="most-pieces-wins",
        phases=[SIM, {"pass": True}],
    )
    return out


def _goal_case(name):
    return next(r for r in goal_round_cases() if r.name == name)


@pytest.mark.parametrize("rs", goal_round_cases(), ids=lambda rs: rs.name)
def test_goals_in_rounds_match_reference(rs):
    assert rs.compile()["simultaneous"]
    play_against_reference(rs, games=sweep(full=80, quick=6), seed=sum(map(ord, rs.name)), check=same_pieces)


@pytest.mark.slow
@pytest.mark.parametrize("rs", goal_round_cases(), ids=lambda rs: rs.name)
def test_goals_in_rounds_match_reference_long(rs):
    play_against_reference(rs, games=800, seed=7, check=same_pieces)


@pytest.mark.parametrize("rs", goal_round_cases(), ids=lambda rs: rs.name)
def test_random_sim_test_on_goals_in_rounds(rs, tmp_path):
    random_sim_test_of(rs, tmp_path, num_sims=sweep(full=8, quick=1))
    path = tmp_path / f"{rs.name}.json"
    game = pyspiel.load_game(f"ttt(rules={path})")
    pyspiel.random_sim_test(
        pyspiel.convert_to_turn_based(game), num_sims=sweep(full=4, quick=1), serialize=False, verbose=False
    )


def _goal_position():
    """sim-goal-stalemate after its placement phase: black's triangles on
    (1,3) and (1,1), white's on (2,2) and (3,4); black's goal is y = 4,
    white's y = 1 (the specification's goal placement)."""
    core = make_core(_goal_case("sim-goal-stalemate"))
    tri = core.shape_names().index("triangle") * 12
    for black, white in ((6, 4), (0, 11)):
        core.apply_action(tri + black)
        core.apply_action(tri + white)
    assert core.current_phase() == 1
    return core


@pytest.mark.parametrize("white", ["pass", "(2,2,1)->(2,1,1) becomes pentagon"])
def test_goal_reached_in_a_round_is_a_stalemate_after_the_round(white):
    """3P-9X-HideSeek's "Statemate if goal is reached", and "stalemate
    advances the phase", in rounds: the round is played
    out (every plan lands), then, after its turn checks, a plan whose piece
    ended on its goal line from off it and stayed makes the round a
    stalemate: the phase advances. Both players reaching their goals in one
    round is one stalemate, so no order of the plans is needed."""
    core = _goal_position()
    play_named(core, player=0, text="(1,3,1)->(1,4,1) becomes pentagon")
    play_named(core, player=1, text=white)
    assert core.current_phase() == 2
    assert core.shapes()[9] == "pentagon" and core.cells()[9] == 1


def test_a_round_without_a_goal_goes_on():
    core = _goal_position()
    play_named(core, player=0, text="(1,1,1)->(1,2,1)")
    play_named(core, player=1, text="pass")
    assert core.current_phase() == 1


def test_goal_reached_stalemate_is_accepted_in_rounds():
    rec = _goal_case("sim-goal-stalemate").to_json()
    assert "goal-reached-stalemate" in rec["turn_checks"]
    assert rules.parse(rec).compile()["simultaneous"]


# -- overachievers disqualified in rounds (docs/rules/ttt/outcomes.md, "Overachievers in
# rounds"): a round's winners are one set, disqualified together ----------------


def overachiever_sets():
    """4-player rule sets with simultaneous phases and the overachievers rule."""
    board = {"kind": "squares", "size": [4, 4, 1]}
    res = {"black": 4, "white": 4, "pink": 4, "yellow": 4}
    return [
        hides_four_each(
            "oa-sim-first-3",
            players="4",
            board=board,
            reserves=res,
            cloaking="none",
            overachievers_disqualified=True,
            phases=[{"order": "simultaneous"}],
        ),
        hides_four_each(
            "oa-sim-most-pieces",
            players="4",
            board=board,
            reserves=res,
            cloaking="none",
            overachievers_disqualified=True,
            turn_checks=["first-3-loses"],
            stalemate="most-pieces-wins",
            phases=[{"order": "simultaneous", "pass": True}],
        ),
        hides_four_each(
            "oa-sim-cloaked-2-phases",
            players="4",
            board=board,
            reserves=res,
            overachievers_disqualified=True,
            stalemate="most-in-a-row-wins",
            phases=[
                {"order": "single", "cloaked": [[x, y, 1] for x in (1, 2) for y in (1, 2, 3, 4)]},
                {"order": "simultaneous", "cloaked": [[1, 1, 1]]},
            ],
        ),
    ]


OVERACHIEVER_SETS = overachiever_sets()


@pytest.mark.parametrize("rs", OVERACHIEVER_SETS, ids=lambda rs: rs.name)
def test_overachievers_in_rounds_match_reference(rs):
    attempts = play_against_reference(rs, games=sweep(full=40, quick=5), seed=len(rs.name)).attempts
    if rs.record["cloaking"] == "hides" and cloaks(rs):
        assert attempts > 0, "no attempt that only reveals was played"


@pytest.mark.slow
@pytest.mark.parametrize("rs", OVERACHIEVER_SETS, ids=lambda rs: rs.name)
def test_overachievers_in_rounds_match_reference_long(rs):
    play_against_reference(rs, games=600, seed=7)


@pytest.mark.parametrize("rs", OVERACHIEVER_SETS, ids=lambda rs: rs.name)
def test_openspiel_type_and_random_sim_test_of_overachievers_in_rounds(rs):
    game = pyspiel.load_game("ttt", {"rules": saved_rule_set(rs)})
    t = game.get_type()
    assert t.dynamics == GT.Dynamics.SIMULTANEOUS
    assert t.information == GT.Information.IMPERFECT_INFORMATION
    pyspiel.random_sim_test(game, num_sims=sweep(full=6, quick=1), serialize=True, verbose=False)
    turn_based = pyspiel.convert_to_turn_based(game)
    pyspiel.random_sim_test(turn_based, num_sims=sweep(full=3, quick=1), serialize=True, verbose=False)


def test_a_rounds_winners_are_one_set_disqualified_together_then_the_next_set_wins():
    for cloaked in (False, True):
        extra = {"cloaked": [[1, 4, 1]]} if cloaked else {}
        rs = hides_four_each(
            f"oa-hand-{cloaked}",
            players="4",
            board={"kind": "squares", "size": [4, 4, 1]},
            reserves={"black": 4, "white": 4, "pink": 4, "yellow": 4},
            cloaking="hides" if cloaked else "none",
            overachievers_disqualified=True,
            phases=[dict({"order": "simultaneous"}, **extra)],
        )
        core = make_core(rs)
        core.apply_joint_action([0, 4, 8, 12])
        core.apply_joint_action([1, 5, 9, 3])
        core.apply_joint_action([2, 6, 14, 15])  # black and white complete rows at once
        assert not core.terminal() and core.disqualified_players() == [0, 1]
        core.apply_joint_action([11, 7, 10, 13])  # pink completes; white's longer row counts for nothing
        assert core.terminal() and core.returns_list() == [-1.0, -1.0, 1.0, -1.0]
    # without the rule the same round is a draw (nobody was first)
    rs = hides_four_each(
        "oa-hand-off",
        players="4",
        board={"kind": "squares", "size": [4, 4, 1]},
        reserves={"black": 4, "white": 4, "pink": 4, "yellow": 4},
        cloaking="none",
        phases=[{"order": "simultaneous"}],
    )
    core = make_core(rs)
    for joint in ([0, 4, 8, 12], [1, 5, 9, 3], [2, 6, 14, 15]):
        core.apply_joint_action(joint)
    assert core.terminal() and core.returns_list() == [0.0] * 4


def test_a_lose_line_in_a_round_disqualifies_every_other_player_and_chaos_wins():
    rs = hides_four_each(
        "oa-lose",
        players="4",
        board={"kind": "squares", "size": [4, 4, 1]},
        reserves={"black": 4, "white": 4, "pink": 4, "yellow": 4},
        cloaking="none",
        overachievers_disqualified=True,
        turn_checks=["first-3-loses"],
        phases=[{"order": "simultaneous"}],
    )
    core = make_core(rs)
    for joint in ([0, 4, 8, 12], [1, 5, 9, 3], [2, 7, 14, 15]):
        core.apply_joint_action(joint)  # only black completes: it loses, the rest win
    assert core.terminal() and core.returns_list() == [-1.0] * 4 and core.chaos_outcome() == 1.0
    assert core.disqualified_players() == [1, 2, 3]
