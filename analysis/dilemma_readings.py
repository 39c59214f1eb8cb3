"""``python -m analysis.dilemma_readings``: under which readings of the tic-tac-toe
variations specification does a dilemma have its namesake's structure, and where
none does, which smallest change to its rule set gives it.

Why a search and not an argument: a dilemma's paragraph leaves some words open
(which stack the second "third stack" is, what "Most 2-same-color-in-a-row" counts,
whether "Cloaking hides" with no cloaked space hides anything), and whether a
reading reproduces the textbook game is a property of its computed table, not of
the words. Each reading is a rule-set variant (``Reading.patch`` applied to the
catalogue's record), loaded through ``ttt(rules=...)`` like any catalogue game
(a ``RuleSetSource`` held here), tabulated exactly by ``games.normal_form`` (or,
for the games whose full table is refused, by ``analysis.reduced_games``'s family)
and classified by ``solvers.classify`` against ``Dilemma.encodes``, the test the
economic-dilemmas study uses. Where no reading reproduces and the table is small,
every single edit of the rule set (``edits``: a stack's owners, a reserve count,
the outcome rule, a pre-placed piece, a capture's condition or result) is tried,
then pairs of edits when no single one works; the fixes found are reported and
the chosen one is a catalogue variant (``games.ttt.dilemmas.VARIANTS``).

Writes ``--out`` (default docs/rules/dilemma_readings.json): per game, every
reading with its table's label, reason, verdict and (small tables) the table; the
fixes found. ``analysis.dilemmas_doc`` renders it into docs/rules/dilemmas.md.
"""

from __future__ import annotations

import argparse
import copy
import itertools
import json
import random
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pyspiel

import games  # noqa: F401  (registers ttt)
from analysis.reduced_games import REDUCED, classify_reduced
from games.normal_form import TooLarge, payoff_table
from games.ttt import rules as rules_mod
from games.ttt.dilemmas import DILEMMAS, VARIANTS
from games.ttt.schema import STALEMATES
from games.ttt.sources import REPO_ROOT, RuleSetSource, add_source
from solvers.classify import NAMED, classify, classify_named, reproduces
from solvers.normal_form import NormalFormGame

OUT = REPO_ROOT / "docs" / "rules" / "dilemma_readings.json"
#: tables larger than this are not computed for a reading (the study's limit)
MAX_PROFILES = 100_000
MAX_NODES = 400_000
#: the fix search tries single edits on games whose full table has at most this many profiles,
#: and pairs of edits on those of at most ``PAIRS_MAX_PROFILES``
SEARCH_MAX_PROFILES = 256
PAIRS_MAX_PROFILES = 16
#: and the variants it tries are refused past this many tree nodes or profiles (the dilemmas' own
#: trees have at most 2,239 nodes, their tables at most 128 profiles where the search runs)
SEARCH_MAX_NODES = 20_000
SEARCH_MAX_TABLE = 4_096


class VariantSource(RuleSetSource):
    """Rule-set variants held in memory, so ``ttt(rules=NAME)`` loads them."""

    def __init__(self):
        self.texts: dict[str, str] = {}

    def names(self) -> list[str]:
        return sorted(self.texts)

    def read(self, name: str) -> str | None:
        return self.texts.get(name)

    def origin(self, name: str) -> str:
        return f"(reading variant {name})"


SOURCE = VariantSource()
add_source(SOURCE)


def record(name: str) -> dict:
    """The catalogue's rule set ``name`` as a plain record, ``extends`` merged in."""
    rec = copy.deepcopy(rules_mod.catalogue()[name].record)
    rec.pop("extends", None)
    return rec


# --------------------------------------------------------------------------- readings


@dataclass(frozen=True)
class Reading:
    """One reading of a dilemma's paragraph: the words it reads (``quote``), what it
    takes them to mean (``says``), and the rule set it gives (``patch`` of the
    catalogue's record; the catalogue's own reading patches nothing)."""

    label: str
    quote: str
    says: str
    patch: Callable[[dict], dict] = lambda rec: rec


def _stacks(rec: dict, owners: dict, locked=()) -> dict:
    """``rec`` with the stacks (x, 1) of ``owners`` exclusive to those players and the
    stacks in ``locked`` locked, every other stack's restriction kept."""
    rec = copy.deepcopy(rec)
    board = rec["board"]
    height = board["size"][2]
    touched = set(owners) | set(locked)
    board["exclusive"] = [e for e in board.get("exclusive", []) if e["at"][0][0] not in touched] + [
        {"at": [[x, 1]], "players": list(p)} for x, p in sorted(owners.items()) if p
    ]
    board["locked"] = [c for c in board.get("locked", []) if c[0] not in touched] + [
        [x, 1, z] for x in locked for z in range(1, height + 1)
    ]
    if not board["locked"]:
        board.pop("locked")
    return rec


