"""Games being played in the browser: one position and the rules of moving it.

A ``LiveGame`` is a game in progress as the registry stores it (webapp/
live_store.py: its game string, seats, seed, the moves so far, the hidden plans
of an open simultaneous round) plus the OpenSpiel state those moves give. It
knows who may move and applies a person's move followed by the bots' and
Chaos's; storing the result, and refusing a move that lost a race with another
server process, is the store's job.

Why every bot and chance decision is seeded from the game's seed and the move
number (not from a bot object that lived through the game): any server process
can make the next decision from the stored moves alone, and the same position
of the same game gets the same decision in every process, so a game is
reproducible from its seed and moves. A bot is built afresh for each decision
(tens of microseconds; it searches from the state it is given).

Why the server moves the bots and Chaos right after the person's move: the
round trip then returns the position the person must answer, and a move is
only ever applied after ``legal_actions`` says it is legal, whatever the page
sent.
"""

from __future__ import annotations

import dataclasses
import functools
import hashlib
import random
import re
import secrets
import time

import pyspiel

import agents
import games  # noqa: F401  (registers y_game, flipway, ttt, ... with OpenSpiel)
from analysis.tournament import derive_seed
from registry.results import resignation_returns
from webapp import bots_for_game
from webapp.source import parse_identity

#: Games on the play menu besides every registry rule set (ttt(rules=NAME)).
OTHER_GAMES = (
    "y_game(board_size=5)",
    "y_game(board_size=7)",
    "y_game(board_shape=hex,board_size=4)",
    "defector_y(board_size=5)",
    "double_o_y(board_size=5)",
    "caeth_y(board_size=4)",
    "caeth_y(board_size=4,swap=true)",
    "flipway(board_size=5)",
    "connect_four",
    "tic_tac_toe",
)


@functools.lru_cache(maxsize=64)
def load_game(game_string: str, version: str = "") -> pyspiel.Game:
    """``pyspiel.load_game`` once per game string: loading a rule set compiles
    its rules (symmetries, lines), a few ms that every home page and new game
    paid again. ``version`` is the saved rule set's fingerprint, so a name
    renamed and reused by other rules is loaded afresh. A loaded game is
    immutable (states are made from it), so threads share it."""
    return pyspiel.load_game(game_string)


@functools.lru_cache(maxsize=256)
def _rule_set_seconds(rule_set: str, version: str) -> int | None:
    from games.ttt import rules as ttt_rules

    return ttt_rules.resolve(rule_set).record.get("seconds_per_turn")


@functools.lru_cache(maxsize=256)
def _partners(rule_set: str, version: str) -> bool:
    from games.ttt import rules as ttt_rules

    return ttt_rules.resolve(rule_set).record.get("players") == "partners"


def seconds_per_turn(rule_set: str | None, version: str = "") -> int | None:
    """A saved rule set's ``seconds_per_turn`` (None: no limit; game strings
    have none). Kept per fingerprint ``version``, as ``load_game``."""
    if rule_set is None:
        return None
    if version:
        return _rule_set_seconds(rule_set, version)
    return _rule_set_seconds.__wrapped__(rule_set, version)


def unplayable(game_string: str, game: pyspiel.Game) -> str | None:
    """Why the browser cannot play ``game`` (None if it can), for the home page
    before it offers seats and for ``LiveGame.start``. A tic-tac-toe core
    applies a round as its players' decisions in order, which the registry
    replays; other simultaneous games (OpenSpiel's matrix games) have no such
    record."""
    game_type = game.get_type()
    if game_type.dynamics == pyspiel.GameType.Dynamics.SIMULTANEOUS and not game_string.startswith("ttt("):
        return (
            f"{game_string} has simultaneous moves; the browser plays the simultaneous "
            "rounds of tic-tac-toe rule sets only"
        )
    if game_type.information != pyspiel.GameType.Information.PERFECT_INFORMATION and not (
        game_type.provides_observation_string or game_type.provides_information_state_string
    ):
        return (
            f"{game_string} hides information and describes no seat's view of it (no observation "
            "or information-state string), so the browser cannot show a seat its game"
        )
    return None


class MoveError(ValueError):
    """A move the server refuses (not this user's turn, illegal, game over)."""


