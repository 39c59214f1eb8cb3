"""mcts/worlds.py: sampled determinisation reads only what its player knows (two
histories the player cannot tell apart give equal knowledge and the same draws for
the same seed), draws only worlds the player cannot tell from the true one and all
of them (checked against a brute-force walk over OpenSpiel states, written
independently of the module), uniformly where the stated distribution says it must,
and ISMCTS switches from listing worlds to sampling them above ``max_worlds``."""

import itertools

import numpy as np
import pyspiel
import pytest

import games  # noqa: F401
from agents import make_bot
from mcts.worlds import Knowledge, TooManyWorlds, WorldSampler, enumerate_worlds, first_world, knowledge_of

PHANTOM = "ttt(rules=games/ttt/examples/Phantom-TTT-Corners.json)"


def play(game, *history):
    s = game.new_initial_state()
    for a in history:
        s.apply_action(a)
    return s


def key(world, n):
    """A world told apart from every other: every seat's own information state."""
    return tuple(world.information_state_string(q) for q in range(n))


def brute_force(game, state, player):
    """Every history of ``state``'s length whose information state for ``player`` is
    ``state``'s, by trying every action sequence on OpenSpiel states (no pruning)."""
    target, depth, out = state.information_state_string(player), len(state.history()), []

    def walk(s):
        if len(s.history()) == depth:
            if (
                not s.is_terminal()
                and s.current_player() == player
                and s.information_state_string(player) == target
            ):
                out.append(tuple(s.history()))
            return
        if s.is_terminal():
            return
        for a in s.legal_actions():
            walk(s.child(a))

    walk(game.new_initial_state())
    return out


def blotto_twins(game):
    """3Blotto13 after six black and five white placements: black's differ, and white,
    to move, cannot tell (every space is cloaked)."""
    left = play(game, 0, 1, 2, 3, 4, 5, 0, 1, 2, 3, 4)
    right = play(game, 4, 1, 4, 3, 0, 5, 0, 1, 2, 3, 2)
    return left, right


@pytest.fixture(scope="module")
def phantom():
    return pyspiel.load_game(PHANTOM)


@pytest.fixture(scope="module")
def blotto():
    return pyspiel.load_game("ttt(rules=3Blotto13)")


def test_twins_give_equal_knowledge_and_the_same_draws(phantom, blotto):
    cases = [
        (phantom, play(phantom, 0, 4, 8), play(phantom, 2, 4, 8)),
        (phantom, play(phantom, 0, 4, 2, 1, 6), play(phantom, 6, 4, 2, 1, 0)),
        (blotto, *blotto_twins(blotto)),
    ]
    for game, a, b in cases:
        player = a.current_player()
        assert a.history() != b.history()
        assert a.information_state_string(player) == b.information_state_string(player)
        ka, kb = knowledge_of(a, player), knowledge_of(b, player)
        assert ka == kb
        draws = []
        for k in (ka, kb):
            rng = np.random.default_rng(7)
            sampler = WorldSampler(game, k)
            draws.append([key(sampler.sample(rng), game.num_players()) for _ in range(30)])
        assert draws[0] == draws[1]
        assert len(set(draws[0])) > 1  # it does draw different worlds
        for mode in ("worlds=sample", "worlds=first", "worlds=auto", "worlds=sample,tree=infosets"):
            ra = make_bot(f"ismcts:simulations=80,{mode},max_worlds=5", game, player, seed=3).search(a)
            rb = make_bot(f"ismcts:simulations=80,{mode},max_worlds=5", game, player, seed=3).search(b)
            assert ra == rb


def test_the_sampler_needs_nothing_but_the_knowledge(phantom):
    """Knowledge written by hand from what the player saw (no state at all) samples the
    same worlds as knowledge computed from a true state."""
    s = play(phantom, 0, 4, 8)
    k = knowledge_of(s, 1)
    by_hand = Knowledge(
        1,
        ((phantom.new_initial_state().child(0).information_state_string(1), 4),),
        s.information_state_string(1),
    )
    assert by_hand == k
    rng_a, rng_b = np.random.default_rng(1), np.random.default_rng(1)
    assert [key(WorldSampler(phantom, k).sample(rng_a), 2) for _ in range(10)] == [
        key(WorldSampler(phantom, by_hand).sample(rng_b), 2) for _ in range(10)
    ]


@pytest.mark.parametrize("history", [(0, 4, 8), (0, 4, 2, 1, 6), (1, 4, 8), (0, 2, 8, 6)])
def test_sampled_worlds_are_exactly_the_indistinguishable_histories(phantom, history):
    s = play(phantom, *history)
    player = s.current_player()
    truth = brute_force(phantom, s, player)
    assert tuple(history) in truth
    reference = {key(play(phantom, *h), 2) for h in truth}
    k = knowledge_of(s, player)
    listed = {key(w, 2) for w, _ in enumerate_worlds(phantom, k)}
    assert listed == reference
    rng = np.random.default_rng(0)
    sampler = WorldSampler(phantom, k)
    drawn = [sampler.sample(rng) for _ in range(40 * len(truth))]
    assert all(w.information_state_string(player) == s.information_state_string(player) for w in drawn)
    assert {key(w, 2) for w in drawn} == reference
    assert key(first_world(phantom, k), 2) in reference


