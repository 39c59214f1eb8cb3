"""Tic-tac-toe variation rule sets as data: schema, validation, canonical form,
and compilation into the flat tables the Cython engine (``_engine.pyx``) reads.

Why a rule set is plain JSON with a strict schema: the seed's system saves
rule sets that users create and refuses duplicates, so a rule set must be a
record that can be validated field by field, shown back to its author with
every problem at once, and compared with others regardless of its name.
Nothing half-valid reaches the engine: ``load``/``parse`` either return a
``RuleSet`` whose every field was checked or raise ``RuleSetError`` listing
every problem as ``field: problem (allowed: ...)``.

The schema already has the places where the seed's later rules go (shapes
with their own movement and powers, phases with order and pass options,
cloaking, several boards); values this engine does not play yet are rejected
with an error that says which values are supported now, so a later issue adds
values, not fields. The full field reference and every catalogue game's
interpretation of the seed is in docs/rules/ttt.md.
"""
from __future__ import annotations

import copy
import dataclasses
import hashlib
import itertools
import json
import math
import re
from pathlib import Path
from typing import Any, Mapping

CATALOGUE_DIR = Path(__file__).resolve().parent / "catalogue"
EXAMPLES_DIR = Path(__file__).resolve().parent / "examples"
REPO_ROOT = Path(__file__).resolve().parents[2]

# The seed's vocabulary, spelled as data values.
BOARD_KINDS = ("hash", "squares", "vertices", "stacks")
PLAYERS = ("2", "3", "4", "partners", "2-vs-chaos", "3-vs-chaos")
COLOUR_MODES = ("assigned", "shared", "partners-share", "players-choose")
PALETTE = ("black", "white", "pink", "yellow")
SHAPES_ALL = ("circle", "triangle", "x", "cross", "star", "pentagon")
SHAPES_NOW = ("circle",)
MOVES_ALL = ("stationary", "adjacent", "linear-or-knight", "orth-by-stack")
MOVES_NOW = ("stationary", "adjacent", "linear-or-knight")
POWERS_NOW = ("none",)
STALEMATES = ("draws", "all-win", "all-lose", "most-in-a-row-wins",
              "least-in-a-row-loses", "most-pieces-wins")
CHECK_KS = range(2, 7)
TURN_CHECKS = tuple(
    [f"first-{k}-wins" for k in CHECK_KS]
    + [f"first-{k}-loses" for k in CHECK_KS]
    + [f"first-{k}-wins-no-diagonal" for k in CHECK_KS]
    + [f"first-{k}-loses-no-diagonal" for k in CHECK_KS]
    + [f"all-lose-if-any-{k}" for k in CHECK_KS])
ORDERS_NOW = ("sequential",)
PHASE_MOVEMENT = ("allowed", "placement-only")
CLOAKING_NOW = ("none",)
MAX_DIM = 19
MAX_SPACES = 512
MAX_MOVE_LIMIT = 100000
NAME_FORBIDDEN = re.compile(r"[\s*()]")

TOP_FIELDS = ("name", "notes", "board", "players", "colours", "reserves", "shapes",
              "pieces_per_turn", "agree_draw", "turn_checks", "stalemate", "phases",
              "cloaking", "boards", "overachievers_disqualified", "move_limit",
              "seconds_per_turn")
BOARD_FIELDS = ("kind", "size", "locked", "pieces")
PIECE_FIELDS = ("at", "colour", "shape")
SHAPE_FIELDS = ("move", "power")
PHASE_FIELDS = ("order", "pass", "movement")

DEFAULT_CHECKS = ["first-3-wins"]

# Effects of a turn check, shared with the engine.
EFFECT_WIN, EFFECT_LOSE, EFFECT_ALL_LOSE = 0, 1, 2
MOVE_CODES = {"stationary": 0, "adjacent": 1, "linear-or-knight": 2}


class RuleSetError(ValueError):
    """A rule set failed validation; ``problems`` lists every problem found."""

    def __init__(self, problems: list[str], source: str = "rule set"):
        self.problems = list(problems)
        super().__init__(f"{source} is invalid ({len(problems)} problem"
                         f"{'s' if len(problems) != 1 else ''}):\n  - " + "\n  - ".join(problems))


