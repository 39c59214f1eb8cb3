# Plain Y: its position struct, ``YCore`` and the restore of a pickled
# ``YCore``. Included by _y_family.pyx; rules: docs/rules/y.md.
# ``__builtin_ctzll`` comes from the extern block of _y_family.pyx.
from libc.stdlib cimport malloc, free
from libc.string cimport memcpy, memset
from libc.stdint cimport uint8_t, uint64_t
cimport cython
from games.core cimport GameCore, PLAYER_TERMINAL
from games.boards cimport LatticeBoard, MAX_CELLS, find_root
from games.rng cimport Rng, rng_below, mix64


cdef struct YPosition:
    # Everything but the per-cell arrays; one struct so that copying and
    # pickling a position cannot forget a field.
    int num_empty
    int player
    int winner          # -1 while the game goes on
    int turn
    int left            # placements left in this turn
    int placed_this_turn
    int num_placements
    int num_turns
    bint swapped
    uint64_t board_hash


@cython.final
@cython.no_gc
cdef class YCore(GameCore):
    """Plain Y: stones are never removed, so connectivity is an incremental
    union-find whose roots carry the mask of sides their group touches."""
    cdef readonly LatticeBoard board
    cdef int n
    cdef uint8_t* mem          # color | parent | sides | empties | pos | turn_stones
    cdef uint8_t* color
    cdef uint8_t* parent
    cdef uint8_t* sides
    cdef uint8_t* empties
    cdef uint8_t* pos
    cdef uint8_t* turn_stones
    cdef YPosition s
    cdef int seq
    cdef bint swap_rule
    cdef bint distinct_groups

    def __cinit__(self):
        self.mem = NULL

    def __dealloc__(self):
        free(self.mem)

    def __init__(self, LatticeBoard board=None, int seq=0, bint swap=False,
                 bint distinct_groups=False):
        if board is None:       # bare instance made by copy()
            return
        self._setup(board, seq, swap, distinct_groups)
        memset(self.mem, 0, 6 * self.n + 1)
        cdef int i
        for i in range(self.n):
            self.empties[i] = i
            self.pos[i] = i
        self.s.num_empty = self.n
        self.s.player = 0
        self.s.winner = -1
        self.s.turn = 0
        self.s.left = 1
        self.s.num_turns = 1

    cdef void _setup(self, LatticeBoard board, int seq, bint swap, bint distinct_groups):
        self.board = board
        self.n = board.num_cells
        self.seq = seq
        self.swap_rule = swap
        self.distinct_groups = distinct_groups
        self.num_players = 2
        self.num_actions = self.n + (1 if swap else 0)
        self.max_game_length = self.n + (1 if swap else 0)
        self.max_chance_outcomes = 0
        # colour has one extra, always-empty entry: the neighbour sentinel
        self.mem = <uint8_t*>malloc(6 * self.n + 1)
        if self.mem == NULL:
            raise MemoryError()
        self.color = self.mem
        self.parent = self.mem + self.n + 1
        self.sides = self.mem + 2 * self.n + 1
        self.empties = self.mem + 3 * self.n + 1
        self.pos = self.mem + 4 * self.n + 1
        self.turn_stones = self.mem + 5 * self.n + 1

    cdef GameCore copy(self):
        cdef YCore other = YCore.__new__(YCore)
        other._setup(self.board, self.seq, self.swap_rule, self.distinct_groups)
        memcpy(other.mem, self.mem, 6 * self.n + 1)
        other.s = self.s
        return other

    cdef inline int _find(self, int c) noexcept:
        return find_root(self.parent, c)

    cdef int current_player(self) noexcept:
        return PLAYER_TERMINAL if self.s.winner >= 0 else self.s.player

    cdef bint is_terminal(self) noexcept:
        return self.s.winner >= 0

    cdef inline bint _swap_available(self) noexcept:
        return self.swap_rule and self.s.turn == 1 and self.s.placed_this_turn == 0

    cdef bint _joins_turn_group(self, int c) noexcept:
        """Would a stone on c share a group with a stone dropped this turn?"""
        cdef int d, k, nb, root
        cdef int colour = self.s.player + 1
        for d in range(self.board.degree[c]):
            nb = self.board.nbr[c][d]
            if self.color[nb] != colour:
                continue
            root = self._find(nb)
            for k in range(self.s.placed_this_turn):
                if self._find(self.turn_stones[k]) == root:
                    return True
        return False

    cdef inline bint _placement_ok(self, int c) noexcept:
        if self.color[c] != 0:
            return False
        if self.distinct_groups and self.s.placed_this_turn > 0:
            return not self._joins_turn_group(c)
        return True

    cdef int legal_actions(self, int* out) noexcept:
        cdef int c, k = 0
        if self.s.winner >= 0:
            return 0
        for c in range(self.n):
            if self._placement_ok(c):
                out[k] = c
                k += 1
        if self._swap_available():
            out[k] = self.n
            k += 1
        return k

    cdef bint is_legal(self, int action) noexcept:
        if self.s.winner >= 0 or action < 0 or action >= self.num_actions:
            return False
        if action == self.n:
            return self._swap_available()
        return self._placement_ok(action)

    cdef void _end_turn(self) noexcept:
        self.s.player = 1 - self.s.player
        self.s.turn += 1
        self.s.left = _stones_in_turn(self.seq, self.s.turn)
        self.s.placed_this_turn = 0
        self.s.num_turns += 1

    cdef void _place(self, int c) noexcept:
        cdef int p = self.s.player
        cdef int colour = p + 1
        cdef int r1, r2
        cdef int last
        cdef LatticeBoard board = self.board
        self.color[c] = colour
        self.s.board_hash ^= board.zobrist[c][p]
        # remove c from the empty list (swap with the last)
        last = self.empties[self.s.num_empty - 1]
        self.empties[self.pos[c]] = last
        self.pos[last] = self.pos[c]
        self.s.num_empty -= 1
        self.parent[c] = c
        # Which neighbours share the colour, computed without branches (the
        # colours of a random position mispredict half the time), then one
        # union per set bit.
        cdef const uint8_t* nbr = board.nbr[c]
        cdef const uint8_t* color = self.color
        cdef unsigned int same = ((color[nbr[0]] == colour) | (color[nbr[1]] == colour) << 1
                                  | (color[nbr[2]] == colour) << 2 | (color[nbr[3]] == colour) << 3
                                  | (color[nbr[4]] == colour) << 4 | (color[nbr[5]] == colour) << 5)
        cdef uint8_t mask = board.side_mask[c]
        r1 = c
        while same:
            r2 = self._find(nbr[__builtin_ctzll(same)])
            same &= same - 1
            if r2 != r1:
                self.parent[r2] = r1
                mask |= self.sides[r2]
        self.sides[r1] = mask
        self.s.num_placements += 1
        if self.sides[r1] == 7:
            self.s.winner = p
            return
        self.turn_stones[self.s.placed_this_turn] = c
        self.s.placed_this_turn += 1
        self.s.left -= 1
        if self.s.left == 0 or self.s.num_empty == 0:
            self._end_turn()
        elif self.distinct_groups and not self._any_placement():
            self._end_turn()

    cdef bint _any_placement(self) noexcept:
        cdef int k
        for k in range(self.s.num_empty):
            if not self._joins_turn_group(self.empties[k]):
                return True
        return False

    cdef void _swap(self) noexcept:
        # The second player takes over the first stone: it becomes White's,
        # and Black, now facing it, moves next.
        cdef int c = self._first_stone()
        self.color[c] = 2
        self.s.board_hash ^= self.board.zobrist[c][0] ^ self.board.zobrist[c][1]
        self.parent[c] = c
        self.sides[c] = self.board.side_mask[c]
        self.s.swapped = True
        self._end_turn()

    cdef int _first_stone(self) noexcept:
        cdef int c
        for c in range(self.n):
            if self.color[c] != 0:
                return c
        return 0

    cdef void apply(self, int action) noexcept:
        if action == self.n:
            self._swap()
        else:
            self._place(action)

    cdef void returns(self, double* out) noexcept:
        if self.s.winner < 0:
            out[0] = 0.0
            out[1] = 0.0
        else:
            out[self.s.winner] = 1.0
            out[1 - self.s.winner] = -1.0

    cdef uint64_t hash(self) noexcept:
        cdef uint64_t h = self.s.board_hash
        cdef int turn_key = self.s.turn
        if self.seq != SEQ_SLOW and turn_key > 2:
            turn_key = 2
        h ^= mix64(<uint64_t>(self.s.player + 2 * self.s.left + 1024 * turn_key
                              + (1 << 30) * (self.s.winner + 1)))
        cdef int k
        if self.distinct_groups:
            for k in range(self.s.placed_this_turn):
                h ^= mix64(self.board.zobrist[self.turn_stones[k]][0] + 17)
        return h

    cdef int num_symmetries(self) noexcept:
        return self.board.num_syms

    cdef uint64_t symmetric_hash(self, int symmetry) noexcept:
        cdef uint64_t h = 0
        cdef int c, k
        cdef LatticeBoard board = self.board
        cdef uint64_t own_hash = self.s.board_hash
        for c in range(self.n):
            if self.color[c]:
                h ^= board.zobrist[board.sym[symmetry][c]][self.color[c] - 1]
        # reuse hash() for the non-board part: it is board_hash ^ extras
        self.s.board_hash = 0
        cdef uint64_t extras = self.hash()
        self.s.board_hash = own_hash
        if self.distinct_groups:
            for k in range(self.s.placed_this_turn):
                c = self.turn_stones[k]
                extras ^= (mix64(board.zobrist[c][0] + 17)
                           ^ mix64(board.zobrist[board.sym[symmetry][c]][0] + 17))
        return h ^ extras

    cdef void playout(self, Rng* rng) noexcept:
        cdef int buf[MAX_CELLS + 1]
        cdef int k
        if self.distinct_groups:
            GameCore.playout(self, rng)
            return
        while self.s.winner < 0 and self.swap_rule and self.s.turn <= 1:
            k = self.legal_actions(buf)
            self.apply(buf[rng_below(rng, k)])
        # Uniform over legal actions = uniform over the empty cells.
        if self.s.winner < 0:
            self._fill_until_win(rng)

    cdef void _fill_until_win(self, Rng* rng) noexcept:
        """``_place`` on random empty cells until someone wins, with the
        state in locals and the empty-cell index rebuilt once at the end:
        the playout loop that MCTS and the statistics spend their time in."""
        cdef LatticeBoard board = self.board
        cdef uint8_t* color = self.color
        cdef uint8_t* parent = self.parent
        cdef uint8_t* sides = self.sides
        cdef uint8_t* empties = self.empties
        cdef const uint8_t* nbr
        cdef int num_empty = self.s.num_empty
        cdef int p = self.s.player, left = self.s.left, turn = self.s.turn
        cdef int placed = self.s.placed_this_turn
        cdef int placements = 0, turns = 0
        cdef int k, c, r1, r2, colour, i
        cdef unsigned int same
        cdef uint8_t mask
        cdef uint64_t h = self.s.board_hash
        while num_empty > 0:
            k = rng_below(rng, num_empty)
            c = empties[k]
            num_empty -= 1
            empties[k] = empties[num_empty]
            colour = p + 1
            color[c] = colour
            h ^= board.zobrist[c][p]
            parent[c] = c
            nbr = board.nbr[c]
            same = ((color[nbr[0]] == colour) | (color[nbr[1]] == colour) << 1
                    | (color[nbr[2]] == colour) << 2 | (color[nbr[3]] == colour) << 3
                    | (color[nbr[4]] == colour) << 4 | (color[nbr[5]] == colour) << 5)
            mask = board.side_mask[c]
            # Join the first neighbouring group (its root stays the root,
            # which keeps trees shallow), then fold the others into it.
            r1 = c
            if same:
                r1 = find_root(parent, nbr[__builtin_ctzll(same)])
                same &= same - 1
                parent[c] = r1
                mask |= sides[r1]
                while same:
                    r2 = find_root(parent, nbr[__builtin_ctzll(same)])
                    same &= same - 1
                    if r2 != r1:
                        parent[r2] = r1
                        mask |= sides[r2]
            sides[r1] = mask
            placements += 1
            if mask == 7:
                self.s.winner = p
                break
            self.turn_stones[placed] = c
            placed += 1
            left -= 1
            if left == 0 or num_empty == 0:
                p = 1 - p
                turn += 1
                left = _stones_in_turn(self.seq, turn)
                placed = 0
                turns += 1
        self.s.num_placements += placements
        self.s.num_turns += turns
        for i in range(num_empty):
            self.pos[empties[i]] = i
        self.s.num_empty = num_empty
        self.s.player = p
        self.s.left = left
        self.s.turn = turn
        self.s.placed_this_turn = placed
        self.s.board_hash = h

    # -- Python face -------------------------------------------------------

    def describe_action(self, int action):
        if action == self.n and self.swap_rule:
            return "swap"
        if 0 <= action < self.n:
            return self.board.names[action]
        return f"<invalid action {action}>"

    def cell_colours(self):
        """Per cell: 0 empty, 1 Black (player 0), 2 White (player 1)."""
        return [self.color[i] for i in range(self.n)]

    def stones_left_in_turn(self):
        return self.s.left

    def playout_stats(self):
        return {"placements": self.s.num_placements, "flips": 0, "turns": self.s.num_turns,
                "empty_cells": self.s.num_empty, "winner": self.s.winner}

    def nbytes(self):
        """Bytes the position occupies: the C object plus its cell block."""
        return type(self).__basicsize__ + 6 * self.n + 1

    def __reduce__(self):
        # OpenSpiel serialises Python states with pickle.
        return (_restore_y, (self.board.shape, self.board.size, self.seq, self.swap_rule,
                             self.distinct_groups, self.mem[:6 * self.n + 1], self.s))

    def to_string(self):
        head = "Black" if self.s.player == 0 else "White"
        if self.s.winner >= 0:
            status = f"{'Black' if self.s.winner == 0 else 'White'} wins"
        else:
            status = f"{head} to move, {self.s.left} stone(s) left this turn"
        return _render(self.board, self.cell_colours()) + "\n" + status

    def observation(self):
        """Planes Black/White/empty per cell, then: Black to move, White to
        move, flip phase (always 0 here), stones left this turn, swap available."""
        obs = [0.0] * (3 * self.n + 5)
        for i in range(self.n):
            plane = self.color[i] - 1 if self.color[i] else 2
            obs[plane * self.n + i] = 1.0
        if self.s.winner < 0:
            obs[3 * self.n + self.s.player] = 1.0
            obs[3 * self.n + 3] = self.s.left
            obs[3 * self.n + 4] = 1.0 if self._swap_available() else 0.0
        return obs


def _restore_y(shape, size, seq, swap, distinct_groups, bytes mem, YPosition position):
    from games.boards import make_board
    cdef YCore core = YCore.__new__(YCore)
    core._setup(make_board(shape, size), seq, swap, distinct_groups)
    memcpy(core.mem, <const char*>mem, len(mem))
    core.s = position
    return core
