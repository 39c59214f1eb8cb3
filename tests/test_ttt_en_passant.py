"""The pawn's diagonal capture and en passant: the capture condition "Move on
diag + en passe" (docs/rules/ttt/captures.md, "Move on diag + en passe") and
the turn check "En passant" (docs/rules/ttt/turns.md, "En passant"): the
double first step, the capture of the pawn that made it on the next ply only,
the diagonal capture, validation and the Factory, and agreement with the
reference model on random rule sets."""

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.ttt import make_core, rules
from games.ttt.schema import CONDITIONS_SURROUND, DIAGONAL_EN_PASSANT, EN_PASSANT_CHECK
from tiers import sweep
from ttt_checks import (
    action_strings,
    assert_is_legal_agrees_with_legal_actions,
    legal_by_string,
    parsed_or_rejected,
    piece,
    play_against_reference,
    position,
    power,
    problems,
    random_sim_test_of,
    same_pieces,
)

PAWN = power(DIAGONAL_EN_PASSANT, "removes", "pawn-forward-center")


def pawns(pieces, checks=(EN_PASSANT_CHECK,), shape=PAWN, **fields):
    """Triangle pawns on a 4x5 board (black's goal at y = 5, white's at y = 1)."""
    return position(
        [piece(at, colour, "triangle") for at, colour in pieces],
        {"triangle": shape},
        size=(4, 5, 1),
        turn_checks=list(checks),
        **fields,
    )


def play_named(core, *names):
    for name in names:
        actions = legal_by_string(core)
        assert name in actions, (name, sorted(actions))
        core.apply_action(actions[name])


def moves_from(core, at):
    x, y, z = at
    return sorted(a for a in action_strings(core) if a.startswith(f"({x},{y},{z})->"))


def test_a_pawn_steps_twice_forward_from_its_home_row_only_with_en_passant():
    """The double first step: from the row farthest from its goal, over an
    empty space; not with a piece in between, not from another row, not
    without the turn check."""
    with_ep = make_core(pawns([((1, 1, 1), "black"), ((4, 5, 1), "white")]))
    assert "(1,1,1)->(1,3,1)" in moves_from(with_ep, (1, 1, 1))
    without = make_core(pawns([((1, 1, 1), "black"), ((4, 5, 1), "white")], checks=()))
    assert moves_from(without, (1, 1, 1)) == ["(1,1,1)->(1,2,1)", "(1,1,1)->(2,1,1)"]
    blocked = make_core(pawns([((1, 1, 1), "black"), ((1, 2, 1), "white"), ((4, 5, 1), "white")]))
    assert "(1,1,1)->(1,3,1)" not in moves_from(blocked, (1, 1, 1))
    later = make_core(pawns([((1, 2, 1), "black"), ((4, 5, 1), "white")]))
    assert "(1,2,1)->(1,4,1)" not in moves_from(later, (1, 2, 1))


def test_the_pawn_captures_diagonally_forward_only():
    core = make_core(
        pawns([((2, 2, 1), "black"), ((3, 3, 1), "white"), ((2, 3, 1), "white"), ((1, 1, 1), "white")])
    )
    got = moves_from(core, (2, 2, 1))
    assert "(2,2,1)->(3,3,1)" in got  # diagonally forward onto a piece: a capture
    assert "(2,2,1)->(2,3,1)" not in got  # its own move goes to free spaces only
    assert "(2,2,1)->(1,1,1)" not in got  # never diagonally backwards
    play_named(core, "(2,2,1)->(3,3,1)")
    assert core.cells()[2 + 4 * 2] > 0 and sum(1 for v in core.cells() if v) == 3


