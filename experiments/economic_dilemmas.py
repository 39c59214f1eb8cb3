"""The economic-dilemmas study: does each dilemma rule set of the tic-tac-toe
variations specification have the structure of the economic game it is named after, what are its
equilibria, where does CFR go, and how do the bots fare on it?

    python -m experiments.economic_dilemmas                    # quick (minutes, 2 cores)
    python -m experiments.economic_dilemmas --full
    python -m experiments.economic_dilemmas --games matrix_pd Hide-And-Seek-2

Games: OpenSpiel's textbook matrix games (references whose names are known),
this toolkit's example rule sets that encode one (RPS-Shared-Lines,
Hide-And-Seek-2), a three-player reference (goofspiel with two cards), a
sequential perfect-information one (Nim with piles 1 and 2), and every dilemma of
``games.ttt.dilemmas.available()`` (whatever the catalogue holds today). For each game:

- its payoff table (``solvers.normal_form.induced_normal_form``: the normal
  form, chance averaged out; refused with the reason when too large);
- every Nash equilibrium (pygambit ``enummixed`` for two players, ``gnm`` for
  more: some, not provably all), the pure ones, the social optimum and the
  price of anarchy; the subgame-perfect equilibrium of perfect-information
  games (backward induction);
- the textbook game the table's payoff order names (``solvers.classify``) and
  whether that reproduces the game the rule set is meant to encode
  (``Dilemma.encodes``; for references, the game they are);
- CFR+ (``cfr.solve``, our tabular CFR) with NashConv per iteration, which
  equilibrium of the list its average policy is nearest (largest difference of
  action probabilities at the information states reached when the equilibrium
  is played);
  for n-player or general-sum games CFR's average need not approach a Nash
  equilibrium, and the summary says NashConv is an approximation's distance;
  games with more than ``--cfr-max-histories`` histories are not listed,
  counted instead without building the tree (``cfr.count``: Centipede9 in
  seconds, not the 554 s and 9.75 GB of walking to the cap): DCFR runs
  ``--dag-iterations`` over their DAG of merged histories where that is exact
  (``cfr.dag``: 3Blotto13, Centipede9, NeedyCentipede4, with exact NashConv),
  and elsewhere is refused with the count; backward induction is refused there;
- a tournament of MCTS (perfect-information games only: it would read hidden
  state elsewhere), ISMCTS (hidden information, simultaneous rounds included),
  the CFR average policy and Random, every seating, with mean returns and
  Wilson intervals on wins (a win is the unique best return);
- on cloaked games (3Blotto13 and KBeauty9 when the catalogue has them,
  Hide-And-Seek-2 and Phantom-TTT-Corners today): ISMCTS against Random and
  against the one-world baseline (``ismcts:worlds=first``), with the belief
  ``check_beliefs`` names for the game (``--full``: KBeauty9 ``random``).

A game may have its own search budget (``game_simulations``; ``--full``:
3P-9X-HideSeek at 50, whose result does not depend on play); payoff tables
of more than ``max_profiles`` profiles are refused on a count, before they
are built.

Everything lands in ``--out`` (default results/economic_dilemmas):
config.json (seed, settings, git commit), records/analysis.jsonl (one record
per game: tables, equilibria, CFR curves), records/tournament.jsonl and
records/ismcts_check.jsonl (every game played), policies/*.json (CFR average
policies, playable as ``--bot cfr:policy=PATH``), summary.md, summary.csv,
cfr_convergence.png/.svg and tournament_returns.png/.svg. Rerunning resumes:
finished analyses and games are read back, not repeated; records made with
other settings or another version of a rule set are refused (an analysis is
made again), and ``--redo GAME`` drops a game's records (kept in
records/dropped-TIME/) so they are computed again. The summary is a
function of the random seed and settings only (no timings), so two runs agree; the
progress output (stderr) gives each game's analysis time and its tournament's
and ISMCTS check's play time.
"""

from __future__ import annotations

import argparse
import functools
import json
import math
import re
import sys
import time
from pathlib import Path

import numpy as np

from analysis.dilemma_games import EXAMPLES, REFERENCES, catalogue_entries, full_entries
from analysis.dilemmas_summary import write_outputs
from analysis.study import positive_int, prepare_out, resumable, say, settings, study_parser

STUDY = "experiments.economic_dilemmas"
#: cloaked games for the ISMCTS check: the issue's two when they exist, then today's examples
ISMCTS_CHECK = ("3Blotto13", "KBeauty9")
ISMCTS_CHECK_TODAY = {
    "Hide-And-Seek-2": f"ttt(rules={EXAMPLES}/Hide-And-Seek-2.json)",
    "Phantom-TTT-Corners": f"ttt(rules={EXAMPLES}/Phantom-TTT-Corners.json)",
}

