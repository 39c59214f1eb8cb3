"""Cloaking inside simultaneous and single rounds (docs/rules/ttt/cloaking.md,
"Cloaking in rounds", "Shapes and moving
shapes in cloaked rounds"): each planner's legal plans come from its view of
the round's start; a plan legal there but not in truth is an attempt that
only reveals; with shapes, moving shapes, goal replacements, stacks,
obscurity and Chaos; and cloaked rounds on several boards (a round's refresh
of "every piece they can move" against the boards it decides).

Small rule sets are played by the engine and by the reference model
(tests/ttt_reference/) move by move, comparing the player to decide, the
seats still to plan, every planner's legal plans, what every player sees
(colours and shapes), which plans were attempts, who is disqualified, each
board's result and the returns; the decisions taken where the specification
is silent are played by hand; what each player can tell apart (identical
views and legal plans for histories it cannot, different ones for histories
it can); that ISMCTS searches alike on histories its player cannot tell
apart; and the OpenSpiel face (SIMULTANEOUS + IMPERFECT_INFORMATION,
random_sim_test with serialisation). Cells are x + X*(y + Y*z) from 0; on a
3x3 board placing on cell c is action c, and with shapes circle, triangle a
circle placed on cell c is action c, a triangle 9 + c."""

import random
from pathlib import Path

import pyspiel
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import games  # noqa: F401  (registers ttt)
from games.ttt import make_core, rules
from games.ttt.rules import RuleSetError
from games.ttt.schema import SHAPES_ALL
from tiers import sweep
from ttt_checks import (
    assert_all_differ,
    assert_views_partition_histories,
    cloaks,
    core_views,
    event_log,
    hides_four_each,
    logged_attempts,
    parsed_or_rejected,
    play_against_reference,
    random_sim_test_of,
    rule_set,
    saved_rule_set,
)
from ttt_round_records import cloaked_round_records

GT = pyspiel.GameType
EXAMPLES = Path(__file__).resolve().parent.parent / "games" / "ttt" / "examples"
BENCH = EXAMPLES / "Sim-Cloaked-Place-Then-Move.json"
SQ2 = {"kind": "squares", "size": [2, 2, 1]}
SQ3 = {"kind": "squares", "size": [3, 3, 1]}
ALL_SQ2 = [[x, y, 1] for x in (1, 2) for y in (1, 2)]
ALL9 = [[x, y, 1] for x in (1, 2, 3) for y in (1, 2, 3)]
ROW1 = [[1, 1, 1], [2, 1, 1], [3, 1, 1]]
SIM, SINGLE = {"order": "simultaneous"}, {"order": "single"}


def game_of(rs):
    """The OpenSpiel game of ``rs`` (loaded from its rule-set file)."""
    return pyspiel.load_game("ttt", {"rules": saved_rule_set(rs)})


# -- cloaked rounds against the reference ----------------------------------------------


def cloaked_round_sets():
    """Each exercises one part of cloaking inside rounds."""
    sim, single = {"order": "simultaneous"}, {"order": "single"}
    adj = {"circle": {"move": "adjacent"}}
    return [
        hides_four_each("cs-place-all", phases=[dict(sim, cloaked=ALL9)]),
        hides_four_each(
            "cs-place-row-pass-3p",
            players="3",
            board={"kind": "squares", "size": [4, 3, 1]},
            reserves={"black": 3, "white": 3, "pink": 3},
            turn_checks=[],
            stalemate="most-in-a-row-wins",
            phases=[dict(sim, cloaked=[[x, 1, 1] for x in (1, 2, 3, 4)], **{"pass": True})],
        ),
        hides_four_each(
            "cs-single-then-seq",
            reserves={"black": 5, "white": 4},
            phases=[dict(single, cloaked=ALL9), {"cloaked": ROW1}],
        ),
        hides_four_each(
            "cs-seq-then-sim",
            reserves={"black": 5, "white": 5},
            phases=[{"cloaked": ALL9, "pass": True}, dict(sim, cloaked=ROW1)],
        ),
        hides_four_each(
            "cs-place-then-move-recloak",
            reserves={"black": 3, "white": 3},
            shapes=adj,
            move_limit=24,
            phases=[
                dict(sim, cloaked=ALL9, movement="placement-only"),
                dict(sim, cloaked=[[2, y, 1] for y in (1, 2, 3)]),
            ],
        ),
        hides_four_each(
            "cs-chaos",
            players="2-vs-chaos",
            reserves={"black": 3, "white": 3, "pink": 3},
            phases=[dict(sim, cloaked=ALL9[:6])],
        ),
        hides_four_each(
            "cs-shared-move",
            colours="shared",
            reserves={"black": 4},
            shapes=adj,
            move_limit=20,
            turn_checks=["first-3-loses"],
            phases=[dict(sim, cloaked=ALL9, **{"pass": True})],
        ),
        hides_four_each(
            "cs-stacks",
            board={"kind": "stacks", "size": [3, 1, 3]},
            reserves={"black": 4, "white": 4},
            shapes=adj,
            move_limit=20,
            turn_checks=["first-3-wins-no-diagonal"],
            phases=[dict(sim, cloaked=[[x, 1, z] for x in (1, 2, 3) for z in (1, 2, 3)])],
        ),
        hides_four_each(
            "cs-choose-linear",
            colours="players-choose",
            reserves={"black": 3, "pink": 3},
            shapes={"circle": {"move": "linear-or-knight"}},
            line_moves="over-pieces",  # blocking is refused with cloaked spaces
            move_limit=16,
            phases=[dict(sim, cloaked=ALL9)],
        ),
        hides_four_each(
            "cs-obscures-move",
            cloaking="obscures",
            reserves={"black": 3, "white": 3},
            shapes=adj,
            move_limit=20,
            phases=[dict(sim, cloaked=ROW1)],
        ),
        hides_four_each(
            "cs-two-pieces-single",
            pieces_per_turn=2,
            round_plies="round-by-round",  # a turn of two pieces: two rounds
            phases=[dict(SINGLE, cloaked=ALL9), dict(sim, cloaked=ALL9, **{"pass": True})],
        ),
        # sequential, crowded: a seat with no move in truth may still have one in its view
        hides_four_each("cs-seq-move-crowded", shapes=adj, move_limit=18, phases=[{"cloaked": ALL9}]),
        rules.load(str(BENCH)),
    ]


