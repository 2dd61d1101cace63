# Mixing functions for info_key(): hash what a player sees into 64 bits (not cryptographic, just well spread).
from libc.stdint cimport uint64_t, uint8_t



cdef inline uint64_t hash_mix(uint64_t h, uint64_t v) noexcept nogil:
    """Fold one 64-bit value into the running hash h (splitmix64 finaliser of h xor v)."""
    cdef uint64_t z = h ^ (v + 0x9E3779B97F4A7C15ULL + (h << 6) + (h >> 2))
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL
    return z ^ (z >> 31)


cdef inline uint64_t hash_bytes(uint64_t h, const void* data, size_t n) noexcept nogil:
    """Fold n bytes into h, eight at a time."""
    cdef const uint8_t* p = <const uint8_t*>data
    cdef size_t i = 0
    cdef uint64_t word
    cdef size_t k
    while i + 8 <= n:
        word = 0
        for k in range(8):
            word |= (<uint64_t>p[i + k]) << (8 * k)
        h = hash_mix(h, word)
        i += 8
    if i < n:
        word = 0
        k = 0
        while i < n:
            word |= (<uint64_t>p[i]) << (8 * k)
            i += 1
            k += 1
        h = hash_mix(h, word ^ (<uint64_t>k << 56))
    return h
