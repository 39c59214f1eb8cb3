"""The turn check "Castle" (docs/rules/ttt/turns.md, "Castle"): a king and a
rook of one colour that have not moved, on a row across the goal's axis with
only empty spaces between them, castle as one move; the record of which
pieces have moved (the position's text, its planes, the hash, serialisation);
validation and the Factory; the example; and agreement with the reference
model on random rule sets."""

import pickle

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.ttt import make_core, rules
from games.ttt.schema import CASTLE_CHECK, ROOK_MOVE
from tiers import sweep
from ttt_checks import (
    action_strings,
    assert_is_legal_agrees_with_legal_actions,
    assert_views_partition_histories,
    parsed_or_rejected,
    piece,
    play_against_reference,
    play_named,
    position,
    power,
    problems,
    random_sim_test_of,
    same_pieces,
    state_after,
)
from ttt_records import castle_records, castle_records_with_spaces

KING = {"move": "adjacent"}
ROOK = {"move": ROOK_MOVE}


def board(pieces, checks=(CASTLE_CHECK,), **fields):
    """Stars (kings) and x rooks on a 7x3 board (black's goal at y = 3, white's at y = 1)."""
    return position(
        [piece(at, colour, shape) for at, colour, shape in pieces],
        {"star": KING, "x": ROOK},
        size=(7, 3, 1),
        turn_checks=list(checks),
        **fields,
    )


#: black's king between its two rooks on the bottom row, white's king at the top
HOME = [
    ((1, 1, 1), "black", "x"),
    ((4, 1, 1), "black", "star"),
    ((7, 1, 1), "black", "x"),
    ((4, 3, 1), "white", "star"),
]


def king_moves(core):
    return sorted(a for a in action_strings(core) if a.startswith("(4,1,1)->"))


def test_a_castle_is_offered_exactly_when_king_and_rook_are_unmoved_with_empty_spaces_between():
    """Both castles from the start (the king's two-space steps); none
    without the turn check; none towards a rook with a piece in between."""
    core = make_core(board(HOME))
    assert "(4,1,1)->(2,1,1)" in king_moves(core) and "(4,1,1)->(6,1,1)" in king_moves(core)
    without = make_core(board(HOME, checks=()))
    assert not {"(4,1,1)->(2,1,1)", "(4,1,1)->(6,1,1)"} & set(king_moves(without))
    between = make_core(board(HOME + [((6, 1, 1), "white", "x")]))
    assert "(4,1,1)->(6,1,1)" not in king_moves(between) and "(4,1,1)->(2,1,1)" in king_moves(between)
    # a rook of the other colour: no castle
    other = make_core(board([((4, 1, 1), "black", "star"), ((7, 1, 1), "white", "x"), HOME[3]]))
    assert "(4,1,1)->(6,1,1)" not in king_moves(other)
    # along the goal's axis (a column) there is no castle
    column = make_core(board([HOME[1], ((4, 3, 1), "black", "x"), ((1, 3, 1), "white", "star")]))
    assert "(4,1,1)->(4,3,1)" not in king_moves(column)


def test_no_castle_after_the_king_or_the_rook_has_moved_even_back():
    rook_moved = make_core(board(HOME))
    play_named(rook_moved, "(7,1,1)->(7,2,1)")
    play_named(rook_moved, "pass")
    play_named(rook_moved, "(7,2,1)->(7,1,1)")
    play_named(rook_moved, "pass")
    assert "(4,1,1)->(6,1,1)" not in king_moves(rook_moved)
    assert "(4,1,1)->(2,1,1)" in king_moves(rook_moved)  # the other rook has not moved
    king_moved = make_core(board(HOME))
    for name in ("(4,1,1)->(4,2,1)", "pass", "(4,2,1)->(4,1,1)", "pass"):
        play_named(king_moved, name)
    assert not {"(4,1,1)->(2,1,1)", "(4,1,1)->(6,1,1)"} & set(king_moves(king_moved))


def test_a_king_placed_from_the_reserve_has_not_moved_and_castles():
    rs = board([((1, 1, 1), "black", "x"), ((4, 3, 1), "white", "star")], reserves={"black": {"star": 1}})
    core = make_core(rs)
    play_named(core, "black@(4,1,1) star")
    play_named(core, "pass")
    assert core.moved() == [] and "(4,1,1)->(2,1,1)" in king_moves(core)


