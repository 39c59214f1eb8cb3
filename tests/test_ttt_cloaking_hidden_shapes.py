"""Hidden turns with shapes (docs/rules/ttt/cloaking.md, "Hidden turns"):
with ``cloaking_hides_turns`` and stationary shapes of any kind, another
seat's placement that a player does not see leaves no trace in its
information state, whatever shape it placed, and the reserves it is shown
(totals and per shape) are its own colours' only. Hand-played histories a
seat cannot tell apart give it byte-identical strings and tensors; random
rule sets with several stationary shapes play the same on the engine and
on the reference model, and their information states partition random
histories as the reference's independent key does."""

import random

import pyspiel
import pytest

import games  # noqa: F401  (registers ttt)
from games.ttt import rules
from tiers import sweep
from ttt_checks import cloaked_rule_set, play_against_reference, saved_rule_set, views
from ttt_reference import ReferenceState, hidden_turns_key, hidden_turns_step

ALL9 = [[x, y, 1] for x in (1, 2, 3) for y in (1, 2, 3)]
STATIONARY = {"move": "stationary"}


def shopping(name="hidden-shapes-shopping", **fields):
    """Shopping9 in small: black buys circles or pentagons in phase 1, white
    in phase 2, every space cloaked, each turn hidden."""
    base = dict(
        cloaking_hides_turns=True,
        shapes={"circle": STATIONARY, "pentagon": STATIONARY},
        reserves={"black": {"circle": 3, "pentagon": 3}, "white": {"circle": 3, "pentagon": 3}},
        phases=[
            {"pass": True, "locked_players": [2], "cloaked": ALL9},
            {"pass": True, "locked_players": [1], "cloaked": ALL9},
        ],
    )
    base.update(fields)
    return cloaked_rule_set(name, **base)


def game_of(rs):
    return pyspiel.load_game("ttt", {"rules": saved_rule_set(rs)})


def after(game, moves):
    """The state after ``moves``: each a word of the action's text ("circle",
    "pentagon", "pass") and a cell (or None), taken by the player to move."""
    s = game.new_initial_state()
    for word, cell in moves:
        p = s.current_player()
        picks = [
            a
            for a in s.legal_actions()
            if word in s.action_to_string(p, a) and (cell is None or f"({cell})" in s.action_to_string(p, a))
        ]
        assert len(picks) == 1, (word, cell, [s.action_to_string(p, a) for a in s.legal_actions()])
        s.apply_action(picks[0])
    return s


def test_a_hidden_purchase_of_either_shape_looks_the_same_to_the_other_seat():
    """White cannot tell whether black bought a pentagon, a circle, two pieces or
    nothing on the hidden spaces: identical information-state strings and tensors
    (and observations, keys and legal actions) for white; black's own differ."""
    game = game_of(shopping())
    histories = [
        [("pentagon", "1,1,1"), ("pass", None)],
        [("circle", "1,1,1"), ("pass", None)],
        [("circle", "2,2,1"), ("pentagon", "3,3,1"), ("pass", None)],
        [("pass", None)],
    ]
    states = [after(game, h) for h in histories]
    assert all(s.current_player() == 1 for s in states)
    white = [views(s, 1) for s in states]
    assert all(v == white[0] for v in white)
    assert all(s.legal_actions() == states[0].legal_actions() for s in states)
    text = states[0].information_state_string(1)
    assert "black ?" in text and "black:" not in text.split("reserves:")[-1]
    assert len({s.information_state_string(0) for s in states}) == len(states)


def test_own_per_shape_reserves_are_shown_and_the_others_are_not():
    s = after(game_of(shopping()), [("pentagon", "1,1,1"), ("pass", None), ("circle", "2,1,1")])
    black, white = s.information_state_string(0), s.information_state_string(1)
    assert black.endswith("reserves: black {'circle': 3, 'pentagon': 2}, white ?")
    assert white.endswith("reserves: black ?, white {'circle': 2, 'pentagon': 3}")


def test_refused_with_a_moving_shape_or_a_power():
    for props in ({"move": "adjacent"}, {"move": "stationary", "power": "can-capture"}):
        with pytest.raises(rules.RuleSetError, match="cloaking_hides_turns"):
            shopping("hidden-shapes-refused", move_limit=20, shapes={"circle": STATIONARY, "pentagon": props})


def random_hidden_shapes(rng, k):
    """A random two-seat rule set with hidden turns and two or three stationary
    shapes: random cloaked spaces, reserves per shape, and either one phase the
    seats share or one phase each."""
    names = rng.sample(["circle", "triangle", "x", "cross", "star", "pentagon"], rng.choice((2, 3)))
    cloaked = [c for c in ALL9 if rng.random() < 0.7] or ALL9[:1]
    reserves = {col: {n: rng.randint(1, 3) for n in names} for col in ("black", "white")}
    if rng.random() < 0.5:
        phases = [{"pass": True, "cloaked": cloaked}]
    else:
        phases = [
            {"pass": True, "locked_players": [2], "cloaked": cloaked},
            {"pass": True, "locked_players": [1], "cloaked": cloaked},
        ]
    return shopping(
        f"hidden-shapes-random-{k}",
        shapes={n: STATIONARY for n in names},
        reserves=reserves,
        phases=phases,
    )


@pytest.mark.parametrize("k", range(sweep(full=12, quick=3)))
def test_random_hidden_shape_rule_sets_match_the_reference(k):
    """The engine and the reference play alike (views, shapes, attempts, legal
    actions, returns), and the engine's information-state strings join exactly the
    histories the reference's key (own actions, seen placements, passes, what it
    sees now with its own per-shape reserves) joins."""
    rs = random_hidden_shapes(random.Random(k), k)
    play_against_reference(rs, sweep(full=20, quick=4), k, views=True, shape_views=True)
    game, rng = game_of(rs), random.Random(100 + k)
    pairs = set()
    for _ in range(sweep(full=120, quick=30)):
        s, ref, trace = game.new_initial_state(), ReferenceState(rs), []
        while not s.is_terminal():
            for p in range(game.num_players()):
                pairs.add((p, s.information_state_string(p), hidden_turns_key(ref, trace, p)))
            legal = s.legal_actions()
            assert legal == ref.legal_actions()
            a = legal[-1] if rng.random() < 0.2 else rng.choice(legal)
            s.apply_action(a)
            trace.append(hidden_turns_step(ref, a))
    by_engine, by_ref = {}, {}
    for p, text, key in pairs:
        by_engine.setdefault((p, text), set()).add(key)
        by_ref.setdefault((p, key), set()).add(text)
    assert all(len(v) == 1 for v in by_engine.values())
    assert all(len(v) == 1 for v in by_ref.values())
