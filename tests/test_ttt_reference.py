"""The Cython engine against the direct Python model (tests/ttt_reference/),
move by move over random games: same player to move, same legal actions (or
chance outcomes), same returns. Covers the rules no OpenSpiel game has:
movement, gravity with movement, Chaos, partners, passes, agreed draws,
two pieces a turn, locked spaces, colour choice and every stalemate rule."""

import pytest

from games.ttt import rules
from ttt_checks import assert_is_legal_agrees_with_legal_actions, parsed_or_rejected
from ttt_checks import play_against_reference as shared_play
from ttt_reference import ReferenceState

SMALL_CATALOGUE = [
    "Tic-Tac-Toe",
    "3on15line",
    "Treblecross15",
    "3P-Misere-Notakto",
    "3P-Notakto",
    "Tapatan",
    "Achi",
    "9-Holes",
    "Connect4",
    "3P-MostWins-3x4",
    "3P-LeastLoses-3x4",
    "Wild-TTT-6sq3143",
    "4on7sq",
]


def synthetic():
    """Rule sets that exercise combinations the catalogue leaves out."""
    base = {"board": {"kind": "squares", "size": [3, 3, 1]}, "reserves": {"black": 5, "white": 4}}
    out = []

    def add(name, **kw):
        rec = dict(base, name=name)
        rec.update(kw)
        out.append(rules.parse(rec))

    add("chaos2", players="2-vs-chaos", reserves={"black": 3, "white": 3, "pink": 3})
    add(
        "chaos3-stalemate-most",
        players="3-vs-chaos",
        board={"kind": "squares", "size": [4, 3, 1]},
        reserves={"black": 3, "white": 3, "pink": 3, "yellow": 3},
        turn_checks=["first-4-wins"],
        stalemate="most-in-a-row-wins",
    )
    add(
        "partners",
        players="partners",
        colours="partners-share",
        board={"kind": "squares", "size": [4, 4, 1]},
        reserves={"black": 8, "white": 8},
        turn_checks=["first-4-wins"],
        stalemate="most-pieces-wins",
    )
    add(
        "partners-assigned",
        players="partners",
        board={"kind": "squares", "size": [4, 4, 1]},
        reserves={"black": 4, "white": 4, "pink": 4, "yellow": 4},
        stalemate="least-in-a-row-loses",
    )
    add(
        "pass-draw",
        reserves={"black": 4, "white": 4},
        phases=[{"pass": True}],
        agree_draw=True,
        stalemate="all-win",
    )
    add(
        "alquerque-5x5",
        board={"kind": "squares", "size": [5, 5, 1]},
        reserves={"black": 4, "white": 4},
        shapes={"circle": {"move": "adjacent-alquerque"}},
        turn_checks=["first-4-wins"],
        move_limit=40,
    )
    add(
        "orthogonal-stacks",
        board={"kind": "stacks", "size": [3, 3, 2]},
        reserves={"black": 5, "white": 5},
        shapes={"circle": {"move": "adjacent-orthogonal"}},
        move_limit=40,
    )
    add(
        "two-per-turn-3d",
        board={"kind": "squares", "size": [3, 3, 3]},
        reserves={"black": 14, "white": 13},
        pieces_per_turn=2,
        turn_checks=["first-3-loses-no-diagonal", "first-3-wins"],
    )
    add(
        "stacks-move",
        board={
            "kind": "stacks",
            "size": [4, 1, 3],
            "locked": [[2, 1, 1]],
            "pieces": [{"at": [1, 1, 1], "colour": "white"}],
        },
        reserves={"black": 3, "white": 2},
        shapes={"circle": {"move": "adjacent"}},
        move_limit=30,
        stalemate="all-lose",
    )
    add(
        "stacks-knight-2d",
        board={"kind": "stacks", "size": [3, 3, 2]},
        reserves={"black": 3, "white": 3},
        shapes={"circle": {"move": "linear-or-knight"}},
        move_limit=25,
        turn_checks=["all-lose-if-any-3"],
    )
    add(
        "choose-3d-move",
        board={"kind": "squares", "size": [2, 2, 2]},
        colours="players-choose",
        reserves={"black": 2, "pink": 2},
        shapes={"circle": {"move": "linear-or-knight"}},
        move_limit=20,
        turn_checks=["first-2-wins-no-diagonal"],
        agree_draw=True,
    )
    add(
        "shared-move-pass",
        colours="shared",
        reserves={"black": 5},
        shapes={"circle": {"move": "adjacent"}},
        move_limit=40,
        phases=[{"pass": True}],
        turn_checks=["first-3-loses"],
    )
    add(
        "chaos-draw-move",
        players="2-vs-chaos",
        reserves={"black": 2, "white": 2, "pink": 2},
        shapes={"circle": {"move": "adjacent"}},
        move_limit=30,
        agree_draw=True,
        stalemate="most-pieces-wins",
    )
    add("no-checks", turn_checks=[], stalemate="most-in-a-row-wins")
    # phases: locked players, per-phase locks, placement only, folds, stalemate advancing
    add(
        "phases-fold",
        players="3",
        reserves={"black": 3, "white": 3, "pink": 3},
        turn_checks=[],
        stalemate="most-pieces-wins",
        phases=[
            {"pass": True, "fold": "less-than-most-committed"},
            {"pass": True, "locked": [[1, 1, 1], [2, 2, 1], [3, 3, 1]], "fold": "less-than-most-committed"},
            {"pass": True},
        ],
    )
    add(
        "phases-chaos-turns",
        players="2-vs-chaos",
        reserves={"black": 3, "white": 3, "pink": 3},
        phases=[
            {"pass": True, "locked_players": ["chaos"]},
            {"locked_players": [1, 2], "pass": True},
            {"locked_players": [2]},
        ],
        stalemate="most-in-a-row-wins",
    )
    add(
        "phases-movement",
        reserves={"black": 3, "white": 3},
        shapes={"circle": {"move": "adjacent"}},
        move_limit=30,
        phases=[
            {"movement": "placement-only"},
            {"pass": True, "locked": [[2, 2, 1]], "locked_players": [2]},
            {"locked": [[1, 1, 1], [3, 3, 1]]},
        ],
        stalemate="all-win",
    )
    add(
        "phases-stacks",
        board={"kind": "stacks", "size": [3, 1, 3]},
        reserves={"black": 4, "white": 4},
        shapes={"circle": {"move": "adjacent"}},
        move_limit=25,
        turn_checks=["first-3-wins-no-diagonal"],
        phases=[
            {"locked": [[2, 1, 2]], "fold": "less-than-most-committed"},
            {"pass": True, "locked": [[1, 1, 1], [3, 1, 2]]},
        ],
    )
    add(
        "phases-no-pass",
        board={"kind": "squares", "size": [4, 1, 1]},
        players="3",
        reserves={"black": 1, "white": 2, "pink": 1},
        turn_checks=[],
        phases=[{"locked": [[1, 1, 1], [2, 1, 1]]}, {"locked_players": [1]}, {}, {}, {}, {}],
        stalemate="least-in-a-row-loses",
    )
    return out