QUICK = dict(
    cfr_iterations=2000,
    dag_iterations=200,
    games_per_pair=100,
    simulations=200,
    check_games=100,
    check_simulations=150,
    max_strategies=256,
    cfr_max_histories=200_000,
    game_simulations={},
    check_beliefs={},
    check_games_by_game={},
    max_profiles=100_000,
)
# FULL's cuts (docs/studies/economic_dilemmas.md, "The full run"): 3P-9X-HideSeek's tournament
# at 50 simulations, not 1,000: its 30-move rounds of three seats make a game take 26 s under the
# measured load (3,100 s of the 5,100 s of play left in that run) and still 34 s at 200, and pink wins
# every game whatever is played (docs/rules/dilemmas.md), so every figure of its tournament is the
# same at any budget. The ISMCTS check at the settings measured to pass (100 games per pair, 300
# simulations, KBeauty9 with belief=random: with the default belief Random beats it there,
# docs/studies/economic_dilemmas.md, "The ISMCTS check"), not 200 games at 500 (an estimated
# 2,000 s, nearly all 3Blotto13).
FULL = dict(
    cfr_iterations=20000,
    dag_iterations=1000,
    games_per_pair=200,
    simulations=1000,
    check_games=100,
    check_simulations=300,
    max_strategies=4096,
    cfr_max_histories=5_000_000,
    game_simulations={"3P-9X-HideSeek": 50},
    check_beliefs={"KBeauty9": "random"},
    check_games_by_game={"KBeauty9": 500},
    max_profiles=100_000,
)
# (check_games_by_game: at 100-112 games a pair KBeauty9's check against the one-world
# baseline straddles 50% (57-16-39, decisive 59.4% [49.4, 68.7]); its games take 0.05 s, so
# 500 a pair cost about a minute and give 284-69-151, decisive 65.3% [60.7, 69.6].
# 3Blotto13's take 1-2 s and pass at 100.)
# (max_profiles: max_strategies bounds each player, so four players of 512 strategies each
# pass it, and KBeauty9 with hidden turns would start a table of 512^4 = 6.9e10 profiles,
# 8 GB in ten minutes and growing. The largest table the study computes is the
# Ultimatum games' 128 x 256 = 32,768; 100,000 is the payoffs tool's own limit.)
# (dag_iterations: a game past cfr_max_histories is solved over its DAG of merged histories
# where that is exact (cfr.dag: 3Blotto13, Centipede9, NeedyCentipede4) with cfr.dag.ALGORITHM
# (DCFR), at about 0.1 s an iteration on a centipede's 1.3 million nodes after a 17 s walk;
# 200 iterations bring the centipedes' NashConv to 3.0e-5 and 1.9e-4 (the quick run)
# and 3Blotto13's exploitability to 3.3e-3, 1,000 the latter's to 3.1e-4.)
# (cfr_max_histories: tabular CFR enumerates the whole tree; Centipede9's
# 3.4M positions take over 5 GB and most of the quick run without this cap.
# Games past it are refused on a count made without building (cfr/count.py).)
#: enummixed lists every extreme equilibrium, but on large degenerate tables it runs for
#: many minutes (Kuhn poker's 64x64: > 10); beyond this many strategies a player (after merging
#: payoff-identical strategies: solvers.normal_form.equilibria) gets logit's one, approximate
ENUMMIXED_MAX = 24


# --------------------------------------------------------------------------- which games


def tournament_game(game_string: str) -> str:
    """The game the bots play: simultaneous games in OpenSpiel's turn-based form (each round's
    plans one after another, hidden from the others), as analysis.tournament plays them."""
    import pyspiel

    from games.loading import playable_game_string

    return str(pyspiel.load_game(playable_game_string(game_string)))


# --------------------------------------------------------------------------- analysis of one game


def _mixed_of_policy(inf, player: int, policy: dict) -> np.ndarray:
    """A behaviour policy as the realisation-equivalent mixed strategy (product of its
    probabilities over the player's information states)."""
    acts = inf.actions[player]
    out = np.zeros(int(np.prod([len(a) for a in acts])) if acts else 1)
    for i in range(len(out)):
        pure = inf.strategy(player, i)
        prob = 1.0
        for key, a in pure.items():
            dist = dict(policy.get(key, []))
            prob *= dist.get(a, 1.0 / len(acts[inf.infosets[player].index(key)]))
        out[i] = prob
    return out / out.sum()


def _behaviour_with_reach(inf, player: int, sigma) -> dict:
    """{infoset: ({action: prob}, own reach)} of a mixed strategy (Kuhn's theorem)."""
    pures = [inf.strategy(player, i) for i in range(len(sigma))]
    out = {}
    for key, acts in zip(inf.infosets[player], inf.actions[player], strict=True):
        seq = inf.sequences[player][key]
        reach = [(w, s) for w, s in zip(sigma, pures, strict=True) if all(s[i] == a for i, a in seq)]
        mass = sum(w for w, _ in reach)
        if mass <= 1e-12:
            out[key] = ({a: 1.0 / len(acts) for a in acts}, 0.0)
        else:
            out[key] = ({a: sum(w for w, s in reach if s[key] == a) / mass for a in acts}, mass)
    return out


def _reached(game, behaviour: list) -> set:
    """(player, information state) pairs reached with positive probability when every
    player follows ``behaviour[player]`` ({infoset: ({action: prob}, reach)})."""
    import pyspiel

    out = set()
    stack = [game.new_initial_state()]
    while stack:
        state = stack.pop()
        if state.is_terminal():
            continue
        if state.is_chance_node():
            stack.extend(state.child(a) for a, q in state.chance_outcomes() if q > 0)
            continue
        p = state.current_player()
        key = state.information_state_string(p)
        out.add((p, key))
        dist = behaviour[p].get(key, ({}, 0.0))[0]
        for a in state.legal_actions():
            if dist.get(a, 0.0) > 1e-9:
                stack.append(state.child(a))
        if p == pyspiel.PlayerId.SIMULTANEOUS:  # never: CFR's games are turn-based
            raise ValueError("simultaneous node in a turn-based game")
    return out


def policy_distance(inf, equilibrium, policy: dict, game) -> float:
    """Largest difference of action probabilities between an equilibrium (mixed profile)
    and a behaviour policy, over the information states reached when the equilibrium is
    played (what the others do off that path does not decide whether it is one)."""
    behaviour = [_behaviour_with_reach(inf, p, sigma) for p, sigma in enumerate(equilibrium)]
    reached = _reached(game, behaviour)
    worst = 0.0
    for p, beh in enumerate(behaviour):
        for key, (dist, _) in beh.items():
            if (p, key) not in reached:
                continue
            theirs = dict(policy.get(key, []))
            for a in dist:
                worst = max(worst, abs(dist[a] - theirs.get(a, 1.0 / len(dist))))
    return worst


