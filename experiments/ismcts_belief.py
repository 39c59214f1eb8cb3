"""``python -m experiments.ismcts_belief``: is ISMCTS's uniform belief why it does not
beat the one-world baseline on Phantom-TTT-Corners? (docs/studies.md, ismcts_belief)

The quick run of the economic-dilemmas study measures ISMCTS level with
``ismcts:worlds=first`` there (47.0% wins, [37.5, 56.7]; docs/studies/economic_dilemmas.md,
"The ISMCTS check") while a bot told the true world beats both, and blames the belief: every
consistent world weighs the same although the opponent places its hidden pieces where
its own search wants them. This script tests that explanation by giving ISMCTS the
*true* belief about an opponent whose policy it knows: the opponent is the baseline
bot itself, and each consistent world is weighted by the probability that this bot
would have made the world's moves (``ModelledBeliefBot``: the baseline's policy, its
visit shares from a search seeded as a function of its own information state, at every
one of its decisions along the world; chance as in the game). Everything else is the
shipped search (same tree, playouts, simulations).

It plays, seats alternating and seeded per game, ISMCTS with the modelled belief
against the baseline and the shipped ISMCTS (uniform belief) against the baseline,
and prints wins-draws-losses, score and Wilson intervals for both. If the modelled
belief beats the baseline where the uniform one does not, the belief is what was
missing; if not, the explanation is wrong. Each decision of the modelled bot runs
the opponent's search at every opponent decision of every consistent world (cached
by information state), so it is slow: minutes per 10 games.
"""

from __future__ import annotations

import argparse
import sys
import time
import zlib

import numpy as np
import pyspiel

from analysis.stats import wilson_interval
from mcts.ismcts import ISMCTSBot
from mcts.worlds import _world, knowledge_of

PHANTOM = "ttt(rules=games/ttt/examples/Phantom-TTT-Corners.json)"


class ModelledBeliefBot(ISMCTSBot):
    """ISMCTS whose worlds are weighted by a known opponent policy instead of alike.

    ``model(state, player)`` gives the opponent's policy [(action, probability)] at a
    state where ``player`` decides; it must depend only on that player's information
    (``baseline_model`` does), so the weights stay a function of what this bot knows:
    the consistent histories are found from this bot's knowledge alone, as in
    ``mcts.worlds``, and only the opponent's rules-and-information are evaluated."""

    def __init__(self, game, player, *, model, **kw):
        super().__init__(game, player, **kw)
        self._model = model
        self.belief_stats = []  # (worlds, weight of the heaviest, of the true world) per search
        self.truth = None  # set by the harness before each move: the true position's text

    def _worlds(self, state):
        game = state.get_game()
        k = knowledge_of(state, self._player)
        found = []  # (history, weight)
        stack = [(game.new_initial_state(), 0, 1.0)]
        while stack:
            s, i, w = stack.pop()
            if s.is_terminal():
                continue
            if s.is_chance_node():
                for a, p in s.chance_outcomes():
                    c = s.clone()
                    c.apply_action(a)
                    stack.append((c, i, w * p))
                continue
            p = s.current_player()
            if p == self._player:
                info = s.information_state_string(p)
                if i == len(k.mine):
                    if info == k.present:
                        found.append((s, w))
                    continue
                if info != k.mine[i][0]:
                    continue
                c = s.clone()
                c.apply_action(k.mine[i][1])
                stack.append((c, i + 1, w))
                continue
            for a, q in self._model(s, p):
                if q > 0:
                    c = s.clone()
                    c.apply_action(a)
                    stack.append((c, i, w * q))
        if not found:
            raise RuntimeError("no world is consistent with the knowledge and the model")
        weights = np.array([w for _, w in found])
        weights /= weights.sum()
        worlds = [_world(s) for s, _ in found]
        # measured by the harness only (the search never reads it): how much belief the
        # true world gets, modelled and uniform (worlds with the true board and status)
        true = [i for i, w in enumerate(worlds) if w.to_string() == self.truth]
        self.belief_stats.append(
            (len(found), float(weights.max()), float(weights[true].sum()), len(true) / len(found))
        )
        return (
            (lambda rng: worlds[rng.choice(len(worlds), p=weights)].clone()),
            (lambda: len(worlds)),
            "modelled",
        )


def baseline_model(game, simulations: int, seed: int, sharpen: float = 1.0):
    """The baseline bot's policy as a function of the deciding player's information
    state: visit shares of ``ismcts:worlds=first`` searched with a seed drawn from that
    information state (cached), raised to the power ``sharpen`` and renormalised (the
    real bot plays its most visited action, so a sharper model is closer to it, but
    its search's seed is not the model's)."""
    cache = {}

    def model(state, player):
        key = (player, state.information_state_string(player))
        if key not in cache:
            legal = state.legal_actions()
            if len(legal) == 1:
                cache[key] = [(legal[0], 1.0)]
            else:
                sub = seed * 2**32 + zlib.crc32(f"{player}:{key[1]}".encode())
                bot = ISMCTSBot(game, player, seed=sub, max_simulations=simulations, worlds="first")
                policy = [(a, q**sharpen) for a, q in bot.get_policy(state)]
                total = sum(q for _, q in policy)
                cache[key] = [(a, q / total) for a, q in policy]
        return cache[key]

    return model


