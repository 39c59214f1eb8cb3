"""Imported by benchmark workers (``GameTask.imports``) so that saved names load
as ``ttt(rules=NAME)`` in a worker process too.

Why the path is read on every lookup rather than once at import: a worker
process outlives one benchmark. A Dask worker may have been started before the
benchmark (so it never inherited ``$FLIPGAMES_REGISTRY_DB``) and learns the path
later from ``registry.cluster.DatabasePath``; a long-lived worker may serve
benchmarks of several databases in turn. A remote worker must see the database
under the same path (a shared file system). Connections are per thread
(sqlite3 refuses to share one across threads) and per path.
"""

from __future__ import annotations

import os
import threading

from games.ttt import rules as ttt_rules
from registry.db import ENV_DB
from registry.rulesets import RegistrySource
from registry.store import Registry


class EnvironmentSource(ttt_rules.RuleSetSource):
    """The saved rule sets of the registry at ``$FLIPGAMES_REGISTRY_DB`` now
    (none when it is unset)."""

    def __init__(self):
        self._local = threading.local()

    def _source(self) -> RegistrySource | None:
        path = os.environ.get(ENV_DB)
        if not path:
            return None
        opened = self._local.__dict__.setdefault("by_path", {})
        if path not in opened:
            opened[path] = RegistrySource(Registry(path))
        return opened[path]

    def names(self) -> list[str]:
        source = self._source()
        return source.names() if source else []

    def __contains__(self, name) -> bool:
        source = self._source()
        return source is not None and name in source

    def read(self, name: str) -> str | None:
        source = self._source()
        return source.read(name) if source else None

    def origin(self, name: str) -> str:
        source = self._source()
        return source.origin(name) if source else name


SOURCE = EnvironmentSource()
ttt_rules.add_source(SOURCE)
