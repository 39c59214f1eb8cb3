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
import tempfile
from pathlib import Path

import pyspiel
import pytest

import games  # noqa: F401  (registers ttt)
from games.ttt import rules
from ttt_checks import play_rounds_against_reference

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


# -- shapes: the shape measures per board -------------------------------------
