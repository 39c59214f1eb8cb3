"""Boards as SVG for the game page (and the Player Factory's preview).

Why drawn on the server from the game's own core (cells, coordinates, action
names): the page then shows exactly the state the server validates moves
against, and a cell is clickable only when exactly one legal action places a
piece there; every other legal action (a step from one space to another, a
flip, pass, a draw offer, a colour choice) is a labelled button, so no move is
ever out of reach and the page never invents one.

Layouts (the tic-tac-toe variations specification): a row when two dimensions are 1, a plane when one is,
stacked planes (z = 1 at the bottom) for 3D boards; stacks are drawn as
columns showing two rows above the tallest stack, the maximum height in the
upper left corner; Y-family boards as hexagons, Flipway as stones on square
grid points, Caeth Y as its triangle of vertices joined by clickable edges.
A game this module does not know is shown as its text with buttons.
"""

from __future__ import annotations

import functools
import html
import math
import re

from games.openspiel import core_of
from webapp.shapes import SHAPE_OF_LETTER, obscured_svg, piece_svg

Y_FILL = {1: "#222", 2: "#fafafa"}
CELL = 44
_PLACE = re.compile(r"^(\w+)@(stack)?\(([\d,]+)\)$")


class Drawing:
    """An SVG, the legal actions it makes clickable (action -> cell label) and
    the remaining legal actions as (action, label) buttons. ``shape_picker``:
    (shape, colour) of each shape a click may place (a rule set with shapes:
    the page offers a choice, a click places the chosen shape; the first is
    chosen to begin with)."""

    def __init__(
        self,
        svg: str,
        clickable: dict[int, str],
        buttons: list[tuple[int, str]],
        text: str | None = None,
        shape_picker: list[tuple[str, str]] | None = None,
    ):
        self.svg, self.clickable, self.buttons, self.text = svg, clickable, buttons, text
        self.shape_picker = shape_picker or []


class ShapedCell(dict):
    """{shape: action} placing each shape on one cell, and the shape the
    page's picker starts on (``first``)."""

    def __init__(self, actions: dict[str, int], first: str):
        super().__init__(actions)
        self.first = first


def _legal(state, clickable_ok: bool, seat: int):
    """``seat``'s legal actions with their names: the player to move's, or in a
    simultaneous round (current player SIMULTANEOUS) that seat's own choices."""
    import pyspiel

    if state.is_terminal() or not clickable_ok:
        return []
    p = state.current_player()
    if p == pyspiel.PlayerId.SIMULTANEOUS:
        return [(a, state.action_to_string(seat, a)) for a in state.legal_actions(seat)]
    if p < 0:
        return []
    return [(a, state.action_to_string(p, a)) for a in state.legal_actions()]


def _split(legal, target_of):
    """Actions whose target cell is unique become clicks, the rest buttons."""
    by_target: dict = {}
    for a, name in legal:
        t = target_of(name)
        if t is not None:
            by_target.setdefault(t, []).append(a)
    clicks = {acts[0]: t for t, acts in by_target.items() if len(acts) == 1}
    buttons = [(a, name) for a, name in legal if a not in clicks]
    return clicks, buttons


def _svg(width, height, body) -> str:
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" class="board" width="{width:.0f}" '
        f'height="{height:.0f}" viewBox="0 0 {width:.0f} {height:.0f}">{"".join(body)}</svg>'
    )


def _cell_attrs(label, clicks_by_label) -> str:
    action = clicks_by_label.get(label)
    if action is None:
        return f'data-cell="{html.escape(label)}"'
    if isinstance(action, ShapedCell):  # the picker's shape decides (static/app.js)
        choices = " ".join(f"{shape}:{a}" for shape, a in action.items())
        current = action.get(action.first)
        now = "" if current is None else f' data-action="{current}"'
        return (
            f'class="cell{"" if current is None else " legal"}"{now} data-shape-actions='
            f'"{choices}" data-cell="{html.escape(label)}" tabindex="0"'
        )
    return f'class="cell legal" data-action="{action}" data-cell="{html.escape(label)}" tabindex="0"'