ROUND_SETS = cloaked_round_sets()


@pytest.mark.parametrize("rs", ROUND_SETS, ids=lambda rs: rs.name)
def test_cloaked_rounds_match_reference(rs):
    attempts = play_against_reference(rs, games=sweep(full=40, quick=10), seed=len(rs.name)).attempts
    if rs.record["cloaking"] == "hides" and cloaks(rs):
        assert attempts > 0, "no attempt that only reveals was played"


@pytest.mark.slow
@pytest.mark.parametrize("rs", ROUND_SETS, ids=lambda rs: rs.name)
def test_cloaked_rounds_match_reference_long(rs):
    play_against_reference(rs, games=600, seed=7)


@settings(max_examples=sweep(full=30, quick=4), deadline=None)
@given(seed=st.integers(0, 10**6))
def test_random_cloaked_rule_sets_match_reference(seed):
    """Random small cloaked rule sets with a random order per phase, cloaked
    cells and cloaking type, against the reference model."""
    rng = random.Random(seed)
    phases = []
    for _ in range(rng.randint(1, 3)):
        phases.append(
            {
                "order": rng.choice(["sequential", "simultaneous", "single"]),
                "pass": rng.random() < 0.4,
                "cloaked": rng.sample(ALL9, rng.randint(0, 9)),
            }
        )
    if not any(ph["cloaked"] for ph in phases):
        phases[0]["cloaked"] = ALL9
    moving = rng.random() < 0.5
    players = rng.choice(["2", "2", "3"])
    reserves = {"black": 3, "white": 3, "pink": 3} if players == "3" else {"black": 4, "white": 4}
    rs = hides_four_each(
        f"random-{seed}",
        cloaking=rng.choice(["hides", "hides", "obscures"]),
        players=players,
        reserves=reserves,
        shapes={"circle": {"move": "adjacent" if moving else "stationary"}},
        move_limit=18 if moving else None,
        phases=phases,
    )
    play_against_reference(rs, games=6, seed=seed)


# -- the decisions, played by hand ------------------------------------------------

SIM_ALL = hides_four_each("hand-all", phases=[{"order": "simultaneous", "cloaked": ALL9}])


def test_an_attempt_in_a_round_only_reveals_and_the_other_plans_resolve():
    core = make_core(SIM_ALL)
    core.apply_joint_action([0, 4])  # both hidden from the other
    assert core.player_view(0)[4] == "." and core.player_view(1)[0] == "."
    assert 4 in core.player_legal_action_list(0)  # white's piece looks like an empty space
    core.apply_joint_action([4, 8])  # black attempts 4; white places on 8
    assert core.cells()[4] == 2 and core.cells()[8] == 2 and core.cells()[0] == 1
    assert core.reserves() == {"black": 3, "white": 2}  # the attempt spent nothing
    assert core.player_view(0)[4] == "o" and core.player_view(0)[8] == "."
    assert 4 not in core.player_legal_action_list(0)
    assert logged_attempts(core) == [0]
    assert core.playout_stats()["plies"] == 4  # an attempt is a ply


