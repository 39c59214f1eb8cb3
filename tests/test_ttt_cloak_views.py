"""Cloaking (issue 11 item 3), what each player knows: two histories a player
cannot tell apart give it identical information-state and observation
strings, tensors and keys, histories it can tell apart do not; the seed's
ambiguous points as docs/rules/ttt.md decides them; the OpenSpiel type and
observers; searches that see the whole state refuse cloaked rule sets.
Cells are x + X*(y + Y*z) from 0; on a 3x3 board placing on cell c is action c."""

import pyspiel
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import games  # noqa: F401  (registers ttt)
from games.openspiel import core_of
from games.ttt import make_core
from mcts.bots import CoreMCTSBot
from mcts.uct import UCTSearch
from mcts.uct import core_of as search_core_of
from solvers.alphabeta import make_searcher
from solvers.bots import AlphaBetaBot
from solvers.exhaustive import solve
from test_ttt_cloak import ALL9, ROW1, _saved, cloaked_sets, rule_set
from ttt_checks import state_after as state
from ttt_checks import views

GT = pyspiel.GameType
HIDES_ROW = rule_set("views-hides-row", phases=[{"cloaked": ROW1}])
OBSCURES_ROW = rule_set("views-obscures-row", cloaking="obscures", phases=[{"cloaked": ROW1}])


def assert_all_differ(a, b):
    for x, y in zip(a, b):
        assert x != y


# -- indistinguishable and distinguishable histories ---------------------------


def test_opponent_on_one_of_two_cloaked_spaces_looks_the_same():
    left, right = state(HIDES_ROW, 0, 4), state(HIDES_ROW, 2, 4)
    assert views(left, 1) == views(right, 1)  # white cannot tell cell 0 from cell 2
    assert_all_differ(views(left, 0), views(right, 0))  # black placed them: it can
    left.apply_action(8)
    right.apply_action(8)  # black on 8 (open): white to move
    assert views(left, 1) == views(right, 1)
    assert left.legal_actions() == right.legal_actions() == [0, 1, 2, 3, 5, 6, 7]


def test_cloaked_and_open_placements_are_told_apart():
    hidden, open_ = state(HIDES_ROW, 0), state(HIDES_ROW, 3)
    assert_all_differ(views(hidden, 1), views(open_, 1))
    assert "x" not in "".join(core_of(hidden).player_view(1))
    assert core_of(open_).player_view(1)[3] == "x"


def test_obscurity_shows_where_so_the_two_placements_differ():
    left, right = state(OBSCURES_ROW, 0, 4), state(OBSCURES_ROW, 2, 4)
    assert_all_differ(views(left, 1), views(right, 1))
    assert core_of(left).player_view(1)[0] == "X"  # colour, not shape
    assert core_of(left).player_view(0)[0] == "x"  # its own colour: fully


def test_an_attempt_is_remembered_and_reveals_only_to_its_player():
    # black hides on 0; white tries 0: only reveals, nothing moves, black to move
    s = state(HIDES_ROW, 0, 4, 1)
    assert 0 in s.legal_actions()  # white does not see the piece
    s.apply_action(0)
    c = core_of(s)
    assert c.last_event()["attempt"] and c.cells()[0] == 1 and c.reserves()["white"] == 3
    assert s.current_player() == 0
    assert c.player_view(1)[0] == "x" and c.player_view(1)[1] == "."  # 1 stays hidden
    # black learns that white attempted something, not where: same views as an attempt on 1
    other = state(HIDES_ROW, 0, 4, 1, 1)
    assert core_of(other).last_event()["attempt"]
    assert views(s, 0) == views(other, 0)
    assert_all_differ(views(s, 1), views(other, 1))
    # white remembers it: it no longer may place on 0
    assert 0 not in s.clone().child(8).legal_actions()