def test_en_passant_takes_the_pawn_that_just_passed_on_the_next_ply_only():
    """White's double step (3,5)->(3,3) passes (3,4); black's pawn on (2,3),
    beside it, takes it by stepping onto (3,4), as if it had made one step; a
    ply later the chance is gone."""
    start = [((2, 3, 1), "black"), ((3, 5, 1), "white"), ((1, 1, 1), "black"), ((4, 5, 1), "white")]
    core = make_core(pawns(start, phases=[{"pass": True}]))
    play_named(core, "pass", "(3,5,1)->(3,3,1)")
    assert "(2,3,1)->(3,4,1)" in moves_from(core, (2, 3, 1))
    copy = make_core(pawns(start, phases=[{"pass": True}]))
    play_named(copy, "pass", "(3,5,1)->(3,3,1)", "(2,3,1)->(3,4,1)")
    cells = copy.cells()
    assert cells[2 + 4 * 2] == 0 and cells[2 + 4 * 3] == cells[0]  # the white pawn is gone
    late = make_core(pawns(start, phases=[{"pass": True}]))
    play_named(late, "pass", "(3,5,1)->(3,3,1)", "pass", "pass")
    assert "(2,3,1)->(3,4,1)" not in moves_from(late, (2, 3, 1))


def test_en_passant_state_is_kept_by_serialisation_and_the_hash():
    """The same board reached with and without a double step: the space
    passed over tells them apart in the hash, the position's text and the
    legal moves, and a pickled state keeps it."""
    import pickle

    start = [((2, 3, 1), "black"), ((3, 5, 1), "white"), ((1, 1, 1), "black"), ((4, 5, 1), "white")]
    rs = pawns(start, phases=[{"pass": True}])
    a = make_core(rs)
    play_named(a, "pass", "(3,5,1)->(3,3,1)")
    b = make_core(rs)
    play_named(b, "pass", "(3,5,1)->(3,4,1)", "pass", "(3,4,1)->(3,3,1)")
    assert a.cells() == b.cells()
    assert a.position_hash() != b.position_hash()
    assert "; en passant (3,4,1)" in a.to_string() and "en passant" not in b.to_string()
    assert "(2,3,1)->(3,4,1)" in moves_from(a, (2, 3, 1))
    assert "(2,3,1)->(3,4,1)" not in moves_from(b, (2, 3, 1))
    c = pickle.loads(pickle.dumps(a))
    assert c.position_hash() == a.position_hash() and moves_from(c, (2, 3, 1)) == moves_from(a, (2, 3, 1))
    play_named(a, "pass")  # the chance lasts one ply
    assert a.position_hash() != c.position_hash() and "en passant" not in a.to_string()


def test_on_several_boards_en_passant_is_the_double_steps_board_only_for_the_next_ply():
    """A double step on board 2 opens en passant on board 2 only (board 1's
    pawn on the same coordinates has no such capture), and a ply on board 1
    ends the chance as any ply does."""
    start = [((2, 3, 1), "black"), ((3, 5, 1), "white"), ((1, 1, 1), "black"), ((4, 5, 1), "white")]
    rs = pawns(start, phases=[{"pass": True}], boards=2)
    a = make_core(rs)
    play_named(a, "pass", "b2:(3,5,1)->b2:(3,3,1)")
    assert a.to_string().endswith("; en passant b2:(3,4,1)")
    moves = set(action_strings(a))
    assert "b2:(2,3,1)->b2:(3,4,1)" in moves and "b1:(2,3,1)->b1:(3,4,1)" not in moves
    b = a.clone()
    play_named(a, "b2:(2,3,1)->b2:(3,4,1)")  # the white pawn of board 2 is taken
    assert a.cells().count(0) == b.cells().count(0) + 1
    play_named(b, "b1:(1,1,1)->b1:(1,2,1)", "pass")  # a ply on board 1: the chance is gone
    assert "en passant" not in b.to_string()
    assert "b2:(2,3,1)->b2:(3,4,1)" not in set(action_strings(b))


def test_on_several_boards_a_pawn_never_captures_across_a_boards_edge():
    """Board 1's pawn on its east edge: the box's next cell diagonally forward
    is board 2's white piece on (1,3,1), which it may not take."""
    rs = pawns([((4, 2, 1), "black"), ((1, 3, 1), "white"), ((3, 3, 1), "white")], boards=2)
    moves = moves_from_boards(make_core(rs), "b1:(4,2,1)->")
    assert moves == ["b1:(4,2,1)->b1:(3,2,1)", "b1:(4,2,1)->b1:(3,3,1)", "b1:(4,2,1)->b1:(4,3,1)"]


def moves_from_boards(core, prefix):
    return sorted(a for a in action_strings(core) if a.startswith(prefix))