def draw(game_string: str, state, viewer_may_move: bool, viewer_seat: int = 0, version: str = "") -> Drawing:
    """The board as ``viewer_seat`` may see it. A game with hidden information
    is shown only through that seat's own observation (the drawings below read
    the whole position, which would show what the seat must not see).
    ``version``: a saved rule set's fingerprint (its board kind is then looked
    up once per process, not once per page)."""
    import pyspiel

    legal = _legal(state, viewer_may_move, viewer_seat)
    try:
        core = core_of(state)
    except ValueError:  # not one of this toolkit's games (OpenSpiel's own)
        core = None
    game_type = state.get_game().get_type()
    if game_type.information != pyspiel.GameType.Information.PERFECT_INFORMATION:
        # the seat's observation; a game without one (liars_dice) shows the seat's
        # information state (live.unplayable refuses a game with neither)
        if game_type.provides_observation_string:
            text = state.observation_string(viewer_seat)
        else:
            text = state.information_state_string(viewer_seat)
        if core is not None and game_string.startswith("ttt(") and hasattr(core, "player_view"):
            drawing = draw_ttt(
                game_string,
                core,
                legal,
                view=core.player_view(viewer_seat),
                version=version,
                viewer_seat=viewer_seat,
            )
            drawing.text = text
            return drawing
        return Drawing("", {}, legal, text=text)
    if core is not None and game_string.startswith("ttt("):
        return draw_ttt(game_string, core, legal, version=version)
    if (
        core is not None
        and hasattr(core, "board")
        and hasattr(core.board, "coords")
        and game_string.split("(")[0] in ("y_game", "defector_y", "double_o_y")
    ):
        return draw_y(core, legal)
    if core is not None and game_string.startswith("flipway"):
        return draw_flipway(core, legal)
    if core is not None and game_string.startswith("caeth_y"):
        return draw_caeth(core, legal)
    return Drawing("", {}, legal, text=text_with_coordinates(game_string, str(state)))


#: OpenSpiel's own games on the menu, shown as their text: which coordinates their
#: moves name (tic_tac_toe's "x(1,2)" is row 1, column 2 from the top left;
#: connect_four's "x3" is column 3), so the text gets those numbers around it
TEXT_COORDINATES = {"tic_tac_toe": ("rows", "columns above"), "connect_four": ("columns below",)}


def text_with_coordinates(game_string: str, text: str) -> str:
    """A game's text board with the coordinates its moves name: column numbers
    above or below the grid and row numbers beside it, counted from 0 as
    OpenSpiel names them. Text that is not a grid of one character per cell
    (or of a game not listed) is returned as it is."""
    labels = TEXT_COORDINATES.get(game_string.split("(")[0])
    rows = text.rstrip("\n").split("\n")
    width = len(rows[0]) if rows else 0
    if not labels or not 0 < width <= 10 or any(len(r) != width or " " in r for r in rows):
        return text
    columns = "".join(str(i) for i in range(width))
    pad = "  " if "rows" in labels else ""
    out = [f"{i} {r}" if pad else r for i, r in enumerate(rows)]
    if "columns above" in labels:
        out.insert(0, pad + columns)
    if "columns below" in labels:
        out.append(pad + columns)
    return "\n".join(out)


# -- tic-tac-toe rule sets ---------------------------------------------------------------
def _ttt_target(name: str):
    m = _PLACE.match(name)
    if not m:
        return None
    nums = tuple(int(v) for v in m.group(3).split(","))
    return ("stack",) + nums if m.group(2) else nums


def view_content(view, colours, shape_view=None):
    """What a seat's ``player_view`` shows in a cell, as the drawing's content:
    (colour, shape) for a piece it fully sees, ("obscured", colour) when it
    sees the colour but not the shape, "locked", or None (empty or a piece
    hidden from it). ``shape_view``: the seat's ``player_shape_view`` (shape
    letters) of a rule set with shapes; without it every piece is a circle."""
    from games.ttt._engine import COLOUR_CHARS

    out = []
    for c, ch in enumerate(view):
        if ch == "#":
            out.append("locked")
        elif ch == ".":
            out.append(None)
        elif ch.islower():
            shape = SHAPE_OF_LETTER.get(shape_view[c], "circle") if shape_view else "circle"
            out.append((colours[COLOUR_CHARS.index(ch)], shape))
        else:
            out.append(("obscured", colours[COLOUR_CHARS.index(ch.lower())]))
    return out


