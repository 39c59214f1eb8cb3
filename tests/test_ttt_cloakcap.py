"""Captures with cloaked spaces (ttt-cloakcap: issue 12 item 3's "visible",
issue 11 item 3's attempts and views, with issue 12's covers), the move
"adjacent-or-knight", and 3P-9X-HideSeek. docs/rules/ttt.md, "Captures with
cloaked spaces", decides what the seed leaves open; every decision is tested
here: against the reference model (tests/ttt_reference/,
ReferenceState) move by move, and on hand-played histories that a
player cannot, or can, tell apart.

Cells are x + X*(y + Y*z) from 0. Placement ids are (k*P + c)*T + t with k
the shape's index in the seed's rank order among the shapes in play."""

import pyspiel
import pytest

import games  # noqa: F401  (registers ttt)
from games.openspiel import core_of
from games.ttt import make_core, rules
from games.ttt.rules import RuleSetError
from ttt_checks import (
    assert_is_legal_agrees_with_legal_actions,
    cells,
    play_against_reference,
    random_sim_test_of,
    views,
)
from ttt_checks import (
    cloaked_rule_set as _rs,
)
from ttt_checks import state_after as state
from ttt_reference import ReferenceState

MUST = {"power": "must-capture", "condition": "cover", "result": "removes"}
CAN = {"power": "can-capture", "condition": "cover", "result": "removes"}
RANK = {"power": "can-capture", "condition": "cover-by-rank", "result": "removes"}


def cases():
    """Small cloaked rule sets with captures, each exercising one part."""
    out = []
    add = lambda name, **kw: out.append(_rs(name, **kw))
    # a must-capture pentagon hunting stationary circles on an all-cloaked board
    add(
        "cc-hunt",
        reserves={"black": {"pentagon": 1}, "white": {"circle": 2}},
        shapes={"pentagon": dict(MUST, move="adjacent"), "circle": {}},
        move_limit=14,
        phases=[{"cloaked": cells(3, 3), "pass": True}],
    )
    # both sides capture; circles without power are captured when they cover a pentagon,
    # and cannot cover each other (an attempt); an open middle column
    add(
        "cc-both",
        board={"kind": "squares", "size": [4, 3, 1]},
        reserves={"black": {"pentagon": 1, "circle": 2}, "white": {"pentagon": 1, "circle": 2}},
        shapes={"pentagon": dict(MUST, move="adjacent"), "circle": {"move": "adjacent-or-knight"}},
        move_limit=24,
        phases=[{"cloaked": [c for c in cells(4, 3) if c[0] in (1, 4)], "pass": True}],
    )
    # cover by rank: equal shapes destroy each other, x over circle, circle over pentagon
    add(
        "cc-rank",
        board={"kind": "squares", "size": [4, 3, 1]},
        reserves={
            "black": {"x": 1, "circle": 1, "pentagon": 1},
            "white": {"x": 1, "circle": 1, "pentagon": 1},
        },
        shapes={
            "x": dict(RANK, move="adjacent"),
            "circle": dict(RANK, move="adjacent"),
            "pentagon": dict(RANK, move="adjacent-or-knight"),
        },
        move_limit=24,
        phases=[{"cloaked": cells(4, 3), "pass": True}],
    )
    # three players, placement then movement with other cloaked spaces
    add(
        "cc-three",
        players="3",
        board={"kind": "squares", "size": [4, 4, 1]},
        reserves={"black": {"pentagon": 1, "circle": 1}, "white": {"circle": 2}, "pink": {"pentagon": 1}},
        shapes={"pentagon": dict(MUST, move="adjacent"), "circle": {"move": "adjacent-or-knight"}},
        move_limit=24,
        stalemate="most-circles-wins",
        phases=[
            {"movement": "placement-only", "cloaked": [c for c in cells(4, 4) if c[1] <= 2]},
            {"pass": True, "cloaked": [c for c in cells(4, 4) if c[0] <= 2]},
        ],
    )
    # Chaos with a pre-placed must-capture pentagon in an open ring, players hidden inside
    add(
        "cc-chaos",
        players="2-vs-chaos",
        board={
            "kind": "squares",
            "size": [4, 4, 1],
            "pieces": [{"at": [1, 1, 1], "colour": "pink", "shape": "pentagon"}],
        },
        reserves={"black": {"circle": 2}, "white": {"circle": 1, "pentagon": 1}},
        shapes={"pentagon": dict(MUST, move="adjacent"), "circle": {"move": "adjacent-or-knight"}},
        move_limit=20,
        phases=[{"pass": True, "cloaked": [[x, y, 1] for x in (2, 3) for y in (2, 3)]}],
    )
    # can capture (no forcing), a knight move onto a hidden piece
    add(
        "cc-can",
        board={"kind": "squares", "size": [3, 4, 1]},
        reserves={"black": {"star": 1, "circle": 1}, "white": {"circle": 2}},
        shapes={"star": dict(CAN, move="adjacent-or-knight"), "circle": {"move": "adjacent"}},
        move_limit=20,
        phases=[{"pass": True, "cloaked": cells(3, 4)}],
    )
    return out


