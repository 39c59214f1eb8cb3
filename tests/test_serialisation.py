"""Every game and state of the toolkit serialises, deserialises and pickles,
and a restored state plays on exactly like the original.

OpenSpiel serialises a Python state as its history, its move number and a
base64 pickle of its ``__dict__`` (here: the core), and pickles a state as the
game string plus that serialisation; so a core that cannot be pickled breaks
``serialize``, ``deserialize_state``, ``pickle`` and every tool built on them
(checkpoints, worker processes). ``pyspiel.random_sim_test(serialize=True)``
runs in each game family's own test module; this module checks what that test
does not: pickled games, states restored mid-game and at the end, the position
hash, identical continuations, and unpickling in a fresh process.
"""

from __future__ import annotations

import pickle
import random
import subprocess
import sys
from pathlib import Path

import pyspiel
import pytest

import games  # noqa: F401  (registers every game)
import games.ttt
from games.ttt import rules

ROOT = Path(__file__).resolve().parents[1]

Y_FAMILY = (
    [
        f"y_game(board_shape={sh},board_size={sz},swap={sw},turns={t},distinct_groups={d})"
        for sh, sz in (("triangle", 5), ("hex", 2))
        for sw in ("false", "true")
        for t in (1, 122344)
        for d in ("false", "true")
    ]
    + [
        f"defector_y(board_shape={sh},board_size={sz},protocol={p},conversion={c})"
        for sh, sz in (("triangle", 5), ("hex", 2))
        for p in (1, 122)
        for c in ("board", "local")
    ]
    + [
        f"double_o_y(board_size=5,flip={f},protocol={p},win={w})"
        for f in ("all", "opponents", "friends")
        for p in (1, 122)
        for w in ("turn_start", "turn_end")
    ]
    + ["double_o_y(board_shape=hex,board_size=2)"]
)
FLIPWAY = [
    f"flipway(board_size={n},setup={s},pie={p},repetition={r})"
    for n, s in ((5, "empty"), (4, "checkered"), (4, "checkered_alt"), (5, "blocks"))
    for p in ("false", "true")
    for r in ("allowed", "draw")
]
# Every catalogue rule set, and one given by path (with Chaos, a chance player).
CHAOS_PATH = Path(games.ttt.__file__).parent / "examples" / "TTT-2-vs-Chaos.json"
TTT = [f"ttt(rules={name})" for name in sorted(rules.catalogue())] + [f"ttt(rules={CHAOS_PATH})"]
CAETH = [f"caeth_y(board_size={n},swap={s})" for n in (2, 5) for s in ("false", "true")]
EVERY_GAME = Y_FAMILY + FLIPWAY + TTT + CAETH


def fingerprint(state):
    """What must survive a round trip: whose turn, the legal actions, the
    returns, the text, the history and the core's position hash."""
    return (
        state.current_player(),
        state.legal_actions(),
        state.returns(),
        str(state),
        state.history(),
        state.core.position_hash(),
    )


def restored(game, state):
    """The state brought back every way OpenSpiel offers."""
    return {
        "deserialize": game.deserialize_state(state.serialize()),
        "pickle": pickle.loads(pickle.dumps(state)),
        "clone": state.clone(),
    }


def random_game(game, seed):
    """The states of one random game, start to end."""
    rng = random.Random(seed)
    state = game.new_initial_state()
    states = [state.clone()]
    while not state.is_terminal():
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choices(actions, probs)[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
        states.append(state.clone())
    return states


def play_on_together(original, copies, seed):
    """Play ``original`` and its copies to the end with the same random
    actions, checking at every step that they stay identical."""
    rng = random.Random(seed)
    states = [original] + list(copies)
    while True:
        prints = [fingerprint(s) for s in states]
        assert all(p == prints[0] for p in prints[1:])
        if original.is_terminal():
            return
        if original.is_chance_node():
            actions, probs = zip(*original.chance_outcomes(), strict=True)
            action = rng.choices(actions, probs)[0]
        else:
            action = rng.choice(original.legal_actions())
        for s in states:
            s.apply_action(action)


@pytest.mark.parametrize("spec", EVERY_GAME)
def test_game_pickles_to_an_equal_working_game(spec):
    game = pyspiel.load_game(spec)
    again = pickle.loads(pickle.dumps(game))
    assert type(again) is type(game)
    assert str(again) == str(game) and again.get_type().short_name == game.get_type().short_name
    assert again.num_distinct_actions() == game.num_distinct_actions()
    assert again.max_game_length() == game.max_game_length()
    assert fingerprint(again.new_initial_state()) == fingerprint(game.new_initial_state())


@pytest.mark.parametrize("spec", EVERY_GAME)
def test_states_restore_at_every_step_and_play_on_identically(spec):
    game = pyspiel.load_game(spec)
    states = random_game(game, seed=len(spec))
    step = max(1, len(states) // 30)  # long games: a sample of 30-odd states, the end included
    for state in states[::step] + states[-1:]:
        for way, copy in restored(game, state).items():
            assert fingerprint(copy) == fingerprint(state), (way, str(state))
    # From the start, the middle and the last move before the end, every
    # restored copy continues move for move like the original.
    for i in sorted({0, len(states) // 2, max(0, len(states) - 2)}):
        play_on_together(states[i].clone(), restored(game, states[i]).values(), seed=i)


def test_a_restored_state_is_independent_of_its_original():
    game = pyspiel.load_game("flipway(board_size=5,repetition=draw)")
    state = game.new_initial_state()
    state.apply_action(state.legal_actions()[0])
    copy = pickle.loads(pickle.dumps(state))
    before = fingerprint(copy)
    state.apply_action(state.legal_actions()[0])
    assert fingerprint(copy) == before != fingerprint(state)


def test_serialised_string_names_nothing_but_the_state():
    """The state's serialisation holds no Game object (only the core), so a
    state of a game loaded with other parameters cannot slip in."""
    game = pyspiel.load_game("flipway(board_size=5)")
    state = game.new_initial_state()
    state.apply_action(12)
    text = state.serialize()
    assert text.startswith("history=0:12\nmove_number=1\n__dict__=")
    assert fingerprint(game.deserialize_state(text)) == fingerprint(state)


def test_unpickling_in_a_fresh_process_registers_the_games():
    """A worker process that has not imported ``games`` can still unpickle a
    game or a state: the pickle names the toolkit's own loader."""
    sample = []
    for spec in (
        "y_game(board_size=4)",
        "double_o_y(board_size=4,flip=friends)",
        "flipway(board_size=4,setup=blocks,pie=true,repetition=draw)",
        "ttt(rules=Tic-Tac-Toe)",
    ):
        game = pyspiel.load_game(spec)
        states = random_game(game, seed=3)
        state = states[len(states) // 2]
        sample.append((game, state, fingerprint(state)))
    child = (
        "import pickle, sys\n"
        "for game, state, expected in pickle.loads(sys.stdin.buffer.read()):\n"
        "    got = (state.current_player(), state.legal_actions(), state.returns(), str(state),\n"
        "           state.history(), state.core.position_hash())\n"
        "    assert got == expected, (str(game), got, expected)\n"
        "    assert str(game.new_initial_state()) == str(state.get_game().new_initial_state())\n"
        "print('ok')\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", child], input=pickle.dumps(sample), cwd=ROOT, capture_output=True, timeout=120
    )
    assert done.returncode == 0, done.stderr.decode()
    assert done.stdout.decode().startswith("ok")
