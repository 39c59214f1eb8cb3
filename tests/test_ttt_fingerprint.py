"""The tic-tac-toe engine plays, shows and hashes every catalogue, example and feature
rule set exactly as the stored fingerprints say (tests/ttt_fingerprint.py: seeded
random playouts through the core's public faces, one SHA-256 per rule set).

A failure means the engine's behaviour changed. When the change is intended (a rule
change), regenerate the fingerprints deliberately and commit them with it:

    PYTHONPATH=. python tests/ttt_fingerprint.py --write
"""

import pytest

import tiers
import ttt_fingerprint


def _tier() -> str:
    return tiers.sweep(full="full", quick="quick")


@pytest.mark.parametrize("name", ttt_fingerprint.rule_set_names())
def test_engine_plays_as_fingerprinted(name):
    entry = ttt_fingerprint.stored()[_tier()]
    assert entry["playouts"] == ttt_fingerprint.PLAYOUTS[_tier()], "stored with another playout count"
    assert name in entry["fingerprints"], f"no stored fingerprint for {name}: regenerate (module docstring)"
    assert ttt_fingerprint.fingerprint(name, entry["playouts"]) == entry["fingerprints"][name]


def test_fingerprint_reads_the_play():
    """The fold is deterministic, and a rule change that changes how the same seeded
    games end (three in a row losing instead of winning) changes it."""
    from games.ttt import resolve, rules

    name = "catalogue/Tic-Tac-Toe.json"
    plain = ttt_fingerprint.fingerprint(name, 2)
    assert plain == ttt_fingerprint.fingerprint(name, 2)
    rec = resolve("Tic-Tac-Toe").to_json()
    rec["turn_checks"] = ["first-3-loses"]
    assert ttt_fingerprint.fingerprint(name, 2, rules.parse(rec)) != plain
