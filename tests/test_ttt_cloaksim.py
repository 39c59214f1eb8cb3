"""Cloaking inside simultaneous rounds and "overachievers disqualified" with
simultaneous phases (issue 11 items 2, 3, 6; docs/rules/ttt.md, "Cloaking and
overachievers in simultaneous rounds"): small rule sets played by the engine
and by the reference model (tests/ttt_reference/, ``ReferenceState``)
move by move, comparing the player to decide, the seats still to plan, the
legal plans (from each planner's view of the round's start), what every
player sees, which plans were attempts that only revealed, who is
disqualified and the returns; the decisions taken where the seed is silent,
played by hand; what each player can tell apart; and the OpenSpiel face
(SIMULTANEOUS + IMPERFECT_INFORMATION, random_sim_test with serialisation).
Cells are x + X*(y + Y*z) from 0; on a 3x3 board placing on cell c is action c."""

import json
import random
import tempfile
from pathlib import Path

import pyspiel
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import games  # noqa: F401  (registers ttt)
from games.ttt import make_core, rules
from ttt_checks import logged_attempts, play_rounds_against_reference

GT = pyspiel.GameType
EXAMPLES = Path(__file__).resolve().parent.parent / "games" / "ttt" / "examples"
BENCH = EXAMPLES / "Sim-Cloaked-Place-Then-Move.json"
ALL9 = [[x, y, 1] for x in (1, 2, 3) for y in (1, 2, 3)]
ROW1 = [[1, 1, 1], [2, 1, 1], [3, 1, 1]]
SQ3 = {"kind": "squares", "size": [3, 3, 1]}


def parse(name, **fields):
    rec = {"name": name, "board": SQ3, "reserves": {"black": 4, "white": 4}, "cloaking": "hides"}
    rec.update(fields)
    return rules.parse(rec)


def cloaksim_sets():
    """Each exercises one part of cloaking inside rounds."""
    sim, single = {"order": "simultaneous"}, {"order": "single"}
    adj = {"circle": {"move": "adjacent"}}
    return [
        parse("cs-place-all", phases=[dict(sim, cloaked=ALL9)]),
        parse(
            "cs-place-row-pass-3p",
            players="3",
            board={"kind": "squares", "size": [4, 3, 1]},
            reserves={"black": 3, "white": 3, "pink": 3},
            turn_checks=[],
            stalemate="most-in-a-row-wins",
            phases=[dict(sim, cloaked=[[x, 1, 1] for x in (1, 2, 3, 4)], **{"pass": True})],
        ),
        parse(
            "cs-single-then-seq",
            reserves={"black": 5, "white": 4},
            phases=[dict(single, cloaked=ALL9), {"cloaked": ROW1}],
        ),
        parse(
            "cs-seq-then-sim",
            reserves={"black": 5, "white": 5},
            phases=[{"cloaked": ALL9, "pass": True}, dict(sim, cloaked=ROW1)],
        ),
        parse(
            "cs-place-then-move-recloak",
            reserves={"black": 3, "white": 3},
            shapes=adj,
            move_limit=24,
            phases=[
                dict(sim, cloaked=ALL9, movement="placement-only"),
                dict(sim, cloaked=[[2, y, 1] for y in (1, 2, 3)]),
            ],
        ),
        parse(
            "cs-chaos",
            players="2-vs-chaos",
            reserves={"black": 3, "white": 3, "pink": 3},
            phases=[dict(sim, cloaked=ALL9[:6])],
        ),
        parse(
            "cs-shared-move",
            colours="shared",
            reserves={"black": 4},
            shapes=adj,
            move_limit=20,
            turn_checks=["first-3-loses"],
            phases=[dict(sim, cloaked=ALL9, **{"pass": True})],
        ),
        parse(
            "cs-stacks",
            board={"kind": "stacks", "size": [3, 1, 3]},
            reserves={"black": 4, "white": 4},
            shapes=adj,
            move_limit=20,
            turn_checks=["first-3-wins-no-diagonal"],
            phases=[dict(sim, cloaked=[[x, 1, z] for x in (1, 2, 3) for z in (1, 2, 3)])],
        ),
        parse(
            "cs-choose-linear",
            colours="players-choose",
            reserves={"black": 3, "pink": 3},
            shapes={"circle": {"move": "linear-or-knight"}},
            move_limit=16,
            phases=[dict(sim, cloaked=ALL9)],
        ),
        parse(
            "cs-obscures-move",
            cloaking="obscures",
            reserves={"black": 3, "white": 3},
            shapes=adj,
            move_limit=20,
            phases=[dict(sim, cloaked=ROW1)],
        ),
        # sequential, crowded: a seat with no move in truth may still have one in its view
        parse("cs-seq-move-crowded", shapes=adj, move_limit=18, phases=[{"cloaked": ALL9}]),
        rules.load(str(BENCH)),
    ]


