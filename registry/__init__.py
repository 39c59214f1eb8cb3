"""The saved rule-set registry of seed 004 on one SQLite database: users and
roles, saved rule sets, players and universes, recorded games, ratings and
leaderboards. Above analysis/ (tournaments for benchmarks), below experiments/
and the web app. Decisions, each with the seed's words: docs/registry.md.

    from registry import Registry, rulesets
    with Registry("my.sqlite3") as reg:
        rulesets.save_rule_set(reg, "ada", {...})
"""

from registry.errors import RegistryError
from registry.store import CHAOS, PUBLIC, RANDOM, Registry

__all__ = ["CHAOS", "PUBLIC", "RANDOM", "Registry", "RegistryError"]