def analyse(
    entry: dict,
    *,
    cfr_iterations: int,
    max_strategies: int,
    seed: int,
    out: str,
    cfr_max_histories: int = 5_000_000,
    max_profiles: int | None = None,
    dag_iterations: int | None = None,
) -> dict:
    """Everything about one game that is not a game between bots (the record of analysis.jsonl)."""
    import pyspiel

    import games  # noqa: F401
    from cfr import dag as cfr_dag
    from cfr.dag import KEYS
    from cfr.policy_file import save_policy
    from cfr.solve import is_dag, tree_or_dag
    from cfr.solve import run as cfr_run
    from cfr.tree import TreeTooLarge
    from games.normal_form import TooLarge
    from solvers.classify import classify, classify_tree, reproduces, tree_from_openspiel
    from solvers.normal_form import (
        InductionTooLarge,
        backward_induction,
        equilibria,
        expected_payoffs,
        induced_normal_form,
        price_of_anarchy,
        pure_equilibria,
        social_optimum,
    )

    started = time.perf_counter()
    game = pyspiel.load_game(entry["game"])
    gtype = game.get_type()
    n = game.num_players()
    rec = dict(
        entry,
        players=n,
        dynamics=gtype.dynamics.name.lower(),
        information=gtype.information.name.lower(),
        utility=gtype.utility.name.lower(),
        tournament_game=tournament_game(entry["game"]),
    )
    perfect = gtype.information == pyspiel.GameType.Information.PERFECT_INFORMATION
    tgame = pyspiel.load_game(rec["tournament_game"])
    size = tree_size(tgame, cfr_max_histories, rec)
    dags = {}  # game string -> its DAG of positions, walked once for SPE and CFR
    # -- payoff table, equilibria
    inf = None
    try:
        if max_profiles is not None:
            count_profiles(game, max_profiles)
        inf = induced_normal_form(game, max_strategies=max_strategies)
    except (TooLarge, ValueError) as e:
        rec["table_refused"] = str(e)
    if inf is not None:
        g = inf.game
        names = strategy_names(game, inf)
        rec["table"] = {"shape": list(g.shape), "strategies": names, "payoffs": g.to_profiles().tolist()}
        found = equilibria(g, max_strategies=ENUMMIXED_MAX, seed=seed)
        eqs = found.equilibria
        rec["equilibrium_method"] = found.method
        rec["equilibria_complete"] = found.complete
        rec["equilibria_note"] = found.description
        rec["equilibria"] = [
            {
                "strategies": [np.round(s, 6).tolist() for s in eq],
                "payoffs": np.round(expected_payoffs(g, eq), 6).tolist(),
            }
            for eq in eqs
        ]
        rec["pure_equilibria"] = [[names[p][i] for p, i in enumerate(pr)] for pr in pure_equilibria(g)]
        opt, welfare = social_optimum(g)
        rec["social_optimum"] = {
            "profile": [names[p][i] for p, i in enumerate(opt)],
            "payoffs": g.payoffs[(slice(None),) + opt].tolist(),
            "welfare": welfare,
        }
        poa = price_of_anarchy(g, eqs) if eqs else None
        rec["price_of_anarchy"] = poa
        c = classify(g)
        rec["classified"], rec["classified_reason"] = c.label, c.reason
    # -- sequential structure
    if perfect and gtype.dynamics == pyspiel.GameType.Dynamics.SEQUENTIAL:
        try:
            if size is not None and size.nonterminal > cfr_max_histories:
                raise InductionTooLarge(
                    f"{size.text()} ({size.nonterminal:,} of them non-terminal), more "
                    f"than {cfr_max_histories:,}: too large for backward induction "
                    "here; counted, not walked"
                )
            spe = backward_induction(game, max_nodes=cfr_max_histories)
        except InductionTooLarge as e:
            spe = None
            big = _positions_dag(game, dags)
            if isinstance(big, str):
                rec["spe_refused"] = f"{e}; {big}"
            else:  # exact over the DAG of positions, one pass (cfr.dag.backward_induction)
                spe = cfr_dag.backward_induction(big)
                ties = {
                    "tied_positions": spe.tied_positions,
                    "over_dag": f"backward induction over its {big.num_nodes:,} positions (cfr.dag)",
                }
        else:
            ties = {"tied_decisions": len(spe.ties)}
        if spe is not None:
            state, path = game.new_initial_state(), []
            for a in spe.path:
                path.append(state.action_to_string(state.current_player(), a))
                state = state.child(a)
            rec["spe"] = {"value": spe.value.tolist(), "path": path, **ties}
        tree = tree_from_openspiel(game)
        if tree is not None:
            c = classify_tree(tree)
            if rec.get("classified") in (None, "other"):
                rec["classified"], rec["classified_reason"] = c.label, c.reason
    named_verdict(entry, rec, inf.game if inf is not None else None)
    if "classified" not in rec:
        rec["classified"], rec["classified_reason"] = "unknown", "no payoff table or tree to classify"
    if entry.get("encodes"):
        rec["reproduces"] = reproduces(entry["encodes"], rec["classified"], n)
    elif entry.get("expects"):
        rec["reproduces"] = "yes" if rec["classified"] == entry["expects"] else "no"
    else:
        rec["reproduces"] = "not checkable"
    # -- CFR
    try:
        cfr_tree = (
            dags[str(tgame)]
            if str(tgame) in dags
            else tree_or_dag(tgame, max_nodes=cfr_max_histories, count=size)
        )
    except TreeTooLarge as e:
        rec["cfr_refused"] = str(e)
    else:
        over_dag = is_dag(cfr_tree)
        algorithm = cfr_dag.ALGORITHM if over_dag else "cfr+"
        result = cfr_run(
            tgame,
            algorithm,
            tree=cfr_tree,
            iterations=dag_iterations or cfr_iterations if over_dag else cfr_iterations,
        )
        policy = result.policy
        zero_sum = n == 2 and gtype.utility == pyspiel.GameType.Utility.ZERO_SUM
        curve = [
            {"iteration": r["iteration"], "nash_conv": r["nash_conv"], "exploitability": r["exploitability"]}
            for r in result.curve
        ]
        path = Path(out) / "policies" / f"{entry['name']}.json"
        dag_meta = {"keys": KEYS[cfr_tree.dag.mode]} if over_dag else {}
        save_policy(
            path,
            game=tgame,
            policy=policy,
            turn_based=False,
            algorithm=algorithm,
            engine="ours",
            iterations=result.solver.iterations,
            seed=seed,
            nash_conv=curve[-1]["nash_conv"],
            exploitability=curve[-1]["exploitability"],
            **dag_meta,
        )
        rec["cfr"] = {
            "algorithm": algorithm,
            "iterations": result.solver.iterations,
            "curve": curve,
            "nash_conv": curve[-1]["nash_conv"],
            "exploitability": curve[-1]["exploitability"],
            "approximation": not zero_sum,
            "policy_file": str(path),
            "seconds": round(result.seconds, 4),
        }
        if over_dag:
            rec["cfr"]["dag"] = {
                "mode": cfr_tree.dag.mode,
                "nodes": cfr_tree.num_nodes,
                "information_sets": cfr_tree.num_infosets,
                "walk_seconds": round(cfr_tree.dag.seconds, 3),
            }
        if inf is not None and rec.get("equilibria"):
            eq_arrays = [[np.asarray(s) for s in e["strategies"]] for e in rec["equilibria"]]
            dists = [policy_distance(inf, eq, policy, tgame) for eq in eq_arrays]
            best = int(np.argmin(dists))
            mixed = [_mixed_of_policy(inf, p, policy) for p in range(n)]
            rec["cfr"].update(
                nearest_equilibrium=best,
                distance=round(dists[best], 6),
                payoffs=np.round(expected_payoffs(inf.game, mixed), 6).tolist(),
                mixed=[np.round(m, 6).tolist() for m in mixed],
            )
    rec["analysis_seconds"] = round(time.perf_counter() - started, 3)
    return rec


