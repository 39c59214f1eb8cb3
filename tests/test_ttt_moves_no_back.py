"""The moves without back: "Moves adjacent (no back)", "Moves adjacent (no
back/side)", "Moves orth (no back)" and "Pawn move forward/center"
(docs/rules/ttt/shapes.md, "Moves without back", "Pawn move
forward/center"): their destinations on hand-made positions, no replacement on
reaching the goal, Chaos's none, validation and the Factory, and agreement
with the reference model on random rule sets (with jumps, in rounds and with
cloaked spaces)."""

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.ttt import make_core, rules
from games.ttt.schema import MOVES_NO_BACK, can_move_backwards, shaped
from tiers import sweep
from ttt_checks import (
    action_strings,
    assert_views_partition_histories,
    parsed_or_rejected,
    piece,
    play_against_reference,
    position,
    problems,
    random_sim_test_of,
    rule_set,
    same_pieces_conserved,
)
from ttt_records import shaped_records

SIZE = [5, 5, 1]


def destinations(move, at=(3, 3, 1), colour="black", **fields):
    """The (x, y) the piece of ``colour`` on ``at`` (moving by ``move``) may
    step to on an empty 5x5 board (black's goal at y = 5, white's at y = 1),
    read from the legal actions' strings "(x,y,z)->(x,y,z)"."""
    others = {"black": "white", "white": "black"}
    rs = position(
        [piece(at, colour, "triangle"), piece((1, 5, 1) if colour == "black" else (1, 1, 1), others[colour])],
        {"triangle": {"move": move}, "circle": {}},
        SIZE,
        **fields,
    )
    core = make_core(rs)
    if colour == "white":
        core.apply_action(core.legal_action_list()[-1])  # black passes
    assert core.player() == (0 if colour == "black" else 1)
    source = "({},{},{})->".format(*at)
    out = set()
    for text in action_strings(core):
        if text.startswith(source):
            x, y, _ = text[len(source) :].strip("()").split(",")
            out.add((int(x), int(y)))
    return out


def test_adjacent_no_back_steps_forward_and_sideways():
    assert destinations("adjacent-no-back") == {(2, 3), (4, 3), (2, 4), (3, 4), (4, 4)}
    # white's goal is y = 1: its forward is down
    assert destinations("adjacent-no-back", colour="white") == {(2, 3), (4, 3), (2, 2), (3, 2), (4, 2)}


def test_adjacent_no_back_side_steps_forward_only():
    assert destinations("adjacent-no-back-side") == {(2, 4), (3, 4), (4, 4)}
    assert destinations("adjacent-no-back-side", colour="white") == {(2, 2), (3, 2), (4, 2)}


def test_orthogonal_no_back_slides_forward_and_sideways():
    assert destinations("orthogonal-no-back") == {(1, 3), (2, 3), (4, 3), (5, 3), (3, 4), (3, 5)}
    # on the goal line only sideways (the white circle on (1, 5) stops the slide)
    assert destinations("orthogonal-no-back", at=(3, 5, 1)) == {(2, 5), (4, 5), (5, 5)}


def test_pawn_steps_forward_or_sideways_towards_the_centre():
    assert destinations("pawn-forward-center") == {(3, 4)}  # on the centre column
    assert destinations("pawn-forward-center", at=(1, 2, 1)) == {(1, 3), (2, 2)}
    assert destinations("pawn-forward-center", at=(5, 2, 1)) == {(5, 3), (4, 2)}
    assert destinations("pawn-forward-center", at=(4, 2, 1), colour="white") == {(4, 1), (3, 2)}
    assert destinations("pawn-forward-center", at=(2, 5, 1)) == {(3, 5)}  # on the goal line
    # an even width: both middle columns are the centre, no sideways step between them
    rs = position(
        [
            piece((2, 1, 1), "black", "triangle"),
            piece((4, 3, 1), "black", "triangle"),
            piece((1, 4, 1), "white"),
        ],
        {"triangle": {"move": "pawn-forward-center"}, "circle": {}},
        [4, 4, 1],
    )
    texts = action_strings(make_core(rs))
    assert [t for t in texts if t.startswith("(2,1,1)")] == ["(2,1,1)->(2,2,1)"]
    assert [t for t in texts if t.startswith("(4,3,1)")] == ["(4,3,1)->(3,3,1)", "(4,3,1)->(4,4,1)"]


def test_no_replacement_on_reaching_the_goal():
    """Unlike "cannot move backwards" (a forward move: the step onto the goal
    names a replacement), a move without back reaching the goal line keeps
    its shape and names no replacement."""

    def after(move):
        rs = position(
            [piece((3, 4, 1), "black", "triangle"), piece((1, 1, 1), "white")],
            {"triangle": {"move": move}, "circle": {"move": "adjacent"}},
            SIZE,
        )
        return make_core(rs)

    assert action_strings(after("forward-orthogonal")) == ["(3,4,1)->(3,5,1) becomes circle", "pass"]
    core = after("adjacent-no-back-side")
    assert action_strings(core) == ["(3,4,1)->(2,5,1)", "(3,4,1)->(3,5,1)", "(3,4,1)->(4,5,1)", "pass"]
    core.apply_action(core.legal_action_list()[1])
    assert core.shapes()[2 + 5 * 4] == "triangle"
    # on the goal line it has nowhere to go; the "no back" move still steps sideways there
    assert destinations("adjacent-no-back-side", at=(3, 5, 1)) == set()
    assert destinations("adjacent-no-back", at=(3, 5, 1)) == {(2, 5), (4, 5)}