def test_a_castle_moves_king_and_rook_and_marks_both_moved():
    core = make_core(board(HOME))
    play_named(core, "(4,1,1)->(6,1,1)")
    shapes = core.shapes()
    assert shapes[5] == "star" and shapes[4] == "x" and shapes[3] is None and shapes[6] is None
    assert core.moved() == [4, 5]
    assert "moved:" in core.to_string() and "....mm." in core.to_string().split("moved:")[1]
    assert core.observation_tensor(0)[-21:] == [1.0 if c in (4, 5) else 0.0 for c in range(21)]


def test_the_moved_record_is_kept_by_the_hash_and_serialisation():
    """The same pieces on the same spaces, once after the rook went away and
    back: the hash, the text and the castles tell them apart; a pickled
    state keeps the record."""
    rs = board(HOME)
    a = make_core(rs)
    play_named(a, "pass")
    play_named(a, "pass")
    b = make_core(rs)
    for name in ("(7,1,1)->(7,2,1)", "pass", "(7,2,1)->(7,1,1)", "pass"):
        play_named(b, name)
    assert a.cells() == b.cells() and a.shapes() == b.shapes()
    assert a.position_hash() != b.position_hash()
    assert a.observation_tensor(0) != b.observation_tensor(0)
    c = pickle.loads(pickle.dumps(b))
    assert c.position_hash() == b.position_hash() and c.moved() == b.moved() == [6]
    assert king_moves(c) == king_moves(b)


#: A king on (1,1) and a rook on (4,1) whose castle lands the rook on (2,1), under two
#: black pieces on (2,2) and (2,3): a column of three.
CASTLE_INTO_A_LINE = [
    ((1, 1, 1), "black", "star"),
    ((4, 1, 1), "black", "x"),
    ((2, 2, 1), "black", "x"),
    ((2, 3, 1), "black", "x"),
    ((7, 3, 1), "white", "star"),
]


def test_a_castle_that_makes_a_line_with_the_rook_wins():
    """The rook's landing counts for the line checks as the king's does."""
    core = make_core(board(CASTLE_INTO_A_LINE, checks=(CASTLE_CHECK, "first-3-wins-no-diagonal")))
    play_named(core, "(1,1,1)->(3,1,1)")  # the rook lands on (2,1): (2,1), (2,2), (2,3)
    assert core.returns_list() == [1.0, -1.0]


def test_validation_names_what_castle_needs():
    base = {"board": {"kind": "squares", "size": [5, 3, 1]}, "turn_checks": [CASTLE_CHECK], "move_limit": 10}
    base["reserves"] = {"black": {"x": 1, "star": 1}, "white": {"x": 1, "star": 1}}
    no_rook = problems("no-rook", **base, shapes={"star": KING, "x": {"move": "orthogonal"}})
    assert any("'castle' needs a shape with the move 'rook-orthogonal-castle'" in p for p in no_rook)
    no_king = problems("no-king", **base, shapes={"star": {"move": "linear"}, "x": ROOK})
    assert any("'castle' needs" in p and "'adjacent' (the king" in p for p in no_king)
    jumper = problems("jumper", **base, shapes={"star": power("jump", "removes", "adjacent"), "x": ROOK})
    assert any("a king (star) that does not jump" in p for p in jumper)
    refused = {
        "a board of kind 'squares' or 'hexagons'": {"board": {"kind": "stacks", "size": [5, 3, 2]}},
        "sequential phases only": {"phases": [{"order": "simultaneous"}]},
        "no cloaked spaces": {"cloaking": "hides", "phases": [{"cloaked": [[1, 1, 1]]}]},
    }
    for words, fields in refused.items():
        found = problems(words, **{**base, **fields}, shapes={"star": KING, "x": ROOK})
        assert any("'castle' needs" in p and words in p for p in found), (words, found)
    for kind, where in (("toroid", "a toroid"), ("tetrakis", "tetrakis squares")):  # no goal lines
        words = f"goals are not defined on {where}"
        board = {"kind": kind, "size": [5, 5, 4 if kind == "tetrakis" else 1]}
        found = problems(kind, **{**base, "board": board}, shapes={"star": KING, "x": ROOK})
        assert any(words in p for p in found), (kind, found)


