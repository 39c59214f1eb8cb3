"""Fingerprints of the tic-tac-toe engine's play: one SHA-256 per rule set of the
catalogue (games/ttt/catalogue/*.json), the examples (games/ttt/examples/*.json) and
the feature rule sets (tests/data/ttt_fingerprint_rules.json: small rule sets with
shapes, captures, jumps, surrounds, stacks, pots, rounds and cloaking, which the
catalogue does not all reach; named ``features/<name>``).

A fingerprint folds seeded random playouts of the rule set (chance nodes drawn by
their probabilities) through the core's public faces: at every step the player to
act, the position's hashes (under every symmetry), its text, every player's
observation and information-state strings, tensors and keys, the simultaneous
round's players and their legal plans, the legal actions and their names (or the
chance outcomes), a few probes of legality, the public state faces (reserves,
shapes, pots, chains, plans, boards, events...), every few steps a clone played to
the end by the fast playout kernel and a pickled copy; at the end the returns.
Any change in what the engine does, shows or hashes changes the fingerprint.

``tests/test_ttt_fingerprint.py`` compares the engine with the stored fingerprints
(``tests/data/ttt_fingerprint.json``, both tiers' sizes). When a rule change is
intended, regenerate them deliberately and commit the data file with the change:

    PYTHONPATH=. python tests/ttt_fingerprint.py --write

``python tests/ttt_fingerprint.py`` (no option) prints the rule sets whose
fingerprint differs from the stored one.
"""

from __future__ import annotations

import argparse
import functools
import hashlib
import json
import pickle
import random
import struct
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DATA = Path(__file__).resolve().parent / "data" / "ttt_fingerprint.json"
FEATURES = Path(__file__).resolve().parent / "data" / "ttt_fingerprint_rules.json"
DIRECTORIES = ("catalogue", "examples")
PLAYOUTS = {"quick": 1, "full": 6}  # playouts per rule set in each tier
KERNEL_EVERY = 5  # steps between two runs of the fast playout kernel on a clone
PICKLE_EVERY = 15  # steps between two pickled copies
PROBES = 3  # actions probed for legality at each decision


def rule_set_names() -> list[str]:
    """Every catalogue and example rule set (paths relative to games/ttt), then every
    feature rule set (``features/<name>``)."""
    base = ROOT / "games" / "ttt"
    files = [f"{d}/{p.name}" for d in DIRECTORIES for p in sorted((base / d).glob("*.json"))]
    return files + [f"features/{name}" for name in _features()]


@functools.cache
def _features() -> dict:
    return {rec["name"]: rec for rec in json.loads(FEATURES.read_text())}


def _rule_set(name: str):
    """The ``RuleSet`` a fingerprint name stands for."""
    from games.ttt import resolve, rules

    if name.startswith("features/"):
        return rules.parse(_features()[name.split("/", 1)[1]])
    return resolve(str(ROOT / "games" / "ttt" / name))


class _Fold:
    """A SHA-256 that takes Python values, tensors and exceptions in one order."""

    def __init__(self):
        self.h = hashlib.sha256()

    def add(self, value) -> None:
        self.h.update(repr(value).encode())
        self.h.update(b"\x1f")

    def tensor(self, values) -> None:
        values = list(values)
        self.h.update(struct.pack(f"<{len(values)}d", *values))
        self.h.update(b"\x1e")

    def call(self, method, *args, tensor=False) -> None:
        """The value of ``method(*args)``, or the name of the exception it raises."""
        try:
            value = method(*args)
        except (ValueError, NotImplementedError) as e:
            self.add(type(e).__name__)
            return
        if tensor:
            self.tensor(value)
        else:
            self.add(value)

    def hexdigest(self) -> str:
        return self.h.hexdigest()


def _fold_views(f: _Fold, core) -> None:
    f.add((core.player(), core.terminal(), core.position_hash()))
    f.add([core.position_hash_under(s) for s in range(core.symmetry_count())])
    f.add(core.to_string())
    for p in range(core.num_players):
        f.call(core.observation_string, p)
        f.call(core.information_state_string, p)
        f.call(core.observation_tensor, p, tensor=True)
        f.call(core.information_state_tensor, p, tensor=True)
        f.call(core.info_state_key, p)
        f.call(core.player_view, p)
        if core.tab.params.get("shaped", False):  # (the face reads the shape plane of the shapes path)
            f.call(core.player_shape_view, p)
    round_players = core.simultaneous_player_list()
    f.add(round_players)
    for p in round_players:
        f.add(core.player_legal_action_list(p))


