# cython: language_level=3
"""A small, fast, seedable random generator shared by every C-level kernel.

xoshiro256** (Blackman & Vigna) seeded through splitmix64: statistically strong,
a handful of cycles per draw, and a plain struct so it can live on the stack of a
playout loop or inside a search object without any Python allocation.
"""
from libc.stdint cimport uint64_t


cdef struct Rng:
    uint64_t s0
    uint64_t s1
    uint64_t s2
    uint64_t s3


cdef inline uint64_t mix64(uint64_t x) noexcept nogil:
    """splitmix64's output function: a 64-bit value scrambled so that nearby
    inputs give unrelated outputs (seeding, and hash keys built from small
    fields such as the player to move)."""
    x += <uint64_t>0x9E3779B97F4A7C15ULL
    x = (x ^ (x >> 30)) * <uint64_t>0xBF58476D1CE4E5B9ULL
    x = (x ^ (x >> 27)) * <uint64_t>0x94D049BB133111EBULL
    return x ^ (x >> 31)


cdef inline uint64_t _splitmix64(uint64_t* x) noexcept nogil:
    cdef uint64_t z = mix64(x[0])
    x[0] += <uint64_t>0x9E3779B97F4A7C15ULL
    return z


cdef inline void rng_seed(Rng* r, uint64_t seed) noexcept nogil:
    cdef uint64_t x = seed
    r.s0 = _splitmix64(&x)
    r.s1 = _splitmix64(&x)
    r.s2 = _splitmix64(&x)
    r.s3 = _splitmix64(&x)


cdef inline uint64_t _rotl(uint64_t x, int k) noexcept nogil:
    return (x << k) | (x >> (64 - k))


cdef inline uint64_t rng_next(Rng* r) noexcept nogil:
    cdef uint64_t result = _rotl(r.s1 * 5, 7) * 9
    cdef uint64_t t = r.s1 << 17
    r.s2 ^= r.s0
    r.s3 ^= r.s1
    r.s1 ^= r.s2
    r.s0 ^= r.s3
    r.s2 ^= t
    r.s3 = _rotl(r.s3, 45)
    return result


cdef inline unsigned int rng_below(Rng* r, unsigned int n) noexcept nogil:
    """Uniform integer in [0, n) by Lemire's multiply-shift (bias < n / 2**32)."""
    return <unsigned int>(((rng_next(r) >> 32) * <uint64_t>n) >> 32)


cdef inline double rng_uniform(Rng* r) noexcept nogil:
    """Uniform double in [0, 1) with 53 random bits."""
    return (rng_next(r) >> 11) * (1.0 / 9007199254740992.0)
