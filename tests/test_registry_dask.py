"""Benchmarks on a Dask cluster (``benchmark --backend dask --scheduler ADDR``):
the same games as on joblib, with workers that were started before the
benchmark (so they cannot inherit its environment) and must still load the
registry's saved rule sets."""

import json

import pytest

from registry import Registry, cli, players, results, rulesets, users
from registry.db import ENV_DB
from test_registry_store import ruleset

distributed = pytest.importorskip("dask.distributed")


def run_benchmark(db, capsys, *backend):
    with Registry(db) as reg:
        users.add_user(reg, "root", "admin")
        users.add_user(reg, "cat", "creator")
        rulesets.save_rule_set(reg, "cat", ruleset("Sq4"))  # saved, not a catalogue file
        players.add_bot(reg, "m5", "mcts:simulations=5")
    capsys.readouterr()
    assert (
        cli.main(
            [
                "--db",
                str(db),
                "benchmark",
                "Sq4",
                "m5",
                "Random",
                "--as",
                "root",
                "--games",
                "4",
                "--seed",
                "7",
                *backend,
            ]
        )
        == 0
    )
    out = json.loads(capsys.readouterr().out)
    with Registry(db) as reg:
        games = {
            g["task_key"]: (g["players"], g["moves"], g["returns"]) for g in results.games_of(reg, "Sq4")
        }
    with open(out["store"]) as f:
        seeds = {r["key"]: r["seed"] for r in map(json.loads, f) if "key" in r}
    return out, games, seeds


@pytest.mark.slow
def test_dask_cluster_stores_the_same_games_as_joblib(tmp_path, monkeypatch, capsys):
    monkeypatch.delenv(ENV_DB, raising=False)
    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
    ) as cluster:
        out, on_dask, seeds_dask = run_benchmark(
            tmp_path / "dask.sqlite3", capsys, "--backend", "dask", "--scheduler", cluster.scheduler_address
        )
        with distributed.Client(cluster) as client:  # the plugin is gone after the run
            assert client.run(lambda: __import__("os").environ.get(ENV_DB)) == {
                w: None for w in cluster.scheduler_info["workers"]
            }
    _, on_joblib, seeds_joblib = run_benchmark(tmp_path / "joblib.sqlite3", capsys)
    assert out["games"] == 4 and len(on_dask) == 4
    assert on_dask == on_joblib
    assert seeds_dask == seeds_joblib and len(seeds_dask) == 4
    assert all(len(moves) > 0 for _, moves, _ in on_dask.values())
