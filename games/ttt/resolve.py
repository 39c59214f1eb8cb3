"""From what a user writes (``ttt(rules=NAME)``, a path) to a ``RuleSet``, and
the rule set's fingerprint that records of played games carry.

Why one function decides: OpenSpiel hands the engine a single string, which is
either a catalogue name or a path to a file; every caller (the game, the
command line, tournaments) must read it the same way and get the rules the
file holds now (``cache`` is keyed by content).
"""

from __future__ import annotations

from pathlib import Path

from games.ttt.ruleset import RuleSet
from games.ttt.sources import DirectorySource, RuleSetSource, load

PACKAGE_DIR = Path(__file__).resolve().parent
CATALOGUE_DIR = PACKAGE_DIR / "catalogue"
EXAMPLES_DIR = PACKAGE_DIR / "examples"
REPO_ROOT = PACKAGE_DIR.parents[1]

CATALOGUE = DirectorySource(CATALOGUE_DIR)
EXAMPLES = DirectorySource(EXAMPLES_DIR)

#: Further sources of named rule sets, consulted after the catalogue (the
#: registry's database adds itself here, so saved names load as ttt(rules=NAME)).
SOURCES: list[RuleSetSource] = []


def add_source(source: RuleSetSource) -> None:
    """Let ``resolve`` (and so ``ttt(rules=NAME)``) find the names ``source`` holds."""
    if source not in SOURCES:
        SOURCES.append(source)


def remove_source(source: RuleSetSource) -> None:
    if source in SOURCES:
        SOURCES.remove(source)


def catalogue() -> dict[str, RuleSet]:
    """Every rule set in games/ttt/catalogue, by name."""
    return CATALOGUE.load_all()


def _refuse(rules) -> ValueError:
    saved = " or a name saved in an attached registry" if SOURCES else ""
    return ValueError(
        f"parameter rules={rules!r} is not allowed; give a catalogue name "
        f"({', '.join(CATALOGUE.names())}){saved} or a path to a rule-set .json file"
    )


def resolve(rules: str | RuleSet) -> RuleSet:
    """A catalogue name or a path to a rule-set file (absolute, relative to the
    working directory, or relative to the repository); a ``RuleSet`` is
    returned as it is."""
    if isinstance(rules, RuleSet):
        return rules
    if not isinstance(rules, str) or not rules:
        raise _refuse(rules)
    if rules in CATALOGUE:
        return CATALOGUE.load(rules)
    for source in SOURCES:
        if rules in source:
            return source.load(rules)
    if rules.endswith(".json") or "/" in rules:
        path = Path(rules)
        if not path.is_absolute() and not path.exists() and (REPO_ROOT / path).exists():
            path = REPO_ROOT / path  # paths relative to the repository work anywhere
        return load(path)
    raise _refuse(rules)


def fingerprint(rules: str | RuleSet) -> str:
    """The 16-hex-digit digest of the rule set's canonical form: equal for rule
    sets that differ only by name or notes, different after any change to the
    rules themselves. ``rules`` is a catalogue name, a path or a ``RuleSet``."""
    return resolve(rules).fingerprint