def _set(**fields) -> Callable[[dict], dict]:
    def patch(rec):
        rec = copy.deepcopy(rec)
        rec.update(fields)
        return rec

    return patch


def _cloak_all(turns: bool) -> Callable[[dict], dict]:
    """Every space cloaked in every phase (as 3Blotto13's and KBeauty9's "All spaces
    cloaked"), turns hidden too when ``turns``."""

    def patch(rec):
        rec = copy.deepcopy(rec)
        x, y, z = rec["board"]["size"]
        every = [[i, j, k] for i in range(1, x + 1) for j in range(1, y + 1) for k in range(1, z + 1)]
        for phase in rec["phases"]:
            phase["cloaked"] = every
        if turns:
            rec["cloaking_hides_turns"] = True
        return rec

    return patch


_PD_STACKS = (
    "third stack is exclusive to white and starts with 1 white pentagon, third stack is exclusive to chaos"
)
_PD_READINGS = (
    Reading(
        "chaos-fourth",
        _PD_STACKS,
        "the second 'third' is the next stack: white 3, Chaos 4, the unnamed fifth open to every seat",
    ),
    Reading(
        "chaos-fifth",
        _PD_STACKS,
        "the second 'third' is a slip for 'fifth': white 3, Chaos 5, the fourth open",
        lambda r: _stacks(r, {3: [2], 4: [], 5: ["chaos"]}),
    ),
    Reading(
        "white-and-chaos-third",
        _PD_STACKS,
        "both clauses as written: the third stack exclusive to white and Chaos, the fourth and fifth open",
        lambda r: _stacks(r, {3: [2, "chaos"], 4: [], 5: []}),
    ),
    Reading(
        "chaos-fourth-and-fifth",
        _PD_STACKS,
        "Chaos has the fourth and the unnamed fifth",
        lambda r: _stacks(r, {3: [2], 4: ["chaos"], 5: ["chaos"]}),
    ),
    Reading(
        "fifth-locked",
        _PD_STACKS,
        "white 3, Chaos 4, and the unnamed fifth locked like the second",
        lambda r: _stacks(r, {3: [2], 4: ["chaos"]}, locked=(5,)),
    ),
    Reading(
        "longest-line",
        "Most 2-same-color-in-a-row wins",
        "the longest same-colour line wins (the measure of 'Most-in-a-row wins'), not the count of "
        "lines of 2",
        _set(stalemate="most-in-a-row-wins"),
    ),
)
_PAIRS = (
    Reading(
        "count-of-pairs",
        "Most 2-same-color-in-a-row wins",
        "the side with the most lines of two of its colour wins (the catalogue's `most-2-in-a-row-wins`)",
    ),
    Reading(
        "longest-line",
        "Most 2-same-color-in-a-row wins",
        "the side with the longest same-colour line wins (`most-in-a-row-wins`), a line of two beating a "
        "single piece",
        _set(stalemate="most-in-a-row-wins"),
    ),
)

