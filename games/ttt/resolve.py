"""From what a user writes (``ttt(rules=NAME)``, a path) to a ``RuleSet``, and
the rule set's fingerprint that records of played games carry.

Why one function decides: OpenSpiel hands the engine a single string, which is
either a catalogue name or a path to a file; every caller (the game, the
command line, tournaments) must read it the same way and get the rules the
file holds now (``cache`` is keyed by content). The names are looked for in
``sources`` (the catalogue, then the attached sources); this module parses what
it finds there.
"""

from __future__ import annotations

from pathlib import Path

from games.ttt import cache
from games.ttt.ruleset import RuleSet
from games.ttt.schema import RuleSetError
from games.ttt.sources import CATALOGUE, REPO_ROOT, SOURCES, RuleSetSource


def load(path: str | Path) -> RuleSet:
    """The rule set in a file; ``RuleSetError`` if it cannot be read or is invalid."""
    path = Path(path)
    try:
        text = path.read_text()
    except OSError as e:
        raise RuleSetError([f"(file): cannot read {path}: {e.strerror}"], str(path)) from None
    except UnicodeDecodeError as e:
        raise RuleSetError([f"(file): not UTF-8 text: {e.reason}"], str(path)) from None
    return cache.parsed(text, str(path))


def load_from(source: RuleSetSource, name: str) -> RuleSet:
    """The rule set called ``name`` in ``source``; ``KeyError`` if the source has none,
    ``RuleSetError`` if the stored text is invalid or names another rule set."""
    text = source.read(name)
    if text is None:
        raise KeyError(name)
    rs = cache.parsed(text, source.origin(name))
    expected = source.expected_name(name)
    if expected is not None and rs.name != expected:
        raise RuleSetError([f"name: {rs.name!r} is stored under the name {name!r}"], source.origin(name))
    return rs


def catalogue() -> dict[str, RuleSet]:
    """Every rule set in games/ttt/catalogue, by name."""
    return {name: load_from(CATALOGUE, name) for name in CATALOGUE.names()}


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
        return load_from(CATALOGUE, rules)
    for source in SOURCES:
        if rules in source:
            return load_from(source, rules)
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