def test_a_piece_revealed_by_an_attempt_stays_seen_where_it_moves_in_that_round():
    rs = hides_four_each(
        "hand-move",
        reserves={"black": 1, "white": 1},
        shapes={"circle": {"move": "adjacent"}},
        move_limit=10,
        phases=[{"order": "simultaneous", "cloaked": ALL9}],
    )
    core = make_core(rs)
    core.apply_joint_action([0, 1])  # black on (1,1), white on (2,1), hidden
    move = lambda f, u: 9 + 9 * f + u
    core.apply_joint_action([move(0, 1), move(1, 2)])  # black tries (2,1) as white leaves it
    assert logged_attempts(core) == [0]
    assert core.cells()[0] == 1 and core.cells()[2] == 2 and core.cells()[1] == 0
    assert core.player_view(0)[2] == "o" and core.player_view(0)[1] == "."
    # white saw black's piece? no: black's plan was an attempt, white learns only that
    assert core.player_view(1)[0] == "."
    events = event_log(core)
    assert events[-2][3][1] == 0 and events[-1][3][0] == 1  # white sees an attempt; black all of white's move


def test_a_collision_on_a_cloaked_space_is_not_seen_by_a_third_player():
    rs = hides_four_each(
        "hand-3p",
        players="3",
        board={"kind": "squares", "size": [4, 3, 1]},
        reserves={"black": 3, "white": 3, "pink": 3},
        phases=[{"order": "simultaneous", "cloaked": [[x, 1, 1] for x in (1, 2, 3, 4)]}],
    )
    collide, apart, open_collide = make_core(rs), make_core(rs), make_core(rs)
    collide.apply_joint_action([0, 0, 11])  # black and white collide on hidden (1,1)
    apart.apply_joint_action([0, 1, 11])  # black on (1,1), white on (2,1): no collision
    assert collide.cells()[0] == 0 and apart.cells()[0] == 1
    assert core_views(collide, 2) == core_views(apart, 2)  # pink cannot tell them apart
    for p in (0, 1):
        assert_all_differ(core_views(collide, p), core_views(apart, p))
    open_collide.apply_joint_action([4, 4, 11])  # a collision on an open space is seen
    assert open_collide.cells()[4] == 0
    assert "black@(1,2,1)" in open_collide.information_state_string(2)


def test_another_players_pending_or_hidden_plan_changes_nothing_for_a_player():
    a, b, c = make_core(SIM_ALL), make_core(SIM_ALL), make_core(SIM_ALL)
    for core in (a, b, c):
        core.apply_joint_action([0, 4])
    a.apply_action(4)  # black's pending plan: an attempt on 4
    b.apply_action(2)  # or a real placement
    c.apply_action(4)
    assert core_views(a, 1) == core_views(b, 1)  # white sees neither pending plan
    assert_all_differ(core_views(a, 0), core_views(b, 0))  # black remembers its own
    assert core_views(a, 0) == core_views(c, 0)
    a.apply_action(8)
    b.apply_action(8)
    # resolved: black attempted in a, placed hidden in b; white learns that an
    # attempt was made in a, and that a piece was placed in b: it can tell them apart
    assert_all_differ(core_views(a, 1), core_views(b, 1))
    # two hidden placements on different cloaked spaces: white cannot tell them apart
    d, e = make_core(SIM_ALL), make_core(SIM_ALL)
    d.apply_joint_action([0, 4])
    e.apply_joint_action([2, 4])
    assert core_views(d, 1) == core_views(e, 1)
    assert_all_differ(core_views(d, 0), core_views(e, 0))
    # two attempts on hidden pieces, black's own view differs, white's does not
    f, g = make_core(SIM_ALL), make_core(SIM_ALL)
    for core in (f, g):
        core.apply_joint_action([0, 4])
        core.apply_joint_action([1, 8])
    f.apply_joint_action([4, 5])
    g.apply_joint_action([8, 5])
    assert logged_attempts(f) == logged_attempts(g) == [0]
    assert core_views(f, 1) == core_views(g, 1)
    assert_all_differ(core_views(f, 0), core_views(g, 0))


SINGLE_TWO_PIECES = hides_four_each(
    "hand-two-pieces",
    pieces_per_turn=2,
    round_plies="round-by-round",
    phases=[dict(SINGLE, cloaked=ALL9), dict(SIM, cloaked=ALL9, **{"pass": True})],
)


def test_two_pieces_a_turn_hidden_first_round_and_pending_second_plan_change_nothing_for_the_other():
    """A turn of two pieces in a single phase is two rounds: white cannot tell
    where black's hidden first piece went, nor black's pending second plan,
    and black can; the information states and tensors show it byte for byte."""
    a, b = make_core(SINGLE_TWO_PIECES), make_core(SINGLE_TWO_PIECES)
    a.apply_joint_action([0, 4])
    b.apply_joint_action([2, 4])
    assert a.current_phase() == b.current_phase() == 0 and a.pieces_left_in_turn() == 1
    assert core_views(a, 1) == core_views(b, 1)
    assert_all_differ(core_views(a, 0), core_views(b, 0))
    c = a.clone()
    a.apply_action(6)  # black's second plan, pending
    c.apply_action(8)
    assert core_views(a, 1) == core_views(c, 1)
    assert_all_differ(core_views(a, 0), core_views(c, 0))
    a.apply_action(5)
    c.apply_action(5)
    assert a.current_phase() == c.current_phase() == 1  # the single phase lasted one turn: two rounds
    assert core_views(a, 1) == core_views(c, 1)  # both second pieces hidden from white


