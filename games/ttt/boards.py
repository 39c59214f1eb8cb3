"""Several boards in one game: the compiled tables of one
board, laid out side by side along x.

Why side by side along x: every formula of the engine (cells ``x + X*(y +
Y*z)``, targets, stacks' landing cell ``t + X*Y*height``) stays true for a
board ``B`` times as wide, so one-board rule sets keep their exact action ids
and code paths, and the engine only needs neighbour tables that never cross
from one board to the next (``Tables._split_boards``) plus the per-board
outcomes. Board b (0-based) holds the wide columns ``b*X .. b*X + X - 1``;
every board is a copy of the rule set's ``board`` (its locked spaces,
pre-placed pieces and space locks repeat on each) plus the spaces that
``board.on_boards`` gives that board alone, and the reserves are shared by
all boards.
"""

from __future__ import annotations


def _wide(c: int, b: int, size, boards: int) -> int:
    """Board b's copy of one-board cell c, in the layout of ``boards`` boards."""
    X = size[0]
    x, rest = c % X, c // X  # rest = y + Y*z (the same on every board)
    return x + b * X + boards * X * rest


def widen(out: dict, boards: int) -> dict:
    """The compiled tables of ``boards`` copies of the board (unchanged for 1)."""
    if boards == 1:
        out["boards"] = 1
        return out
    size = out["size"]
    X, Y, Z = size
    S = X * Y * Z
    T = out["targets"]
    cells = lambda c: [_wide(c, b, size, boards) for b in range(boards)]
    out["locked"] = sorted(w for c in out["locked"] for w in cells(c))
    out["pieces"] = sorted((w, colour) for c, colour in out["pieces"] for w in cells(c))
    for ph in out["phases"]:
        ph["locked"] = sorted(w for c in ph["locked"] for w in cells(c))
        # cloaked spaces repeat on every board like the locks
        # (3Blotto13: "Played on 3 boards ...; All spaces cloaked")
        ph["cloaked"] = sorted(w for c in ph.get("cloaked", []) for w in cells(c))
    per_board = out.pop("on_boards", None)  # per-board spaces
    if per_board is not None:
        out["locked"] = sorted(
            set(out["locked"])
            | {_wide(c, b, size, boards) for b, extra in enumerate(per_board["locked"]) for c in extra}
        )
        masks_of = per_board["seat_locks"]  # one (entry, exit) pair per board, or None
    else:
        masks_of = [out["seat_locks"]] * boards
    if any(m is not None for m in masks_of):
        phases = len(out["phases"])
        zero = ([[0] * S for _ in range(phases)], [[0] * S for _ in range(phases)])
        masks_of = [m if m is not None else zero for m in masks_of]
        wide_masks = []
        for kind in range(2):  # entry masks, then exit masks
            tables = []
            for ph in range(phases):  # one list per phase
                wide = [0] * (S * boards)
                for b in range(boards):
                    masks = masks_of[b][kind][ph]
                    for c in range(S):
                        wide[_wide(c, b, size, boards)] = masks[c]
                tables.append(wide)
            wide_masks.append(tables)
        out["seat_locks"] = tuple(wide_masks)
    # a one-board symmetry applied to every board at once (boards are not
    # permuted: the per-board outcomes stay with their boards)
    syms = []
    for m in out["symmetries"]:
        wide = [0] * (S * boards)
        for c in range(S):
            for b in range(boards):
                wide[_wide(c, b, size, boards)] = _wide(m[c], b, size, boards)
        syms.append(wide)
    out["symmetries"] = syms
    out["size"] = [X * boards, Y, Z]
    out["targets"] = T * boards
    out["boards"] = boards
    out["board_width"] = X
    return out