#: dilemma -> its readings, the catalogue's first
READINGS: dict[str, tuple[Reading, ...]] = {
    "PrisonerDilemma": _PD_READINGS,
    "OptionalPD": _PD_READINGS,
    "ContractPD": _PD_READINGS,
    "StagHunt": _PAIRS,
    "ContractHunt": _PAIRS,
    "BoS": (
        Reading("least-area", "2-vs-chaos, Least area wins", "as written: the least area wins"),
        Reading(
            "most-area",
            "2-vs-chaos, Least area wins",
            "'Least' a slip for 'Most' (the other ranked area rule of the specification's dropdown)",
            _set(stalemate="most-area-wins"),
        ),
    ),
    "3P-BoS": (
        Reading(
            "three-vs-chaos",
            "2-vs-chaos ... (2,1) exclusive to pink",
            "pink is a third player: `3-vs-chaos`, Chaos yellow with one circle",
        ),
        Reading(
            "most-area",
            "Least area wins",
            "three players, and the most area wins",
            _set(stalemate="most-area-wins"),
        ),
    ),
    "KBeauty9": (
        Reading(
            "runner-up-wins",
            "Most-in-a-row wins, Overachiever(s) disqualified",
            "as written: the tallest stacks are disqualified, the next tallest win",
        ),
        Reading(
            "no-disqualification",
            "Most-in-a-row wins, Overachiever(s) disqualified",
            "without the disqualification: the tallest stack wins",
            _set(overachievers_disqualified=False),
        ),
        Reading(
            "turns-seen",
            "Cloaking hides; all spaces cloaked",
            "the heights are hidden but each seat sees how many turns the others took",
            _set(cloaking_hides_turns=False),
        ),
    ),
    "Shopping9": (
        Reading(
            "nothing-cloaked",
            "Cloaking hides",
            "no space is named cloaked, so nothing is hidden: white sees black's purchase",
        ),
        Reading(
            "every-space-cloaked",
            "Cloaking hides",
            "every space cloaked in every phase, as 3Blotto13 writes 'All spaces cloaked'; each turn taken "
            "and the reserves left stay seen",
            _cloak_all(turns=False),
        ),
        Reading(
            "purchases-hidden",
            "Cloaking hides",
            "every space cloaked and turns hidden, as in 3Blotto13 and KBeauty9 (the catalogue's "
            "Shopping9-Cloaked): no seat sees what the others bought",
            _cloak_all(turns=True),
        ),
    ),
    "3P-Volunteer": (
        Reading(
            "fourth-to-chaos",
            "fourth stack locked to all players",
            "locked to the players, so Chaos's: exclusive to Chaos",
        ),
        Reading(
            "fourth-locked",
            "fourth stack locked to all players",
            "locked to every seat, Chaos included",
            lambda r: _stacks(r, {}, locked=(4,)),
        ),
    ),
}


def _without(*cells) -> Callable[[dict], dict]:
    """The rule set without the pre-placed pieces at ``cells``."""

    def patch(rec):
        rec = copy.deepcopy(rec)
        rec["board"]["pieces"] = [p for p in rec["board"]["pieces"] if tuple(p["at"]) not in cells]
        return rec

    return patch


def _reserve(colour: str, **counts) -> Callable[[dict], dict]:
    def patch(rec):
        rec = copy.deepcopy(rec)
        rec["reserves"][colour] = dict(counts)
        return rec

    return patch


#: dilemma -> changes to try where no reading reproduces and the table is too large for the
#: fix search (a reduced game), each a ``Reading`` whose quote is the text it changes
CANDIDATES: dict[str, tuple[Reading, ...]] = {
    "NeedyTrust": (
        Reading(
            "chaos-three",
            "fourth stack exclusive to chaos and starts with 4 yellow circles",
            "Chaos starts with 3 circles, as in RichTrust",
            _without((4, 1, 4)),
        ),
        Reading(
            "black-four",
            "2 black and 2 yellow start in reserve",
            "black has 4 circles in reserve, as in RichTrust (its stack keeps its 2)",
            _reserve("black", circle=4),
        ),
        Reading(
            "black-circles-in-reserve",
            "first stack ... starts with 2 black circles",
            "black's 2 circles start in its reserve (4 in all), its stack empty, as in RichTrust",
            lambda r: _reserve("black", circle=4)(_without((1, 1, 1), (1, 1, 2))(r)),
        ),
    ),
    "NeedyUltimatum": (
        Reading(
            "most-circles-wins",
            "More pieces than chaos wins, Less pieces than chaos loses",
            "'Most circles wins' (the single edit the fix search's edits find, tried on the reduced tree)",
            _set(stalemate="most-circles-wins"),
        ),
    ),
    "KBeauty9": (
        Reading(
            "least-wins",
            "Most-in-a-row wins, Overachiever(s) disqualified",
            "'Least-in-a-row wins', nobody disqualified: the lowest stack wins",
            _set(stalemate="least-in-a-row-wins", overachievers_disqualified=False),
        ),
        Reading(
            "least-wins-disqualified",
            "Most-in-a-row wins",
            "'Least-in-a-row wins', the lowest disqualified: the second lowest wins",
            _set(stalemate="least-in-a-row-wins"),
        ),
    ),
}


# --------------------------------------------------------------------------- verdicts


def _register(name: str, rec: dict) -> str:
    rec = dict(rec, name=name)
    SOURCE.texts[name] = json.dumps(rec)
    return name


def _profiles_of(table) -> list:
    return [[list(pr), [str(v) for v in vals]] for pr, vals in sorted(table.payoffs.items())]


