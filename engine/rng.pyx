"""Python face of the xoshiro256** generator declared in rng.pxd."""
from libc.stdint cimport uint64_t

from engine.rng cimport Rng, rng_below, rng_next, rng_seed, rng_split, rng_uniform

_MASK64 = (1 << 64) - 1


cdef class RNG:
    """A seeded random stream. ``RNG(seed)``; ``split()`` gives an independent child stream.

    >>> r = RNG(7); a = r.below(10); RNG(7).below(10) == a
    True
    """

    def __init__(self, seed=0):
        if not isinstance(seed, int):
            raise TypeError(f"RNG seed must be an int, got {type(seed).__name__}")
        rng_seed(&self.state, <uint64_t>(seed & _MASK64))

    def next_u64(self):
        return rng_next(&self.state)

    def below(self, n):
        """A uniform integer in [0, n)."""
        if n < 1:
            raise ValueError(f"RNG.below needs n >= 1, got {n}")
        return rng_below(&self.state, <uint32_t>n)

    def random(self):
        """A uniform float in [0, 1)."""
        return rng_uniform(&self.state)

    def choice(self, seq):
        if len(seq) == 0:
            raise ValueError("RNG.choice of an empty sequence")
        return seq[rng_below(&self.state, <uint32_t>len(seq))]

    def shuffle(self, list items):
        cdef Py_ssize_t i, j
        for i in range(len(items) - 1, 0, -1):
            j = <Py_ssize_t>rng_below(&self.state, <uint32_t>(i + 1))
            items[i], items[j] = items[j], items[i]

    def split(self):
        """An independent child stream; this stream advances by one draw."""
        cdef RNG child = RNG.__new__(RNG)
        rng_split(&self.state, &child.state)
        return child

    def getstate(self):
        return (self.state.s0, self.state.s1, self.state.s2, self.state.s3)

    def setstate(self, state):
        self.state.s0, self.state.s1, self.state.s2, self.state.s3 = state

    def __repr__(self):
        return f"RNG(state={self.getstate()!r})"
