"""Average policies on disk: one JSON document per solve.

Format (``"format": "flipgames-cfr-policy/1"``)::

    {"format": "flipgames-cfr-policy/1",
     "game": "kuhn_poker()",            # str(game) of the solved (not turn-based) game
     "turn_based": false,               # keys are convert_to_turn_based's strings
     "algorithm": "cfr+", "engine": "ours", "iterations": 1000, "seed": 1,
     "nash_conv": 0.0012, "exploitability": 0.0006,   # null where undefined
     "policy": {"<information-state string>": [[action, probability], ...], ...}}

A sampling MCCFR solve (engine ``ours``) writes only the information states its
samples visited, and says so: ``"information_states_visited": N`` and
``"unvisited"`` (a sentence: absent, played uniformly by the ``cfr`` bot), plus
``"not_evaluated"`` (the reason) where the game was too large for NashConv, whose
fields are then null. Loaders need none of these keys.

Keys are the game's ``information_state_string(player)``; for simultaneous
games, those of ``pyspiel.convert_to_turn_based`` (``"Current player: p\\n"``
followed by the game's own string), because that is the game CFR walked. A
policy solved over a DAG of merged histories (``cfr.dag``) says so in
``"keys"``: ``"dag-position"`` or ``"dag-observation"``, whose keys are
``cfr.dag.state_key``'s (a position, or a player's observation and the number
of moves); absent, ``"information-state"``.
JSON because it is readable, diffable and needs nothing to load.
"""

from __future__ import annotations

import json
import math
from pathlib import Path

__all__ = ["FORMAT", "save_policy", "load_policy"]

FORMAT = "flipgames-cfr-policy/1"


def _num(x):
    return None if x is None or (isinstance(x, float) and not math.isfinite(x)) else x


def save_policy(path, *, game, policy: dict, turn_based: bool, **meta) -> Path:
    path = Path(path)
    doc = {"format": FORMAT, "game": str(game), "turn_based": bool(turn_based)}
    doc.update({k: _num(v) for k, v in meta.items()})
    doc["policy"] = {k: [[int(a), float(p)] for a, p in v] for k, v in policy.items()}
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(path.suffix + ".tmp")
    tmp.write_text(json.dumps(doc, indent=0, sort_keys=False))
    tmp.replace(path)
    return path


def load_policy(path) -> dict:
    """The document, with ``policy`` as {key: {action: prob}}; ValueError if malformed."""
    path = Path(path)
    try:
        doc = json.loads(path.read_text())
    except FileNotFoundError:
        raise ValueError(f"policy file {path} does not exist") from None
    except json.JSONDecodeError as e:
        raise ValueError(f"policy file {path} is not JSON: {e}") from None
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        raise ValueError(f"{path} is not a {FORMAT} policy file")
    if not isinstance(doc.get("policy"), dict) or not isinstance(doc.get("game"), str):
        raise ValueError(f"{path} lacks its 'game' string or its 'policy' object")
    table = {}
    for key, pairs in doc["policy"].items():
        try:
            probs = {int(a): float(p) for a, p in pairs}
        except (TypeError, ValueError):
            raise ValueError(f"{path}: the entry of {key!r} is not a list of [action, probability]") from None
        # NaN passes every comparison: the checks are written so that it fails them
        if not all(0.0 <= p <= 1.0 for p in probs.values()) or not abs(sum(probs.values()) - 1) <= 1e-6:
            raise ValueError(
                f"{path}: probabilities of {key!r} are not a distribution: {sorted(probs.items())}"
            )
        table[key] = probs
    doc["policy"] = table
    return doc