def overachiever_sets():
    """4-player rule sets with simultaneous phases and the overachievers rule."""
    board = {"kind": "squares", "size": [4, 4, 1]}
    res = {"black": 4, "white": 4, "pink": 4, "yellow": 4}
    return [
        parse(
            "oa-sim-first-3",
            players="4",
            board=board,
            reserves=res,
            cloaking="none",
            overachievers_disqualified=True,
            phases=[{"order": "simultaneous"}],
        ),
        parse(
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
        parse(
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


CASES = cloaksim_sets() + overachiever_sets()


def play_against_reference(rs, games_, seed):
    """Random games side by side; returns how many attempts were played."""
    return play_rounds_against_reference(rs, games_, seed)[0]


@pytest.mark.parametrize("rs", CASES, ids=lambda rs: rs.name)
def test_engine_matches_reference(rs):
    attempts = play_against_reference(rs, games_=40, seed=len(rs.name))
    if rs.record["cloaking"] == "hides" and any(ph["cloaked"] for ph in rs.record["phases"]):
        assert attempts > 0, "no attempt that only reveals was played"


@pytest.mark.slow
@pytest.mark.parametrize("rs", CASES, ids=lambda rs: rs.name)
def test_engine_matches_reference_long(rs):
    play_against_reference(rs, games_=600, seed=7)


@settings(max_examples=30, deadline=None)
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
    rs = parse(
        f"random-{seed}",
        cloaking=rng.choice(["hides", "hides", "obscures"]),
        players=players,
        reserves=reserves,
        shapes={"circle": {"move": "adjacent" if moving else "stationary"}},
        move_limit=18 if moving else None,
        phases=phases,
    )
    play_against_reference(rs, games_=6, seed=seed)


# -- the decisions, played by hand ------------------------------------------------

SIM_ALL = parse("hand-all", phases=[{"order": "simultaneous", "cloaked": ALL9}])


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
    rs = parse(
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
    events = [core._event(i) for i in range(core._log_count())]
    assert events[-2][3][1] == 0 and events[-1][3][0] == 1  # white sees an attempt; black all of white's move


def test_a_collision_on_a_cloaked_space_is_not_seen_by_a_third_player():
    rs = parse(
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
    assert _views(collide, 2) == _views(apart, 2)  # pink cannot tell them apart
    for p in (0, 1):
        assert_all_differ(_views(collide, p), _views(apart, p))
    open_collide.apply_joint_action([4, 4, 11])  # a collision on an open space is seen
    assert open_collide.cells()[4] == 0
    assert "black@(1,2,1)" in open_collide.information_state_string(2)


VIEWS = (
    "information_state_string",
    "information_state_tensor",
    "observation_string",
    "observation_tensor",
    "info_state_key",
)


def _views(core, player):
    return tuple(repr(getattr(core, v)(player)) for v in VIEWS)


def assert_all_differ(a, b):
    for x, y, name in zip(a, b, VIEWS):
        assert x != y, name


def test_another_players_pending_or_hidden_plan_changes_nothing_for_a_player():
    a, b, c = make_core(SIM_ALL), make_core(SIM_ALL), make_core(SIM_ALL)
    for core in (a, b, c):
        core.apply_joint_action([0, 4])
    a.apply_action(4)  # black's pending plan: an attempt on 4
    b.apply_action(2)  # or a real placement
    c.apply_action(4)
    assert _views(a, 1) == _views(b, 1)  # white sees neither pending plan
    assert_all_differ(_views(a, 0), _views(b, 0))  # black remembers its own
    assert _views(a, 0) == _views(c, 0)
    a.apply_action(8)
    b.apply_action(8)
    # resolved: black attempted in a, placed hidden in b; white learns that an
    # attempt was made in a, and that a piece was placed in b: it can tell them apart
    assert_all_differ(_views(a, 1), _views(b, 1))
    # two hidden placements on different cloaked spaces: white cannot tell them apart
    d, e = make_core(SIM_ALL), make_core(SIM_ALL)
    d.apply_joint_action([0, 4])
    e.apply_joint_action([2, 4])
    assert _views(d, 1) == _views(e, 1)
    assert_all_differ(_views(d, 0), _views(e, 0))
    # two attempts on hidden pieces, black's own view differs, white's does not
    f, g = make_core(SIM_ALL), make_core(SIM_ALL)
    for core in (f, g):
        core.apply_joint_action([0, 4])
        core.apply_joint_action([1, 8])
    f.apply_joint_action([4, 5])
    g.apply_joint_action([8, 5])
    assert logged_attempts(f) == logged_attempts(g) == [0]
    assert _views(f, 1) == _views(g, 1)
    assert_all_differ(_views(f, 0), _views(g, 0))


def _random_nodes(rs, seeds):
    out = []
    for seed in seeds:
        rng = random.Random(seed)
        core = make_core(rs)
        history = []
        while True:
            out.append((tuple(history), core.clone()))
            if core.terminal():
                break
            legal = core.legal_action_list() or [a for a, _ in core.chance_outcome_list()]
            a = rng.choice(legal)
            history.append(a)
            core.apply_action(a)
    return out


@settings(max_examples=10, deadline=None)
@given(
    case=st.sampled_from(range(len(cloaksim_sets()))),
    seeds=st.lists(st.integers(0, 10**6), min_size=4, max_size=8),
)
def test_views_partition_histories_consistently(case, seeds):
    """Within each player's information sets (core face, one decision per
    call): one tensor, key and observation, and the same legal plans when it
    plans; across them, different tensors and keys."""
    rs = cloaksim_sets()[case]
    nodes = _random_nodes(rs, seeds)
    for p in range(nodes[0][1].num_players):
        groups = {}
        for history, core in nodes:
            info = core.information_state_string(p)
            legal = (
                tuple(core.player_legal_action_list(p))
                if p in core.simultaneous_player_list() or core.player() == p
                else None
            )
            groups.setdefault(info, set()).add(
                (
                    tuple(core.information_state_tensor(p)),
                    core.info_state_key(p),
                    core.observation_string(p),
                    legal,
                )
            )
        for info, members in groups.items():
            assert len(members) == 1, (rs.name, p, info)
        tensors = [next(iter(m))[0] for m in groups.values()]
        keys = [next(iter(m))[1] for m in groups.values()]
        assert len(set(tensors)) == len(tensors) and len(set(keys)) == len(keys)


def test_playout_plans_are_drawn_uniformly_from_the_planners_view():
    """The playout kernel draws plans without building the view (rejection
    sampling); its first choice must be uniform over the legal plans, in the
    placement phase with hidden pieces that look free and in the moves."""
    rs = rules.load(str(BENCH))
    rng = random.Random(3)
    checked = 0
    for target_phase in (0, 1):
        core = make_core(rs)
        while core.current_phase() < target_phase or (target_phase == 0 and core._log_count() < 4):
            core.apply_action(rng.choice(core.legal_action_list()))
        if core.terminal():
            continue
        legal = core.legal_action_list()
        start = core._log_count()
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


# -- overachievers disqualified in rounds ---------------------------------------------


def test_a_rounds_winners_are_one_set_disqualified_together_then_the_next_set_wins():
    for cloaked in (False, True):
        extra = {"cloaked": [[1, 4, 1]]} if cloaked else {}
        rs = parse(
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
    rs = parse(
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
    rs = parse(
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


# -- validation and the OpenSpiel face ----------------------------------------------


def test_cloaking_and_overachievers_are_accepted_with_simultaneous_phases_on_any_boards():
    """Several boards with rounds came with ttt-boards; the merge plays them
    cloaked too (tests/test_ttt_boards_merge.py plays them move by move)."""
    parse("ok", phases=[{"order": "single", "cloaked": ALL9}])
    parse(
        "ok4",
        players="4",
        reserves={"black": 2, "white": 2, "pink": 2, "yellow": 2},
        board={"kind": "squares", "size": [4, 4, 1]},
        overachievers_disqualified=True,
        phases=[{"order": "simultaneous", "cloaked": ALL9}],
    )
    assert parse("two", boards=2, phases=[{"order": "simultaneous", "cloaked": ALL9}]).record["boards"] == 2


_DIR = tempfile.TemporaryDirectory(prefix="ttt-cloaksim-")


def _game(rs):
    path = Path(_DIR.name) / f"{rs.name}.json"
    if not path.exists():
        path.write_text(json.dumps(rs.to_json()))
    return pyspiel.load_game("ttt", {"rules": str(path)})


@pytest.mark.parametrize("rs", CASES, ids=lambda rs: rs.name)
def test_openspiel_type_and_random_sim_test_with_serialisation(rs):
    game = _game(rs)
    t = game.get_type()
    sim = any(ph["order"] != "sequential" for ph in rs.record["phases"])
    assert t.dynamics == (GT.Dynamics.SIMULTANEOUS if sim else GT.Dynamics.SEQUENTIAL)
    assert t.information == GT.Information.IMPERFECT_INFORMATION
    pyspiel.random_sim_test(game, num_sims=6, serialize=True, verbose=False)
    if sim:
        pyspiel.random_sim_test(
            pyspiel.convert_to_turn_based(game), num_sims=3, serialize=True, verbose=False
        )