CASES = cases()


def _views_match(core, ref):
    for p in range(core.num_players):
        assert core.player_view(p) == ref.view(p), (p, core.to_string())
        assert core.player_shape_view(p) == ref.shape_view(p), (p, core.to_string())


@pytest.mark.parametrize("rs", CASES, ids=lambda r: r.name)
def test_engine_matches_reference(rs):
    play_against_reference(rs, games=25, seed=7, ref_class=ReferenceState, check=_views_match)


@pytest.mark.slow
@pytest.mark.parametrize("rs", CASES, ids=lambda r: r.name)
def test_engine_matches_reference_long(rs):
    play_against_reference(rs, games=300, seed=11, ref_class=ReferenceState, check=_views_match)


@pytest.mark.parametrize("rs", CASES, ids=lambda r: r.name)
def test_random_sim_test(rs, tmp_path):
    random_sim_test_of(rs, tmp_path)


@pytest.mark.parametrize("rs", CASES[:3], ids=lambda r: r.name)
def test_is_legal_agrees_with_legal_actions(rs):
    assert_is_legal_agrees_with_legal_actions(rs, games=3)


# -- what each player knows: histories it cannot, or can, tell apart ------------

HUNT = CASES[0]  # 3x3, all cloaked; circle placements t, pentagon 9 + t
HUNT_OPEN_ROW = _rs(
    "cc-hunt-open-row",
    reserves={"black": {"pentagon": 1}, "white": {"circle": 2}},
    shapes={"pentagon": dict(MUST, move="adjacent"), "circle": {}},
    move_limit=14,
    phases=[{"cloaked": [c for c in cells(3, 3) if c[1] >= 2], "pass": True}],
)
THREE = _rs(
    "cc-three-hand",
    players="3",
    reserves={"black": {"pentagon": 1}, "white": {"circle": 1}, "pink": {"circle": 1}},
    shapes={"pentagon": dict(MUST, move="adjacent"), "circle": {}},
    move_limit=14,
    phases=[{"cloaked": cells(3, 3), "pass": True}],
)
MOVE0, PASS = 18, 99  # on 3x3 with circle and pentagon: moves 18 + f*9 + u, then the pass


def assert_all_differ(a, b):
    for x, y in zip(a, b):
        assert x != y


def assert_info_differs(a, b):
    """Information states (string, tensor, key) differ; the observation may not."""
    assert a[0] != b[0] and a[1] != b[1] and a[4] != b[4]


def test_an_invisible_capture_does_not_force():
    # black's pentagon on (1,1); white's circle beside it on (2,1) or far away on (3,3):
    # black sees neither, so both histories look the same and allow the same actions,
    # non-captures and the pass included, although in truth a capture exists in the first
    near, far = state(HUNT, 9, 1), state(HUNT, 9, 8)
    assert views(near, 0) == views(far, 0)
    assert near.legal_actions() == far.legal_actions() == [MOVE0 + 1, MOVE0 + 3, MOVE0 + 4, PASS]
    assert_all_differ(views(near, 1), views(far, 1))  # white placed them: it can tell


