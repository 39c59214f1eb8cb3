"""The two test tiers and how a test sizes its work for each.

- The default tier (``python -m pytest -q -n 2``) checks every module quickly: each
  differential sweep plays a few games of every rule set it covers, so a change that
  breaks a feature fails here within minutes.
- The full tier (``python -m pytest -q -n 2 --full``) adds the tests marked ``slow``
  (long sweeps, the browser tests, whole studies) and plays every sweep at its full size.

A sweep states both sizes where it is written, ``games=sweep(full=50, quick=6)``, so a
reader sees what each tier plays. ``tests/conftest.py`` sets ``FULL`` from ``--full``
before any test runs (in each xdist worker too).
"""

FULL = False


def sweep(full: int, quick: int) -> int:
    """``full`` in the full tier, ``quick`` in the default tier."""
    return full if FULL else quick


def sample(items: list, quick: int) -> list:
    """Every item in the full tier; in the default tier ``quick`` of them, evenly
    spaced over the list (the first and the last included), the same on every run."""
    items = list(items)
    if FULL or len(items) <= quick:
        return items
    step = (len(items) - 1) / (quick - 1)
    return [items[round(i * step)] for i in range(quick)]
