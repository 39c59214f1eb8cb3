"""Tic-tac-toe variations: rule sets as data (``rules`` gathers the modules),
a catalogue of the specification's named games (``catalogue/*.json``), one Cython
engine for all of them (``_engine``) and their OpenSpiel face
``ttt(rules=NAME)`` (``openspiel_game``). Rules as implemented: docs/rules/ttt.md
(the index of docs/rules/ttt/).

``make_core`` is the engine's public face: a fresh ``GameCore`` of any rule
set, including one that is not a file (``rules.parse({...})``), for mcts/,
solvers/ and tests that work on cores without going through OpenSpiel;
``shape_outranks(a, b)`` is the engine's rank of two shapes (SHAPES_ALL
indices), the one ``schema.outranks`` copies.
"""

from games.ttt._engine import make_core as _core_of_tables
from games.ttt._engine import shape_outranks
from games.ttt.resolve import fingerprint, resolve
from games.ttt.ruleset import RuleSet
from games.ttt.schema import RuleSetError


def make_core(rules: "str | RuleSet"):
    """The starting position (a ``GameCore``) of ``rules``: a ``RuleSet``, a
    catalogue name or a path to a rule-set file."""
    return _core_of_tables(resolve(rules).compile())


__all__ = ["RuleSet", "RuleSetError", "fingerprint", "make_core", "resolve", "shape_outranks"]
