"""Flipway: the kernel against a plain-Python reading of the rules, hand-built
positions for every rule, OpenSpiel's own consistency checks, and the
repetition facts docs/rules/flipway.md states.

The reference below is written from the rules text (docs/rules/flipway.md),
not from the kernel: it lists 2x2 areas, takes their empty sets and keeps the
ones no other area's empty set strictly contains.
"""

from __future__ import annotations

import itertools
import pickle
import random

import pyspiel
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import games  # noqa: F401  (registers flipway)
from games import flipway

EMPTY, BLACK, WHITE = 0, 1, 2
OPENING, PIE, NORMAL = 0, 1, 2


# -- reference ---------------------------------------------------------------


def areas(n):
    """Each 2x2 area as its (TL, TR, BL, BR) points, numbered row by row."""
    return [
        (r * n + c, r * n + c + 1, (r + 1) * n + c, (r + 1) * n + c + 1)
        for r in range(n - 1)
        for c in range(n - 1)
    ]


def ref_drops(n, cols):
    empties = [frozenset(p for p in area if cols[p] == EMPTY) for area in areas(n)]
    return {e for e in empties if e and not any(e < other for other in empties)}


def ref_crosscuts(n, cols):
    """Area index -> the points of each colour in it, for crosscut areas."""
    found = {}
    for a, (tl, tr, bl, br) in enumerate(areas(n)):
        if cols[tl] == cols[br] != EMPTY and cols[tr] == cols[bl] != EMPTY and cols[tl] != cols[tr]:
            found[a] = {cols[tl]: {tl, br}, cols[tr]: {tr, bl}}
    return found