def verdict(
    base: str,
    encodes: str,
    rec: dict,
    name: str,
    keep_table: int = 64,
    max_nodes: int = MAX_NODES,
    max_profiles: int = MAX_PROFILES,
) -> dict:
    """The study's verdict on the rule set ``rec``, a variant of dilemma ``base``: its
    full table classified (``classify``, or ``classify_named`` where the economic game
    is defined by more than a payoff order and the table suffices), or where ``base``
    has a reduced game, that family's table. The table itself is kept when it has at
    most ``keep_table`` profiles."""
    _register(name, rec)
    out: dict = {}
    if base in REDUCED:
        r = REDUCED[base](name)
        c = classify_reduced(r, encodes)
        out["checked_on"] = "reduced game"
        g = r.table
        players = g.num_players if g is not None else 2
        if g is not None and g.payoffs[0].size <= keep_table:
            out["strategies"] = g.strategy_names
            out["table"] = [[list(pr), [str(v) for v in vals]] for pr, vals in sorted(r.exact.items())]
    else:
        game = pyspiel.load_game(f"ttt(rules={name})")
        try:
            t = payoff_table(game, max_profiles=max_profiles, max_nodes=max_nodes)
        except TooLarge as e:
            refused = "not checkable"
            return dict(checked_on="refused", label=refused, reason=str(e), reproduces=refused)
        g = NormalFormGame(t.array())
        players = g.num_players
        c = classify(g)
        needs = set(NAMED.get(encodes, ())) - {"inaction"}
        if encodes in NAMED and not needs:
            c = classify_named(encodes, g)
        out["checked_on"] = "full table " + " x ".join(str(s) for s in t.shape)
        out["profiles"] = int(g.payoffs[0].size)
        if g.payoffs[0].size <= keep_table:
            out["strategies"] = [t.labels(p) for p in range(players)]
            out["table"] = _profiles_of(t)
    out.update(label=c.label, reason=c.reason, reproduces=reproduces(encodes, c.label, players))
    return out


# --------------------------------------------------------------------------- the fix search

_OWNERS = ([], [1], [2], [1, 2], ["chaos"], [1, "chaos"], [2, "chaos"])
#: the shapes a pre-placed piece or a reserve may be of, in the search
_SHAPES = ("circle", "x", "pentagon", "triangle", "star", "cross")
#: the seats a phase may lock (none, either player, Chaos, two of them)
_LOCKS = ([], [1], [2], ["chaos"], [1, 2], [1, "chaos"], [2, "chaos"])


def _canonical(rec: dict) -> str:
    """A rule set's text with the order of its exclusive and locked lists ignored (they are sets)."""
    rec = copy.deepcopy(rec)
    board = rec["board"]
    board["exclusive"] = sorted(board.get("exclusive", []), key=json.dumps)
    board["locked"] = sorted(board.get("locked", []))
    return json.dumps(rec, sort_keys=True)


def edits(rec: dict):
    """Every single edit that changes the rule set, as (description, record), each once."""
    base, seen = _canonical(rec), set()
    for desc, edited in _edits(rec):
        text = _canonical(edited)
        if text != base and text not in seen:
            seen.add(text)
            yield desc, edited


def _edits(rec: dict):
    """Every single edit of a rule set tried by the fix search, as (description,
    record): a stack's owners (open, one or two seats, with or without Chaos, or
    locked), a reserve count one, two or three up or down, every outcome rule of the
    schema, a pre-placed piece removed or of another shape, a piece of any seat and
    shape pre-placed at the foot of an empty stack, a seat's reserve of another shape,
    the board one stack shorter, one stack longer, one stack fewer or one more, a
    phase's pass added or taken away, its order simultaneous or in turn, its locked
    seats, a phase removed, the option to agree a draw, a shape's power, condition or
    result changed. Stack edits only on boards of one row of stacks (the dilemmas the
    search runs on)."""
    board = rec["board"]
    stacks = board.get("kind") == "stacks" and board["size"][1] == 1
    if stacks:
        for x in range(1, board["size"][0] + 1):
            for owners in _OWNERS:
                yield f"stack {x} exclusive to {owners or 'nobody'}", _stacks(rec, {x: owners})
            yield f"stack {x} locked", _stacks(rec, {x: []}, locked=(x,))
    yield from _reserve_edits(rec)
    for s in STALEMATES:
        if s != rec.get("stalemate"):
            yield f"outcome {rec.get('stalemate')} -> {s}", _set(stalemate=s)(rec)
    for i, piece in enumerate(board.get("pieces", [])):
        r = copy.deepcopy(rec)
        del r["board"]["pieces"][i]
        yield f"no {piece['colour']} {piece['shape']} at {tuple(piece['at'])}", r
    shapes = sorted(rec.get("shapes", {}))
    for i, piece in enumerate(board.get("pieces", [])):
        for shape in shapes:
            if shape != piece["shape"]:
                r = copy.deepcopy(rec)
                r["board"]["pieces"][i]["shape"] = shape
                yield f"{piece['colour']} {piece['shape']} at {tuple(piece['at'])} a {shape}", r
    for colour, counts in rec.get("reserves", {}).items():
        if isinstance(counts, dict) and len(counts) == 1:
            ((held, n),) = counts.items()
            for shape in shapes:
                if shape != held:
                    r = copy.deepcopy(rec)
                    r["reserves"][colour] = {shape: n}
                    yield f"{colour}'s reserve {held}s -> {shape}s", r
    if stacks:
        yield from _board_edits(rec)
    yield from _phase_edits(rec)
    r = copy.deepcopy(rec)
    r["agree_draw"] = not rec.get("agree_draw", False)
    yield f"{'with' if r['agree_draw'] else 'without'} the option to agree a draw", r
    for shape, spec in rec.get("shapes", {}).items():
        for key, values in (
            ("power", ("can-capture", None)),
            ("condition", ("cover", "cover-by-rank")),
            ("result", ("removes", "converts", "reincarnates", "reincarnates-x2")),
        ):
            if key == "power" or key in spec:
                for v in values:
                    if v != spec.get(key):
                        r = copy.deepcopy(rec)
                        if v is None:
                            for k in ("power", "condition", "result"):
                                r["shapes"][shape].pop(k, None)
                        else:
                            r["shapes"][shape][key] = v
                            if key == "power":
                                r["shapes"][shape].setdefault("condition", "cover")
                                r["shapes"][shape].setdefault("result", "removes")
                        yield f"{shape} {key} {spec.get(key)} -> {v}", r


