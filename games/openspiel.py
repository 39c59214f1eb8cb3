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
"""
from __future__ import annotations

import dataclasses
from typing import Any, Callable, Mapping

import numpy as np
import pyspiel
from open_spiel.python.observation import IIGObserverForPublicInfoGame


@dataclasses.dataclass(frozen=True)
class GameSpec:
    """What a game declares; the adapter does the rest.

    ``make_core(params)`` receives the full parameter dict (defaults filled in)
    and must raise ``ValueError`` naming the allowed values for anything it
    cannot accept. ``make_observer(game, iig_obs_type, params)`` may replace
    the default perfect-information observer (hidden-information games).
    """

    game_type: pyspiel.GameType
    make_core: Callable[[Mapping[str, Any]], Any]
    min_utility: float = -1.0
    max_utility: float = 1.0
    utility_sum: float | None = 0.0
    make_observer: Callable[..., Any] | None = None


class CoreGame(pyspiel.Game):
    """A ``pyspiel.Game`` over a core; subclassed once per registered game."""

    SPEC: GameSpec

    def __init__(self, params: Mapping[str, Any] | None = None):
        spec = self.SPEC
        full = dict(spec.game_type.parameter_specification)
        full.update(params or {})
        core = spec.make_core(full)
        self._prototype = core
        info = pyspiel.GameInfo(
            num_distinct_actions=core.num_actions,
            max_chance_outcomes=core.max_chance_outcomes,
            num_players=core.num_players,
            min_utility=spec.min_utility,
            max_utility=spec.max_utility,
            utility_sum=spec.utility_sum,
            max_game_length=core.max_game_length,
        )
        super().__init__(spec.game_type, info, full)

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
        if iig_obs_type is None or (iig_obs_type.public_info and not iig_obs_type.perfect_recall):
            return CoreObserver(self, params)
        return IIGObserverForPublicInfoGame(iig_obs_type, params)


class CoreState(pyspiel.State):
    """The OpenSpiel state: a thin face over one core (its only attribute)."""

    def __init__(self, game: CoreGame, core):
        super().__init__(game)
        self.core = core

    def current_player(self):
        player = self.core.player()
        if player == -4:
            return pyspiel.PlayerId.TERMINAL
        if player == -1:
            return pyspiel.PlayerId.CHANCE
        return player

    def _legal_actions(self, player):
        return self.core.legal_action_list()

    def chance_outcomes(self):
        return self.core.chance_outcome_list()

    def _apply_action(self, action):
        self.core.apply_action(action)

    def _action_to_string(self, player, action):
        return self.core.action_string(player, action)

    def is_terminal(self):
        return self.core.terminal()

    def returns(self):
        return self.core.returns_list()

    def __str__(self):
        return self.core.to_string()


class CoreObserver:
    """Perfect-information observer: the core's own observation vector."""

    def __init__(self, game: CoreGame, params):
        if params:
            raise ValueError(f"observation parameters not supported; got {params}")
        size = len(game.new_core().observation())
        self.tensor = np.zeros(size, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: CoreState, player: int):
        self.tensor[:] = state.core.observation()

    def string_from(self, state: CoreState, player: int):
        return state.core.to_string()


def register(spec: GameSpec) -> type[CoreGame]:
    """Register ``spec`` under its short name and return the game class."""
    name = spec.game_type.short_name
    cls = type(f"{name}_game", (CoreGame,), {"SPEC": spec, "__doc__": spec.game_type.long_name})
    pyspiel.register_game(spec.game_type, cls)
    return cls


def game_type(short_name: str, long_name: str, parameters: Mapping[str, Any], *,
              num_players: tuple[int, int] = (2, 2),
              chance: bool = False,
              perfect_information: bool = True,
              zero_sum: bool = True) -> pyspiel.GameType:
    """A ``pyspiel.GameType`` with the settings every core game shares."""
    GT = pyspiel.GameType
    return GT(
        short_name=short_name,
        long_name=long_name,
        dynamics=GT.Dynamics.SEQUENTIAL,
        chance_mode=GT.ChanceMode.EXPLICIT_STOCHASTIC if chance else GT.ChanceMode.DETERMINISTIC,
        information=(GT.Information.PERFECT_INFORMATION if perfect_information
                     else GT.Information.IMPERFECT_INFORMATION),
        utility=GT.Utility.ZERO_SUM if zero_sum else GT.Utility.GENERAL_SUM,
        reward_model=GT.RewardModel.TERMINAL,
        min_num_players=num_players[0],
        max_num_players=num_players[1],
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=dict(parameters),
    )


def check_choice(params: Mapping[str, Any], name: str, allowed) -> Any:
    """Return ``params[name]`` or raise a ValueError that lists what is allowed."""
    value = params[name]
    if value not in allowed:
        shown = ", ".join(str(a) for a in allowed) if not isinstance(allowed, range) \
            else f"{allowed.start}..{allowed.stop - 1}"
        raise ValueError(f"parameter {name}={value!r} is not allowed; choose one of: {shown}")
    return value
