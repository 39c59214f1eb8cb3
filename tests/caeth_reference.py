"""A slow, from-scratch model of Caeth Y (docs/rules/caeth_y.md), for
differential tests.

It keeps only the list of moves and recomputes everything else from it on
every call: which edges each player holds, who controls each vertex (by
replaying the captures in order, since the first to reach the threshold
keeps the vertex), and whether a player's controlled vertices hold a chain
touching all three sides (the Y reference's flood fill, with vertex
controllers as colours). It shares nothing with the kernel: the triangle
comes from the Y reference model, its edges, their numbering and names are
built here again from the rules page.
"""

from __future__ import annotations

from y_reference import Geometry


class CaethReference:
    def __init__(self, size: int, swap: bool = False):
        self.size = size
        self.swap_rule = swap
        self.triangle = Geometry.triangle(size)
        self.vertices = self.triangle.coords
        self.neighbours = self.triangle.neighbours
        self.edges = sorted(
            {(min(u, v), max(u, v)) for u in range(len(self.vertices)) for v in self.neighbours[u]}
        )
        self.swap_action = len(self.edges)
        self.moves: list[int] = []  # edge ids and the swap, in order

    # -- derived from the moves ------------------------------------------

    def captures(self):
        """(player, edge) for every capture, with the swap applied: the edge
        Black opened with counts as White's, captured at the same moment."""
        result = []
        for k, action in enumerate(self.moves):
            if action == self.swap_action:
                result[0] = (1, result[0][1])
            else:
                result.append((k % 2, action))  # the swap keeps seats alternating
        return result

    def edge_owners(self):
        owners = [0] * len(self.edges)
        for player, e in self.captures():
            owners[e] = player + 1
        return owners

    def controllers(self):
        """The first player whose count of edges into a vertex reaches half
        its degree (rounded up) controls it; later counts do not matter."""
        held = [[0, 0] for _ in self.vertices]
        control = [0] * len(self.vertices)
        for player, e in self.captures():
            for v in self.edges[e]:
                held[v][player] += 1
                if control[v] == 0 and 2 * held[v][player] >= len(self.neighbours[v]):
                    control[v] = player + 1
        return control

    def has_y(self, player: int) -> bool:
        return self.triangle.has_y(self.controllers(), player + 1)

    def winner(self):
        """The player who made the last move, if that gave it a Y (only the
        mover gains vertices, so only the mover can complete one)."""
        if not self.moves:
            return None
        last = (len(self.moves) - 1) % 2
        return last if self.has_y(last) else None

    # -- the game ----------------------------------------------------------

    def current_player(self):
        if self.winner() is not None:
            return None
        return len(self.moves) % 2

    def legal(self):
        if self.winner() is not None:
            return []
        owners = self.edge_owners()
        moves = [e for e in range(len(self.edges)) if owners[e] == 0]
        if self.swap_rule and len(self.moves) == 1:
            moves.append(self.swap_action)
        return moves

    def apply(self, action: int):
        assert action in self.legal(), (action, self.legal())
        self.moves.append(action)

    def returns(self):
        w = self.winner()
        if w is None:
            return [0.0, 0.0]
        return [1.0, -1.0] if w == 0 else [-1.0, 1.0]

    def name(self, action: int) -> str:
        if action == self.swap_action:
            return "swap"
        u, v = self.edges[action]

        def cell(i):
            r, c = self.vertices[i]
            return f"{chr(ord('a') + c)}{self.size - r}"

        return f"{cell(u)}-{cell(v)}"
