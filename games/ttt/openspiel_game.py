"""``ttt(rules=NAME)``: every tic-tac-toe variation as one OpenSpiel game.

``rules`` is a catalogue name (games/ttt/catalogue/NAME.json) or a path to a
rule-set file. Names exclude whitespace, ``*``, ``(`` and ``)`` so they survive
inside a game string; OpenSpiel's parser types a value itself, so a purely
numeric name would arrive as an int and be refused (none exists).

Why the game type is registered as GENERAL_SUM, EXPLICIT_STOCHASTIC,
SIMULTANEOUS, IMPERFECT_INFORMATION, 1..4 players (1: ``1-vs-chaos``):
``pyspiel.register_game`` fixes one ``GameType`` per short name, while one
``ttt`` name covers rule sets with 1, 2, 3 or 4 players, with or without Chaos
(a chance player), zero-sum or not, sequential or with simultaneous phases.
The registered type is therefore the weakest truthful claim over all rule
sets. Each loaded game then carries the
refined type of its own rule set (``game.get_type()``): exactly its number of
players, SEQUENTIAL and PERFECT_INFORMATION unless a phase is simultaneous or
single, DETERMINISTIC unless Chaos plays, ZERO_SUM only when two sides play
without Chaos and without all-win/all-lose rules (otherwise GENERAL_SUM with no
utility sum), PERFECT_INFORMATION unless some phase cloaks a space (cloaking
hides or obscures pieces: IMPERFECT_INFORMATION, with every player's
observation and information state from the engine) or a deck deals pieces
(EXPLICIT_STOCHASTIC and IMPERFECT_INFORMATION: docs/rules/ttt/deal.md), so
algorithms that check these fields see the truth.

Returns: +1 to every winner, -1 to every loser, 0 to everyone on a draw
(partners share their side's value; Chaos, being OpenSpiel's chance player,
has no return). Bounds are [-1, 1].
"""

from __future__ import annotations

import pyspiel

from games.openspiel import CoreGame, CoreState, GameSpec, Variant, game_type
from games.ttt import make_core
from games.ttt import rules as rules_mod

DEFAULT_RULES = "Tic-Tac-Toe"


def _make_core(params):
    if not isinstance(params["rules"], str):
        raise ValueError(
            f"parameter rules={params['rules']!r} is not allowed; give a catalogue "
            "name or a path to a rule-set .json file"
        )
    return make_core(params["rules"])


def _variant(params, core) -> Variant:
    rule_set = rules_mod.resolve(params["rules"])
    profile = rules_mod.outcome_profile(rule_set)
    return Variant(
        long_name=f"Tic-tac-toe variation {rule_set.name}",
        chance=profile["chance"],
        zero_sum=profile["zero_sum"],
        min_utility=profile["min_utility"],
        max_utility=profile["max_utility"],
    )


TTT_SPEC = GameSpec(
    game_type=game_type(
        "ttt",
        "Tic-tac-toe variations (rule sets as data)",
        {"rules": DEFAULT_RULES},
        num_players=(1, 4),
        chance=True,
        zero_sum=False,
        perfect_information=False,
        simultaneous=True,
    ),
    make_core=_make_core,
    min_utility=-1.0,
    max_utility=1.0,
    utility_sum=None,
    variant=_variant,
)


class TTTGame(CoreGame):
    """``CoreGame`` whose loaded type is its rule set's own (see module doc)."""

    SPEC = TTT_SPEC

    @property
    def rule_set(self) -> rules_mod.RuleSet:
        return rules_mod.resolve(self.get_parameters()["rules"])

    def new_initial_state(self):
        return TTTState(self, self._prototype.clone())


class TTTState(CoreState):
    """``CoreState`` that also reports Chaos's outcome."""

    def chaos_outcome(self) -> float:
        """Chaos's outcome for leaderboards: +1 when every player lost, -1 when
        every player won, else 0 (see ``TTTCore.chaos_outcome``). Chaos is
        OpenSpiel's chance player, so this is not part of ``returns()``."""
        return self.core.chaos_outcome()


def seconds_per_turn(game_or_rules, default: float | None = None) -> float | None:
    """The rule set's time per turn (metadata bots use as their budget), or
    ``default`` when the rule set sets none."""
    if isinstance(game_or_rules, str):
        rs = rules_mod.resolve(game_or_rules)
    elif isinstance(game_or_rules, rules_mod.RuleSet):
        rs = game_or_rules
    else:
        rs = rules_mod.resolve(game_or_rules.get_parameters()["rules"])
    return rs.seconds_per_turn if rs.seconds_per_turn is not None else default


pyspiel.register_game(TTT_SPEC.game_type, TTTGame)
