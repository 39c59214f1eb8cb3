"""The games of the economic-dilemmas study: OpenSpiel's textbook matrix games and a few
other references, then every dilemma whose rule set the catalogue holds
(``games.ttt.dilemmas``), each with the economic game it encodes.

Why in analysis/: the study (``experiments.economic_dilemmas``) and the CFR benchmark
(``experiments.bench_cfr``, every two-player game of the study) both play these games,
and one experiment does not import another.
"""

from __future__ import annotations

from games.ttt.dilemmas import DILEMMAS, VARIANTS, available

EXAMPLES = "games/ttt/examples"

#: name -> (game string, what it encodes (a key of games.ttt.dilemmas.ECONOMIC_GAMES) or None,
#: the classifier label it must get when it encodes nothing of that list)
REFERENCES = {
    "matrix_pd": ("matrix_pd", "prisoners-dilemma", None),
    "matrix_sh": ("matrix_sh", "stag-hunt", None),
    "matrix_bos": ("matrix_bos", "battle-of-the-sexes", None),
    "matrix_rps": ("matrix_rps", "rock-paper-scissors", None),
    "matrix_mp": ("matrix_mp", None, "matching-pennies"),
    "matrix_cd": ("matrix_cd", None, "chicken"),
    "matrix_coordination": ("matrix_coordination", "coordination", None),
    "RPS-Shared-Lines": (f"ttt(rules={EXAMPLES}/RPS-Shared-Lines.json)", "rock-paper-scissors", None),
    "Hide-And-Seek-2": (f"ttt(rules={EXAMPLES}/Hide-And-Seek-2.json)", "hide-and-seek", None),
    # three players, simultaneous: exercises gnm, NashConv as an approximation and n-player
    # tournaments whatever n-player dilemmas the catalogue holds
    "goofspiel3": ("goofspiel(players=3,num_cards=2)", None, None),
    # sequential, perfect information: subgame-perfect play and plain MCTS
    "nim-1-2": ("nim(pile_sizes=1;2)", None, None),
}
QUICK_REFERENCES = (
    "matrix_pd",
    "matrix_sh",
    "matrix_bos",
    "matrix_rps",
    "matrix_mp",
    "RPS-Shared-Lines",
    "Hide-And-Seek-2",
    "goofspiel3",
    "nim-1-2",
)


def catalogue_entries(names=None) -> list[dict]:
    """The games named (by default the quick run's references and every dilemma the catalogue
    holds), in order, each a dict: name, game string, kind (reference or dilemma), what it
    encodes and the label a reference that encodes nothing must get."""
    dilemmas = {d.name: d for d in DILEMMAS + VARIANTS}
    have = {d.name for d in available()}
    entries = []
    chosen = list(names) if names else list(QUICK_REFERENCES) + [d.name for d in available()]
    for name in chosen:
        if name in REFERENCES:
            game, encodes, expects = REFERENCES[name]
            entries.append(dict(name=name, game=game, kind="reference", encodes=encodes, expects=expects))
        elif name in have:
            entries.append(
                dict(
                    name=name,
                    game=f"ttt(rules={name})",
                    kind="dilemma",
                    encodes=dilemmas[name].encodes,
                    expects=None,
                )
            )
        elif name in dilemmas:
            raise ValueError(
                f"{name} is a dilemma of the tic-tac-toe variations specification whose rule set "
                f"is not in the catalogue yet (available: {', '.join(sorted(have)) or 'none'})"
            )
        else:
            raise ValueError(
                f"unknown game {name!r}; references: {', '.join(REFERENCES)}; dilemmas: {', '.join(dilemmas)}"
            )
    return entries


def full_entries() -> list[dict]:
    """The full run's games: every reference, then every dilemma the catalogue holds."""
    return catalogue_entries(list(REFERENCES) + [d.name for d in available()])
