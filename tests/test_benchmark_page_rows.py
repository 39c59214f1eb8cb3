"""Each benchmark turns its figures into its own blocks of docs/performance.md
(synthetic figures: no benchmark runs here)."""

import pytest

from analysis import performance_page as page
from experiments import (
    bench_cfr,
    bench_search,
    bench_solvers,
    bench_ttt,
    bench_webapp,
    benchmark,
    mcts_strength,
)

CMD = "python -m experiments.some_bench --rounds 3"


def playouts():
    return {
        "baseline_playouts_per_second": 48_100.0,
        "rows": [{"game": "y_game(board_size=11)", "playouts_per_second": 761_000.0, "ratio": 15.82}],
        "y_game_11_state_bytes": 581,
        "double_o_y_11_state_bytes": 706,
    }


def ttt_section(ours, theirs):
    return {"ours_playouts_per_second": ours, "openspiel_playouts_per_second": theirs, "ratio": ours / theirs}


def mcts_speed():
    return {
        "clock": "wall",
        "simulations_per_search": 20_000,
        "sims_per_s": {
            "openspiel_y11": {"median": 78_800.0},
            "ours_y_game11": {"median": 586_000.0},
            "ours_double_o_y11": {"median": 62_700.0},
        },
        "ratio_y_game11": 7.44,
        "ratio_double_o_y11": 3.99,
    }


def mcts_memory():
    return {
        "simulations": 1_000_000,
        "game": "double_o_y(board_size=11)",
        "bytes_per_node": 20,
        "nodes": 1_200_000,
        "tree_bytes": 24_000_000,
    }


def cfr_sections():
    speed = [
        {
            "row": "kuhn_poker",
            "game": "kuhn_poker",
            "ours_per_s": 662_000.0,
            "openspiel_per_s": 30_400.0,
            "ratio": 22.0,
        },
        {
            "row": "RockPaperScissors (cached tree)",
            "game": "ttt(rules=RockPaperScissors)",
            "ours_per_s": 743_000.0,
            "openspiel_per_s": 49_400.0,
            "ratio": 15.8,
        },
    ]
    listed = {"algorithm": "cfr+", "iterations": 2000, "seconds": 0.0057, "met": True, "build_seconds": None}
    dag = {
        "game": "ttt(rules=3Blotto13)",
        "algorithm": "dcfr (DAG)",
        "measure": "exploitability",
        "value": 9.5e-4,
        "iterations": 425,
        "seconds": 19.9,
        "met": True,
        "not_evaluated": None,
        "build_seconds": 18.6,
    }
    return {"iterations_per_second": speed, "time_to_1e-3": [dict(listed, game="kuhn_poker"), dag]}


def solver_sections():
    abc = {
        "experiment": "alphabeta_check",
        "rows": [
            {
                "board_size": 4,
                "root_values_agree": True,
                "opening_mismatches": [],
                "our_root_seconds": 0.0008,
                "our_openings_seconds": 0.044,
                "openspiel_root_seconds": 0.0902,
                "openspiel_openings_seconds": 0.474,
                "root_time_ratio": 112.75,
                "openings_time_ratio": 10.8,
            }
        ],
    }
    ysolver = {
        "experiment": "y_solver_comparison",
        "rows": [
            {
                "game": "y_game(board_size=6)",
                "values_agree": True,
                "root_nodes": 19,
                "root_cpu_seconds": 0.001,
                "ysolver_nodes": 70,
                "ysolver_seconds": 0.028,
                "pre_hsearch_root_nodes": 7134,
                "pre_hsearch_root_cpu_seconds": 0.053,
                "pre_hsearch_nodes": 7130,
                "pre_hsearch_seconds": 0.36,
                "root_cpu_ratio": 44.0,
                "pre_hsearch_ratio": 12.6,
            }
        ],
    }
    bounds = {
        "experiment": "y_list_bounds",
        "size": 8,
        "bounds": ["4/6/4096", "8/12/16384"],
        "rows": [
            {
                "opening": "a7",
                "runs": {
                    "4/6/4096": {"value": 1, "nodes": 54124, "cpu_seconds": 3.06},
                    "8/12/16384": {
                        "value": 1,
                        "nodes": 4128,
                        "cpu_seconds": 0.35,
                        "node_ratio": 13.1,
                        "cpu_ratio": 8.7,
                    },
                },
            }
        ],
    }
    tt = {
        "experiment": "table_replacement",
        "tt_log2": 14,
        "schemes": ["depth", "size"],
        "rows": [{}] * 16,
        "totals": {
            "depth": {"nodes": 24_900_000, "cpu_seconds": 16.2},
            "size": {"nodes": 15_100_000, "cpu_seconds": 9.5},
        },
        "all_agree": True,
    }
    serial = {"seconds": 10.0, "cpu_seconds": 9.8, "nodes": 1_000_000}
    split = {
        "jobs": 2,
        "table": "shared",
        "agrees": True,
        "seconds": 6.0,
        "cpu_seconds": 5.4,
        "nodes": 1_050_000,
    }
    parallel = {
        "experiment": "parallel_speedup",
        "game": "flipway(board_size=6,pie=True)",
        "rows": [serial, dict(split, ratio=1.67, cpu_ratio=1.81)],
    }
    return {"a": abc, "b": ysolver, "c": bounds, "d": tt, "e": parallel}


