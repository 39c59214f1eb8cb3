"""Per-player views: the observation and information-state strings and
tensors each player gets, the observers OpenSpiel makes of them, and which
histories a player can tell apart (what cloaking hides is
test_ttt_cloaking.py's)."""

from pathlib import Path

import pyspiel
import pytest

import games  # noqa: F401  (registers ttt)
from games.ttt import make_core, rules
from ttt_checks import assert_all_differ, core_views, rule_set

RPS = Path(games.__file__).parent / "ttt" / "examples" / "RPS-Shared-Lines.json"


def test_observation_has_one_plane_per_colour_empty_and_locked():
    c = make_core("Wild-TTT-6sq3143")
    obs = c.observation()
    S = 36
    assert len(obs) == 4 * S + 2 + 2 + 2
    assert obs[3 * S + 2] == 1.0 and obs[2 * S + 2] == 0.0  # (3,1,1) locked, not empty


# -- a pending plan in a round -----------------------------------------------------------------


def test_a_pending_plan_is_invisible_to_the_other_players():
    rs = rules.parse(
        {
            "name": "V",
            "players": "3",
            "board": {"kind": "squares", "size": [4, 3, 1]},
            "reserves": {"black": 3, "white": 3, "pink": 3},
            "phases": [{"order": "simultaneous"}],
        }
    )
    a, b = make_core(rs), make_core(rs)
    for core in (a, b):
        core.apply_action(5)  # a resolved round first, so history is not empty
        core.apply_action(6)
        core.apply_action(7)
    a.apply_action(0)  # player 0's pending plans differ
    b.apply_action(11)
    for p in (1, 2):
        assert core_views(a, p) == core_views(b, p), p
    assert_all_differ(core_views(a, 0), core_views(b, 0))
    # player 1 plans the same in both: still no difference for players 1 and 2
    a.apply_action(3)
    b.apply_action(3)
    assert core_views(a, 1) == core_views(b, 1) and core_views(a, 2) == core_views(b, 2)
    # once the round resolves, everyone can tell the histories apart
    a.apply_action(4)
    b.apply_action(4)
    for p in (1, 2):
        assert_all_differ(core_views(a, p), core_views(b, p))


def test_information_states_have_perfect_recall_observations_do_not():
    rs = rule_set(
        "T",
        board={"kind": "squares", "size": [3, 3, 1]},
        reserves={"black": 4, "white": 4},
        phases=[{"order": "simultaneous"}],
        turn_checks=[],
    )
    a, b = make_core(rs), make_core(rs)
    a.apply_joint_action([0, 1])
    a.apply_joint_action([2, 3])
    b.apply_joint_action([2, 3])
    b.apply_joint_action([0, 1])  # same board, other order of rounds
    assert a.position_hash() == b.position_hash()
    for p in (0, 1):
        assert a.observation_string(p) == b.observation_string(p)
        assert a.observation_tensor(p) == b.observation_tensor(p)
        assert a.information_state_string(p) != b.information_state_string(p)
        assert a.information_state_tensor(p) != b.information_state_tensor(p)
        assert a.info_state_key(p) != b.info_state_key(p)


def test_sequential_rule_sets_keep_the_whole_state_views():
    core = make_core("Tic-Tac-Toe")
    assert core.perfect_information and core.observation_string(0) == core.to_string()
    with pytest.raises(ValueError, match="simultaneous"):
        core.history()


def test_views_through_openspiel_turn_based_form():
    game = pyspiel.load_game(f"ttt(rules={RPS})")
    tb = pyspiel.convert_to_turn_based(game)
    root = tb.new_initial_state()
    first, second = root.legal_actions()[:2]
    after = [root.child(first), root.child(second)]
    assert after[0].information_state_string(1) == after[1].information_state_string(1)
    assert after[0].information_state_string(0) != after[1].information_state_string(0)
    assert after[0].information_state_tensor(1) == after[1].information_state_tensor(1)
