"""The economic dilemmas of the tic-tac-toe variations specification: which catalogue rule set encodes which
textbook game.

Why a list apart from the rule sets: the study (``experiments.economic_dilemmas``)
and the docs (``docs/rules/dilemmas.md``) both need to know what a rule set is
meant to encode, to check that its computed payoff table really has that
game's structure; the rule-set schema has no field for intent, and should not.
Names are the specification's (one it leaves unnamed is ``4P-AnyPieceLoses``).
``available()`` lists those the catalogue holds: a dilemma without a catalogue
rule set is left out of the study rather than failing it.
"""

from __future__ import annotations

from dataclasses import dataclass

from games.ttt.sources import CATALOGUE

# The economic games the specification's dilemmas encode (labels used by DILEMMAS).
ECONOMIC_GAMES = {
    "rock-paper-scissors": "Rock-paper-scissors",
    "hide-and-seek": "Hide and seek",
    "common-pool-resource": "Common-pool resource (shopping)",
    "trend-setting": "Trend setting (matching-pennies-like anti-coordination)",
    "public-goods": "Public goods game",
    "trust": "Trust game",
    "colonel-blotto": "Colonel Blotto",
    "beauty-contest": "Keynesian beauty contest",
    "stag-hunt": "Stag hunt",
    "coordination": "Pure coordination (any piece loses)",
    "prisoners-dilemma": "Prisoner's dilemma",
    "ultimatum": "Ultimatum game",
    "volunteers-dilemma": "Volunteer's dilemma",
    "battle-of-the-sexes": "Battle of the sexes",
    "centipede": "Centipede game",
    "dictator": "Dictator game",
    "trolley": "Trolley dilemma",
}


@dataclass(frozen=True)
class Dilemma:
    """One of the specification's dilemma games: its catalogue name and the economic
    game it encodes (a key of ``ECONOMIC_GAMES``)."""

    name: str
    encodes: str


DILEMMAS = tuple(
    Dilemma(n, e)
    for n, e in (
        ("RockPaperScissors", "rock-paper-scissors"),
        ("3P-9X-HideSeek", "hide-and-seek"),
        ("Shopping9", "common-pool-resource"),
        ("4P-TrendSetter", "trend-setting"),
        ("3P-PublicGoods", "public-goods"),
        ("NeedyTrust", "trust"),
        ("RichTrust", "trust"),
        ("3Blotto13", "colonel-blotto"),
        ("KBeauty9", "beauty-contest"),
        ("StagHunt", "stag-hunt"),
        ("4P-AnyPieceLoses", "coordination"),
        ("PrisonerDilemma", "prisoners-dilemma"),
        ("NeedyUltimatum", "ultimatum"),
        ("3P-Volunteer", "volunteers-dilemma"),
        ("BoS", "battle-of-the-sexes"),
        ("Centipede9", "centipede"),
        ("NeedyDictator", "dictator"),
        ("ContractHunt", "stag-hunt"),
        ("OptionalPD", "prisoners-dilemma"),
        ("ContractPD", "prisoners-dilemma"),
        ("3P-BoS", "battle-of-the-sexes"),
        ("NeedyCentipede4", "centipede"),
        ("RichUltimatum", "ultimatum"),
        ("RichDictator", "dictator"),
        ("4P-TrolleyDilemma", "trolley"),
        ("3P-TrolleyDilemma", "trolley"),
    )
)


def available() -> list[Dilemma]:
    """The dilemmas whose rule set is in the catalogue, in the specification's order."""
    have = set(CATALOGUE.names())
    return [d for d in DILEMMAS if d.name in have]
