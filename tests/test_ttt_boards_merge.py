"""The merge of ttt-boards with ttt-cloaksim and ttt-shapes: hidden pieces
(cloaking) inside simultaneous rounds on several boards, overachievers with
rounds on several boards, and the shape measures scored per board, each
played move by move against the reference model (tests/ttt_reference/,
written from docs/rules/ttt.md, not from the engine), plus OpenSpiel's
random_sim_test with serialisation.

Why these: each branch was tested alone; their meeting points are a round's
refresh of "every piece they can move" against the boards it decides, the
per-round overachievers of ttt-cloaksim against the per-game overachievers
of ttt-boards, and the per-board score against the shape plane."""

import json
import random
import tempfile
from pathlib import Path

import pyspiel
import pytest

import games  # noqa: F401  (registers ttt)
from games.ttt import make_core, rules
from ttt_checks import play_rounds_against_reference
from ttt_reference import ReferenceState

SQ2 = {"kind": "squares", "size": [2, 2, 1]}
SQ3 = {"kind": "squares", "size": [3, 3, 1]}
ALL_SQ2 = [[x, y, 1] for x in (1, 2) for y in (1, 2)]
ALL_SQ3 = [[x, y, 1] for x in (1, 2, 3) for y in (1, 2, 3)]
SIM, SINGLE = {"order": "simultaneous"}, {"order": "single"}


def parse(name, **fields):
    rec = {"name": name, "board": dict(SQ3), "cloaking": "hides", "turn_checks": ["first-3-wins"]}
    rec.update(fields)
    return rules.parse(rec)


