"""Playing one game between registry players and recording it.

Why the game is played by analysis.tournament's ``play_game``: it already
plays any OpenSpiel game between ``pyspiel.Bot``s with seeded chance and
records every action, chance outcomes included. A human is one more Bot whose
``step`` asks a callback (the terminal, later the web app); Chaos is the
game's chance player, so it needs no seat.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import pyspiel

import agents
from analysis.tournament import derive_seed, load_game
from analysis.tournament import play_game as _play
from registry import results
from registry.errors import RegistryError
from registry.players import bot_spec
from registry.rulesets import attach
from registry.store import PUBLIC, Registry

#: ``ask(state, seat, player_name) -> action``: how a human chooses a move.
Ask = Callable[[pyspiel.State, int, str], int]


class HumanBot(pyspiel.Bot):
    """A seat played by a person through ``ask``."""

    def __init__(self, ask: Ask, seat: int, name: str):
        pyspiel.Bot.__init__(self)
        self.ask, self.seat, self.name = ask, seat, name

    def step(self, state):
        return self.ask(state, self.seat, self.name)

    def restart_at(self, state):
        pass

    def inform_action(self, state, player, action):
        pass


def game_string(rule_set: str) -> str:
    return f"ttt(rules={rule_set})"


def play(
    reg: Registry,
    rule_set: str,
    players: Sequence[str],
    ask: Ask | None = None,
    universe: str = PUBLIC,
    seed: int = 0,
) -> int:
    """Play ``rule_set`` with ``players`` by seat (humans answer through ``ask``),
    record the game and update ratings; the game's id. Nothing is stored if the
    game does not finish (``ask`` may raise to abandon it)."""
    rs = results.rule_set_of(reg, rule_set)
    rows = results.seat_players(reg, rs, players, reg.universe_id(universe))
    if any(row[2] == "human" for row in rows) and ask is None:
        raise RegistryError("a human player needs a way to choose moves (ask)")
    attach(reg)
    game = load_game(game_string(rule_set))
    bots = []
    for seat, row in enumerate(rows):
        if row[2] == "human":
            bots.append(HumanBot(ask, seat, row[1]))
        else:
            bots.append(agents.make_bot(bot_spec(reg, row[1]), game, seat, derive_seed(seed, "seat", seat)))
    outcome = _play(game, bots, derive_seed(seed, "chance"))
    return results.record_game(
        reg, rule_set, players, outcome["returns"], outcome["actions"], universe=universe
    )


def terminal_ask(read=input, write=print) -> Ask:
    """A human move from the terminal: the player's own view of the board, the
    legal moves, and a number or a move's name typed back (asked again until legal)."""

    def ask(state, seat, name):
        write(state.observation_string(seat))
        legal = state.legal_actions()
        names = {state.action_to_string(seat, a): a for a in legal}
        write(f"{name} (seat {seat}) to move; legal: " + ", ".join(f"{a}={n}" for n, a in names.items()))
        while True:
            try:
                text = read("move> ").strip()
            except EOFError:
                raise RegistryError("the game was abandoned; nothing was recorded") from None
            if text in names:
                return names[text]
            if text.lstrip("-").isdigit() and int(text) in legal:
                return int(text)
            write(f"{text!r} is not a legal move; type one of the numbers or names above")

    return ask
