# Belief from the opponents' moves: a weighted particle filter over whole game states (search/belief.pyx).
from libc.stdint cimport int64_t

from engine.core cimport MAX_ACTIONS, MAX_PLAYERS, State
from engine.rng cimport Rng

cpdef enum:
    MODEL_UNIFORM = 0          # an opponent picks each legal action with equal probability
    MODEL_GREEDY = 1           # softmax over evaluate() of each legal action's successor, for the mover


cdef class ParticleFilter:
    cdef readonly int seat                 # whose events the filter reads (the searching seat)
    cdef readonly int size                 # K particles
    cdef readonly int model
    cdef readonly double temp
    cdef list particles                    # K States of one game
    cdef list spare                        # K more, the target of resampling (no allocation once built)
    cdef double* weights                   # normalised; 0: the particle contradicts what the seat saw
    cdef double* cumulative                # prefix sums of weights for draw(), rebuilt when stale
    cdef bint cumulative_ok
    cdef State scratch
    cdef State mover_view                  # the greedy model's world: a determinization from the mover's seat
    cdef Rng rng
    cdef readonly bint dead                # every particle died: refilled from the view at the next decision
    cdef readonly int64_t events           # events read (since the filter was built or reset)
    cdef readonly int64_t refills          # times the particles were refilled from a view's determinizations
    cdef readonly int64_t resamples
    cdef readonly double seconds           # time spent updating (observe, align, refill, resample)
    cdef int acts[MAX_ACTIONS]
    cdef double probs[MAX_ACTIONS]
    cdef int matched[MAX_ACTIONS]
    cdef double matched_prob[MAX_ACTIONS]
    cdef double ret[MAX_PLAYERS]

    cdef int model_probs(self, State s, int mover, int n) noexcept
    cdef double update_one(self, State s, int mover, int64_t seen) noexcept
    cdef void normalise(self) noexcept
    cdef void resample(self) noexcept
    # A particle drawn by weight (borrowed: copy it, never change it); the filter must be aligned and alive.
    cdef State draw(self, Rng* rng)
