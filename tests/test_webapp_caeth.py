"""Caeth Y drawn as SVG on the game page (webapp/boards.py ``draw_caeth``),
checked against the from-scratch model tests/caeth_reference.py: after every
move of random games, each edge is drawn once between the two vertices the
model says it joins, captured edges carry their owner's colour, exactly the
model's free edges are clickable (and only for the seat to move), controlled
vertices are marked with their controller, and the swap is a button exactly
when the model offers it. Then the swap is played through the app."""

from __future__ import annotations

import html
import math
import random
import re

import pyspiel
import pytest

import games  # noqa: F401
from caeth_reference import CaethReference
from test_webapp import Browser, live, make_users, play_to_end
from webapp import boards, create_app

EDGE = re.compile(r'<g ([^>]*)data-edge="(\d+)">(.*?)</g>')
LINE = re.compile(r'<line x1="([\d.]+)" y1="([\d.]+)" x2="([\d.]+)" y2="([\d.]+)"')
VERTEX = re.compile(
    r'<circle cx="([\d.]+)" cy="([\d.]+)" r="[\d.]+" fill="[^"]+" '
    r'(?:stroke="#000" stroke-width="2" )?class="vertex( controlled p(\d))?"'
)


def parse(svg: str):
    """{edge: (attrs, ((x1, y1), (x2, y2)), owner or 0)}, [(x, y, controller or 0)]."""
    edges = {}
    for attrs, e, inner in EDGE.findall(svg):
        x1, y1, x2, y2 = map(float, LINE.search(inner).groups())
        owner = re.search(r'class="captured p(\d)"', inner)
        edges[int(e)] = (attrs, ((x1, y1), (x2, y2)), int(owner.group(1)) if owner else 0)
    vertices = [(float(x), float(y), int(p) if p else 0) for x, y, _, p in VERTEX.findall(svg)]
    return edges, vertices


def check_drawing(ref: CaethReference, state, seat: int) -> None:
    game_string = f"caeth_y(board_size={ref.size},swap={'true' if ref.swap_rule else 'false'})"
    may_move = ref.current_player() == seat
    d = boards.draw(game_string, state, may_move, seat)
    edges, vertices = parse(d.svg)
    assert sorted(edges) == list(range(len(ref.edges)))
    assert [p for _, _, p in vertices] == ref.controllers()
    owners = ref.edge_owners()
    legal = set(ref.legal()) if may_move else set()
    side = None
    for e, (attrs, (a, b), owner) in edges.items():
        u, v = ref.edges[e]
        ends = {(round(x, 1), round(y, 1)) for x, y, _ in (vertices[u], vertices[v])}
        assert {(round(a[0], 1), round(a[1], 1)), (round(b[0], 1), round(b[1], 1))} == ends
        length = math.dist(a, b)
        side = side or length
        assert abs(length - side) < 0.2  # adjacent vertices: one lattice step
        assert owner == owners[e]
        clickable = re.search(r'data-action="(\d+)"', attrs)
        assert (clickable is not None) == (e in legal)
        if clickable:
            assert int(clickable.group(1)) == e and d.clickable[e] == ref.name(e)
    assert [a for a, _ in d.buttons] == ([ref.swap_action] if ref.swap_action in legal else [])


@pytest.mark.parametrize("size,swap", [(2, False), (3, True), (4, True), (5, False)])
def test_caeth_drawing_follows_the_reference_move_by_move(size, swap):
    rng = random.Random(size * 10 + swap)
    for _ in range(3):
        ref = CaethReference(size, swap)
        state = pyspiel.load_game(
            f"caeth_y(board_size={size},swap={'true' if swap else 'false'})"
        ).new_initial_state()
        while True:
            for seat in (0, 1):
                check_drawing(ref, state, seat)
            if state.is_terminal():
                assert ref.winner() is not None
                break
            action = rng.choice(ref.legal())
            ref.apply(action)
            state.apply_action(action)


def test_caeth_swap_is_played_through_the_app(tmp_path):
    app = create_app(tmp_path / "r.sqlite3", secret_key=b"k" * 32, benchmark_games=2, testing=True)
    make_users(app)
    cy = Browser(app, "cy")
    game = "caeth_y(board_size=4,swap=true)"
    url = cy.post("/play/new", game=game, universe="Public", seat0="Random", seat1="cy").headers["Location"]
    page = html.unescape(cy.get(url).text)
    swap = re.search(r'<button class="move" name="action" value="(\d+)">swap</button>', page)
    assert swap, page  # Random opened; cy may swap
    opened = live(app, url).moves[0]
    assert page.count('class="captured p1"') == 1
    r = cy.post(url + "/move", action=swap.group(1), at="1")
    assert r.status_code == 200
    g = live(app, url)
    assert g.moves[:2] == [opened, int(swap.group(1))]
    page = html.unescape(cy.get(url).text)
    # the opening edge is White's now (and Random, Black, has answered with one edge)
    edges, _ = parse(page[page.index("<svg") : page.index("</svg>")])
    assert edges[opened][2] == 2 and sum(1 for *_, o in edges.values() if o == 1) == 1
    assert ">swap<" not in page
    assert "Game over" in play_to_end(cy, url)
