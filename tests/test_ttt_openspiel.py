"""The engine against OpenSpiel's C++ games, move by move (same legal actions
at every step, same returns at the end), and ``pyspiel.random_sim_test`` on
every catalogue game through the registered ``ttt(rules=NAME)``.

Action ids line up without translation: OpenSpiel numbers a cell
``row * width + column`` and we number it ``x + X * y``; reading x as the
column and y as the row maps lines onto lines, and Connect Four's actions are
columns in both."""

import pickle
import random

import pyspiel
import pytest

import games  # noqa: F401  (registers ttt)
from games.ttt import make_core, rules
from tiers import sweep

CATALOGUE = sorted(rules.catalogue())
BIG = {"5on15sq": 2, "Connect6-19x19": 1, "Qubic-4": 5, "4on7sq": 10}


def differential(our_name, theirs, n, seed):
    rng = random.Random(seed)
    proto = make_core(rules.catalogue()[our_name])
    game = pyspiel.load_game(theirs)
    assert proto.num_actions == game.num_distinct_actions()
    outcomes = {}
    for _ in range(n):
        ours, state = proto.clone(), game.new_initial_state()
        while not state.is_terminal():
            legal = state.legal_actions()
            assert ours.player() == state.current_player()
            assert ours.legal_action_list() == legal, (ours.to_string(), str(state))
            a = rng.choice(legal)
            ours.apply_action(a)
            state.apply_action(a)
        assert ours.terminal(), (ours.to_string(), str(state))
        assert ours.returns_list() == state.returns(), (ours.to_string(), str(state))
        key = tuple(state.returns())
        outcomes[key] = outcomes.get(key, 0) + 1
    return outcomes


def test_tic_tac_toe_matches_openspiel():
    out = differential("Tic-Tac-Toe", "tic_tac_toe", 3000, seed=1)
    assert set(out) == {(1.0, -1.0), (-1.0, 1.0), (0.0, 0.0)}


def test_connect4_matches_openspiel():
    out = differential("Connect4", "connect_four", 2000, seed=2)
    assert {(1.0, -1.0), (-1.0, 1.0)} <= set(out)


def test_gomoku_parameters_match_5on15sq():
    """5on15sq is free-style gomoku: 15x15, five or more in a row wins, no
    wrap, normal (not anti) play; OpenSpiel's defaults say the same."""
    params = pyspiel.load_game("gomoku").get_parameters()
    assert params == {"anti": False, "connect": 5, "dims": 2, "size": 15, "wrap": False}
    rec = rules.catalogue()["5on15sq"].record
    assert rec["board"]["size"] == [15, 15, 1] and rec["turn_checks"] == ["first-5-wins"]
    assert sum(rec["reserves"][c]["circle"] for c in rec["reserves"]) == 15 * 15


def test_gomoku_matches_openspiel():
    out = differential("5on15sq", "gomoku(size=15,connect=5)", 120, seed=3)
    assert {(1.0, -1.0), (-1.0, 1.0)} <= set(out)


def test_overline_wins_in_both():
    """Six in a row made by filling a gap wins, in OpenSpiel's gomoku and here."""
    moves = [0, 150, 1, 151, 2, 152, 3, 153, 5, 160, 4]
    state = pyspiel.load_game("gomoku").new_initial_state()
    ours = make_core(rules.catalogue()["5on15sq"])
    for m in moves:
        state.apply_action(m)
        ours.apply_action(m)
    assert state.is_terminal() and ours.terminal()
    assert ours.returns_list() == state.returns() == [1.0, -1.0]


@pytest.mark.slow
def test_differential_long():
    differential("Tic-Tac-Toe", "tic_tac_toe", 30000, seed=11)
    differential("Connect4", "connect_four", 20000, seed=12)
    differential("5on15sq", "gomoku(size=15,connect=5)", 1500, seed=13)