@dataclasses.dataclass
class Seat:
    player: str  # registry player name
    kind: str  # human / bot / random
    user: str | None  # the user who moves a human seat
    spec: object = None  # agents.BotSpec of a bot seat
    #: when the person of a human seat first opened the game (epoch seconds);
    #: None until then: the seat's clock does not run and the game is not
    #: recorded in its name (``LiveGame.deadline``, ``unjoined``)
    joined: float | None = None

    def to_json(self) -> dict:
        return {
            "player": self.player,
            "kind": self.kind,
            "user": self.user,
            "spec": self.spec.to_json() if self.spec is not None else None,
            "joined": self.joined,
        }

    @classmethod
    def from_json(cls, data: dict) -> Seat:
        spec = agents.BotSpec.from_json(data["spec"]) if data.get("spec") else None
        # a seat stored before joins were kept counts as joined: its game was
        # played by people who had the page open
        return cls(data["player"], data["kind"], data.get("user"), spec, data.get("joined", 0.0))


class LiveGame:
    """One game in progress: who sits where, its moves so far and their state.

    ``changes`` counts the accepted submissions (a move or a plan): the store
    writes a changed game only over the count it was read at. A LiveGame that
    the store has cached is never changed in place (``successor`` copies it),
    so threads may draw it while another thread computes the next position."""

    def __init__(
        self,
        gid: str,
        game_string: str,
        rule_set: str | None,
        universe: str,
        seats: list[Seat],
        seed: int,
        version: str = "",
        moves=(),
        plans=None,
        changes: int = 0,
        last_move: str | None = None,
        recorded: int | None = None,
        record_error: str | None = None,
        finished_at: float | None = None,
        turn_started: float | None = None,
        timeouts=(),
        ended: str | None = None,
    ):
        self.id = gid
        #: how a person ended the game before its rules did: "resigned SEAT"
        #: (0-based) or "abandoned"; None while it is played or when its rules ended it
        self.ended = ended
        self.game_string, self.rule_set, self.universe = game_string, rule_set, universe
        self.version = version
        self.game = load_game(game_string, version)
        kind = self.game.get_type()
        self.simultaneous = kind.dynamics == pyspiel.GameType.Dynamics.SIMULTANEOUS
        self.perfect = kind.information == pyspiel.GameType.Information.PERFECT_INFORMATION
        self.seats = seats
        self.seed = seed
        self.plans: dict[int, int] = dict(plans or {})  # the open round's human plans, by seat
        self.changes = changes
        self.last_move = last_move
        self.recorded, self.record_error, self.finished_at = recorded, record_error, finished_at
        self.turn_started = turn_started  # when the position last changed (the clock's start)
        # (move index, seat) of every decision played for a person whose time ran
        # out; recorded with the game, so its record tells chosen moves from these
        self.timeouts: list[tuple[int, int]] = [tuple(t) for t in timeouts]
        # a saved rule set is played as ttt(rules=*ID-FINGERPRINT) (webapp/source.py), so
        # a rename cannot change the rules of a game in progress; ``rule_set`` is
        # its name when the game started (LiveStore.rule_set_name: its name now)
        self.rules_key = (
            game_string[len("ttt(rules=") : -1]
            if rule_set is not None and game_string.startswith("ttt(rules=")
            else rule_set
        )
        identity = parse_identity(self.rules_key)
        self.rule_set_id = identity[0] if identity else None
        self.seconds_per_turn = seconds_per_turn(self.rules_key, version)
        # two teams of partners (seats 1 and 3, 2 and 4) lose a resignation together
        self.partners = rule_set is not None and _partners(self.rules_key, version)
        self.moves: list[int] = []  # every decision in the core's order (the record)
        self.state = self.game.new_initial_state()
        self._replay(moves)

    @classmethod
    def start(
        cls,
        game_string: str,
        rule_set: str | None,
        universe: str,
        seats: list[Seat],
        seed: int,
        version: str = "",
    ) -> LiveGame:
        """A new game (not yet stored), refused if the browser cannot play it."""
        game = load_game(game_string, version)
        refusal = unplayable(game_string, game)
        if refusal:
            raise ValueError(refusal)
        for seat in seats:  # only a bot that can play this game takes a seat (webapp/bots_for_game.py)
            if seat.kind == "bot":
                reason = bots_for_game.refusal(seat.spec, game_string, game)
                if reason:
                    raise ValueError(reason)
        for i, seat in enumerate(seats):  # a bad spec is refused now, not at its first move
            if seat.kind != "human":
                agents.make_bot(seat.spec, game, i, 0)
        return cls(secrets.token_urlsafe(9), game_string, rule_set, universe, seats, seed, version)

    def _replay(self, moves) -> None:
        """Apply stored decisions; a simultaneous round's are in the core's order."""
        moves = list(moves)
        i = 0
        while i < len(moves):
            if self.in_round():
                order = self.state.core.simultaneous_player_list()
                joint = [-1] * len(self.seats)
                for p in order:
                    joint[p] = moves[i]
                    i += 1
                self.state.apply_actions(joint)
                self.moves.extend(joint[p] for p in order)
            else:
                self.state.apply_action(moves[i])
                self.moves.append(moves[i])
                i += 1

    def catch_up(
        self,
        moves,
        plans,
        changes,
        last_move,
        recorded,
        record_error,
        finished_at,
        turn_started=None,
        timeouts=(),
        seats=None,
        ended=None,
    ) -> None:
        """Bring a successor up to the stored row: apply the decisions it lacks
        (``moves``, in the record's order) and take the row's other fields."""
        if seats is not None:
            self.seats = seats
        self._replay(moves)
        self.turn_started = turn_started
        self.timeouts = [tuple(t) for t in timeouts]
        self.plans, self.changes, self.last_move = dict(plans), changes, last_move
        self.recorded, self.record_error, self.finished_at = recorded, record_error, finished_at
        self.ended = ended

    def successor(self) -> LiveGame:
        """A copy to change (the state cloned, the lists copied)."""
        new = object.__new__(LiveGame)
        new.__dict__.update(self.__dict__)
        new.state = self.state.clone()
        new.moves, new.plans, new.timeouts = list(self.moves), dict(self.plans), list(self.timeouts)
        new.seats = [dataclasses.replace(s) for s in self.seats]
        return new

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
        if self.over():
            return None
        if self.in_round():
            for p in self.round_seats():
                if self.seats[p].user == user and p not in self.plans:
                    return p
            return None
        p = self.to_move()
        return p if 0 <= p < len(self.seats) and self.seats[p].user == user else None

    def waiting_for(self, user: str) -> bool:
        return self.seat_to_move(user) is not None

    # -- joining (changes this object: call it on a successor)
    def joins(self, user: str) -> bool:
        """Whether ``user`` holds a seat it has not joined yet (opening the
        game, or moving in it, joins it)."""
        return any(s.user == user and s.joined is None for s in self.seats)

    def join(self, user: str, now: float) -> None:
        """``user`` has the game open: its seats' clocks may run from ``now``."""
        for s in self.seats:
            if s.user == user and s.joined is None:
                s.joined = now

    def unjoined(self) -> list[int]:
        """Human seats whose person never opened the game."""
        return [i for i, s in enumerate(self.seats) if s.kind == "human" and s.joined is None]

    # -- what one seat is shown (a function of its information state only)
    def view_mark(self, seat: int) -> int | str:
        """The position as ``seat`` knows it: the game page's ``data-moves``,
        the move form's ``at`` and the status poll's ``moves``.

        With perfect information it is the number of decisions (every seat
        sees them all). Otherwise it is a digest of the seat's information
        state: a count of decisions would tell a seat how many turns it did
        not see (KBeauty9's hidden placements: "at=5" after four hidden
        circles and a pass, "at=1" after the pass alone, on identical boards),
        and the page's poll, which reloads when the mark changes, would show
        each hidden turn as it is taken. The digest changes exactly when what
        the seat knows changes, so a stale form is still refused and the page
        reloads when, and only when, there is something new for it."""
        if self.perfect:
            return len(self.moves)
        if self.game.get_type().provides_information_state_string:
            text = self.state.information_state_string(seat)
        else:
            text = self.state.observation_string(seat)
        return hashlib.blake2b(text.encode(), digest_size=8).hexdigest()

    def waiting_seats(self, seats) -> list[int]:
        """Who the page of a person holding ``seats`` waits for (0-based). In a
        simultaneous round: every other seat of the round, whether or not it
        has planned yet (who has planned is not part of anyone's information
        state, and would show when the others decide); else the seat to move."""
        if self.in_round():
            return [p for p in self.round_seats() if p not in seats]
        return [self.state.current_player()]

    def last_move_for(self, seats) -> str | None:
        """The last-move line a person holding ``seats`` is shown. With perfect
        information every seat sees it. Otherwise only a timeout is ever named
        (moves are not), and only to the seats it names: that another seat ran
        out of time would tell that its turn went by."""
        if self.perfect or self.last_move is None:
            return self.last_move
        named = re.match(r"time ran out for seat ([\d, ]+);", self.last_move)
        if named and any(str(s + 1) in named.group(1).split(", ") for s in seats):
            return self.last_move
        return None

    # -- ending before the rules do (changes this object: call it on a successor)
    def over(self) -> bool:
        """Whether the game has ended: by its rules, a resignation or abandoning."""
        return self.state.is_terminal() or self.ended is not None

    def returns(self) -> list[float] | None:
        """The seats' returns: the rules' at the end, a resignation's
        (``registry.results.resignation_returns``), None otherwise."""
        if self.state.is_terminal():
            return list(self.state.returns())
        seat = self.resigned_seat()
        if seat is None:
            return None
        return resignation_returns(len(self.seats), seat, self.partners)

    def resigned_seat(self) -> int | None:
        return int(self.ended.split()[1]) if self.ended and self.ended.startswith("resigned") else None

    def stuck_bots(self) -> list[int]:
        """Bot seats whose bot cannot play this game (webapp/bots_for_game.py):
        a game stored before such pairings were refused, which nobody can finish."""
        return [
            p
            for p, seat in enumerate(self.seats)
            if seat.kind == "bot" and bots_for_game.refusal(seat.spec, self.game_string, self.game)
        ]

    def resign(self, user: str) -> None:
        """``user``'s seat resigns: it loses, and the game is recorded so
        (``registry.results.resignation_returns``). With several seats of one
        user, the first seat of that user resigns."""
        if self.over():
            raise MoveError("the game is over")
        mine = self.seat_of(user)
        if not mine:
            raise MoveError("only a seated person may resign")
        self.ended, self.plans = f"resigned {mine[0]}", {}
        self.changes += 1

    def abandon(self, user: str) -> None:
        """End a game nobody can finish (a seat's bot cannot play it); it is
        neither recorded nor rated. A game that can be finished is resigned."""
        if self.over():
            raise MoveError("the game is over")
        if not self.seat_of(user):
            raise MoveError("only a seated person may abandon a game")
        if not self.stuck_bots():
            raise MoveError(
                "this game can be finished: play on or resign (a resignation is recorded and rated)"
            )
        self.ended, self.plans = "abandoned", {}
        self.changes += 1

    # -- moving (changes this object: call it on a successor)
    def human_move(self, user: str, action: int) -> None:
        """Apply ``user``'s ``action`` if it is legal and this user's turn, then
        the bots' and Chaos's moves up to the next human turn or the end. In a
        simultaneous round the action is the user's plan: kept hidden until
        every person in the round has planned, then the bots plan and the
        round resolves at once."""
        if self.over():
            raise MoveError("the game is over")
        seat = self.seat_to_move(user)
        if seat is None:
            raise MoveError("it is not your turn")
        self.join(user, time.time())  # a person who moves has the game open
        if self.in_round():
            if action not in self.state.legal_actions(seat):
                raise MoveError(f"{action} is not a legal plan here")
            self.plans[seat] = action
        else:
            if action not in self.state.legal_actions():
                raise MoveError(f"{action} is not a legal move here")
            self._apply(action)
        self.changes += 1
        self.advance()

    def _bot(self, seat: int):
        """The bot of ``seat`` for the decision at the current move number."""
        return agents.make_bot(
            self.seats[seat].spec, self.game, seat, derive_seed(self.seed, "seat", seat, len(self.moves))
        )

    def _bot_step(self, seat: int) -> int:
        """The bot of ``seat``'s move; its refusal is a ``MoveError`` naming it
        (a game started before its bot was refused for such games cannot go on:
        nothing is played, and Resign or Abandon ends it)."""
        try:
            return self._bot(seat).step(self.state)
        except (ValueError, RuntimeError, pyspiel.SpielError) as e:
            raise MoveError(
                f"{self.seats[seat].player} (seat {seat + 1}) cannot move: {e}; nothing was played "
                "(resign or abandon this game)"
            ) from None

    def _resolve_round(self) -> bool:
        """Resolve the open round if every person in it has planned (the bots
        plan now, from the state their seat may see); False if a person has not."""
        deciding = self.round_seats()
        if any(self.seats[p].kind == "human" and p not in self.plans for p in deciding):
            return False
        joint = [-1] * len(self.seats)
        for p in deciding:
            joint[p] = self.plans[p] if p in self.plans else self._bot_step(p)
        order = self.state.core.simultaneous_player_list()  # the core applies in this order
        self.state.apply_actions(joint)
        self.moves.extend(joint[p] for p in order)
        self.plans = {}
        self.turn_started = time.time()
        return True

    def advance(self) -> None:
        """Play Chaos and the bots until a person must move or the game ends."""
        while not self.state.is_terminal():
            p = self.state.current_player()
            if p == pyspiel.PlayerId.SIMULTANEOUS:
                if not self._resolve_round():
                    return
                continue
            if p == pyspiel.PlayerId.CHANCE:
                actions, probs = zip(*self.state.chance_outcomes(), strict=True)
                rng = random.Random(derive_seed(self.seed, "chance", len(self.moves)))
                self._apply(rng.choices(actions, probs)[0])
            elif self.seats[p].kind == "human":
                return
            else:
                self._apply(self._bot_step(p))

    def _apply(self, action: int) -> None:
        p = self.state.current_player()
        if self.perfect:  # another seat's move may be hidden from the viewer otherwise
            self.last_move = self.state.action_to_string(p, action)
        self.state.apply_action(action)
        self.moves.append(action)
        self.turn_started = time.time()

    # -- seconds per turn (a rule set's ``seconds_per_turn``; the tic-tac-toe
    # variations specification's "300 seconds/turn")
    def due_seats(self) -> list[int]:
        """Human seats whose decision is due now: the person to move, or in a
        simultaneous round every person in it who has not planned yet."""
        if self.over():
            return []
        if self.in_round():
            return [p for p in self.round_seats() if self.seats[p].kind == "human" and p not in self.plans]
        p = self.state.current_player()
        return [p] if 0 <= p < len(self.seats) and self.seats[p].kind == "human" else []

    def seat_deadline(self, seat: int) -> float | None:
        """When ``seat``'s decision runs out of time: its clock starts with the
        position (a round's with the round), or when its person joined the game
        if that was later; None without a limit, when the seat has no decision
        due, or while its person has not joined (a friend seated in a game it
        never opened plays no moves, random or other)."""
        joined = self.seats[seat].joined
        if self.seconds_per_turn is None or self.turn_started is None or joined is None:
            return None
        if seat not in self.due_seats():
            return None
        return max(self.turn_started, joined) + self.seconds_per_turn

    def deadline(self) -> float | None:
        """When the first due human decision runs out of time (epoch seconds);
        None without a limit, at the end, or while no person who has joined
        must decide. A round's clock starts with the round: one person's plan
        does not restart the others' time."""
        ends = [d for d in map(self.seat_deadline, self.due_seats()) if d is not None]
        return min(ends) if ends else None

    def overdue(self, now: float) -> bool:
        deadline = self.deadline()
        return deadline is not None and now >= deadline

    def time_out(self, now: float) -> None:
        """What happens when a person's time runs out (the tic-tac-toe
        variations specification does not say):
        a random legal move is played for each overdue seat, drawn with
        ``derive_seed(seed, "timeout", seat, move number)`` so every process
        plays the same one; then the bots move as after any move. Why not a
        loss: the registry records a game as its moves and their returns, and a
        forfeit of one seat has no returns in a 3- or 4-player or cooperative
        rule set; a random move keeps the game and its record what the rules
        make of it, and a person who keeps missing turns plays as Random."""
        if not self.overdue(now):
            return
        seats = [p for p in self.due_seats() if (self.seat_deadline(p) or now + 1) <= now]
        names = []
        for seat in seats:
            rng = random.Random(derive_seed(self.seed, "timeout", seat, len(self.moves)))
            if self.in_round():
                self.plans[seat] = rng.choice(self.state.legal_actions(seat))
                # the round's decisions join the record in the core's order when
                # it resolves, and nothing is played before that
                order = self.state.core.simultaneous_player_list()
                self.timeouts.append((len(self.moves) + order.index(seat), seat))
            else:
                self.timeouts.append((len(self.moves), seat))
                action = rng.choice(self.state.legal_actions())
                names.append(self.state.action_to_string(seat, action) if self.perfect else None)
                self._apply(action)
        self.changes += 1
        self.advance()
        moved = f": {names[0]}" if names and names[0] else ""
        self.last_move = (
            f"time ran out for seat {', '.join(str(s + 1) for s in seats)}; "
            f"a random legal move was played{moved}"
        )