def _reserve_edits(rec: dict):
    for colour, shapes in rec.get("reserves", {}).items():
        counts = shapes if isinstance(shapes, dict) else {"circle": shapes}
        for shape, n in counts.items():
            for d in (-3, -2, -1, 1, 2, 3):
                if n + d >= 0:
                    r = copy.deepcopy(rec)
                    if isinstance(shapes, dict):
                        r["reserves"][colour][shape] = n + d
                    else:
                        r["reserves"][colour] = n + d
                    yield f"{colour} {shape} reserve {n} -> {n + d}", r


def _board_edits(rec: dict):
    """A board of one row of stacks made one shorter or taller (a locked stack stays
    locked to its top), one stack fewer (the last, with what it holds) or one more
    (open to every seat), and a piece pre-placed at the foot of an empty stack."""
    board = rec["board"]
    x, _, z = board["size"]
    for height in (z - 1, z + 1):
        if height >= 1:
            r = copy.deepcopy(rec)
            b = r["board"]
            b["size"][2] = height
            if b.get("locked"):
                columns = sorted({(c[0], c[1]) for c in b["locked"]})
                b["locked"] = [[i, j, k] for i, j in columns for k in range(1, height + 1)]
            b["pieces"] = [p for p in b.get("pieces", []) if p["at"][2] <= height]
            yield f"stacks {z} -> {height} high", r
    r = copy.deepcopy(rec)
    r["board"]["size"][0] = x + 1
    yield f"{x + 1} stacks, the last open", r
    if x > 1:
        r = copy.deepcopy(rec)
        b = r["board"]
        b["size"][0] = x - 1
        b["exclusive"] = [e for e in b.get("exclusive", []) if e["at"][0][0] < x]
        b["locked"] = [c for c in b.get("locked", []) if c[0] < x]
        if not b["locked"]:
            b.pop("locked")
        b["pieces"] = [p for p in b.get("pieces", []) if p["at"][0] < x]
        yield f"{x - 1} stacks, the last removed", r
    occupied = {p["at"][0] for p in board.get("pieces", [])}
    colours = sorted(rec.get("reserves", {}))
    for sx in range(1, x + 1):
        if sx not in occupied:
            for colour in colours:
                for shape in _SHAPES:
                    r = copy.deepcopy(rec)
                    r["board"].setdefault("pieces", []).append(
                        {"at": [sx, 1, 1], "colour": colour, "shape": shape}
                    )
                    yield f"a {colour} {shape} pre-placed on stack {sx}", r


