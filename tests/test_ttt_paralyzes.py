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
    parsed_or_rejected,
    piece,
    play_against_reference,
    play_named,
    position,
    power,
    same_pieces,
)
from ttt_records import paralyze_records
from webapp.factory_form import option_label


def _frozen_circle():
    """White's mobile circle on (2,1); black places an x (adjacent,
    orthogonal reading, paralyzes) on (1,1) next to it."""
    return position(
        [piece((2, 1, 1), "white", "circle"), piece((4, 2, 1), "white", "circle")],
        {"circle": {"move": "adjacent"}, "x": power("adjacent-orthogonal", "paralyzes")},
        size=(4, 2, 1),
        reserves={"black": {"x": 2}, "white": {}},
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
    rec = dict(base, shapes={"x": power("adjacent", "paralyzes")}, phases=[{"order": "simultaneous"}])
    with pytest.raises(RuleSetError, match="not built in rounds yet"):
        rules.parse(rec)
    rec = dict(base, shapes={"x": power("surround-line", "paralyzes")})
    assert rules.parse(rec).record["shapes"]["x"]["result"] == "paralyzes"
    assert option_label("result", "paralyzes") == "Paralyzes captive(s)"


@settings(max_examples=sweep(full=60, quick=6), deadline=None, suppress_health_check=list(HealthCheck))
@given(paralyze_records(), st.integers(0, 10**6))
def test_random_paralyzing_rule_sets_match_reference(rec, seed):
    """Move by move the reference's, with the same paralysed pieces."""
    rs = parsed_or_rejected(rec)
    play_against_reference(rs, games=3, seed=seed, check=same_pieces)
