"""The tic-tac-toe variations specification's six shapes drawn as themselves (webapp/shapes.py): on the game
page for every board kind and view (squares, vertices, hash, stacks, toroid,
hexagons; a row, a plane, 3D layers), and for hidden information only as the viewing seat sees
it (cloaking hides: nothing; obscures: the neutral mark of its colour).
The browser half (the Factory placing shaped starting pieces, screenshots)
is in tests/test_webapp_browser.py."""

from __future__ import annotations

import math
import re

import pytest

from games.ttt import schema
from registry import Registry, rulesets
from test_webapp import Browser, make_users
from webapp import create_app
from webapp.shapes import OUTLINES, piece_svg

SHAPES = list(schema.SHAPES_ALL)
# points of each polygon outline (None: an SVG circle)
CORNERS = {"circle": None, "triangle": 3, "x": 12, "cross": 12, "star": 10, "pentagon": 5}
# (name, kind, size, where the i-th starting piece goes)
LAYOUTS = [
    ("Shapes-Squares", "squares", [4, 4, 1], lambda i: [1 + i % 4, 1 + i // 4, 1]),
    ("Shapes-Vertices", "vertices", [4, 4, 1], lambda i: [1 + i % 4, 1 + i // 4, 1]),
    ("Shapes-Hash", "hash", [3, 3, 1], lambda i: [1 + i % 3, 1 + i // 3, 1]),
    ("Shapes-Stacks", "stacks", [3, 2, 4], lambda i: [1 + i % 3, 1 + i // 3, 1]),
    ("Shapes-Row", "squares", [8, 1, 1], lambda i: [1 + i, 1, 1]),
    ("Shapes-3D", "squares", [3, 3, 2], lambda i: [1 + i % 3, 1 + (i // 3) % 3, 1 + i // 3]),
    ("Shapes-Toroid", "toroid", [4, 4, 1], lambda i: [1 + i % 4, 1 + i // 4, 1]),
    ("Shapes-Hexagons", "hexagons", [4, 4, 1], lambda i: [1 + i % 4, 1 + i // 4, 1]),
    ("Shapes-Tetrakis", "tetrakis", [2, 2, 4], lambda i: [1 + i % 2, 1 + (i // 2) % 2, 1 + i // 4]),
]


def shapes_record(name, kind, size, at, **extra) -> dict:
    """Every shape in play and one starting piece of each, colours alternating."""
    record = {
        "name": name,
        "board": {
            "kind": kind,
            "size": size,
            "pieces": [
                {"at": at(i), "colour": ("black", "white")[i % 2], "shape": s} for i, s in enumerate(SHAPES)
            ],
        },
        "shapes": {s: {"move": "stationary"} for s in SHAPES},
        "reserves": {c: {s: 1 for s in SHAPES} for c in ("black", "white")},
        "turn_checks": ["first-4-wins"],
    }
    record.update(extra)
    return record


@pytest.fixture
def app(tmp_path):
    return create_app(tmp_path / "r.sqlite3", secret_key=b"k" * 32, benchmark_games=2, testing=True)


def pieces_drawn(page: str) -> list[tuple[str, str, str]]:
    """(tag, colour, shape) of every piece in a page's board."""
    board = page[page.index('<svg xmlns="http://www.w3.org/2000/svg" class="board"') :]
    board = board[: board.index("</svg>")]
    return re.findall(r'<(circle|polygon)[^>]*class="piece (\w+) shape-(\w+)"', board)


def test_each_outline_fits_its_piece_and_is_distinct():
    for shape, corners in CORNERS.items():
        svg = piece_svg(shape, "pink", 50, 50, 10)
        if corners is None:
            assert svg.startswith("<circle") and 'r="10.0"' in svg
            continue
        points = [
            tuple(map(float, p.split(","))) for p in re.search(r'points="([^"]+)"', svg).group(1).split()
        ]
        assert len(points) == corners
        assert all(((x - 50) ** 2 + (y - 50) ** 2) ** 0.5 <= 10.05 for x, y in points)
        assert max(((x - 50) ** 2 + (y - 50) ** 2) ** 0.5 for x, y in points) > 9.9  # fills its radius
    assert len({str(OUTLINES[s]) for s in SHAPES}) == len(SHAPES)
    with pytest.raises(ValueError, match="unknown shape 'hexagon'"):
        piece_svg("hexagon", "black", 0, 0, 1)


@pytest.mark.parametrize("name,kind,size,at", LAYOUTS, ids=[layout[0] for layout in LAYOUTS])
def test_every_shape_drawn_on_every_board_kind(app, name, kind, size, at):
    make_users(app)
    with Registry(app.config["REGISTRY_DB"]) as reg:
        rulesets.save_rule_set(reg, "ada", shapes_record(name, kind, size, at))
    cy = Browser(app, "cy")
    url = cy.post("/play/new", game=name, universe="Public", seat0="cy", seat1="Random").headers["Location"]
    page = cy.get(url).text
    drawn = pieces_drawn(page)
    assert sorted(drawn) == sorted(
        ("circle" if s == "circle" else "polygon", ("black", "white")[i % 2], s) for i, s in enumerate(SHAPES)
    )
    for shape, corners in CORNERS.items():
        if corners:
            element = re.search(rf'<polygon points="([^"]+)"[^>]*shape-{shape}"', page).group(1)
            assert len(element.split()) == corners


@pytest.mark.parametrize("kind,mark", [("hexagons", 'class="hit hexagon"'), ("toroid", 'class="hit"')])
def test_toroid_and_hexagons_drawn_as_grids_of_clickable_cells(app, kind, mark):
    """Every empty cell of a 4 by 3 board is one clickable legal cell, drawn as a
    hexagon on hexagons (rows half a hexagon apart) and as a square on a toroid,
    whose dashed frame says its edges are joined."""
    make_users(app)
    name = f"Grid-{kind}"
    record = {
        "name": name,
        "board": {"kind": kind, "size": [4, 3, 1]},
        "reserves": {"black": 6, "white": 6},
        "turn_checks": ["first-3-wins"],
    }
    with Registry(app.config["REGISTRY_DB"]) as reg:
        rulesets.save_rule_set(reg, "ada", record)
    cy = Browser(app, "cy")
    url = cy.post("/play/new", game=name, universe="Public", seat0="cy", seat1="Random").headers["Location"]
    page = cy.get(url).text
    assert len(re.findall(r'class="cell legal"', page)) == 12
    assert page.count(mark) == 12
    labels = set(re.findall(r'data-cell="\((\d),(\d),1\)"', page))
    assert labels == {(str(x), str(y)) for x in range(1, 5) for y in range(1, 4)}
    assert ("toroid-edge" in page) == (kind == "toroid")
    if kind == "hexagons":  # drawn touching exactly when they are neighbours
        centre = {}
        for x, y, points in re.findall(r'data-cell="\((\d),(\d),1\)"[^>]*><polygon points="([^"]+)"', page):
            xy = [tuple(map(float, p.split(","))) for p in points.split()]
            centre[int(x), int(y)] = (sum(p[0] for p in xy) / 6, sum(p[1] for p in xy) / 6)
        step = min(math.dist(a, b) for a in centre.values() for b in centre.values() if a != b)
        for (x, y), a in centre.items():
            touching = {c for c, b in centre.items() if b != a and math.dist(a, b) < step * 1.1}
            steps = ((1, 0), (-1, 0), (0, 1), (0, -1), (1, -1), (-1, 1))
            assert touching == {(x + dx, y + dy) for dx, dy in steps} & set(centre), (x, y)


def test_tetrakis_squares_drawn_as_clickable_triangles(app):
    """Every triangle of 3 by 2 tetrakis squares is one clickable legal cell,
    and two triangles drawn sharing a side (two corners) are the neighbours of
    docs/rules/ttt/boards.md: the two of its square across its diagonals and
    the one across its square's side."""
    make_users(app)
    record = {
        "name": "Grid-tetrakis",
        "board": {"kind": "tetrakis", "size": [3, 2, 4]},
        "reserves": {"black": 12, "white": 12},
        "turn_checks": ["first-4-wins"],
    }
    with Registry(app.config["REGISTRY_DB"]) as reg:
        rulesets.save_rule_set(reg, "ada", record)
    cy = Browser(app, "cy")
    url = cy.post("/play/new", game=record["name"], universe="Public", seat0="cy", seat1="Random")
    page = cy.get(url.headers["Location"]).text
    assert len(re.findall(r'class="cell legal"', page)) == 24
    assert page.count('class="hit triangle"') == 24
    corners = {
        (int(x), int(y), int(t)): set(points.split())
        for x, y, t, points in re.findall(
            r'data-cell="\((\d),(\d),(\d)\)"[^>]*><polygon points="([^"]+)"', page
        )
    }
    assert len(corners) == 24
    across = {1: (0, 1, 3), 2: (1, 0, 4), 3: (0, -1, 1), 4: (-1, 0, 2)}  # N E S W: the side's neighbour
    for (x, y, t), pts in corners.items():
        touching = {c for c, other in corners.items() if c != (x, y, t) and len(pts & other) == 2}
        dx, dy, u = across[t]
        expected = {(x, y, t % 4 + 1), (x, y, (t - 2) % 4 + 1)} | ({(x + dx, y + dy, u)} & set(corners))
        assert touching == expected, (x, y, t)


def cloaked_record(name: str, cloaking: str) -> dict:
    """3x3 squares, every space cloaked in the only phase, three shapes each."""
    every = [[x, y, 1] for x in (1, 2, 3) for y in (1, 2, 3)]
    return {
        "name": name,
        "board": {"kind": "squares", "size": [3, 3, 1]},
        "shapes": {s: {"move": "stationary"} for s in ("circle", "triangle", "star")},
        "reserves": {c: {"circle": 2, "triangle": 2, "star": 1} for c in ("black", "white")},
        "cloaking": cloaking,
        "phases": [{"cloaked": every}],
        "turn_checks": ["first-3-wins"],
    }


@pytest.mark.parametrize("cloaking", ["hides", "obscures"])
def test_hidden_pieces_drawn_only_as_the_viewer_sees_them(app, cloaking):
    """cy (black) places a triangle and a star; Random (white) answers on
    cloaked spaces. cy's page draws its own pieces in their shapes and
    Random's not at all (hides) or as neutral white marks, never their
    shapes (obscures), counted against the full position."""
    from test_webapp import live

    make_users(app)
    name = f"Shapes-Cloak-{cloaking}"
    with Registry(app.config["REGISTRY_DB"]) as reg:
        rulesets.save_rule_set(reg, "ada", cloaked_record(name, cloaking))
    cy = Browser(app, "cy")
    for _ in range(20):  # until no placement was an attempt on a hidden piece (a reveal)
        url = cy.post("/play/new", game=name, universe="Public", seat0="cy", seat1="Random").headers[
            "Location"
        ]
        for shape in ("triangle", "star"):
            state = live(app, url).state
            action = next(
                a for a in state.legal_actions() if state.action_to_string(0, a).endswith(" " + shape)
            )
            assert cy.post(url + "/move", action=str(action)).status_code == 200
        cells = live(app, url).state.core.cells()
        if cells.count(1) == 2 and cells.count(2) == 2:
            break
    else:
        raise AssertionError("every game had an attempt")
    page = cy.get(url).text
    assert sorted(pieces_drawn(page)) == [("polygon", "black", "star"), ("polygon", "black", "triangle")]
    obscured = re.findall(r'class="piece obscured (\w+)"', page)
    assert obscured == (["white", "white"] if cloaking == "obscures" else [])


def test_a_click_places_the_shape_picked(app):
    """With shapes every empty cell carries one placement per shape
    (data-shape-actions), each the legal action that places that shape there,
    and the picker offers each shape; no placement is left as a button."""
    from test_webapp import live

    make_users(app)
    name, kind, size, at = LAYOUTS[0]
    with Registry(app.config["REGISTRY_DB"]) as reg:
        rulesets.save_rule_set(reg, "ada", shapes_record(name, kind, size, at))
    cy = Browser(app, "cy")
    url = cy.post("/play/new", game=name, universe="Public", seat0="cy", seat1="Random").headers["Location"]
    page = cy.get(url).text
    state = live(app, url).state
    picker = re.findall(r'<input type="radio" name="shape" value="(\w+)"', page)
    assert picker == SHAPES
    cells = re.findall(
        r'class="cell legal" data-action="(\d+)" data-shape-actions="([^"]+)" '
        r'data-cell="\((\d+),(\d+),1\)"',
        page,
    )
    assert len(cells) == 16 - len(SHAPES)
    for first, choices, x, y in cells:
        pairs = dict(pair.split(":") for pair in choices.split())
        assert list(pairs) == SHAPES and pairs["circle"] == first
        for shape, action in pairs.items():
            assert state.action_to_string(0, int(action)) == f"black@({x},{y},1) {shape}"
    assert not re.findall(r'<button class="move" name="action" value="\d+">black@', page)
    star = dict(pair.split(":") for pair in cells[0][1].split())["star"]
    cy.post(url + "/move", action=star)
    x, y = cells[0][2:]
    assert re.search(
        rf'data-cell="\({x},{y},1\)"><rect[^>]*/><polygon[^>]*class="piece black shape-star"',
        cy.get(url).text,
    )


def test_more_shapes_keep_and_copy_the_reserves_as_the_specification_says(app):
    """The tic-tac-toe variations specification: changing the shapes adds
    reserve selects, "default the values in added integer selects to those in
    the highest-numbered existing shape". From one shape to three the circle
    keeps its counts (its select was named per colour only) and the new shapes
    start with them; back to one, the circle's counts stay."""
    from test_webapp import factory_form

    make_users(app)
    cy = Browser(app, "cy")
    form = factory_form(**{"reserves.black": "5", "reserves.white": "4", "op": "redraw", "shape_count": "3"})
    page = cy.post("/factory", **form).text
    for colour, count in (("black", 5), ("white", 4)):
        for shape in ("circle", "triangle", "x"):
            select = re.search(rf'<select name="reserves.{colour}.{shape}".*?</select>', page, re.S).group(0)
            assert re.search(rf'<option value="{count}" selected>', select), (colour, shape)
    form = factory_form(
        **{
            "reserves.black.circle": "6",
            "reserves.white.circle": "2",
            "reserves.black.triangle": "1",
            "op": "redraw",
            "shape_count": "1",
        }
    )
    del form["reserves.black"], form["reserves.white"]
    page = cy.post("/factory", **form).text
    for colour, count in (("black", 6), ("white", 2)):
        select = re.search(rf'<select name="reserves.{colour}".*?</select>', page, re.S).group(0)
        assert re.search(rf'<option value="{count}" selected>', select), colour
