"""``python -m webapp`` / ``flipgames-web``: serve the web app on 127.0.0.1.

Why only the loopback address: the app is a researcher's local tool; its
accounts keep people's roles apart, but it is not hardened for a network.

Why waitress and one process: waitress is a production WSGI server with a
fixed pool of threads (so the registry pool's connections are reused), pure
Python, no build step. One process, because a game in progress lives in the
server's memory (webapp/live.py) and its moves are serialized by the game's
lock; several processes would each see only their own games.
"""
from __future__ import annotations

import argparse
import getpass
import os
import sys
from typing import Sequence

from registry.db import default_path
from registry.errors import RegistryError

PASSWORD_ENV = "FLIPGAMES_WEB_PASSWORD"


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="python -m webapp", description=__doc__.split("\n\n")[0])
    p.add_argument("--db", help=f"registry database (default {default_path()})")
    p.add_argument("--port", type=int, default=8000, help="TCP port on 127.0.0.1 (default 8000)")
    p.add_argument("--add-user", metavar="NAME",
                   help="create an account instead of serving (password from the terminal "
                        f"or ${PASSWORD_ENV}); the first account of a database may be an Admin")
    p.add_argument("--role", default="creator", choices=("creator", "trainer", "admin"),
                   help="role of --add-user (default creator)")
    p.add_argument("--as", dest="by", help="acting Admin for --add-user with a higher role")
    p.add_argument("--threads", type=int, default=8,
                   help="request threads of the server (default 8)")
    p.add_argument("--dev-server", action="store_true",
                   help="serve with Flask's development server instead of waitress")
    p.add_argument("--benchmark-games", type=int, default=100,
                   help="games per combination of Benchmark Selected Bots (seed: 100)")
    return p


def main(argv: Sequence[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    if not 0 < args.port < 65536:
        print(f"error: --port {args.port} is not a TCP port (1..65535)", file=sys.stderr)
        return 2
    if not 1 <= args.threads <= 64:
        print("error: --threads must be 1..64", file=sys.stderr)
        return 2
    if args.benchmark_games < 1:
        print("error: --benchmark-games must be positive", file=sys.stderr)
        return 2
    from webapp import accounts
    from webapp.app import create_app
    try:
        if args.add_user:
            from registry.store import Registry
            password = os.environ.get(PASSWORD_ENV) or getpass.getpass(f"password for {args.add_user}: ")
            with Registry(args.db) as reg:
                accounts.ensure(reg)
                accounts.create_account(reg, args.add_user, password, args.role, by=args.by)
            print(f"account {args.add_user} ({args.role}) created")
            return 0
        app = create_app(args.db, benchmark_games=args.benchmark_games)
    except RegistryError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    print(f"serving {app.config['REGISTRY_DB']} on http://127.0.0.1:{args.port}/ (Ctrl-C stops)")
    if args.dev_server:
        app.run(host="127.0.0.1", port=args.port, threaded=True, debug=False, use_reloader=False)
    else:
        from waitress import serve
        serve(app, host="127.0.0.1", port=args.port, threads=args.threads, ident="flipgames",
              _quiet=True)
    return 0
