"""Where named rule sets come from: a source lists names and hands out the
text of one rule set; the catalogue, the examples and the attached sources are
the places a name is looked for. Parsing and caching are the same for every
source and happen above this module (``resolve``, ``cache``).

Why an interface this small: the catalogue and the examples are directories of
``NAME.json`` files, the registry keeps saved rule sets in SQLite. A source only
has to list names and return a rule set's JSON text, so the database is one more
``RuleSetSource`` and everything above (``resolve``, the fingerprint, the command
line) stays as it is.

Why the texts sit below validation: a rule set that ``extends`` another is merged
with its parent's text before it is validated (``extends``), and the parent is
found here by name; parsing a source's rule set needs validation, so it cannot be
this module's job.
"""

from __future__ import annotations

import abc
from pathlib import Path

from games.ttt.schema import RuleSetError, name_problem

PACKAGE_DIR = Path(__file__).resolve().parent
CATALOGUE_DIR = PACKAGE_DIR / "catalogue"
EXAMPLES_DIR = PACKAGE_DIR / "examples"
REPO_ROOT = PACKAGE_DIR.parents[1]


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

    def expected_name(self, key: str) -> str | None:
        """The name the rule set read under ``key`` must carry: ``key`` itself where
        rule sets are addressed by name; None where ``key`` is an identity whose rule
        set carries its own current name."""
        return key

    def __contains__(self, name) -> bool:
        return isinstance(name, str) and name in self.names()


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


def named_text(name: str) -> tuple[str, str] | None:
    """The text of the rule set called ``name`` and its origin (for messages): the
    catalogue's, else the first attached source's that holds it; None if none does."""
    for source in [CATALOGUE, *SOURCES]:
        if name in source:
            text = source.read(name)
            if text is not None:
                return text, source.origin(name)
    return None