def _random_nodes(rs, seeds):
    """Every node of a few random games: (history, state)."""
    import random

    out = []
    for seed in seeds:
        rng = random.Random(seed)
        s = state(rs)
        history = []
        while True:
            out.append((tuple(history), s.clone()))
            if s.is_terminal():
                break
            a = rng.choice([a for a, _ in s.chance_outcomes()] if s.is_chance_node() else s.legal_actions())
            history.append(a)
            s.apply_action(a)
    return out


@settings(max_examples=12, deadline=None)
@given(
    case=st.sampled_from(range(len(cloaked_sets()))),
    seeds=st.lists(st.integers(0, 10**6), min_size=4, max_size=8),
)
def test_views_partition_histories_consistently(case, seeds):
    """Within each player's information sets: one tensor, one key, one
    observation, the same legal actions when it moves and the same own past
    (its earlier information states and actions: perfect recall); across
    them, different tensors and keys."""
    rs = cloaked_sets()[case]
    nodes = _random_nodes(rs, seeds)
    num_players = nodes[0][1].num_players()
    for p in range(num_players):
        groups = {}
        for history, s in nodes:
            info = s.information_state_string(p)
            legal = tuple(s.legal_actions()) if s.current_player() == p else None
            past = _own_past(rs, history, p)
            groups.setdefault(info, set()).add(
                (
                    tuple(s.information_state_tensor(p)),
                    core_of(s).info_state_key(p),
                    s.observation_string(p),
                    legal,
                    past,
                )
            )
        for info, members in groups.items():
            assert len(members) == 1, (rs.name, p, info)
        tensors = [next(iter(m))[0] for m in groups.values()]
        keys = [next(iter(m))[1] for m in groups.values()]
        assert len(set(tensors)) == len(tensors) and len(set(keys)) == len(keys)


def _own_past(rs, history, p):
    """Everything p observed along the history (its observation after every
    event, so a history it can tell apart at any point gets another past),
    with its information states at its decisions and the actions it took."""
    s = state(rs)
    past = []
    for a in history:
        past.append(s.observation_string(p))
        if s.current_player() == p:
            past.append((s.information_state_string(p), a))
        s.apply_action(a)
    return tuple(past)


# -- the seed's ambiguous points, decided -------------------------------------


def test_previously_seen_stays_seen_when_its_space_is_cloaked_later():
    rs = rule_set(
        "views-open-then-cloaked",
        turn_checks=[],
        reserves={"black": 2, "white": 2},
        phases=[{"pass": True}, {"pass": True, "cloaked": ALL9}],
    )
    c = make_core(rs)
    for a in (0, 9, 9):  # black on 0 in the open phase; both pass: phase 2
        c.apply_action(a)
    assert c.current_phase() == 1
    c.apply_action(4)  # black hides on 4
    assert c.player_view(1)[0] == "x" and c.player_view(1)[4] == "."


def test_a_piece_its_player_can_move_is_seen_even_if_someone_else_placed_it():
    # shared colour: white placed on 1 unseen by black; once black's reserve is
    # empty it can move every black piece, so it sees this one
    rs = rule_set(
        "views-shared",
        colours="shared",
        reserves={"black": 3},
        turn_checks=[],
        shapes={"circle": {"move": "adjacent"}},
        move_limit=10,
        phases=[{"cloaked": ALL9}],
    )
    c = make_core(rs)
    c.apply_action(0)  # black
    c.apply_action(1)  # white
    assert c.player_view(0)[1] == "."
    c.apply_action(5)  # black: the last piece in reserve is gone
    assert c.reserves()["black"] == 0 and c.player_view(0)[1] == "x" and c.player_view(1)[0] == "x"