def test_validation_accepts_the_pawns_capture_beside_a_surrounding_shape():
    for condition in CONDITIONS_SURROUND:
        shapes = {"triangle": PAWN, "circle": power(condition, "removes", "adjacent")}
        rs = position(
            [piece((1, 1, 1), "black", "triangle")], shapes, size=(4, 5, 1), turn_checks=[EN_PASSANT_CHECK]
        )
        assert rs.record["shapes"]["circle"]["condition"] == condition


def test_validation_accepts_the_pawns_words_on_several_boards():
    rs = pawns([((1, 1, 1), "black"), ((4, 5, 1), "white")], boards=3)
    assert rs.record["boards"] == 3 and EN_PASSANT_CHECK in rs.record["turn_checks"]


def test_a_surrounding_shape_and_the_pawns_capture_each_take_the_pawn_that_passed():
    """Beside a shape capturing by surrounding, each capture is its own
    shape's: after white's double step black may take the pawn en passant,
    or bracket it with a circle on the line (the pawn counting as its own
    piece); either removes it, and a pawn's arrival surrounds nothing."""
    rs = position(
        [piece((2, 3, 1), "black", "triangle"), piece((3, 5, 1), "white", "triangle")],
        {"triangle": PAWN, "circle": power("surround-line", "removes", "stationary")},
        size=(4, 5, 1),
        turn_checks=[EN_PASSANT_CHECK],
        phases=[{"pass": True}],
        reserves={"black": {"circle": 1}, "white": {}},
    )
    core = make_core(rs)
    play_named(core, "pass", "(3,5,1)->(3,3,1)")
    taken, bracketed = core.clone(), core.clone()
    play_named(taken, "(2,3,1)->(3,4,1)")
    assert [c for c, v in enumerate(taken.cells()) if v] == [14]  # the pawn on (3,4), white's gone
    play_named(bracketed, "black@(4,3,1) circle")
    assert [c for c, v in enumerate(bracketed.cells()) if v] == [9, 11]  # (2,3) and (4,3): (3,3) taken


def with_a_deck(pieces, **fields):
    """Triangle pawns and stationary circles on a 4x5 board, a deck of
    circles dealing each player one as its turn starts (no dealt pawn
    keeps a placed pawn from moving)."""
    return position(
        [piece(at, colour, "triangle") for at, colour in pieces],
        {"triangle": PAWN, "circle": {}},
        size=(4, 5, 1),
        turn_checks=[EN_PASSANT_CHECK],
        phases=[{"pass": True}],
        deck={"pieces": {"circle": 6}, "hand": 0, "per_turn": 1},
        reserves={"black": {}, "white": {}},
        **fields,
    )


def deal_and_play(core, *names):
    for name in names:
        while core.player() == -1:  # the turn's deal
            core.apply_action(core.chance_outcome_list()[0][0])
        play_named(core, name)


def test_a_deal_between_the_double_step_and_the_next_ply_keeps_the_chance():
    """A deal is no ply: the turn's deal that comes between white's double
    step and black's ply leaves en passant open, and the capture takes it."""
    core = make_core(with_a_deck([((2, 3, 1), "black"), ((3, 5, 1), "white")]))
    deal_and_play(core, "pass", "(3,5,1)->(3,3,1)")
    assert core.player() == -1 and core.to_string().endswith("; en passant (3,4,1)")
    core.apply_action(core.chance_outcome_list()[0][0])
    assert core.player() == 0 and "(2,3,1)->(3,4,1)" in moves_from(core, (2, 3, 1))
    deal_and_play(core, "(2,3,1)->(3,4,1)")
    assert core.cells().count(0) == 4 * 5 - 1  # white's pawn taken


