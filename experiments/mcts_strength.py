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

``--markdown docs/performance.md`` also rewrites the mode's row of that page.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import pyspiel
from games.boards import openspiel_y_actions

import games  # noqa: F401  (registers y_game)
from analysis import performance_page as page
from analysis import tournament
from analysis.stats import wilson_interval
from analysis.study import git_commit, non_negative_float, non_negative_int, positive_float, positive_int
from mcts.bots import CoreMCTSBot, OpenSpielMCTSBot
from records import RecordStore, RecordStoreError, fingerprint

#: OpenSpiel's MCTS takes its seed as a C int; game i is seeded seed * SEED_STRIDE + i.
SEED_STRIDE = 100_003
MAX_OPENSPIEL_SEED = 2**31 - 1


class _CountingSimulations(pyspiel.Bot):
    """Our bot, adding up the simulations of its searches (a forced move has none)."""

    def __init__(self, bot):
        pyspiel.Bot.__init__(self)
        self.bot, self.simulations = bot, 0

    def restart_at(self, state):
        self.bot.restart_at(state)

    def inform_action(self, state, player_id, action):
        self.bot.inform_action(state, player_id, action)

    def step(self, state):
        action = self.bot.step(state)
        if self.bot.last_search is not None:
            self.simulations += self.bot.last_search["simulations"]
        return action


class _OnOpenSpielY(pyspiel.Bot):
    """A bot of OpenSpiel's C++ ``y`` seated at our ``y_game``: it keeps its own
    ``y`` state in step with ours, translating every move, so the game loop is
    the tournament's and the two rule sets can be compared at the end."""

    def __init__(self, bot, game, size: int):
        pyspiel.Bot.__init__(self)
        self.bot, self.game = bot, game
        self.to_theirs, self.to_ours = openspiel_y_actions(size)
        self.state = game.new_initial_state()

    def restart_at(self, state):
        self.state = self.game.new_initial_state()
        for cell in state.history():
            self.state.apply_action(self.to_theirs[cell])

    def inform_action(self, state, player_id, action):
        self.state.apply_action(self.to_theirs[action])

    def step(self, state):
        move = self.bot.step(self.state)
        self.state.apply_action(move)
        return self.to_ours[move]


def play_game(index: int, args) -> dict:
    """One game; returns its record."""
    size = args.board_size
    ours_game = pyspiel.load_game(f"y_game(board_size={size})")
    theirs_game = pyspiel.load_game(f"y(board_size={size})")
    our_seat = index % 2
    seed = args.seed * SEED_STRIDE + index
    budget = (
        dict(max_simulations=args.sims, max_time=0.0)
        if args.mode == "sims"
        else dict(max_simulations=0, max_time=args.time_per_move)
    )
    their_budget = (
        dict(max_simulations=args.sims, max_time=0.0)
        if args.mode == "sims"
        else dict(max_simulations=10**9, max_time=args.time_per_move)
    )
    ours = CoreMCTSBot(ours_game, our_seat, seed=seed, uct_c=args.uct_c, **budget)
    theirs = OpenSpielMCTSBot(
        theirs_game,
        1 - our_seat,
        seed=seed,
        uct_c=args.uct_c,
        max_memory_mb=args.max_memory_mb,
        **their_budget,
    )
    ours, theirs = _CountingSimulations(ours), _OnOpenSpielY(theirs, theirs_game, size)
    bots = [ours, theirs] if our_seat == 0 else [theirs, ours]
    result = tournament.play_game(ours_game, bots, seed)
    moves, returns, their_returns = result["actions"], result["returns"], theirs.state.returns()
    if not theirs.state.is_terminal() or their_returns != returns:
        raise RuntimeError(
            f"game {index}: the two rule sets disagree after moves {moves}: "
            f"ours {returns}, OpenSpiel {their_returns}"
        )
    winner = 0 if returns[0] > 0 else 1
    return {
        "game": index,
        "our_seat": our_seat,
        "winner": winner,
        "our_win": winner == our_seat,
        "moves": moves,
        "our_seconds": result["seconds"][our_seat],
        "their_seconds": result["seconds"][1 - our_seat],
        "our_simulations": ours.simulations,
        "seed": seed,
    }


def summarise(records: list[dict], args) -> dict:
    n = len(records)
    wins = sum(r["our_win"] for r in records)
    as_black = [r for r in records if r["our_seat"] == 0]
    lo, hi = wilson_interval(wins, n)
    return {
        "games": n,
        "our_wins": wins,
        "win_rate": wins / n if n else None,
        "win_rate_95ci": [lo, hi],
        "win_rate_as_black": (sum(r["our_win"] for r in as_black) / len(as_black)) if as_black else None,
        "win_rate_as_white": (
            sum(r["our_win"] for r in records if r["our_seat"] == 1) / max(1, n - len(as_black))
        )
        if n - len(as_black)
        else None,
        "our_seconds": sum(r["our_seconds"] for r in records),
        "their_seconds": sum(r["their_seconds"] for r in records),
        "mean_moves": sum(len(r["moves"]) for r in records) / n if n else None,
        "settings": settings(args),
    }


def settings(args) -> dict:
    return {
        "mode": args.mode,
        "sims": args.sims,
        "time_per_move": args.time_per_move,
        "board_size": args.board_size,
        "uct_c": args.uct_c,
        "seed": args.seed,
        "solver": True,
        "rollouts": 1,
        "git_commit": git_commit(),
    }