def _phase_edits(rec: dict):
    """Each phase with or without a pass, simultaneous or in turn, with other seats
    locked, or removed (when there are several)."""
    phases = rec.get("phases", [])
    for k, phase in enumerate(phases):
        r = copy.deepcopy(rec)
        r["phases"][k]["pass"] = not phase.get("pass", False)
        yield f"phase {k + 1} {'without' if phase.get('pass') else 'with'} a pass", r
        r = copy.deepcopy(rec)
        if phase.get("order") == "simultaneous":
            r["phases"][k].pop("order")
        else:
            r["phases"][k]["order"] = "simultaneous"
        yield f"phase {k + 1} {'in turn' if phase.get('order') == 'simultaneous' else 'simultaneous'}", r
        for locks in _LOCKS:
            if locks != phase.get("locked_players", []):
                r = copy.deepcopy(rec)
                r["phases"][k]["locked_players"] = locks
                if not locks:
                    r["phases"][k].pop("locked_players")
                yield f"phase {k + 1} locking {locks or 'nobody'}", r
        if len(phases) > 1:
            r = copy.deepcopy(rec)
            del r["phases"][k]
            yield f"phase {k + 1} removed", r


def search_fixes(
    base: str, encodes: str, rec: dict, max_pairs: int, seed: int, say, pairs: bool = True
) -> dict:
    """Single edits of ``rec`` whose table reproduces ``encodes``; when none does,
    pairs of edits (all, or ``max_pairs`` drawn with ``seed`` when there are more)."""
    singles, found, tried = list(edits(rec)), [], 0

    def attempt(desc, r):
        nonlocal tried
        tried += 1
        try:
            v = verdict(
                base,
                encodes,
                r,
                f"{base}-fix{tried}",
                keep_table=16,
                max_nodes=SEARCH_MAX_NODES,
                max_profiles=SEARCH_MAX_TABLE,
            )
        except (ValueError, pyspiel.SpielError) as e:  # an edit the engine refuses
            return dict(edit=desc, error=str(e).splitlines()[0][:200])
        if v["reproduces"] == "yes":
            found.append(dict(edit=desc, **v))
        return v

    for k, (desc, r) in enumerate(singles):
        attempt(desc, r)
        if say and k % 25 == 24:
            say(f"  {base}: {k + 1}/{len(singles)} single edits, {len(found)} fixes")
    depth = 1
    if not found and max_pairs and pairs:
        depth = 2
        pairs = list(itertools.combinations(range(len(singles)), 2))
        if len(pairs) > max_pairs:
            pairs = random.Random(seed).sample(pairs, max_pairs)
        for k, (i, j) in enumerate(pairs):
            first_desc, _ = singles[i]
            second = [r for d, r in edits(singles[i][1]) if d == singles[j][0]]
            if second:
                attempt(f"{first_desc}; {singles[j][0]}", second[0])
            if say and k % 200 == 199:
                say(f"  {base}: {k + 1}/{len(pairs)} pairs, {len(found)} fixes")
    return dict(depth=depth, tried=tried, fixes=found)


# --------------------------------------------------------------------------- the study


def study(names, max_pairs: int, seed: int, say=None) -> dict:
    """Every reading of every dilemma in ``names`` (the catalogue's reading for those
    without others), and the fix search where no reading reproduces."""
    encodes = {d.name: d.encodes for d in DILEMMAS}
    out = {}
    for name in names:
        started = time.monotonic()
        rec = record(name)
        results = []
        for reading in READINGS.get(name, (Reading("catalogue", "", "the catalogue's rule set"),)):
            v = verdict(name, encodes[name], reading.patch(rec), f"{name}-reading-{reading.label}")
            results.append(dict(reading=reading.label, quote=reading.quote, says=reading.says, **v))
        entry = dict(encodes=encodes[name], readings=results)
        if not any(r["reproduces"] == "yes" for r in results):
            tried = []
            for change in CANDIDATES.get(name, ()):
                v = verdict(name, encodes[name], change.patch(rec), f"{name}-change-{change.label}")
                tried.append(dict(change=change.label, quote=change.quote, says=change.says, **v))
            if tried:
                entry["candidates"] = tried
            profiles = results[0].get("profiles", SEARCH_MAX_PROFILES + 1)
            if profiles <= SEARCH_MAX_PROFILES:
                entry["search"] = search_fixes(
                    name, encodes[name], rec, max_pairs, seed, say, pairs=profiles <= PAIRS_MAX_PROFILES
                )
        variants = [v.name for v in VARIANTS if v.variant_of == name]
        if variants:
            entry["variants"] = {
                v: verdict(name, encodes[name], record(v), f"{v}-as-shipped") for v in variants
            }
        out[name] = entry
        if say:
            verdicts = ", ".join(f"{r['reading']}: {r['reproduces']}" for r in results)
            fixes = entry.get("search", {}).get("fixes")
            say(
                f"{name}: {verdicts}"
                + (f"; fix search {len(fixes)} found" if fixes is not None else "")
                + f" ({time.monotonic() - started:.1f} s)"
            )
    return out


