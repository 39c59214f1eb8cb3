"""Tic-tac-toe rule sets as data, in one import: the names the rest of the
toolkit uses, gathered from the modules that each do one job.

| module | job |
|---|---|
| ``schema`` | the vocabulary: fields, allowed values, ``RuleSetError`` |
| ``validation`` | ``parse``/``parse_text``: every problem, or a ``RuleSet`` |
| ``ruleset`` | ``RuleSet``: canonical form, fingerprint, equality ignoring names |
| ``compiler`` | engine tables (``compile_rules``) and ``outcome_profile`` |
| ``cache`` | parsed rule sets keyed by their text, so edited files reload |
| ``sources`` | ``RuleSetSource`` (names, text by name), ``DirectorySource``, ``CATALOGUE``, ``add_source`` |
| ``resolve`` | ``resolve(NAME or path)``, ``load``, ``load_from``, ``fingerprint``, ``catalogue`` |
| ``cli`` | ``python -m games.ttt`` |

Rules as implemented: docs/rules/ttt.md (the index of docs/rules/ttt/).
"""

from games.ttt.cli import main
from games.ttt.compiler import compile_rules, outcome_profile
from games.ttt.resolve import catalogue, fingerprint, load, load_from, resolve
from games.ttt.ruleset import RuleSet, canonical_json
from games.ttt.schema import (
    BOARD_KINDS,
    COLOUR_MODES,
    EFFECT_ALL_LOSE,
    EFFECT_LOSE,
    EFFECT_WIN,
    MOVE_CODES,
    MOVES_NOW,
    PALETTE,
    PLAYERS,
    STALEMATES,
    TURN_CHECKS,
    RuleSetError,
    name_problem,
    parse_check,
    seats_of,
)
from games.ttt.sources import (
    CATALOGUE,
    CATALOGUE_DIR,
    EXAMPLES,
    EXAMPLES_DIR,
    REPO_ROOT,
    SOURCES,
    DirectorySource,
    RuleSetSource,
    add_source,
    remove_source,
)
from games.ttt.validation import parse, parse_text

__all__ = [
    "BOARD_KINDS",
    "CATALOGUE",
    "CATALOGUE_DIR",
    "COLOUR_MODES",
    "DirectorySource",
    "EFFECT_ALL_LOSE",
    "EFFECT_LOSE",
    "EFFECT_WIN",
    "EXAMPLES",
    "EXAMPLES_DIR",
    "MOVES_NOW",
    "MOVE_CODES",
    "PALETTE",
    "PLAYERS",
    "REPO_ROOT",
    "RuleSet",
    "SOURCES",
    "add_source",
    "remove_source",
    "RuleSetError",
    "RuleSetSource",
    "STALEMATES",
    "TURN_CHECKS",
    "canonical_json",
    "catalogue",
    "compile_rules",
    "fingerprint",
    "load",
    "load_from",
    "main",
    "name_problem",
    "outcome_profile",
    "parse",
    "parse_check",
    "parse_text",
    "resolve",
    "seats_of",
]