def _fold_faces(f: _Fold, core) -> None:
    f.add((core.cells(), core.reserves(), core.shape_reserves(), core.shapes(), core.current_phase()))
    f.add((core.ending(), core.seat_to_move(), core.pieces_left_in_turn(), core.chaos_outcome()))
    f.add((core.folded_players(), core.disqualified_players(), core.board_results(), core.side_scores()))
    f.add((core.pending_pot(), core.pending_chain(), core.pending_plans(), core.cloaked_cells()))
    f.add((core.last_event(), core.playout_stats()))
    f.call(core.history)
    f.tensor(core.observation())


def _fold_kernel(f: _Fold, core, rng: random.Random) -> None:
    """A clone played to the end by the fast kernel."""
    clone = core.clone()
    clone.random_playout(rng.getrandbits(63))
    f.add((clone.to_string(), clone.returns_list(), clone.playout_stats()))


def _fold_pickle(f: _Fold, core) -> None:
    copy = pickle.loads(pickle.dumps(core))
    f.add((copy.position_hash(), copy.to_string()))


def _choose(f: _Fold, core, rng: random.Random) -> int:
    """Fold the decision's options and return the action a seeded draw takes."""
    if core.player() == -1:
        outcomes = core.chance_outcome_list()
        f.add(outcomes)
        actions, probs = zip(*outcomes, strict=True)
        return rng.choices(actions, weights=probs)[0]
    legal = core.legal_action_list()
    f.add(legal)
    f.add([core.action_string(core.player(), a) for a in legal])
    for _ in range(PROBES):
        a = rng.randrange(core.num_actions)
        try:
            core.clone().apply_action(a)
            f.add((a, True))
        except ValueError:
            f.add((a, False))
    return rng.choice(legal)


def fingerprint(name: str, playouts: int, rule_set=None) -> str:
    """The SHA-256 of ``playouts`` seeded random playouts of the rule set ``name``
    (one of ``rule_set_names()``; or any name, seeding the draws of ``rule_set``)."""
    from games.ttt import make_core

    rule_set = rule_set or _rule_set(name)
    f = _Fold()
    for game in range(playouts):
        rng = random.Random(f"{name}#{game}")
        core = make_core(rule_set)
        step = 0
        while True:
            _fold_views(f, core)
            _fold_faces(f, core)
            if step % KERNEL_EVERY == 0:
                _fold_kernel(f, core, rng)
            if step % PICKLE_EVERY == 0:
                _fold_pickle(f, core)
            if core.terminal():
                break
            core.apply_action(_choose(f, core, rng))
            step += 1
        f.add((step, core.returns_list()))
    return f.hexdigest()


def stored() -> dict:
    return json.loads(DATA.read_text())


def compute(tier: str, rule_sets: list[str] | None = None) -> dict[str, str]:
    return {rs: fingerprint(rs, PLAYOUTS[tier]) for rs in (rule_sets or rule_set_names())}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--write", action="store_true", help="store the fingerprints (an intended change)")
    parser.add_argument("--tier", choices=sorted(PLAYOUTS), action="append", help="only this tier's size")
    parser.add_argument("rule_sets", nargs="*", help="names as rule_set_names() gives them (default: all)")
    args = parser.parse_args(argv)
    tiers = args.tier or sorted(PLAYOUTS)
    data = stored() if DATA.exists() else {}
    differ = 0
    for tier in tiers:
        got = compute(tier, args.rule_sets or None)
        old = data.get(tier, {}).get("fingerprints", {})
        for rs, sha in got.items():
            if old.get(rs) != sha:
                differ += 1
                print(f"{tier}: {rs}: {old.get(rs, 'none stored')} -> {sha}")
        if args.write:
            entry = data.setdefault(tier, {"playouts": PLAYOUTS[tier], "fingerprints": {}})
            entry["playouts"] = PLAYOUTS[tier]
            entry["fingerprints"].update(got)
    if args.write:
        DATA.parent.mkdir(exist_ok=True)
        DATA.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n")
        print(f"wrote {DATA.relative_to(ROOT)}")
    else:
        print(f"{differ} fingerprint(s) differ from the stored ones")
    return 1 if differ and not args.write else 0


if __name__ == "__main__":
    sys.exit(main())
