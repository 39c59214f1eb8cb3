"""The registry of bot kinds: what each kind is called, what it accepts, how it is built.

Why one registry: tournaments, studies, a leaderboard and a web app all name
bots the same way (``mcts:simulations=300``), so they must all see the same
kinds with the same options; two registries with different signatures let a
bot mean different things in different places.

A kind is either registered (the built-in ``random``, ``mcts``,
``openspiel_mcts``, ``alphabeta``, or one added with ``register_bot_kind``)
or named ``"package.module:function"``: such a kind needs no registration, so
a worker process on another machine can build it from the name alone. Its
options are read from the function's signature, which is as far as it can be
validated before it runs.

A builder is called as ``builder(game, player, seed, **settings)`` with the
full settings (defaults filled in, aliases resolved) and returns a
``pyspiel.Bot``.
"""

from __future__ import annotations

import dataclasses
import importlib
import inspect
import re
from collections.abc import Callable, Mapping
from typing import Any

from agents.options import OPTION_TYPES, Option, check_scalar, did_you_mean

_KIND_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")
_FUNCTION_KIND = re.compile(r"[A-Za-z_][\w.]*:[A-Za-z_]\w*\Z")


@dataclasses.dataclass(frozen=True)
class BotKind:
    """A kind of bot: its builder, option schema and the rules that tie options together.

    ``check(settings)`` raises ValueError for combinations no single option
    can refuse (a bot with no budget at all). ``open`` kinds pass options
    outside the schema through unchecked (a builder taking ``**options``).
    """

    name: str
    builder: Callable[..., Any]
    options: tuple[Option, ...] = ()
    description: str = ""
    check: Callable[[Mapping[str, Any]], None] | None = None
    open: bool = False

    def __post_init__(self):
        if not callable(self.builder):
            raise ValueError(f"bot kind {self.name!r}: the builder must be callable, got {self.builder!r}")
        seen: dict[str, str] = {}
        for option in self.options:
            for alias in (option.name, *option.aliases):
                if alias in seen or alias == "name":
                    raise ValueError(
                        f"bot kind {self.name!r}: option name {alias!r} is used twice or reserved"
                    )
                seen[alias] = option.name

    def option(self, key: str) -> Option | None:
        """The option called ``key`` (by name or alias), or None."""
        for option in self.options:
            if key == option.name or key in option.aliases:
                return option
        return None

    def settings(self, options: Mapping[str, Any]) -> dict[str, Any]:
        """The full, validated settings for the ``options`` a spec gives.

        Unknown names (with a suggestion for a typo), one option given under
        two names, wrong types, out-of-range values, missing required options
        and the kind's own ``check`` all raise ValueError here, so nothing bad
        reaches a game.
        """
        owner = f"bot kind {self.name!r}"
        settings: dict[str, Any] = {}
        given_as: dict[str, str] = {}
        for key, value in options.items():
            option = self.option(key)
            if option is None:
                if self.open:
                    settings[key] = Option(key, None).coerce(value, owner)
                    continue
                names = [n for o in self.options for n in (o.name, *o.aliases)]
                allowed = (
                    ", ".join(o.name + "".join(f" (or {a})" for a in o.aliases) for o in self.options)
                    or "none"
                )
                raise ValueError(
                    f"{owner} has no option {key!r}{did_you_mean(key, names)}; its options: {allowed}"
                )
            if option.name in given_as:
                raise ValueError(
                    f"{owner}: give {given_as[option.name]!r} or {key!r}, not both (they are the same option)"
                )
            given_as[option.name] = key
            settings[option.name] = option.coerce(value, owner, key)
        for option in self.options:
            if option.name not in settings:
                if option.required:
                    raise ValueError(f"{owner} needs option {option.name!r}")
                if option.default is not None:
                    settings[option.name] = option.default
        if self.check is not None:
            self.check(settings)
        return dict(sorted(settings.items()))

    def describe(self) -> dict:
        """A JSON-able description of the kind, for listings and forms."""
        return {
            "name": self.name,
            "description": self.description,
            "open": self.open,
            "options": [option.describe() for option in self.options],
        }

    @classmethod
    def from_function(
        cls, name: str, function: Callable[..., Any], description: str | None = None
    ) -> BotKind:
        """A kind whose schema is read from ``function(game, player, seed, **options)``.

        Keyword parameters after the first three become options; their type
        comes from an annotation that names bool, int, float or str, else any
        scalar is accepted. A ``**kwargs`` parameter makes the kind open.
        """
        if not callable(function):
            raise ValueError(f"bot kind {name!r}: {function!r} is not callable")
        try:
            parameters = list(inspect.signature(function).parameters.values())
        except (TypeError, ValueError):  # a builtin without a signature: cannot check
            return cls(name, function, (), description or "", open=True)
        positional = [p for p in parameters if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
        has_varargs = any(p.kind == p.VAR_POSITIONAL for p in parameters)
        if len(positional) < 3 and not has_varargs:
            raise ValueError(
                f"bot kind {name!r}: the builder must take (game, player, seed, "
                f"**options), but its signature is {inspect.signature(function)}"
            )
        options = []
        for parameter in positional[3:] + [p for p in parameters if p.kind == p.KEYWORD_ONLY]:
            has_default = parameter.default is not parameter.empty
            options.append(
                Option(
                    parameter.name,
                    _annotated_type(parameter.annotation),
                    _scalar(parameter.default) if has_default else None,
                    required=not has_default,
                )
            )
        is_open = any(p.kind == p.VAR_KEYWORD for p in parameters)
        doc = description if description is not None else (inspect.getdoc(function) or "")
        return cls(name, function, tuple(options), doc.split("\n\n")[0], open=is_open)


def _scalar(default):
    """A signature default as an option default: a finite JSON scalar, else None
    (the option is then left out of the settings, and the builder keeps its own)."""
    try:
        check_scalar("default", default)
    except ValueError:
        return None
    return default


def _annotated_type(annotation) -> type | None:
    by_name = {t.__name__: t for t in OPTION_TYPES}
    if annotation in OPTION_TYPES:
        return annotation
    return by_name.get(annotation) if isinstance(annotation, str) else None


#: The registered kinds by name (the built-in ones are added when ``agents`` is imported).
BOT_KINDS: dict[str, BotKind] = {}
_FUNCTION_KINDS: dict[str, BotKind] = {}


def register_bot_kind(
    name: str,
    builder: Callable[..., Any],
    options: tuple[Option, ...] | None = None,
    *,
    description: str | None = None,
    check: Callable[[Mapping[str, Any]], None] | None = None,
    open: bool = False,
    replace: bool = False,
) -> BotKind:
    """Add a kind for this process and return it.

    ``builder(game, player, seed, **settings)`` returns a ``pyspiel.Bot``.
    Without ``options`` the schema is read from the builder's signature.
    Worker processes see the kind only if the registering module is imported
    there too; a ``"package.module:function"`` kind needs no registration.
    """
    if not isinstance(name, str) or not _KIND_NAME.match(name):
        raise ValueError(
            f"a bot kind's name must be letters, digits and _ (not starting with a digit), got {name!r}"
        )
    if name in BOT_KINDS and not replace:
        raise ValueError(f"bot kind {name!r} is already registered (pass replace=True to replace it)")
    if options is None:
        kind = BotKind.from_function(name, builder, description)
        kind = dataclasses.replace(kind, check=check, open=kind.open or open)
    else:
        kind = BotKind(name, builder, tuple(options), description or "", check, open)
    BOT_KINDS[name] = kind
    return kind


def unregister_bot_kind(name: str) -> None:
    """Remove a kind registered in this process (tests, notebooks)."""
    if BOT_KINDS.pop(name, None) is None:
        raise ValueError(f"bot kind {name!r} is not registered")


def get_kind(name: str) -> BotKind:
    """The registered kind ``name``, or the ``"package.module:function"`` it names."""
    kind = BOT_KINDS.get(name)
    if kind is not None:
        return kind
    if not isinstance(name, str) or not _FUNCTION_KIND.match(name):
        raise ValueError(
            f"unknown bot kind {name!r}{did_you_mean(str(name), BOT_KINDS)}; "
            f"known kinds: {', '.join(sorted(BOT_KINDS))}, "
            f"or give 'package.module:function'"
        )
    kind = _FUNCTION_KINDS.get(name)
    if kind is None:
        module_name, _, attribute = name.partition(":")
        try:
            module = importlib.import_module(module_name)
        except ImportError as error:
            raise ValueError(f"bot kind {name!r}: cannot import {module_name} ({error})") from None
        function = getattr(module, attribute, None)
        if function is None:
            raise ValueError(f"bot kind {name!r}: {module_name} has no {attribute}") from None
        kind = _FUNCTION_KINDS[name] = BotKind.from_function(name, function)
    return kind


def list_kinds() -> list[BotKind]:
    """The registered kinds, sorted by name."""
    return [BOT_KINDS[name] for name in sorted(BOT_KINDS)]


def describe_kinds() -> list[dict]:
    """Every registered kind with its options, JSON-able (for a leaderboard or a web form)."""
    return [kind.describe() for kind in list_kinds()]
