"""Simultaneous and single phases of the tic-tac-toe engine (issue 11 item 2).

- the engine against the slow reference model (tests/ttt_reference/,
  ``ReferenceState``) move by move on small rule sets written for these tests and
  on random rule sets with random phase orders: same player to decide, same
  legal plans, same seats still to decide, same returns;
- hand-played rounds for each rule of docs/rules/ttt.md "Simultaneous play":
  collisions destroy (placements, moves, on stacks), a piece two plans move
  is destroyed, reserves stay spent, lines completed by several sides at once
  draw, a single phase lasts one round, all-pass rounds advance the phase;
- per-player views: a pending plan of another player changes nothing a player
  sees, while histories it can tell apart differ;
- the OpenSpiel face: SIMULTANEOUS / IMPERFECT_INFORMATION per rule set, the
  registered ``ttt`` type as the weakest claim, ``random_sim_test`` with
  serialisation, ``convert_to_turn_based``, and CFR on the rock-paper-scissors
  rule set reaching its textbook equilibrium.
"""

import random
from pathlib import Path

import numpy as np
import pyspiel
import pytest

import games  # noqa: F401  (registers ttt)
from games.ttt import make_core, rules
from games.ttt.rules import RuleSetError
from ttt_checks import parsed_or_rejected
from ttt_reference import ReferenceState

GT = pyspiel.GameType
EXAMPLES = Path(games.__file__).parent / "ttt" / "examples"
RPS = EXAMPLES / "RPS-Shared-Lines.json"
# the three plans of RPS-Shared-Lines that beat each other in a cycle
ROCK_PAPER_SCISSORS = ("(3,1,1)->(3,2,1)", "(4,3,1)->(3,3,1)", "(2,3,1)->(2,2,1)")
BENCH = EXAMPLES / "Sim-Place-Then-Move.json"


RAW = {}  # name -> the record each test rule set was parsed from


def sim_rule_sets():
    """Small rule sets with simultaneous or single phases, each exercising a
    combination: placements, passes, Chaos, movement, stacks, shared colours
    (several plans moving one piece), colour choice, folds, locked players,
    sequential phases before and after, draw offers."""
    base = {"board": {"kind": "squares", "size": [3, 3, 1]}, "reserves": {"black": 4, "white": 4}}
    out = []

    def add(name, **kw):
        rec = dict(base, name=name)
        rec.update(kw)
        out.append(rules.parse(rec))
        RAW[name] = rec

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
    # merged with ttt-spaces and ttt-outcomes: per-player locks and the general scoring in rounds
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
    out.append(rules.load(RPS))
    out.append(rules.load(BENCH))
    return out


def play_against_reference(rs, games_, seed):
    rng = random.Random(seed)
    for g in range(games_):
        core = make_core(rs)
        ref = ReferenceState(rs)
        steps = 0
        while True:
            player = core.player()
            assert player == ref.current_player(), (rs.name, g, steps, core.to_string())
            assert core.simultaneous_player_list() == ref.simultaneous_players(), (rs.name, g, steps)
            if player == -4:
                assert core.returns_list() == ref.returns(), (rs.name, g, core.to_string())
                break
            if player == -1:
                outcomes = core.chance_outcome_list()
                legal = ref.seat_actions(ref.seat)
                assert [a for a, _ in outcomes] == legal
                assert all(abs(p - 1.0 / len(legal)) < 1e-12 for _, p in outcomes)
            else:
                legal = core.legal_action_list()
                assert legal == ref.legal_actions(), (rs.name, g, steps, core.to_string())
                assert core.player_legal_action_list(player) == legal
            a = rng.choice(legal)
            core.apply_action(a)
            ref.apply(a)
            steps += 1
            assert steps <= core.max_game_length


@pytest.mark.parametrize("rs", sim_rule_sets(), ids=lambda rs: rs.name)
def test_engine_matches_reference(rs):
    play_against_reference(rs, games_=80, seed=sum(map(ord, rs.name)))