def plays_shapes(core) -> bool:
    """Whether the rule set plays shapes other than the circle (only then has
    the core a shape per cell to show)."""
    return hasattr(core, "shape_names") and list(core.shape_names()) != ["circle"]


_SHAPED_PLACE = re.compile(r"^(\w+)(@(?:stack)?\([\d,]+\)) (\w+)$")


def _split_shaped(legal):
    """A rule set with shapes names a placement "black@(1,2,1) triangle": one
    action per shape on each cell. Each shape whose placements have one
    action per cell becomes clickable through the page's shape picker:
    ({target: ShapedCell}, [(shape, colour)], the other actions). A shape
    placed in several ways on one cell (colours chosen by the player) stays
    buttons."""
    per_shape: dict[str, dict] = {}
    colour_of: dict[str, str] = {}
    for a, name in legal:
        m = _SHAPED_PLACE.match(name)
        target = _ttt_target(m.group(1) + m.group(2)) if m else None
        if target is not None:
            per_shape.setdefault(m.group(3), {}).setdefault(target, []).append(a)
            colour_of.setdefault(m.group(3), m.group(1))
    clickable = {
        shape: {t: acts[0] for t, acts in by_target.items()}
        for shape, by_target in per_shape.items()
        if all(len(acts) == 1 for acts in by_target.values())
    }
    if not clickable:
        return {}, [], legal
    first = next(iter(clickable))
    cells: dict = {}
    for shape, by_target in clickable.items():
        for t, a in by_target.items():
            cells.setdefault(t, ShapedCell({}, first))[shape] = a
    taken = {a for by_target in clickable.values() for a in by_target.values()}
    return (
        cells,
        [(shape, colour_of[shape]) for shape in clickable],
        [(a, name) for a, name in legal if a not in taken],
    )


@functools.lru_cache(maxsize=256)
def _versioned_kind(name: str, version: str) -> str:
    from games.ttt import rules as ttt_rules

    return ttt_rules.resolve(name).record["board"]["kind"]


def board_kind(name: str, version: str = "") -> str:
    """The board kind of rule set ``name``; with its fingerprint ``version`` the
    answer is kept (a renamed-and-reused name has another fingerprint), without
    it the rule set is resolved again."""
    if version:
        return _versioned_kind(name, version)
    return _versioned_kind.__wrapped__(name, version)


def draw_ttt(game_string: str, core, legal, view=None, version: str = "", viewer_seat: int = 0) -> Drawing:
    """A rule set's board. ``view``: seat ``viewer_seat``'s ``player_view``
    (hidden information: only what that seat sees is drawn, shapes from its
    ``player_shape_view``); None: the whole position (perfect information,
    where every seat sees it all)."""
    name = game_string[len("ttt(rules=") : -1]
    kind = board_kind(name, version)
    colours = list(core.reserves())
    size = len(view) if view is not None else len(core.cells())
    coords = [core.coords(c) for c in range(size)]
    X, Y, Z = (max(c[i] for c in coords) for i in range(3))
    shaped = plays_shapes(core)
    shaped_cells, picker, legal = _split_shaped(legal) if shaped else ({}, [], legal)
    clicks, buttons = _split(legal, _ttt_target)
    by_label = {v: k for k, v in clicks.items()}
    by_label.update(shaped_cells)
    clicks.update({a: t for t, cell in shaped_cells.items() for a in cell.values()})
    content = {}
    if view is not None:
        shape_view = core.player_shape_view(viewer_seat) if shaped else None
        for c, value in enumerate(view_content(view, colours, shape_view)):
            content[coords[c]] = value
    else:
        shapes = core.shapes() if shaped else ["circle"] * size
        for c, value in enumerate(core.cells()):
            content[coords[c]] = (
                None if value == 0 else "locked" if value < 0 else (colours[value - 1], shapes[c])
            )
    if kind == "stacks":
        svg = _stacks_svg(X, Y, Z, content, by_label)
    elif kind == "hexagons":
        svg = hexagons_svg(X, Y, content, by_label)
    elif kind == "tetrakis":
        svg = tetrakis_svg(X, Y, content, by_label)
    else:
        svg = plane_svg(kind, X, Y, Z, content, by_label)
    return Drawing(svg, clicks, buttons, shape_picker=picker)