def page_rows(summary: dict, command: str) -> dict:
    """docs/performance.md's row of this mode: our win rate with its 95% Wilson interval."""
    s = summary["settings"]
    budget = (
        f"equal simulations ({s['sims']:,} a move)"
        if s["mode"] == "sims"
        else f"equal time ({1000 * s['time_per_move']:g} ms a move)"
    )
    lo, hi = summary["win_rate_95ci"]
    return {
        f"mcts_strength.{s['mode']}": [
            page.Row(
                f"MCTS strength on `y_game(board_size={s['board_size']})`, {budget}, seats alternating",
                f"{100 * summary['win_rate']:.1f}% of {summary['games']} games, 95% Wilson "
                f"[{100 * lo:.1f}, {100 * hi:.1f}]",
                f"C++ `MCTSBot` on `y(board_size={s['board_size']})`",
                "-",
                command,
            )
        ]
    }


def parse_args(argv=None):
    p = argparse.ArgumentParser(
        prog="python -m experiments.mcts_strength",
        description="Our Cython MCTS (on y_game) against OpenSpiel's C++ MCTSBot (on its C++ y), "
        "seats alternating, at equal simulations or equal time per move.",
    )
    p.add_argument("--games", type=positive_int, default=20, help="number of games (default 20)")
    p.add_argument(
        "--mode",
        choices=("sims", "time"),
        default="sims",
        help="equal simulations per move (default) or equal time per move",
    )
    p.add_argument(
        "--sims", type=positive_int, default=1000, help="simulations per move in --mode sims (default 1000)"
    )
    p.add_argument(
        "--time-per-move",
        type=positive_float,
        default=0.02,
        help="seconds per move for both bots in --mode time (default 0.02)",
    )
    p.add_argument("--board-size", type=int, default=11, help="Y board size (default 11)")
    p.add_argument(
        "--uct-c", type=non_negative_float, default=1.4, help="exploration constant for both (default 1.4)"
    )
    p.add_argument(
        "--max-memory-mb", type=positive_int, default=1000, help="OpenSpiel MCTS memory cap (default 1000)"
    )
    p.add_argument("--seed", type=non_negative_int, default=0, help="base seed (game i uses seed*100003+i)")
    p.add_argument(
        "--out",
        type=Path,
        default=Path("results/mcts_strength"),
        help="output directory (default results/mcts_strength)",
    )
    p.add_argument(
        "--markdown", metavar="PAGE", help="also rewrite this mode's row of PAGE (docs/performance.md)"
    )
    args = p.parse_args(argv)
    if not 2 <= args.board_size <= 19:
        p.error("--board-size must be in 2..19")
    largest = (MAX_OPENSPIEL_SEED - (args.games - 1)) // SEED_STRIDE
    if args.seed > largest:
        p.error(
            f"--seed must be at most {largest} with {args.games} games: game i uses "
            f"seed*{SEED_STRIDE}+i, which OpenSpiel's MCTS takes as a 32-bit int"
        )
    return args


def main(argv=None) -> int:
    args = parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    log = args.out / "games.jsonl"
    meta = args.out / "settings.json"
    wanted = settings(args)
    # The settings that decide what a game record means travel in every record, so the
    # store refuses to resume a run made with other ones; settings.json says the same for
    # files written before records carried them.
    same_run = fingerprint({k: v for k, v in wanted.items() if k != "git_commit"})
    if log.exists() and meta.exists():
        old = json.loads(meta.read_text())
        if {k: v for k, v in old.items() if k != "git_commit"} != {
            k: v for k, v in wanted.items() if k != "git_commit"
        }:
            print(
                f"error: {args.out} holds a run with other settings ({old}); choose another --out",
                file=sys.stderr,
            )
            return 2
    try:
        store = RecordStore(log, key="game")
    except RecordStoreError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    with store:
        try:
            done = store.resume({i: {"settings": same_run} for i in range(args.games)})
        except RecordStoreError as error:
            print(f"error: {error}", file=sys.stderr)
            return 2
        records = list(done.values())
        if records:
            print(f"resuming: {len(records)} game(s) already in {log}", flush=True)
        meta.write_text(json.dumps(wanted, indent=1))
        for index in range(args.games):
            if index in done:
                continue
            record = play_game(index, args)
            record.update(mode=args.mode, sims=args.sims, time_per_move=args.time_per_move, settings=same_run)
            store.append(record)
            records.append(record)
            wins = sum(r["our_win"] for r in records)
            print(
                f"game {index + 1}/{args.games}: ours as {'Black' if record['our_seat'] == 0 else 'White'} "
                f"{'won' if record['our_win'] else 'lost'} in {len(record['moves'])} moves "
                f"(ours {record['our_seconds']:.2f}s, OpenSpiel {record['their_seconds']:.2f}s); "
                f"running win rate {wins}/{len(records)}",
                flush=True,
            )
    summary = summarise(records, args)
    (args.out / "summary.json").write_text(json.dumps(summary, indent=1))
    if args.markdown:
        page.update(
            args.markdown, page_rows(summary, page.command_line("python -m experiments.mcts_strength", argv))
        )
    lo, hi = summary["win_rate_95ci"]
    print(
        f"ours won {summary['our_wins']}/{summary['games']} = {summary['win_rate']:.3f} "
        f"(95% CI {lo:.3f}-{hi:.3f}); summary in {args.out / 'summary.json'}",
        flush=True,
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