def test_validation_names_what_en_passant_needs():
    no_pawn = problems(
        "no-pawn",
        board={"kind": "squares", "size": [3, 3, 1]},
        reserves={"black": {"x": 1}, "white": {"x": 1}},
        shapes={"x": {"move": "adjacent"}},
        turn_checks=[EN_PASSANT_CHECK],
        move_limit=10,
    )
    assert any("'en-passant' needs a shape with the move 'pawn-forward-center'" in p for p in no_pawn)
    stacks = problems(
        "stacks",
        board={"kind": "stacks", "size": [3, 3, 2]},
        reserves={"black": {"x": 1}, "white": {"x": 1}},
        shapes={"x": PAWN},
        move_limit=10,
    )
    assert any(DIAGONAL_EN_PASSANT in p and "a flat board" in p for p in stacks)
    converts = problems(
        "converts",
        board={"kind": "squares", "size": [3, 3, 1]},
        reserves={"black": {"x": 1}, "white": {"x": 1}},
        shapes={"x": power(DIAGONAL_EN_PASSANT, "converts", "pawn-forward-center")},
        move_limit=10,
    )
    assert any("result removes, reincarnates" in p for p in converts)
    cloaked = problems(
        "cloaked",
        board={"kind": "squares", "size": [3, 3, 1]},
        reserves={"black": {"x": 1}, "white": {"x": 1}},
        shapes={"x": PAWN},
        turn_checks=[EN_PASSANT_CHECK],
        cloaking="hides",
        phases=[{"cloaked": [[2, 2, 1]]}],
        move_limit=10,
    )
    assert any("no cloaked spaces" in p for p in cloaked)


def test_the_factory_offers_the_words():
    from webapp.factory_form import choices, option_label

    assert DIAGONAL_EN_PASSANT in choices()["conditions"]
    assert option_label("condition", DIAGONAL_EN_PASSANT) == "Move on diag + en passe"
    assert EN_PASSANT_CHECK in choices()["turn_checks"]
    assert option_label("turn_checks.0", EN_PASSANT_CHECK) == "En passant"


def test_the_example_plays_against_the_reference(tmp_path):
    rs = rules.resolve("games/ttt/examples/En-Passant-Pawns.json")
    assert EN_PASSANT_CHECK in rs.record["turn_checks"]
    play_against_reference(rs, games=sweep(full=20, quick=3), seed=7)
    assert_is_legal_agrees_with_legal_actions(rs, games=sweep(full=5, quick=1), seed=3)
    random_sim_test_of(rs, tmp_path, num_sims=sweep(full=4, quick=1))


def test_the_custodians_example_plays_against_the_reference(tmp_path):
    rs = rules.resolve("games/ttt/examples/En-Passant-Custodians.json")
    assert rs.record["shapes"]["circle"]["condition"] == "surround-line"
    play_against_reference(rs, games=sweep(full=20, quick=3), seed=11)
    random_sim_test_of(rs, tmp_path, num_sims=sweep(full=4, quick=1))


def test_the_two_board_example_plays_against_the_reference():
    """Random games of the example take en passant now and then, move by
    move as the reference model does."""
    import random

    rs = rules.resolve("games/ttt/examples/En-Passant-Two-Boards.json")
    assert rs.record["boards"] == 2 and EN_PASSANT_CHECK in rs.record["turn_checks"]
    play_against_reference(rs, games=sweep(full=20, quick=3), seed=7)
    rng, taken = random.Random(5), 0
    for _ in range(sweep(full=40, quick=10)):
        core = make_core(rs)
        while core.player() >= 0:
            before, text = core.cells().count(0), core.to_string()
            space = text.split("; en passant ")[1] if "; en passant " in text else None
            actions = legal_by_string(core)
            name = rng.choice(sorted(actions))
            core.apply_action(actions[name])
            # a move onto the empty space passed over that takes a piece
            taken += space is not None and name.endswith("->" + space) and core.cells().count(0) == before + 1
    assert taken > 0


@pytest.mark.parametrize("how", ["can-capture", "must-capture"])
def test_pawn_games_match_reference(how):
    rs = pawns(
        [((x, 1, 1), "black") for x in range(1, 5)] + [((x, 5, 1), "white") for x in range(1, 5)],
        shape=power(DIAGONAL_EN_PASSANT, "reincarnates", "pawn-forward-center", how=how),
        move_limit=30,
        phases=[{"pass": False}],
        reserves={"black": {"triangle": 0}, "white": {"triangle": 0}},
        stalemate="most-pieces-wins",
    )
    play_against_reference(rs, games=sweep(full=30, quick=4), seed=17)


