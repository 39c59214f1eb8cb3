"""Per-player views: the observation and information-state strings and
tensors each player gets, the observers OpenSpiel makes of them, and which
histories a player can tell apart (what cloaking hides is
test_ttt_cloaking.py's)."""

import games  # noqa: F401  (registers ttt)
from games.ttt import make_core


def test_observation_has_one_plane_per_colour_empty_and_locked():
    c = make_core("Wild-TTT-6sq3143")
    obs = c.observation()
    S = 36
    assert len(obs) == 4 * S + 2 + 2 + 2
    assert obs[3 * S + 2] == 1.0 and obs[2 * S + 2] == 0.0  # (3,1,1) locked, not empty
