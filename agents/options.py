"""The option schema of a bot kind: one ``Option`` per setting a bot takes.

Why a schema and not just the builder's keyword arguments: a tournament must
reject a bad bot before its first game (a typo such as ``simulatons``, a
string where a number belongs, a NaN time budget that would never run out),
and a leaderboard or web form must be able to list what a kind accepts. Both
need the names, types, ranges, defaults and aliases as data.

Values are the JSON scalars a spec string or file can carry: ``bool``,
``int``, ``float`` and ``str``. Floats must be finite everywhere, because a
spec must survive a JSON round trip and no budget means anything as NaN or
infinity.
"""

from __future__ import annotations

import dataclasses
import difflib
import math
from collections.abc import Iterable
from typing import Any

#: The value types an option may declare.
OPTION_TYPES = (bool, int, float, str)


def did_you_mean(word: str, choices: Iterable[str]) -> str:
    """`` (did you mean 'x'?)`` for the closest choice, or an empty string."""
    close = difflib.get_close_matches(word, list(choices), n=1, cutoff=0.6)
    return f" (did you mean {close[0]!r}?)" if close else ""


def check_scalar(where: str, value: Any) -> None:
    """Refuse a value no spec can carry: not a JSON scalar, or a non-finite float."""
    if not isinstance(value, OPTION_TYPES):
        raise ValueError(
            f"{where} must be a number, true/false or a string, got {type(value).__name__} {value!r}"
        )
    if isinstance(value, float) and not math.isfinite(value):
        raise ValueError(f"{where} must be a finite number, got {value}")


@dataclasses.dataclass(frozen=True)
class Option:
    """One setting of a bot kind.

    ``minimum``/``maximum`` bound numbers (inclusive; ``None``: unbounded);
    ``aliases`` are other accepted names (the spec keeps the name it was
    given, so labels stay as written; the full settings use ``name``).
    ``type`` None accepts any scalar (options read from a custom builder's
    signature); ``required`` options have no default, and an optional one
    whose default is None is left out of the settings unless given.
    """

    name: str
    type: type | None
    default: Any = None
    help: str = ""
    minimum: float | None = None
    maximum: float | None = None
    aliases: tuple[str, ...] = ()
    required: bool = False

    def __post_init__(self):
        if self.type is not None and self.type not in OPTION_TYPES:
            raise ValueError(
                f"option {self.name!r}: type must be one of bool, int, float, str, got {self.type!r}"
            )
        if self.default is not None:
            self.coerce(self.default, "the default of")
        if self.required and self.default is not None:
            raise ValueError(f"option {self.name!r}: a required option has no default")

    def coerce(self, value: Any, owner: str, given_as: str | None = None) -> Any:
        """``value`` as this option's type, or a ValueError naming what is allowed.

        ``given_as`` is the alias the value was given under, for the message."""
        where = f"{owner} option {self.name!r}"
        if given_as and given_as != self.name:
            where = f"{owner} option {given_as!r} ({self.name})"
        check_scalar(where, value)
        if self.type is None:
            return value
        if self.type is bool:
            if not isinstance(value, bool):
                raise ValueError(f"{where} must be true or false, got {value!r}")
            return value
        if self.type is str:
            if not isinstance(value, str):
                raise ValueError(f"{where} must be a string, got {value!r}")
            return value
        if isinstance(value, bool) or isinstance(value, str):
            raise ValueError(f"{where} must be {self._kind_text()}, got {value!r}")
        if self.type is int:
            if not isinstance(value, int):
                raise ValueError(f"{where} must be {self._kind_text()}, got {value!r}")
        else:
            value = float(value)
        if (
            self.minimum is not None
            and value < self.minimum
            or self.maximum is not None
            and value > self.maximum
        ):
            raise ValueError(f"{where} must be {self._kind_text()}, got {value!r}")
        return value

    def _kind_text(self) -> str:
        noun = "an integer" if self.type is int else "a finite number"
        if self.minimum is not None and self.maximum is not None:
            return f"{noun} in {self.minimum}..{self.maximum}"
        if self.minimum is not None:
            return f"{noun} >= {self.minimum}"
        if self.maximum is not None:
            return f"{noun} <= {self.maximum}"
        return noun

    def describe(self) -> dict:
        """A JSON-able description, for listings and forms."""
        return {
            "name": self.name,
            "type": self.type.__name__ if self.type else "any",
            "default": self.default,
            "required": self.required,
            "minimum": self.minimum,
            "maximum": self.maximum,
            "aliases": list(self.aliases),
            "help": self.help,
        }
