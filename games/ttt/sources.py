"""Where named rule sets come from: a source lists names and hands out the
text of one rule set; parsing and caching are the same for every source.

Why an interface this small: today the catalogue and the examples are
directories of ``NAME.json`` files; the registry (issue 15) will keep saved
rule sets in SQLite. A source only has to list names and return a rule set's
JSON text, so the database becomes one more ``RuleSetSource`` and everything
above (``resolve``, the fingerprint, the command line) stays as it is.
"""

from __future__ import annotations

import abc
from pathlib import Path

from games.ttt import cache
from games.ttt.ruleset import RuleSet
from games.ttt.schema import RuleSetError, name_problem


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


class RuleSetSource(abc.ABC):
    """A collection of rule sets addressed by name."""

    @abc.abstractmethod
    def names(self) -> list[str]:
        """Every name the source holds, sorted."""

    @abc.abstractmethod
    def read(self, name: str) -> str | None:
        """The JSON text of the rule set called ``name``, or None if there is none."""

    def origin(self, name: str) -> str:
        """How error messages refer to the rule set called ``name``."""
        return name

    def __contains__(self, name) -> bool:
        return isinstance(name, str) and name in self.names()

    def load(self, name: str) -> RuleSet:
        """The rule set called ``name``; ``KeyError`` if the source has none,
        ``RuleSetError`` if the stored text is invalid or names another rule set."""
        text = self.read(name)
        if text is None:
            raise KeyError(name)
        rs = cache.parsed(text, self.origin(name))
        if rs.name != name:
            raise RuleSetError([f"name: {rs.name!r} is stored under the name {name!r}"], self.origin(name))
        return rs

    def load_all(self) -> dict[str, RuleSet]:
        return {name: self.load(name) for name in self.names()}


class DirectorySource(RuleSetSource):
    """``NAME.json`` files in one directory (the file name is the rule set's name)."""

    def __init__(self, directory: str | Path):
        self.directory = Path(directory)

    def names(self) -> list[str]:
        return sorted(p.stem for p in self.directory.glob("*.json"))

    def path(self, name: str) -> Path:
        return self.directory / f"{name}.json"

    def __contains__(self, name) -> bool:
        return isinstance(name, str) and name_problem(name) is None and self.path(name).is_file()

    def read(self, name: str) -> str | None:
        if name not in self:
            return None
        try:
            return self.path(name).read_text()
        except (OSError, UnicodeDecodeError) as e:
            raise RuleSetError([f"(file): cannot read {self.path(name)}: {e}"], self.origin(name)) from None

    def origin(self, name: str) -> str:
        return str(self.path(name))