def _allowed(values) -> str:
    return ", ".join(str(v) for v in values)


def seats_of(players: str) -> tuple[int, bool]:
    """(number of non-Chaos players, whether Chaos plays)."""
    return {"2": (2, False), "3": (3, False), "4": (4, False), "partners": (4, False),
            "2-vs-chaos": (2, True), "3-vs-chaos": (3, True)}[players]


def parse_check(check: str) -> tuple[int, int, bool]:
    """(k, effect, diagonals count) of a turn-check name."""
    if check.startswith("all-lose-if-any-"):
        return int(check.rsplit("-", 1)[1]), EFFECT_ALL_LOSE, True
    parts = check.split("-")
    k = int(parts[1])
    effect = EFFECT_WIN if parts[2] == "wins" else EFFECT_LOSE
    return k, effect, not check.endswith("no-diagonal")


class _Problems:
    def __init__(self):
        self.items: list[str] = []

    def add(self, field: str, message: str):
        self.items.append(f"{field}: {message}")


def _is_int(v) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _check_coord(p: _Problems, field: str, value, size) -> tuple[int, int, int] | None:
    if not (isinstance(value, (list, tuple)) and len(value) == 3 and all(_is_int(v) for v in value)):
        p.add(field, f"{value!r} is not a coordinate; write [x, y, z] with 1-based integers")
        return None
    if size is None:
        return tuple(value)
    for axis, v, n in zip("xyz", value, size):
        if not 1 <= v <= n:
            p.add(field, f"{axis}={v} is off the board (allowed: 1..{n})")
            return None
    return tuple(value)


