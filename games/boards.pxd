# cython: language_level=3
"""Board geometry shared by the game kernels: Y boards (regions of the
triangular lattice with three sides) and square grids (Flipway).

Everything a kernel asks of the board in its hot loop (neighbours, side
membership, Zobrist keys) is precomputed once per board into flat C arrays,
as OpenSpiel's C++ ``y`` does, and shared by every state on that board.
"""
from libc.stdint cimport uint8_t, uint64_t

cdef enum:
    SQUARE_SYMMETRIES = 8     # a SquareGrid's symmetries; the first 4 keep each edge pair
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


cdef class SquareGrid:
    # An n x n grid of points surrounded by a one-point border, so that the
    # eight neighbours of any point are plain index offsets (+-1, +-width,
    # +-width+-1) with no bounds check: a kernel keeps the border points
    # marked "off the board" in its own per-point arrays. Point p = r * n + c
    # (row 0 at the top) sits at padded index q = (r + 1) * width + c + 1.
    # A 2x2 area is numbered a = r * (n - 1) + c by its top-left point (r, c).
    cdef readonly int size
    cdef readonly int width             # n + 2
    cdef readonly int num_points        # n * n
    cdef readonly int num_areas         # (n - 1) ** 2
    cdef int* pad                       # point -> padded index
    cdef int* unpad                     # padded index -> point, or -1 on the border
    cdef uint8_t* edge                  # [padded] bits: 1 top, 2 bottom, 4 left, 8 right
    cdef int* area_tl                   # area -> padded index of its top-left point
    cdef uint8_t* area_row              # area -> row / column of its top-left point
    cdef uint8_t* area_col
    cdef int* pt_area                   # [padded * 4] the areas holding a point, -1 padded
    cdef uint8_t* pt_corner             # [padded * 4] its corner in that area: 0 TL, 1 TR, 2 BL, 3 BR
    cdef uint64_t* zob                  # [padded * 2] Zobrist key per point and colour
    cdef int* sym                       # [8 * num_points] image of a point (SQUARE_SYMMETRIES)
    cdef readonly tuple names


cdef inline int find_root(uint8_t* parent, int cell) noexcept nogil:
    """Root of ``cell``'s group in a union-find over a board's cells (parent
    array of uint8, boards have at most 255 cells), with path halving: the
    connection kernels of Y and Caeth Y both keep their groups this way."""
    while parent[cell] != cell:
        parent[cell] = parent[parent[cell]]
        cell = parent[cell]
    return cell
