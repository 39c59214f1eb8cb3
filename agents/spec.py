"""``BotSpec``: a bot described by its kind, settings and name, checked when made.

Why bots are described and not passed as objects: a bot wraps C++ state that
cannot be pickled, and a worker process (joblib's loky, or a Dask worker on
another machine) must build its own; records and leaderboards must also say
which bot played. A spec is plain data: picklable, a JSON object, and a string
``"kind:key=value,...,name=NAME"`` for command lines.

Why a spec is validated when it is made: a typo or a budget that never runs
out must stop a tournament before its first game, not when a worker first
builds the bot. Every way of making a spec (the constructor, ``make``,
``parse``, ``from_json``) runs the kind's full check.

What identifies a bot: ``label`` (its name in records, keys and seeds; the
name if given, else the kind and options as written, so existing record files
keep their keys) and ``fingerprint`` (a hash of the kind and the full settings
with defaults filled in, so ``simulations=300`` and ``max_simulations=300``
are the same bot, and ``name=strong`` with 2000 simulations is not the same
bot as ``name=strong`` with 1).
"""

from __future__ import annotations

import dataclasses
import functools
import hashlib
import json
import re
from collections.abc import Mapping
from typing import Any

from agents.kinds import BOT_KINDS, get_kind
from agents.options import check_scalar

#: The function part of a ``package.module:function`` kind, up to its options' colon.
_FUNCTION_PART = re.compile(r"\s*([A-Za-z_]\w*)\s*(?::|\Z)")


@dataclasses.dataclass(frozen=True)
class BotSpec:
    """A picklable, JSON-able, validated description of a bot.

    ``options`` holds the options as given (sorted by name); ``settings`` the
    full settings the builder receives.
    """

    kind: str
    options: tuple[tuple[str, Any], ...] = ()
    name: str | None = None

    def __post_init__(self):
        if not isinstance(self.kind, str) or not self.kind.strip():
            raise ValueError(f"a bot spec needs a kind, got {self.kind!r}")
        pairs = [tuple(pair) for pair in self.options]
        if any(len(pair) != 2 or not isinstance(pair[0], str) for pair in pairs):
            raise ValueError(f"bot {self.kind!r}: options must be (name, value) pairs, got {self.options!r}")
        keys = [key for key, _ in pairs]
        if len(set(keys)) != len(keys):
            raise ValueError(f"bot {self.kind!r}: an option is given twice in {keys}")
        for key, value in pairs:
            check_scalar(f"bot kind {self.kind!r} option {key!r}", value)
            if key == "name" or not key or any(c in key for c in ",=: "):
                raise ValueError(f"bot {self.kind!r}: {key!r} cannot be an option name")
            if isinstance(value, str) and "," in value:
                raise ValueError(f"bot {self.kind!r} option {key!r}: a value cannot contain ','")
        object.__setattr__(self, "options", tuple(sorted(pairs)))
        if self.name is not None and (
            not isinstance(self.name, str)
            or not self.name.strip()
            or "," in self.name
            or self.name != self.name.strip()
        ):
            raise ValueError(
                f"a bot's name must be a non-empty string without ',' or surrounding "
                f"spaces, got {self.name!r}"
            )
        _ = self._settings  # reading it validates the options against the kind

    @classmethod
    def make(cls, kind: str, name: str | None = None, **options: Any) -> BotSpec:
        return cls(kind, tuple(options.items()), name)

    @functools.cached_property
    def _settings(self) -> dict[str, Any]:
        # Worked out once, when the spec is made: a spec is immutable, and
        # tournaments read the settings and fingerprint of every game's bots.
        return get_kind(self.kind).settings(dict(self.options))

    @property
    def settings(self) -> dict[str, Any]:
        """The full settings: every option of the kind, aliases resolved, defaults
        filled in (a copy, so a caller cannot change the spec through it)."""
        return dict(self._settings)

    @property
    def label(self) -> str:
        """The player's name in records and leaderboards (unique per distinct spec)."""
        if self.name:
            return self.name
        if not self.options:
            return self.kind
        return f"{self.kind}(" + ",".join(f"{k}={v}" for k, v in self.options) + ")"

    @property
    def fingerprint(self) -> str:
        """16 hex digits identifying the kind and full settings (not the name)."""
        text = json.dumps(
            {"kind": self.kind, "settings": self.settings}, sort_keys=True, separators=(",", ":")
        )
        return hashlib.sha256(text.encode()).hexdigest()[:16]

    def __str__(self) -> str:
        """The spec as a string ``parse`` reads back to an equal spec."""
        items = [f"{k}={_format_value(v)}" for k, v in self.options]
        if self.name is not None:
            items.append(f"name={self.name}")
        return self.kind + (":" + ",".join(items) if items else "")

    def to_json(self) -> dict:
        """The spec as given plus, for records, its full settings and fingerprint."""
        return {
            "kind": self.kind,
            "options": dict(self.options),
            "name": self.name,
            "settings": self.settings,
            "fingerprint": self.fingerprint,
        }

    @classmethod
    def from_json(cls, data: Mapping) -> BotSpec:
        """The spec of ``to_json`` (``settings`` and ``fingerprint`` are derived, so ignored)."""
        if not isinstance(data, Mapping) or not isinstance(data.get("kind"), str):
            raise ValueError(f"a bot spec in JSON is an object with a 'kind' string, got {data!r}")
        options = data.get("options") or {}
        if not isinstance(options, Mapping):
            raise ValueError(f"a bot spec's 'options' must be an object, got {options!r}")
        return cls(data["kind"], tuple(options.items()), data.get("name"))

    @classmethod
    def parse(cls, text: str, extra: Mapping[str, Any] | None = None) -> BotSpec:
        """``kind`` or ``kind:key=value,key=value``; ``name=...`` sets the label.
        ``extra`` options join the text's (a kind whose option is required can
        then be named alone: ``parse("cfr", {"policy": path})``).

        A kind of your own is ``package.module:function``, with options after
        a second colon: ``mypkg.bots:greedy:depth=2,name=g``.
        """
        if not isinstance(text, str):
            raise ValueError(f"a bot spec string is needed, got {text!r}")
        kind, _, rest = text.strip().partition(":")
        kind = kind.strip()
        if not kind:
            raise ValueError(f"bot spec {text!r} has no kind")
        function = _FUNCTION_PART.match(rest)
        if function and kind not in BOT_KINDS:  # package.module:function[:options]
            kind = f"{kind}:{function.group(1)}"
            rest = rest[function.end() :]
        options: dict[str, Any] = {}
        name = None
        for item in filter(None, (part.strip() for part in rest.split(","))):
            key, eq, value = item.partition("=")
            key = key.strip()
            if not eq or not key:
                raise ValueError(f"bot option {item!r} in {text!r} is not key=value")
            if key == "name":
                name = value.strip()
            elif key in options:
                raise ValueError(f"bot option {key!r} is given twice in {text!r}")
            else:
                options[key] = _parse_value(value.strip())
        for key, value in (extra or {}).items():
            if key in options:
                raise ValueError(f"bot option {key!r} is given twice ({text!r} and a keyword)")
            options[key] = value
        return cls(kind, tuple(options.items()), name)


def _parse_value(text: str) -> Any:
    lowered = text.lower()
    if lowered in ("true", "false"):
        return lowered == "true"
    for convert in (int, float):
        try:
            return convert(text)
        except ValueError:
            pass
    return text


def _format_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return repr(value) if isinstance(value, float) else str(value)