def test_marked_cannot_move_backwards_still_names_a_replacement():
    rs = rule_set(
        "marked",
        board={"kind": "squares", "size": [3, 3, 1]},
        reserves={"black": {"triangle": 1}, "white": {"triangle": 1}},
        shapes={
            "triangle": {"move": "adjacent-no-back", "cannot_move_backwards": True},
            "pentagon": {"move": "adjacent"},
        },
        move_limit=20,
    )
    assert make_core(rs).shape_names() == ["triangle", "pentagon"]
    assert rs.record["shapes"]["triangle"]["cannot_move_backwards"] is True


def test_chaos_cannot_move_pieces_without_back():
    rs = rule_set(
        "chaos",
        players="2-vs-chaos",
        board={"kind": "squares", "size": [3, 3, 1], "pieces": [piece((2, 2, 1), "pink", "triangle")]},
        reserves={"black": {}, "white": {}, "pink": {}},
        shapes={"triangle": {"move": "adjacent-no-back"}},
        move_limit=10,
        phases=[{"pass": True}],
    )
    core = make_core(rs)
    core.apply_action(core.legal_action_list()[-1])
    core.apply_action(core.legal_action_list()[-1])
    assert core.seat_to_move() == 2  # Chaos, OpenSpiel's chance player
    assert len(core.chance_outcome_list()) == 1  # it may only pass
    moving = rule_set("chaos-adjacent", rs.record, shapes={"triangle": {"move": "adjacent"}})
    core = make_core(moving)
    core.apply_action(core.legal_action_list()[-1])
    core.apply_action(core.legal_action_list()[-1])
    assert len(core.chance_outcome_list()) == 1 + 8


def test_moves_without_back_are_not_replacements_and_need_no_replacement():
    for move in MOVES_NO_BACK:
        assert not can_move_backwards({"move": move})
        rs = rule_set(
            "alone",
            board={"kind": "squares", "size": [3, 3, 1]},
            reserves={"black": {"x": 2}, "white": {"x": 2}},
            shapes={"x": {"move": move}},
            move_limit=10,
        )
        assert shaped(rs.record)


def test_validation_names_the_moves():
    found = problems(
        "bad",
        board={"kind": "squares", "size": [3, 3, 1]},
        reserves={"black": 1, "white": 1},
        shapes={"circle": {"move": "adjacent-no-backwards"}},
    )
    assert any("adjacent-no-back-side" in p and "pawn-forward-center" in p for p in found)
    # "no back" moves need goal lines: more than two players on a board one row deep have none
    found = problems(
        "row",
        players="3",
        board={"kind": "squares", "size": [5, 1, 1]},
        reserves={"black": 1, "white": 1, "pink": 1},
        shapes={"circle": {"move": "adjacent-no-back"}},
        move_limit=10,
    )
    assert any("goal lines" in p for p in found)


def test_the_factory_offers_the_moves():
    from webapp.factory_form import choices, option_label

    for move, label in zip(
        MOVES_NO_BACK,
        (
            "Moves adjacent (no back)",
            "Moves adjacent (no back/side)",
            "Moves orth (no back)",
            "Pawn move forward/center",
        ),
        strict=True,
    ):
        assert move in choices()["moves"]
        assert option_label("move", move) == label


def test_example_plays():
    rs = rules.resolve("games/ttt/examples/No-Back-Race.json")
    assert {p["move"] for p in rs.record["shapes"].values()} == set(MOVES_NO_BACK)
    play_against_reference(rs, games=sweep(full=10, quick=2), seed=5)


@pytest.mark.parametrize("move", MOVES_NO_BACK)
def test_random_sim_test(move, tmp_path):
    rs = rule_set(
        f"sim-{move}",
        players="3",
        board={"kind": "squares", "size": [4, 4, 1]},
        reserves={c: {"triangle": 2, "circle": 1} for c in ("black", "white", "pink")},
        shapes={"triangle": {"move": move}, "circle": {"move": "adjacent"}},
        move_limit=30,
    )
    random_sim_test_of(rs, tmp_path, num_sims=sweep(full=6, quick=1))


def test_cloaked_views_follow_what_each_seat_may_know():
    """With cloaked spaces, histories a seat cannot tell apart give it the
    same information state (strings and tensors)."""
    rs = rule_set(
        "cloaked-no-back",
        board={"kind": "squares", "size": [3, 3, 1]},
        cloaking="hides",
        reserves={"black": {"triangle": 2}, "white": {"triangle": 2}},
        shapes={"triangle": {"move": "adjacent-no-back"}},
        move_limit=12,
        phases=[{"cloaked": [[1, 2, 1], [2, 2, 1], [3, 2, 1]]}],
    )
    assert_views_partition_histories(rs, seeds=range(sweep(full=40, quick=8)))


@settings(max_examples=sweep(full=60, quick=6), deadline=None, suppress_health_check=list(HealthCheck))
@given(shaped_records(), st.sampled_from(MOVES_NO_BACK), st.integers(0, 10**6))
def test_random_rule_sets_with_moves_without_back_match_reference(rec, move, seed):
    """Random shaped rule sets with one shape's move replaced by a move
    without back: move by move the reference model's, pieces conserved."""
    rec["shapes"][sorted(rec["shapes"])[0]]["move"] = move
    rs = parsed_or_rejected(rec)
    conserved = same_pieces_conserved(rs)
    play_against_reference(rs, games=2, seed=seed, check=lambda core, ref: conserved(core, ref))
