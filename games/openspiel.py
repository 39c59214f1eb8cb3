"""One adapter that turns any Cython ``GameCore`` into a registered OpenSpiel game.

A game module describes itself with a ``GameSpec`` (its ``pyspiel.GameType``,
utility range, and a function from validated parameters to a fresh core) and
calls ``register(spec)``. From then on ``pyspiel.load_game("name(k=v)")`` works,
and every OpenSpiel algorithm sees an ordinary ``pyspiel.Game``.

Why the state is shaped the way it is (measured with OpenSpiel 2.0.2, see
docs/DESIGN.md): OpenSpiel clones a Python state by deep-copying its
``__dict__``, so the state keeps exactly one attribute, the core, whose
``__deepcopy__`` is a memcpy; it never holds the Game object. Each game class
is registered as a class, not a lambda: a lambda creator aborts the interpreter
at exit.

Who sees what: strings and tensors reach OpenSpiel only through
``make_py_observer``, so the observer is where the core's per-player views
(games/core.pxd) are served; each loaded game's ``GameType`` is built from its
core (dynamics, information, players) and its ``Variant``; a core with
simultaneous rounds is shown as SIMULTANEOUS nodes with joint actions.
``is_core_game``/``is_core_state``/``core_of`` are the one answer to "is this
one of ours?", and ``require_perfect_information`` the one check every search
that sees the whole state makes.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable, Mapping
from typing import Any

import numpy as np
import pyspiel
from open_spiel.python.observation import IIGObserverForPublicInfoGame

from games import core as _core

SIMULTANEOUS = int(_core.PLAYER_SIMULTANEOUS)
CHANCE = int(_core.PLAYER_CHANCE)
TERMINAL = int(_core.PLAYER_TERMINAL)
assert (SIMULTANEOUS, CHANCE, TERMINAL) == (
    int(pyspiel.PlayerId.SIMULTANEOUS),
    int(pyspiel.PlayerId.CHANCE),
    int(pyspiel.PlayerId.TERMINAL),
)


@dataclasses.dataclass(frozen=True)
class Variant:
    """What one parameter setting of a game may truthfully claim beyond the
    registered ``GameType`` (the weakest claim over every setting): fields
    left None keep the registered value. The number of players, dynamics and
    information always come from the core itself."""

    long_name: str | None = None
    chance: bool | None = None
    zero_sum: bool | None = None
    min_utility: float | None = None
    max_utility: float | None = None


@dataclasses.dataclass(frozen=True)
class GameSpec:
    """What a game declares; the adapter does the rest.

    ``make_core(params)`` receives the full parameter dict (defaults filled in)
    and must raise ``ValueError`` naming the allowed values for anything it
    cannot accept. ``variant(params, core)`` (optional) refines the registered
    type for one parameter setting (see ``Variant``). ``make_observer(game,
    iig_obs_type, params)`` may replace the observer built on the core's
    per-player views.
    """

    game_type: pyspiel.GameType
    make_core: Callable[[Mapping[str, Any]], Any]
    min_utility: float = -1.0
    max_utility: float = 1.0
    utility_sum: float | None = 0.0
    make_observer: Callable[..., Any] | None = None
    variant: Callable[[Mapping[str, Any], Any], Variant] | None = None


class CoreGame(pyspiel.Game):
    """A ``pyspiel.Game`` over a core; subclassed once per registered game.

    Each loaded game carries its own ``GameType``: exactly its number of
    players, SIMULTANEOUS or IMPERFECT_INFORMATION as its core declares, and
    whatever its ``Variant`` refines, so algorithms that check the type see
    the truth about this parameter setting.
    """

    SPEC: GameSpec

    def __init__(self, params: Mapping[str, Any] | None = None):
        spec = self.SPEC
        full = dict(spec.game_type.parameter_specification)
        full.update(params or {})
        core = spec.make_core(full)
        variant = spec.variant(full, core) if spec.variant is not None else Variant()
        self._prototype = core
        zero_sum = (
            variant.zero_sum
            if variant.zero_sum is not None
            else spec.game_type.utility == pyspiel.GameType.Utility.ZERO_SUM
        )
        gtype = _loaded_type(spec.game_type, core, variant, zero_sum)
        info = pyspiel.GameInfo(
            num_distinct_actions=core.num_actions,
            max_chance_outcomes=core.max_chance_outcomes,
            num_players=core.num_players,
            min_utility=_first(variant.min_utility, spec.min_utility),
            max_utility=_first(variant.max_utility, spec.max_utility),
            utility_sum=(0.0 if zero_sum else None) if variant.zero_sum is not None else spec.utility_sum,
            max_game_length=core.max_game_length,
        )
        super().__init__(gtype, info, full)

    def new_initial_state(self):
        return CoreState(self, self._prototype.clone())

    def new_core(self):
        """A fresh core of this game, for kernels that skip the OpenSpiel face."""
        return self._prototype.clone()

    def __reduce__(self):
        # pybind11's pickling of a pyspiel.Game restores the C++ side only:
        # a Python game came back without its prototype core, or could not be
        # found by class name at all. A game is fully named by its short name
        # and parameters, so it is pickled as that and loaded again.
        return (CoreGame.load_registered, (self.get_type().short_name, self.get_parameters()))

    @staticmethod
    def load_registered(short_name: str, params: Mapping[str, Any]):
        """Load a game of the toolkit by name (the unpickler's entry point:
        importing this module imports the ``games`` package first, which
        registers every game, so a fresh process can unpickle too)."""
        return pyspiel.load_game(short_name, dict(params))

    def make_py_observer(self, iig_obs_type=None, params=None):
        if self.SPEC.make_observer is not None:
            return self.SPEC.make_observer(self, iig_obs_type, params)
        if self._prototype.perfect_information:
            if iig_obs_type is None or (iig_obs_type.public_info and not iig_obs_type.perfect_recall):
                return CoreObserver(self, "state", params)
            return IIGObserverForPublicInfoGame(iig_obs_type, params)
        return CoreObserver(self, _hidden_view(self, iig_obs_type), params)


def _first(value, default):
    return default if value is None else value


def _loaded_type(registered: pyspiel.GameType, core, variant: Variant, zero_sum: bool) -> pyspiel.GameType:
    """The registered type narrowed to one loaded game; refuses a core that
    claims more than was registered (the registered type must be the weakest
    truthful claim, or OpenSpiel would trust it for every variant)."""
    GT = pyspiel.GameType
    chance = (
        variant.chance
        if variant.chance is not None
        else registered.chance_mode != GT.ChanceMode.DETERMINISTIC
    )
    loaded = game_type(
        registered.short_name,
        _first(variant.long_name, registered.long_name),
        registered.parameter_specification,
        num_players=(core.num_players, core.num_players),
        chance=chance,
        perfect_information=core.perfect_information,
        zero_sum=zero_sum,
        simultaneous=bool(core.simultaneous_moves),
    )
    weaker = {
        "dynamics": registered.dynamics in (loaded.dynamics, GT.Dynamics.SIMULTANEOUS),
        "information": (
            registered.information == loaded.information
            or loaded.information == GT.Information.PERFECT_INFORMATION
        ),
        "chance_mode": (
            registered.chance_mode == loaded.chance_mode or loaded.chance_mode == GT.ChanceMode.DETERMINISTIC
        ),
        "utility": registered.utility == loaded.utility or registered.utility == GT.Utility.GENERAL_SUM,
        "num_players": registered.min_num_players <= core.num_players <= registered.max_num_players,
    }
    wrong = [field for field, ok in weaker.items() if not ok]
    if wrong:
        raise ValueError(
            f"{registered.short_name} is registered with a stronger claim than this "
            f"variant satisfies ({', '.join(wrong)}); register the weakest claim "
            "over all its variants"
        )
    return loaded


class CoreState(pyspiel.State):
    """The OpenSpiel state: a thin face over one core (its only attribute).

    A simultaneous round of the core (consecutive hidden decisions) is shown
    as one SIMULTANEOUS node whose joint action the core applies at once.
    """

    def __init__(self, game: CoreGame, core):
        super().__init__(game)
        self.core = core

    def current_player(self):
        player = self.core.player()
        if player == TERMINAL:
            return pyspiel.PlayerId.TERMINAL
        if player == CHANCE:
            return pyspiel.PlayerId.CHANCE
        if self.core.simultaneous_moves and self.core.simultaneous_player_list():
            return pyspiel.PlayerId.SIMULTANEOUS
        return player

    def _legal_actions(self, player):
        if self.core.simultaneous_moves and self.core.simultaneous_player_list():
            if player == SIMULTANEOUS:
                # OpenSpiel's flat joint actions: indices into the product of
                # the players' legal lists, player 0 varying fastest
                return list(range(math.prod(len(legal) or 1 for legal in self._round_choices())))
            return self.core.player_legal_action_list(player)
        return self.core.legal_action_list()

    def chance_outcomes(self):
        return self.core.chance_outcome_list()

    def _apply_action(self, action):
        if self.core.simultaneous_moves and self.core.simultaneous_player_list():
            self.core.apply_joint_action(self._joint_from_flat(action))
        else:
            self.core.apply_action(action)

    def _round_choices(self):
        return [self.core.player_legal_action_list(p) for p in range(self.core.num_players)]

    def _joint_from_flat(self, flat):
        """Decode a flat joint action as OpenSpiel does (player 0 fastest;
        players without a choice get -1, OpenSpiel's invalid action)."""
        lists = self._round_choices()
        if not 0 <= flat < math.prod(len(legal) or 1 for legal in lists):
            raise ValueError(
                f"flat joint action {flat} is out of range; legal: {self._legal_actions(SIMULTANEOUS)}"
            )
        joint = []
        for legal in lists:
            if legal:
                flat, index = divmod(flat, len(legal))
                joint.append(legal[index])
            else:
                joint.append(-1)
        return joint

    def _apply_actions(self, actions):
        self.core.apply_joint_action(list(actions))

    def _action_to_string(self, player, action):
        return self.core.action_string(player, action)

    def is_terminal(self):
        return self.core.terminal()

    def returns(self):
        return self.core.returns_list()

    def __str__(self):
        return self.core.to_string()


def _hidden_view(game: CoreGame, iig_obs_type) -> str:
    """Which of the core's views answers ``iig_obs_type`` in a hidden game."""
    private = pyspiel.PrivateInfoType
    if iig_obs_type is None:
        return "observation"
    if iig_obs_type.public_info and iig_obs_type.private_info == private.SINGLE_PLAYER:
        return "information_state" if iig_obs_type.perfect_recall else "observation"
    if (
        iig_obs_type.public_info
        and iig_obs_type.private_info == private.ALL_PLAYERS
        and not iig_obs_type.perfect_recall
    ):
        return "state"  # everything: what an onlooker who sees all cards observes
    raise ValueError(
        f"{game.get_type().short_name} provides these observation types: the observing player's "
        "own view with public information (perfect_recall=True for the information state, False "
        "for the observation), or perfect_recall=False with private_info=ALL_PLAYERS for the "
        f"whole state; got perfect_recall={iig_obs_type.perfect_recall}, "
        f"public_info={iig_obs_type.public_info}, private_info={iig_obs_type.private_info.name}"
    )


class CoreObserver:
    """The observer OpenSpiel reaches every string and tensor through.

    ``view`` is "state" (the whole position, for perfect-information games
    and onlookers), "observation" or "information_state" (one player's view
    from the core's per-player methods).
    """

    def __init__(self, game: CoreGame, view: str, params):
        if params:
            raise ValueError(f"observation parameters not supported; got {params}")
        self._view = view
        size = len(self._tensor(game.new_core(), 0))
        self.tensor = np.zeros(size, np.float32)
        self.dict = {"info_state" if view == "information_state" else "observation": self.tensor}

    def _tensor(self, core, player: int):
        if self._view == "observation":
            return core.observation_tensor(player)
        if self._view == "information_state":
            return core.information_state_tensor(player)
        return core.observation()

    def set_from(self, state: CoreState, player: int):
        self.tensor[:] = self._tensor(state.core, player)

    def string_from(self, state: CoreState, player: int):
        if self._view == "observation":
            return state.core.observation_string(player)
        if self._view == "information_state":
            return state.core.information_state_string(player)
        return state.core.to_string()


def is_core_game(game) -> bool:
    """Whether ``game`` is one of this toolkit's games (a Cython core behind it)."""
    return isinstance(game, CoreGame)


def is_core_state(state) -> bool:
    """Whether ``state`` is a state of one of this toolkit's games."""
    return isinstance(state, CoreState)


def core_of(subject):
    """A fresh core at ``subject``'s position: a state of ours (cloned, the
    state is not touched) or a game of ours (its initial position)."""
    if isinstance(subject, CoreState):
        return subject.core.clone()
    if isinstance(subject, CoreGame):
        return subject.new_core()
    raise ValueError(
        f"{_name(subject)} is not one of this toolkit's Cython games "
        "(registered through games.openspiel); its kernels cannot run it"
    )


def _name(subject) -> str:
    if isinstance(subject, pyspiel.Game):
        return str(subject)
    if isinstance(subject, pyspiel.State):
        return str(subject.get_game())
    if isinstance(subject, _core.GameCore):
        return type(subject).__name__
    return repr(subject)


def refuse_terminal(state) -> None:
    """The one error every bot gives when asked to move after the game has ended
    (a pyspiel bot would otherwise crash the process or raise from deep inside)."""
    if state.is_terminal():
        raise ValueError("a bot was asked for a move in a terminal state: the game is over")


def require_perfect_information(subject, algorithm: str, instead: str) -> None:
    """Refuse a hidden-information or simultaneous game for ``algorithm``.

    ``subject`` is a ``pyspiel.Game``, a ``pyspiel.State`` or a ``GameCore``;
    the error names the game and what to use ``instead``. Searches that see
    the whole state would otherwise silently cheat on a hidden game.
    """
    if isinstance(subject, pyspiel.State):
        subject = subject.get_game()
    if isinstance(subject, pyspiel.Game):
        t = subject.get_type()
        simultaneous = t.dynamics != pyspiel.GameType.Dynamics.SEQUENTIAL
        hidden = t.information != pyspiel.GameType.Information.PERFECT_INFORMATION
    elif isinstance(subject, _core.GameCore):
        simultaneous = bool(subject.simultaneous_moves)
        hidden = not subject.perfect_information
    else:
        raise ValueError(f"{algorithm} needs a pyspiel game, state or game core, got {subject!r}")
    if simultaneous or hidden:
        what = "has simultaneous moves" if simultaneous else "has hidden information"
        raise ValueError(
            f"{_name(subject)} {what}; {algorithm} needs a sequential "
            f"perfect-information game and would see what players cannot; "
            f"use {instead}"
        )


def register(spec: GameSpec) -> type[CoreGame]:
    """Register ``spec`` under its short name and return the game class."""
    name = spec.game_type.short_name
    cls = type(f"{name}_game", (CoreGame,), {"SPEC": spec, "__doc__": spec.game_type.long_name})
    pyspiel.register_game(spec.game_type, cls)
    return cls


def game_type(
    short_name: str,
    long_name: str,
    parameters: Mapping[str, Any],
    *,
    num_players: tuple[int, int] = (2, 2),
    chance: bool = False,
    perfect_information: bool = True,
    zero_sum: bool = True,
    simultaneous: bool = False,
) -> pyspiel.GameType:
    """A ``pyspiel.GameType`` with the settings every core game shares.

    A simultaneous game is never perfect-information (each player's choice is
    hidden until the round resolves); hidden-information games provide an
    information-state tensor from their core.
    """
    GT = pyspiel.GameType
    perfect_information = perfect_information and not simultaneous
    return GT(
        short_name=short_name,
        long_name=long_name,
        dynamics=GT.Dynamics.SIMULTANEOUS if simultaneous else GT.Dynamics.SEQUENTIAL,
        chance_mode=GT.ChanceMode.EXPLICIT_STOCHASTIC if chance else GT.ChanceMode.DETERMINISTIC,
        information=(
            GT.Information.PERFECT_INFORMATION
            if perfect_information
            else GT.Information.IMPERFECT_INFORMATION
        ),
        utility=GT.Utility.ZERO_SUM if zero_sum else GT.Utility.GENERAL_SUM,
        reward_model=GT.RewardModel.TERMINAL,
        min_num_players=num_players[0],
        max_num_players=num_players[1],
        provides_information_state_string=True,
        provides_information_state_tensor=not perfect_information,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=dict(parameters),
    )


def check_choice(params: Mapping[str, Any], name: str, allowed) -> Any:
    """Return ``params[name]`` or raise a ValueError that lists what is allowed."""
    value = params[name]
    if value not in allowed:
        shown = (
            ", ".join(str(a) for a in allowed)
            if not isinstance(allowed, range)
            else f"{allowed.start}..{allowed.stop - 1}"
        )
        raise ValueError(f"parameter {name}={value!r} is not allowed; choose one of: {shown}")
    return value
