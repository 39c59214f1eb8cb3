"""Imported by benchmark workers (``GameTask.imports``) so that saved names load
as ``ttt(rules=NAME)`` in a worker process too: it attaches the registry whose
path the parent put in ``$FLIPGAMES_REGISTRY_DB`` (loky and Dask local
workers inherit the environment; a remote Dask worker needs the same path)."""
import os

from registry.db import ENV_DB
from registry.rulesets import attach
from registry.store import Registry

if os.environ.get(ENV_DB):
    REGISTRY = Registry(os.environ[ENV_DB])
    attach(REGISTRY)