@pytest.mark.slow
@pytest.mark.parametrize("rs", sim_rule_sets(), ids=lambda rs: rs.name)
def test_engine_matches_reference_long(rs):
    play_against_reference(rs, games_=2000, seed=11)


# -- random rule sets, random phase orders -------------------------------------
from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st

from ttt_records import rule_records  # noqa: E402


@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
@given(
    rule_records(),
    st.lists(st.sampled_from(["sequential", "simultaneous", "single"]), min_size=3, max_size=3),
    st.integers(0, 10**6),
)
def test_random_rule_sets_with_simultaneous_phases_match_reference(rec, orders, seed):
    rec["pieces_per_turn"] = 1
    for ph, order in zip(rec["phases"], orders):
        ph["order"] = order
    rs = parsed_or_rejected(rec)
    play_against_reference(rs, games_=3, seed=seed)


# -- hand-played rounds ------------------------------------------------------------


def parse(**kw):
    rec = {
        "name": "T",
        "board": {"kind": "squares", "size": [3, 3, 1]},
        "reserves": {"black": 4, "white": 4},
        "phases": [{"order": "simultaneous"}],
    }
    rec.update(kw)
    return rules.parse(rec)


def test_a_round_shows_the_board_of_its_start_until_every_plan_is_in():
    core = make_core(parse())
    assert core.player() == 0 and core.simultaneous_player_list() == [0, 1]
    core.apply_action(0)  # black plans (1,1,1)
    assert core.cells()[0] == 0 and core.pending_plans() == {0: "black@(1,1,1)"}
    assert core.player() == 1 and core.simultaneous_player_list() == [1]
    assert 0 in core.legal_action_list()  # legal as if white moved first
    core.apply_action(8)
    assert core.cells()[0] == 1 and core.cells()[8] == 2 and core.pending_plans() == {}
    assert core.player() == 0 and core.reserves() == {"black": 3, "white": 3}


def test_placements_to_one_space_are_all_destroyed_and_stay_spent():
    core = make_core(parse())
    core.apply_joint_action([4, 4])
    assert core.cells()[4] == 0 and core.reserves() == {"black": 3, "white": 3}
    assert 4 in core.legal_action_list()  # the space is free again
    assert core.playout_stats()["placements"] == 2


