"""Per-player views: what each seat sees of the board, cell by cell, as the
engine's ``player_view`` and its shape letters spell it."""

from __future__ import annotations

from games.ttt.schema import SHAPE_LETTERS


class ViewsMixin:
    def cells_in_order(self):
        """Every cell, in cell-index order (x fastest, then y, then z)."""
        return [(x, y, z) for z in range(self.Z) for y in range(self.Y) for x in range(self.X)]

    def view(self, p):
        """Per cell what p sees: its colour's letter (upper case when p sees
        the colour only), '#' a locked space (or a board decided in play),
        '.' a space that looks empty (a wall p does not see too)."""
        out = []
        for c in self.cells_in_order():
            if self.fully_sees(p, c):
                out.append("xopy"[self.board[c]])
            elif self.sees_piece(p, c):
                out.append("XOPY"[self.board[c]])
            elif not self.hides_wall(p, c) and (
                c in self.locked
                or c in self.phase_locked()
                or self.board_of(c) in (self.decided if self.closed is None else self.closed)
            ):
                out.append("#")
            else:
                out.append(".")
        return out

    def shape_view(self, p):
        """Per cell the letter of the shape p sees, '?' a piece seen by its
        colour only, '.' none."""
        out = []
        for c in self.cells_in_order():
            if self.fully_sees(p, c):
                out.append(SHAPE_LETTERS[self.shape[c]])
            elif self.sees_piece(p, c):
                out.append("?")
            else:
                out.append(".")
        return out