def test_validation_accepts_castle_on_several_boards_and_with_a_deck():
    for boards in (2, 3):
        rs = board(HOME, boards=boards)
        assert rs.record["boards"] == boards and CASTLE_CHECK in rs.record["turn_checks"]
    deck = {"pieces": {"x": 2, "star": 2}, "hand": 1, "per_turn": 1}
    rs = board(HOME, deck=deck, reserves={"black": {}, "white": {}})
    assert rs.record["deck"] == deck and CASTLE_CHECK in rs.record["turn_checks"]


def test_on_several_boards_each_board_castles_on_its_own_and_never_across():
    """Both boards castle from the start; board 1's king has no rook east of
    it on its own board, and board 2's rook just past board 1's edge is not
    one (no step crosses boards)."""
    core = make_core(board(HOME, boards=2))
    moves = set(action_strings(core))
    for b in ("b1", "b2"):
        assert {f"{b}:(4,1,1)->{b}:(2,1,1)", f"{b}:(4,1,1)->{b}:(6,1,1)"} <= moves
    west_rook_only = [p for p in HOME if p[0] != (7, 1, 1)]
    core = make_core(board(west_rook_only, boards=2))
    moves = set(action_strings(core))
    assert "b1:(4,1,1)->b1:(2,1,1)" in moves and "b1:(4,1,1)->b1:(6,1,1)" not in moves
    # the box's cell east of board 1's (7,1,1) is board 2's rook on (1,1,1)
    assert core.shapes()[7] == "x"


def test_a_castle_that_decides_its_board_locks_it_and_the_other_board_still_castles():
    core = make_core(board(CASTLE_INTO_A_LINE, checks=(CASTLE_CHECK, "first-3-wins-no-diagonal"), boards=2))
    play_named(core, "b1:(1,1,1)->b1:(3,1,1)")  # the rook lands on (2,1): board 1's line
    assert core.player() >= 0 and core.board_results()[0] is not None
    play_named(core, "pass")
    moves = set(action_strings(core))
    assert not any(m.startswith("b1:") for m in moves)  # the decided board is locked
    assert "b2:(1,1,1)->b2:(3,1,1)" in moves
    play_named(core, "b2:(1,1,1)->b2:(3,1,1)")
    assert core.returns_list() == [1.0, -1.0]


def test_on_hexagons_the_castle_row_runs_along_x_only():
    """The rhombus' rows along x lie across the goals' y axis: the king
    castles along them; the third axis (1, -1) changes y, so no castle runs
    along it, even with an unmoved rook there."""
    core = make_core(board(HOME, kind="hexagons"))
    assert {"(4,1,1)->(2,1,1)", "(4,1,1)->(6,1,1)"} <= set(king_moves(core))
    diagonal = [((4, 3, 1), "black", "star"), ((7, 1, 1), "black", "x"), ((1, 1, 1), "white", "star")]
    core = make_core(board(diagonal, kind="hexagons"))  # (7,1) lies along (1,-1) from (4,3), empty between
    assert not any(m.endswith("->(6,2,1)") for m in action_strings(core) if m.startswith("(4,3,1)->"))
    assert "(4,3,1)->(5,2,1)" in action_strings(core)  # its one step along that axis


def test_the_factory_offers_castle():
    from webapp.factory_form import choices, option_label

    assert CASTLE_CHECK in choices()["turn_checks"]
    assert option_label("turn_checks.0", CASTLE_CHECK) == "Castle"


def test_the_example_plays_against_the_reference(tmp_path):
    rs = rules.resolve("games/ttt/examples/Castle-Rooks.json")
    assert CASTLE_CHECK in rs.record["turn_checks"]
    core = make_core(rs)
    assert {"(4,1,1)->(2,1,1)", "(4,1,1)->(6,1,1)"} <= set(action_strings(core))
    play_against_reference(rs, games=sweep(full=20, quick=3), seed=7, check=same_moved)
    assert_is_legal_agrees_with_legal_actions(rs, games=sweep(full=5, quick=1), seed=3)
    random_sim_test_of(rs, tmp_path, num_sims=sweep(full=4, quick=1))


def test_the_hexagons_example_plays_against_the_reference(tmp_path):
    rs = rules.resolve("games/ttt/examples/Castle-Hexagons.json")
    assert rs.record["board"]["kind"] == "hexagons" and CASTLE_CHECK in rs.record["turn_checks"]
    assert {"(4,1,1)->(2,1,1)", "(4,1,1)->(6,1,1)"} <= set(action_strings(make_core(rs)))
    play_against_reference(rs, games=sweep(full=20, quick=3), seed=17, check=same_moved)
    random_sim_test_of(rs, tmp_path, num_sims=sweep(full=4, quick=1))


