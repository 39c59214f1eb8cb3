"""Cloaking inside simultaneous rounds and "overachievers disqualified" with
simultaneous phases (issue 11 items 2, 3, 6; docs/rules/ttt.md, "Cloaking and
overachievers in simultaneous rounds"): small rule sets played by the engine
and by the reference model (tests/ttt_reference.py, ``CloakedSimRefState``)
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
from hypothesis import given, settings, strategies as st

import games  # noqa: F401  (registers ttt)
from games.ttt import make_core, rules
from ttt_reference import CloakedSimRefState

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
        parse("cs-place-row-pass-3p", players="3", board={"kind": "squares", "size": [4, 3, 1]},
              reserves={"black": 3, "white": 3, "pink": 3}, turn_checks=[], stalemate="most-in-a-row-wins",
              phases=[dict(sim, cloaked=[[x, 1, 1] for x in (1, 2, 3, 4)], **{"pass": True})]),
        parse("cs-single-then-seq", reserves={"black": 5, "white": 4},
              phases=[dict(single, cloaked=ALL9), {"cloaked": ROW1}]),
        parse("cs-seq-then-sim", reserves={"black": 5, "white": 5},
              phases=[{"cloaked": ALL9, "pass": True}, dict(sim, cloaked=ROW1)]),
        parse("cs-place-then-move-recloak", reserves={"black": 3, "white": 3}, shapes=adj, move_limit=24,
              phases=[dict(sim, cloaked=ALL9, movement="placement-only"),
                      dict(sim, cloaked=[[2, y, 1] for y in (1, 2, 3)])]),
        parse("cs-chaos", players="2-vs-chaos", reserves={"black": 3, "white": 3, "pink": 3},
              phases=[dict(sim, cloaked=ALL9[:6])]),
        parse("cs-shared-move", colours="shared", reserves={"black": 4}, shapes=adj, move_limit=20,
              turn_checks=["first-3-loses"], phases=[dict(sim, cloaked=ALL9, **{"pass": True})]),
        parse("cs-stacks", board={"kind": "stacks", "size": [3, 1, 3]}, reserves={"black": 4, "white": 4},
              shapes=adj, move_limit=20, turn_checks=["first-3-wins-no-diagonal"],
              phases=[dict(sim, cloaked=[[x, 1, z] for x in (1, 2, 3) for z in (1, 2, 3)])]),
        parse("cs-choose-linear", colours="players-choose", reserves={"black": 3, "pink": 3},
              shapes={"circle": {"move": "linear-or-knight"}}, move_limit=16,
              phases=[dict(sim, cloaked=ALL9)]),
        parse("cs-obscures-move", cloaking="obscures", reserves={"black": 3, "white": 3}, shapes=adj,
              move_limit=20, phases=[dict(sim, cloaked=ROW1)]),
        rules.load(str(BENCH)),
    ]


def overachiever_sets():
    """4-player rule sets with simultaneous phases and the overachievers rule."""
    board = {"kind": "squares", "size": [4, 4, 1]}
    res = {"black": 4, "white": 4, "pink": 4, "yellow": 4}
    return [
        parse("oa-sim-first-3", players="4", board=board, reserves=res, cloaking="none",
              overachievers_disqualified=True, phases=[{"order": "simultaneous"}]),
        parse("oa-sim-most-pieces", players="4", board=board, reserves=res, cloaking="none",
              overachievers_disqualified=True, turn_checks=["first-3-loses"], stalemate="most-pieces-wins",
              phases=[{"order": "simultaneous", "pass": True}]),
        parse("oa-sim-cloaked-2-phases", players="4", board=board, reserves=res,
              overachievers_disqualified=True, stalemate="most-in-a-row-wins",
              phases=[{"order": "single", "cloaked": [[x, y, 1] for x in (1, 2) for y in (1, 2, 3, 4)]},
                      {"order": "simultaneous", "cloaked": [[1, 1, 1]]}]),
    ]


CASES = cloaksim_sets() + overachiever_sets()


def _attempts(core):
    """The seats of every logged attempt, in order (a round logs its plans in seat order)."""
    return [core._event(i)[1] for i in range(core._log_count()) if core._event(i)[2]]


def play_against_reference(rs, games_, seed):
    """Random games side by side; returns how many attempts were played."""
    rng = random.Random(seed)
    cloaked = rs.record["cloaking"] != "none" and any(ph["cloaked"] for ph in rs.record["phases"])
    attempts = 0
    for g in range(games_):
        core = make_core(rs)
        ref = CloakedSimRefState(rs)
        steps = 0
        while True:
            where = (rs.name, g, steps, core.to_string())
            player = core.player()
            assert player == ref.current_player(), where
            assert core.simultaneous_player_list() == ref.simultaneous_players(), where
            assert core.disqualified_players() == sorted(ref.disqualified), where
            if cloaked:
                for p in range(core.num_players):
                    assert core.player_view(p) == ref.view(p), (p,) + where
                assert _attempts(core) == ref.attempts, where
            if player == -4:
                assert core.returns_list() == ref.returns(), where
                assert core.chaos_outcome() == ref.chaos_outcome(), where
                break
            if player == -1:
                legal = ref.seat_actions(ref.seat)
                assert [a for a, _ in core.chance_outcome_list()] == legal, where
            else:
                legal = core.legal_action_list()
                assert legal == ref.legal_actions(), where
                for p in core.simultaneous_player_list():
                    assert core.player_legal_action_list(p) == ref.seat_actions(p), (p,) + where
            a = rng.choice(legal)
            core.apply_action(a)
            ref.apply(a)
            steps += 1
            assert steps <= core.max_game_length, where
        attempts += len(ref.attempts)
    return attempts


@pytest.mark.parametrize("rs", CASES, ids=lambda rs: rs.name)
def test_engine_matches_reference(rs):
    attempts = play_against_reference(rs, games_=40, seed=len(rs.name))
    if rs.record["cloaking"] == "hides" and any(ph["cloaked"] for ph in rs.record["phases"]):
        assert attempts > 0, "no attempt that only reveals was played"


@pytest.mark.slow
@pytest.mark.parametrize("rs", CASES, ids=lambda rs: rs.name)
def test_engine_matches_reference_long(rs):
    play_against_reference(rs, games_=600, seed=7)