@settings(max_examples=sweep(full=10, quick=2), deadline=None)
@given(
    case=st.sampled_from(range(len(ROUND_SETS))),
    seeds=st.lists(st.integers(0, 10**6), min_size=4, max_size=8),
)
def test_views_partition_histories_in_cloaked_rounds(case, seeds):
    assert_views_partition_histories(ROUND_SETS[case], seeds, face="core")


def test_playout_plans_are_drawn_uniformly_from_the_planners_view():
    """The playout kernel draws plans without building the view (rejection
    sampling); its first choice must be uniform over the legal plans, in the
    placement phase with hidden pieces that look free and in the moves."""
    rs = rules.load(str(BENCH))
    rng = random.Random(3)
    checked = 0
    for target_phase in (0, 1):
        core = make_core(rs)
        while core.current_phase() < target_phase or (target_phase == 0 and core.event_count() < 4):
            core.apply_action(rng.choice(core.legal_action_list()))
        if core.terminal():
            continue
        legal = core.legal_action_list()
        start = core.event_count()
        counts = dict.fromkeys(legal, 0)
        draws = 150 * len(legal)
        for seed in range(draws):
            c = core.clone()
            c.random_playout(seed)
            counts[c.history()[len(core.history())][1]] += 1
        p = 1 / len(legal)
        sd = (draws * p * (1 - p)) ** 0.5
        assert all(abs(n - draws * p) < 5 * sd for n in counts.values()), (target_phase, counts)
        assert start >= 4  # hidden pieces were placed before
        checked += 1
    assert checked == 2


# -- validation and the OpenSpiel face ----------------------------------------------


def test_cloaking_and_overachievers_are_accepted_with_simultaneous_phases_on_any_boards():
    """With several boards too (played move by move below)."""
    hides_four_each("ok", phases=[{"order": "single", "cloaked": ALL9}])
    hides_four_each(
        "ok4",
        players="4",
        reserves={"black": 2, "white": 2, "pink": 2, "yellow": 2},
        board={"kind": "squares", "size": [4, 4, 1]},
        overachievers_disqualified=True,
        phases=[{"order": "simultaneous", "cloaked": ALL9}],
    )
    assert (
        hides_four_each("two", boards=2, phases=[{"order": "simultaneous", "cloaked": ALL9}]).record["boards"]
        == 2
    )


@pytest.mark.parametrize("rs", ROUND_SETS, ids=lambda rs: rs.name)
def test_openspiel_type_and_random_sim_test_with_serialisation(rs):
    game = game_of(rs)
    t = game.get_type()
    sim = any(ph["order"] != "sequential" for ph in rs.record["phases"])
    assert t.dynamics == (GT.Dynamics.SIMULTANEOUS if sim else GT.Dynamics.SEQUENTIAL)
    assert t.information == GT.Information.IMPERFECT_INFORMATION
    pyspiel.random_sim_test(game, num_sims=sweep(full=6, quick=1), serialize=True, verbose=False)
    if sim:
        pyspiel.random_sim_test(
            pyspiel.convert_to_turn_based(game),
            num_sims=sweep(full=3, quick=1),
            serialize=True,
            verbose=False,
        )


# -- shapes and moving shapes in cloaked rounds -------------------------------------


def shaped_hides(name, **fields):
    """A hidden 3x3 rule set, ``fields`` over it."""
    return rule_set(name, {"board": SQ3, "cloaking": "hides"}, **fields)


