"""python -m solvers.equilibria: a game's payoff table, its equilibria, social
optimum and price of anarchy; or the subgame-perfect play of a sequential one.

    python -m solvers.equilibria --game matrix_pd
    python -m solvers.equilibria --game "ttt(rules=games/ttt/examples/RPS-Shared-Lines.json)"
    python -m solvers.equilibria --game "nim(pile_sizes=1;2)" --induced   # small sequential games
    python -m solvers.equilibria --game kuhn_poker --induced --method logit
        # (enummixed lists every extreme equilibrium: on Kuhn's degenerate 64x64
        # table that ran for more than 10 minutes; without --method the table is
        # merged to 27x64 and, still over 24 strategies, gets logit's one, said so)
    python -m solvers.equilibria --table pd.json     # {"payoffs": [[...], [...]], "strategies": [2, 2]}
    python -m solvers.equilibria --nfg pd.nfg        # Gambit's normal-form file
    python -m solvers.equilibria --game tic_tac_toe --spe            # backward induction

A table file holds ``payoffs`` (players x profiles), ``strategies`` (how many
each player has), optionally ``order`` ("product": player 0's strategy slowest,
the default; "gambit": player 0's fastest) and ``names`` (per player).
"""

from __future__ import annotations

import argparse
import json
import sys

import numpy as np
import pyspiel

from solvers.normal_form import (
    METHODS,
    NormalFormGame,
    backward_induction,
    equilibria,
    expected_payoffs,
    induced_normal_form,
    nash_equilibria,
    price_of_anarchy,
    pure_equilibria,
    social_optimum,
)


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="python -m solvers.equilibria",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    src = p.add_mutually_exclusive_group(required=True)
    src.add_argument(
        "--game",
        help="an OpenSpiel game string (matrix or one-round simultaneous; "
        "sequential with --induced or --spe)",
    )
    src.add_argument("--table", help="a JSON payoff table (see above)")
    src.add_argument("--nfg", help="a Gambit .nfg file")
    p.add_argument(
        "--induced",
        action="store_true",
        help="--game is sequential: use its normal form (pure strategy = one action per information state)",
    )
    p.add_argument(
        "--spe", action="store_true", help="--game is sequential with perfect information: backward induction"
    )
    p.add_argument(
        "--method",
        choices=METHODS,
        help="pygambit method, run on the table as given (default: payoff-identical "
        "strategies merged, then enummixed for two players with at most 24 "
        "strategies each, which lists every extreme equilibrium, logit's one "
        "for larger two-player tables, gnm for more players; the output says "
        "which and whether the list is complete)",
    )
    p.add_argument("--seed", type=int, default=0, help="gnm's random perturbation")
    p.add_argument("--json", action="store_true", help="one JSON object instead of text")
    return p


def _load(args) -> NormalFormGame:
    if args.table:
        try:
            with open(args.table) as f:
                doc = json.load(f)
            return NormalFormGame.from_profiles(
                doc["payoffs"],
                doc["strategies"],
                order=doc.get("order", "product"),
                strategy_names=doc.get("names"),
            )
        except (OSError, json.JSONDecodeError, KeyError) as e:
            raise ValueError(f"cannot read table {args.table}: {e!r}") from None
    if args.nfg:
        import pygambit as gbt

        try:
            game = gbt.read_nfg(args.nfg)
        except Exception as e:  # pygambit raises several types for a bad file
            raise ValueError(f"cannot read {args.nfg}: {e}") from None
        players = list(game.players)
        shape = [len(pl.strategies) for pl in players]
        payoffs = np.zeros([len(players)] + shape)
        for prof in np.ndindex(*shape):
            profile = [list(pl.strategies)[i] for pl, i in zip(players, prof, strict=True)]
            for p, pl in enumerate(players):
                payoffs[(p,) + prof] = float(game[profile][pl])
        names = [[s.label for s in pl.strategies] for pl in players]
        return NormalFormGame(payoffs, names, game.title)
    import games  # noqa: F401  (registers ours)

    game = pyspiel.load_game(args.game)
    if args.induced:
        return induced_normal_form(game).game
    return NormalFormGame.from_openspiel(game)


def main(argv=None) -> int:
    args = parser().parse_args(argv)
    try:
        if args.spe:
            if not args.game:
                raise ValueError("--spe needs --game")
            import games  # noqa: F401

            spe = backward_induction(args.game)
            out = {
                "game": args.game,
                "value": spe.value.tolist(),
                "path": spe.path,
                "tied_decisions": len(spe.ties),
                "decisions": len(spe.strategy),
            }
            print(
                json.dumps(out)
                if args.json
                else f"subgame-perfect value {out['value']}, play {out['path']} "
                f"({out['decisions']} decisions, {out['tied_decisions']} with tied best actions: "
                "lowest action taken)"
            )
            return 0
        g = _load(args)
        if args.method:
            eqs = nash_equilibria(g, args.method, seed=args.seed)
            method, complete = args.method, args.method == "enummixed" and g.num_players == 2
            found = f"the equilibria pygambit's {args.method} gives on the table as given"
        else:
            listed = equilibria(g, seed=args.seed)
            eqs, method, complete, found = (
                listed.equilibria,
                listed.method,
                listed.complete,
                listed.description,
            )
    except (ValueError, pyspiel.SpielError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    pure = pure_equilibria(g)
    opt, welfare = social_optimum(g)
    poa = price_of_anarchy(g, eqs) if eqs else None
    out = {
        "title": g.title,
        "strategies": g.strategy_names,
        "payoffs": g.to_profiles().tolist(),
        "pure_equilibria": [[g.strategy_names[p][i] for p, i in enumerate(pr)] for pr in pure],
        "equilibria": [
            {"strategies": [e.tolist() for e in eq], "payoffs": expected_payoffs(g, eq).tolist()}
            for eq in eqs
        ],
        "social_optimum": {
            "profile": [g.strategy_names[p][i] for p, i in enumerate(opt)],
            "welfare": welfare,
        },
        "price_of_anarchy": poa,
        "method": method,
        "complete": complete,
        "found": found,
    }
    if args.json:
        print(json.dumps(out))
        return 0
    print(g.title or "payoff table")
    for prof in g.profiles():
        names = ", ".join(g.strategy_names[p][i] for p, i in enumerate(prof))
        print(f"  ({names}): {g.payoffs[(slice(None),) + prof].tolist()}")
    print("pure equilibria:", out["pure_equilibria"] or "none")
    print(f"Nash equilibria ({found}{'' if complete else '; not provably all'}):")
    for e in out["equilibria"]:
        print(
            "  ",
            [np.round(s, 4).tolist() for s in e["strategies"]],
            "payoffs",
            np.round(e["payoffs"], 4).tolist(),
        )
    print(f"social optimum: {out['social_optimum']['profile']} welfare {welfare:g}")
    print(
        "price of anarchy (worst equilibrium found):",
        f"{poa:.4g}" if poa is not None else "undefined (an equilibrium's welfare is <= 0)",
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
