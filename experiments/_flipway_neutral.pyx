# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""The exhaustive neutral-flip search behind docs/rules/flipway.md,
"Repetition and game length" (part 1 of experiments/flipway_repetition).

Research code, not rules: it works on its own compact encoding of full boards
(a bit per point, set for Black, plus the colour to move), which only this
search needs, and shares Flipway's colour codes through games/_flipway.pxd.
Its results are the constants that ``games.flipway`` proves its game-length
bound with (``PROVEN_NEUTRAL_RUN``).
"""
from libc.stdlib cimport malloc, free
from libc.string cimport memset
from libc.stdint cimport uint8_t, uint16_t, uint64_t

from games._flipway cimport BLACK, WHITE, OFF


def neutral_flip_search(int n):
    """Every colouring of the full n x n board (n <= 5), both colours to move:
    is there a cycle of neutral flips, and how long is the longest streak?

    Why this settles repetition on these boards: a flip adds 4 same-colour
    pairs inside its area and changes each of the 4 pairs its two stones form
    outside the area by -1, 0 or +1, so the pair count never falls (drops only
    add stones); a position can recur only through flips that keep it, which
    need all four outside neighbours to be stones of the flipped colour. Such
    flips touch no empty point, so a streak on any board is a streak on some
    full board. Returns ``(cycle_found, longest_streak, example)`` with the
    example a (colours, colour to move) pair starting a longest streak; chains
    are ignored (a streak that a win would cut short is still counted).
    """
    if n < 3 or n > 5:
        raise ValueError("exhaustive search is for board sizes 3..5")
    cdef uint64_t P = n * n
    cdef uint64_t ns = (<uint64_t>1) << (P + 1), s, t
    cdef uint16_t* L = <uint16_t*>malloc(ns * sizeof(uint16_t))
    cdef uint8_t* st = <uint8_t*>malloc(ns)
    cdef int cap = 1 << 20
    cdef uint64_t* stk = <uint64_t*>malloc(cap * sizeof(uint64_t))
    cdef uint64_t buf[64]
    cdef int top, k, i, best = 0, v
    cdef uint64_t arg = 0
    cdef bint cycle = False, pushed
    if L == NULL or st == NULL or stk == NULL:
        free(L)
        free(st)
        free(stk)
        raise MemoryError()
    memset(st, 0, ns)
    try:
        for s in range(ns):
            if st[s]:
                continue
            stk[0] = s
            top = 1
            st[s] = 1
            while top and not cycle:
                t = stk[top - 1]
                k = _neutral_successors(n, t, buf)
                pushed = False
                for i in range(k):
                    if st[buf[i]] == 1:
                        cycle = True
                        break
                    if st[buf[i]] == 0:
                        if top == cap:
                            raise RuntimeError("neutral-flip streak deeper than the search stack")
                        st[buf[i]] = 1
                        stk[top] = buf[i]
                        top += 1
                        pushed = True
                        break
                if pushed or cycle:
                    continue
                v = 0
                for i in range(k):
                    if L[buf[i]] + 1 > v:
                        v = L[buf[i]] + 1
                L[t] = v
                st[t] = 2
                top -= 1
                if v > best:
                    best = v
                    arg = t
            if cycle:
                break
    finally:
        free(L)
        free(st)
        free(stk)
    b = arg >> 1
    colours = [BLACK if (b >> p) & 1 else WHITE for p in range(P)]
    return cycle, best, (colours, int(arg & 1))


cdef inline int _full_colour(int n, uint64_t black, int r, int c) noexcept:
    if r < 0 or c < 0 or r >= n or c >= n:
        return OFF
    return BLACK if (black >> (r * n + c)) & 1 else WHITE


cdef int _neutral_successors(int n, uint64_t s, uint64_t* out) noexcept:
    """Neutral flips from state s = (black bitmask << 1) | colour to move."""
    cdef uint64_t b = s >> 1, m, nb
    cdef int mover = s & 1
    cdef int e = WHITE if mover == 0 else BLACK
    cdef int a, r, c, tl, tr, bl, br, k = 0
    cdef bint ok
    for a in range((n - 1) * (n - 1)):
        r = a // (n - 1)
        c = a % (n - 1)
        tl = _full_colour(n, b, r, c)
        tr = _full_colour(n, b, r, c + 1)
        bl = _full_colour(n, b, r + 1, c)
        br = _full_colour(n, b, r + 1, c + 1)
        if not (tl == br and tr == bl and tl != tr):
            continue
        if tl == e:     # flip TL and BR; their outside neighbours must be e
            ok = (_full_colour(n, b, r - 1, c) == e and _full_colour(n, b, r, c - 1) == e
                  and _full_colour(n, b, r + 2, c + 1) == e and _full_colour(n, b, r + 1, c + 2) == e)
            m = ((<uint64_t>1) << (r * n + c)) | ((<uint64_t>1) << ((r + 1) * n + c + 1))
        else:           # flip TR and BL
            ok = (_full_colour(n, b, r - 1, c + 1) == e and _full_colour(n, b, r, c + 2) == e
                  and _full_colour(n, b, r + 2, c) == e and _full_colour(n, b, r + 1, c - 1) == e)
            m = ((<uint64_t>1) << (r * n + c + 1)) | ((<uint64_t>1) << ((r + 1) * n + c))
        if not ok:
            continue
        nb = (b | m) if mover == 0 else (b & ~m)
        out[k] = (nb << 1) | (1 - mover)
        k += 1
    return k