def _piece(cx, cy, content, r=CELL * 0.36) -> str:
    """A cell's content (see ``draw_ttt``) drawn at (cx, cy)."""
    if content is None:
        return ""
    if content == "locked":
        return (
            f'<rect x="{cx - r:.1f}" y="{cy - r:.1f}" width="{2 * r:.1f}" height="{2 * r:.1f}" '
            f'class="locked" fill="#999"/>'
        )
    if content[0] == "obscured":  # the colour is seen, the shape is not
        return obscured_svg(content[1], cx, cy, r)
    colour, shape = content
    return piece_svg(shape, colour, cx, cy, r)


def plane_svg(kind, X, Y, Z, content, by_label) -> str:
    """Layers z = 1..Z side by side (a row or a plane when Z = 1), y = max at the top;
    a toroid is drawn as squares inside a dashed frame (its edges are joined)."""
    pad, gap = 24, 30
    W = X * CELL
    H = Y * CELL
    labels = _labels(by_label)
    body = []
    for z in range(1, Z + 1):
        ox = pad + (z - 1) * (W + gap)
        oy = pad
        if Z > 1:
            body.append(f'<text x="{ox}" y="{oy - 6}" class="layer">z={z}</text>')
        if kind == "hash":
            for i in range(1, X):
                body.append(
                    f'<line x1="{ox + i * CELL}" y1="{oy}" x2="{ox + i * CELL}" '
                    f'y2="{oy + H}" stroke="#333" stroke-width="3"/>'
                )
            for j in range(1, Y):
                body.append(
                    f'<line x1="{ox}" y1="{oy + j * CELL}" x2="{ox + W}" '
                    f'y2="{oy + j * CELL}" stroke="#333" stroke-width="3"/>'
                )
        elif kind == "vertices":
            for i in range(X):
                body.append(
                    f'<line x1="{ox + (i + 0.5) * CELL}" y1="{oy + CELL / 2}" '
                    f'x2="{ox + (i + 0.5) * CELL}" y2="{oy + H - CELL / 2}" stroke="#333"/>'
                )
            for j in range(Y):
                body.append(
                    f'<line x1="{ox + CELL / 2}" y1="{oy + (j + 0.5) * CELL}" '
                    f'x2="{ox + W - CELL / 2}" y2="{oy + (j + 0.5) * CELL}" stroke="#333"/>'
                )
        body.extend(_coord(ox + (x - 0.5) * CELL, oy + H + 16, x) for x in range(1, X + 1))
        body.extend(_coord(ox - 6, oy + (Y - y + 0.5) * CELL + 4, y, "end") for y in range(1, Y + 1))
        if kind == "toroid":  # the opposite edges are joined: dashed, with a title saying so
            body.append(
                f'<rect x="{ox - 4}" y="{oy - 4}" width="{W + 8}" height="{H + 8}" fill="none" '
                f'stroke="#2a55b8" stroke-dasharray="6 4" class="toroid-edge">'
                "<title>Squares on Toroid: the opposite edges are joined</title></rect>"
            )
        for x in range(1, X + 1):
            for y in range(1, Y + 1):
                cx, cy = ox + (x - 0.5) * CELL, oy + (Y - y + 0.5) * CELL
                label = (x, y, z)
                attrs = _cell_attrs(label_text(label), labels)
                if kind in ("squares", "toroid"):
                    body.append(
                        f'<rect x="{cx - CELL / 2}" y="{cy - CELL / 2}" width="{CELL}" '
                        f'height="{CELL}" fill="#e8dcc0" stroke="#333"/>'
                    )
                body.append(
                    f'<g {attrs}><rect x="{cx - CELL / 2}" y="{cy - CELL / 2}" '
                    f'width="{CELL}" height="{CELL}" fill="transparent" class="hit"/>'
                    f"{_piece(cx, cy, content.get(label))}</g>"
                )
    return _svg(2 * pad + Z * W + (Z - 1) * gap, 2 * pad + H, body)