def test_the_two_board_example_plays_against_the_reference():
    rs = rules.resolve("games/ttt/examples/Castle-Two-Boards.json")
    assert rs.record["boards"] == 2 and CASTLE_CHECK in rs.record["turn_checks"]
    play_against_reference(rs, games=sweep(full=20, quick=3), seed=13, check=same_moved)


def test_home_rows_play_against_the_reference():
    """Kings between their rooks and little else to do: random games castle
    often, move by move as the reference model does."""
    home = HOME[:3] + [((1, 3, 1), "white", "x"), ((4, 3, 1), "white", "star"), ((7, 3, 1), "white", "x")]
    for checks in ((CASTLE_CHECK,), (CASTLE_CHECK, "first-3-wins")):
        rs = board(home, checks=checks, move_limit=30)
        play_against_reference(rs, games=sweep(full=20, quick=4), seed=11, check=same_moved)


def same_moved(core, ref):
    """``same_pieces``, and the same pieces have moved."""
    same_pieces(core, ref)
    X, Y, _ = core.tab.params["size"]
    moved = {(c % X, (c // X) % Y, c // (X * Y)) for c in core.moved()}
    assert moved == {c for c in ref.moved if c in ref.board}, (moved, ref.moved)


@settings(max_examples=sweep(full=60, quick=6), deadline=None, suppress_health_check=list(HealthCheck))
@given(castle_records(), st.integers(0, 10**6))
def test_random_castle_rule_sets_match_reference(rec, seed):
    """Move by move the reference model's: the same pieces on the same
    spaces, the same pieces moved."""
    rs = parsed_or_rejected(rec)
    play_against_reference(rs, games=2, seed=seed, check=same_moved)


@settings(max_examples=sweep(full=40, quick=4), deadline=None, suppress_health_check=list(HealthCheck))
@given(castle_records_with_spaces(), st.integers(0, 10**6))
def test_random_castle_rule_sets_with_locked_spaces_match_reference(rec, seed):
    """Locked, exclusive, sticky and entry/exit-locked spaces on the king's
    and the rook's way: move by move the reference model's."""
    rs = parsed_or_rejected(rec)
    play_against_reference(rs, games=2, seed=seed, check=same_moved)


def test_the_example_castles_in_random_play():
    """Random games of the example castle now and then (a castle marks two
    unmoved pieces moved at once), so its agreement above covers castles."""
    import random

    rs = rules.resolve("games/ttt/examples/Castle-Rooks.json")
    rng = random.Random(5)
    castles = 0
    for _ in range(sweep(full=40, quick=10)):
        core = make_core(rs)
        while core.player() >= 0:
            before = len(core.moved())
            core.apply_action(rng.choice(core.legal_action_list()))
            castles += len(core.moved()) - before == 2
    assert castles > 0


DEALT = "games/ttt/examples/Castle-Dealt-Rooks.json"
CIRCLE, X = 0, 1  # the deal's chance outcomes in the example (its local shapes: circle, x, star)


def dealt(*outcomes):
    """The example's OpenSpiel state after the deal ``outcomes`` (black,
    white, black, white)."""
    return state_after(rules.resolve(DEALT), *outcomes)


def test_a_dealt_rook_placed_on_the_home_row_castles():
    """Black is dealt a rook: while it is in the reserve the rook on the
    board may not move (an identical piece in reserve), so neither castles;
    placed on (7,1) from the reserve it has not moved, and the king castles
    with either rook."""
    state = dealt(X, CIRCLE, CIRCLE, CIRCLE)
    names = {state.action_to_string(0, a): a for a in state.legal_actions()}
    assert not {"(4,1,1)->(2,1,1)", "(4,1,1)->(6,1,1)"} & set(names)
    state.apply_action(names["black@(7,1,1) x"])
    play_on(state, 1, "white@(2,3,1) circle")
    names = {state.action_to_string(0, a): a for a in state.legal_actions()}
    assert {"(4,1,1)->(2,1,1)", "(4,1,1)->(6,1,1)"} <= set(names)
    state.apply_action(names["(4,1,1)->(6,1,1)"])
    assert str(state).split("moved:")[1].splitlines()[-2] == "....mm."  # the bottom row


def play_on(state, player, name):
    state.apply_action(next(a for a in state.legal_actions() if state.action_to_string(player, a) == name))


def test_deals_black_cannot_tell_apart_give_it_identical_views_until_white_places_its_rook():
    """White dealt two circles or a rook and a circle: black's information
    state (string and tensor, the moved pieces' plane included) is one, and
    white's differ; white's placed rook shows."""
    circles, rook = dealt(X, CIRCLE, CIRCLE, CIRCLE), dealt(X, X, CIRCLE, CIRCLE)
    for state in (circles, rook):
        play_on(state, 0, "black@(2,2,1) circle")
    assert circles.information_state_string(0) == rook.information_state_string(0)
    assert circles.information_state_tensor(0) == rook.information_state_tensor(0)
    assert circles.observation_tensor(0) == rook.observation_tensor(0)
    assert circles.information_state_string(1) != rook.information_state_string(1)
    play_on(rook, 1, "white@(7,4,1) x")
    assert "x" in rook.information_state_string(0).split("shapes:")[1].splitlines()[1]


def test_the_dealt_rooks_example_plays_against_the_reference():
    rs = rules.resolve(DEALT)
    assert "deck" in rs.record and CASTLE_CHECK in rs.record["turn_checks"]
    play_against_reference(rs, games=sweep(full=20, quick=3), seed=21, check=same_moved_once_dealt)
    assert_views_partition_histories(rs, range(sweep(full=20, quick=4)))


@st.composite
def castle_records_with_a_deck(draw):
    """castle_records for two players (or two against Chaos) with a deck of
    circles, rooks and kings: hands of 0-2, 0-2 pieces dealt each turn, and
    0-2 dealt common spaces (communal pieces, which no seat moves)."""
    rec = draw(castle_records())
    rec["players"] = draw(st.sampled_from(["2", "2-vs-chaos"]))
    colours = ["black", "white", "pink"][: 3 if rec["players"] == "2-vs-chaos" else 2]
    rec["reserves"] = {c: v for c, v in rec["reserves"].items() if c in colours}
    rec["board"]["pieces"] = [q for q in rec["board"]["pieces"] if q["colour"] in colours]
    X, Y, Z = rec["board"]["size"]
    taken = {tuple(q["at"]) for q in rec["board"]["pieces"]}
    free = [[x, y, 1] for x in range(1, X + 1) for y in range(1, Y + 1) if (x, y, 1) not in taken]
    dealt = draw(st.lists(st.sampled_from(free), max_size=2, unique_by=tuple)) if free else []
    if rec.get("boards", 1) == 1 and dealt:
        rec["board"]["dealt"] = dealt
    per_turn = draw(st.sampled_from([0, 0, 1, 2]))
    hand = draw(st.integers(0 if rec["board"].get("dealt") or per_turn else 1, 2))
    pieces = {s: draw(st.integers(0, 3)) for s in ("circle", "x", "star")}
    pieces["circle"] += max(0, 2 * hand + len(rec["board"].get("dealt", [])) - sum(pieces.values()))
    rec["deck"] = {"pieces": pieces, "hand": hand, "per_turn": per_turn}
    return rec


def same_moved_once_dealt(core, ref):
    if not ref.dealing():
        same_moved(core, ref)


@settings(max_examples=sweep(full=60, quick=6), deadline=None, suppress_health_check=list(HealthCheck))
@given(castle_records_with_a_deck(), st.integers(0, 10**6))
def test_random_castle_rule_sets_with_a_deck_match_reference(rec, seed):
    """Dealt kings and rooks are placed from reserves (unmoved), turn deals
    fall between a ply and the next: move by move the reference model's."""
    rs = parsed_or_rejected(rec)
    play_against_reference(rs, games=2, seed=seed, check=same_moved_once_dealt)


@settings(max_examples=sweep(full=20, quick=3), deadline=None, suppress_health_check=list(HealthCheck))
@given(castle_records_with_a_deck(), st.integers(0, 10**6))
def test_random_castle_rule_sets_with_a_deck_keep_information_sets_apart(rec, seed):
    """Deals a player cannot tell apart give it byte-identical information
    states (strings and tensors), the moved pieces' plane included."""
    rs = parsed_or_rejected(rec)
    assert_views_partition_histories(rs, [seed, seed + 1])
