"""The built-in kinds: ``random``, ``mcts``, ``openspiel_mcts``, ``alphabeta``,
``cfr`` (a saved CFR average policy), ``ismcts`` (information-set MCTS) and
``sm_mcts`` (simultaneous-move MCTS, decoupled UCT).

Each is the option schema of one bot class of ``mcts/`` or ``solvers/`` (the
classes check their own arguments too, for code that builds them directly;
the schema is what lets a tournament refuse a bad spec before its first game
and a web form list the choices). Budgets are the options that end a search;
a kind whose budgets could all be zero would never answer, so its ``check``
refuses that.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from typing import Any

import pyspiel

from agents.kinds import register_bot_kind
from agents.options import Option
from agents.random_bot import UniformRandomBot
from cfr.bots import CFRPolicyBot
from cfr.policy_file import load_policy
from games.loading import playable_game_string
from mcts.bots import CoreMCTSBot, OpenSpielMCTSBot
from mcts.ismcts import ISMCTSBot
from mcts.smmcts import FINAL_MODES, SELECTIONS, SMMCTSBot
from solvers.bots import AlphaBetaBot

_INT31 = 2**31 - 1  # OpenSpiel and the alpha-beta kernel count in C ints


def _needs_budget(kind: str, *budgets: str):
    def check(settings: Mapping[str, Any]) -> None:
        if not any(settings[name] > 0 for name in budgets):
            raise ValueError(
                f"bot kind {kind!r} needs a budget: give "
                f"{' or '.join(f'{name} > 0' for name in budgets)} (or both)"
            )

    return check


def _uct_c() -> Option:
    return Option("uct_c", float, 1.4, "UCT exploration constant", minimum=0.0)


def _seconds(name: str, text: str) -> Option:
    return Option(name, float, 0.0, f"{text} in seconds (0: no limit)", minimum=0.0)


def _solve() -> Option:
    return Option("solve", bool, True, "MCTS-Solver: back up proven wins and losses")


def _build_random(game, player: int, seed: int) -> UniformRandomBot:
    return UniformRandomBot(player, seed)


def _build_mcts(game, player: int, seed: int, **settings) -> CoreMCTSBot:
    return CoreMCTSBot(game, player, seed=seed, **settings)


def _build_openspiel_mcts(game, player: int, seed: int, **settings) -> OpenSpielMCTSBot:
    return OpenSpielMCTSBot(game, player, seed=seed, **settings)


def _build_alphabeta(game, player: int, seed: int, **settings) -> AlphaBetaBot:
    return AlphaBetaBot(game, player, seed=seed, **settings)


register_bot_kind(
    "random",
    _build_random,
    (),
    description="uniform random legal moves (OpenSpiel's uniform random bot); the rating anchor",
)

register_bot_kind(
    "mcts",
    _build_mcts,
    (
        _uct_c(),
        Option(
            "max_simulations",
            int,
            1000,
            "simulations per move (0: no limit)",
            minimum=0,
            maximum=_INT31,
            aliases=("simulations",),
        ),
        _seconds("max_time", "search time per move"),
        _solve(),
        Option("max_nodes", int, 0, "tree size cap in nodes (0: no cap)", minimum=0, maximum=_INT31),
    ),
    description="this toolkit's UCT with random playouts and MCTS-Solver (mcts.bots.CoreMCTSBot); "
    "with both budgets the first one reached ends the search",
    check=_needs_budget("mcts", "max_simulations", "max_time"),
)

register_bot_kind(
    "openspiel_mcts",
    _build_openspiel_mcts,
    (
        _uct_c(),
        Option(
            "max_simulations",
            int,
            1000,
            "simulations per move",
            minimum=1,
            maximum=_INT31,
            aliases=("simulations",),
        ),
        _seconds("max_time", "search time per move"),
        Option("rollouts", int, 1, "random rollouts per leaf evaluation", minimum=1, maximum=_INT31),
        _solve(),
        Option("max_memory_mb", int, 1000, "tree memory cap in MB", minimum=1, maximum=_INT31),
    ),
    description="OpenSpiel's C++ MCTS with random-rollout evaluation (mcts.bots.OpenSpielMCTSBot)",
)

register_bot_kind(
    "alphabeta",
    _build_alphabeta,
    (
        Option(
            "depth",
            int,
            0,
            "iterative deepening up to this many plies (0: no limit)",
            minimum=0,
            maximum=_INT31,
        ),
        _seconds("time_limit", "search time per move"),
        Option("tt_log2", int, 20, "transposition table of 2**N entries", minimum=10, maximum=30),
        Option("eval_playouts", int, 8, "random playouts per leaf estimate", minimum=1, maximum=_INT31),
    ),
    description="iterative-deepening alpha-beta with a transposition table "
    "(solvers.bots.AlphaBetaBot); plays perfectly where it searches to the end",
    check=_needs_budget("alphabeta", "depth", "time_limit"),
)


_WRAPPER = "turn_based_simultaneous_game(game="


def policy_for_form(game, doc: dict) -> dict:
    """The policy document ``doc`` (``cfr.policy_file.load_policy``) for ``game`` when it
    was solved on the other form of the same simultaneous game, else ``doc`` as it is.

    Why this works: CFR solves a simultaneous game ``G`` on its turn-based form, and
    saves ``G``'s policy keyed by that form's information-state strings
    (``"Current player: p\\n"`` and ``G``'s string: ``turn_based`` true). A solve of
    ``turn_based_simultaneous_game(game=G)``, the form tournaments play, has the same
    strings as its own (``turn_based`` false); tests/test_tournament_catalogue.py
    checks the two key sets are equal. So the table serves either form once the
    document names the game it plays and says whether the bot adds the prefix.
    """
    played, solved = str(game), doc["game"]
    if played == solved:
        return doc
    if played.startswith(_WRAPPER) and doc.get("turn_based") and played == _wrapped(solved):
        return dict(doc, game=played, turn_based=False)
    if (
        game.get_type().dynamics == pyspiel.GameType.Dynamics.SIMULTANEOUS
        and not doc.get("turn_based")
        and solved == _wrapped(played)
    ):
        return dict(doc, game=played, turn_based=True)
    return doc


def _wrapped(game_string: str) -> str | None:
    """The turn-based form tournaments play of a simultaneous ``game_string``
    (``games.loading.playable_game_string``); None for any other game."""
    try:
        played = playable_game_string(game_string)
    except pyspiel.SpielError:
        return None
    return played if played != game_string else None


def _loaded_policy(path: str) -> dict:
    """``load_policy(path)``, read once per process while the file is unchanged.

    Why: a tournament builds its bots for every game, and a policy solved over a DAG
    (cfr.dag) is large: Centipede9's lists 863,762 information sets, 77 MB of JSON that
    takes 7.7 s to load, which made each of its games a load. The key holds the file's
    size and modification time, so a rewritten file is read again; bots only read the
    document."""
    from pathlib import Path

    stat = Path(path).stat() if Path(path).exists() else None
    return _load_policy_once(str(Path(path).resolve()), (stat.st_mtime_ns, stat.st_size) if stat else None)


@functools.lru_cache(maxsize=4)
def _load_policy_once(path: str, version) -> dict:
    return load_policy(path)


def _build_cfr(game, player: int, seed: int, **settings) -> CFRPolicyBot:
    policy = settings.pop("policy")
    if isinstance(game, str):
        game = pyspiel.load_game(game)
    doc = policy if isinstance(policy, dict) else _loaded_policy(policy)
    return CFRPolicyBot(game, player, seed=seed, policy=policy_for_form(game, doc), **settings)


register_bot_kind(
    "cfr",
    _build_cfr,
    (Option("policy", str, None, "a policy file written by python -m cfr --save (JSON)", required=True),),
    description="plays a saved CFR average policy (cfr.bots.CFRPolicyBot), sampling it with "
    "its seed; for hidden-information and simultaneous games (a policy solved on a "
    "simultaneous game or on its turn_based_simultaneous_game form plays either form)",
)


def _build_ismcts(game, player: int, seed: int, **settings) -> ISMCTSBot:
    return ISMCTSBot(game, player, seed=seed, **settings)


register_bot_kind(
    "ismcts",
    _build_ismcts,
    (
        _uct_c(),
        Option(
            "max_simulations",
            int,
            1000,
            "iterations (determinisations) per move",
            minimum=1,
            maximum=_INT31,
            aliases=("simulations",),
        ),
        Option(
            "max_worlds",
            int,
            1_000,
            "list the consistent histories up to this many (auto: sample above it; exact: refuse above it)",
            minimum=1,
            maximum=_INT31,
        ),
        Option(
            "worlds",
            str,
            "auto",
            "auto: list the worlds up to max_worlds, sample above; exact: "
            "list only; sample: sample only (mcts.worlds); first: the "
            "one-world baseline that ignores hidden-state uncertainty",
        ),
        Option(
            "tree",
            str,
            "actions",
            "actions: a node per action sequence (SO-ISMCTS); infosets: "
            "each mover's statistics at its own information state",
        ),
        Option(
            "belief",
            str,
            "histories",
            "how listed worlds are weighted: histories: every "
            "consistent history alike; random: as if the others "
            "played uniformly at random (mcts.worlds.BELIEFS)",
        ),
    ),
    description="single-observer information-set MCTS (mcts.ismcts.ISMCTSBot): searches worlds "
    "sampled from what its player knows, for cloaked (hidden-piece) games and "
    "simultaneous rounds",
)


def _build_sm_mcts(game, player: int, seed: int, **settings) -> SMMCTSBot:
    return SMMCTSBot(game, player, seed=seed, **settings)


register_bot_kind(
    "sm_mcts",
    _build_sm_mcts,
    (
        _uct_c(),
        Option(
            "max_simulations",
            int,
            1000,
            "iterations per decision",
            minimum=1,
            maximum=_INT31,
            aliases=("simulations",),
        ),
        Option(
            "final",
            str,
            "auto",
            "the decision: mix: drawn from the root visit frequencies; "
            "max: the most visited; auto: mix in a simultaneous round, "
            f"max elsewhere (one of {', '.join(FINAL_MODES)})",
        ),
        Option(
            "selection",
            str,
            "duct",
            "duct: UCB1 on each seat's own statistics (decoupled UCT); "
            "rm: regret matching, whose mean strategy is the policy "
            f"(one of {', '.join(SELECTIONS)})",
        ),
        Option(
            "gamma",
            float,
            0.1,
            "rm: the uniform exploration mixed into each strategy",
            minimum=0.001,
            maximum=1.0,
        ),
    ),
    description="simultaneous-move MCTS with decoupled UCT (mcts.smmcts.SMMCTSBot): each seat "
    "chooses from its own statistics; for simultaneous rounds whose only hidden "
    "information is the round's plans (refuses cloaked games: use ismcts)",
)