def shaped_round_sets():
    """Each exercises one part: several shapes placed, shapes moving their own
    ways, obscurity, goal replacements, stacks, Chaos, a single phase between
    sequential ones."""
    two = {"circle": 2, "triangle": 1}
    return [
        shaped_hides(
            "cr-two-shapes-place",
            reserves={"black": {"circle": 2, "triangle": 2}, "white": {"circle": 2, "triangle": 2}},
            shapes={"circle": {}, "triangle": {}},
            phases=[dict(SIM, cloaked=ALL9)],
        ),
        shaped_hides(
            "cr-move-shapes-pass",
            reserves={"black": two, "white": two},
            shapes={"circle": {"move": "adjacent"}, "triangle": {"move": "orthogonal"}},
            line_moves="over-pieces",  # blocking is refused with cloaked spaces
            move_limit=20,
            phases=[dict(SIM, cloaked=ALL9, **{"pass": True})],
        ),
        shaped_hides(
            "cr-obscures-move",
            cloaking="obscures",
            reserves={"black": two, "white": two},
            shapes={"circle": {"move": "adjacent"}, "triangle": {}},
            move_limit=20,
            phases=[dict(SIM, cloaked=ALL9[:6])],
        ),
        shaped_hides(
            "cr-replacements",
            board={"kind": "squares", "size": [3, 4, 1]},
            reserves={"black": {"triangle": 2}, "white": {"triangle": 2}},
            shapes={"triangle": {"move": "forward-orthogonal"}, "circle": {"move": "adjacent"}},
            move_limit=24,
            turn_checks=[],
            stalemate="most-pieces-wins",
            phases=[dict(SIM, cloaked=[[x, y, 1] for x in (1, 2, 3) for y in (2, 3)], **{"pass": True})],
        ),
        shaped_hides(
            "cr-obscured-replacements",
            cloaking="obscures",
            board={"kind": "squares", "size": [2, 3, 1]},
            reserves={"black": {"triangle": 1, "circle": 1}, "white": {"triangle": 1, "circle": 1}},
            shapes={
                "triangle": {"move": "forward-orthogonal"},
                "circle": {"move": "adjacent"},
                "x": {"move": "orthogonal"},
            },
            line_moves="over-pieces",  # blocking is refused with cloaked spaces
            move_limit=16,
            turn_checks=[],
            stalemate="most-pieces-wins",
            phases=[dict(SIM, cloaked=[[x, y, 1] for x in (1, 2) for y in (1, 2, 3)], **{"pass": True})],
        ),
        shaped_hides(
            "cr-stacks",
            board={"kind": "stacks", "size": [3, 1, 3]},
            reserves={"black": {"circle": 2, "x": 1}, "white": {"circle": 2, "x": 1}},
            shapes={"circle": {"move": "adjacent"}, "x": {}},
            move_limit=20,
            turn_checks=["first-3-wins-no-diagonal"],
            phases=[dict(SIM, cloaked=[[x, 1, z] for x in (1, 2, 3) for z in (1, 2, 3)])],
        ),
        shaped_hides(
            "cr-chaos",
            players="2-vs-chaos",
            reserves={
                "black": {"circle": 2, "star": 1},
                "white": {"circle": 2, "star": 1},
                "pink": {"circle": 3},
            },
            shapes={"circle": {"move": "adjacent"}, "star": {}},
            move_limit=18,
            phases=[dict(SIM, cloaked=ALL9[:6])],
        ),
        shaped_hides(
            "cr-seq-single-seq",
            reserves={"black": {"circle": 2, "x": 2}, "white": {"circle": 2, "x": 2}},
            shapes={"circle": {"move": "adjacent"}, "x": {"move": "diagonal"}},
            line_moves="over-pieces",  # blocking is refused with cloaked spaces
            move_limit=18,
            phases=[
                {"cloaked": ALL9[:3], "movement": "placement-only"},
                {"order": "single", "cloaked": ALL9, "pass": True},
                {"cloaked": ALL9[3:]},
            ],
        ),
    ]


SHAPED_ROUND_SETS = shaped_round_sets()


def play_shaped(rs, count, seed):
    """``count`` random games against the reference, views and (for shaped
    rule sets) shape views compared at every decision; returns the attempts
    played (so a rule set that never attempts is noticed)."""
    shaped = rs.compile().get("shaped", False)  # (one stationary circle keeps the original path)
    return play_against_reference(rs, count, seed, views=True, shape_views=shaped).attempts


@pytest.mark.parametrize("rs", SHAPED_ROUND_SETS, ids=lambda rs: rs.name)
def test_shapes_in_cloaked_rounds_match_reference(rs):
    attempts = play_shaped(rs, sweep(full=40, quick=5), sum(map(ord, rs.name)))
    if rs.record["cloaking"] == "hides":
        assert attempts > 0  # the attempt path was exercised


@pytest.mark.slow
@pytest.mark.parametrize("rs", SHAPED_ROUND_SETS, ids=lambda rs: rs.name)
def test_shapes_in_cloaked_rounds_match_reference_long(rs):
    play_shaped(rs, 400, 7)


@settings(max_examples=sweep(full=25, quick=3), deadline=None)
@given(rec=cloaked_round_records(), seed=st.integers(0, 1000))
def test_random_cloaked_shaped_rule_sets_match_reference(rec, seed):
    rs = parsed_or_rejected(rec)
    play_shaped(rs, 4, seed)


@settings(max_examples=sweep(full=25, quick=3), deadline=None)
@given(rec=cloaked_round_records(preplaced=True), seed=st.integers(0, 1000))
def test_random_cloaked_shaped_rule_sets_with_preplaced_pieces_match_reference(rec, seed):
    """A stationary piece of a seat's colour that nobody
    placed, on a cloaked space, is hidden from that seat ("can move" per
    shape), which the colour rule of sequential turns and of each phase's
    start got wrong."""
    rs = parsed_or_rejected(rec)
    play_shaped(rs, 4, seed)


# -- shapes in cloaked rounds, by hand ----------------------------------------------

HAND = shaped_hides(
    "cr-hand",
    reserves={"black": {"circle": 2, "triangle": 2}, "white": {"circle": 2, "triangle": 2}},
    shapes={"circle": {}, "triangle": {}},
    phases=[dict(SIM, cloaked=ALL9)],
)

