"""The Player Factory's form: its choices (from the rule-set schema), the
form's fields to a rule-set record and back, and validation problems by control.

Why the choices come from ``games.ttt.schema``'s ``*_NOW`` tuples and from
probing validation: the engine's vocabulary grows; a value added to
``MOVES_NOW`` (or a number of boards that validation starts accepting)
appears in the dropdowns without an edit here. Why the form's field names are
validation's field paths (``board.size.x``, ``shapes.circle.move``,
``turn_checks[1]``, ``phases[0].order``): each problem validation reports
("field: message") is then shown next to the control it names.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping

from games.ttt import rules as ttt_rules
from games.ttt import schema

MAX_PHASES = 6
MAX_SHAPES = len(schema.SHAPES_ALL)
PIECES_PER_TURN = (1, 2)
BOARDS_CANDIDATES = (1, 2, 3)
#: Each turn check at most once (validation refuses a repeat), so no rule set has more.
MAX_CHECKS = len(schema.TURN_CHECKS) + len(schema.SHAPE_CHECKS)
#: Problems listed per control; the rest are counted ("... and 699,990 more").
MAX_PROBLEMS = 10
#: Spaces one marker may list: every space of three boards (each at most once).
MAX_MARKS = 3 * schema.MAX_SPACES


def _accepted(field: str, value) -> bool:
    """Whether validation accepts ``value`` for the top-level ``field`` (probed
    on the classic game, so only that field can be at fault)."""
    record = {"name": "probe", "reserves": {"black": 5, "white": 4}, field: value}
    try:
        ttt_rules.parse(record, "probe")
    except ttt_rules.RuleSetError as e:
        return not any(p.startswith(field) for p in e.problems)
    return True


def choices() -> dict:
    """Every dropdown's options, as the engine supports them now."""
    return {
        "players": schema.PLAYERS,
        "colours": schema.COLOUR_MODES,
        "shapes": schema.SHAPES_NOW,
        "cloaking": schema.CLOAKING_NOW,
        "pieces_per_turn": PIECES_PER_TURN,
        "boards": tuple(b for b in BOARDS_CANDIDATES if _accepted("boards", b)),
        "phases": tuple(range(1, MAX_PHASES + 1)),
        "board_kinds": schema.BOARD_KINDS,
        # the goal check (the tic-tac-toe variations specification's "Stalemate if
        # goal is reached") with the others
        "turn_checks": schema.TURN_CHECKS + schema.SHAPE_CHECKS,
        "stalemates": schema.STALEMATES,
        "moves": schema.MOVES_NOW,
        "line_moves": schema.LINE_READINGS,
        "round_plies": schema.ROUND_PLIES_ALL,
        "powers": schema.POWERS_NOW,
        "conditions": schema.CONDITIONS_NOW,
        "results": schema.RESULTS_NOW,
        "orders": schema.ORDERS_NOW,
        "movement": schema.PHASE_MOVEMENT,
        "folds": schema.FOLDS,
        "palette": schema.PALETTE,
    }


