"""A short, stable name for a set of settings.

Why: a record is only comparable with another if the settings that decided it
(seed, budgets, each bot's full options, the rule set's content) are the same.
Hashing their canonical JSON gives one field to store, index and compare, equal
across processes, machines and key orders."""

from __future__ import annotations

import hashlib
import json
from typing import Any


def canonical(settings: Any) -> str:
    """Sorted-key, whitespace-free JSON: the form the fingerprint hashes."""
    try:
        return json.dumps(settings, sort_keys=True, separators=(",", ":"), allow_nan=False)
    except (TypeError, ValueError) as error:
        raise ValueError(
            f"settings must be JSON data (objects, lists, strings, finite numbers, "
            f"true/false/null) to be fingerprinted: {error}"
        ) from None


def fingerprint(settings: Any) -> str:
    """16 hex digits of the SHA-256 of ``canonical(settings)``."""
    return hashlib.sha256(canonical(settings).encode()).hexdigest()[:16]