OBSCURED = shaped_hides(
    "cr-hand-obscured",
    cloaking="obscures",
    reserves={"black": {"circle": 2, "triangle": 2}, "white": {"circle": 2, "triangle": 2}},
    shapes={"circle": {}, "triangle": {}},
    phases=[dict(SIM, cloaked=ALL9[:6])],
)

# black's goal is y = 3 (its triangle moves up and must become a circle or an X there)
REPLACE = shaped_hides(
    "cr-hand-replace",
    cloaking="obscures",
    board={"kind": "squares", "size": [2, 3, 1]},
    reserves={"black": {"triangle": 1}, "white": {"circle": 1}},
    shapes={
        "triangle": {"move": "forward-orthogonal"},
        "circle": {"move": "adjacent"},
        "x": {"move": "orthogonal"},
    },
    line_moves="over-pieces",  # blocking is refused with cloaked spaces
    move_limit=8,
    turn_checks=[],
    stalemate="draws",
    phases=[dict(SIM, cloaked=[[x, y, 1] for x in (1, 2) for y in (1, 2, 3)], **{"pass": True})],
)

CIRCLE, TRIANGLE = 0, 9


def _cores(rs, *joints):
    core = make_core(rs)
    for joint in joints:
        core.apply_joint_action(list(joint))
    return core


def test_a_hidden_placement_shows_neither_its_shape_nor_its_space_to_the_other():
    a = _cores(HAND, [CIRCLE + 0, CIRCLE + 4])
    b = _cores(HAND, [TRIANGLE + 1, CIRCLE + 4])
    assert core_views(a, 1, plans=True) == core_views(b, 1, plans=True)
    assert_all_differ(core_views(a, 0, plans=True), core_views(b, 0, plans=True))
    assert a.player_shape_view(1)[0] == "." and a.player_shape_view(0)[0] != "."


def test_another_players_pending_shaped_plan_changes_nothing_for_a_player():
    a, b = make_core(HAND), make_core(HAND)
    a.apply_action(CIRCLE + 0)
    b.apply_action(TRIANGLE + 2)  # black's pending plans differ; white plans
    assert a.player() == b.player() == 1
    assert core_views(a, 1, plans=True) == core_views(b, 1, plans=True)
    assert_all_differ(core_views(a, 0, plans=True), core_views(b, 0, plans=True))


def test_a_shaped_plan_onto_a_hidden_piece_is_an_attempt_that_reveals_it():
    core = _cores(HAND, [CIRCLE + 0, TRIANGLE + 4])
    assert core.player_shape_view(0)[4] == "."  # white's triangle is hidden from black
    assert TRIANGLE + 4 in core.player_legal_action_list(0)
    before = core.shape_reserves()
    core.apply_joint_action([TRIANGLE + 4, CIRCLE + 8])
    assert logged_attempts(core) == [0]
    assert core.player_shape_view(0)[4] != "."  # now black fully sees it
    assert core.player_view(1)[8] != "."  # white's plan resolved as usual
    after = core.shape_reserves()  # the attempt spent no reserve piece; white's placement did
    assert after["black"] == before["black"] and after["white"] != before["white"]


def test_obscurity_shows_the_colour_of_a_placement_not_its_shape():
    a = _cores(OBSCURED, [CIRCLE + 0, CIRCLE + 8])
    b = _cores(OBSCURED, [TRIANGLE + 0, CIRCLE + 8])
    c = _cores(OBSCURED, [CIRCLE + 1, CIRCLE + 8])
    assert core_views(a, 1, plans=True) == core_views(b, 1, plans=True)  # same colour, same space
    assert_all_differ(core_views(a, 0, plans=True), core_views(b, 0, plans=True))
    assert_all_differ(core_views(a, 1, plans=True), core_views(c, 1, plans=True))  # another space
    assert "(shape not seen)" in a.information_state_string(1)
    # on an open space (column 3 is not cloaked) the shape is seen
    d = _cores(OBSCURED, [CIRCLE + 2, CIRCLE + 8])
    e = _cores(OBSCURED, [TRIANGLE + 2, CIRCLE + 8])
    assert_all_differ(core_views(d, 1, plans=True), core_views(e, 1, plans=True))


def test_a_replacement_seen_by_colour_only_drops_the_replacement_shape():
    """Black's triangle reaches its goal row (y = 3) in a round and becomes a
    circle or an X on a space white sees by colour only: white learns the
    move, not the shape; black knows its choice."""
    outs = []
    for rep in ("circle", "x"):
        core = make_core(REPLACE)
        core.apply_joint_action([triangle_at(REPLACE, 0, 0), _place(REPLACE, "circle", 1, 0)])
        up = [a for a in core.player_legal_action_list(0) if core.action_string(0, a) == "(1,1,1)->(1,2,1)"]
        core.apply_joint_action([up[0], _pass(core, 1)])
        move = [a for a in core.player_legal_action_list(0) if f"becomes {rep}" in core.action_string(0, a)]
        assert len(move) == 1, [core.action_string(0, a) for a in core.player_legal_action_list(0)]
        core.apply_joint_action([move[0], _pass(core, 1)])
        assert core.last_event() is not None
        assert "(shape not seen)" in core.information_state_string(1)
        assert core.player_shape_view(1)[4] == "?" and core.player_shape_view(0)[4] == rep[0]
        outs.append(core)
    assert core_views(outs[0], 1, plans=True) == core_views(outs[1], 1, plans=True)
    assert_all_differ(core_views(outs[0], 0, plans=True), core_views(outs[1], 0, plans=True))