_WORDS = {
    # the board kinds the specification adds ("can extend to “Tetrakis squares”,
    # “Squares on Toroid”, “Hexagons”, etc."); the others are capitalised
    "kind": {"toroid": "Squares on Toroid", "hexagons": "Hexagons", "tetrakis": "Tetrakis squares"},
    "players": {
        "2": "2 Player",
        "3": "3 Player",
        "4": "4 Player",
        "partners": "Partners",
        "2-vs-chaos": "2 vs Chaos",
        "3-vs-chaos": "3 vs Chaos",
        "1-vs-chaos": "1 vs Chaos",
    },
    "colours": {
        "assigned": "Assigned colors",
        "shared": "Shared color",
        "partners-share": "Partners share color",
        "players-choose": "Players choose color",
    },
    "cloaking": {"none": "No cloaking", "hides": "Cloaking hides", "obscures": "Cloaking obscures"},
    "stalemate": {
        "draws": "Stalemate draws",
        "all-win": "All players win if stalemate",
        "all-lose": "All players lose if stalemate",
        "most-in-a-row-wins": "Most same-color-in-a-row wins",
        "least-in-a-row-loses": "Least same-color-in-a-row loses",
        "most-pieces-wins": "Most pieces wins",
        **{f"any-{k}-in-a-row-wins": f"Any {k}-same-color-in-a-row wins" for k in range(2, 7)},
        **{f"last-{k}-in-a-row-wins": f"Last {k}-same-color-in-a-row wins" for k in range(2, 7)},
        "stalemate-loses": "Stalemate loses",
        "stalemate-wins": "Stalemate wins",
    },
    "move": {
        "stationary": "Stationary",
        "adjacent": "Moves adjacent",
        "adjacent-orthogonal": "Moves adj orthogonal",
        "adjacent-alquerque": "Moves adjacent (alquerque lines)",
        "linear-or-knight": "Moves linear or knight",
        "orth-by-stack": "Moves orth by stack",
        "orth-by-full-stack": "Moves orth by full stack",
        "adjacent-or-knight": "Moves adjacent or knight",
        "adjacent-no-back": "Moves adjacent (no back)",
        "adjacent-no-back-side": "Moves adjacent (no back/side)",
        "orthogonal-no-back": "Moves orth (no back)",
        "pawn-forward-center": "Pawn move forward/center",
        "rook-orthogonal-castle": "Rook move orth/castle",
    },
    "line_moves": {
        "blocked-by-pieces": "Pieces block line moves",
        "over-pieces": "Line moves pass over pieces",
    },
    "round_plies": {
        "planned-together": "Two plies planned together",
        "round-by-round": "Two plies in two rounds",
    },
    "power": {"none": "No power", "must-capture": "Must capture", "can-capture": "Can capture"},
    "condition": {
        "cover": "Cover",
        "cover-by-rank": "Cover by rank",
        "jump": "Jump",
        "chain-jump": "Chain Jump",
        "surround-line": "Surround line",
        "surround-orthogonal": "Surround orthogonal",
        "chain-jump-back": "Chain Jump (+ back)",
        "adjacent": "Adjacent",
        "adjacent-orthogonal": "Adjacent (orthogonal)",
        "approach": "Approach",
        "approach-one": "Approach (adjacent piece only)",
        "move-on-triagonal": "Move on triagonal",
        "move-on-diagonal-en-passant": "Move on diag + en passe",
    },
    "result": {
        "removes": "Removes captive(s)",
        "converts": "Converts captive(s)",
        "reincarnates": "Reincarnates captive(s)",
        "reincarnates-x2": "Reincarnates captive(s) x2",
        "reincarnates-x3": "Reincarnates captive(s) x3 (convert, remove, triple, add)",
        "paralyzes": "Paralyzes captive(s)",
    },
    "movement": {"allowed": "Movement allowed", "placement-only": "Placement only"},
    "fold": {"none": "No fold", "less-than-most-committed": "Less-than-most committed pieces folds"},
}
_COUNTS = {
    "shape_count": ("shape", "shapes"),
    "pieces_per_turn": ("piece/turn", "pieces/turn"),
    "boards": ("board", "boards"),
    "phases": ("phase", "phases"),
}


def option_label(control: str, value) -> str:
    """The tic-tac-toe variations specification's wording of a dropdown option
    (``control`` is the select's name); a value the specification does not word
    is shown as the schema spells it."""
    last = control.rsplit(".", 1)[-1]
    if control in _COUNTS:
        one, many = _COUNTS[control]
        return f"{value} {one if str(value) == '1' else many}"
    if control.startswith("turn_checks"):
        text = str(value)
        if text == schema.GOAL_CHECK:  # 3P-9X-HideSeek: "Statemate if goal is reached"
            return "Stalemate if goal is reached"
        if text == schema.LAST_PENTAGON_CHECK:
            return "Last pentagon wins"
        if text == schema.EN_PASSANT_CHECK:
            return "En passant"
        if text == schema.CASTLE_CHECK:
            return "Castle"
        if text.startswith("all-lose-if-any-"):
            return f"All players lose if any {text.rsplit('-', 1)[1]}-same-color-in-a-row"
        parts = text.split("-")
        if len(parts) >= 3 and parts[0] == "first":
            out = f"First {parts[1]}-same-color-in-a-row {parts[2]}"
            return out + (" (no diagonal)" if text.endswith("no-diagonal") else "")
    words = _WORDS.get(last) or _WORDS.get(control) or {}
    if str(value) in words:
        return words[str(value)]
    if control == "board.kind" or last == "order":
        return str(value).replace("-", " ").capitalize()
    return readable(last, value)


