# Conversion: the crowding keys that tell which stones are overcrowded, the
# CROWD table that reads them, and the hash salt of the cells a local
# conversion examines. Included by _y_family.pyx before FlipCore, whose
# kernels read them; rules: docs/rules/defector_y.md and double_o_y.md.
from libc.stdint cimport uint8_t, uint64_t


# A cell's crowding key is one byte, 16 x its colour code (0 empty, 1 Black,
# 2 White) + its neighbour balance (Black minus White neighbours, -6..6),
# modulo 256: a placement adds 16 x the colour code to its cell and +-1 to
# each neighbour, a flip +-16 to its cell and +-2 to each neighbour.
# CROWD[key] is all ones when the key's stone is overcrowded (Black with a
# positive balance, White with a negative one), else 0: one load gives the
# bit, with no colour read and no sign test. Colour codes 0-2 with balances
# -8..7 map to distinct keys (248-255 and 0-7, 8-23, 24-39), so the
# sentinel cell, whose key a kernel moves by at most 8 and then resets to 0,
# stays on the all-zero empty row.
cdef uint64_t CROWD[256]

cdef void _init_crowd() noexcept:
    cdef int col, b
    for col in range(3):
        for b in range(-8, 8):
            CROWD[(16 * col + b) & 255] = <uint64_t>0 - <uint64_t>(
                (col == 1 and b > 0) or (col == 2 and b < 0))

_init_crowd()


cdef inline void _refresh_at(const uint8_t* key, uint64_t* crowded, int c) noexcept nogil:
    """Recompute whether the stone on c (if any) is overcrowded, in the
    ``crowded`` bitset (both colours in one: ``own`` tells them apart), from
    its crowding key. No branches: neighbour colours are as good as random."""
    cdef uint64_t bit = (<uint64_t>1) << (c & 63)
    cdef int w = c >> 6
    crowded[w] = (crowded[w] & ~bit) | (CROWD[key[c]] & bit)


# Per-cell hash keys of the cells a local conversion examines, derived from a
# cell's stone keys through mix64 with this odd constant (the golden ratio's
# 64 bits), so that they are unrelated to the stone keys.
cdef uint64_t ZONE_SALT = 0x9E3779B97F4A7C15ULL