def _normalise(raw: Mapping[str, Any], p: _Problems) -> dict | None:
    """Fill defaults and check every field; returns the full record or None."""
    if not isinstance(raw, Mapping):
        p.add("(top level)", "a rule set is a JSON object")
        return None
    for key in raw:
        if key not in TOP_FIELDS:
            p.add(str(key), f"unknown field (allowed: {_allowed(TOP_FIELDS)})")
    rec: dict[str, Any] = {}

    name = raw.get("name")
    if not isinstance(name, str) or not name:
        p.add("name", "required, a non-empty string")
    elif NAME_FORBIDDEN.search(name):
        p.add("name", f"{name!r} contains whitespace, '*', '(' or ')' (not allowed: names "
                      "must survive inside an OpenSpiel game string)")
    elif len(name) > 64:
        p.add("name", "at most 64 characters")
    rec["name"] = name
    notes = raw.get("notes", "")
    if not isinstance(notes, str):
        p.add("notes", "must be a string")
    rec["notes"] = notes

    # -- board --------------------------------------------------------------
    board = raw.get("board", {})
    size = None
    kind = "hash"
    if not isinstance(board, Mapping):
        p.add("board", "must be an object with fields " + _allowed(BOARD_FIELDS))
        board = {}
    for key in board:
        if key not in BOARD_FIELDS:
            p.add(f"board.{key}", f"unknown field (allowed: {_allowed(BOARD_FIELDS)})")
    kind = board.get("kind", "hash")
    if kind not in BOARD_KINDS:
        p.add("board.kind", f"{kind!r} is not allowed (allowed: {_allowed(BOARD_KINDS)})")
        kind = None
    raw_size = board.get("size", [3, 3, 1])
    if not (isinstance(raw_size, (list, tuple)) and len(raw_size) == 3
            and all(_is_int(v) for v in raw_size)):
        p.add("board.size", f"{raw_size!r} is not [x, y, z] with integers 1..{MAX_DIM}")
    else:
        ok = True
        for axis, v in zip("xyz", raw_size):
            if not 1 <= v <= MAX_DIM:
                p.add(f"board.size.{axis}", f"{v} is not allowed (allowed: 1..{MAX_DIM})")
                ok = False
        if ok and math.prod(raw_size) > MAX_SPACES:
            p.add("board.size", f"{raw_size} has {math.prod(raw_size)} spaces (allowed: each "
                                f"dimension at most floor({MAX_SPACES} / product of the other two))")
            ok = False
        if ok and kind == "hash" and list(raw_size) != [3, 3, 1]:
            p.add("board.size", f"{raw_size} is not allowed for a hash board (allowed: [3, 3, 1])")
            ok = False
        if ok and kind == "stacks" and raw_size[2] < 2:
            p.add("board.size.z", f"{raw_size[2]} is not allowed for stacks (allowed: 2..{MAX_DIM}; "
                                  "the third dimension is the stack height)")
            ok = False
        if ok:
            size = tuple(raw_size)
    locked = []
    raw_locked = board.get("locked", [])
    if not isinstance(raw_locked, list):
        p.add("board.locked", "must be a list of [x, y, z] coordinates")
        raw_locked = []
    for i, c in enumerate(raw_locked):
        at = _check_coord(p, f"board.locked[{i}]", c, size)
        if at is not None:
            if at in locked:
                p.add(f"board.locked[{i}]", f"{list(at)} is listed twice")
            else:
                locked.append(at)
    rec["board"] = {"kind": kind, "size": list(size) if size else raw_size,
                    "locked": sorted(list(c) for c in locked)}

    # -- players and colours --------------------------------------------------
    players = raw.get("players", "2")
    if isinstance(players, int) and not isinstance(players, bool):
        players = str(players)
    if players not in PLAYERS:
        p.add("players", f"{players!r} is not allowed (allowed: {_allowed(PLAYERS)})")
        players = None
    rec["players"] = players
    colours = raw.get("colours", "assigned")
    if colours not in COLOUR_MODES:
        p.add("colours", f"{colours!r} is not allowed (allowed: {_allowed(COLOUR_MODES)})")
        colours = None
    if colours == "partners-share" and players not in (None, "partners"):
        p.add("colours", "'partners-share' needs players 'partners' (allowed with "
                         f"players={players!r}: assigned, shared, players-choose)")
    rec["colours"] = colours

    allowed_colours: tuple[str, ...] | None = None
    if players and colours:
        n, chaos = seats_of(players)
        seats = n + chaos
        allowed_colours = {"assigned": PALETTE[:seats], "shared": PALETTE[:1],
                           "partners-share": PALETTE[:2], "players-choose": PALETTE}[colours]

    # -- shapes -----------------------------------------------------------------
    raw_shapes = raw.get("shapes", {"circle": {}})
    shapes = {}
    if not isinstance(raw_shapes, Mapping) or not raw_shapes:
        p.add("shapes", "must be a non-empty object {shape: {move, power}}")
        raw_shapes = {}
    for shape, props in raw_shapes.items():
        if shape not in SHAPES_ALL:
            p.add(f"shapes.{shape}", f"unknown shape (allowed: {_allowed(SHAPES_ALL)})")
            continue
        if shape not in SHAPES_NOW:
            p.add(f"shapes.{shape}", f"not supported by this engine yet (supported now: {_allowed(SHAPES_NOW)})")
            continue
        if not isinstance(props, Mapping):
            p.add(f"shapes.{shape}", "must be an object with fields " + _allowed(SHAPE_FIELDS))
            continue
        for key in props:
            if key not in SHAPE_FIELDS:
                p.add(f"shapes.{shape}.{key}", f"unknown field (allowed: {_allowed(SHAPE_FIELDS)})")
        move = props.get("move", "stationary")
        if move not in MOVES_ALL:
            p.add(f"shapes.{shape}.move", f"{move!r} is not allowed (allowed: {_allowed(MOVES_ALL)})")
        elif move not in MOVES_NOW:
            p.add(f"shapes.{shape}.move", f"{move!r} is not supported by this engine yet "
                                          f"(supported now: {_allowed(MOVES_NOW)})")
        power = props.get("power", "none")
        if power not in POWERS_NOW:
            p.add(f"shapes.{shape}.power", f"{power!r} is not supported by this engine yet "
                                           f"(supported now: {_allowed(POWERS_NOW)})")
        shapes[shape] = {"move": move, "power": power}
    rec["shapes"] = shapes

    # -- reserves ---------------------------------------------------------------
    raw_res = raw.get("reserves")
    problems_before_reserves = len(p.items)
    reserves: dict[str, dict[str, int]] = {}
    spaces = math.prod(size) if size else MAX_SPACES
    if not isinstance(raw_res, Mapping) or not raw_res:
        p.add("reserves", "required: an object {colour: count} or {colour: {shape: count}}")
        raw_res = {}
    for colour, val in raw_res.items():
        if colour not in PALETTE:
            p.add(f"reserves.{colour}", f"unknown colour (allowed: {_allowed(PALETTE)})")
            continue
        if allowed_colours is not None and colour not in allowed_colours:
            p.add(f"reserves.{colour}", f"colour not in play with players={players!r}, "
                                        f"colours={colours!r} (allowed: {_allowed(allowed_colours)})")
            continue
        per_shape = val if isinstance(val, Mapping) else {"circle": val}
        for shape, count in per_shape.items():
            field = f"reserves.{colour}" + (f".{shape}" if isinstance(val, Mapping) else "")
            if shape not in shapes:
                p.add(field, f"shape {shape!r} has no entry in shapes (allowed: {_allowed(shapes)})")
                continue
            if not _is_int(count) or not 0 <= count <= spaces:
                p.add(field, f"{count!r} is not allowed (allowed: 0..{spaces}, the number of spaces)")
                continue
            if count:
                reserves.setdefault(colour, {})[shape] = count
    rec["reserves"] = {c: dict(sorted(v.items())) for c, v in sorted(
        reserves.items(), key=lambda kv: PALETTE.index(kv[0]))}

    # -- pre-placed pieces --------------------------------------------------------
    pieces = []
    raw_pieces = board.get("pieces", [])
    if not isinstance(raw_pieces, list):
        p.add("board.pieces", "must be a list of {at, colour, shape}")
        raw_pieces = []
    taken = set(locked)
    for i, piece in enumerate(raw_pieces):
        field = f"board.pieces[{i}]"
        if not isinstance(piece, Mapping):
            p.add(field, "must be an object {at: [x, y, z], colour, shape}")
            continue
        for key in piece:
            if key not in PIECE_FIELDS:
                p.add(f"{field}.{key}", f"unknown field (allowed: {_allowed(PIECE_FIELDS)})")
        at = _check_coord(p, f"{field}.at", piece.get("at"), size)
        colour = piece.get("colour")
        shape = piece.get("shape", "circle")
        ok = at is not None
        palette_ok = allowed_colours if allowed_colours is not None else PALETTE
        if colour not in palette_ok:
            p.add(f"{field}.colour", f"{colour!r} is not allowed (allowed: {_allowed(palette_ok)})")
            ok = False
        if shape not in shapes:
            p.add(f"{field}.shape", f"{shape!r} is not allowed (allowed: {_allowed(shapes) or 'circle'})")
            ok = False
        if at is not None and at in taken:
            p.add(f"{field}.at", f"{list(at)} is locked or already holds a piece")
            ok = False
        if ok:
            taken.add(at)
            pieces.append({"at": list(at), "colour": colour, "shape": shape})
    rec["board"]["pieces"] = sorted(pieces, key=lambda q: (q["at"], q["colour"], q["shape"]))
    if kind == "stacks" and size is not None:
        support = set(locked) | {tuple(q["at"]) for q in pieces}
        for q in pieces:
            x, y, z = q["at"]
            if z > 1 and (x, y, z - 1) not in support:
                p.add("board.pieces", f"piece at {q['at']} floats: on stacks a piece rests on the "
                                      "floor, a piece or a locked space")
    if reserves == {} and not pieces and isinstance(raw_res, Mapping) and raw_res \
            and len(p.items) == problems_before_reserves:
        p.add("reserves", "every count is 0: nothing can ever be played")

    # -- turn structure -------------------------------------------------------------
    ppt = raw.get("pieces_per_turn", 1)
    if ppt not in (1, 2) or isinstance(ppt, bool):
        p.add("pieces_per_turn", f"{ppt!r} is not allowed (allowed: 1, 2)")
    rec["pieces_per_turn"] = ppt
    draw = raw.get("agree_draw", False)
    if not isinstance(draw, bool):
        p.add("agree_draw", f"{draw!r} is not allowed (allowed: true, false)")
    rec["agree_draw"] = draw

    checks = raw.get("turn_checks", DEFAULT_CHECKS)
    if not isinstance(checks, list):
        p.add("turn_checks", f"must be a list (allowed items: {_allowed(TURN_CHECKS)})")
        checks = []
    seen = []
    for i, c in enumerate(checks):
        if c not in TURN_CHECKS:
            p.add(f"turn_checks[{i}]", f"{c!r} is not allowed (allowed: {_allowed(TURN_CHECKS)})")
        elif c in seen:
            p.add(f"turn_checks[{i}]", f"{c!r} is listed twice")
        else:
            seen.append(c)
    rec["turn_checks"] = seen
    stalemate = raw.get("stalemate", "draws")
    if stalemate not in STALEMATES:
        p.add("stalemate", f"{stalemate!r} is not allowed (allowed: {_allowed(STALEMATES)})")
    rec["stalemate"] = stalemate

    raw_phases = raw.get("phases", [{}])
    phases = []
    if not isinstance(raw_phases, list) or not 1 <= len(raw_phases) <= 6:
        p.add("phases", "must be a list of 1 to 6 phase objects")
        raw_phases = [{}]
    elif len(raw_phases) > 1:
        p.add("phases", f"{len(raw_phases)} phases are not supported by this engine yet (supported now: 1)")
    for i, ph in enumerate(raw_phases[:1]):
        if not isinstance(ph, Mapping):
            p.add(f"phases[{i}]", "must be an object with fields " + _allowed(PHASE_FIELDS))
            ph = {}
        for key in ph:
            if key not in PHASE_FIELDS:
                p.add(f"phases[{i}].{key}", f"unknown field (allowed: {_allowed(PHASE_FIELDS)})")
        order = ph.get("order", "sequential")
        if order not in ("sequential", "simultaneous", "single"):
            p.add(f"phases[{i}].order", f"{order!r} is not allowed (allowed: sequential, simultaneous, single)")
        elif order not in ORDERS_NOW:
            p.add(f"phases[{i}].order", f"{order!r} is not supported by this engine yet "
                                        f"(supported now: {_allowed(ORDERS_NOW)})")
        pas = ph.get("pass", False)
        if not isinstance(pas, bool):
            p.add(f"phases[{i}].pass", f"{pas!r} is not allowed (allowed: true, false)")
        movement = ph.get("movement", "allowed")
        if movement not in PHASE_MOVEMENT:
            p.add(f"phases[{i}].movement", f"{movement!r} is not allowed (allowed: {_allowed(PHASE_MOVEMENT)})")
        phases.append({"order": order, "pass": pas, "movement": movement})
    rec["phases"] = phases

    for field, default, allowed in (("cloaking", "none", CLOAKING_NOW), ("boards", 1, (1,)),
                                    ("overachievers_disqualified", False, (False,))):
        value = raw.get(field, default)
        if value not in allowed or isinstance(value, bool) != isinstance(default, bool):
            p.add(field, f"{value!r} is not supported by this engine yet (supported now: {_allowed(allowed)})")
        rec[field] = value

    moves = any(s["move"] != "stationary" for s in shapes.values()) and \
        all(ph["movement"] == "allowed" for ph in phases)
    limit = raw.get("move_limit")
    if limit is None:
        if moves:
            p.add("move_limit", "required when pieces can move (the seed gives games of movement "
                                f"no end; OpenSpiel needs a finite game) (allowed: 1..{MAX_MOVE_LIMIT})")
    elif not _is_int(limit) or not 1 <= limit <= MAX_MOVE_LIMIT:
        p.add("move_limit", f"{limit!r} is not allowed (allowed: 1..{MAX_MOVE_LIMIT} or null)")
    rec["move_limit"] = limit
    secs = raw.get("seconds_per_turn")
    if secs is not None and (not _is_int(secs) or not 1 <= secs <= 86400):
        p.add("seconds_per_turn", f"{secs!r} is not allowed (allowed: 1..86400 or null for no limit)")
    rec["seconds_per_turn"] = secs

    if p.items:
        return None
    # Whole-record checks that need every field valid.
    _check_start_position(rec, p)
    return None if p.items else rec