def _positions_dag(game, dags: dict):
    """The DAG of positions of a perfect-information game of ours (``cfr.dag``), kept in
    ``dags`` for the CFR that follows; or why there is none (a sentence)."""
    from cfr import dag as cfr_dag

    try:
        dags[str(game)] = cfr_dag.build_dag(game, "position")
    except (cfr_dag.NotExact, cfr_dag.TooManyNodes, ValueError) as e:
        return f"no DAG of positions either ({e})"
    return dags[str(game)]


def count_profiles(game, limit: int) -> None:
    """Refuse (``TooLarge``, with the count) a payoff table of more than ``limit`` profiles
    before it is built: ``induced_normal_form`` bounds each player's strategies only, and
    its table is the product (one walk of the tree that counts, building nothing)."""
    import pyspiel

    from games.normal_form import TooLarge, enumerate_tree

    if game.get_type().dynamics == pyspiel.GameType.Dynamics.SIMULTANEOUS:
        game = pyspiel.convert_to_turn_based(game)
    try:
        enumerate_tree(game, max_profiles=limit, build=False)
    except TooLarge as e:
        detail = re.sub(r"\s*\(raise [^)]*\)", "", str(e))  # the hints name payoff_table's flags
        raise TooLarge(
            f"{game}: the payoff table would have more than {limit:,} profiles ({detail}); not built"
        ) from e


def tree_size(tgame, limit: int, rec: dict):
    """The histories of the game CFR walks, counted without building its tree
    (``cfr.count``; this toolkit's Cython games only, None for OpenSpiel's own,
    which are small): tabular CFR and backward induction are refused on it
    before they walk anything. Recorded in ``rec`` (``histories``, exact or a
    lower bound, and the seconds the count took)."""
    from cfr.count import count_histories, is_core_game

    if not is_core_game(tgame):
        return None
    t0 = time.perf_counter()
    size = count_histories(tgame, limit=limit)
    rec["histories"] = {
        "count": size.histories,
        "nonterminal": size.nonterminal,
        "exact": size.exact,
        "positions": size.positions,
        "seconds": round(time.perf_counter() - t0, 3),
    }
    return size


def named_verdict(entry: dict, rec: dict, table) -> None:
    """A dilemma's verdict by the definition of the game it encodes where the
    payoff order cannot give one: the named classifiers (solvers/classify.py)
    on the full table, or on the reduced game (analysis/reduced_games.py) when the
    full table is refused. The payoff-order label stays in ``payoff_order``."""
    from analysis.reduced_games import REDUCED, classify_reduced, reduced, summary
    from solvers.classify import NAMED, classify_named

    encodes = entry.get("encodes")
    if entry.get("kind") != "dilemma" or not encodes:
        return
    if (
        table is not None
        and encodes in NAMED
        and not any(k in NAMED[encodes] for k in ("allocations", "numbers", "quantities", "contributions"))
    ):
        c = classify_named(encodes, table)
        rec["payoff_order"] = rec.get("classified")
        rec["classified"], rec["classified_reason"] = c.label, c.reason
        return
    # a reduced game where the full table is refused, or where the full table names nothing and
    # the reduced one gives the textbook's strategies (3P-Volunteer: stay or volunteer)
    if entry["name"] not in REDUCED or (table is not None and rec.get("classified") != "other"):
        return
    r = reduced(entry["name"])
    c = classify_reduced(r, encodes)
    rec["reduced"] = summary(r)
    rec["payoff_order"] = rec.get("classified")
    rec["classified"], rec["classified_reason"] = c.label, f"on the reduced game: {c.reason}"


def strategy_names(game, inf) -> list[list[str]]:
    """Every pure strategy of the induced normal form in the game's action names: its action
    at each information state with a choice, joined by " / " ("-" if the player never chooses).
    The names are read from states (matrix games name actions only there)."""
    from cfr.game_form import turn_based
    from games.normal_form import enumerate_tree

    tree = enumerate_tree(turn_based(game), max_profiles=None, build=False)
    out = []
    for p in range(game.num_players()):
        states = tree.infostates[p]
        names = []
        for i in range(int(np.prod([len(s.actions) for s in states])) if states else 1):
            pure = inf.strategy(p, i)
            parts = [
                s.action_names[s.actions.index(pure[key])]
                for s, key in zip(states, inf.infosets[p], strict=True)
                if len(s.actions) > 1
            ]
            names.append(" / ".join(parts) if parts else "-")
        out.append(names)
    return out


# --------------------------------------------------------------------------- bots


