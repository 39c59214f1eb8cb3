"""``python -m analysis.contract_subgames``: ContractPD and ContractHunt judged as what
they are, a contract stage followed by the base game.

Why a test apart from the full table's: in ContractPD and ContractHunt white first
places one piece alone, in the open, and then both play the base game's
simultaneous round. That is a multi-stage game with observed actions (Osborne &
Rubinstein 1994, *A Course in Game Theory*, section 6.3.2, extensive games with
simultaneous moves; Fudenberg & Tirole 1991, *Game Theory*, section 3.6), and the
question its name asks is the one subgame perfection answers (Osborne & Rubinstein,
Definition 97.2): after each contract, is the round that follows the namesake
(the prisoner's dilemma, the stag hunt), and what does white's best contract lead
to? The full table's payoff order (``solvers.classify.classify``) mixes the
contracts and the responses to contracts that are never made, so it cannot say.

Each subgame is tabulated exactly from the state after white's contract: black's
and white's choices in the simultaneous round (the engine asks black first and
hides its plan, so white's choice is the same whatever black planned), every later
move Chaos's, uniform (an exact expectation over ``chance_outcomes``). Each
subgame's 2-player table is classified by ``classify``; white's contract is then
chosen by backward induction, each subgame played at its pure equilibria.
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass
from fractions import Fraction

import numpy as np
import pyspiel

import games  # noqa: F401  (registers ttt)
from solvers.classify import classify
from solvers.normal_form import NormalFormGame

#: the dilemmas with a contract stage, and the namesake each round should be
CONTRACT_GAMES = {"ContractPD": "prisoners-dilemma", "ContractHunt": "stag-hunt"}


@dataclass(frozen=True)
class Subgame:
    """The simultaneous round after one contract: the contract's label, the two
    players' actions, the exact table (``table[i][j]`` = returns when black plays
    its ``i``-th action and white its ``j``-th), its classification and its pure
    equilibria."""

    contract: str
    actions: tuple[tuple[str, ...], tuple[str, ...]]
    table: tuple[tuple[tuple[Fraction, Fraction], ...], ...]
    label: str
    reason: str
    equilibria: tuple[tuple[int, int], ...]


def _fraction(x: float) -> Fraction:
    return Fraction(x).limit_denominator(1 << 20)


def _expected(state) -> tuple[Fraction, ...]:
    """The exact expected returns of ``state`` when every move left is Chaos's."""
    if state.is_terminal():
        return tuple(_fraction(r) for r in state.returns())
    if not state.is_chance_node():
        raise ValueError(f"a player's move after the simultaneous round: {state}")
    total = None
    for action, p in state.chance_outcomes():
        values = _expected(state.child(action))
        weighted = [_fraction(p) * v for v in values]
        total = weighted if total is None else [t + w for t, w in zip(total, weighted, strict=True)]
    return tuple(total)


def _joint(state, black: int, white: int):
    child = state.clone()
    child.apply_actions([black, white])
    return child


def subgames(name: str) -> list[Subgame]:
    """The subgame after each of white's contracts in ``ttt(rules=name)``."""
    game = pyspiel.load_game(f"ttt(rules={name})")
    root = game.new_initial_state()
    if root.legal_actions(0) or not root.legal_actions(1):
        raise ValueError(f"{name}: the first move is not white's alone")
    out = []
    for contract in root.legal_actions(1):
        after = _joint(root, pyspiel.INVALID_ACTION, contract)
        if after.current_player() != pyspiel.PlayerId.SIMULTANEOUS:
            raise ValueError(f"{name}: no simultaneous round after the contract")
        black, white = after.legal_actions(0), after.legal_actions(1)
        table = tuple(tuple(_expected(_joint(after, a, w))[:2] for w in white) for a in black)
        g = NormalFormGame([np.array([[float(c[p]) for c in row] for row in table]) for p in range(2)])
        c = classify(g)
        eq = tuple(
            (i, j)
            for i in range(len(black))
            for j in range(len(white))
            if all(table[i][j][0] >= table[k][j][0] for k in range(len(black)))
            and all(table[i][j][1] >= table[i][k][1] for k in range(len(white)))
        )
        actions = (
            tuple(after.action_to_string(0, a) for a in black),
            tuple(after.action_to_string(1, w) for w in white),
        )
        out.append(Subgame(root.action_to_string(1, contract), actions, table, c.label, c.reason, eq))
    return out


def fmt(v: Fraction) -> str:
    return str(v)


def report(name: str) -> str:
    """Each subgame's table, its name, and white's contract by backward induction."""
    lines = [f"{name} (meant: {CONTRACT_GAMES.get(name, '?')}): white's contract, then the round"]
    best = []
    for s in subgames(name):
        lines.append(f"  after white's contract {s.contract}: {s.label} ({s.reason})")
        for i, row in enumerate(s.table):
            cells = "; ".join(f"{s.actions[1][j]}: {fmt(c[0])}, {fmt(c[1])}" for j, c in enumerate(row))
            lines.append(f"    black {s.actions[0][i]} -> {cells}")
        values = sorted({s.table[i][j] for i, j in s.equilibria})
        lines.append(
            "    pure equilibria: "
            + (", ".join(f"({fmt(a)}, {fmt(b)})" for a, b in values) if values else "none")
        )
        best.extend((v[1], s.contract, v) for v in values)
    if best:
        top = max(b[0] for b in best)
        picks = [f"{c} -> ({fmt(v[0])}, {fmt(v[1])})" for w, c, v in best if w == top]
        lines.append(f"  backward induction: white's best contract: {'; '.join(picks)}")
    return "\n".join(lines)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m analysis.contract_subgames",
        description="ContractPD and ContractHunt as a contract stage followed by the base game: "
        "each subgame after white's contract tabulated exactly and classified, and white's best "
        "contract by backward induction.",
    )
    parser.add_argument("names", nargs="*", default=list(CONTRACT_GAMES), metavar="NAME")
    args = parser.parse_args(argv)
    for name in args.names:
        print(report(name))
    return 0


if __name__ == "__main__":
    sys.exit(main())
