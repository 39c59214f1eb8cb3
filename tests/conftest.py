"""Test tiers: the default tier leaves out tests marked ``slow`` or ``browser`` and
plays each sweep at its quick size; ``--full`` runs everything at full size
(tests/tiers.py)."""

import pytest

import tiers


def pytest_addoption(parser):
    parser.addoption(
        "--full",
        action="store_true",
        help="the full suite: tests marked slow or browser too, and every sweep at its full size",
    )


def pytest_configure(config):
    tiers.FULL = config.getoption("--full")


def pytest_collection_modifyitems(config, items):
    if config.getoption("--full") or config.option.markexpr:
        return  # --full runs everything; an explicit -m chooses for itself
    kept, full_only = [], []
    for item in items:
        later = item.get_closest_marker("slow") or item.get_closest_marker("browser")
        (full_only if later else kept).append(item)
    if full_only:
        config.hook.pytest_deselected(items=full_only)
        items[:] = kept


@pytest.fixture
def app(tmp_path):
    """The web app over a new registry (the web app's tests; a module may define its own)."""
    from webapp import create_app

    return create_app(tmp_path / "r.sqlite3", secret_key=b"k" * 32, benchmark_games=2, testing=True)
