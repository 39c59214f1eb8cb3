"""``python -m registry``: the registry from the terminal. Every subcommand has
--help; every refused change prints ``error: ...`` (exit 2) and changes nothing."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path

from registry import benchmark, evolution, leaderboard, play, players, results, rulesets, users
from registry.db import default_path
from registry.errors import RegistryError
from registry.store import PUBLIC, Registry


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="python -m registry", description=__doc__)
    p.add_argument("--db", help=f"registry database (default {default_path()})")
    sub = p.add_subparsers(dest="command", required=True)

    def cmd(name, help_text):
        return sub.add_parser(name, help=help_text, description=help_text)

    c = cmd("user-add", "create a user (and its human player in the Public universe)")
    c.add_argument("name")
    c.add_argument("--role", default="creator", choices=users.ROLES)
    c.add_argument("--as", dest="by", help="acting Admin (needed for trainer/admin)")
    c = cmd("user-role", "change an existing user's role (Admins only; the last Admin keeps the role)")
    c.add_argument("name")
    c.add_argument("role", choices=users.ROLES)
    c.add_argument("--as", dest="by", required=True, help="acting Admin")
    cmd("user-list", "list users with their roles and saved rule sets")
    c = cmd("save", "save a rule set from a JSON file (- for stdin)")
    c.add_argument("file")
    c.add_argument("--as", dest="user", required=True)
    c = cmd("copy", "print a new unsaved rule set (JSON) prefilled from a saved one")
    c.add_argument("name")
    c.add_argument("--as", dest="user", required=True)
    c.add_argument("--new-name")
    c = cmd("rename", "rename a saved rule set (Admins only)")
    c.add_argument("old")
    c.add_argument("new")
    c.add_argument("--as", dest="user", required=True)
    c = cmd("list", "list saved rule sets (--creator: all creations of one user)")
    c.add_argument("--creator")
    c = cmd("show", "print a saved rule set as JSON")
    c.add_argument("name")
    c = cmd("bot-add", "add a bot player, e.g. mcts:simulations=1000")
    c.add_argument("name")
    c.add_argument("spec")
    c = cmd("players", "list players (optionally those of one universe)")
    c.add_argument("--universe")
    c = cmd(
        "set-sp",
        "make a bot the standard player of a rule set or a game string such as "
        "'y_game(board_size=5)' (Trainers, Admins)",
    )
    c.add_argument("rule_set", help="a saved rule set's name or an OpenSpiel game string")
    c.add_argument("player")
    c.add_argument("--as", dest="user", required=True)
    c = cmd("universe-add", "create a universe")
    c.add_argument("name")
    c.add_argument("--as", dest="user", required=True)
    c = cmd("persona-add", "create a user's persona (human player) in a universe")
    c.add_argument("universe")
    c.add_argument("name")
    c.add_argument("--as", dest="user", required=True)
    c = cmd("friend-request", "send a friend request from one human player to another")
    c.add_argument("sender")
    c.add_argument("receiver")
    c = cmd("friend-answer", "accept or decline a pending friend request")
    c.add_argument("receiver")
    c.add_argument("sender")
    c.add_argument("--decline", action="store_true")
    c = cmd("play", "play a game; human seats type their moves here")
    c.add_argument("rule_set")
    c.add_argument("players", nargs="+", help="players by seat (Chaos takes no seat)")
    c.add_argument("--universe", default=PUBLIC)
    c.add_argument("--seed", type=int, default=0)
    c = cmd("leaderboard", "the leaderboard of a rule set in a universe")
    c.add_argument("rule_set")
    c.add_argument(
        "--universe",
        help="default: the universe --user selected most recently, "
        f"else {PUBLIC}; with --user, remembered as its selection",
    )
    c.add_argument("--user", help="also show this user's player if it played")
    c.add_argument(
        "--add",
        action="append",
        default=[],
        metavar="PLAYER",
        help="Add Player: also show this player, who must have played this rule set "
        "in this universe (repeatable)",
    )
    c.add_argument("--json", action="store_true")
    c = cmd("benchmark", "play N games for each combination of the chosen bots (resumable)")
    c.add_argument("rule_set")
    c.add_argument("players", nargs="+")
    c.add_argument("--as", dest="user", required=True)
    c.add_argument("--games", type=int, default=benchmark.GAMES_PER_COMBINATION)
    c.add_argument("--seed", type=int, default=0)
    c.add_argument("--universe", default=PUBLIC)
    c.add_argument("--backend", choices=("joblib", "dask"), default="joblib")
    c.add_argument("--jobs", type=int, default=1)
    c.add_argument("--scheduler")
    c = cmd("evolution", "plot the skill of chosen players over time (PNG, SVG and JSON data)")
    c.add_argument("rule_set")
    c.add_argument("players", nargs="+")
    c.add_argument("--universe", default=PUBLIC)
    c.add_argument("--out", required=True, help="file stem: writes STEM.png, .svg, .json")
    return p


def _run(reg: Registry, a) -> object:
    c = a.command
    if c == "user-add":
        users.add_user(reg, a.name, a.role, by=a.by)
        return f"user {a.name} ({a.role}) created"
    if c == "user-role":
        old = users.set_role(reg, a.name, a.role, by=a.by)
        return f"user {a.name}: {old} -> {a.role}"
    if c == "user-list":
        return users.list_users(reg)
    if c == "save":
        try:
            text = sys.stdin.read() if a.file == "-" else Path(a.file).read_text()
        except (OSError, UnicodeDecodeError) as e:
            raise RegistryError(f"cannot read {a.file}: {e}") from None
        return f"saved {rulesets.save_rule_set(reg, a.user, text)}"
    if c == "copy":
        return rulesets.copy_rule_set(reg, a.user, a.name, a.new_name)
    if c == "rename":
        rulesets.rename_rule_set(reg, a.user, a.old, a.new)
        return f"renamed {a.old} to {a.new}"
    if c == "list":
        return rulesets.list_rule_sets(reg, a.creator)
    if c == "show":
        return rulesets.rule_set_json(reg, a.name)
    if c == "bot-add":
        players.add_bot(reg, a.name, a.spec)
        return f"bot {a.name} added"
    if c == "players":
        return players.list_players(reg, a.universe)
    if c == "set-sp":
        players.set_standard_player(reg, a.user, a.rule_set, a.player)
        return f"{a.player} is the standard player of {a.rule_set}"
    if c == "universe-add":
        players.add_universe(reg, a.user, a.name)
        return f"universe {a.name} created"
    if c == "persona-add":
        players.add_persona(reg, a.user, a.universe, a.name)
        return f"persona {a.name} of {a.user} in {a.universe} created"
    if c == "friend-request":
        players.request_friend(reg, a.sender, a.receiver)
        return "friend request sent"
    if c == "friend-answer":
        players.answer_friend(reg, a.receiver, a.sender, not a.decline)
        return "declined" if a.decline else "accepted"
    if c == "play":
        gid = play.play(reg, a.rule_set, a.players, play.terminal_ask(), a.universe, a.seed)
        game = next(g for g in results.games_of(reg, a.rule_set) if g["id"] == gid)
        return {"game": gid, "players": game["players"], "returns": game["returns"], "chaos": game["chaos"]}
    if c == "leaderboard":
        universe = a.universe or (users.selected_universe(reg, a.user) if a.user else PUBLIC)
        board = leaderboard.leaderboard(reg, a.rule_set, universe, a.user, a.add)
        if a.user and a.universe:  # after the board: a refused command changes nothing
            users.select_universe(reg, a.user, a.universe)
        return [e.to_json() for e in board] if a.json else leaderboard.format_board(board)
    if c == "benchmark":
        return benchmark.benchmark(
            reg,
            a.user,
            a.rule_set,
            a.players,
            a.games,
            a.seed,
            a.universe,
            a.backend,
            a.jobs,
            a.scheduler,
            progress=True,
        )
    if c == "evolution":
        data = evolution.evolution(reg, a.rule_set, a.players, a.universe)
        paths = evolution.plot_evolution(data, a.out, f"{a.rule_set} ({a.universe})")
        return [str(p) for p in paths]
    raise AssertionError(c)


def main(argv: Sequence[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    try:
        with Registry(args.db) as reg:
            out = _run(reg, args)
    except RegistryError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    print(out if isinstance(out, str) else json.dumps(out, indent=1))
    return 0