def bot_specs(rec: dict, simulations: int) -> list:
    """The tournament's bots for one game (module docstring); ``simulations`` is the game's
    budget (``game_simulations``, else ``simulations``)."""
    from agents import BotSpec

    specs = [BotSpec.make("random")]
    if rec.get("cfr"):
        specs.append(BotSpec.make("cfr", name="cfr", policy=rec["cfr"]["policy_file"]))
    hidden = rec["information"] != "perfect_information" or rec["dynamics"] == "simultaneous"
    if hidden:
        # ISMCTS samples its worlds where they are too many to list (mcts/worlds.py),
        # so the dilemmas too large for a payoff table get their ISMCTS seat too
        specs.append(BotSpec.make("ismcts", name="ismcts", simulations=simulations))
    else:
        kind = "mcts" if _has_core(rec["tournament_game"]) else "openspiel_mcts"
        specs.append(BotSpec.make(kind, name="mcts", simulations=simulations))
    return specs


def _has_core(game_string: str) -> bool:
    import pyspiel

    return hasattr(pyspiel.load_game(game_string), "new_core")


def play_seconds(records: list) -> float:
    """Wall seconds the games took to play (each record's own, so resumed games count too):
    the per-game timing of the progress output, never in the summary."""
    return sum(r.get("wall_seconds", 0.0) for r in records)


def bot_summary(records: list, labels: list) -> list[dict]:
    """Per bot: games, mean return with a Student-t interval, wins (unique best return)
    with a Wilson interval; over every seat it held."""
    from analysis.stats import mean_and_ci, returns_to_winner, wilson_interval

    out = []
    for label in labels:
        returns, wins, games_ = [], 0, 0
        for r in records:
            for seat, who in enumerate(r["players"]):
                if who != label:
                    continue
                games_ += 1
                returns.append(r["returns"][seat])
                wins += returns_to_winner(r["returns"]) == seat
        mean, low, high = mean_and_ci(returns)
        wl, wh = wilson_interval(wins, games_) if games_ else (math.nan, math.nan)
        out.append(
            {
                "bot": label,
                "games": games_,
                "mean_return": mean,
                "return_low": low,
                "return_high": high,
                "wins": wins,
                "win_rate": wins / games_ if games_ else math.nan,
                "win_low": wl,
                "win_high": wh,
            }
        )
    return out


def ismcts_check(
    game_string: str,
    games_per_pair: int,
    simulations: int,
    seed: int,
    path: Path,
    run_options: dict,
    belief: str = "histories",
    runner=None,
) -> dict | None:
    """ISMCTS against Random and against the one-world baseline, seats alternating.
    ``belief`` weighs ISMCTS's listed worlds (mcts.worlds.BELIEFS; kbeauty: KBeauty9 is
    checked with both, docs/studies.md)."""
    from agents import BotSpec
    from analysis.stats import pairwise_win_rates, wilson_interval
    from analysis.tournament import make_tasks, run_tasks

    extra = {} if belief == "histories" else {"belief": belief}  # default: records as before
    ismcts = BotSpec.make("ismcts", name="ismcts", simulations=simulations, **extra)
    baseline = BotSpec.make("ismcts", name="baseline", simulations=simulations, worlds="first")
    random_ = BotSpec.make("random")
    tasks = make_tasks(game_string, [ismcts, random_, baseline], games_per_pair, seed, pairs=[(0, 1), (0, 2)])
    records = (runner or run_tasks)(tasks, path, desc=f"ISMCTS check {game_string}", **run_options)
    if not records:  # --summary-only before the check began
        return None
    say(
        f"  ISMCTS check {game_string}: {len(records)} of {len(tasks)} games, "
        f"{play_seconds(records):.0f} s of play"
    )
    rates = (
        pairwise_win_rates(records)
        if all(len(r["players"]) == 2 for r in records)
        else table_win_rates(records, "ismcts")
    )
    out = {}
    for other in ("random", "baseline"):
        w = rates[("ismcts", other)]
        # draws are a third to a half of 3Blotto13's games (tied boards), so "beats" is
        # judged on the decisive games: wins against losses, with a Wilson interval
        dlow, dhigh = wilson_interval(w.wins, w.wins + w.losses)
        out[other] = {
            "wins": w.wins,
            "draws": w.draws,
            "losses": w.losses,
            "games": w.games,
            "win_rate": w.rate,
            "low": w.low,
            "high": w.high,
            "score": w.score,
            "decisive_low": dlow,
            "decisive_high": dhigh,
            "belief": belief,
            "planned": sum(1 for t in tasks if other in t.pair),
        }
    return out


def table_win_rates(records: list, me: str) -> dict:
    """``me`` against each other bot at tables of more seats than bots (every seating,
    so each bot holds each seat equally often): a game is a win when the mean return
    of ``me``'s seats is above the other bot's, a draw when equal. With two players
    this is the pairwise rule (the unique best return wins)."""
    from analysis.stats import win_rate

    counts = {}
    for r in records:
        labels = set(r["players"]) - {me}
        if len(labels) != 1 or me not in r["players"]:
            continue
        other = labels.pop()
        mean = {
            who: float(np.mean([x for x, p in zip(r["returns"], r["players"], strict=True) if p == who]))
            for who in (me, other)
        }
        row = counts.setdefault((me, other), [0, 0, 0])
        row[0 if mean[me] > mean[other] else (1 if mean[me] == mean[other] else 2)] += 1
    return {pair: win_rate(*wdl) for pair, wdl in counts.items()}


# --------------------------------------------------------------------------- main