def _directions(diagonals: bool):
    """The 13 line directions of a 3-D grid (one of each +-pair), or the 3 axes."""
    out = []
    for d in itertools.product((-1, 0, 1), repeat=3):
        if d == (0, 0, 0) or d < (0, 0, 0):
            continue
        if not diagonals and sum(map(abs, d)) != 1:
            continue
        out.append(d)
    return out


def _longest_runs(size, occupied: Mapping[tuple, str], diagonals=True) -> dict[str, int]:
    best: dict[str, int] = {}
    for at, colour in occupied.items():
        for d in _directions(diagonals):
            prev = tuple(a - b for a, b in zip(at, d))
            if occupied.get(prev) == colour:
                continue
            n, cur = 0, at
            while occupied.get(cur) == colour:
                n += 1
                cur = tuple(a + b for a, b in zip(cur, d))
            best[colour] = max(best.get(colour, 0), n)
    return best


def _check_start_position(rec, p: _Problems):
    occupied = {tuple(q["at"]): q["colour"] for q in rec["board"]["pieces"]}
    for check in rec["turn_checks"]:
        k, _, diag = parse_check(check)
        runs = _longest_runs(rec["board"]["size"], occupied, diag)
        if runs and max(runs.values()) >= k:
            p.add("board.pieces", f"the starting position already satisfies turn check {check!r}")


