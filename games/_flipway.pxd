# cython: language_level=3
"""Flipway's declarations that kernels outside the rules share (research
searches over Flipway positions, such as experiments/_flipway_neutral.pyx).

Point colours, as stored in a position's padded grid: ``OFF`` marks the
border points outside the board.
"""

cdef enum:
    EMPTY = 0
    BLACK = 1
    WHITE = 2
    OFF = 3
