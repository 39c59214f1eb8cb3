"""Games being played in the browser: their state lives in the server process
until they finish, then a registry rule set's game is recorded and rated.

Why in memory: a game in progress is a few hundred bytes of OpenSpiel state and
the seats' bots (an MCTS bot is not cheaply stored); the registry records
*finished* games only (docs/registry.md), so an unfinished game lost with the
server would never have been recorded by the registry either.

Why the server moves the bots and Chaos right after the person's move: the
round trip then returns the position the person must answer, and a move is
only ever applied after ``legal_actions`` says it is legal, whatever the page
sent.
"""
from __future__ import annotations

import dataclasses
import functools
import random
import secrets
import threading
import time

import pyspiel

import agents
import games  # noqa: F401  (registers y_game, flipway, ttt, ... with OpenSpiel)
from analysis.tournament import derive_seed
from registry import open_games, results
from registry.errors import RegistryError

#: Games on the play menu besides every registry rule set (ttt(rules=NAME)).
OTHER_GAMES = ("y_game(board_size=5)", "y_game(board_size=7)", "y_game(board_shape=hex,board_size=4)",
               "defector_y(board_size=5)", "double_o_y(board_size=5)", "caeth_y(board_size=4)",
               "flipway(board_size=5)", "connect_four", "tic_tac_toe")
FINISHED_KEEP_SECONDS = 3600


@functools.lru_cache(maxsize=64)
def load_game(game_string: str, version: str = "") -> pyspiel.Game:
    """``pyspiel.load_game`` once per game string: loading a rule set compiles
    its rules (symmetries, lines), a few ms that every home page and new game
    paid again. ``version`` is the saved rule set's fingerprint, so a name
    renamed and reused by other rules is loaded afresh. A loaded game is
    immutable (states are made from it), so threads share it."""
    return pyspiel.load_game(game_string)


class MoveError(ValueError):
    """A move the server refuses (not this user's turn, illegal, game over)."""


@dataclasses.dataclass
class Seat:
    player: str          # registry player name
    kind: str            # human / bot / random
    user: str | None     # the user who moves a human seat
    spec: object = None  # agents.BotSpec of a bot seat
    bot: object = None


