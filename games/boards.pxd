# cython: language_level=3
"""Geometry of Y boards: regions of the triangular lattice with three sides.

Everything a kernel asks of the board in its hot loop (neighbours, side
membership, Zobrist keys) is precomputed once per board into flat C arrays,
as OpenSpiel's C++ ``y`` does, and shared by every state on that board.
"""
from libc.stdint cimport uint8_t, uint64_t

cdef enum:
    NO_CELL = 255
    MAX_CELLS = 255
    MAX_WORDS = 4         # bitset words: 4 * 64 >= MAX_CELLS


cdef class LatticeBoard:
    cdef readonly int num_cells
    cdef readonly int num_words
    cdef readonly int num_edges
    cdef readonly str shape
    cdef readonly int size
    cdef uint8_t nbr[MAX_CELLS][6]      # padded with num_cells (an always-empty sentinel)
    cdef uint8_t degree[MAX_CELLS]
    cdef uint8_t side_mask[MAX_CELLS]
    cdef uint64_t side_bits[3][MAX_WORDS]
    cdef uint64_t zobrist[MAX_CELLS][2]
    cdef int num_syms
    cdef uint8_t sym[12][MAX_CELLS]     # sym[s][c]: image of cell c under symmetry s
    cdef readonly tuple coords
    cdef readonly tuple names
    cdef readonly dict index_of_name
    cdef readonly tuple symmetries
