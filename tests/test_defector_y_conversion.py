"""Defector Y's ``conversion`` parameter (docs/rules/defector_y.md, "Conversion: board or
local"): ``board`` converts overcrowded opponent stones anywhere, ``local`` only at and
around the last placement and, as conversions go on, around each converted stone.
Checked on hand-built positions and against a small model of the local rule written here."""

import pickle
import random

import pyspiel
import pytest
from games.boards import make_board

import games  # noqa: F401
from tiers import sweep


class LocalDefector:
    """Defector Y with local conversion, from docs/rules/defector_y.md alone: the board
    is a dict cell -> colour (0 empty, 1 Black, 2 White), the examined cells a set."""

    def __init__(self, board, protocol):
        self.n = board.num_cells
        self.nbrs = {c: set(board.neighbours(c)) for c in range(self.n)}
        self.sides = [{c for c in range(self.n) if s in board.sides_of(c)} for s in range(3)]
        self.later = 2 if protocol == 122 else 1
        self.board = dict.fromkeys(range(self.n), 0)
        self.player, self.turn, self.left, self.winner = 0, 0, 1, None
        self.examined = set()  # nothing placed yet
        self.converting = False

    def colour_count(self, c, colour):
        return sum(self.board[d] == colour for d in self.nbrs[c])

    def convertible(self):
        mover, other = self.player + 1, 2 - self.player
        return [
            c
            for c in sorted(self.examined)
            if self.board[c] == other and self.colour_count(c, other) > self.colour_count(c, mover)
        ]

    def legal(self):
        if self.winner is not None:
            return []
        if self.converting:
            return [self.n + c for c in self.convertible()]
        return [c for c in range(self.n) if self.board[c] == 0]

    def owns_y(self, colour):
        unseen = {c for c in range(self.n) if self.board[c] == colour}
        while unseen:
            group, stack = set(), [unseen.pop()]
            while stack:
                c = stack.pop()
                group.add(c)
                grown = self.nbrs[c] & unseen
                unseen -= grown
                stack.extend(grown)
            if all(group & side for side in self.sides):
                return True
        return False

    def apply(self, action):
        mover = self.player + 1
        if action < self.n:  # a placement: the examined cells start again around it
            self.board[action] = mover
            self.examined = {action} | self.nbrs[action]
            self.left -= 1
        else:  # a conversion: its neighbours are examined too
            c = action - self.n
            self.board[c] = mover
            self.examined |= self.nbrs[c]
        if self.owns_y(mover):
            self.winner = self.player
            return
        empty = any(v == 0 for v in self.board.values())
        if action >= self.n:
            self.converting = bool(self.convertible())
            if not self.converting and not empty:
                self.end_turn()
        elif self.left == 0 or not empty:
            self.end_turn()
        else:
            self.converting = bool(self.convertible())

    def end_turn(self):
        if not any(v == 0 for v in self.board.values()):
            self.winner = 0 if self.owns_y(1) else 1
            return
        self.player, self.turn = 1 - self.player, self.turn + 1
        self.left = self.later
        self.converting = self.left == 1 and bool(self.convertible())


def play(game, names, board):
    state = game.new_initial_state()
    for name in names:
        if name.startswith("flip "):
            state.apply_action(board.num_cells + board.index_of_name[name[5:]])
        else:
            state.apply_action(board.index_of_name[name])
    return state


def conversions(state, board):
    return sorted(board.names[a - board.num_cells] for a in state.legal_actions() if a >= board.num_cells)


# Triangle of side 7. Black c3's neighbours b4, c2 and d3 are pairwise apart, and White's
# placements a7 and g1 are far from them. Black b4 and c2, White d3, then Black c3 makes
# c3 overcrowded (two Black neighbours against one White), and b4 and c2 (one against
# none); White converts c3, which leaves White d3 with White c3 and no Black next to it:
# d3 is overcrowded, far from White's next placement, g1.
BEFORE_FAR_PLACEMENT = ["b4", "d3", "c2", "a7", "c3", "flip c3"]


def test_board_conversion_reaches_a_far_stone_and_local_does_not():
    board = make_board("triangle", 7)
    by_board = pyspiel.load_game("defector_y(board_size=7,conversion=board)")
    by_zone = pyspiel.load_game("defector_y(board_size=7,conversion=local)")
    for game in (by_board, by_zone):
        state = play(game, BEFORE_FAR_PLACEMENT[:-1], board)
        assert conversions(state, board) == ["b4", "c2", "c3"]  # at and around c3 in both
        state.apply_action(board.num_cells + board.index_of_name["c3"])
        assert conversions(state, board) == []  # White now places
    far = BEFORE_FAR_PLACEMENT + ["g1"]
    state = play(by_board, far, board)
    assert conversions(state, board) == ["d3"]
    state = play(by_zone, far, board)
    assert not state.core.in_flip_phase()
    assert state.current_player() == 0
    assert state.legal_actions() == [c for c in range(board.num_cells) if state.core.cell_colours()[c] == 0]