_RANKED_ROW = re.compile(r"^(most|least)-(?:(\d+)-)?in-a-row-(wins|loses)$")
_RANKED_COUNT = re.compile(r"^(most|least)-(\w+)-(wins|loses)$")
_VS_CHAOS = re.compile(r"^(more|fewer)-pieces-than-chaos-(wins|loses)(-fewer-loses)?$")


def readable(last: str, value) -> str:
    """A schema value the specification does not word, in words a person reads
    ("most-2-in-a-row-wins" -> "Most 2-same-color-in-a-row wins", the
    specification's phrasing of its kin; "adjacent-diagonal" -> "Moves adjacent
    diagonal"; no value -> "none"). The schema's value stays the submitted one."""
    text = "" if value is None else str(value)
    if text in ("", "None", "null"):
        return "none"
    if last == "move":
        return f"Moves {text.replace('-', ' ')}"
    if "-" not in text:
        return text
    if m := _RANKED_ROW.match(text):
        k = f"{m.group(2)}-" if m.group(2) else ""
        return f"{m.group(1).capitalize()} {k}same-color-in-a-row {m.group(3)}"
    if m := _VS_CHAOS.match(text):
        return f"{m.group(1).capitalize()} pieces than Chaos {m.group(2)}" + (
            ", fewer loses" if m.group(3) else ""
        )
    if m := _RANKED_COUNT.match(text):
        noun = {"xs": "X's"}.get(m.group(2), m.group(2).replace("-", " "))
        return f"{m.group(1).capitalize()} {noun} {m.group(3)}"
    words = text.replace("-", " ")
    return words[0].upper() + words[1:]


def _shape_rule(get, shape: str) -> dict:
    """One shape's move and power; condition and result only with a power (the
    specification: "If “No power” is selected, then the associated power_condition and
    power_result dropdowns are cleared and disabled")."""
    rule = {"move": get(f"shapes.{shape}.move", "stationary"), "power": get(f"shapes.{shape}.power", "none")}
    if get(f"shapes.{shape}.cannot_move_backwards") == "1":  # the specification's "cannot move backwards"
        rule["cannot_move_backwards"] = True
    if rule["power"] != "none":
        for key in ("condition", "result"):
            value = get(f"shapes.{shape}.{key}")
            if value:  # a blank stays out: validation says it is required
                rule[key] = value
    return rule


def colours_in_play(players: str, colours: str) -> tuple[str, ...]:
    """The colours whose reserves the form offers (validation has the last word)."""
    n, chaos = schema.seats_of(players) if players in schema.PLAYERS else (2, False)
    if colours == "shared":
        return schema.PALETTE[:1]
    if colours == "partners-share":
        return schema.PALETTE[:2]
    if colours == "players-choose":
        return schema.PALETTE
    return schema.PALETTE[: n + (1 if chaos else 0)]


def reserve_colours(players: str, colours: str, present=()) -> list[str]:
    """The colours with reserve selects: those in play, and ``present``, the
    other colours a copied or saved rule set gives a reserve (a dilemma's pink
    pieces for Chaos), carried in the form's ``extra_colours`` so that a Copy
    keeps them. A colour that came into play with a players change and left
    with the next one is not among them: its select goes, as the tic-tac-toe variations
    specification says."""
    out = list(colours_in_play(players, colours))
    return out + [c for c in schema.PALETTE if c in present and c not in out]


def seat_names(players: str) -> list:
    """The seats a seat marker may name: 1..n, and "chaos" when Chaos plays."""
    n, chaos = schema.seats_of(players) if players in schema.PLAYERS else (2, False)
    return list(range(1, n + 1)) + (["chaos"] if chaos else [])