def test_a_visible_capture_forces():
    # (2,1) is open in this rule set: black sees the circle there, must capture, may not pass
    seen, hidden = state(HUNT_OPEN_ROW, 9, 1), state(HUNT_OPEN_ROW, 9, 4)
    assert seen.legal_actions() == [MOVE0 + 1]
    assert hidden.legal_actions() == [MOVE0 + 1, MOVE0 + 3, MOVE0 + 4, PASS]


def test_moving_onto_a_hidden_piece_that_can_be_covered_captures_it():
    s = state(HUNT, 9, 1, MOVE0 + 1)  # black's pentagon moves onto white's hidden circle
    assert core_of(s).cells()[1] == 1 and core_of(s).cells()[0] == 0
    assert "capturing the piece there" in s.information_state_string(0)
    assert "the piece player 1 saw on (2,1,1) is gone" in s.information_state_string(1)
    plain = state(HUNT, 9, 8, MOVE0 + 1)  # the same move onto an empty space
    assert "capturing" not in plain.information_state_string(0)
    assert_info_differs(views(s, 0), views(plain, 0))  # the pentagon stands on (2,1) in both
    assert_all_differ(views(s, 1), views(plain, 1))


def test_a_piece_without_power_covering_a_hidden_pentagon_is_captured_and_reveals_it():
    # white places a circle on the space that looks empty but holds black's pentagon:
    # the cover is legal in truth ("become captured by covering a higher-ranked piece"),
    # so it happens; white "attempted to cover" the pentagon and now sees it
    s = state(HUNT, 9, 0)
    core = core_of(s)
    assert core.cells()[0] == 1 and core.reserves()["white"] == 1
    assert core.player_view(1)[0] == "x"
    assert "and was captured there" in s.information_state_string(1)
    # black sees its pentagon stay and nothing of the attacker: the same as a hidden placement
    elsewhere = state(HUNT, 9, 5)
    assert views(s, 0) == views(elsewhere, 0)
    assert_all_differ(views(s, 1), views(elsewhere, 1))


def test_a_third_player_cannot_tell_a_hidden_capture_from_a_hidden_move():
    captured, moved = state(THREE, 9, 1, 8, MOVE0 + 1), state(THREE, 9, 1, 8, MOVE0 + 3)
    assert views(captured, 2) == views(moved, 2)  # pink saw neither piece
    assert_all_differ(views(captured, 1), views(moved, 1))  # white saw its circle go
    assert_all_differ(views(captured, 0), views(moved, 0))  # black knows it captured (and where it stands)


@pytest.mark.parametrize("rs", CASES, ids=lambda r: r.name)
def test_views_partition_histories_consistently(rs):
    """Within each player's information sets: one tensor, one key, one
    observation, the same legal actions when it moves, and the same past (its
    observation after every event: perfect recall); across them, different
    tensors and keys."""
    import random

    nodes = []
    for seed in range(12):
        rng, s, history = random.Random(seed), state(rs), []
        while True:
            nodes.append((tuple(history), s.clone()))
            if s.is_terminal():
                break
            a = rng.choice([a for a, _ in s.chance_outcomes()] if s.is_chance_node() else s.legal_actions())
            history.append(a)
            s.apply_action(a)
    for p in range(nodes[0][1].num_players()):
        groups = {}
        for history, s in nodes:
            legal = tuple(s.legal_actions()) if s.current_player() == p else None
            t = state(rs)
            past = []
            for a in history:
                past.append(t.observation_string(p))
                t.apply_action(a)
            groups.setdefault(s.information_state_string(p), set()).add(
                (
                    tuple(s.information_state_tensor(p)),
                    core_of(s).info_state_key(p),
                    s.observation_string(p),
                    legal,
                    tuple(past),
                )
            )
        for info, members in groups.items():
            assert len(members) == 1, (rs.name, p, info)
        tensors = [next(iter(m))[0] for m in groups.values()]
        assert len(set(tensors)) == len(tensors)