def strength_summary():
    return {
        "games": 200,
        "win_rate": 0.52,
        "win_rate_95ci": [0.451, 0.588],
        "settings": {"mode": "sims", "sims": 1000, "time_per_move": 0.02, "board_size": 11},
    }


def webapp_rows():
    one = {"renders": [0.004] * 20, "moves": [0.008] * 20, "games": 5}
    load = {"renders": [0.05] * 200, "moves": [0.08] * 200, "games": 100}
    return bench_webapp.page_rows(20, 5, 0.0, one, load, 105, CMD)


CASES = {
    "benchmark": (
        lambda: {"benchmark.playouts": benchmark.playout_rows(playouts(), CMD)},
        {"benchmark.playouts": ["761,000/s", "48,100/s", "15.8x"]},
    ),
    "bench_ttt": (
        lambda: bench_ttt.page_rows(
            {"connect4": ttt_section(886_000.0, 90_400.0), "simultaneous": ttt_section(234_000.0, 64_100.0)},
            CMD,
        ),
        {"bench_ttt.connect4": ["886,000/s", "90,400/s"], "bench_ttt.simultaneous": ["goofspiel", "3.65x"]},
    ),
    "bench_search": (
        lambda: bench_search.page_rows({"speed": mcts_speed(), "memory": mcts_memory()}, CMD),
        {
            "bench_search.speed": ["586,000/s", "78,800/s", "7.44x", "3.99x"],
            "bench_search.memory": ["23 MiB"],
        },
    ),
    "bench_cfr": (
        lambda: bench_cfr.page_rows(cfr_sections(), CMD),
        {
            "bench_cfr.speed": ["662,000/s", "22.0x", "convert_to_cached_tree"],
            "bench_cfr.targets": ["met on 2 of 2", "9.5e-04", "19.9 s"],
        },
    ),
    "bench_solvers": (
        lambda: bench_solvers.page_rows(solver_sections(), CMD),
        {
            "bench_solvers.alphabeta": ["0.8 ms", "113x root"],
            "bench_solvers.ysolver": ["7,134 nodes", "44.0x root"],
            "bench_solvers.y_bounds": ["4,128 nodes", "13.1x nodes"],
            "bench_solvers.tt_compare": ["15.1M nodes", "1.65x nodes", "(the default)"],
            "bench_solvers.parallel": ["one shared table", "1.67x wall", "1.81x CPU"],
        },
    ),
    "bench_webapp": (
        webapp_rows,
        {"bench_webapp": ["50 / 80 ms", "105 of 105", "4 / 8 ms", "12.5x / 10.0x"]},
    ),
    "mcts_strength": (
        lambda: mcts_strength.page_rows(strength_summary(), CMD),
        {"mcts_strength.sims": ["52.0% of 200 games", "[45.1, 58.8]", "1,000 a move"]},
    ),
}


@pytest.mark.parametrize("bench", sorted(CASES))
def test_a_benchmark_writes_its_figures_into_its_own_blocks(bench, tmp_path):
    make, expected = CASES[bench]
    blocks = make()
    assert set(blocks) == set(expected)
    path = page.update(tmp_path / "performance.md", blocks)
    text = path.read_text()
    for block, figures in expected.items():
        lines = [line for line in text.split("\n") if page.block_of(line) == block]
        assert len(lines) == len(blocks[block]) >= 1
        for figure in figures:
            assert any(figure in line for line in lines), (block, figure, lines)
        assert all(f"`{CMD}`" in line for line in lines)
