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
    game it encodes (a key of ``ECONOMIC_GAMES``); for a catalogue variant, the
    dilemma it varies (``variant_of``) and what it changes, in one line (``change``)."""

    name: str
    encodes: str
    variant_of: str | None = None
    change: str = ""


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


#: Catalogue variants of dilemmas, not of the specification: another reading of a
#: paragraph, or the smallest change under which the rule set has its namesake's
#: structure (found by ``analysis.dilemma_readings``; docs/rules/dilemmas_by_game.md
#: gives the reasons). The specification names 42 games; these are extra.
VARIANTS = tuple(
    Dilemma(n, e, base, change)
    for n, e, base, change in (
        (
            "Shopping9-Cloaked",
            "common-pool-resource",
            "Shopping9",
            "every space cloaked and turns hidden ('Cloaking hides' as 3Blotto13 and KBeauty9 read it): "
            "the purchases are hidden",
        ),
        (
            "KBeauty9-LeastWins",
            "beauty-contest",
            "KBeauty9",
            "'Most-in-a-row wins, Overachiever(s) disqualified' becomes 'Least-in-a-row wins'",
        ),
        (
            "NeedyUltimatum-MostCirclesWins",
            "ultimatum",
            "NeedyUltimatum",
            "'More pieces than chaos wins, Less pieces than chaos loses' becomes 'Most circles wins'",
        ),
        (
            "RichDictator-OpenFirstStack",
            "dictator",
            "RichDictator",
            "the first stack open to every seat, Chaos included, instead of exclusive to black",
        ),
        (
            "NeedyDictator-Most6Wins",
            "dictator",
            "NeedyDictator",
            "'More pieces than chaos wins, Less pieces than chaos loses' becomes 'Most 6-same-color-in-a-row "
            "wins': two circles given make white's line of six",
        ),
        (
            "StagHunt-LongestLine",
            "stag-hunt",
            "StagHunt",
            "'Most 2-same-color-in-a-row wins' read as the longest same-colour line wins",
        ),
    )
)


def available(variants: bool = True) -> list[Dilemma]:
    """The dilemmas whose rule set is in the catalogue, in the specification's order,
    then (with ``variants``) the catalogue's variants of them."""
    have = set(CATALOGUE.names())
    return [d for d in DILEMMAS + (VARIANTS if variants else ()) if d.name in have]