def test_openspiel_face_matches_core():
    """Playing through pyspiel's API gives the same game as the core."""
    game = pyspiel.load_game("ttt(rules=Connect4)")
    theirs = pyspiel.load_game("connect_four")
    rng = random.Random(5)
    for _ in range(200):
        s, t = game.new_initial_state(), theirs.new_initial_state()
        while not t.is_terminal():
            assert s.legal_actions() == t.legal_actions()
            a = rng.choice(t.legal_actions())
            s.apply_action(a)
            t.apply_action(a)
        assert s.is_terminal() and s.returns() == t.returns()


#: played in the full tier only: 3P-9X-HideSeek's 30 plays take minutes; the
#: default tier plays it in test_ttt_dilemmas.py (test_hide_seek_random_sim_test)
FULL_TIER_ONLY = {"3P-9X-HideSeek"}


@pytest.mark.parametrize(
    "name", [pytest.param(n, marks=pytest.mark.slow) if n in FULL_TIER_ONLY else n for n in CATALOGUE]
)
def test_random_sim_test(name):
    """30 plays per rule set in the full tier (fewer for the large boards, BIG),
    at most 3 in the default tier."""
    game = pyspiel.load_game(f"ttt(rules={name})")
    plays = BIG.get(name, 30)
    pyspiel.random_sim_test(
        game, num_sims=sweep(full=plays, quick=min(plays, 3)), serialize=True, verbose=False
    )


def test_game_type_is_truthful_per_rule_set():
    GT = pyspiel.GameType
    ttt = pyspiel.load_game("ttt(rules=Tic-Tac-Toe)")
    assert ttt.get_type().utility == GT.Utility.ZERO_SUM and ttt.utility_sum() == 0.0
    assert ttt.get_type().chance_mode == GT.ChanceMode.DETERMINISTIC
    notakto = pyspiel.load_game("ttt(rules=3P-Notakto)")
    assert notakto.num_players() == 3 and notakto.get_type().utility == GT.Utility.GENERAL_SUM
    assert (notakto.min_utility(), notakto.max_utility()) == (-1.0, 1.0)
    # the registered type is the weakest claim over all rule sets
    registered = {t.short_name: t for t in pyspiel.registered_games()}["ttt"]
    assert registered.utility == GT.Utility.GENERAL_SUM
    assert registered.chance_mode == GT.ChanceMode.EXPLICIT_STOCHASTIC
    assert (registered.min_num_players, registered.max_num_players) == (1, 4)  # 1: "1-vs-chaos"


def test_chaos_rule_set_is_explicit_stochastic(tmp_path):
    rec = {"name": "TTT-vs-Chaos", "players": "2-vs-chaos", "reserves": {"black": 3, "white": 3, "pink": 3}}
    path = tmp_path / "chaos.json"
    path.write_text(__import__("json").dumps(rec))
    game = pyspiel.load_game(f"ttt(rules={path})")
    GT = pyspiel.GameType
    assert game.get_type().chance_mode == GT.ChanceMode.EXPLICIT_STOCHASTIC
    assert game.get_type().utility == GT.Utility.GENERAL_SUM
    assert game.num_players() == 2
    state = game.new_initial_state()
    state.apply_action(0)
    state.apply_action(1)
    assert state.is_chance_node()
    outcomes = state.chance_outcomes()
    assert [a for a, _ in outcomes] == list(range(2, 9))
    assert all(abs(p - 1 / 7) < 1e-12 for _, p in outcomes)
    pyspiel.random_sim_test(game, num_sims=sweep(full=30, quick=3), serialize=True, verbose=False)


def test_unknown_rules_name_lists_the_catalogue():
    with pytest.raises(Exception, match="Connect4"):
        pyspiel.load_game("ttt(rules=NoSuchGame)")


def test_seconds_per_turn_is_metadata_for_bots():
    from games.ttt.openspiel_game import seconds_per_turn

    assert seconds_per_turn(pyspiel.load_game("ttt(rules=5on15sq)")) == 300
    assert seconds_per_turn("Connect6-19x19") == 300
    assert seconds_per_turn("Tic-Tac-Toe", default=5.0) == 5.0


@pytest.mark.parametrize("name", CATALOGUE)
def test_clone_and_pickle_are_independent_copies(name):
    rng = random.Random(1)
    c = make_core(name)
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
