"""The capture result "Paralyzes captive(s)" (``paralyzes``): the captive stays
on its space in its colour, still counts for lines and piece counts, never
moves again and is never freed (docs/rules/ttt/captures.md, "Paralyzes
captive(s)"); the reference model agrees on random rule sets."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.ttt import make_core, rules
from games.ttt.rules import RuleSetError
from tiers import sweep
from ttt_checks import (
    MUST,
    action_strings,
    assert_views_partition_histories,
    parsed_or_rejected,
    piece,
    play_against_reference,
    play_named,
    position,
    power,
    random_sim_test_of,
    same_pieces,
)
from ttt_records import paralyze_records
from webapp.factory_form import option_label


def _frozen_circle(**fields):
    """White's mobile circle on (2,1); black places an x (adjacent,
    orthogonal reading, paralyzes) on (1,1) next to it."""
    return position(
        [piece((2, 1, 1), "white", "circle"), piece((4, 2, 1), "white", "circle")],
        {"circle": {"move": "adjacent"}, "x": power("adjacent-orthogonal", "paralyzes")},
        size=(4, 2, 1),
        reserves={"black": {"x": 2}, "white": {}},
        **fields,
    )


def test_a_paralysed_piece_stays_in_its_colour_and_never_moves():
    rs = _frozen_circle()
    assert rs.record["shapes"]["x"]["result"] == "paralyzes"
    core = make_core(rs)
    play_named(core, "black@(1,1,1) x")
    assert core.cells()[:2] == [1, 2]  # white's circle stays, white
    assert core.paralysed() == [1]
    moves = action_strings(core)
    assert not any(a.startswith("(2,1,1)->") for a in moves), moves
    assert any(a.startswith("(4,2,1)->") for a in moves), moves
    assert "!" in _paralysed_layer(core.to_string())


def _paralysed_layer(text):
    """The ``paralysed:`` layer of a state or view string (its board rows)."""
    rows = text.split("paralysed:\n", 1)[1].split("\n")
    return "\n".join(r for r in rows if set(r) <= {".", "!"} and r)


def test_a_paralysed_piece_is_shown_to_every_seat_that_sees_it():
    """Both seats see the board, so both information states and tensors
    show the paralysis (a "!" on white's (2,1)), and a paralysed piece is
    told apart from the same piece free."""
    rs = _frozen_circle()
    start = make_core(rs)
    core = make_core(rs)
    play_named(core, "black@(1,1,1) x")
    free = make_core(rs)
    play_named(free, "black@(1,2,1) x")  # the same x, next to nothing of white's
    for p in range(2):
        assert _paralysed_layer(core.information_state_string(p)) == "....\n.!.."
        assert "!" not in _paralysed_layer(free.information_state_string(p))
        seen, unseen = core.observation_tensor(p), free.observation_tensor(p)
        assert len(seen) == len(unseen) == len(start.observation_tensor(p))
        assert sum(seen) - sum(unseen) == 1.0  # the paralysis plane's one cell


def test_a_paralyzer_does_not_capture_a_piece_paralysed_already():
    """Must capture is not forced by re-paralysing: once white's circle is
    paralysed, a second x next to it captures nothing, so black may place
    anywhere."""
    rs = position(
        [piece((2, 1, 1), "white", "circle")],
        {"circle": {"move": "adjacent"}, "x": power("adjacent-orthogonal", "paralyzes", how=MUST)},
        size=(3, 2, 1),
        reserves={"black": {"x": 2}, "white": {}},
    )
    core = make_core(rs)
    placements = [a for a in action_strings(core) if a.startswith("black@")]
    assert sorted(placements) == ["black@(1,1,1) x", "black@(2,2,1) x", "black@(3,1,1) x"]
    play_named(core, "black@(1,1,1) x")
    play_named(core, "pass")
    placements = [a for a in action_strings(core) if a.startswith("black@")]
    assert len(placements) == 4  # every free space: nothing left to capture


def test_validation_refuses_paralyzes_where_it_has_no_meaning_or_is_not_built():
    base = {
        "name": "bad",
        "board": {"kind": "squares", "size": [3, 3, 1]},
        "move_limit": 10,
        "reserves": {"black": {"x": 1}, "white": {"x": 1}},
    }
    cases = {
        "cover": ({"x": power("cover", "paralyzes")}, "'cover' takes the captive's space"),
        "jump": ({"x": power("jump", "paralyzes", "adjacent")}, "paralyzing jumps are not built"),
        "mixed": (
            {"x": power("adjacent", "paralyzes"), "star": power("cover", "removes")},
            "no other shape capturing by cover, jump or triagonal step (star",
        ),
    }
    for name, (shapes, words) in cases.items():
        rec = dict(base, shapes=shapes, reserves={c: {s: 1 for s in shapes} for c in ("black", "white")})
        with pytest.raises(RuleSetError) as e:
            rules.parse(rec)
        assert "shapes.x.result: 'paralyzes' needs" in str(e.value), name
        assert words in str(e.value), name
        assert "allowed with it: surround-line" in str(e.value), name
    rec = dict(
        base, shapes={"x": power("adjacent", "paralyzes")}, board={"kind": "stacks", "size": [3, 3, 3]}
    )
    with pytest.raises(RuleSetError, match="not built on stacks yet"):
        rules.parse(rec)
    for order in ("simultaneous", "single"):  # played in rounds
        rec = dict(base, shapes={"x": power("adjacent", "paralyzes")}, phases=[{"order": order}])
        assert rules.parse(rec).record["shapes"]["x"]["result"] == "paralyzes"
    rec = dict(base, shapes={"x": power("surround-line", "paralyzes")})
    assert rules.parse(rec).record["shapes"]["x"]["result"] == "paralyzes"
    assert option_label("result", "paralyzes") == "Paralyzes captive(s)"


@settings(max_examples=sweep(full=60, quick=6), deadline=None, suppress_health_check=list(HealthCheck))
@given(paralyze_records(), st.integers(0, 10**6))
def test_random_paralyzing_rule_sets_match_reference(rec, seed):
    """Move by move the reference's, with the same paralysed pieces."""
    rs = parsed_or_rejected(rec)
    play_against_reference(rs, games=3, seed=seed, check=same_pieces)


# -- inside rounds: judged once every plan has landed ------------------------------------------------


def _frozen_circle_in_rounds():
    return _frozen_circle(phases=[{"order": "simultaneous", "pass": True}], move_limit=10)


def plan(core, player, text):
    return next(a for a in core.player_legal_action_list(player) if core.action_string(player, a) == text)


def test_in_a_round_the_paralysis_is_judged_after_every_plan_landed():
    """Black's x lands on (1,1) while white's circle on (2,1) passes: the
    circle is paralysed and no plan of the next round moves it. When the
    circle steps away in the same round, the x lands beside an empty space
    and paralyses nothing."""
    core = make_core(_frozen_circle_in_rounds())
    place = plan(core, 0, "black@(1,1,1) x")
    core.apply_joint_action([place, plan(core, 1, "pass")])
    assert core.paralysed() == [1] and core.cells()[:2] == [1, 2]
    assert not any(core.action_string(1, a).startswith("(2,1,1)->") for a in core.player_legal_action_list(1))
    core = make_core(_frozen_circle_in_rounds())
    core.apply_joint_action([place, plan(core, 1, "(2,1,1)->(3,1,1)")])
    assert core.paralysed() == [] and core.cells()[:3] == [1, 0, 2]


def test_a_piece_paralysed_in_the_round_it_landed_still_makes_its_line():
    """White's circle lands on (3,1) beside its circle on (4,1) (a line of 2)
    as black's x lands on (2,1) and paralyses it: paralysis takes away
    movement only, so white's line wins."""
    rs = position(
        [piece((4, 1, 1), "white", "circle")],
        {"circle": {"move": "adjacent"}, "x": power("adjacent-orthogonal", "paralyzes")},
        size=(4, 1, 1),
        reserves={"black": {"x": 1}, "white": {"circle": 1}},
        turn_checks=["first-2-wins"],
        phases=[{"order": "simultaneous", "pass": True}],
        move_limit=10,
    )
    core = make_core(rs)
    core.apply_joint_action([plan(core, 0, "black@(2,1,1) x"), plan(core, 1, "white@(3,1,1) circle")])
    assert core.paralysed() == [2] and core.returns_list() == [-1.0, 1.0]


@settings(max_examples=sweep(full=60, quick=6), deadline=None, suppress_health_check=list(HealthCheck))
@given(paralyze_records(), st.sampled_from(["simultaneous", "single"]), st.integers(0, 10**6))
def test_random_paralyzing_rule_sets_in_rounds_match_reference(rec, order, seed):
    """paralyze_records with every phase simultaneous or single (passes
    allowed where pieces move)."""
    rec["phases"] = [
        {**ph, "order": order, **({} if "movement" in ph else {"pass": True})} for ph in rec["phases"]
    ]
    rs = parsed_or_rejected(rec)
    play_against_reference(rs, games=3, seed=seed, check=same_paralysed)


def same_paralysed(core, ref):
    """``same_pieces``, and the same pieces are paralysed."""
    same_pieces(core, ref)
    X, Y, _ = core.tab.params["size"]
    got = {(c % X, (c // X) % Y, c // (X * Y)) for c in core.paralysed()}
    assert got == set(ref.paralysed), (got, ref.paralysed)


def test_the_rounds_example_plays_against_the_reference_and_keeps_information_sets_apart(tmp_path):
    rs = rules.resolve("games/ttt/examples/Paralyzing-Stones-Rounds.json")
    assert rs.compile()["simultaneous"]
    play_against_reference(rs, games=sweep(full=20, quick=3), seed=29, check=same_paralysed)
    assert_views_partition_histories(rs, range(sweep(full=20, quick=3)))
    random_sim_test_of(rs, tmp_path, num_sims=sweep(full=4, quick=1))