def play(game, bots, seed: int, me: int):
    """One game; returns the returns. Seat ``me``'s bot, if it measures its belief,
    is told the true position's text before each move (for the measurement only)."""
    rng = np.random.default_rng(seed)
    s = game.new_initial_state()
    while not s.is_terminal():
        if s.is_chance_node():
            acts, probs = zip(*s.chance_outcomes(), strict=True)
            s.apply_action(acts[rng.choice(len(acts), p=probs)])
        else:
            if s.current_player() == me and hasattr(bots[me], "truth"):
                bots[me].truth = s.to_string()
            s.apply_action(bots[s.current_player()].step(s))
    return s.returns()


def match(game, make_me, games: int, simulations: int, seed: int, label: str):
    """``games`` games of make_me(player, seed) against the baseline, seats alternating."""
    wins = draws = losses = 0
    start = time.perf_counter()
    for g in range(games):
        me = g % 2
        gseed = seed * 10_000 + g
        bots = [None, None]
        bots[me] = make_me(me, gseed)
        bots[1 - me] = ISMCTSBot(game, 1 - me, seed=gseed + 1, max_simulations=simulations, worlds="first")
        r = play(game, bots, gseed, me)
        if r[me] > r[1 - me]:
            wins += 1
        elif r[me] == r[1 - me]:
            draws += 1
        else:
            losses += 1
        if (g + 1) % 10 == 0 or g + 1 == games:
            print(
                f"  {label}: {g + 1}/{games} games, {wins}-{draws}-{losses}, "
                f"{time.perf_counter() - start:.0f} s",
                file=sys.stderr,
                flush=True,
            )
    return wins, draws, losses


def row(label, wdl):
    wins, draws, losses = wdl
    n = wins + draws + losses
    lo, hi = wilson_interval(wins, n)
    dlo, dhi = wilson_interval(wins, wins + losses)
    return (
        f"| {label} | {wins}-{draws}-{losses} | {100 * wins / n:.1f}% [{100 * lo:.1f}, {100 * hi:.1f}] | "
        f"{(wins + draws / 2) / n:.3f} | {100 * wins / max(1, wins + losses):.1f}% "
        f"[{100 * dlo:.1f}, {100 * dhi:.1f}] |"
    )


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m experiments.ismcts_belief",
        description=__doc__.split("\n\n")[0],
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--game", default=PHANTOM, help=f"OpenSpiel game string (default {PHANTOM})")
    parser.add_argument("--games", type=int, default=100, help="games per pairing (default 100)")
    parser.add_argument("--simulations", type=int, default=150, help="simulations per move, every bot (150)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the games and bots (1)")
    parser.add_argument("--only", choices=("modelled", "uniform"), help="play one pairing only")
    parser.add_argument(
        "--sharpen",
        type=float,
        default=1.0,
        help="the opponent model's visit shares raised to this power (1: as searched)",
    )
    args = parser.parse_args(argv)
    if args.games < 1 or args.simulations < 1:
        parser.error("--games and --simulations must be at least 1")
    if not args.sharpen > 0:
        parser.error("--sharpen must be positive")
    import games  # noqa: F401  (registers ttt)

    game = pyspiel.load_game(args.game)
    if game.num_players() != 2:
        parser.error("a two-player game is needed (the opponent model is the other seat)")
    model = baseline_model(game, args.simulations, args.seed, args.sharpen)
    stats = []

    def modelled(p, s):
        bot = ModelledBeliefBot(game, p, model=model, seed=s, max_simulations=args.simulations)
        stats.append(bot.belief_stats)
        return bot

    def uniform(p, s):
        return ISMCTSBot(game, p, seed=s, max_simulations=args.simulations)

    rows = []
    for label, make in (("modelled belief vs baseline", modelled), ("uniform belief vs baseline", uniform)):
        if args.only and not label.startswith(args.only):
            continue
        rows.append(row(label, match(game, make, args.games, args.simulations, args.seed, label)))
    print(
        f"{args.game}, {args.games} games per pairing, {args.simulations} simulations, seed {args.seed}, "
        f"model sharpened {args.sharpen:g}"
    )
    print("| pairing | wins-draws-losses | win rate [95% Wilson] | score | wins of decisive [95% Wilson] |")
    print("|---|---|---|---|---|")
    print("\n".join(rows))
    flat = [x for per in stats for x in per if x[0] > 1]
    if flat:
        n, top, true, even = (np.mean([x[i] for x in flat]) for i in range(4))
        print(
            f"modelled belief: {len(flat)} decisions with several worlds, mean {n:.1f} worlds; mean weight "
            f"of the heaviest world {top:.3f}; of the true world {true:.3f} (uniform belief: {even:.3f})"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
