"""Our MCTS against OpenSpiel's C++ MCTS on plain Y, at equal simulations or equal time.

OpenSpiel's bot plays OpenSpiel's own C++ ``y``; ours plays our ``y_game``
(the same rules); one move list is kept in both, translated cell by cell
(``games.boards.openspiel_y_actions``). Seats alternate: in game i our bot is Black when i is
even. Both use random rollouts (one per leaf), the same exploration constant
and MCTS-Solver. ``--mode sims`` gives both ``--sims`` simulations per move;
``--mode time`` gives both ``--time-per-move`` seconds (OpenSpiel's
``max_wall_clock_time``, our ``max_time``), which is where speed turns into
strength.

Output (``--out DIR``): ``games.jsonl`` with one record per game (appended as
games finish, so an interrupted run resumes where it stopped when started
again with the same settings) and ``summary.json`` with our win rate and its
95% Wilson interval.

    python -m experiments.mcts_strength --games 200 --sims 1000 --out results/strength_sims
    python -m experiments.mcts_strength --mode time --time-per-move 0.02 --games 200 \\
        --out results/strength_time
"""
from __future__ import annotations

import argparse
import json
import math
import subprocess
import sys
import time
from pathlib import Path

import pyspiel

import games  # noqa: F401  (registers y_game)
from games.boards import openspiel_y_actions
from mcts.bots import CoreMCTSBot, OpenSpielMCTSBot


def git_commit() -> str:
    try:
        return subprocess.run(["git", "rev-parse", "HEAD"], capture_output=True, text=True,
                              check=True, cwd=Path(__file__).resolve().parent).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    if n == 0:
        return (0.0, 1.0)
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (max(0.0, centre - half), min(1.0, centre + half))


def play_game(index: int, args) -> dict:
    """One game; returns its record."""
    size = args.board_size
    ours_game = pyspiel.load_game(f"y_game(board_size={size})")
    theirs_game = pyspiel.load_game(f"y(board_size={size})")
    to_theirs, to_ours = openspiel_y_actions(size)
    our_seat = index % 2
    seed = args.seed * 100_003 + index
    budget = dict(max_simulations=args.sims, max_time=0.0) if args.mode == "sims" else \
        dict(max_simulations=0, max_time=args.time_per_move)
    their_budget = dict(max_simulations=args.sims, max_time=0.0) if args.mode == "sims" else \
        dict(max_simulations=10 ** 9, max_time=args.time_per_move)
    ours = CoreMCTSBot(ours_game, our_seat, seed=seed, uct_c=args.uct_c, **budget)
    theirs = OpenSpielMCTSBot(theirs_game, 1 - our_seat, seed=seed, uct_c=args.uct_c,
                              max_memory_mb=args.max_memory_mb, **their_budget)
    our_state = ours_game.new_initial_state()
    their_state = theirs_game.new_initial_state()
    moves, seconds = [], [0.0, 0.0]     # seconds: [ours, theirs]
    our_sims = 0
    while not our_state.is_terminal():
        start = time.perf_counter()
        if our_state.current_player() == our_seat:
            cell = ours.step(our_state)
            seconds[0] += time.perf_counter() - start
            if ours.last_search is not None:
                our_sims += ours.last_search["simulations"]
            move = to_theirs[cell]
        else:
            move = theirs.step(their_state)
            seconds[1] += time.perf_counter() - start
            cell = to_ours[move]
        our_state.apply_action(cell)
        their_state.apply_action(move)
        moves.append(cell)
    if not their_state.is_terminal() or their_state.returns() != our_state.returns():
        raise RuntimeError(f"game {index}: the two rule sets disagree after moves {moves}: "
                           f"ours {our_state.returns()}, OpenSpiel {their_state.returns()}")
    winner = 0 if our_state.returns()[0] > 0 else 1
    return {"game": index, "our_seat": our_seat, "winner": winner, "our_win": winner == our_seat,
            "moves": moves, "our_seconds": seconds[0], "their_seconds": seconds[1],
            "our_simulations": our_sims, "seed": seed}