class LiveGame:
    """One game in progress: its state, who sits where, and its moves so far."""

    def __init__(self, game_string: str, rule_set: str | None, universe: str, seats: list[Seat],
                 seed: int, version: str = ""):
        self.id = secrets.token_urlsafe(9)
        self.game_string, self.rule_set, self.universe = game_string, rule_set, universe
        self.game = load_game(game_string, version)
        kind = self.game.get_type()
        self.simultaneous = kind.dynamics == pyspiel.GameType.Dynamics.SIMULTANEOUS
        if self.simultaneous and not game_string.startswith("ttt("):
            # a tic-tac-toe core applies a round as its players' decisions in
            # order, which the registry replays; other simultaneous games
            # (OpenSpiel's matrix games) have no such record
            raise ValueError(f"{game_string} has simultaneous moves; the browser plays the "
                             "simultaneous rounds of tic-tac-toe rule sets only")
        self.perfect = kind.information == pyspiel.GameType.Information.PERFECT_INFORMATION
        self.state = self.game.new_initial_state()
        self.seats = seats
        self.seed = seed
        self.chance = random.Random(derive_seed(seed, "chance"))
        self.lock = threading.Lock()
        self.recorded: int | None = None
        self.record_error: str | None = None
        self.last_move: str | None = None
        self.finished_at: float | None = None
        self.plans: dict[int, int] = {}     # the open simultaneous round's human plans, by seat
        self.moves: list[int] = []          # every decision in the core's order (the record)
        if self.simultaneous and any(seat.kind == "bot" for seat in seats):
            raise ValueError("the bots of this toolkit search games of alternating turns; a rule "
                             "set with simultaneous rounds is played by people and Random")
        for i, seat in enumerate(seats):
            if seat.kind != "human":
                seat.bot = agents.make_bot(seat.spec, self.game, i, derive_seed(seed, "seat", i))

    # -- who may do what
    def users(self) -> set[str]:
        return {s.user for s in self.seats if s.user}

    def seat_of(self, user: str) -> list[int]:
        return [i for i, s in enumerate(self.seats) if s.user == user]

    def to_move(self) -> int:
        return self.state.current_player()

    def in_round(self) -> bool:
        return self.state.current_player() == pyspiel.PlayerId.SIMULTANEOUS

    def round_seats(self) -> list[int]:
        """Seats that decide in the open simultaneous round ([] outside one)."""
        if not self.in_round():
            return []
        return [p for p in range(len(self.seats)) if self.state.legal_actions(p)]

    def seat_to_move(self, user: str) -> int | None:
        """The seat of ``user`` that must decide now: the player to move, or in
        a simultaneous round a seat of this user with a choice and no plan yet."""
        if self.in_round():
            for p in self.round_seats():
                if self.seats[p].user == user and p not in self.plans:
                    return p
            return None
        p = self.to_move()
        return p if 0 <= p < len(self.seats) and self.seats[p].user == user else None

    def waiting_for(self, user: str) -> bool:
        return self.seat_to_move(user) is not None

    # -- moving
    def human_move(self, user: str, action: int, reg) -> None:
        """Apply ``user``'s ``action`` if it is legal and this user's turn, then
        the bots' and Chaos's moves up to the next human turn or the end. In a
        simultaneous round the action is the user's plan: kept hidden until
        every person in the round has planned, then the bots plan and the
        round resolves at once."""
        with self.lock:
            if self.state.is_terminal():
                raise MoveError("the game is over")
            seat = self.seat_to_move(user)
            if seat is None:
                raise MoveError("it is not your turn")
            if self.in_round():
                if action not in self.state.legal_actions(seat):
                    raise MoveError(f"{action} is not a legal plan here")
                self.plans[seat] = action
            else:
                if action not in self.state.legal_actions():
                    raise MoveError(f"{action} is not a legal move here")
                self._apply(action)
            self.advance(reg)

    def _resolve_round(self) -> bool:
        """Resolve the open round if every person in it has planned (the bots
        plan now, from the state their seat may see); False if a person has not."""
        deciding = self.round_seats()
        if any(self.seats[p].kind == "human" and p not in self.plans for p in deciding):
            return False
        joint = [-1] * len(self.seats)
        for p in deciding:
            joint[p] = self.plans[p] if p in self.plans else self.seats[p].bot.step(self.state)
        order = self.state.core.simultaneous_player_list()      # the core applies in this order
        for seat in self.seats:
            if seat.bot is not None:
                seat.bot.inform_actions(self.state, joint)
        self.state.apply_actions(joint)
        self.moves.extend(joint[p] for p in order)
        self.plans = {}
        return True

    def advance(self, reg) -> None:
        """Play Chaos and the bots until a person must move or the game ends."""
        while not self.state.is_terminal():
            p = self.state.current_player()
            if p == pyspiel.PlayerId.SIMULTANEOUS:
                if not self._resolve_round():
                    return
                continue
            if p == pyspiel.PlayerId.CHANCE:
                outcomes = self.state.chance_outcomes()
                actions, probs = zip(*outcomes)
                self._apply(self.chance.choices(actions, probs)[0])
            elif self.seats[p].kind == "human":
                return
            else:
                self._apply(self.seats[p].bot.step(self.state))
        if self.finished_at is None:
            self.finished_at = time.time()
            self._record(reg)

    def _apply(self, action: int) -> None:
        p = self.state.current_player()
        if self.perfect:        # another seat's move may be hidden from the viewer otherwise
            self.last_move = self.state.action_to_string(p, action)
        for i, seat in enumerate(self.seats):
            if seat.bot is not None and p >= 0 and i != p:
                seat.bot.inform_action(self.state, p, action)
        self.state.apply_action(action)
        self.moves.append(action)

    def _record(self, reg) -> None:
        """The finished game goes into the registry (ratings move in the same
        transaction): a rule set's among its games, any other game by its game
        string (registry/open_games.py)."""
        players = [s.player for s in self.seats]
        try:
            if self.rule_set is None:
                self.recorded = open_games.record_open_game(
                    reg, self.game_string, players, self.state.returns(), self.moves,
                    universe=self.universe)
            else:
                self.recorded = results.record_game(
                    reg, self.rule_set, players, self.state.returns(), self.moves,
                    universe=self.universe)
        except RegistryError as e:          # shown on the page; the game stays visible
            self.record_error = str(e)


class LiveGames:
    """The games in progress of one server, by id (finished ones kept an hour)."""

    def __init__(self):
        self._games: dict[str, LiveGame] = {}
        self._lock = threading.Lock()

    def add(self, game: LiveGame) -> None:
        with self._lock:
            now = time.time()
            for gid in [g.id for g in self._games.values()
                        if g.finished_at and now - g.finished_at > FINISHED_KEEP_SECONDS]:
                del self._games[gid]
            self._games[game.id] = game

    def get(self, gid: str) -> LiveGame | None:
        with self._lock:
            return self._games.get(gid)

    def of_user(self, user: str) -> list[LiveGame]:
        with self._lock:
            return [g for g in self._games.values() if user in g.users()]
