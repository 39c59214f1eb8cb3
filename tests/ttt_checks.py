"""Engine-only checks shared by the tic-tac-toe test files (the reference
model itself lives in ttt_reference.py)."""
from __future__ import annotations

import random

import pytest

from games.ttt import make_core


def assert_is_legal_agrees_with_legal_actions(rs, games: int, seed: int = 3) -> None:
    """Along random games of ``rs``: every action in the legal list applies,
    every other action raises ValueError."""
    rng = random.Random(seed)
    for _ in range(games):
        core = make_core(rs)
        while not core.terminal():
            if core.player() == -1:
                core.apply_action(rng.choice([a for a, _ in core.chance_outcome_list()]))
                continue
            legal = set(core.legal_action_list())
            for a in range(core.num_actions):
                if a in legal:
                    core.clone().apply_action(a)
                else:
                    with pytest.raises(ValueError):
                        core.clone().apply_action(a)
            core.apply_action(rng.choice(sorted(legal)))
