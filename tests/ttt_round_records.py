"""The random rule-set records of the tic-tac-toe property tests whose rule sets
play in simultaneous or single rounds, moving pieces, covering by stack or with
cloaked spaces (the per-feature generators are in ttt_records)."""

from __future__ import annotations

from hypothesis import strategies as st

from games.ttt.schema import SHAPES_ALL, slides
from ttt_checks import CAN

# -- rounds -------------------------------------------------------------------------------


ROUND_MOVES = [
    "stationary",
    "adjacent",
    "orthogonal",
    "linear",
    "knight-2x1x0",
    "forward-orthogonal",
    "adjacent-diagonal",
    "adjacent-no-back",
    "orthogonal-no-back",
]


@st.composite
def move_round_records(draw):
    kind = draw(st.sampled_from(["squares", "stacks"]))
    dims = [draw(st.integers(2, 3)), draw(st.integers(1, 3)), 1]
    if kind == "stacks":
        dims[2] = draw(st.integers(2, 3))
    players = draw(st.sampled_from(["2", "3", "2-vs-chaos"]))
    colours = ["black", "white", "pink"][: {"2": 2, "3": 3, "2-vs-chaos": 3}[players]]
    names = draw(st.lists(st.sampled_from(SHAPES_ALL), min_size=1, max_size=3, unique=True))
    moves = ROUND_MOVES + (["orth-by-stack", "orth-by-full-stack"] if kind == "stacks" else [])
    shapes = {s: {"move": draw(st.sampled_from(moves))} for s in names}
    by_stack = any(p["move"].startswith("orth-by") for p in shapes.values())
    for s in names:
        if not by_stack and draw(st.booleans()):
            shapes[s].update(
                power=CAN,
                condition=draw(st.sampled_from(["cover", "cover-by-rank"])),
                result=draw(
                    st.sampled_from(["removes", "reincarnates"] + (["converts"] if kind == "stacks" else []))
                ),
            )
    order = draw(st.sampled_from(["simultaneous", "single"]))
    first = draw(
        st.sampled_from([{"order": order, "movement": "placement-only"}, {"order": order, "pass": True}])
    )
    rec = {
        "name": "HM",
        "board": {"kind": kind, "size": dims},
        "players": players,
        "reserves": {c: {s: draw(st.integers(0, 2)) for s in shapes} for c in colours},
        "shapes": shapes,
        "move_limit": draw(st.integers(2, 16)),
        "turn_checks": draw(st.lists(st.sampled_from(["first-2-wins", "first-3-wins"]), max_size=1)),
        "phases": [first, {"order": "simultaneous", "pass": True}, {"pass": True}],
    }
    if draw(st.booleans()):  # a turn of two pieces: two rounds
        rec.update(pieces_per_turn=2, round_plies="round-by-round")
    return rec


@st.composite
def stack_cover_round_records(draw):
    dims = [draw(st.integers(2, 3)), draw(st.integers(1, 2)), draw(st.integers(2, 4))]
    players = draw(st.sampled_from(["2", "3", "2-vs-chaos"]))
    colours = ["black", "white", "pink"][: {"2": 2, "3": 3, "2-vs-chaos": 3}[players]]
    names = draw(st.lists(st.sampled_from(SHAPES_ALL), min_size=2, max_size=3, unique=True))
    moves = ["orth-by-stack", "orth-by-full-stack", "stationary", "adjacent"]
    shapes = {s: {"move": draw(st.sampled_from(moves))} for s in names}
    shapes[names[0]]["move"] = draw(st.sampled_from(["orth-by-stack", "orth-by-full-stack"]))
    for s in names:
        if draw(st.booleans()):
            shapes[s].update(
                power=draw(st.sampled_from([CAN, "must-capture"])),
                condition=draw(st.sampled_from(["cover", "cover-by-rank"])),
                result=draw(
                    st.sampled_from(
                        ["removes", "reincarnates", "reincarnates-x2", "reincarnates-x3", "converts"]
                    )
                ),
            )
    order = draw(st.sampled_from(["simultaneous", "single"]))
    first = draw(
        st.sampled_from([{"order": order, "movement": "placement-only"}, {"order": order, "pass": True}])
    )
    return {
        "name": "SC",
        "board": {"kind": "stacks", "size": dims},
        "players": players,
        "reserves": {c: {s: draw(st.integers(0, 2)) for s in shapes} for c in colours},
        "shapes": shapes,
        "move_limit": draw(st.integers(2, 16)),
        "turn_checks": draw(
            st.lists(
                st.sampled_from(["first-2-wins", "first-3-wins", "goal-reached-stalemate"]),
                max_size=2,
                unique=True,
            )
        ),
        "phases": [first, {"order": "simultaneous", "pass": True}, {"pass": True}],
    }


# -- cloaking -----------------------------------------------------------------------------


