"""The engine's rules on hand-made positions: each test plays a short,
fully specified game and checks exactly what docs/rules/ttt.md says happens.
Cells are numbered x + X*(y + Y*z) from 0; on stacks an action names a stack."""

import pickle
import random

import pytest

from games.ttt import make_core, rules

CAT = rules.catalogue()


def core(name_or_record):
    rs = CAT[name_or_record] if isinstance(name_or_record, str) else rules.parse(name_or_record)
    return make_core(rs)


def play(c, actions):
    for a in actions:
        c.apply_action(a)
    return c




def test_stacks_fall_and_fill():
    c = core("Connect4")
    play(c, [3, 3])
    cells = c.cells()
    assert cells[3] == 1 and cells[3 + 7] == 2
    play(c, [0, 0, 0, 0, 0, 0])
    assert 0 not in c.legal_action_list()






@pytest.mark.parametrize("name", sorted(CAT))
def test_clone_and_pickle_are_independent_copies(name):
    rng = random.Random(1)
    c = core(name)
    for _ in range(3):
        if c.terminal():
            break
        legal = c.legal_action_list() or [a for a, _ in c.chance_outcome_list()]
        c.apply_action(rng.choice(legal))
    d = pickle.loads(pickle.dumps(c))
    e = c.clone()
    assert d.to_string() == c.to_string() and d.position_hash() == c.position_hash()
    assert d.legal_action_list() == c.legal_action_list()
    e.random_playout(3)
    d.random_playout(3)
    assert e.terminal() and d.terminal() and e.to_string() == d.to_string()


def test_observation_has_one_plane_per_colour_empty_and_locked():
    c = core("Wild-TTT-6sq3143")
    obs = c.observation()
    S = 36
    assert len(obs) == 4 * S + 2 + 2 + 2
    assert obs[3 * S + 2] == 1.0 and obs[2 * S + 2] == 0.0  # (3,1,1) locked, not empty