def test_chaos_plays_the_true_position_and_players_do_not_see_its_hidden_pieces():
    rs = rule_set(
        "views-chaos",
        players="2-vs-chaos",
        reserves={"black": 3, "white": 3, "pink": 3},
        phases=[{"cloaked": ALL9}],
    )
    s = state(rs, 0, 1)  # black on 0, white on 1: Chaos to place
    assert s.is_chance_node()
    assert [a for a, _ in s.chance_outcomes()] == [2, 3, 4, 5, 6, 7, 8]  # never an attempt
    s.apply_action(5)
    c = core_of(s)
    assert c.player_view(0)[5] == "." and c.player_view(1)[5] == "."
    assert views(s, 0) == views(state(rs, 0, 1, 6), 0)


def test_stacks_a_hidden_full_stack_is_an_attempt_and_a_landing_on_hidden_pieces_is_real():
    rs = rule_set(
        "views-stacks",
        board={"kind": "stacks", "size": [2, 1, 2]},
        turn_checks=[],
        reserves={"black": 3, "white": 3},
        phases=[{"pass": True, "cloaked": [[1, 1, 1], [1, 1, 2], [2, 1, 1], [2, 1, 2]]}],
    )
    c = make_core(rs)
    c.apply_action(0)  # black on stack 0 (hidden from white)
    c.apply_action(0)  # white lands on it: a real placement
    assert not c.last_event()["attempt"] and c.cells()[:4] == [1, 0, 2, 0]
    assert c.player_view(1) == [".", ".", "o", "."]  # white sees its own piece, not the one below
    c.apply_action(1)  # black on stack 1
    c.apply_action(1)  # white on stack 1: lands on top (real)
    c.apply_action(2)  # black passes
    # white, one piece left, sees only its own pieces, but they sit on top:
    # both stacks look full
    assert c.reserves()["white"] == 1 and c.legal_action_list() == [2]
    c2 = make_core(rs)
    for a in (0, 1, 0):  # black 0, white 1, black 0: stack 0 full, white saw nothing
        c2.apply_action(a)
    assert 0 in c2.legal_action_list()
    c2.apply_action(0)
    assert c2.last_event()["attempt"] and c2.player_view(1)[0] == "x" and c2.player_view(1)[2] == "x"


# -- OpenSpiel face and refusals --------------------------------------------------


def test_cloaked_rule_sets_load_imperfect_and_the_catalogue_stays_perfect():
    g = pyspiel.load_game("ttt", {"rules": _saved(HIDES_ROW)})
    assert g.get_type().information == GT.Information.IMPERFECT_INFORMATION
    assert g.get_type().provides_information_state_tensor
    assert (
        pyspiel.load_game("ttt(rules=Tic-Tac-Toe)").get_type().information
        == GT.Information.PERFECT_INFORMATION
    )
    nothing_cloaked = rule_set("views-type-only", phases=[{}])
    assert make_core(nothing_cloaked).perfect_information
    registered = [t for t in pyspiel.registered_games() if t.short_name == "ttt"][0]
    assert registered.information == GT.Information.IMPERFECT_INFORMATION


def test_observers_for_every_player():
    g = pyspiel.load_game("ttt", {"rules": _saved(HIDES_ROW)})
    s = state(HIDES_ROW, 0, 4)
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
    game = pyspiel.load_game("ttt", {"rules": _saved(HIDES_ROW)})
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
        solve(f"ttt(rules={_saved(HIDES_ROW)})")


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
    assert make_core(rule_set("views-plain", cloaking="none", phases=[{}])).symmetry_count() == 8


def test_the_cpp_observer_of_make_observer_serves_the_same_views():
    g = pyspiel.load_game("ttt", {"rules": _saved(HIDES_ROW)})
    s = state(HIDES_ROW, 0, 4)
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
    rs = rule_set("views-walls", turn_checks=[], phases=[{"cloaked": ROW1, "locked": [[1, 1, 1]]}])
    c = make_core(rs)
    assert c.player_view(0)[0] == c.player_view(1)[0] == "#"
    assert 0 not in c.legal_action_list()
    c.apply_action(1)
    assert 0 not in c.legal_action_list() and 1 in c.legal_action_list()  # white: 1 looks empty