# -- validation: what stays refused, every problem at once ------------------------


def test_validation_refuses_what_is_not_played_yet():
    with pytest.raises(RuleSetError) as e:
        rules.parse(
            {
                "name": "bad",
                "board": {"kind": "stacks", "size": [3, 1, 3]},
                "cloaking": "obscures",
                "reserves": {"black": {"x": 2}, "white": {"x": 2}},
                "move_limit": 10,
                "shapes": {"x": {"power": "can-capture", "condition": "cover", "result": "reincarnates"}},
                "phases": [{"cloaked": [[1, 1, 1]], "order": "simultaneous"}],
            }
        )
    text = str(e.value)
    assert "cloaking 'obscures'" not in text  # played since ttt-cloakcap2
    assert "board.kind: captures with cloaked spaces are not supported on stacks yet" in text
    assert "'reincarnates' with cloaked spaces" not in text  # played since ttt-cloakcap2
    assert "captures with cloaked spaces are not supported with a simultaneous or single phase yet" in text
    for rs in CASES:  # and what is played parses
        assert rs.record["cloaking"] == "hides"


# -- the move "adjacent-or-knight" ------------------------------------------------

KNIGHTS = _rs(
    "aok-5x5",
    board={"kind": "squares", "size": [5, 5, 1]},
    cloaking="none",
    reserves={"black": {"circle": 2}, "white": {"circle": 2}},
    shapes={"circle": {"move": "adjacent-or-knight"}},
    move_limit=30,
    turn_checks=["first-3-wins"],
)


def test_adjacent_or_knight_is_the_union_of_the_two_moves():
    from games.ttt.schema import MOVES_NOW

    assert "adjacent-or-knight" in MOVES_NOW
    core = make_core(KNIGHTS)
    T = 25
    core.apply_action(12)  # black on the centre
    core.apply_action(0)  # white in a corner
    core.apply_action(24)
    core.apply_action(4)  # both have no circle left: moves
    moves = {a - T for a in core.legal_action_list() if T <= a < T + T * T}  # one shape: moves from T
    centre = sorted(u for f, u in (divmod(m, T) for m in moves) if f == 12)
    around = {12 + dx + 5 * dy for dx in (-1, 0, 1) for dy in (-1, 0, 1) if (dx, dy) != (0, 0)}
    jumps = {
        12 + dx + 5 * dy
        for dx, dy in ((1, 2), (2, 1), (-1, 2), (-2, 1), (1, -2), (2, -1), (-1, -2), (-2, -1))
    }
    assert centre == sorted(around | jumps)  # 8 steps and 8 jumps, all free
    corner = sorted(u for f, u in (divmod(m, T) for m in moves) if f == 24)
    assert corner == sorted({18, 19, 23} | {13, 17})  # from (5,5): 3 steps, 2 jumps (none occupied)


def test_adjacent_or_knight_matches_reference():
    play_against_reference(KNIGHTS, games=20, seed=3, ref_class=ReferenceState)


def test_the_factory_offers_the_move():
    from webapp.factory_form import choices, option_label

    assert "adjacent-or-knight" in choices()["moves"]
    assert option_label("move", "adjacent-or-knight") == "Moves adjacent or knight"


# -- 3P-9X-HideSeek (issue 13): in the catalogue, against the reference, and what it encodes


def hide_seek():
    return rules.resolve("3P-9X-HideSeek")


def test_hide_seek_matches_reference():
    play_against_reference(hide_seek(), games=6, seed=5, ref_class=ReferenceState, check=_views_match)


@pytest.mark.slow
def test_hide_seek_matches_reference_long():
    play_against_reference(hide_seek(), games=60, seed=9, ref_class=ReferenceState, check=_views_match)


def test_hide_seek_random_sim_test():
    pyspiel.random_sim_test(
        pyspiel.load_game("ttt(rules=3P-9X-HideSeek)"), num_sims=3, serialize=True, verbose=False
    )