def main(argv=None) -> int:
    parser = study_parser(STUDY, __doc__)
    parser.add_argument(
        "--games",
        nargs="+",
        metavar="NAME",
        help="only these games: references (" + ", ".join(REFERENCES) + ") or the names of "
        "the tic-tac-toe variations specification's dilemmas that the catalogue holds "
        "(default: the quick references and every available dilemma; --full: every reference too)",
    )
    parser.add_argument("--cfr-iterations", type=positive_int, help="CFR+ iterations per game")
    parser.add_argument(
        "--dag-iterations",
        type=positive_int,
        help="CFR+ iterations on a game solved over its DAG of merged histories "
        "(cfr.dag: past --cfr-max-histories, where exact; quick 200, full 1000)",
    )
    parser.add_argument("--games-per-pair", type=positive_int, help="tournament games per table of bots")
    parser.add_argument("--simulations", type=positive_int, help="MCTS / ISMCTS simulations per move")
    parser.add_argument("--check-games", type=positive_int, help="games per pair in the ISMCTS check")
    parser.add_argument("--check-simulations", type=positive_int, help="ISMCTS simulations in the check")
    parser.add_argument(
        "--max-strategies",
        type=positive_int,
        help="refuse payoff tables where a player has more pure strategies",
    )
    parser.add_argument(
        "--max-profiles",
        type=positive_int,
        help="refuse payoff tables of more profiles, counted before building (100000)",
    )
    parser.add_argument(
        "--cfr-max-histories",
        type=positive_int,
        help="skip tabular CFR and backward induction on games with more histories, "
        "counted without building the tree (quick 200000, full 5000000)",
    )
    parser.add_argument(
        "--game-simulations",
        nargs="+",
        metavar="GAME=N",
        help="a game's own MCTS/ISMCTS budget in its tournament, replacing --simulations "
        "there (full: 3P-9X-HideSeek=50, whose result does not depend on play; "
        "quick: none); stated in config.json and the summary",
    )
    parser.add_argument("--skip-check", action="store_true", help="skip the ISMCTS check on cloaked games")
    parser.add_argument(
        "--check-beliefs",
        nargs="+",
        metavar="GAME=BELIEF",
        help="ISMCTS's belief (histories or random, mcts.worlds.BELIEFS) in a check game "
        "(full: KBeauty9=random; the others and quick: histories)",
    )
    parser.add_argument(
        "--check-games-by-game",
        nargs="+",
        metavar="GAME=N",
        help="a check game's own games per pairing, replacing --check-games there "
        "(full: KBeauty9=500, whose games are fast and whose margin over the "
        "baseline needs them; quick: none)",
    )
    parser.add_argument(
        "--summary-only",
        action="store_true",
        help="write summary.md/.csv and the plots from the records already in --out, "
        "analysing and playing nothing (a run stopped before its end: the summary "
        "says which tournaments and checks are incomplete and how far they got)",
    )
    parser.add_argument(
        "--redo",
        nargs="+",
        metavar="GAME",
        help="drop these games' records (analysis, tournament games, ISMCTS check, CFR "
        "policy) before resuming, so they are computed again, e.g. after their rule "
        "set or a setting of theirs changed; the dropped records are kept in "
        "records/dropped-TIME/. Done each time it is given: resume an interrupted "
        "redo without it",
    )
    args = parser.parse_args(argv)
    args.game_simulations = _pairs(parser, "game-simulations", args.game_simulations, positive_int)
    args.check_beliefs = _pairs(parser, "check-beliefs", args.check_beliefs, _belief)
    args.check_games_by_game = _pairs(parser, "check-games-by-game", args.check_games_by_game, positive_int)
    cfg = settings(args, QUICK, FULL)
    import games  # noqa: F401

    try:
        entries = catalogue_entries(args.games) if args.games or not args.full else full_entries()
    except ValueError as e:
        parser.error(str(e))
    names = [e["name"] for e in entries]
    check_names = set(ISMCTS_CHECK) | set(ISMCTS_CHECK_TODAY)
    for flag, given, allowed in (
        ("game-simulations", cfg["game_simulations"], set(names)),
        ("check-beliefs", cfg["check_beliefs"], check_names),
        ("check-games-by-game", cfg["check_games_by_game"], check_names),
        ("redo", args.redo or [], set(names) | check_names),
    ):
        unknown = [n for n in given if n not in allowed]
        if unknown and (flag != "game-simulations" or given is args.game_simulations):
            parser.error(
                f"--{flag}: {', '.join(unknown)} not among this run's games ({', '.join(sorted(allowed))})"
            )
    cfg.update(seed=args.seed, full=args.full, games=names)
    # check_games and check_simulations are not resume keys: the check's records carry each
    # bot's settings and a changed budget is refused per record (the record store); a new
    # count only chooses which games are wanted (econ-full2 changed --full's check settings
    # before its check had played a game)
    resume_keys = (
        "seed",
        "cfr_iterations",
        "games_per_pair",
        "simulations",
        "max_strategies",
        "max_profiles",
    )
    if args.summary_only:
        if args.redo:
            parser.error("--summary-only changes no record: give --redo without it")
        out = _existing_run(Path(args.out), cfg, resume_keys)
    else:
        out = prepare_out(args.out, STUDY, cfg, resume_keys)
    (out / "records").mkdir(exist_ok=True)
    if args.redo:
        drop_records(out, args.redo, {e["name"]: e for e in entries})
    start = time.perf_counter()
    run_options = dict(
        backend=args.backend, n_jobs=args.jobs, scheduler=args.scheduler, progress=not args.no_progress
    )
    by_name = {e["name"]: e for e in entries}
    settings_key = {
        k: cfg[k]
        for k in (
            "cfr_iterations",
            "max_strategies",
            "seed",
            "cfr_max_histories",
            "max_profiles",
            "dag_iterations",
        )
        if k in cfg
    }
    fingerprints = {e["name"]: _fingerprint(e["game"]) for e in entries}

    def report(rec):
        cfr = (
            f"CFR NashConv {rec['cfr']['nash_conv']:.2g} ({rec['cfr']['seconds']:.0f} s)"
            if rec.get("cfr")
            else "CFR refused"
            if rec.get("cfr_refused")
            else "no CFR"
        )
        say(
            f"  {rec['name']}: {rec['classified']} (reproduces: {rec['reproduces']}); "
            f"{len(rec.get('equilibria', []))} equilibria; {cfr}; "
            f"analysed in {rec.get('analysis_seconds', 0):.0f} s"
        )

    say(f"analysing {len(entries)} games: {', '.join(by_name)}")
    if args.summary_only:
        from records import read_records

        stored = {
            r["game"]: r
            for r in read_records(out / "records" / "analysis.jsonl", key="game")
            if r["game"] in by_name
            and _same_settings(r, settings_key)
            and r.get("game_fingerprint", fingerprints[r["game"]]) == fingerprints[r["game"]]
        }
        lacking = [n for n in by_name if n not in stored]
        if lacking:
            raise SystemExit(
                f"{out} has no analysis of {', '.join(lacking)} with these settings yet: run "
                "without --summary-only first"
            )
    analyses = (
        stored
        if args.summary_only
        else resumable(
            list(by_name),
            out / "records" / "analysis.jsonl",
            args.jobs,
            # a record without a game_fingerprint (the field is optional) is reused; --redo drops
            # the games whose rule set has changed
            reusable=lambda r: (
                _same_settings(r, settings_key)
                and r.get("game_fingerprint", fingerprints[r["game"]]) == fingerprints[r["game"]]
            ),
            work=functools.partial(
                _analyse_named,
                entries=by_name,
                settings_key=settings_key,
                out=str(out),
                fingerprints=fingerprints,
            ),
            announce=lambda k: (
                f"{k} games to analyse (tables, equilibria, CFR+ {cfg['cfr_iterations']} iterations)"
            ),
            report=report,
        )
    )
    rows = [analyses[e["name"]] for e in entries]

    from analysis.tournament import make_tasks, run_tasks

    tasks, labels = {}, {}
    for rec in rows:
        specs = bot_specs(rec, cfg["game_simulations"].get(rec["name"], cfg["simulations"]))
        if len(specs) < 2:  # CFR refused and no search bot: nothing to pair Random with
            rec["tournament_skipped"] = "only " + ", ".join(s.label for s in specs) + " can play it here"
            continue
        labels[rec["name"]] = [s.label for s in specs]
        tasks[rec["name"]] = make_tasks(rec["tournament_game"], specs, cfg["games_per_pair"], args.seed)
    own = "".join(f"; {n} at {k} simulations" for n, k in cfg["game_simulations"].items() if n in labels)
    path = out / "records" / "tournament.jsonl"
    order = tournament_order(rows, tasks, path)
    say(
        f"tournaments: {sum(map(len, tasks.values()))} games ({cfg['games_per_pair']} per table, every "
        f"seating; MCTS/ISMCTS {cfg['simulations']} simulations{own}), game by game, cheapest first by "
        f"the seconds a game took so far: {', '.join(order)}"
    )
    play = _stored_games if args.summary_only else run_tasks
    for name in order:
        rec = next(r for r in rows if r["name"] == name)
        mine = _refusing_mixes(
            play, tasks[name], path, desc=f"tournament {name}", chunk_size=4, **run_options
        )
        if mine:  # --summary-only: a tournament not begun has no rows
            rec["tournament"] = bot_summary(mine, labels[name])
        rec["tournament_played"] = [len(mine), len(tasks[name])]
        say(
            f"  tournament {name}: {len(mine)} of {len(tasks[name])} games, "
            f"{play_seconds(mine):.0f} s of play (summed over the workers; resumed games at the time "
            "they took)"
        )

    checks, unplayed = {}, []
    if not args.skip_check:
        from games.ttt.dilemmas import available

        have = {d.name for d in available()}
        check_games = {n: f"ttt(rules={n})" for n in ISMCTS_CHECK if n in have}
        missing = [n for n in ISMCTS_CHECK if n not in have]
        check_games.update(ISMCTS_CHECK_TODAY)
        if missing:
            say(
                f"ISMCTS check: {', '.join(missing)} not in the catalogue yet; running it on "
                f"{', '.join(check_games)}"
            )
        for name, game_string in check_games.items():
            res = _refusing_mixes(
                ismcts_check,
                game_string,
                cfg["check_games_by_game"].get(name, cfg["check_games"]),
                cfg["check_simulations"],
                args.seed,
                out / "records" / f"ismcts_check_{name}.jsonl",
                run_options,
                belief=cfg["check_beliefs"].get(name, "histories"),
                runner=_stored_games if args.summary_only else None,
            )
            if res is None:
                unplayed.append(name)
            else:
                checks[name] = res
        checks_missing = missing
    else:
        checks_missing = []
    write_outputs(out, rows, checks, checks_missing, cfg, unplayed, enummixed_max=ENUMMIXED_MAX)
    print((out / "summary.md").read_text())
    say(f"done in {time.perf_counter() - start:.0f} s; results in {out}")
    return 0