def _place(rs, shape, x, y):
    """The placement of ``shape`` on (x+1, y+1) (one colour per seat)."""
    X = rs.record["board"]["size"][0]
    names = [s for s in SHAPES_ALL if s in rs.record["shapes"]]
    return names.index(shape) * X * rs.record["board"]["size"][1] + x + X * y


def triangle_at(rs, x, y):
    return _place(rs, "triangle", x, y)


def _pass(core, seat):
    legal = core.player_legal_action_list(seat)
    assert core.action_string(seat, legal[-1]) == "pass"
    return legal[-1]


@settings(max_examples=sweep(full=8, quick=2), deadline=None)
@given(
    case=st.sampled_from(range(len(SHAPED_ROUND_SETS))),
    seeds=st.lists(st.integers(0, 10**6), min_size=4, max_size=8),
)
def test_views_partition_histories_with_shapes_in_cloaked_rounds(case, seeds):
    assert_views_partition_histories(SHAPED_ROUND_SETS[case], seeds, face="core")


def test_ismcts_searches_alike_where_its_player_cannot_tell_the_histories_apart():
    """mcts/ismcts.py never reads another seat's hidden plan: after black's
    hidden circle on cell 0 or hidden triangle on cell 1, white's search with
    one seed gives the same result, over the same worlds."""
    from mcts.ismcts import ISMCTSBot, consistent_worlds

    game = game_of(HAND)
    states = []
    for black in (CIRCLE + 0, TRIANGLE + 1):
        s = game.new_initial_state()
        s.apply_actions([black, CIRCLE + 4])
        states.append(s)
    a, b = states
    assert a.information_state_string(1) == b.information_state_string(1)
    assert a.history() != b.history()
    ra = ISMCTSBot(game, 1, seed=11, max_simulations=60).search(a)
    rb = ISMCTSBot(game, 1, seed=11, max_simulations=60).search(b)
    assert ra == rb
    wa = sorted(w.information_state_string(1) for w, _ in consistent_worlds(a, 1))
    wb = sorted(w.information_state_string(1) for w, _ in consistent_worlds(b, 1))
    assert wa == wb and len(wa) > 1


@pytest.mark.parametrize("rs", SHAPED_ROUND_SETS, ids=lambda rs: rs.name)
def test_openspiel_face_of_shapes_in_cloaked_rounds(rs, tmp_path):
    game = game_of(rs)
    gt = game.get_type()
    assert gt.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert gt.dynamics == pyspiel.GameType.Dynamics.SIMULTANEOUS
    random_sim_test_of(rs, tmp_path, num_sims=sweep(full=6, quick=1))
    turn_based = pyspiel.convert_to_turn_based(game)
    pyspiel.random_sim_test(turn_based, num_sims=sweep(full=3, quick=1), serialize=False, verbose=False)


def test_validation_plays_shapes_and_still_refuses_by_stack_moves_with_cloaked_rounds():
    for rs in SHAPED_ROUND_SETS:
        assert rs.compile()["simultaneous"]
    rec = SHAPED_ROUND_SETS[5].to_json()
    rec["shapes"]["circle"] = {"move": "orth-by-stack"}
    with pytest.raises(RuleSetError) as e:
        rules.parse(rec)
    assert "by stack" in str(e.value) and "cloaked spaces in a simultaneous or single phase" in str(e.value)


# -- cloaked rounds on several boards -------------------------------------------------


def on_boards(name, **fields):
    """A hidden 3x3 rule set with "first 3 wins", ``fields`` over it."""
    return rule_set(name, {"board": SQ3, "cloaking": "hides", "turn_checks": ["first-3-wins"]}, **fields)