@st.composite
def cloaked_round_records(draw, preplaced=False, covers=False):
    """Shapes (some moving, some not, forward movers with goals) on squares or
    stacks, cloaked spaces in simultaneous or single phases, both cloaking
    types; with ``preplaced`` (cloak-shape-seen) also a stationary shape and
    pieces pre-placed on cloaked spaces, some of colours with nothing in
    reserve; with ``covers`` some shapes capture by covering (cover or cover
    by rank; removing, reincarnating, on stacks converting; no pot split)."""
    stacks = draw(st.booleans())
    size = [
        draw(st.integers(2, 3)),
        1 if stacks else draw(st.integers(2, 3)),
        draw(st.integers(2, 3)) if stacks else 1,
    ]
    names = draw(st.lists(st.sampled_from(SHAPES_ALL), min_size=1, max_size=3, unique=True))
    moves = ["stationary", "adjacent", "orthogonal", "diagonal", "knight-2x1x0", "adjacent-orthogonal"]
    if not stacks:
        moves.append("forward-orthogonal")
    shapes = {s: {"move": draw(st.sampled_from(moves))} for s in names}
    if preplaced and not any(p["move"] == "stationary" for p in shapes.values()):
        shapes[draw(st.sampled_from([s for s in SHAPES_ALL if s not in shapes]))] = {"move": "stationary"}
    if any(p["move"] == "forward-orthogonal" for p in shapes.values()):
        shapes.setdefault("circle", {"move": "adjacent"})  # a replacement that moves backwards
    players = draw(st.sampled_from(["2", "3", "2-vs-chaos"]))
    colours = {
        "2": ["black", "white"],
        "3": ["black", "white", "pink"],
        "2-vs-chaos": ["black", "white", "pink"],
    }[players]
    reserves = {c: {s: draw(st.integers(0, 2)) for s in shapes} for c in colours}
    for c in colours:
        if not sum(reserves[c].values()):
            reserves[c][sorted(shapes)[0]] = 1
    cells = [
        [x, y, z] for x in range(1, size[0] + 1) for y in range(1, size[1] + 1) for z in range(1, size[2] + 1)
    ]
    phases = []
    for _ in range(draw(st.integers(1, 2))):
        phases.append(
            {
                "order": draw(st.sampled_from(["simultaneous", "single", "sequential"])),
                "pass": draw(st.booleans()),
                "cloaked": draw(st.lists(st.sampled_from(cells), min_size=1, unique_by=tuple)),
            }
        )
    if all(ph["order"] == "sequential" for ph in phases):
        phases[0]["order"] = "simultaneous"
    if any(ph["order"] == "sequential" for ph in phases):
        # (the reference's sequential cloaked turns do not name replacements)
        shapes = {s: p for s, p in shapes.items() if p["move"] != "forward-orthogonal"} or {"circle": {}}
        reserves = {
            c: {s: n for s, n in r.items() if s in shapes} or {sorted(shapes)[0]: 1}
            for c, r in reserves.items()
        }
    # cloak-shape-seen: pieces of any colour and shape pre-placed on cloaked
    # spaces (nobody placed them: only "can move", per shape, or an open space
    # shows them), on the floor of stacks; a colour with pieces on the board
    # may start with an empty reserve
    floor = sorted({tuple(c) for ph in phases for c in ph["cloaked"] if c[2] == 1})
    pieces = []
    if preplaced and floor:
        pieces = draw(
            st.lists(
                st.tuples(st.sampled_from(floor), st.sampled_from(colours), st.sampled_from(sorted(shapes))),
                min_size=1,
                max_size=3,
                unique_by=lambda q: q[0],
            )
        )
    for _, colour, _ in pieces:
        if draw(st.booleans()):
            reserves[colour] = {s: 0 for s in reserves[colour]}
    if covers:
        results = ["removes", "reincarnates"] + (["converts"] if stacks else [])
        if stacks and len(colours) > 2:
            results = ["removes"]  # (a pot split among captors of several colours is refused)
        for name in draw(st.lists(st.sampled_from(sorted(shapes)), min_size=1, unique=True)):
            shapes[name] = dict(
                shapes[name],
                power=draw(st.sampled_from(["can-capture", "must-capture"])),
                condition=draw(st.sampled_from(["cover", "cover-by-rank"])),
                result=draw(st.sampled_from(results)),
            )
    rec = {
        "name": "cr-random",
        "players": players,
        "cloaking": draw(st.sampled_from(["hides", "obscures"])),
        "board": {
            "kind": "stacks" if stacks else "squares",
            "size": size,
            "pieces": [{"at": list(at), "colour": colour, "shape": shape} for at, colour, shape in pieces],
        },
        "shapes": shapes,
        "reserves": reserves,
        "phases": phases,
        "move_limit": draw(st.integers(4, 14)),
        "turn_checks": draw(st.sampled_from([[], ["first-3-wins"], ["first-2-loses"]])),
        "stalemate": draw(st.sampled_from(["draws", "most-pieces-wins"])),
    }
    if slides(rec):  # blocking by pieces is refused with cloaked spaces
        rec["line_moves"] = "over-pieces"
    return rec