def cloaked_round_board_sets():
    """Cloaking x simultaneous/single phases x several boards (x overachievers,
    x space locks, x movement, x obscurity)."""
    adj = {"circle": {"move": "adjacent"}}
    four = {"black": 3, "white": 3, "pink": 3, "yellow": 3}
    return [
        parse(
            "m-b2-sim-place-hides",
            boards=2,
            reserves={"black": 5, "white": 5},
            phases=[dict(SIM, cloaked=ALL_SQ3)],
        ),
        parse(
            "m-b3-single-then-seq-area",
            boards=3,
            board=dict(SQ2),
            reserves={"black": 4, "white": 4},
            turn_checks=["first-2-wins-no-diagonal"],
            stalemate="least-area-wins",
            phases=[dict(SINGLE, cloaked=ALL_SQ2), {"cloaked": ALL_SQ2[:2], "pass": True}],
        ),
        parse(
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
        parse(
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
            phases=[dict(SIM, cloaked=ALL_SQ3, **{"pass": True})],
        ),
        # shared colours: a seat can move pieces it did not place, so "every
        # piece they can move" matters (decided boards, exit locks)
        parse(
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
        parse(
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
        parse(
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
        parse(
            "m-b3-stacks-blotto-rounds",
            boards=3,
            board={"kind": "stacks", "size": [2, 1, 3]},
            reserves={"black": 9, "white": 9},
            stalemate="most-pieces-wins",
            turn_checks=[],
            phases=[dict(SIM, cloaked=[[x, 1, z] for x in (1, 2) for z in (1, 2, 3)])],
        ),
    ]


CASES = cloaked_round_board_sets()
# the sets whose random games decide a board in a round and play on (in the
# others a round's line ends the game at once, e.g. by leaving a seat no move)
ROUND_DECIDES = {
    "m-b2-sim-place-hides",
    "m-b2-sim-shared-move-locks",
    "m-b2-sim-exit-locks-move",
    "m-b2-sim-obscures-chaos",
    "m-b2-sim-overachievers-4p",
}


def play_against_reference(rs, games_, seed):
    """Returns (attempts, games that decided a board inside a round)."""
    return play_rounds_against_reference(rs, games_, seed, views=True, boards=True)


@pytest.mark.parametrize("rs", CASES, ids=lambda rs: rs.name)
def test_cloaked_rounds_on_several_boards_match_reference(rs):
    attempts, decided = play_against_reference(rs, games_=40, seed=len(rs.name))
    if rs.record["cloaking"] == "hides":
        assert attempts > 0, "no attempt that only reveals was played"
    if rs.name in ROUND_DECIDES:
        assert decided > 0, "no board was decided by a round while others stayed open"


@pytest.mark.slow
@pytest.mark.parametrize("rs", CASES, ids=lambda rs: rs.name)
def test_cloaked_rounds_on_several_boards_match_reference_long(rs):
    play_against_reference(rs, games_=500, seed=11)


_DIR = tempfile.TemporaryDirectory(prefix="ttt-boards-merge-")


def _game(rs):
    path = Path(_DIR.name) / f"{rs.name}.json"
    if not path.exists():
        path.write_text(json.dumps(rs.to_json()))
    return pyspiel.load_game("ttt", {"rules": str(path)})


@pytest.mark.parametrize("rs", CASES, ids=lambda rs: rs.name)
def test_random_sim_test_with_serialisation(rs):
    game = _game(rs)
    assert game.get_type().dynamics == pyspiel.GameType.Dynamics.SIMULTANEOUS
    pyspiel.random_sim_test(game, num_sims=5, serialize=True, verbose=False)
    pyspiel.random_sim_test(pyspiel.convert_to_turn_based(game), num_sims=3, serialize=True, verbose=False)


# -- overachievers: per round on one board, per game on several --------------


def test_overachievers_in_rounds_on_several_boards_act_on_the_whole_game():
    """Two 2x1 boards, 4 players, first-2-wins, one round: black completes a
    line on board 1 and white on board 2 in the same round. On one board
    ttt-cloaksim would disqualify the round's winners at once; here a round
    decides boards, so both boards are decided (black's, white's), the game
    ends with black and white on one board each, and as the game's winners
    they are disqualified: pink and yellow (no board) win together."""
    rs = parse(
        "oa-rounds",
        boards=2,
        players="4",
        cloaking="none",
        overachievers_disqualified=True,
        board={"kind": "squares", "size": [2, 1, 1]},
        turn_checks=["first-2-wins"],
        reserves={"black": 2, "white": 2, "pink": 1, "yellow": 1},
        stalemate="most-pieces-wins",
        phases=[dict(SIM, **{"pass": True})],
    )
    core = make_core(rs)
    ref = ReferenceState(rs)
    # targets: board 1 is x = 0, 1; board 2 is x = 2, 3 (side by side)
    pass_id = max(core.player_legal_action_list(0))  # the pass is the highest plan id
    assert pass_id == ref.a_pass
    for plans in ([0, 2, pass_id, pass_id], [1, 3, pass_id, pass_id]):
        for a in plans:
            core.apply_action(a)
            ref.apply(a)
    assert core.player() == -4 and ref.result is not None
    assert [list(map(float, r)) for r in core.board_results()] == [[1, -1, -1, -1], [-1, 1, -1, -1]]
    assert core.disqualified_players() == [0, 1] == sorted(ref.disqualified)
    assert core.returns_list() == ref.returns() == [-1.0, -1.0, 1.0, 1.0]


# -- shapes: the shape measures per board -------------------------------------


def test_a_shape_measure_is_scored_per_board_against_the_shapes_reference():
    """most-triangles-wins on two 2x2 boards: each board goes to the side with
    more triangles on it, then most boards wins (games played at random
    against ReferenceState, which scores shapes from its own shape map)."""
    shapes = {"circle": {"move": "stationary"}, "triangle": {"move": "stationary"}}
    rs = rules.parse(
        {
            "name": "tri-boards",
            "board": {"kind": "squares", "size": [2, 2, 1]},
            "boards": 2,
            "turn_checks": [],
            "stalemate": "most-triangles-wins",
            "shapes": shapes,
            "reserves": {"black": {"circle": 1, "triangle": 3}, "white": {"circle": 3, "triangle": 1}},
        }
    )
    rng = random.Random(5)
    outcomes = set()
    for g in range(60):
        core = make_core(rs)
        ref = ReferenceState(rs)
        while core.player() != -4:
            legal = core.legal_action_list()
            assert legal == ref.legal_actions(), (g, core.to_string())
            a = rng.choice(legal)
            core.apply_action(a)
            ref.apply(a)
        assert core.returns_list() == ref.returns(), (g, core.to_string())
        got = [[float(v) for v in r] for r in core.board_results()]
        assert got == [[float(v) for v in ref.decided[b]] for b in range(2)], (g, core.to_string())
        for b in range(2):
            assert core.board_side_scores(b) == [
                sum(
                    1
                    for c, col in ref.board.items()
                    if ref.board_of(c) == b and col == side and ref.shape[c] == "triangle"
                )
                for side in (0, 1)
            ], (g, b, core.to_string())
        outcomes.add(tuple(core.returns_list()))
    # black's 3 triangles against white's 1: black wins both boards, or each
    # side one (a draw); both are reached, so the per-board score decides
    assert outcomes >= {(1.0, -1.0), (0.0, 0.0)}, outcomes