def test_moves_to_one_space_are_all_destroyed():
    rs = parse(
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
    rs = parse(
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
    rs = parse(
        board={"kind": "stacks", "size": [3, 1, 3], "pieces": [{"at": [1, 1, 1], "colour": "black"}]},
        reserves={"black": 2, "white": 2},
    )
    core = make_core(rs)
    core.apply_joint_action([1, 1])  # both into stack 2: same landing cell
    assert core.cells()[1] == 0 and core.reserves() == {"black": 1, "white": 1}
    rs = parse(
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
    rs = parse(board={"kind": "squares", "size": [3, 3, 1], "pieces": pieces})
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
    rs = parse(
        board={"kind": "squares", "size": [3, 3, 1], "pieces": pieces}, turn_checks=["all-lose-if-any-3"]
    )
    core = make_core(rs)
    core.apply_joint_action([2, 8])
    assert core.returns_list() == [-1.0, -1.0]


def test_single_phase_lasts_one_round_and_all_pass_rounds_advance_the_phase():
    rs = parse(
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


def test_pieces_per_turn_two_is_refused_with_a_simultaneous_phase_with_every_problem():
    with pytest.raises(RuleSetError) as e:
        parse(pieces_per_turn=2, phases=[{}, {"order": "single"}], agree_draw="yes")
    msgs = e.value.problems
    assert any(m.startswith("pieces_per_turn") and "simultaneous" in m for m in msgs)
    assert any(m.startswith("agree_draw") for m in msgs)
    parse(pieces_per_turn=2, phases=[{"order": "sequential"}])


def test_no_draw_offer_inside_a_round():
    core = make_core(parse(agree_draw=True))
    assert core.num_actions == 9 + 3
    assert max(core.legal_action_list()) < 9


# -- per-player views ------------------------------------------------------------------

VIEWS = (
    "observation_string",
    "observation_tensor",
    "information_state_string",
    "information_state_tensor",
    "info_state_key",
)


def _views(core, player):
    return {v: getattr(core, v)(player) for v in VIEWS}


def test_a_pending_plan_is_invisible_to_the_other_players():
    rs = rules.parse(
        {
            "name": "V",
            "players": "3",
            "board": {"kind": "squares", "size": [4, 3, 1]},
            "reserves": {"black": 3, "white": 3, "pink": 3},
            "phases": [{"order": "simultaneous"}],
        }
    )
    a, b = make_core(rs), make_core(rs)
    for core in (a, b):
        core.apply_action(5)  # a resolved round first, so history is not empty
        core.apply_action(6)
        core.apply_action(7)
    a.apply_action(0)  # player 0's pending plans differ
    b.apply_action(11)
    for p in (1, 2):
        assert _views(a, p) == _views(b, p), p
    for v, value in _views(a, 0).items():
        assert value != _views(b, 0)[v], v
    # player 1 plans the same in both: still no difference for players 1 and 2
    a.apply_action(3)
    b.apply_action(3)
    assert _views(a, 1) == _views(b, 1) and _views(a, 2) == _views(b, 2)
    # once the round resolves, everyone can tell the histories apart
    a.apply_action(4)
    b.apply_action(4)
    for p in (1, 2):
        for v, value in _views(a, p).items():
            assert value != _views(b, p)[v], (p, v)


def test_information_states_have_perfect_recall_observations_do_not():
    rs = parse(turn_checks=[])
    a, b = make_core(rs), make_core(rs)
    a.apply_joint_action([0, 1])
    a.apply_joint_action([2, 3])
    b.apply_joint_action([2, 3])
    b.apply_joint_action([0, 1])  # same board, other order of rounds
    assert a.position_hash() == b.position_hash()
    for p in (0, 1):
        assert a.observation_string(p) == b.observation_string(p)
        assert a.observation_tensor(p) == b.observation_tensor(p)
        assert a.information_state_string(p) != b.information_state_string(p)
        assert a.information_state_tensor(p) != b.information_state_tensor(p)
        assert a.info_state_key(p) != b.info_state_key(p)


def test_sequential_rule_sets_keep_the_whole_state_views():
    core = make_core("Tic-Tac-Toe")
    assert core.perfect_information and core.observation_string(0) == core.to_string()
    with pytest.raises(ValueError, match="simultaneous"):
        core.history()


def test_views_through_openspiel_turn_based_form():
    game = pyspiel.load_game(f"ttt(rules={RPS})")
    tb = pyspiel.convert_to_turn_based(game)
    root = tb.new_initial_state()
    first, second = root.legal_actions()[:2]
    after = [root.child(first), root.child(second)]
    assert after[0].information_state_string(1) == after[1].information_state_string(1)
    assert after[0].information_state_string(0) != after[1].information_state_string(0)
    assert after[0].information_state_tensor(1) == after[1].information_state_tensor(1)


# -- the OpenSpiel face ------------------------------------------------------------


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
    for name, path in written.items():
        game = pyspiel.load_game(f"ttt(rules={path})")
        pyspiel.random_sim_test(game, num_sims=4, serialize=True, verbose=False)
        pyspiel.random_sim_test(
            pyspiel.convert_to_turn_based(game), num_sims=3, serialize=False, verbose=False
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


# -- rock-paper-scissors with today's pieces ------------------------------------------


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


# -- random playouts draw plans uniformly ----------------------------------------------


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
                assert core._fast_plan_list() == sorted(legal), rs.name
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
                assert _views(copy, p) == _views(core, p)
            core.apply_action(rng.choice(legal))


def test_a_round_starts_when_a_seats_only_move_enters_a_space_only_it_may_enter():
    """Whether a seat has a move at the start of a round is judged with its
    own entry locks: black, whose only move enters a space exclusive to
    black, is not stalemated."""
    from ttt_checks import play, rule_set

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