def test_hide_seek_is_a_dilemma_the_study_can_load():
    from games.ttt.dilemmas import available

    assert "3P-9X-HideSeek" in [d.name for d in available()]
    game = pyspiel.load_game("ttt(rules=3P-9X-HideSeek)")
    assert game.get_type().information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert game.num_players() == 3


def test_hide_seek_finding_pink_always_has_most_circles():
    """Under the catalogue's reading pink starts with 18 circles in the ring
    (the seed's "pink circles in all remaining non-locked chaos-exclusive
    spaces"; pink is the third player's colour, Chaos is yellow), nobody but
    Chaos's pentagon can take them, and Chaos moves at most once in four of
    the 30 plies (8 times): pink keeps at least 10 circles against black's
    and white's one each, so "Most circles wins" gives pink the win in every play
    (docs/rules/dilemmas.md, 3P-9X-HideSeek). The goals (y=7, x=1, y=1) lie
    in Chaos's exclusive spaces, where no player's piece may go, so "Statemate
    if goal is reached" never fires."""
    import random

    rs = hide_seek()
    r = rs.record
    assert sum(1 for q in r["board"]["pieces"] if q["colour"] == "pink" and q["shape"] == "circle") == 18
    assert r["move_limit"] == 30
    rng = random.Random(4)
    for _ in range(40):
        core = make_core(rs)
        while not core.terminal():
            acts = (
                [a for a, _ in core.chance_outcome_list()]
                if core.player() == -1
                else core.legal_action_list()
            )
            core.apply_action(rng.choice(acts))
        assert core.returns_list() == [-1.0, -1.0, 1.0]
    nine = next(g for g in r["board"]["exclusive"] if g["players"] == [1, 2, 3])["at"]
    core = make_core(rs)
    for seat in range(3):
        assert all(core.goal_distance(seat, (x - 1) + 5 * (y - 1)) > 0 for x, y, _ in nine)


# -- replacement shapes with cloaked spaces (a move reaching the goal names the
# shape its piece becomes) ----------------------------------------------------------


def goal_cases():
    out = []
    add = lambda name, **kw: out.append(_rs(name, **kw))
    fwd = {"move": "forward-orthogonal"}
    add(
        "cc-goal-hides",
        board={"kind": "squares", "size": [3, 4, 1]},
        reserves={"black": {"triangle": 2}, "white": {"triangle": 2}},
        shapes={"triangle": fwd, "pentagon": {"move": "adjacent"}, "star": {"move": "adjacent-or-knight"}},
        move_limit=30,
        phases=[{"pass": True, "cloaked": [c for c in cells(3, 4) if c[1] in (1, 2, 4)]}],
    )
    add(
        "cc-goal-obscures",
        board={"kind": "squares", "size": [3, 4, 1]},
        cloaking="obscures",
        reserves={"black": {"triangle": 2}, "white": {"triangle": 2}},
        shapes={"triangle": fwd, "pentagon": {"move": "adjacent"}, "star": {"move": "adjacent-or-knight"}},
        move_limit=30,
        phases=[{"pass": True, "cloaked": cells(3, 4)}],
    )
    add(
        "cc-goal-captures",
        board={"kind": "squares", "size": [3, 4, 1]},
        reserves={"black": {"triangle": 2, "pentagon": 1}, "white": {"triangle": 2, "pentagon": 1}},
        shapes={"triangle": dict(CAN, move="forward-orthogonal"), "pentagon": dict(MUST, move="adjacent")},
        move_limit=30,
        phases=[{"pass": True, "cloaked": cells(3, 4)}],
    )
    add(
        "cc-goal-no-back",
        board={"kind": "squares", "size": [4, 4, 1]},
        reserves={"black": {"cross": 2}, "white": {"cross": 2}},
        shapes={
            "cross": {"move": "linear", "cannot_move_backwards": True},
            "circle": {"move": "knight-2x1x0"},
        },
        move_limit=30,
        phases=[{"pass": True, "cloaked": [c for c in cells(4, 4) if c[0] >= 2]}],
    )
    return out


GOAL_CASES = goal_cases()


