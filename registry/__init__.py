"""The saved rule-set registry of the tic-tac-toe variations specification on one SQLite database: users and
roles, saved rule sets, players and universes, recorded games, ratings and
leaderboards. Above analysis/ (tournaments for benchmarks), below experiments/
and the web app. Decisions, each with the words of the tic-tac-toe variations
specification: docs/registry.md.

    from registry import Registry, rulesets
    with Registry("my.sqlite3") as reg:
        rulesets.save_rule_set(reg, "ada", {...})
"""

from registry.errors import RegistryError
from registry.store import CHAOS, PUBLIC, RANDOM, Registry

__all__ = ["CHAOS", "PUBLIC", "RANDOM", "Registry", "RegistryError"]
