# A small, fast, seedable and splittable random generator, callable from C without the GIL.
# xoshiro256** (Blackman & Vigna), seeded through splitmix64 so any 64-bit seed gives a good state.
from libc.stdint cimport uint32_t, uint64_t


cdef struct Rng:
    uint64_t s0
    uint64_t s1
    uint64_t s2
    uint64_t s3


cdef inline uint64_t _rotl(uint64_t x, int k) noexcept nogil:
    return (x << k) | (x >> (64 - k))


cdef inline uint64_t splitmix64(uint64_t* x) noexcept nogil:
    x[0] += 0x9E3779B97F4A7C15ULL
    cdef uint64_t z = x[0]
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL
    return z ^ (z >> 31)


cdef inline void rng_seed(Rng* r, uint64_t seed) noexcept nogil:
    cdef uint64_t x = seed
    r.s0 = splitmix64(&x)
    r.s1 = splitmix64(&x)
    r.s2 = splitmix64(&x)
    r.s3 = splitmix64(&x)


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


cdef inline uint64_t rng_below(Rng* r, uint32_t n) noexcept nogil:
    """Uniform integer in [0, n) for 1 <= n < 2**32 (Lemire's multiply-shift with rejection: no modulo bias)."""
    cdef uint64_t m = (rng_next(r) >> 32) * n
    cdef uint32_t low = <uint32_t>m
    cdef uint32_t threshold
    if low < n:
        threshold = (<uint32_t>0 - n) % n
        while low < threshold:
            m = (rng_next(r) >> 32) * n
            low = <uint32_t>m
    return m >> 32


cdef inline double rng_uniform(Rng* r) noexcept nogil:
    """Uniform double in [0, 1) with 53 random bits."""
    return (rng_next(r) >> 11) * (1.0 / 9007199254740992.0)


cdef inline void rng_split(Rng* parent, Rng* child) noexcept nogil:
    """Seed an independent child stream from the parent (the parent advances)."""
    rng_seed(child, rng_next(parent) ^ 0xD1B54A32D192ED03ULL)


cdef class RNG:
    cdef Rng state