def summarise(records: list[dict], args) -> dict:
    n = len(records)
    wins = sum(r["our_win"] for r in records)
    as_black = [r for r in records if r["our_seat"] == 0]
    lo, hi = wilson(wins, n)
    return {
        "games": n, "our_wins": wins, "win_rate": wins / n if n else None,
        "win_rate_95ci": [lo, hi],
        "win_rate_as_black": (sum(r["our_win"] for r in as_black) / len(as_black)) if as_black else None,
        "win_rate_as_white": (sum(r["our_win"] for r in records if r["our_seat"] == 1)
                              / max(1, n - len(as_black))) if n - len(as_black) else None,
        "our_seconds": sum(r["our_seconds"] for r in records),
        "their_seconds": sum(r["their_seconds"] for r in records),
        "mean_moves": sum(len(r["moves"]) for r in records) / n if n else None,
        "settings": settings(args),
    }


def settings(args) -> dict:
    return {"mode": args.mode, "sims": args.sims, "time_per_move": args.time_per_move,
            "board_size": args.board_size, "uct_c": args.uct_c, "seed": args.seed,
            "solver": True, "rollouts": 1, "git_commit": git_commit()}


def parse_args(argv=None):
    p = argparse.ArgumentParser(
        prog="python -m experiments.mcts_strength",
        description="Our Cython MCTS (on y_game) against OpenSpiel's C++ MCTSBot (on its C++ y), "
                    "seats alternating, at equal simulations or equal time per move.")
    p.add_argument("--games", type=int, default=20, help="number of games (default 20)")
    p.add_argument("--mode", choices=("sims", "time"), default="sims",
                   help="equal simulations per move (default) or equal time per move")
    p.add_argument("--sims", type=int, default=1000, help="simulations per move in --mode sims (default 1000)")
    p.add_argument("--time-per-move", type=float, default=0.02,
                   help="seconds per move for both bots in --mode time (default 0.02)")
    p.add_argument("--board-size", type=int, default=11, help="Y board size (default 11)")
    p.add_argument("--uct-c", type=float, default=1.4, help="exploration constant for both (default 1.4)")
    p.add_argument("--max-memory-mb", type=int, default=1000, help="OpenSpiel MCTS memory cap (default 1000)")
    p.add_argument("--seed", type=int, default=0, help="base seed (game i uses seed*100003+i)")
    p.add_argument("--out", type=Path, default=Path("results/mcts_strength"),
                   help="output directory (default results/mcts_strength)")
    args = p.parse_args(argv)
    if args.games < 1:
        p.error("--games must be >= 1")
    if args.mode == "sims" and args.sims < 1:
        p.error("--sims must be >= 1")
    if args.mode == "time" and args.time_per_move <= 0:
        p.error("--time-per-move must be > 0")
    if not 2 <= args.board_size <= 19:
        p.error("--board-size must be in 2..19")
    if args.uct_c < 0:
        p.error("--uct-c must be >= 0")
    return args


def main(argv=None) -> int:
    args = parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    log = args.out / "games.jsonl"
    meta = args.out / "settings.json"
    wanted = settings(args)
    records = []
    if log.exists():
        old = json.loads(meta.read_text()) if meta.exists() else {}
        same = {k: v for k, v in old.items() if k != "git_commit"} == \
            {k: v for k, v in wanted.items() if k != "git_commit"}
        if not same:
            print(f"error: {args.out} holds a run with other settings ({old}); "
                  f"choose another --out", file=sys.stderr)
            return 2
        records = [json.loads(line) for line in log.read_text().splitlines() if line.strip()]
        print(f"resuming: {len(records)} game(s) already in {log}", flush=True)
    meta.write_text(json.dumps(wanted, indent=1))
    done = {r["game"] for r in records}
    with log.open("a") as out:
        for index in range(args.games):
            if index in done:
                continue
            record = play_game(index, args)
            record.update(mode=args.mode, sims=args.sims, time_per_move=args.time_per_move)
            out.write(json.dumps(record) + "\n")
            out.flush()
            records.append(record)
            wins = sum(r["our_win"] for r in records)
            print(f"game {index + 1}/{args.games}: ours as {'Black' if record['our_seat'] == 0 else 'White'} "
                  f"{'won' if record['our_win'] else 'lost'} in {len(record['moves'])} moves "
                  f"(ours {record['our_seconds']:.2f}s, OpenSpiel {record['their_seconds']:.2f}s); "
                  f"running win rate {wins}/{len(records)}", flush=True)
    records = [r for r in records if r["game"] < args.games]
    summary = summarise(records, args)
    (args.out / "summary.json").write_text(json.dumps(summary, indent=1))
    lo, hi = summary["win_rate_95ci"]
    print(f"ours won {summary['our_wins']}/{summary['games']} = {summary['win_rate']:.3f} "
          f"(95% CI {lo:.3f}-{hi:.3f}); summary in {args.out / 'summary.json'}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