def _cases():
    cat = rules.catalogue()
    return [cat[n] for n in SMALL_CATALOGUE] + synthetic()


def play_against_reference(rs, games, seed):
    shared_play(rs, games, seed, ReferenceState)


@pytest.mark.parametrize("rs", _cases(), ids=lambda rs: rs.name)
def test_engine_matches_reference(rs):
    play_against_reference(rs, games=60, seed=hash(rs.name) % 1000)


@pytest.mark.slow
@pytest.mark.parametrize("rs", _cases(), ids=lambda rs: rs.name)
def test_engine_matches_reference_long(rs):
    play_against_reference(rs, games=1500, seed=7)


@pytest.mark.parametrize("rs", _cases(), ids=lambda rs: rs.name)
def test_is_legal_agrees_with_legal_actions(rs):
    assert_is_legal_agrees_with_legal_actions(rs, games=20, seed=3)


# -- random rule sets ---------------------------------------------------------
from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st

from games.ttt.rules import PALETTE, STALEMATES, TURN_CHECKS, seats_of  # noqa: E402


@st.composite
def phase_records(draw, cells, n, chaos):
    seats = list(range(1, n + 1)) + (["chaos"] if chaos else [])
    return {
        "pass": draw(st.booleans()),
        "movement": draw(st.sampled_from(["allowed", "placement-only"])),
        "locked_players": draw(st.lists(st.sampled_from(seats), max_size=len(seats) - 1, unique=True)),
        "locked": draw(st.lists(st.sampled_from(cells), max_size=2, unique_by=tuple)),
        "fold": draw(st.sampled_from(["none", "less-than-most-committed"])),
    }


@st.composite
def rule_records(draw):
    kind = draw(st.sampled_from(["squares", "stacks", "vertices"]))
    dims = [draw(st.integers(1, 4)), draw(st.integers(1, 3)), draw(st.integers(1, 3))]
    if kind == "stacks":
        dims[2] = draw(st.integers(2, 4))
    players = draw(st.sampled_from(["2", "3", "4", "partners", "2-vs-chaos", "3-vs-chaos"]))
    colours = draw(
        st.sampled_from(
            ["assigned", "shared", "players-choose"] + (["partners-share"] if players == "partners" else [])
        )
    )
    n, chaos = seats_of(players)
    in_play = {
        "assigned": PALETTE[: n + chaos],
        "shared": PALETTE[:1],
        "partners-share": PALETTE[:2],
        "players-choose": PALETTE[: draw(st.integers(1, 3))],
    }[colours]
    spaces = dims[0] * dims[1] * dims[2]
    reserves = {c: draw(st.integers(1, max(1, spaces // 2))) for c in in_play}
    cells = [
        [x, y, z] for x in range(1, dims[0] + 1) for y in range(1, dims[1] + 1) for z in range(1, dims[2] + 1)
    ]
    locked = draw(st.lists(st.sampled_from(cells), max_size=2, unique_by=tuple))
    move = draw(
        st.sampled_from(
            ["stationary", "adjacent", "adjacent-orthogonal", "adjacent-alquerque", "linear-or-knight"]
        )
    )
    rec = {
        "name": "H",
        "board": {"kind": kind, "size": dims, "locked": locked},
        "players": players,
        "colours": colours,
        "reserves": reserves,
        "shapes": {"circle": {"move": move}},
        "pieces_per_turn": draw(st.sampled_from([1, 2])),
        "agree_draw": draw(st.booleans()),
        "turn_checks": draw(st.lists(st.sampled_from(TURN_CHECKS), max_size=2, unique=True)),
        "stalemate": draw(st.sampled_from(STALEMATES)),
        "phases": draw(st.lists(phase_records(cells, n, chaos), min_size=1, max_size=3)),
    }
    rec["phases"][-1]["fold"] = "none"
    if move != "stationary":
        rec["move_limit"] = draw(st.integers(1, 30))
    return rec


@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
@given(rule_records(), st.integers(0, 10**6))
def test_random_rule_sets_match_reference(rec, seed):
    rs = parsed_or_rejected(rec)
    play_against_reference(rs, games=4, seed=seed)
