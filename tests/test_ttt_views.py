"""Per-player views: the observation and information-state strings and
tensors each player gets, the observers OpenSpiel makes of them, and which
histories a player can tell apart (what cloaking hides is
test_ttt_cloaking.py's)."""

from pathlib import Path

import pyspiel
import pytest

import games  # noqa: F401  (registers ttt)
from games.openspiel import core_of
from games.ttt import make_core, rules
from mcts.bots import CoreMCTSBot
from mcts.uct import UCTSearch
from mcts.uct import core_of as search_core_of
from solvers.alphabeta import make_searcher
from solvers.bots import AlphaBetaBot
from solvers.exhaustive import solve
from ttt_checks import assert_all_differ, core_views, rule_set, saved_rule_set, state_after

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


# -- cloaked rule sets: the OpenSpiel type, observers, searches --------------------------------

GT = pyspiel.GameType
HIDES = {
    "board": {"kind": "squares", "size": [3, 3, 1]},
    "reserves": {"black": 5, "white": 4},
    "cloaking": "hides",
}
ROW1 = [[1, 1, 1], [2, 1, 1], [3, 1, 1]]
HIDES_ROW = rule_set("views-hides-row", HIDES, phases=[{"cloaked": ROW1}])


def test_cloaked_rule_sets_load_imperfect_and_the_catalogue_stays_perfect():
    g = pyspiel.load_game("ttt", {"rules": saved_rule_set(HIDES_ROW)})
    assert g.get_type().information == GT.Information.IMPERFECT_INFORMATION
    assert g.get_type().provides_information_state_tensor
    assert (
        pyspiel.load_game("ttt(rules=Tic-Tac-Toe)").get_type().information
        == GT.Information.PERFECT_INFORMATION
    )
    nothing_cloaked = rule_set("views-type-only", HIDES, phases=[{}])
    assert make_core(nothing_cloaked).perfect_information
    registered = [t for t in pyspiel.registered_games() if t.short_name == "ttt"][0]
    assert registered.information == GT.Information.IMPERFECT_INFORMATION


def test_observers_for_every_player():
    g = pyspiel.load_game("ttt", {"rules": saved_rule_set(HIDES_ROW)})
    s = state_after(HIDES_ROW, 0, 4)
    info = g.make_py_observer(pyspiel.IIGObservationType(perfect_recall=True))
    obs = g.make_py_observer(pyspiel.IIGObservationType(perfect_recall=False))
    for p in (0, 1):
        info.set_from(s, p)
        assert list(info.tensor) == s.information_state_tensor(p)
        assert info.string_from(s, p) == s.information_state_string(p)
        obs.set_from(s, p)
        assert list(obs.tensor) == s.observation_tensor(p)
        assert obs.string_from(s, p) == s.observation_string(p)


def test_searches_that_see_the_whole_state_refuse_cloaked_rule_sets():
    game = pyspiel.load_game("ttt", {"rules": saved_rule_set(HIDES_ROW)})
    s = game.new_initial_state()
    with pytest.raises(ValueError, match="hidden information"):
        UCTSearch(max_simulations=10).search(core_of(s))
    with pytest.raises(ValueError, match="hidden information"):
        search_core_of(s)
    with pytest.raises(ValueError, match="hidden information"):
        CoreMCTSBot(game, 0, max_simulations=10).step(s)
    with pytest.raises(ValueError, match="alpha-beta"):
        make_searcher(game, core_of(s))
    with pytest.raises(ValueError, match="hidden information"):
        AlphaBetaBot(game, 0, depth=2).step(s)
    with pytest.raises(ValueError, match="exact solver"):
        solve(f"ttt(rules={saved_rule_set(HIDES_ROW)})")


def test_what_was_seen_is_part_of_the_position_hash():
    # black hides on 0 and 1; white then attempts one of them: same board,
    # same turn, different knowledge (and so different legal actions later)
    a, b = make_core(HIDES_ROW), make_core(HIDES_ROW)
    for x in (0, 4, 1, 0):
        a.apply_action(x)
    for x in (0, 4, 1, 1):
        b.apply_action(x)
    assert a.cells() == b.cells() and a.player() == b.player() == 0
    assert a.position_hash() != b.position_hash()
    a.apply_action(8)
    b.apply_action(8)
    assert a.legal_action_list() != b.legal_action_list()


def test_cloaked_rule_sets_claim_no_symmetries():
    assert make_core(HIDES_ROW).symmetry_count() == 1
    assert make_core(rule_set("views-plain", HIDES, cloaking="none", phases=[{}])).symmetry_count() == 8


def test_the_cpp_observer_of_make_observer_serves_the_same_views():
    g = pyspiel.load_game("ttt", {"rules": saved_rule_set(HIDES_ROW)})
    s = state_after(HIDES_ROW, 0, 4)
    for recall, tensor, string in (
        (True, "information_state_tensor", "information_state_string"),
        (False, "observation_tensor", "observation_string"),
    ):
        obs = pyspiel._Observation(g, g.make_observer(pyspiel.IIGObservationType(perfect_recall=recall), {}))
        for p in (0, 1):
            obs.set_from(s, p)
            assert list(obs.tensors()[0].data) == getattr(s, tensor)(p)
            assert obs.string_from(s, p) == getattr(s, string)(p)


def test_walls_are_never_hidden():
    # a space locked for the phase and cloaked shows as locked to everyone,
    # and nobody may attempt it (it is no hidden piece)
    rs = rule_set("views-walls", HIDES, turn_checks=[], phases=[{"cloaked": ROW1, "locked": [[1, 1, 1]]}])
    c = make_core(rs)
    assert c.player_view(0)[0] == c.player_view(1)[0] == "#"
    assert 0 not in c.legal_action_list()
    c.apply_action(1)
    assert 0 not in c.legal_action_list() and 1 in c.legal_action_list()  # white: 1 looks empty


EXAMPLES = Path(games.__file__).parent / "ttt" / "examples"


@pytest.mark.parametrize("name", ["Tic-Tac-Toe", str(EXAMPLES / "Phantom-TTT-Corners.json")])
def test_the_shape_view_of_a_rule_set_without_shapes_shows_circles(name):
    """Without shapes every piece is a circle, in the whole view and in each player's."""
    core = make_core(rules.resolve(name))
    core.apply_action(core.legal_action_list()[0])
    placed = [c for c, colour in enumerate(core.cells()) if colour]
    assert len(placed) == 1
    views = [core.player_shape_view(p) for p in range(core.num_players)]
    assert views[0][placed[0]] == "c"  # the mover sees its own piece
    for view in views:
        assert set(view) <= {".", "c", "?"}