def hexagons_svg(X, Y, content, by_label) -> str:
    """Hexagons (docs/rules/ttt/boards.md): the rhombus of axial coordinates as
    Hex draws it, y = max at the top and each row half a hexagon right of the
    one below, so (x, y) touches (x+-1, y), (x, y+-1), (x+1, y-1) and (x-1, y+1).
    Several boards lie side by side along x like the other kinds' cells."""
    pad, r = 24, CELL * 0.55
    w, h = r * math.sqrt(3), r * 1.5
    labels = _labels(by_label)
    body = []
    for x in range(1, X + 1):
        for y in range(1, Y + 1):
            cx = pad + (x - 0.5) * w + (y - 1) * w / 2
            cy = pad + r + (Y - y) * h
            attrs = _cell_attrs(label_text((x, y, 1)), labels)
            body.append(
                f'<g {attrs}><polygon points="{_hexagon(cx, cy, r)}" fill="#e8dcc0" stroke="#333" '
                f'class="hit hexagon"/>{_piece(cx, cy, content.get((x, y, 1)))}</g>'
            )
            if y == 1:
                body.append(_coord(cx, cy + r + 14, x))
            if x == 1:
                body.append(_coord(cx - w / 2 - 4, cy + 4, y, "end"))
    return _svg(2 * pad + (X + (Y - 1) / 2) * w, 2 * pad + 2 * r + (Y - 1) * h + 8, body)


def tetrakis_svg(X, Y, content, by_label) -> str:
    """Tetrakis squares (docs/rules/ttt/boards.md): x by y squares, y = max at
    the top, each cut by its diagonals into triangles t = 1 N (top), 2 E, 3 S,
    4 W, each a clickable polygon with its piece at its centroid."""
    pad = 24
    labels = _labels(by_label)
    body = []
    for x in range(1, X + 1):
        for y in range(1, Y + 1):
            left, top = pad + (x - 1) * CELL, pad + (Y - y) * CELL
            right, bottom, centre = left + CELL, top + CELL, (left + CELL / 2, top + CELL / 2)
            sides = (((left, top), (right, top)), ((right, top), (right, bottom)))
            sides += (((right, bottom), (left, bottom)), ((left, bottom), (left, top)))
            for t, (a, b) in enumerate(sides, start=1):
                points = " ".join(f"{px:.1f},{py:.1f}" for px, py in (a, b, centre))
                cx, cy = (a[0] + b[0] + centre[0]) / 3, (a[1] + b[1] + centre[1]) / 3
                attrs = _cell_attrs(label_text((x, y, t)), labels)
                body.append(
                    f'<g {attrs}><polygon points="{points}" fill="#e8dcc0" stroke="#333" '
                    f'class="hit triangle"/>{_piece(cx, cy, content.get((x, y, t)), CELL * 0.14)}</g>'
                )
    body.extend(_coord(pad + (x - 0.5) * CELL, pad + Y * CELL + 16, x) for x in range(1, X + 1))
    body.extend(_coord(pad - 6, pad + (Y - y + 0.5) * CELL + 4, y, "end") for y in range(1, Y + 1))
    return _svg(2 * pad + X * CELL, 2 * pad + Y * CELL, body)


def label_text(t) -> str:
    if t and t[0] == "stack":
        return f"stack({t[1]},{t[2]})"
    return "(" + ",".join(str(v) for v in t) + ")"


def _labels(by_label):
    return {label_text(k): v for k, v in by_label.items()}