@dataclasses.dataclass(frozen=True, eq=False)
class RuleSet:
    """A validated rule set. Equality and hashing use the canonical form, so two
    rule sets that differ only by name (or notes) are equal."""

    name: str
    record: Mapping[str, Any]
    notes: str = ""

    @property
    def canonical(self) -> str:
        return canonical_json(self.record)

    @property
    def fingerprint(self) -> str:
        return hashlib.sha256(self.canonical.encode()).hexdigest()[:16]

    def __eq__(self, other):
        return isinstance(other, RuleSet) and self.canonical == other.canonical

    def __hash__(self):
        return hash(self.canonical)

    def to_json(self) -> dict:
        out = {"name": self.name}
        if self.notes:
            out["notes"] = self.notes
        out.update(copy.deepcopy(dict(self.record)))
        return out

    @property
    def num_players(self) -> int:
        return seats_of(self.record["players"])[0]

    @property
    def chaos(self) -> bool:
        return seats_of(self.record["players"])[1]

    @property
    def seconds_per_turn(self):
        return self.record["seconds_per_turn"]

    def compile(self) -> dict:
        return compile_rules(self)


def canonical_json(record: Mapping[str, Any]) -> str:
    return json.dumps(record, sort_keys=True, separators=(",", ":"))


def parse(raw: Mapping[str, Any], source: str = "rule set") -> RuleSet:
    """Validate a decoded rule set; raise ``RuleSetError`` listing every problem."""
    p = _Problems()
    rec = _normalise(raw, p)
    if rec is None:
        raise RuleSetError(p.items, source)
    name = rec.pop("name")
    notes = rec.pop("notes")
    return RuleSet(name=name, record=rec, notes=notes)