@pytest.mark.parametrize("rs", GOAL_CASES, ids=lambda r: r.name)
def test_replacements_match_reference(rs):
    played = play_against_reference(rs, games=40, seed=13, ref_class=ReferenceState, check=_views_match)
    core = make_core(rs)
    assert any("becomes" in core.action_string(0, a) for a in played)  # replacements were played


@pytest.mark.parametrize("rs", GOAL_CASES, ids=lambda r: r.name)
def test_replacements_random_sim_test(rs, tmp_path):
    random_sim_test_of(rs, tmp_path)


@pytest.mark.parametrize("rs", GOAL_CASES, ids=lambda r: r.name)
def test_replacements_views_partition_histories_consistently(rs):
    test_views_partition_histories_consistently(rs)


def test_obscurity_hides_the_shape_a_piece_becomes():
    # 3x4, shapes in rank order: triangle (k 0), star (k 1), pentagon (k 2); T 12;
    # placements (k*1 + 0)*12 + t, moves 36 + f*12 + u, replacement moves
    # 36 + 144 + (r*12 + f)*12 + u with replacers star (r 0), pentagon (r 1)
    rs = GOAL_CASES[1]
    T, MOVES, REP = 12, 36, 36 + 144
    # black triangles on (1,3) and (3,1)... white's on (3,2) and (2,1): then black moves (1,3) -> (1,4)
    start = [0 * T + 6, 0 * T + 4, 0 * T + 2, 0 * T + 1]
    as_star = state(rs, *start, REP + (0 * T + 6) * T + 9)
    as_pentagon = state(rs, *start, REP + (1 * T + 6) * T + 9)
    assert core_of(as_star).player_shape_view(1)[9] == "?"
    assert views(as_star, 1) == views(as_pentagon, 1)  # white sees the move, not the shape
    assert "(1,3,1)->(1,4,1) (shape not seen)" in as_star.information_state_string(1)
    assert_info_differs(views(as_star, 0), views(as_pentagon, 0))  # black chose


def test_hide_seek_follows_the_seed_paragraph():
    """The seed's 3P-9X-HideSeek sentence by sentence (slips 3, 4, 8, 15 are
    pinned in test_ttt_dilemma_rules.py), and slip 17: move_limit 30 is ours."""
    r = hide_seek().record
    assert r["players"] == "3-vs-chaos" and r["cloaking"] == "hides" and r["move_limit"] == 30
    assert r["stalemate"] == "most-circles-wins"
    nine = {(x, y) for x in (3, 4, 5) for y in (3, 4, 5)}
    groups = {tuple(g["players"]): {tuple(c[:2]) for c in g["at"]} for g in r["board"]["exclusive"]}
    assert groups[(1, 2, 3)] == nine
    assert groups[("chaos",)] == {(x, y) for x in range(1, 6) for y in range(1, 8)} - nine
    locked = {(1, 4), (2, 2), (2, 6), (4, 1), (4, 7), (5, 1), (5, 7)}
    pieces = {tuple(q["at"][:2]): (q["colour"], q["shape"]) for q in r["board"]["pieces"]}
    assert pieces.pop((4, 6)) == ("yellow", "pentagon")
    assert set(pieces) == groups[("chaos",)] - locked - {(4, 6)}  # "all remaining non-locked"
    assert set(pieces.values()) == {("pink", "circle")}
    assert r["shapes"]["circle"]["move"] == "adjacent-or-knight"
    assert {k: r["shapes"]["pentagon"][k] for k in ("move", "power", "condition", "result")} == {
        "move": "adjacent",
        "power": "must-capture",
        "condition": "cover",
        "result": "removes",
    }
    assert r["reserves"] == {"black": {"circle": 1}, "white": {"circle": 1}, "pink": {"pentagon": 1}}
    p1, p2 = r["phases"]
    assert p1["movement"] == "placement-only" and not p1["pass"]
    assert p2["movement"] == "allowed" and p2["pass"]
    for ph in (p1, p2):
        assert {tuple(c[:2]) for c in ph["locked"]} == locked
        assert {tuple(c[:2]) for c in ph["cloaked"]} == nine  # "non-chaos-exclusive spots"