STACK_BOARD, STACK_HOLE, STACK_RIM = "#4a78d0", "#0f2350", "#fafafa"
FULL_STACKS = 8  # stacks at most this tall are drawn whole (Connect4's 6)


def _stacks_svg(X, Y, Z, content, by_label) -> str:
    """Columns per post (x, y); rows y side by side, each under its "y=" label
    when there are several. Stacks at most ``FULL_STACKS`` high are drawn
    whole, as a Connect4 frame is seen; taller ones show two rows above the
    tallest stack (the tic-tac-toe variations specification), the maximum
    height in the upper left corner. Colours contrast: a mid-blue frame, dark
    empty holes, a light rim around every piece (a black disc is told from an
    empty hole, a white one from the frame)."""
    tallest = max([z for (x, y, z), v in content.items() if v and v != "locked"] or [0])
    shown = Z if Z <= FULL_STACKS else min(Z, tallest + 2)
    pad, gap = 24, 30
    W, H = X * CELL, shown * CELL
    labels = _labels(by_label)
    body = [] if shown == Z else [f'<text x="4" y="14" class="maxheight">max height {Z}</text>']
    for y in range(1, Y + 1):
        ox, oy = pad + (y - 1) * (W + gap), pad
        if Y > 1:
            body.append(f'<text x="{ox}" y="{oy - 6}" class="coord">y={y}</text>')
        for x in range(1, X + 1):
            label = label_text(("stack", x, y))
            col = [
                f'<rect x="{ox + (x - 1) * CELL}" y="{oy}" width="{CELL}" height="{H}" '
                f'fill="{STACK_BOARD}" stroke="#123" class="hit"/>'
            ]
            top = max([z for z in range(1, shown + 1) if content.get((x, y, z))] or [0])
            for z in range(1, shown + 1):
                cx, cy = ox + (x - 0.5) * CELL, oy + (shown - z + 0.5) * CELL
                v = content.get((x, y, z))
                piece = _piece(cx, cy, v, CELL * 0.33)
                where = f'data-at="({x},{y},{z})"' + (
                    ' class="top"' if z == top else ""
                )  # a move lands on top
                col.append(
                    f'<circle cx="{cx}" cy="{cy}" r="{CELL * 0.38:.1f}" fill="{STACK_RIM}" class="rim"/>'
                    + f"<g {where}>{piece}</g>"
                    if v
                    else f'<circle cx="{cx}" cy="{cy}" r="{CELL * 0.36}" fill="{STACK_HOLE}" class="hole"/>'
                )
            body.append(f"<g {_cell_attrs(label, labels)}>{''.join(col)}</g>")
            body.append(_coord(ox + (x - 0.5) * CELL, oy + H + 16, x))
    return _svg(2 * pad + Y * W + (Y - 1) * gap, 2 * pad + H, body)


def _coord(x, y, text, anchor="middle") -> str:
    """A coordinate written beside a board (the names moves are given in)."""
    return f'<text x="{x:.1f}" y="{y:.1f}" text-anchor="{anchor}" class="coord">{text}</text>'


# -- Y family --------------------------------------------------------------------------
def _hexagon(cx, cy, r) -> str:
    pts = " ".join(
        f"{cx + r * math.cos(math.radians(60 * k + 30)):.1f},"
        f"{cy + r * math.sin(math.radians(60 * k + 30)):.1f}"
        for k in range(6)
    )
    return pts