#: the dilemmas whose verdict as read is "no" or "not checkable" (the study's), in the
#: specification's order
NOT_REPRODUCED = (
    "3P-9X-HideSeek",
    "Shopping9",
    "3P-PublicGoods",
    "NeedyTrust",
    "KBeauty9",
    "StagHunt",
    "4P-AnyPieceLoses",
    "PrisonerDilemma",
    "NeedyUltimatum",
    "3P-Volunteer",
    "BoS",
    "Centipede9",
    "NeedyDictator",
    "ContractHunt",
    "OptionalPD",
    "ContractPD",
    "3P-BoS",
    "NeedyCentipede4",
    "RichUltimatum",
    "RichDictator",
    "3P-TrolleyDilemma",
)

#: economic game -> (the test the verdict uses, the textbook definition it follows)
TESTS = {
    "prisoners-dilemma": (
        "strategic form: `classify` on the full table (weakly dominated strategies removed first), each "
        "player's own order T > R > P > S",
        "Osborne & Rubinstein 1994, *A Course in Game Theory*, Example 16.2; Fudenberg & Tirole 1991, "
        "*Game Theory*, chapter 1",
    ),
    "stag-hunt": (
        "strategic form: `classify`, each player's own order R > T >= P > S",
        "Skyrms 2004, *The Stag Hunt and the Evolution of Social Structure*, ch. 1; Camerer 2003, "
        "*Behavioral Game Theory*, chapter 7",
    ),
    "battle-of-the-sexes": (
        "strategic form: `classify`, two pure equilibria ranked oppositely, every other profile worse "
        "for both",
        "Osborne & Rubinstein 1994, Example 15.3",
    ),
    "coordination": (
        "strategic form: `classify`, identical payoffs and at least two pure equilibria",
        "Osborne & Rubinstein 1994, Example 16.1 (a coordination game: the players' preferences agree)",
    ),
    "ultimatum": (
        "extensive form: `classify_ultimatum` on the offer-k, accept-or-reject tree (one disagreement "
        "outcome, accepted offers trading the proposer's payoff against the responder's)",
        "Osborne & Rubinstein 1994, chapter 6 and Definition 97.2 (subgame-perfect equilibrium); "
        "Camerer 2003, chapter 2 (Güth, Schmittberger & Schwarze 1982)",
    ),
    "dictator": (
        "one mover, the recipient without a choice: `classify_dictator` on the full table (the dictator's "
        "undominated outcomes trade its payoff against the recipient's)",
        "Camerer 2003, chapter 2 (Kahneman, Knetsch & Thaler 1986; Forsythe et al. 1994)",
    ),
    "trust": (
        "extensive form: `classify_investment` on the send-k, return-j tree",
        "Berg, Dickhaut & McCabe 1995; Camerer 2003, chapter 2",
    ),
    "centipede": (
        "extensive form: `classify_tree` on the cover-or-pass tree (alternating take-or-pass, a growing "
        "total, each mover better off taking than letting the next take)",
        "Rosenthal 1981; Osborne & Rubinstein 1994, chapter 6; McKelvey & Palfrey 1992",
    ),
    "volunteers-dilemma": (
        "strategic form: `classify` on the stay/volunteer table (bystander > volunteer > nobody volunteers)",
        "Diekmann 1985, *Journal of Conflict Resolution* 29",
    ),
    "public-goods": (
        "strategic form: `classify_public_goods` with each strategy's contribution",
        "Isaac, Walker & Thomas 1984; Ledyard 1995, *Handbook of Experimental Economics*, ch. 2",
    ),
    "beauty-contest": (
        "strategic form: `classify_beauty_contest` on the count table",
        "Moulin 1986, *Game Theory for the Social Sciences*; Nagel 1995, *AER* 85",
    ),
    "common-pool-resource": (
        "strategic form: `classify_common_pool` on the count table",
        "Gordon 1954; Ostrom, Gardner & Walker 1994, *Rules, Games, and Common-Pool Resources*, ch. 5",
    ),
    "trolley": (
        "strategic form: `classify_trolley` (one chooser, indifferent, choosing whom to harm)",
        "Foot 1967; Thomson 1985",
    ),
    "hide-and-seek": (
        "strategic form: `classify_hide_and_seek`, defined for one hider and one seeker",
        "von Neumann 1953; Rubinstein, Tversky & Heller 1996",
    ),
}


def _cell(text: str) -> str:
    return str(text).replace("|", "\\|").replace("\n", " ")