def ref_chain(n, cols, colour):
    """Orthogonal chain of ``colour`` (1 Black: top-bottom, 2 White: left-right)."""
    start = [
        p for p in range(n * n) if cols[p] == colour and ((p // n == 0) if colour == BLACK else (p % n == 0))
    ]
    seen, stack = set(start), list(start)
    while stack:
        p = stack.pop()
        r, c = divmod(p, n)
        if (colour == BLACK and r == n - 1) or (colour == WHITE and c == n - 1):
            return True
        for rr, cc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
            q = rr * n + cc
            if 0 <= rr < n and 0 <= cc < n and cols[q] == colour and q not in seen:
                seen.add(q)
                stack.append(q)
    return False


def ref_legal(core, n, cols):
    """Legal ids of a NORMAL-phase position by the reference."""
    board = core.board
    ids = {board.set_id(e) for e in ref_drops(n, cols)}
    ids |= {board.num_sets + a for a in ref_crosscuts(n, cols)}
    return sorted(ids)


def new_core(spec="flipway(board_size=5)"):
    return pyspiel.load_game(spec).new_core()


def loaded(n, cols, to_move=0, **kw):
    core = new_core(f"flipway(board_size={n})")
    core.load(cols, to_move, **kw)
    return core


def grid(text):
    """Colours from rows of ``. X O`` (top row first)."""
    rows = [r.split() for r in text.strip().splitlines()]
    return [{".": EMPTY, "X": BLACK, "O": WHITE}[ch] for row in rows for ch in row]


def names(core, ids):
    return sorted(core.describe_action(a) for a in ids)


def ids(core, *texts):
    return sorted(core.action_from_string(t) for t in texts)


# -- registration and encoding ----------------------------------------------


def test_defaults_and_sizes():
    game = pyspiel.load_game("flipway")
    params = game.get_parameters()
    assert params == {"board_size": 9, "setup": "empty", "pie": False, "repetition": "allowed"}
    for n in (3, 9, 19):
        for pie in (False, True):
            game = pyspiel.load_game(f"flipway(board_size={n},pie={str(pie).lower()})")
            P, H, A = n * n, n * (n - 1), (n - 1) ** 2
            assert game.num_distinct_actions() == P + 2 * H + 7 * A + A + pie
            assert game.max_game_length() == flipway.length_bound(n)


@pytest.mark.parametrize(
    "bad, allowed",
    [
        ("setup=diagonal", "empty, checkered, checkered_alt, blocks"),
        ("board_size=2", "3..19"),
        ("board_size=20", "3..19"),
        ("repetition=forbid", "allowed, draw"),
    ],
)
def test_bad_parameters_name_the_allowed_values(bad, allowed):
    with pytest.raises(ValueError, match=allowed):
        pyspiel.load_game(f"flipway({bad})")


@pytest.mark.parametrize("n", [3, 4, 7])
def test_stone_set_ids_are_a_bijection_onto_sets_within_one_area(n):
    board = new_core(f"flipway(board_size={n})").board
    seen = {}
    for a in range(board.num_sets):
        pts = frozenset(board.set_points(a))
        assert board.set_id(pts) == a
        seen[pts] = a
    expected = set()
    for area in areas(n):
        for k in range(1, 5):
            expected |= {frozenset(c) for c in itertools.combinations(area, k)}
    assert set(seen) == expected


def test_action_strings_round_trip():
    core = new_core("flipway(board_size=6,pie=true)")
    for a in range(core.num_actions):
        text = core.describe_action(a)
        assert core.action_from_string(text) == a, text
    assert core.describe_action(0) == "a6"  # top-left point
    assert core.describe_action(30) == "a1"  # bottom-left point
    assert core.describe_action(core.num_actions - 1) == "swap"
    with pytest.raises(ValueError):
        core.action_from_string("z9")


# -- drops ---------------------------------------------------------------------


def test_empty_board_drops_are_the_whole_areas():
    core = loaded(4, [EMPTY] * 16)
    assert names(core, core.legal_action_list()) == sorted(
        core.describe_action(core.board.set_id(area)) for area in areas(4)
    )


def test_drop_near_edge_single_corner_and_maximality():
    # c3 (corner) is empty with all neighbours full: a one-stone drop there.
    # b1+c1 is a pair whose only other area (above) is full: legal.
    # a2 is empty but a1 is too: only the pair a1+a2 is maximal, not a2 alone.
    core = loaded(
        3,
        grid("""
        X O .
        . X O
        . . O"""),
    )
    assert core.legal_action_list() == ids(core, "a2+a1+b1", "c3")
    core = loaded(
        3,
        grid("""
        X O .
        . X O
        . O ."""),
    )
    # a2 alone is inside a2+a1; c1 is in one area only, whose other points are full
    assert core.legal_action_list() == ids(core, "a2+a1", "c1", "c3")


def test_pair_shared_by_two_areas_is_one_move_and_blocked_by_a_bigger_set():
    core = loaded(
        3,
        grid("""
        X O X
        . . O
        X O X"""),
    )
    # a2+b2 is the empty set of both the upper-left and lower-left areas.
    assert core.legal_action_list() == ids(core, "a2+b2")
    core = loaded(
        3,
        grid("""
        X . X
        . . O
        X O X"""),
    )
    # now the upper-left area holds b3 too: a2+b2 alone is not maximal
    assert core.legal_action_list() == ids(core, "b3+a2+b2")


def test_diagonal_drop():
    core = loaded(
        3,
        grid("""
        . X O
        O . X
        X O X"""),
    )
    assert core.legal_action_list() == ids(core, "a3+b2")
    core.apply_action(core.action_from_string("a3+b2"))
    assert core.cell_colours()[0] == core.cell_colours()[4] == BLACK


# -- flips ---------------------------------------------------------------------


def test_flip_turns_the_enemy_diagonal_of_a_crosscut():
    core = loaded(
        4,
        grid("""
        X O . .
        O X . .
        . . . .
        . . . ."""),
        to_move=1,
    )
    flip = core.action_from_string("flip a4-b3")
    assert flip in core.legal_action_list()
    core.apply_action(flip)
    cols = core.cell_colours()
    assert [cols[p] for p in (0, 1, 4, 5)] == [WHITE] * 4
    assert core.playout_stats()["flips"] == 1


def test_no_flip_without_a_crosscut():
    core = loaded(
        4,
        grid("""
        X O . .
        X X . .
        O X . .
        X O . ."""),
    )
    flips = [a for a in core.legal_action_list() if a >= core.board.num_sets]
    # only the area a2-b1 (rows 3-4 from the top) is a crosscut
    assert names(core, flips) == ["flip a2-b1"]


# -- openings, pie and swap --------------------------------------------------


def test_plain_opening_is_one_stone_anywhere():
    core = new_core("flipway(board_size=4)")
    assert core.legal_action_list() == list(range(16))
    core.apply_action(5)
    assert core.player() == 1 and core.colour_to_move() == 1


def test_pie_opening_and_swap():
    game = pyspiel.load_game("flipway(board_size=4,pie=true)")
    core = game.new_core()
    assert core.legal_action_list() == list(range(core.board.num_sets))
    swap = game.num_distinct_actions() - 1
    assert not core.is_legal_action(swap)
    core.apply_action(core.action_from_string("b3+c3+b2"))
    assert core.player() == 1 and swap in core.legal_action_list()
    after_move = core.clone()
    after_move.apply_action(after_move.legal_action_list()[0])
    assert swap not in after_move.legal_action_list()  # first turn only
    core.apply_action(swap)
    # The board is unchanged, White is to move and the opener (player 0) plays it.
    assert core.cell_colours().count(BLACK) == 3 and core.colour_to_move() == 1
    assert core.player() == 0 and core.is_swapped()
    assert swap not in core.legal_action_list()
    # Player 1 now owns Black's chain: make Black win and check the returns.
    core.load(
        grid("""
        X X . .
        X . . .
        X . O .
        . . . ."""),
        to_move=0,
        swapped=True,
    )
    assert core.player() == 1
    core.apply_action(core.action_from_string("b2+a1+b1"))
    assert core.terminal() and core.returns_list() == [-1.0, 1.0]


@pytest.mark.parametrize(
    "setup, pie", [(s, p) for s in ("checkered", "checkered_alt", "blocks") for p in (False, True)]
)
def test_full_board_openings(setup, pie):
    n = 5
    core = new_core(f"flipway(board_size={n},setup={setup},pie={str(pie).lower()})")
    cols = core.cell_colours()
    assert EMPTY not in cols
    whites = [p for p in range(n * n) if cols[p] == WHITE]
    cross = ref_crosscuts(n, cols)
    if not pie:
        expected = whites
    else:
        in_cross = {p for parts in cross.values() for p in parts[WHITE]}
        expected = sorted(in_cross) + [core.board.num_sets + a for a in sorted(cross)]
    assert core.legal_action_list() == expected
    core.apply_action(expected[0])
    if expected[0] < n * n:
        assert core.cell_colours()[expected[0]] == BLACK
    assert not core.terminal()
    assert all(a >= core.board.num_sets for a in core.legal_action_list())  # only flips/swap


@pytest.mark.parametrize(
    "n, setup, expected",
    [
        (5, "empty", [0, 1, 2, 3]),
        (5, "checkered", [0, 1, 2, 3]),
        (6, "checkered", [0, 3]),
        (6, "checkered_alt", [0, 3]),
        (6, "blocks", [0, 1, 2, 3]),
        (8, "blocks", [0, 3]),
        (5, "blocks", [0]),
    ],
)
def test_symmetries_that_keep_the_setup(n, setup, expected):
    core = new_core(f"flipway(board_size={n},setup={setup})")
    assert core.setup_symmetries() == expected
    assert core.symmetry_count() == 4


def test_setup_patterns():
    def start(n, setup):
        return new_core(f"flipway(board_size={n},setup={setup})").cell_colours()

    assert start(3, "checkered") == grid("X O X\nO X O\nX O X")
    assert start(3, "checkered_alt") == grid("O X O\nX O X\nO X O")
    assert start(5, "blocks") == grid("""
        X X O O X
        X X O O X
        O O X X O
        O O X X O
        X X O O X""")
    # blocks with pie: interior stones of a white block lie in no crosscut
    core = new_core("flipway(board_size=6,setup=blocks,pie=true)")
    singles = [a for a in core.legal_action_list() if a < 36]
    assert names(core, singles) == ["b3", "b4", "c2", "c5", "d2", "d5", "e3", "e4"]


# -- winning -------------------------------------------------------------------


def test_black_wins_top_to_bottom_white_left_to_right():
    core = loaded(
        4,
        grid("""
        X O . .
        X O . .
        . X . .
        X O . ."""),
    )
    assert ids(core, "a2")[0] in core.legal_action_list()
    core.apply_action(core.action_from_string("a2"))
    assert core.terminal() and core.returns_list() == [1.0, -1.0]
    core = loaded(
        4,
        grid("""
        X O X O
        X O X O
        O O O .
        X X O X"""),
        to_move=1,
    )
    assert core.legal_action_list() == ids(core, "d2")
    core.apply_action(core.action_from_string("d2"))
    assert core.terminal() and core.returns_list() == [-1.0, 1.0]
    assert core.playout_stats()["winner"] == 1


def test_a_drop_can_win_and_corner_counts_for_both_edges():
    core = loaded(
        3,
        grid("""
        X O O
        X O .
        . X X"""),
        to_move=0,
    )
    assert core.legal_action_list() == ids(core, "a1", "c2")
    core.apply_action(core.action_from_string("a1"))
    assert core.terminal() and core.returns_list() == [1.0, -1.0]


# -- properties against the reference ------------------------------------------


@st.composite
def positions(draw, full=False):
    n = draw(st.integers(3, 6))
    colours = st.sampled_from([BLACK, WHITE]) if full else st.sampled_from([EMPTY, BLACK, WHITE])
    cols = draw(st.lists(colours, min_size=n * n, max_size=n * n))
    return n, cols, draw(st.integers(0, 1))


def try_load(n, cols, to_move):
    if ref_chain(n, cols, BLACK) or ref_chain(n, cols, WHITE):
        return None
    return loaded(n, cols, to_move)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(positions())
def test_legal_moves_match_the_reference(pos):
    n, cols, to_move = pos
    core = try_load(n, cols, to_move)
    if core is None:
        return
    legal = core.legal_action_list()
    assert legal == ref_legal(core, n, cols)
    assert all(core.is_legal_action(a) for a in legal)
    assert not any(core.is_legal_action(a) for a in range(core.num_actions) if a not in legal)
    fast = core.moves_any_order()  # the playout kernel's generator
    assert len(fast) == len(set(fast)) and sorted(fast) == legal
    board = core.board
    for a in legal:
        if a < board.num_sets:  # a drop: only empty points, maximal
            pts = set(board.set_points(a))
            assert all(cols[p] == EMPTY for p in pts)
            assert pts in ref_drops(n, cols)
        else:  # a flip: only in a crosscut
            assert a - board.num_sets in ref_crosscuts(n, cols)


@settings(max_examples=200, deadline=None)
@given(positions(), st.integers(0, 2**32))
def test_moves_change_what_the_rules_say_and_copies_are_independent(pos, pick):
    n, cols, to_move = pos
    core = try_load(n, cols, to_move)
    if core is None or not core.legal_action_list():
        return
    legal = core.legal_action_list()
    action = legal[pick % len(legal)]
    before = (core.cell_colours(), core.position_hash(), core.legal_action_list(), core.player())
    child = core.clone()
    child.apply_action(action)
    assert (core.cell_colours(), core.position_hash(), core.legal_action_list(), core.player()) == before
    mine = BLACK + to_move
    after = child.cell_colours()
    changed = {p for p in range(n * n) if after[p] != cols[p]}
    if action < core.board.num_sets:
        assert changed == set(core.board.set_points(action))
    else:
        assert changed == ref_crosscuts(n, cols)[action - core.board.num_sets][BLACK + WHITE - mine]
    assert all(after[p] == mine for p in changed)
    assert child.same_colour_pairs() >= core.same_colour_pairs()
    won = ref_chain(n, after, mine)
    assert child.terminal() == won
    assert not ref_chain(n, after, BLACK + WHITE - mine)
    # the incremental hash equals the hash of the same position loaded afresh
    if not won:
        fresh = loaded(n, after, 1 - to_move)
        assert fresh.position_hash() == child.position_hash()


@settings(max_examples=300, deadline=None)
@given(positions(full=True))
def test_full_board_without_crosscut_has_exactly_one_chain(pos):
    n, cols, _ = pos
    if ref_crosscuts(n, cols):
        return
    assert ref_chain(n, cols, BLACK) != ref_chain(n, cols, WHITE)


@settings(max_examples=100, deadline=None)
@given(positions(), st.integers(0, 3))
def test_symmetric_hash_is_the_hash_of_the_mirrored_position(pos, s):
    n, cols, to_move = pos
    core = try_load(n, cols, to_move)
    if core is None:
        return
    image = core.board.symmetry_maps()[s]
    mirrored = [0] * (n * n)
    for p in range(n * n):
        mirrored[image[p]] = cols[p]
    other = loaded(n, mirrored, to_move)
    assert core.symmetry_count() == 4
    assert core.position_hash_under(s) == other.position_hash()
    assert core.position_hash_under(0) == core.position_hash()


# -- whole games -----------------------------------------------------------------

VARIANTS = [
    f"flipway(board_size={n},setup={s},pie={p})"
    for n in (3, 4, 5)
    for s in ("empty", "checkered", "checkered_alt", "blocks")
    for p in ("false", "true")
]


@pytest.mark.parametrize(
    "spec",
    VARIANTS
    + [
        "flipway(board_size=6,repetition=draw)",
        "flipway(board_size=5,setup=blocks,pie=true,repetition=draw)",
    ],
)
def test_openspiel_random_sim(spec):
    pyspiel.random_sim_test(pyspiel.load_game(spec), num_sims=15, serialize=True, verbose=False)


@pytest.mark.parametrize(
    "spec",
    [
        "flipway(board_size=9)",
        "flipway(board_size=7,setup=checkered,pie=true)",
        "flipway(board_size=8,setup=blocks)",
    ],
)
def test_random_playouts_end_with_a_winner_within_the_bound(spec):
    game = pyspiel.load_game(spec)
    proto = game.new_core()
    for seed in range(200):
        core = proto.clone()
        core.random_playout(seed)
        stats = core.playout_stats()
        assert core.terminal() and sorted(core.returns_list()) == [-1.0, 1.0]
        assert stats["turns"] <= game.max_game_length()
        assert stats["winner"] in (0, 1)
    assert proto.playout_stats()["turns"] == 0  # the prototype was not touched
    a, b = proto.clone(), proto.clone()
    a.random_playout(7)
    b.random_playout(7)
    assert a.position_hash() == b.position_hash()  # seeded


@pytest.mark.parametrize(
    "spec",
    [
        "flipway(board_size=5,pie=true)",
        "flipway(board_size=6,setup=checkered)",
        "flipway(board_size=6,setup=blocks,pie=true)",
        "flipway(board_size=5,setup=checkered_alt,repetition=draw)",
    ],
)
def test_random_games_follow_the_reference(spec):
    """Along whole random games, every position after the opening turn(s) has
    the reference's legal moves, and the game ends exactly when a chain forms."""
    rng = random.Random(5)
    game = pyspiel.load_game(spec)
    n = game.get_parameters()["board_size"]
    swap = game.num_distinct_actions() - 1 if game.get_parameters()["pie"] else None
    for _ in range(40):
        core = game.new_core()
        while not core.terminal():
            cols = core.cell_colours()
            legal = core.legal_action_list()
            if core.game_phase() == NORMAL:
                assert legal == ref_legal(core, n, cols)
            elif core.game_phase() == PIE:
                assert legal == ref_legal(core, n, cols) + [swap]
            core.apply_action(rng.choice(legal))
        cols = core.cell_colours()
        winner = core.winner_colour()
        assert winner in (0, 1) and ref_chain(n, cols, BLACK + winner)
        assert not ref_chain(n, cols, WHITE - winner)


def test_observation_and_text():
    core = new_core("flipway(board_size=3,pie=true)")
    obs = core.observation()
    assert len(obs) == 3 * 9 + 6
    assert obs[18:27] == [1.0] * 9 and obs[27] == 1.0 and obs[30] == 1.0
    core.apply_action(4)
    text = core.to_string()
    assert "X" in text and "White (player 1) to move, may swap" in text
    assert core.nbytes() > 0


# -- repetition ------------------------------------------------------------------


def ref_neutral_streaks(n):
    """Over every colouring of the full n x n board with either colour to move
    (chains ignored): is there a cycle of neutral flips, and how long is the
    longest streak? Written from the rules page's argument, not from the
    experiment's search: a flip by ``mover`` is neutral when all four outside
    orthogonal neighbours of the two stones it turns hold the enemy colour (a
    stone on the edge has a neighbour off the board, so its flip is never
    neutral). A colouring is a bitmask of Black points."""
    bit = lambda r, c: 1 << (r * n + c)
    flips = []  # (area's bits TL, TR, BL, BR; its diagonals; their outside masks)
    for r in range(n - 1):
        for c in range(n - 1):
            corners = [(r, c), (r, c + 1), (r + 1, c), (r + 1, c + 1)]
            diagonals = [(corners[0], corners[3]), (corners[1], corners[2])]
            outside = []
            for pair in diagonals:
                around = {
                    (pr + dr, pc + dc) for pr, pc in pair for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1))
                } - set(corners)
                on_board = all(0 <= q[0] < n and 0 <= q[1] < n for q in around)
                outside.append(sum(bit(*q) for q in around) if on_board else None)
            flips.append(([bit(*q) for q in corners], [bit(*a) | bit(*b) for a, b in diagonals], outside))
    succ = {}
    for black in range(1 << (n * n)):
        out = {BLACK: [], WHITE: []}
        for (tl, tr, bl, br), pairs, outside in flips:
            main, anti = bool(black & tl), bool(black & tr)
            if main == anti or main != bool(black & br) or anti != bool(black & bl):
                continue  # not a crosscut
            for d in (0, 1):
                if outside[d] is None:
                    continue
                pair_black = main if d == 0 else anti  # colour of the pair turned
                around = black & outside[d]
                if pair_black and around == outside[d]:
                    out[WHITE].append((black ^ pairs[d], BLACK))
                elif not pair_black and around == 0:
                    out[BLACK].append((black ^ pairs[d], WHITE))
        succ[black, BLACK] = out[BLACK]
        succ[black, WHITE] = out[WHITE]
    longest, on_path = {}, set()

    def walk(s):  # longest streak from s; raises on a cycle
        if s in longest:
            return longest[s]
        if s in on_path:
            raise RecursionError("cycle")
        on_path.add(s)
        value = max((1 + walk(t) for t in succ[s]), default=0)
        on_path.discard(s)
        longest[s] = value
        return value

    try:
        return False, max(walk(s) for s in succ)
    except RecursionError:
        return True, None