def dim_limit(others: tuple[int, int]) -> int:
    """The specification: each dimension offers 1..floor(512 / product of the other two), at most 19."""
    return max(1, min(schema.MAX_DIM, schema.MAX_SPACES // max(1, math.prod(others))))


def _int(value, default=None):
    try:
        return int(value)
    except (TypeError, ValueError):
        return default


def _coords(text: str) -> list[list[int]]:
    out = []
    for part in (text or "").split(";", MAX_MARKS)[:MAX_MARKS]:
        nums = [_int(v) for v in part.split(",") if v.strip()]
        if len(nums) == 3 and None not in nums:
            out.append(nums)
    return out


def _coords_text(items) -> str:
    return ";".join(",".join(str(v) for v in c) for c in items)


#: Space markers the Factory toggles by clicking spaces: (form key, record path,
#: kind). "spaces" markers are lists of [x, y, z]; "seats" markers are the
#: schema's groups {"at": [spaces], "players": [seats]}, written in the form as
#: "x,y,z@1,2;..." (each space with the seats it applies to). Board markers are
#: set once for the game (schema.BOARD_FIELDS); phase markers per phase
#: (schema.PHASE_FIELDS: "the cloak and lock properties are the only ones that
#: can be changed after phase 1").
BOARD_MARKERS = (
    ("sticky", "spaces"),
    ("dealt", "spaces"),  # "dealt common" (docs/rules/ttt/deal.md)
    ("exclusive", "seats"),
    ("entry_locked", "seats"),
    ("exit_locked", "seats"),
)
PHASE_MARKERS = (("cloaked", "spaces"), ("entry_locked", "seats"), ("exit_locked", "seats"))
#: Markers for one board of several (``board.on_boards``, games/ttt/spaces.py:
#: BoS's "(2,1) of 1 and (2,2) of 2 exclusive to chaos"), kept in the form as
#: ``board.on_boards[i].KEY`` for board i + 1; the board's own markers apply to
#: every board.
ON_BOARD_MARKERS = (("locked", "spaces"),) + BOARD_MARKERS
#: The form's fields that list spaces (``board.KEY``, ``board.on_boards[i].KEY``
#: and ``phases[k].KEY``).
_MARKER_FIELDS = {key for key, _ in BOARD_MARKERS + PHASE_MARKERS} | {"locked", "pieces"}


def _seat(value: str):
    value = value.strip()
    return value if value == "chaos" else _int(value, value)


def _groups_of(text: str) -> list[dict]:
    """ "x,y,z@1,2;x,y,z@chaos" as the schema's groups (one per seat set)."""
    by_seats: dict[tuple, list] = {}
    for part in (text or "").split(";", MAX_MARKS)[:MAX_MARKS]:
        at, sep, seats = part.partition("@")
        c = _coords(at)
        if not c or not sep:
            continue
        key = tuple(_seat(v) for v in seats.split(",") if v.strip())
        if key:
            by_seats.setdefault(key, []).append(c[0])
    return [{"at": cells, "players": list(seats)} for seats, cells in by_seats.items()]


def _groups_text(groups) -> str:
    parts = []
    for group in groups or []:
        seats = ",".join(str(v) for v in group.get("players", []))
        for at in group.get("at", []):
            if isinstance(at, list) and len(at) == 3:
                parts.append(f"{_coords_text([at])}@{seats}")
    return ";".join(parts)


def _markers_from_form(get, prefix: str, markers) -> dict:
    out = {}
    for key, kind in markers:
        text = get(f"{prefix}.{key}", "") or ""
        value = _coords(text) if kind == "spaces" else _groups_of(text)
        if value:  # unset markers stay out of the record
            out[key] = value
    return out


def _markers_to_form(section: Mapping, markers) -> dict:
    return {
        key: (_coords_text(section.get(key, [])) if kind == "spaces" else _groups_text(section.get(key, [])))
        for key, kind in markers
    }


def form_problems(form: Mapping[str, str]) -> list[str]:
    """Problems of the form's own fields that no record can show (validation
    never sees them): more spaces listed than three boards have."""
    problems = []
    for key in form:
        if (key.startswith(("board.", "phases[")) and key.rsplit(".", 1)[-1] in _MARKER_FIELDS) and (
            marks := (form.get(key) or "").count(";") + 1
        ) > MAX_MARKS:
            problems.append(
                f"{key}: {marks:,} spaces listed (allowed: at most {MAX_MARKS:,}; the rest are left out)"
            )
    return problems


def bound(state: dict) -> list[str]:
    """Bring every size of the form within what validation accepts, so that no
    page is larger than the largest rule set's: board sides 1..19 with at most
    512 spaces, reserve counts 0..512, at most MAX_CHECKS turn checks (phases
    are 1..6 from ``form_to_record``). One problem for each value changed,
    naming the bound. Why: the page is drawn from the form's values, and
    "reserves.black=200000" drew 400,000 options (15 MB), a 300x300x10 board
    34.7 MB, whatever validation said of them."""
    problems = []
    size = [v if isinstance(v, int) else 1 for v in state["size"]]
    for i, axis in enumerate("xyz"):
        if not 1 <= size[i] <= schema.MAX_DIM:
            problems.append(f"board.size.{axis}: {size[i]} is not allowed (allowed: 1..{schema.MAX_DIM})")
            size[i] = max(1, min(schema.MAX_DIM, size[i]))
    if math.prod(size) > schema.MAX_SPACES:
        problems.append(
            f"board.size: {size} has {math.prod(size)} spaces (allowed: at most {schema.MAX_SPACES})"
        )
        size[0] = dim_limit((size[1], size[2]))
        size[1] = min(size[1], dim_limit((size[0], size[2])))
    state["size"] = size
    for key, count in state["reserves"].items():
        if not isinstance(count, int) or not 0 <= count <= schema.MAX_SPACES:
            problems.append(f"{key}: {count!r} is not allowed (allowed: 0..{schema.MAX_SPACES})")
            state["reserves"][key] = max(0, min(schema.MAX_SPACES, count if isinstance(count, int) else 0))
    if len(state["turn_checks"]) > MAX_CHECKS:
        problems.append(
            f"turn_checks: {len(state['turn_checks'])} checks (allowed: at most {MAX_CHECKS}, each once)"
        )
        del state["turn_checks"][MAX_CHECKS:]
    return problems


def shapes_in_play(shape_list: str, count: int) -> list[str]:
    """The ``count`` shapes of the form: those it carried (``shape_list``, the
    shapes of a copied rule set, which need not be the first ones: a rule set
    may play circle, triangle and pentagon), cut or extended in the schema's
    order when the Shapes dropdown changes."""
    shapes = [s for s in (shape_list or "").split(",") if s in schema.SHAPES_NOW][:count]
    for s in schema.SHAPES_NOW:
        if len(shapes) >= count:
            break
        if s not in shapes:
            shapes.append(s)
    return shapes


def picked_shapes(form: Mapping[str, str], count: int) -> tuple[list[str], dict[str, str]]:
    """The shapes in play after the person's picks in the per-shape ``shape[i]``
    selects (RockPaperScissors plays circle, pentagon and x), and for each
    shape new to play the shape whose place, and settings, it took. A pick of
    a shape already in play swaps the two (each keeps its own settings); only
    the selects that differ from the carried ``shape_list`` count as picks, so
    a page with several changes still gives each shape one place."""
    carried = shapes_in_play(form.get("shape_list", ""), count)
    shapes = list(carried)
    for i, was in enumerate(carried):
        pick = form.get(f"shape[{i}]")
        if pick in schema.SHAPES_NOW and pick != was and pick != shapes[i]:
            if pick in shapes:
                shapes[shapes.index(pick)] = shapes[i]
            shapes[i] = pick
    settings_of = {s: old for s, old in zip(shapes, carried, strict=True) if s not in carried}
    return shapes, settings_of


def _shape_settings(form: Mapping[str, str], settings_of: Mapping[str, str]):
    """``form.get`` reading a picked shape's fields (move, power, reserves,
    Chaos's threshold) from the shape whose place it took."""

    def get(key, default=None):
        parts = key.split(".")
        at = {"shapes": 1, "chaos_wins_if_more_than": 1, "reserves": 2}.get(parts[0])
        if at is not None and len(parts) > at and parts[at] in settings_of:
            parts[at] = settings_of[parts[at]]
        return form.get(".".join(parts), default)

    return get


def _boards_of(value) -> int:
    """The form's number of boards, within the choices (1 when it is none)."""
    n = _int(value, 1)
    return n if n in BOARDS_CANDIDATES else 1


def form_to_record(form: Mapping[str, str]) -> dict:
    """The rule-set record a submitted factory form describes (not yet validated)."""
    count = max(1, min(len(schema.SHAPES_NOW), _int(form.get("shape_count"), 1)))
    shapes, settings_of = picked_shapes(form, count)
    get = _shape_settings(form, settings_of)
    players = get("players", "2")
    colours = get("colours", "assigned")
    rec: dict = {"name": get("name", "").strip() if get("name") is not None else ""}
    rec["players"] = players
    rec["colours"] = colours
    size = [_int(get(f"board.size.{a}"), d) for a, d in zip("xyz", (3, 3, 1), strict=True)]
    rec["board"] = {
        "kind": get("board.kind", "hash"),
        "size": size,
        "locked": _coords(get("board.locked", "")),
    }
    pieces = []
    for part in (get("board.pieces", "") or "").split(";", MAX_MARKS)[:MAX_MARKS]:
        if ":" in part:  # x,y,z:colour or x,y,z:colour:shape
            at, colour = part.split(":", 1)
            colour, _, shape = colour.partition(":")
            c = _coords(at)
            if c:
                pieces.append({"at": c[0], "colour": colour, "shape": shape or "circle"})
    if pieces:
        rec["board"]["pieces"] = pieces
    rec["board"].update(_markers_from_form(get, "board", BOARD_MARKERS))
    boards = _boards_of(get("boards"))
    per_board = [_markers_from_form(get, f"board.on_boards[{i}]", ON_BOARD_MARKERS) for i in range(boards)]
    if boards > 1 and any(per_board):  # one entry per board, so entry i is board i + 1
        rec["board"]["on_boards"] = [{"boards": [i + 1], **m} for i, m in enumerate(per_board)]
    rec["shapes"] = {s: _shape_rule(get, s) for s in shapes}
    reserves: dict = {}
    extra = [c for c in (get("extra_colours", "") or "").split(",") if c in schema.PALETTE]
    for colour in reserve_colours(players, colours, extra):
        for s in shapes:
            key = f"reserves.{colour}" + (f".{s}" if len(shapes) > 1 else "")
            value = get(key)
            if value is None and s == shapes[0]:  # the shapes changed between 1 and several:
                value = get(f"reserves.{colour}.{s}" if len(shapes) == 1 else f"reserves.{colour}")
            if value is None:  # a colour or shape newly in play: adjust() gives it a count
                continue
            count = _int(value, 0)  # zeros kept: "every count is 0" is validation's to say
            if len(shapes) > 1 or s != "circle":  # a bare count means circles
                reserves.setdefault(colour, {})[s] = count
            else:
                reserves[colour] = count
    rec["reserves"] = reserves
    deck = _deck_from_form(get, shapes)
    if deck is not None:  # a deck (docs/rules/ttt/deal.md): only when some count is set
        rec["deck"] = deck
    rec["pieces_per_turn"] = _int(get("pieces_per_turn"), 1)
    # docs/rules/ttt/shapes.md "Pieces in the way": validation keeps it only
    # when a shape moves along lines and it is not the default
    rec["line_moves"] = get("line_moves", schema.LINE_READING_DEFAULT)
    rec["agree_draw"] = get("agree_draw") == "1"
    checks, i = [], 0
    while f"turn_checks[{i}]" in form:
        checks.append(get(f"turn_checks[{i}]"))
        i += 1
    rec["turn_checks"] = checks
    rec["stalemate"] = get("stalemate", "draws")
    rec["cloaking"] = get("cloaking", "none")
    # written only when true (docs/rules/ttt/cloaking.md "Hidden turns"): a record
    # without it is the same rule set as one with false
    if get("cloaking_hides_turns") == "1":
        rec["cloaking_hides_turns"] = True
    if get("cloaking_hides_walls") == "1":  # "Invisible walls", likewise
        rec["cloaking_hides_walls"] = True
    rec["boards"] = _int(get("boards"), 1)
    n = max(1, min(MAX_PHASES, _int(get("phases"), 1)))
    phases = []
    for k in range(n):
        f = f"phases[{k}]"
        locked_players = [
            v if v == "chaos" else _int(v)
            for v in (form.getlist(f"{f}.locked_players") if hasattr(form, "getlist") else [])
        ]
        phases.append(
            {
                "order": get(f"{f}.order", "sequential"),
                "pass": get(f"{f}.pass") == "1",
                "movement": get(f"{f}.movement", "allowed"),
                "locked_players": locked_players,
                "locked": _coords(get(f"{f}.locked", "")),
                "fold": get(f"{f}.fold", "none") if k < n - 1 else "none",
                **_markers_from_form(get, f, PHASE_MARKERS),
            }
        )
    rec["phases"] = phases
    # docs/rules/ttt/rounds.md "Two pieces a turn": validation keeps it only where
    # two pieces a turn meet a simultaneous or single phase and it is not the default
    rec["round_plies"] = get("round_plies", schema.ROUND_PLIES_DEFAULT)
    if get("overachievers_disqualified") == "1":
        rec["overachievers_disqualified"] = True
    chaos_wins = {}
    for shape in shapes:
        value = (get(f"chaos_wins_if_more_than.{shape}", "") or "").strip()
        if value:
            chaos_wins[shape] = _int(value, value)
    if chaos_wins:
        rec["chaos_wins_if_more_than"] = chaos_wins
    for key in ("move_limit", "seconds_per_turn"):
        value = get(key, "")
        rec[key] = _int(value, value) if str(value).strip() else None
    return rec


def _deck_from_form(get, shapes) -> dict | None:
    """The deck of the form's "deck.SHAPE" counts, "deck.hand" and
    "deck.per_turn" (None when all are 0 or blank)."""
    counts = {s: _int(get(f"deck.{s}"), 0) for s in shapes}
    hand, per_turn = _int(get("deck.hand"), 0), _int(get("deck.per_turn"), 0)
    if not any(counts.values()) and not hand and not per_turn:
        return None
    return {"pieces": counts, "hand": hand, "per_turn": per_turn}


def adjust(state: dict) -> None:
    """The tic-tac-toe variations specification's redraw rules: a hash board is 3x3x1, stacks are at least 2
    high, a toroid or hexagons one layer (a toroid at least 3 by 3), tetrakis squares z = 4 (the
    triangle), and each dimension stays
    within floor(512 / the other two), at most 19;
    colours newly in play start with the highest-numbered existing colour's reserve."""
    x, y, z = (max(1, min(schema.MAX_DIM, v if isinstance(v, int) else 1)) for v in state["size"])
    if state["board_kind"] == "hash":
        x, y, z = 3, 3, 1
    if state["board_kind"] == "stacks" and z < 2:
        z = 2
    if state["board_kind"] in schema.PLANE_KINDS:  # a toroid and hexagons are planes
        z = 1
    if state["board_kind"] == "tetrakis":  # z is a square's triangle
        z = 4
    if state["board_kind"] == "toroid":  # a wrapping row needs 3 spaces
        x, y = max(3, x), max(3, y)
    x = min(x, dim_limit((y, z)))
    y = min(y, dim_limit((x, z)))
    z = min(z, dim_limit((x, y)))
    state["size"] = [x, y, z]
    last = 0
    for colour in colours_in_play(state["players"], state["colours"]):  # new colours only
        for s in state["shapes"]:
            key = f"reserves.{colour}" + (f".{s}" if len(state["shapes"]) > 1 else "")
            if key in state["reserves"]:
                last = state["reserves"][key]
            else:
                state["reserves"][key] = last


def reserve_max(state: dict) -> int:
    """The specification: 0 up to "the maximum number that can be played": one
    colour is played at most once on each space of the boards (at most 512).
    The specification's example, the spaces over the colours, is less than the
    catalogue needs: Wild-TTT-6sq3143 has 18 black and 18 white on 36 spaces
    with four colours to choose from, the dilemmas' Chaos six pink circles on
    12 spaces shared by three colours. At least the largest count the rule set
    already has, so a Copy keeps its counts."""
    sized = all(isinstance(v, int) for v in state["size"])
    boards = _boards_of(state.get("boards"))
    limit = min(schema.MAX_SPACES, math.prod(state["size"]) * boards) if sized else 0
    counts = [v for v in state["reserves"].values() if isinstance(v, int)]
    return max([limit] + counts)


def _on_boards_to_form(board: Mapping, boards) -> list[dict]:
    """Each board's own markers (board 1 first) from ``board.on_boards``, whose
    entries may name several boards; none with one board."""
    n = _boards_of(boards)
    if n == 1:
        return []
    per: list[dict] = [{} for _ in range(n)]
    for entry in board.get("on_boards") or []:
        if not isinstance(entry, Mapping):
            continue
        for b in entry.get("boards") or []:
            if isinstance(b, int) and 1 <= b <= n:
                for key, _ in ON_BOARD_MARKERS:
                    if isinstance(entry.get(key), list):
                        per[b - 1].setdefault(key, []).extend(entry[key])
    return [_markers_to_form(section, ON_BOARD_MARKERS) for section in per]


def state_of(record: Mapping) -> dict:
    """The form's values for a (saved or copied) rule-set record, defaults filled."""
    board = record.get("board", {})
    size = board.get("size", [3, 3, 1])
    shapes = list(record.get("shapes", {"circle": {}})) or ["circle"]
    reserves = {}
    for colour, val in record.get("reserves", {}).items():
        if isinstance(val, Mapping):
            for s, count in val.items():
                reserves[f"reserves.{colour}.{s}" if len(shapes) > 1 else f"reserves.{colour}"] = count
        else:
            reserves[f"reserves.{colour}"] = val
    phases = record.get("phases") or [{}]
    players, colours = record.get("players", "2"), record.get("colours", "assigned")
    playing = colours_in_play(players, colours) if players in schema.PLAYERS else ()
    extra = [c for c in schema.PALETTE if c not in playing and any(k.split(".")[1] == c for k in reserves)]
    return {
        "extra_colours": extra,
        "name": record.get("name", ""),
        "players": record.get("players", "2"),
        "colours": record.get("colours", "assigned"),
        "shapes": shapes,
        "shape_rules": {
            s: {
                "move": "stationary",
                "power": "none",
                "condition": "",
                "result": "",
                "cannot_move_backwards": False,
                **(record.get("shapes", {}).get(s) or {}),
            }
            for s in shapes
        },
        "board_kind": board.get("kind", "hash"),
        "size": list(size),
        "locked": _coords_text(board.get("locked", [])),
        "pieces": ";".join(
            f"{_coords_text([p['at']])}:{p['colour']}"
            + (f":{p['shape']}" if p.get("shape", "circle") != "circle" else "")
            for p in board.get("pieces", [])
        ),
        "markers": _markers_to_form(board, BOARD_MARKERS),
        "on_boards": _on_boards_to_form(board, record.get("boards", 1)),
        "reserves": reserves,
        "deck": {
            "hand": (record.get("deck") or {}).get("hand", 0),
            "per_turn": (record.get("deck") or {}).get("per_turn", 0),
            **{s: (record.get("deck") or {}).get("pieces", {}).get(s, 0) for s in shapes},
        },
        "pieces_per_turn": record.get("pieces_per_turn", 1),
        "line_moves": record.get("line_moves", schema.LINE_READING_DEFAULT),
        "round_plies": record.get("round_plies", schema.ROUND_PLIES_DEFAULT),
        "agree_draw": bool(record.get("agree_draw")),
        "turn_checks": list(record.get("turn_checks", schema.DEFAULT_CHECKS)),
        "stalemate": record.get("stalemate", "draws"),
        "cloaking": record.get("cloaking", "none"),
        "cloaking_hides_turns": bool(record.get("cloaking_hides_turns")),
        "cloaking_hides_walls": bool(record.get("cloaking_hides_walls")),
        "boards": record.get("boards", 1),
        "phases": [
            {
                "order": ph.get("order", "sequential"),
                "pass": bool(ph.get("pass")),
                "movement": ph.get("movement", "allowed"),
                "locked_players": list(ph.get("locked_players", [])),
                "locked": _coords_text(ph.get("locked", [])),
                "fold": ph.get("fold", "none"),
                "markers": _markers_to_form(ph, PHASE_MARKERS),
            }
            for ph in phases
        ],
        "move_limit": record.get("move_limit"),
        "seconds_per_turn": record.get("seconds_per_turn"),
        "overachievers_disqualified": bool(record.get("overachievers_disqualified")),
        "chaos_wins": dict(record.get("chaos_wins_if_more_than") or {}),
    }


def problems_by_field(problems: list[str]) -> dict[str, list[str]]:
    """Validation's "field: message" problems keyed by field."""
    out: dict[str, list[str]] = {}
    for p in problems:
        field, _, message = p.partition(": ")
        out.setdefault(field, []).append(message or p)
    return out


def capped(messages: list[str]) -> list[str]:
    """At most MAX_PROBLEMS messages, then how many more there are."""
    if len(messages) <= MAX_PROBLEMS:
        return messages
    return messages[:MAX_PROBLEMS] + [f"... and {len(messages) - MAX_PROBLEMS:,} more"]


def validate(record: dict) -> list[str]:
    try:
        ttt_rules.parse(record, "rule set")
    except ttt_rules.RuleSetError as e:
        return list(e.problems)
    return []