def markdown(path: Path = OUT) -> str:
    """The readings block of docs/rules/dilemmas.md from the JSON ``main`` writes."""
    if not Path(path).exists():
        return f"*No readings computed yet* (`python -m analysis.dilemma_readings` writes {OUT.name}).\n"
    doc = json.loads(Path(path).read_text())
    shipped = {v.variant_of: [] for v in VARIANTS}
    for v in VARIANTS:
        shipped[v.variant_of].append(v)
    lines = [
        f"Computed by `python -m analysis.dilemma_readings` (seed {doc['settings']['seed']}, at most "
        f"{doc['settings']['max_pairs']} pairs of edits a game), data in "
        f"[`{OUT.name}`]({OUT.name}).",
        "",
        "| dilemma | test | reproduces as read? | readings tried | readings that reproduce "
        "| smallest fix found | catalogue variant |",
        "|---|---|---|---|---|---|---|",
    ]
    details = []
    for name, entry in doc["games"].items():
        readings = entry["readings"]
        test = TESTS.get(entry["encodes"], ("", ""))[0].split(":")[0]
        yes = [r["reading"] for r in readings if r["reproduces"] == "yes"]
        search = entry.get("search")
        changes = [c["change"] for c in entry.get("candidates", ()) if c["reproduces"] == "yes"]
        if changes:
            fix = "; ".join(changes) + " (changes tried by hand: the table is a reduced game's)"
        elif entry.get("candidates"):
            fix = f"none of {len(entry['candidates'])} changes tried by hand (the table is a reduced game's)"
        elif search is None:
            fix = "not searched (no full table of at most 256 profiles)" if not yes else "-"
        elif search["fixes"]:
            fix = "; ".join(f["edit"] for f in search["fixes"][:3]) + (
                f" (and {len(search['fixes']) - 3} more)" if len(search["fixes"]) > 3 else ""
            )
        else:
            fix = f"none in {search['tried']} variants (depth {search['depth']})"
        variants = ", ".join(
            f"{v.name} ({entry.get('variants', {}).get(v.name, {}).get('reproduces', '?')})"
            for v in shipped.get(name, [])
        )
        lines.append(
            f"| [{name}](dilemmas_by_game.md#{name.lower()}) | {_cell(test)} "
            f"| {readings[0]['reproduces']} | {len(readings)} "
            f"| {', '.join(yes) or 'none'} | {_cell(fix)} | {variants or '-'} |"
        )
        details.append(f"**{name}** ({entry['encodes']}):")
        for r in readings + [dict(c, reading="change: " + c["change"]) for c in entry.get("candidates", ())]:
            details.append(
                f"- *{r['reading']}*"
                + (f' ("{_cell(r["quote"])}")' if r["quote"] else "")
                + f": {_cell(r['says'])}. {r['checked_on']}: **{r['label']}**, "
                f"reproduces **{r['reproduces']}** ({_cell(r['reason'])})."
            )
        details.append("")
    return "\n".join(lines + ["", *details]).rstrip() + "\n"


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m analysis.dilemma_readings",
        description="For each economic dilemma of the tic-tac-toe variations specification that does not "
        "reproduce its namesake as read: compute the table of every alternative reading of its paragraph "
        "(a rule-set variant), classify it with solvers.classify, and where none reproduces, search the "
        "single (then paired) edits of the rule set that do. Writes JSON for docs/rules/dilemmas.md.",
    )
    parser.add_argument("--out", default=str(OUT), help="the JSON written (default %(default)s)")
    parser.add_argument("--games", nargs="+", metavar="NAME", help="only these dilemmas")
    parser.add_argument(
        "--max-pairs",
        type=int,
        default=400,
        help="pairs of edits tried when no single edit reproduces (sampled with --seed when more; 0: none)",
    )
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--no-progress", action="store_true")
    args = parser.parse_args(argv)
    names = args.games or list(NOT_REPRODUCED)
    known = {d.name for d in DILEMMAS}
    bad = [n for n in names if n not in known]
    if bad:
        parser.error(f"not dilemmas: {', '.join(bad)}")

    def say(msg):
        if not args.no_progress:
            print(msg, file=sys.stderr, flush=True)

    results = study(names, args.max_pairs, args.seed, say)
    out = Path(args.out)
    order = [d.name for d in DILEMMAS]
    kept = json.loads(out.read_text())["games"] if out.exists() and args.games else {}
    kept.update(results)
    doc = dict(
        settings=dict(max_pairs=args.max_pairs, seed=args.seed, search_max_profiles=SEARCH_MAX_PROFILES),
        games={n: kept[n] for n in sorted(kept, key=order.index)},
    )
    out.write_text(json.dumps(doc, indent=1) + "\n")
    say(f"wrote {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