def load(path: str | Path) -> RuleSet:
    path = Path(path)
    try:
        text = path.read_text()
    except OSError as e:
        raise RuleSetError([f"(file): cannot read {path}: {e.strerror}"], str(path)) from None
    try:
        raw = json.loads(text)
    except json.JSONDecodeError as e:
        raise RuleSetError([f"(file): not valid JSON: {e}"], str(path)) from None
    return parse(raw, str(path))


def catalogue() -> dict[str, RuleSet]:
    """Every rule set in games/ttt/catalogue, by name."""
    out = {}
    for path in sorted(CATALOGUE_DIR.glob("*.json")):
        rs = load(path)
        if rs.name in out:
            raise RuleSetError([f"name: {rs.name!r} is used by two catalogue files"], str(path))
        out[rs.name] = rs
    return out


_CACHE: dict[str, RuleSet] = {}


def resolve(rules: str) -> RuleSet:
    """A catalogue name or a path to a rule-set file."""
    if not isinstance(rules, str) or not rules:
        raise ValueError(f"parameter rules={rules!r} is not allowed; give a catalogue name "
                         f"({', '.join(sorted(catalogue()))}) or a path to a rule-set .json file")
    if rules in _CACHE:
        return _CACHE[rules]
    cat = catalogue()
    if rules in cat:
        rs = cat[rules]
    elif rules.endswith(".json") or "/" in rules:
        path = Path(rules)
        if not path.is_absolute() and not path.exists() and (REPO_ROOT / path).exists():
            path = REPO_ROOT / path          # paths relative to the repository work anywhere
        rs = load(path)
    else:
        raise ValueError(f"parameter rules={rules!r} is not allowed; give a catalogue name "
                         f"({', '.join(sorted(cat))}) or a path to a rule-set .json file")
    _CACHE[rules] = rs
    return rs


