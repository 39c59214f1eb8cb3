# cython: language_level=3
"""The poker-hand rank of a player in a move "by stack" or "by full stack"
(the tic-tac-toe variations specification; docs/rules/ttt.md, "Stacks"),
declared here so every Cython module (the engine's stacks section, and the
captures code that splits a pot by rank) calls the one pure C function. ``poker.pyx`` is its Python face."""

cdef enum:
    N_SHAPES = 6          # SHAPES_ALL: circle, triangle, x, cross, star, pentagon
    # hand classes, weakest first (0: no piece counts, an empty hand)
    HAND_NONE = 0
    HAND_SINGLETON = 1
    HAND_2_STRAIGHT = 2
    HAND_PAIR = 3
    HAND_3_STRAIGHT = 4
    HAND_TWO_PAIR = 5
    HAND_3_OF = 6
    HAND_4_STRAIGHT = 7
    HAND_FULL_HOUSE = 8
    HAND_5_STRAIGHT = 9
    HAND_4_OF = 10
    HAND_5_OF = 11

# counts[N_SHAPES]: pieces per shape (SHAPES_ALL order), chips already left
# out; returns (class << 6) | ((first + 1) << 3) | (second + 1), where first
# and second are the shapes that name the hand (-1: none), so a larger
# value is a higher rank and equal values are equal ranks.
cdef int hand_rank(const int* counts) noexcept nogil

# used[N_SHAPES] receives how many pieces of each shape make the
# hand of rank ``code`` (hand_rank's value): the pieces a pot's captor keeps.
cdef void hand_uses(int code, int* used) noexcept nogil
