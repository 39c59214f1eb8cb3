"""Telling the workers of a running Dask cluster where the registry is.

Why a worker plugin and not the environment alone: workers of a cluster started
before the benchmark (``--scheduler ADDR``) never inherit the benchmark's
``$FLIPGAMES_REGISTRY_DB``. The plugin sets it in every worker, also in workers
that join during the run, and ``registry.worker`` reads it on each lookup.
Remote workers must reach the database file under the same path.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator

from distributed import Client, WorkerPlugin

from registry.db import ENV_DB

PLUGIN_NAME = "flipgames-registry-path"


class DatabasePath(WorkerPlugin):
    """Sets ``$FLIPGAMES_REGISTRY_DB`` to ``path`` in each worker while registered."""

    name = PLUGIN_NAME

    def __init__(self, path: str):
        self.path = path
        self.previous: str | None = None

    def setup(self, worker) -> None:
        self.previous = os.environ.get(ENV_DB)
        os.environ[ENV_DB] = self.path

    def teardown(self, worker) -> None:
        if self.previous is None:
            os.environ.pop(ENV_DB, None)
        else:
            os.environ[ENV_DB] = self.previous


@contextlib.contextmanager
def client_for(scheduler: str, path: str) -> Iterator[Client]:
    """A client of the cluster at ``scheduler`` whose workers find the registry
    at ``path`` until the context ends."""
    with Client(scheduler) as client:
        client.register_plugin(DatabasePath(path), name=PLUGIN_NAME)
        try:
            yield client
        finally:
            client.unregister_worker_plugin(PLUGIN_NAME)