# ----------------------------------------------------------------------------
# Compilation into engine tables


def _symmetries(size, gravity, locked, pieces):
    """Index permutations of the cells under the box's symmetries (axis
    permutations and reflections that map the board onto itself; with gravity
    the height axis stays put) that also fix the locked spaces and the
    pre-placed pieces. Identity first, duplicates (from size-1 axes) dropped."""
    X, Y, Z = size
    cells = [(x, y, z) for z in range(Z) for y in range(Y) for x in range(X)]
    index = {c: i for i, c in enumerate(cells)}
    locked_set = set(locked)
    piece_map = dict(pieces)
    seen = set()
    perms = []
    for perm in itertools.permutations(range(3)):
        if any(size[perm[i]] != size[i] for i in range(3)):
            continue
        if gravity and perm[2] != 2:
            continue
        for flips in itertools.product((False, True), repeat=3):
            if gravity and flips[2]:
                continue
            mapping = []
            for c in cells:
                new = [c[perm[i]] for i in range(3)]
                new = [size[i] - 1 - v if flips[i] else v for i, v in enumerate(new)]
                mapping.append(index[tuple(new)])
            key = tuple(mapping)
            if key in seen:
                continue
            if {mapping[index[c]] for c in locked_set} != {index[c] for c in locked_set}:
                continue
            if any(piece_map.get(cells[mapping[index[c]]]) != col for c, col in piece_map.items()):
                continue
            seen.add(key)
            perms.append(list(key))
    perms.sort(key=lambda m: m != list(range(len(cells))))
    return perms


