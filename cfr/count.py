"""How many histories a game's tree has, found without building the tree.

Why: ``cfr.tree.enumerate_tree`` and ``solvers.normal_form.backward_induction``
refuse games past a number of histories, but only after walking (and, for the
tree, storing) that many; ``economic_dilemmas --full`` spent 554 s and 9.75 GB
on each Centipede tree to learn it was too large. Counting first lets the
caller refuse before it builds, and say by how much.

- This toolkit's Cython games (``games.openspiel.CoreGame``): an exact count
  by a walk over the core memoised by position hash (``cfr._count``), so its
  cost is the number of distinct positions, not of histories. It counts the
  tree of the turn-based game (simultaneous rounds laid out as OpenSpiel's
  ``turn_based_simultaneous_game`` does), which is what ``enumerate_tree``
  walks; for a sequential game that is the game's own tree.
- Any other OpenSpiel game: a depth-first walk over its states without
  memoisation (OpenSpiel's states have no position key that is safe for
  every game), stopped once it passes ``limit``; a constant-memory walk, as
  slow per history as building, which the references these are (matrix
  games, goofspiel with two cards, small nim) never notice.

Either way the answer is a ``HistoryCount``: ``histories`` (every node,
terminal ones included: ``GameTree.num_nodes``), ``nonterminal``, and
``exact`` False when the walk stopped early, in which case both are lower
bounds (the generic walk's just above ``limit``).
"""

from __future__ import annotations

from dataclasses import dataclass

import pyspiel

from cfr.game_form import inner_game_string, turn_based

__all__ = ["HistoryCount", "count_histories", "is_core_game"]


@dataclass(frozen=True)
class HistoryCount:
    histories: int  # nodes of the tree, terminal included (a lower bound unless exact)
    nonterminal: int  # decision and chance nodes (a lower bound unless exact)
    exact: bool
    positions: int | None  # distinct positions the memoised walk met (None: no memoisation)

    def over(self, limit: int) -> bool:
        """Whether the tree has more than ``limit`` histories."""
        return self.histories > limit

    def text(self) -> str:
        """The count as a refusal states it."""
        if self.exact:
            return f"{self.histories:,} histories"
        return (
            f"more than {self.histories:,} histories (a lower bound: counting stopped after "
            f"{self.positions:,} distinct positions)"
            if self.positions is not None
            else f"more than {self.histories:,} histories (counting stopped there)"
        )


def _core_game(game):
    """The Cython core game behind ``game``, if any: the game itself, or the one inside
    OpenSpiel's ``turn_based_simultaneous_game`` wrapper (the study's tournament game)."""
    from games.openspiel import CoreGame

    if isinstance(game, CoreGame):
        return game
    if game.get_type().short_name == "turn_based_simultaneous_game":
        inner = pyspiel.load_game(inner_game_string(str(game)))
        return inner if isinstance(inner, CoreGame) else None
    return None


def is_core_game(game) -> bool:
    """Whether ``game`` is counted by the memoised walk (a Cython game, or one in
    OpenSpiel's turn-based wrapper)."""
    return _core_game(game) is not None


#: distinct positions the memoised walk keeps (about 250 bytes each): 1,000,000 is a few
#: seconds on this machine's shared cores; Centipede9 has 3.5 million and 3P-9X-HideSeek 6
#: million (exact counts 16 s and 203 s), and their bounds at this cap already exceed any
#: history limit tabular CFR can hold
MAX_POSITIONS = 1_000_000


def count_histories(game, limit: int | None = None, max_positions: int = MAX_POSITIONS) -> HistoryCount:
    """The histories of ``game``'s tree as ``enumerate_tree`` would build it.

    ``limit``: only whether the tree exceeds it matters to the caller; the
    generic walk stops past it. The memoised walk counts exactly while the
    distinct positions stay within ``max_positions``; past that it stops and
    the answer is a lower bound (the largest subtree counted by then, or the
    positions met). Memory: one dictionary entry per distinct position.
    """
    core_game = _core_game(game)
    if core_game is not None:
        from cfr._count import TooManyPositions, Walk

        walk = Walk(max_positions)
        try:
            histories, nonterminal = walk.count(core_game.new_core())
        except TooManyPositions as e:
            return HistoryCount(
                max(walk.largest, e.positions), max(walk.largest_inner, e.positions), False, e.positions
            )
        return HistoryCount(histories, nonterminal, True, walk.positions)
    return _walk_states(game, limit)


def _walk_states(game, limit: int | None) -> HistoryCount:
    game = turn_based(game)
    histories = nonterminal = 0
    stack = [game.new_initial_state()]
    while stack:
        state = stack.pop()
        histories += 1
        if limit is not None and histories > limit:
            return HistoryCount(histories, nonterminal, False, None)
        if state.is_terminal():
            continue
        nonterminal += 1
        actions = (
            [a for a, _ in state.chance_outcomes()]
            if state.is_chance_node()
            else state.legal_actions(state.current_player())
        )
        stack.extend(state.child(a) for a in actions)
    return HistoryCount(histories, nonterminal, True, None)