@st.composite
def pawn_records(draw):
    """Random pawn rule sets: a flat board, two or three players, pawns with
    the diagonal capture (or a plain pawn), other shapes moving any way; one
    board or two."""
    dims = [draw(st.integers(2, 5)), draw(st.integers(3, 6)), 1]
    players = draw(st.sampled_from(["2", "3", "2-vs-chaos"]))
    colours = ["black", "white", "pink"][: 2 if players == "2" else 3]
    pawn = draw(st.sampled_from([PAWN, {"move": "pawn-forward-center"}]))
    other = draw(st.sampled_from(["adjacent", "rook-orthogonal-castle", "stationary", "knight-2x1x0"]))
    shapes = {"triangle": dict(pawn), "x": {"move": other}}
    if draw(st.booleans()):
        shapes["x"] = power(
            draw(st.sampled_from([DIAGONAL_EN_PASSANT, "cover"])),
            "removes",
            other if other != "stationary" else "adjacent",
        )
    cells = [[x, y, 1] for x in range(1, dims[0] + 1) for y in range(1, dims[1] + 1)]
    at = draw(st.lists(st.sampled_from(cells), min_size=2, max_size=8, unique_by=tuple))
    pieces = [
        {
            "at": c,
            "colour": draw(st.sampled_from(colours[:2])),
            "shape": draw(st.sampled_from(["triangle", "x"])),
        }
        for c in at
    ]
    return {
        "name": "random-pawns",
        "players": players,
        "board": {"kind": "squares", "size": dims, "pieces": pieces},
        "reserves": {c: {"triangle": draw(st.integers(0, 2)), "x": draw(st.integers(0, 1))} for c in colours},
        "shapes": shapes,
        "turn_checks": [EN_PASSANT_CHECK]
        + draw(st.sampled_from([[], ["first-3-wins"], ["goal-reached-stalemate"]])),
        "stalemate": draw(st.sampled_from(["draws", "most-pieces-wins"])),
        "phases": [{"pass": draw(st.booleans())}],
        "move_limit": draw(st.integers(8, 30)),
        "boards": draw(st.sampled_from([1, 1, 2])),
    }


@settings(max_examples=sweep(full=60, quick=6), deadline=None, suppress_health_check=list(HealthCheck))
@given(pawn_records(), st.integers(0, 10**6))
def test_random_pawn_rule_sets_match_reference(rec, seed):
    """Move by move the reference model's, the same pieces on the same spaces."""
    rs = parsed_or_rejected(rec)
    play_against_reference(rs, games=2, seed=seed, check=same_pieces)


SURROUNDS = list(CONDITIONS_SURROUND)  # surround, adjacent and approach


@settings(max_examples=sweep(full=60, quick=6), deadline=None, suppress_health_check=list(HealthCheck))
@given(
    pawn_records(),
    st.sampled_from(SURROUNDS),
    st.sampled_from(["removes", "converts", "reincarnates"]),
    st.sampled_from(["adjacent", "orthogonal", "stationary", "linear"]),
    st.integers(0, 10**6),
)
def test_random_pawn_rule_sets_beside_a_surrounding_shape_match_reference(rec, condition, result, move, seed):
    """pawn_records with circles that capture by surrounding, adjacency or
    approach (two of each colour in reserve)."""
    if condition.startswith("approach") and move == "stationary":
        move = "adjacent"  # approach captures along a move's line
    rec["shapes"]["circle"] = power(condition, result, move)
    for reserve in rec["reserves"].values():
        reserve["circle"] = 2
    rs = parsed_or_rejected(rec)
    play_against_reference(rs, games=3, seed=seed, check=same_pieces)


@settings(max_examples=sweep(full=40, quick=4), deadline=None, suppress_health_check=list(HealthCheck))
@given(pawn_records(), st.sampled_from([0, 1, 2]), st.integers(0, 10**6))
def test_random_pawn_rule_sets_with_a_deck_match_reference(rec, per_turn, seed):
    """pawn_records for two players with a deck of both shapes (a hand of
    one, and 0-2 pieces dealt as each turn starts)."""
    rec["players"] = "2"
    rec["reserves"] = {c: v for c, v in rec["reserves"].items() if c in ("black", "white")}
    rec["deck"] = {"pieces": {"triangle": 4, "x": 4}, "hand": 1, "per_turn": per_turn}
    rs = parsed_or_rejected(rec)
    play_against_reference(rs, games=2, seed=seed, check=same_pieces_once_dealt)


def same_pieces_once_dealt(core, ref):
    if not ref.dealing():
        same_pieces(core, ref)