def compile_rules(rs: RuleSet) -> dict:
    """Flat integer tables for the engine. Coordinates become 0-based cell
    indices ``x + X*(y + Y*z)``; on stacks a placement target is the stack
    ``x + X*y`` and z is the height."""
    r = rs.record
    X, Y, Z = r["board"]["size"]
    gravity = r["board"]["kind"] == "stacks"
    n, chaos = seats_of(r["players"])
    seats = n + chaos
    mode = r["colours"]
    if mode == "assigned":
        colours = list(PALETTE[:seats])
    elif mode == "shared":
        colours = ["black"]
    elif mode == "partners-share":
        colours = ["black", "white"]
    else:
        used = set(r["reserves"]) | {q["colour"] for q in r["board"]["pieces"]}
        colours = [c for c in PALETTE if c in used]
    C = len(colours)
    if mode == "assigned":
        masks = [1 << s for s in range(seats)]
    elif mode == "shared":
        masks = [1] * seats
    elif mode == "partners-share":
        masks = [1, 2, 1, 2]
    else:
        masks = [(1 << C) - 1] * seats
    sides = [s % 2 for s in range(4)] if r["players"] == "partners" else list(range(n))
    num_sides = max(sides) + 1
    if chaos:
        sides.append(num_sides)
    reserves = [r["reserves"].get(c, {}).get("circle", 0) for c in colours]
    cell = lambda at: (at[0] - 1) + X * ((at[1] - 1) + Y * (at[2] - 1))
    locked = [cell(a) for a in r["board"]["locked"]]
    pieces = [(cell(q["at"]), colours.index(q["colour"])) for q in r["board"]["pieces"]]
    move = MOVE_CODES[r["shapes"]["circle"]["move"]]
    if r["phases"][0]["movement"] == "placement-only":
        move = 0
    checks = [parse_check(c) for c in r["turn_checks"]]
    sym_locked = [(a[0] - 1, a[1] - 1, a[2] - 1) for a in r["board"]["locked"]]
    sym_pieces = [((q["at"][0] - 1, q["at"][1] - 1, q["at"][2] - 1), q["colour"]) for q in r["board"]["pieces"]]
    syms = _symmetries((X, Y, Z), gravity, sym_locked, sym_pieces)
    S = X * Y * Z
    T = X * Y if gravity else S
    choices = C if mode == "players-choose" else 1
    passing = r["phases"][0]["pass"]
    # Bound on the game's length for OpenSpiel: plies (placements, moves,
    # passes), then draw offers and answers on top.
    capacity = S - len(locked) - len(pieces)
    placements = min(capacity, sum(reserves))
    plies = placements if not passing else (placements + 1) * seats
    if move:
        plies = r["move_limit"]
    elif r["move_limit"] is not None:
        plies = min(plies, r["move_limit"])
    length = plies
    if r["agree_draw"]:
        length += plies * n      # one offer and up to n-1 answers per turn
    return {
        "size": [X, Y, Z], "gravity": gravity, "seats": seats, "num_players": n, "chaos": chaos,
        "num_colours": C, "colour_names": colours, "seat_colours": masks, "sides": sides,
        "reserves": reserves, "locked": locked, "pieces": pieces, "choices": choices,
        "move": move, "pieces_per_turn": r["pieces_per_turn"], "pass": passing,
        "agree_draw": r["agree_draw"], "checks": checks,
        "stalemate": STALEMATES.index(r["stalemate"]), "move_limit": r["move_limit"] or 0,
        "symmetries": syms, "max_game_length": max(1, length), "targets": T,
    }


def outcome_profile(rs: RuleSet) -> dict:
    """What OpenSpiel's GameType/GameInfo may truthfully say about this rule set:
    zero-sum only when exactly two sides play, no Chaos, and no rule makes
    everyone win or lose together."""
    r = rs.record
    n, chaos = seats_of(r["players"])
    two_sides = n == 2 or r["players"] == "partners"
    together = r["stalemate"] in ("all-win", "all-lose") or any(
        parse_check(c)[1] == EFFECT_ALL_LOSE for c in r["turn_checks"])
    zero_sum = two_sides and not chaos and not together
    return {"zero_sum": zero_sum, "utility_sum": 0.0 if zero_sum else None,
            "min_utility": -1.0, "max_utility": 1.0, "chance": chaos, "num_players": n}


def main(argv=None) -> int:
    """``python -m games.ttt``: validate rule-set files and show their
    canonical form, or list the catalogue."""
    import argparse
    import sys

    parser = argparse.ArgumentParser(
        prog="python -m games.ttt",
        description="Validate tic-tac-toe rule sets (catalogue names or .json paths): print every "
                    "problem, or the canonical form and fingerprint. Rules: docs/rules/ttt.md.")
    parser.add_argument("rules", nargs="*", help="catalogue names or paths to rule-set files")
    parser.add_argument("--list", action="store_true", help="list the catalogue with fingerprints")
    parser.add_argument("--canonical", action="store_true", help="print each canonical form")
    args = parser.parse_args(argv)
    if not args.rules and not args.list:
        parser.error("give rule sets to check, or --list")
    if args.list:
        for name, rs in catalogue().items():
            print(f"{name:24s} {rs.fingerprint}")
    status = 0
    seen: dict[str, str] = {}
    for item in args.rules:
        try:
            rs = resolve(item)
        except (RuleSetError, ValueError) as e:
            print(f"{item}: {e}", file=sys.stderr)
            status = 1
            continue
        print(f"{item}: valid, name {rs.name}, fingerprint {rs.fingerprint}")
        if rs.canonical in seen:
            print(f"{item}: identical to {seen[rs.canonical]} except for the name")
        seen.setdefault(rs.canonical, item)
        if args.canonical:
            print(rs.canonical)
    return status
