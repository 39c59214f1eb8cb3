"""The list of seed 004's dilemmas (games/ttt/dilemmas.py) against the seed
and the catalogue."""

import re
from pathlib import Path

from games.ttt import dilemmas, make_core, rules
from ttt_checks import play, play_against_reference

SEED = next((Path(__file__).resolve().parents[2] / "shared" / "seeds").glob("004_*.txt"), None)


def test_every_dilemma_names_a_known_economic_game_once():
    names = [d.name for d in dilemmas.DILEMMAS]
    assert len(names) == len(set(names)) == 26
    assert {d.encodes for d in dilemmas.DILEMMAS} <= set(dilemmas.ECONOMIC_GAMES)


def test_available_are_catalogue_rule_sets_in_the_seed_order():
    from games.ttt.resolve import CATALOGUE

    got = [d.name for d in dilemmas.available()]
    assert all(name in CATALOGUE for name in got)
    assert got == [d.name for d in dilemmas.DILEMMAS if d.name in got]


def test_the_names_are_the_seeds():
    if SEED is None:  # the seeds live beside the project, not in it
        import pytest

        pytest.skip("seed 004 not beside the project")
    listed = re.search(r"RockPaperScissors,.*?StagHunt\.", SEED.read_text(), re.S).group(0)
    listed_names = [re.sub(r"^and\s+", "", n.strip(" .\n")) for n in re.split(r",\s*", listed)]
    ours = {d.name for d in dilemmas.DILEMMAS}
    assert set(listed_names) <= ours
    # every other one is a paragraph "NAME:" of the seed, except the unnamed one
    headings = set(re.findall(r"^([\w-]+):\s*$", SEED.read_text(), re.M))
    assert ours - set(listed_names) - headings == {"4P-AnyPieceLoses"}


BLOTTO13 = {
    "name": "3Blotto13-test",
    "notes": "Played on 3 boards of 2x1x13 stacks: first stack exclusive to black, second stack exclusive to "
    "white; Most pieces wins, Cloaking hides; Circle: 13 black and 13 white start in reserve; "
    "All spaces cloaked",
    "boards": 3,
    "board": {
        "kind": "stacks",
        "size": [2, 1, 13],
        "exclusive": [{"at": [[1, 1]], "players": [1]}, {"at": [[2, 1]], "players": [2]}],
    },
    "reserves": {"black": 13, "white": 13},
    "turn_checks": [],
    "stalemate": "most-pieces-wins",
    "cloaking": "hides",
    "phases": [{"cloaked": [[x, 1, z] for x in (1, 2) for z in range(1, 14)]}],
}


def test_3blotto13_plays_colonel_blotto_against_the_reference():
    """3Blotto13 as the tic-tac-toe variations specification words it: each player spreads 13 hidden pieces
    over its own stack on three boards; each board goes to the larger force
    ("Most pieces wins" per board) and the most boards win. Every cell of
    every board is cloaked, so neither player sees the other's allocation."""
    rs = rules.parse(BLOTTO13)
    c = make_core(rs)
    assert len(c.cloaked_cells()) == 3 * 2 * 13
    play_against_reference(rs, games=4, seed=13)
    # black 7-3-3 against white 5-5-3: black wins board 1, white board 2,
    # board 3 is drawn; one board each is a draw
    plan_black, plan_white = [0] * 7 + [2] * 3 + [4] * 3, [1] * 5 + [3] * 5 + [5] * 3
    c = make_core(rs)
    for b, w in zip(plan_black, plan_white, strict=True):
        play(c, [b, w])
    assert c.terminal() and c.board_results() == [[1, -1], [-1, 1], [0, 0]]
    assert c.returns_list() == [0.0, 0.0]
    assert c.player_view(1)[:2] == [".", "o"]  # white never saw black's pieces