@pytest.mark.parametrize("n, longest", [(3, 0), (4, 1)])
def test_no_cycle_of_flips_on_small_boards(n, longest):
    """The streak lengths the game-length bound rests on (the 5x5 value is
    the exhaustive search of experiments/flipway_repetition)."""
    cycle, streak = ref_neutral_streaks(n)
    assert not cycle and streak == longest == flipway.PROVEN_NEUTRAL_RUN[n]


def test_length_bound_formula():
    for n in range(3, 20):
        progress = 2 + n * n + 2 * n * (n - 1)
        run = {3: 0, 4: 1, 5: 2}.get(n, n * n)
        assert flipway.length_bound(n) == progress + (progress + 1) * run
        assert pyspiel.load_game(f"flipway(board_size={n})").max_game_length() == flipway.length_bound(n)


def test_neutral_flip_keeps_pairs_and_grows_the_draw_history():
    # Black flips the white pair c4/b3, whose outside neighbours are all white:
    # four white pairs are lost, four black pairs gained.
    cols = grid("""
        . . O . .
        . X O O .
        O O X . .
        . O . . .
        . . . . .""")
    core = new_core("flipway(board_size=5,repetition=draw)")
    core.load(cols, to_move=0)
    assert core.history_length() == 1
    assert core.same_colour_pairs() == 4
    core.apply_action(core.action_from_string("flip b4-c3"))
    assert core.same_colour_pairs() == 4
    assert core.playout_stats()["neutral_flips"] == 1
    assert core.history_length() == 2  # a neutral flip may lead back
    core.apply_action(core.legal_action_list()[0])  # White drops: history restarts
    assert core.history_length() == 1
    assert core.same_colour_pairs() >= 4


@pytest.mark.parametrize(
    "spec",
    ["flipway(board_size=6,repetition=draw)", "flipway(board_size=5,setup=blocks,pie=true,repetition=draw)"],
)
def test_pickled_core_keeps_counters_and_draw_history(spec):
    core = new_core(spec)
    rng = random.Random(5)
    for _ in range(6):
        if core.terminal():
            break
        core.apply_action(rng.choice(core.legal_action_list()))
    copy = pickle.loads(pickle.dumps(core))
    assert copy.playout_stats() == core.playout_stats()
    assert copy.history_length() == core.history_length()
    assert copy.position_key() == core.position_key()
    assert copy.same_colour_pairs() == core.same_colour_pairs()
    core.random_playout(11)
    copy.random_playout(11)
    assert copy.playout_stats() == core.playout_stats()
    assert copy.returns_list() == core.returns_list()