def test_blotto_worlds_are_uniform_as_stated(blotto):
    """3Blotto13: every hidden placement stays viable, so the sampler's distribution is
    the exact (uniform) belief: white's 3 x 3 orders of two hidden placements."""
    s = play(blotto, 0, 1, 2, 3)
    k = knowledge_of(s, 0)
    assert len(enumerate_worlds(blotto, k)) == 9
    rng = np.random.default_rng(5)
    sampler = WorldSampler(blotto, k)
    n = 1800
    counts = {}
    for _ in range(n):
        w = key(sampler.sample(rng), 2)
        counts[w] = counts.get(w, 0) + 1
    assert len(counts) == 9
    expected = n / 9
    chi2 = sum((c - expected) ** 2 / expected for c in counts.values())
    assert chi2 < 26.1, counts  # chi-square, 8 degrees of freedom, p = 0.001


def test_auto_lists_small_belief_and_samples_large_ones(blotto, phantom):
    late = play(blotto, *itertools.chain.from_iterable((i % 3 * 2, i % 3 * 2 + 1) for i in range(8)))
    assert late.current_player() == 0
    # white's 8 hidden placements: 3^8 = 6,561 orders
    assert make_bot("ismcts:simulations=20", blotto, 0, seed=1).search(late)["world_mode"] == "sample"
    big = make_bot("ismcts:simulations=20,max_worlds=7000", blotto, 0, seed=1).search(late)
    assert (big["world_mode"], big["worlds"]) == ("exact", 6561)
    with pytest.raises(TooManyWorlds):
        make_bot("ismcts:simulations=20,worlds=exact", blotto, 0, seed=1).search(late)
    sampled = make_bot("ismcts:simulations=20,worlds=sample", blotto, 0, seed=1).search(late)
    assert (sampled["world_mode"], sampled["worlds"]) == ("sample", 20)
    assert make_bot("ismcts:simulations=20,worlds=first", blotto, 0, seed=1).search(late)["worlds"] == 1
    small = make_bot("ismcts:simulations=20", phantom, 1, seed=1).search(play(phantom, 0, 4, 8))
    assert (small["world_mode"], small["worlds"]) == ("exact", 12)


def test_sampler_budget_is_a_clear_error(blotto):
    k = knowledge_of(play(blotto, 0, 1, 2, 3), 0)
    with pytest.raises(TooManyWorlds, match="more than 1 nodes"):
        WorldSampler(blotto, k, max_nodes=1).sample(np.random.default_rng(0))


def test_kbeauty9_hides_the_earlier_heights():
    """docs/rules/dilemmas_by_game.md, KBeauty9: turns are hidden (``cloaking_hides_turns``), so a
    later seat's information state holds one history per height each earlier seat could
    have stacked (0-9): 10 worlds for white, 1,000 for yellow, all listed by ISMCTS; the
    one-world baseline keeps one (tests/test_ttt_cloaking.py has the views)."""
    game = pyspiel.load_game("ttt(rules=KBeauty9)")
    rng = np.random.default_rng(3)
    s = game.new_initial_state()
    counts = {}
    while not s.is_terminal():
        p = s.current_player()
        if p not in counts:
            counts[p] = len(enumerate_worlds(game, knowledge_of(s, p), max_worlds=1000))
        legal = s.legal_actions()
        s.apply_action(legal[rng.integers(len(legal))])
    assert counts == {0: 1, 1: 10, 2: 100, 3: 1000}
    s = game.new_initial_state()
    for _ in range(3):
        s.apply_action(s.legal_actions()[-1])  # pass
    searched = make_bot("ismcts:simulations=20", game, 3, seed=1).search(s)
    assert (searched["world_mode"], searched["worlds"]) == ("exact", 1000)
    assert make_bot("ismcts:simulations=20,worlds=first", game, 3, seed=1).search(s)["worlds"] == 1


def test_infoset_tree_plays_and_finds_the_block():
    """tree=infosets: statistics per (mover, information state); on a perfect-information
    game that is the plain UCT tree keyed by position, so it must still block."""
    g = pyspiel.load_game("tic_tac_toe")
    s = play(g, 0, 3, 1)
    bot = make_bot("ismcts:simulations=400,tree=infosets", g, 1, seed=1)
    assert bot.step(s) == 2
    assert sum(v for _, v, _ in bot.last_search["children"]) == 400
    with pytest.raises(ValueError, match="tree must be one of actions, infosets"):
        make_bot("ismcts:tree=nodes", g, 0)
