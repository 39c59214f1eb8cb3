"""What every classifier of textbook games shares: the verdict (``Classification``),
the tolerance of payoff comparisons, and how a payoff tree's leaves are read.

Why a module of its own: the payoff-order classifiers (solvers/classify.py) and the
classifiers of the games of giving (solvers/classify_giving.py) both use them, and
neither should import the other's module for them.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

TOL = 1e-9


@dataclass(frozen=True)
class Classification:
    label: str  # a textbook game's name (solvers/classify.py's docstring), or "other"
    reason: str  # the ordinal facts that decided it


def fmt(x: float) -> str:
    return f"{x:g}"


def is_leaf(node) -> bool:
    """A payoff tuple (a leaf of a ``solvers.normal_form.Decision`` tree)."""
    return isinstance(node, (tuple, list, np.ndarray))


def leaf(node) -> np.ndarray:
    return np.asarray(node, dtype=float)