def draw_y(core, legal) -> Drawing:
    board = core.board
    names = list(board.names)
    index = {n: i for i, n in enumerate(names)}
    clicks, buttons = _split(legal, lambda name: name if name in index else None)
    by_label = {v: k for k, v in clicks.items()}
    colours = core.cell_colours()
    rows: dict[int, int] = {}
    for r, c in board.coords:
        rows[r] = max(rows.get(r, 0), c + 1)
    widest = max(rows.values())
    R = CELL * 0.55
    dx, dy = R * math.sqrt(3), R * 1.5
    margin = R * 1.2
    body = []
    for i, (r, c) in enumerate(board.coords):
        cx = margin + dx / 2 + (c + (widest - rows[r]) / 2) * dx
        cy = margin + R + r * dy
        v = colours[i]
        fill = Y_FILL.get(v, "#e8dcc0")
        # an empty cell shows its name (the names moves are given in: "last move: d1")
        name = "" if v else _coord(cx, cy + 4, names[i])
        body.append(
            f'<g {_cell_attrs(names[i], by_label)}><polygon points="{_hexagon(cx, cy, R)}" '
            f'fill="{fill}" stroke="#555" class="hit{" stone" if v else ""}"/>'
            f"{name}<title>{names[i]}</title></g>"
        )
    width = 2 * margin + widest * dx
    height = 2 * margin + 2 * R + (len(rows) - 1) * dy
    return Drawing(_svg(width, height, body), clicks, buttons)


# -- Flipway ---------------------------------------------------------------------------
def flipway_point(i: int, n: int) -> str:
    """Point ``i`` of an ``n``x``n`` Flipway board as its moves name it: column letter,
    then row counted from the bottom."""
    return f"{chr(ord('a') + i % n)}{n - i // n}"


