"""The six piece shapes of the tic-tac-toe variations specification as SVG, one geometry for the game page
and the Player Factory.

Why one table of unit outlines (radius 1, centred on 0, y down as in SVG):
the game page draws pieces on the server (``webapp.boards``) while the
Factory draws its preview in the browser (``static/factory.js``); the page
hands this same table to the script (``outlines_json``), so a shape looks
the same in both and is defined once. A circle is an SVG ``circle``; every
other shape is a filled ``polygon`` in the piece's colour with a dark
outline, so a white X or cross shows on a light board too.

Hidden information is drawn by the callers from the viewer's own view:
a piece the viewer cannot see is not drawn, one whose colour but not shape
it sees (cloaking obscures) is the neutral mark ``obscured_svg``.
"""

from __future__ import annotations

import functools
import json
import math

from games.ttt.schema import SHAPE_LETTERS, SHAPES_ALL

FILL = {"black": "#222", "white": "#fafafa", "pink": "#f4a6c8", "yellow": "#f2d43a"}
SHAPE_OF_LETTER = {letter: shape for shape, letter in SHAPE_LETTERS.items()}


def _regular(n: int, radius: float = 1.0, turn: float = -90.0) -> list[tuple[float, float]]:
    """n points on a circle, the first straight up (SVG's y grows down)."""
    return [
        (
            radius * math.cos(math.radians(turn + 360.0 * k / n)),
            radius * math.sin(math.radians(turn + 360.0 * k / n)),
        )
        for k in range(n)
    ]


def _star() -> list[tuple[float, float]]:
    """Five points, the inner radius of a regular pentagram (sin 18 / sin 54)."""
    inner = math.sin(math.radians(18)) / math.sin(math.radians(54))
    outer, hollow = _regular(5), _regular(5, inner, -90.0 + 36.0)
    return [p for pair in zip(outer, hollow, strict=True) for p in pair]


def _plus(arm: float = 0.32) -> list[tuple[float, float]]:
    """A plus sign (the tic-tac-toe variations specification's "cross"), its arms ``arm`` wide on each side of
    the centre and as long as keeps their outer corners on the unit circle."""
    a, e = arm, math.sqrt(1.0 - arm * arm)
    return [
        (-a, -e),
        (a, -e),
        (a, -a),
        (e, -a),
        (e, a),
        (a, a),
        (a, e),
        (-a, e),
        (-a, a),
        (-e, a),
        (-e, -a),
        (-a, -a),
    ]


def _rotated(points, degrees):
    c, s = math.cos(math.radians(degrees)), math.sin(math.radians(degrees))
    return [(x * c - y * s, x * s + y * c) for x, y in points]


# None: a circle. Each polygon fits the unit circle (an X is the plus turned 45 degrees).
OUTLINES: dict[str, list[tuple[float, float]] | None] = {
    "circle": None,
    "triangle": _regular(3),
    "x": _rotated(_plus(0.26), 45),
    "cross": _plus(),
    "star": _star(),
    "pentagon": _regular(5),
}
assert set(OUTLINES) == set(SHAPES_ALL)


@functools.lru_cache(maxsize=1)
def outlines_json() -> str:
    """The outlines for the Factory's script, rounded to 4 places."""
    return json.dumps(
        {
            s: None if pts is None else [[round(x, 4), round(y, 4)] for x, y in pts]
            for s, pts in OUTLINES.items()
        }
    )


def piece_svg(shape: str, colour: str, cx: float, cy: float, r: float) -> str:
    """A piece of ``shape`` and ``colour`` centred on (cx, cy) within radius r.
    Its classes name both (``piece black shape-triangle``), which the tests read."""
    if shape not in OUTLINES:
        raise ValueError(f"unknown shape {shape!r}; shapes: {', '.join(SHAPES_ALL)}")
    fill = FILL.get(colour, "#888")
    common = (
        f'fill="{fill}" stroke="#000" stroke-width="1.5" stroke-linejoin="round" '
        f'class="piece {colour} shape-{shape}"'
    )
    points = OUTLINES[shape]
    if points is None:
        return f'<circle cx="{cx:.1f}" cy="{cy:.1f}" r="{r:.1f}" {common}/>'
    pts = " ".join(f"{cx + r * x:.1f},{cy + r * y:.1f}" for x, y in points)
    return f'<polygon points="{pts}" {common}/>'


def obscured_svg(colour: str, cx: float, cy: float, r: float) -> str:
    """A piece whose colour the viewer sees but not its shape: a dashed
    rounded square of that colour, the same for every shape."""
    return (
        f'<rect x="{cx - r:.1f}" y="{cy - r:.1f}" width="{2 * r:.1f}" height="{2 * r:.1f}" '
        f'rx="{r / 2:.1f}" fill="{FILL.get(colour, "#888")}" stroke="#000" '
        f'stroke-dasharray="4 3" class="piece obscured {colour}"/>'
    )
