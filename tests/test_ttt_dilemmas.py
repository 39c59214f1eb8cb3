"""The list of seed 004's dilemmas (games/ttt/dilemmas.py) against the seed
and the catalogue."""

import re
from pathlib import Path

from games.ttt import dilemmas

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