def draw_flipway(core, legal) -> Drawing:
    colours = core.cell_colours()
    n = int(round(math.sqrt(len(colours))))
    names = [flipway_point(i, n) for i in range(len(colours))]
    index = {name: i for i, name in enumerate(names)}
    clicks, buttons = _split(legal, lambda name: name if name in index else None)
    by_label = {v: k for k, v in clicks.items()}
    pad = CELL
    body = []
    for i in range(n):
        body.append(
            f'<line x1="{pad}" y1="{pad + i * CELL}" x2="{pad + (n - 1) * CELL}" '
            f'y2="{pad + i * CELL}" stroke="#333"/>'
        )
        body.append(
            f'<line x1="{pad + i * CELL}" y1="{pad}" x2="{pad + i * CELL}" '
            f'y2="{pad + (n - 1) * CELL}" stroke="#333"/>'
        )
    for i, v in enumerate(colours):
        cx, cy = pad + (i % n) * CELL, pad + (i // n) * CELL
        fill = Y_FILL.get(v)
        stone = (
            f'<circle cx="{cx}" cy="{cy}" r="{CELL * 0.4}" fill="{fill}" stroke="#000" class="stone"/>'
            if fill
            else f'<circle cx="{cx}" cy="{cy}" r="{CELL * 0.4}" fill="transparent" class="hit"/>'
        )
        body.append(f"<g {_cell_attrs(names[i], by_label)}>{stone}<title>{names[i]}</title></g>")
    for i in range(n):  # letters along the foot, numbers down the side: "d1", "flip a3"
        body.append(_coord(pad + i * CELL, pad + (n - 1) * CELL + 28, chr(ord("a") + i)))
        body.append(_coord(pad - 24, pad + i * CELL + 4, n - i, "end"))
    return Drawing(_svg(2 * pad + (n - 1) * CELL, 2 * pad + (n - 1) * CELL, body), clicks, buttons)


# -- Caeth Y ---------------------------------------------------------------------------
CAETH_EDGE = {1: "#222", 2: "#fafafa"}


def _band(x1, y1, x2, y2, half) -> str:
    """The rectangle of half-width ``half`` around the segment, as SVG points."""
    length = math.hypot(x2 - x1, y2 - y1)
    nx, ny = -(y2 - y1) / length * half, (x2 - x1) / length * half
    return " ".join(
        f"{x:.1f},{y:.1f}"
        for x, y in ((x1 + nx, y1 + ny), (x2 + nx, y2 + ny), (x2 - nx, y2 - ny), (x1 - nx, y1 - ny))
    )


def draw_caeth(core, legal) -> Drawing:
    """Caeth Y (docs/rules/caeth_y.md): the triangle's vertices and the edges
    between adjacent ones. A free edge the viewer may capture is a click (a
    transparent band around it is the target: the visible line is too thin to
    hit, and a horizontal line alone has no height, which a browser treats as
    not visible); a captured edge is a thick line in its player's colour (White's
    outlined so it shows on the board); a controlled vertex is a disc in its
    controller's colour, an uncontrolled one a small grey dot. Swap, when the
    game offers it, stays a button (it is not an edge)."""
    g = core.geometry
    edges, names = list(g.edges), list(g.names)
    index = {name: e for e, name in enumerate(names)}
    clicks, buttons = _split(legal, lambda name: name if name in index else None)
    by_label = {v: k for k, v in clicks.items()}
    owners, controllers = core.edge_owners(), core.vertex_controllers()
    coords = list(g.board.coords)
    vnames = list(g.board.names)
    n = max(r for r, _ in coords) + 1
    D, pad = CELL * 1.3, CELL * 0.8
    at = [(pad + (c + (n - 1 - r) / 2) * D, pad + r * D * math.sqrt(3) / 2) for r, c in coords]
    body = [
        f'<polygon points="{at[0][0]:.1f},{at[0][1] - 12:.1f} '
        f'{at[-1][0] + 14:.1f},{at[-1][1] + 8:.1f} {pad - 14:.1f},{at[-1][1] + 8:.1f}" '
        f'fill="#e8dcc0"/>'
    ]
    for e, (u, v) in enumerate(edges):
        (x1, y1), (x2, y2) = at[u], at[v]
        line = f'x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" y2="{y2:.1f}"'
        owner = owners[e]
        if owner:
            look = (
                f'<line {line} stroke="#222" stroke-width="9" stroke-linecap="round"/>'
                f'<line {line} stroke="{CAETH_EDGE[owner]}" stroke-width="6" '
                f'stroke-linecap="round" class="captured p{owner}"/>'
            )
        else:
            look = f'<line {line} stroke="#8a7a5a" stroke-width="2" stroke-dasharray="4 3"/>'
        hit = f'<polygon points="{_band(x1, y1, x2, y2, 7)}" fill="transparent" class="hit"/>'
        body.append(
            f'<g {_cell_attrs(names[e], by_label)} data-edge="{e}">{look}{hit}<title>{names[e]}</title></g>'
        )
    for v, (x, y) in enumerate(at):
        who = controllers[v]
        if who:
            body.append(
                f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{CELL * 0.3:.1f}" '
                f'fill="{Y_FILL[who]}" stroke="#000" stroke-width="2" '
                f'class="vertex controlled p{who}"><title>{vnames[v]}</title></circle>'
            )
        else:
            body.append(
                f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{CELL * 0.12:.1f}" fill="#777" '
                f'class="vertex"><title>{vnames[v]}</title></circle>'
            )
    width = 2 * pad + (n - 1) * D
    height = 2 * pad + (n - 1) * D * math.sqrt(3) / 2
    return Drawing(_svg(width, height, body), clicks, buttons)


def mark(drawing: Drawing, cell: str | None, what: str) -> Drawing:
    """Mark the drawn cell named ``cell`` (its ``data-cell``, or a stacked
    piece's ``data-at``) as ``what``: "win" (a winning line's or group's cell)
    or "last" (the last move's), highlighted by style.css; a
    cell may have both ("win last"); nothing if no cell has that name."""
    if cell and drawing.svg:
        for attr in ("data-cell", "data-at"):
            target = f'{attr}="{html.escape(cell)}"'
            if target in drawing.svg:
                marked = re.search(re.escape(target) + r' data-mark="([^"]*)"', drawing.svg)
                if marked:
                    drawing.svg = drawing.svg.replace(
                        marked.group(0), f'{target} data-mark="{marked.group(1)} {what}"', 1
                    )
                else:
                    drawing.svg = drawing.svg.replace(target, f'{target} data-mark="{what}"', 1)
                break
    return drawing


def revealed(game_string: str, state, version: str = "") -> str:
    """The whole board of a finished tic-tac-toe rule set with hidden
    information, hidden pieces included (the game is over: nothing is
    hidden any more); "" for other games."""
    if not state.is_terminal() or not game_string.startswith("ttt("):
        return ""
    try:
        core = core_of(state)
    except ValueError:
        return ""
    return draw_ttt(game_string, core, [], version=version).svg