def _analyse_named(name: str, *, entries: dict, settings_key: dict, out: str, fingerprints: dict) -> dict:
    rec = analyse(
        entries[name],
        cfr_iterations=settings_key["cfr_iterations"],
        max_strategies=settings_key["max_strategies"],
        seed=settings_key["seed"],
        out=out,
        cfr_max_histories=settings_key.get("cfr_max_histories", FULL["cfr_max_histories"]),
        max_profiles=settings_key.get("max_profiles"),
        dag_iterations=settings_key.get("dag_iterations"),
    )
    rec["game_string"] = rec["game"]
    rec["game"] = name  # the record store's key
    rec["settings"] = settings_key
    rec["game_fingerprint"] = fingerprints[name]
    return rec


def _existing_run(out: Path, cfg: dict, resume_keys) -> Path:
    """``--summary-only``: the output of a run with these settings (its config.json is
    left as that run wrote it: this writes only the summary and the plots)."""
    path = out / "config.json"
    if not path.exists():
        raise SystemExit(f"{out} holds no {STUDY} run (no config.json): nothing to summarise")
    old = json.loads(path.read_text()).get("config", {})
    changed = [k for k in resume_keys if k in old and old[k] != cfg.get(k)]
    if changed:
        raise SystemExit(
            f"{out} holds a run with different {', '.join(changed)} "
            f"({', '.join(f'{k}={old[k]!r}' for k in changed)}): give its settings"
        )
    return out