def test_board_is_the_default_conversion():
    game = pyspiel.load_game("defector_y(board_size=7)")
    assert game.get_parameters()["conversion"] == "board"
    board = make_board("triangle", 7)
    assert conversions(play(game, BEFORE_FAR_PLACEMENT + ["g1"], board), board) == ["d3"]


def first_cascade(size, protocol, seed_count):
    """A random local game up to a position where a stone outside the last placement's
    neighbourhood may be converted, found by the reference model: its actions and that
    stone, or None."""
    board = make_board("triangle", size)
    for seed in range(seed_count):
        rng = random.Random(seed)
        ref = LocalDefector(board, protocol)
        history, last = [], None
        while ref.winner is None:
            if ref.converting and last is not None:
                outside = [c for c in ref.convertible() if c != last and c not in ref.nbrs[last]]
                if outside:
                    return history, outside[0]
            action = rng.choice(ref.legal())
            if action < board.num_cells:
                last = action
            ref.apply(action)
            history.append(action)
    return None


def test_local_conversion_cascades_through_converted_stones():
    """A stone two cells from the last placement becomes convertible once its neighbour
    in the examined cells has been converted, and not before. Protocol 122, where the
    last placement is the mover's own and the opponent's crowded stones elsewhere stay
    unexamined, gives such positions in about one random game in ten."""
    board = make_board("triangle", 6)
    found = first_cascade(6, 122, 400)
    assert found is not None
    history, stone = found
    game = pyspiel.load_game("defector_y(board_size=6,protocol=122,conversion=local)")
    state = game.new_initial_state()
    for action in history:
        state.apply_action(action)
    last = max(i for i, a in enumerate(history) if a < board.num_cells)
    placed = history[last]
    assert stone != placed and stone not in board.neighbours(placed)
    assert board.num_cells + stone in state.legal_actions()
    converted = [a - board.num_cells for a in history[last + 1 :]]
    assert any(stone in board.neighbours(c) for c in converted)
    # Before those conversions the stone was not examined
    before = game.new_initial_state()
    for action in history[: last + 1]:
        before.apply_action(action)
    assert board.num_cells + stone not in before.legal_actions()


@pytest.mark.parametrize("size", (5, 6))
@pytest.mark.parametrize("protocol", (1, 122))
def test_local_conversion_follows_the_reference(size, protocol):
    game = pyspiel.load_game(f"defector_y(board_size={size},protocol={protocol},conversion=local)")
    board = make_board("triangle", size)
    rng = random.Random(size * 1000 + protocol)
    for _ in range(sweep(full=300, quick=30)):
        ref = LocalDefector(board, protocol)
        state = game.new_initial_state()
        while ref.winner is None:
            assert not state.is_terminal()
            assert state.current_player() == ref.player
            assert state.legal_actions() == ref.legal(), str(state)
            action = rng.choice(ref.legal())
            state.apply_action(action)
            ref.apply(action)
        assert state.is_terminal()
        assert state.returns()[ref.winner] == 1.0


def test_conversion_round_trips_through_the_game_string_and_serialisation():
    game = pyspiel.load_game("defector_y(board_size=5,conversion=local)")
    assert game.get_parameters()["conversion"] == "local"
    again = pyspiel.load_game(str(game))
    assert again.get_parameters() == game.get_parameters()
    assert pickle.loads(pickle.dumps(game)).get_parameters() == game.get_parameters()
    board = make_board("triangle", 7)
    local = pyspiel.load_game("defector_y(board_size=7,conversion=local)")
    state = play(local, BEFORE_FAR_PLACEMENT[:-1], board)  # a flip phase around c3
    for copy in (
        local.deserialize_state(state.serialize()),
        state.clone(),
        pickle.loads(pickle.dumps(state)),
    ):
        assert copy.legal_actions() == state.legal_actions()
        assert copy.core.examined_cells() == state.core.examined_cells()
        assert copy.core.position_hash() == state.core.position_hash()
        copy.apply_action(board.num_cells + board.index_of_name["c3"])
        copy.apply_action(board.index_of_name["g1"])
        assert not copy.core.in_flip_phase()


def test_a_bad_conversion_value_names_the_allowed_ones():
    with pytest.raises(Exception, match="conversion='near' is not allowed; choose one of: board, local"):
        pyspiel.load_game("defector_y(conversion=near)")


@pytest.mark.parametrize("protocol", (1, 122))
def test_fast_playout_follows_the_reference(protocol):
    """The random playouts MCTS runs (through ``apply`` under local conversion: the
    fast loop keeps no examined cells) play by the same rule."""
    game = pyspiel.load_game(f"defector_y(board_size=6,protocol={protocol},conversion=local)")
    board = make_board("triangle", 6)
    for seed in range(sweep(full=100, quick=15)):
        core = game.new_core()
        ref = LocalDefector(board, protocol)
        for action in core.playout_trace(seed):
            assert action in ref.legal()
            ref.apply(action)
        assert ref.winner is not None
        assert core.returns_list()[ref.winner] == 1.0