def cloaked_round_board_sets():
    """Cloaking x simultaneous/single phases x several boards (x overachievers,
    x space locks, x movement, x obscurity)."""
    adj = {"circle": {"move": "adjacent"}}
    four = {"black": 3, "white": 3, "pink": 3, "yellow": 3}
    return [
        on_boards(
            "m-b2-sim-place-hides",
            boards=2,
            reserves={"black": 5, "white": 5},
            phases=[dict(SIM, cloaked=ALL9)],
        ),
        on_boards(
            "m-b3-single-then-seq-area",
            boards=3,
            board=dict(SQ2),
            reserves={"black": 4, "white": 4},
            turn_checks=["first-2-wins-no-diagonal"],
            stalemate="least-area-wins",
            phases=[dict(SINGLE, cloaked=ALL_SQ2), {"cloaked": ALL_SQ2[:2], "pass": True}],
        ),
        on_boards(
            "m-b2-sim-move-hides",
            boards=2,
            board=dict(SQ2),
            reserves={"black": 2, "white": 2},
            shapes=adj,
            move_limit=18,
            turn_checks=["first-2-wins-no-diagonal"],
            stalemate="most-pieces-wins",
            phases=[dict(SIM, cloaked=ALL_SQ2, movement="placement-only"), dict(SIM, cloaked=ALL_SQ2[1:])],
        ),
        on_boards(
            "m-b2-sim-exit-locks-move",
            boards=2,
            reserves={"black": 3, "white": 3},
            shapes=adj,
            move_limit=20,
            board=dict(
                SQ3,
                exit_locked=[{"at": [[1, 1, 1]], "players": [2]}],
                exclusive=[{"at": [[3, 3, 1]], "players": [1]}],
            ),
            phases=[dict(SIM, cloaked=ALL9, **{"pass": True})],
        ),
        # shared colours: a seat can move pieces it did not place, so "every
        # piece they can move" matters (decided boards, exit locks)
        on_boards(
            "m-b2-sim-shared-move-locks",
            boards=2,
            colours="shared",
            board=dict(SQ2, exit_locked=[{"at": [[1, 1, 1]], "players": [2]}]),
            reserves={"black": 3},
            shapes=adj,
            move_limit=24,
            turn_checks=["first-2-wins-no-diagonal"],
            stalemate="most-pieces-wins",
            phases=[dict(SIM, cloaked=ALL_SQ2, **{"pass": True})],
        ),
        on_boards(
            "m-b2-sim-obscures-chaos",
            boards=2,
            cloaking="obscures",
            players="2-vs-chaos",
            board=dict(SQ2),
            reserves={"black": 2, "white": 2, "pink": 2},
            turn_checks=["first-2-wins-no-diagonal"],
            stalemate="more-pieces-than-chaos-wins",
            phases=[dict(SIM, cloaked=ALL_SQ2, **{"pass": True})],
        ),
        on_boards(
            "m-b2-sim-overachievers-4p",
            boards=2,
            players="4",
            reserves=four,
            board={"kind": "squares", "size": [3, 2, 1]},
            overachievers_disqualified=True,
            turn_checks=["first-2-wins-no-diagonal"],
            stalemate="most-pieces-wins",
            phases=[dict(SIM, cloaked=[[x, 1, 1] for x in (1, 2, 3)], **{"pass": True})],
        ),
        on_boards(
            "m-b3-stacks-blotto-rounds",
            boards=3,
            board={"kind": "stacks", "size": [2, 1, 3]},
            reserves={"black": 9, "white": 9},
            stalemate="most-pieces-wins",
            turn_checks=[],
            phases=[dict(SIM, cloaked=[[x, 1, z] for x in (1, 2) for z in (1, 2, 3)])],
        ),
    ]


BOARD_ROUND_SETS = cloaked_round_board_sets()

# the sets whose random games decide a board in a round and play on (in the
# others a round's line ends the game at once, e.g. by leaving a seat no move)
ROUND_DECIDES = {
    "m-b2-sim-place-hides",
    "m-b2-sim-shared-move-locks",
    "m-b2-sim-exit-locks-move",
    "m-b2-sim-obscures-chaos",
    "m-b2-sim-overachievers-4p",
}


@pytest.mark.parametrize("rs", BOARD_ROUND_SETS, ids=lambda rs: rs.name)
def test_cloaked_rounds_on_several_boards_match_reference(rs):
    # 15 games in the default tier: the fewest in which every set of ROUND_DECIDES decides a board
    played = play_against_reference(rs, games=sweep(full=40, quick=15), seed=len(rs.name), views=True)
    if rs.record["cloaking"] == "hides":
        assert played.attempts > 0, "no attempt that only reveals was played"
    if rs.name in ROUND_DECIDES:
        assert played.decided_in_round > 0, "no board was decided by a round while others stayed open"


@pytest.mark.slow
@pytest.mark.parametrize("rs", BOARD_ROUND_SETS, ids=lambda rs: rs.name)
def test_cloaked_rounds_on_several_boards_match_reference_long(rs):
    play_against_reference(rs, games=500, seed=11, views=True)


@pytest.mark.parametrize("rs", BOARD_ROUND_SETS, ids=lambda rs: rs.name)
def test_random_sim_test_on_cloaked_rounds_on_several_boards(rs):
    game = game_of(rs)
    assert game.get_type().dynamics == pyspiel.GameType.Dynamics.SIMULTANEOUS
    pyspiel.random_sim_test(game, num_sims=sweep(full=5, quick=1), serialize=True, verbose=False)
    turn_based = pyspiel.convert_to_turn_based(game)
    pyspiel.random_sim_test(turn_based, num_sims=sweep(full=3, quick=1), serialize=True, verbose=False)