def _same_settings(rec: dict, settings_key: dict) -> bool:
    """Whether an analysis record was made with this run's settings. A record made before
    ``max_profiles`` existed had no such limit: it is this run's when its table (if any)
    is within the limit, since a table's content does not depend on the limit."""
    made = rec.get("settings") or {}
    if made == settings_key:
        return True
    rest = {k: v for k, v in settings_key.items() if k != "max_profiles"}
    if "max_profiles" in made or made != rest or "max_profiles" not in settings_key:
        return False
    return not rec.get("table") or math.prod(rec["table"]["shape"]) <= settings_key["max_profiles"]


def tournament_order(rows: list, tasks: dict, path: Path) -> list:
    """The games whose tournaments are played, cheapest first by the mean seconds a game of
    theirs took in the records so far (games without one last, in catalogue order), so a run
    stopped early leaves whole tournaments rather than every one part played."""
    from records import read_records

    seconds = {}
    for r in read_records(path, key="key"):
        seconds.setdefault(r["game"], []).append(r.get("wall_seconds", 0.0))
    cost = {}
    for rec in rows:
        if rec["name"] in tasks:
            known = seconds.get(rec["tournament_game"])
            cost[rec["name"]] = float(np.mean(known)) if known else math.inf
    return sorted(cost, key=lambda n: cost[n])  # stable: catalogue order among equals


def _stored_games(tasks, path, **_options) -> list:
    """``--summary-only``: the records already made of ``tasks`` (read without locking, so a
    running study is not disturbed), checked as a resume checks them; nothing is played."""
    from records import read_records
    from records.store import resume_from

    latest = {r["key"]: r for r in read_records(path, key="key")}
    done = resume_from(latest, {task.key: task.settings() for task in tasks}, path)
    return [done[task.key] for task in tasks if task.key in done]


def _fingerprint(game_string: str):
    """The rule set's fingerprint (analysis.tournament.game_fingerprint; None for OpenSpiel's
    games): an analysis of an edited rule set is made again, as its tournament games are."""
    from analysis.tournament import game_fingerprint

    return game_fingerprint(game_string)


def _pairs(parser, flag: str, items, convert) -> dict | None:
    """``NAME=VALUE`` items of ``--flag`` as a dict (None when the flag is not given)."""
    if items is None:
        return None
    out = {}
    for item in items:
        name, sep, value = item.partition("=")
        try:
            if not sep or not name:
                raise ValueError
            out[name] = convert(value)
        except (ValueError, TypeError, argparse.ArgumentTypeError) as e:
            parser.error(f"--{flag} takes NAME=VALUE items, got {item!r}" + (f": {e}" if str(e) else ""))
    return out


def _belief(text: str) -> str:
    from mcts.worlds import BELIEFS

    if text not in BELIEFS:
        raise ValueError(f"the belief must be one of {', '.join(BELIEFS)}")
    return text


def _refusing_mixes(run, *args, **kwargs):
    """``run(*args, **kwargs)``, turning a record store's refusal to mix settings into a
    message that says how to recompute the game (--redo) instead of a traceback."""
    from records.errors import SettingsMismatch

    try:
        return run(*args, **kwargs)
    except SettingsMismatch as e:
        game = str(e.key).split("|")[0] if e.key is not None else "the game"  # a task key: game|...
        raise SystemExit(
            f"{e}\n(the records of {game} were made with other settings or another version "
            "of its rule set: rerun with --redo NAME to drop and recompute that game's "
            "records, or use another --out)"
        ) from None


def drop_records(out: Path, redo: list, entries: dict) -> None:
    """``--redo``: move the named games' records out of the run's record stores (analysis,
    tournament games, ISMCTS check) and their CFR policies into records/dropped-TIME/, so
    the resume that follows computes them again. Nothing is deleted; each store is
    rewritten whole under its lock (the run already holds the directory's run.lock)."""
    import os

    from records import RecordStore, read_records

    names = set(redo)
    dropped = out / "records" / time.strftime("dropped-%Y%m%dT%H%M%SZ", time.gmtime())
    analysis = out / "records" / "analysis.jsonl"
    old = {r["game"]: r for r in read_records(analysis, key="game")}
    strings = set()
    for name in names:
        if name in entries:
            strings.add(tournament_game(entries[name]["game"]))
        if name in old and old[name].get("tournament_game"):
            strings.add(old[name]["tournament_game"])
    counts = {}
    for path, key, drop in (
        (analysis, "game", lambda r: r["game"] in names),
        (out / "records" / "tournament.jsonl", "key", lambda r: r["game"] in strings),
        *((out / "records" / f"ismcts_check_{n}.jsonl", "key", lambda r: True) for n in sorted(names)),
    ):
        if not path.exists():
            continue
        with RecordStore(path, key=key) as store:
            records = store.records()
            gone = [r for r in records if drop(r)]
            if not gone:
                continue
            dropped.mkdir(parents=True, exist_ok=True)
            with RecordStore(dropped / path.name, key=key) as keep_aside:
                for r in gone:
                    keep_aside.append(r)
            fresh = path.with_name(path.name + ".redo")
            fresh.unlink(missing_ok=True)
            with RecordStore(fresh, key=key) as rewritten:
                for r in records:
                    if not drop(r):
                        rewritten.append(r)
            os.replace(fresh, path)
        counts[path.name] = len(gone)
    for name in sorted(names):
        policy = out / "policies" / f"{name}.json"
        if policy.exists():
            dropped.mkdir(parents=True, exist_ok=True)
            os.replace(policy, dropped / policy.name)
            counts[f"policies/{policy.name}"] = 1
    say(
        f"--redo {' '.join(sorted(names))}: dropped "
        + (
            ", ".join(f"{n} from {f}" for f, n in counts.items()) + f" (kept in {dropped})"
            if counts
            else "nothing (no records of them yet)"
        )
    )


if __name__ == "__main__":
    from experiments.economic_dilemmas import main as _main  # workers unpickle by module reference

    sys.exit(_main())
