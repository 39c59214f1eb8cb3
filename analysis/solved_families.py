"""The game families solved side by side in docs/solved.md, and how their
solve records are keyed.

Why here: the table of exact values (``experiments.solved_table``) and the
opening maps drawn from the same records (``experiments.opening_maps``) list
the families in one order and read one record per game string; a study module
does not import another, so the list lives below both.
"""

from __future__ import annotations

#: The record field that names a solve: one game string, one record (a later one replaces).
KEY = "game_string"

FLIPS = ("all", "opponents", "friends")


def families() -> list[tuple[str, str, int]]:
    """(family name, game-string template with {n}, smallest side)."""
    out = [("y_game", "y_game(board_size={n})", 2)]
    for protocol in (1, 122):
        out.append((f"defector_y p{protocol}", f"defector_y(board_size={{n}},protocol={protocol})", 2))
    for flip in FLIPS:
        for protocol in (1, 122):
            for win in ("turn_start", "turn_end"):
                out.append(
                    (
                        f"double_o_y {flip} p{protocol} {win}",
                        f"double_o_y(board_size={{n}},flip={flip},protocol={protocol},win={win})",
                        2,
                    )
                )
    out.append(("flipway", "flipway(board_size={n})", 4))
    out.append(("flipway pie", "flipway(board_size={n},pie=True)", 4))
    return out
