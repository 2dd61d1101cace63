"""Belief from the opponents' moves: a particle filter over whole game states (policy-based inference, Rebstock,
Solinas, Buro and Sturtevant 2019), game-agnostic: it needs only the contract of engine/core.pxd.

Each particle is a full state reached by a history consistent with everything the searching seat has seen. All
start at the game's initial state (public: the arena's chance is applied as chance events). For each event the
seat observes (the mover, and what it saw of the action: the action itself when public, else the negative class
``c_action_observation`` gives it), every particle

- at a chance node keeps the outcomes the seat would have seen the same way, draws one by probability among them
  and multiplies its weight by their total probability;
- at the seat's own decision applies its action (its own choices are no evidence about what it cannot see);
- at an opponent's decision keeps the legal actions that match the observation, multiplies its weight by the
  opponent model's total probability of them and draws one by that model.

A particle whose mover is not the event's, or with nothing that matches, gets weight 0. When the effective sample
size falls under K/2 the particles are resampled (systematic). At a decision ``align`` drops the particles not in
the seat's information set (a safety net: a game whose observations say less than its info keys); when none is
left, or the seat joined mid-game, the particles are refilled from determinizations of the view (the uniform
prior, as without a belief) and ``refills`` counts it.

The opponent models: ``MODEL_UNIFORM`` (every legal action alike: the filter is then an exact Bayesian update over
chance and observations) and ``MODEL_GREEDY`` (softmax over ``evaluate()`` of each action's successor, for the
mover, temperature ``temp``). The greedy model scores the moves on a determinization of the particle from the
mover's seat, so it credits the opponent only with what it knows (its own hand, not the searching seat's or a
face-down stack); a cheap model, as the paper's, not a search.
"""
from cpython.exc cimport PyErr_CheckSignals
from libc.math cimport exp
from libc.stdint cimport int64_t, uint64_t
from libc.stdlib cimport free, malloc

from engine.clock cimport now
from engine.core cimport CHANCE, MAX_ACTIONS, State
from engine.rng cimport RNG, Rng, rng_seed, rng_uniform
from search.rollout cimport leaf_value

MODELS = {"uniform": MODEL_UNIFORM, "greedy": MODEL_GREEDY}


cdef class ParticleFilter:
    """K weighted particles for `seat`, built from `initial` (a state every history of the game starts from)."""

    def __cinit__(self):
        self.weights = NULL
        self.cumulative = NULL

    def __init__(self, State initial, int seat, int particles, int model=MODEL_UNIFORM, double temp=0.1,
                 uint64_t seed=0):
        if particles < 1:
            raise ValueError(f"a particle filter needs at least 1 particle, got {particles}")
        if model not in (MODEL_UNIFORM, MODEL_GREEDY):
            raise ValueError(f"unknown opponent model {model}")
        if not temp > 0:
            raise ValueError(f"the greedy model's temperature must be > 0, got {temp}")
        if not 0 <= seat < initial.num_players:
            raise ValueError(f"seat {seat} is not a seat of a {initial.num_players}-player game")
        self.seat = seat
        self.size = particles
        self.model = model
        self.temp = temp
        self.weights = <double*>malloc(particles * sizeof(double))
        self.cumulative = <double*>malloc(particles * sizeof(double))
        if self.weights == NULL or self.cumulative == NULL:
            raise MemoryError("particle weights")
        self.particles = [initial.c_clone() for _ in range(particles)]
        self.spare = [initial.c_clone() for _ in range(particles)]
        self.scratch = initial.c_clone()
        self.mover_view = initial.c_clone()
        rng_seed(&self.rng, seed)
        self.events = self.refills = self.resamples = 0
        self.seconds = 0.0
        self.reset(initial)

    def __dealloc__(self):
        free(self.weights)
        free(self.cumulative)

    def reset(self, State initial):
        """Every particle back to `initial`, equal weights (a replay from the start: a resync after an undo). The
        counters go on: they are the filter's over the game."""
        cdef int i
        for i in range(self.size):
            (<State>self.particles[i]).c_copy_from(initial)
            self.weights[i] = 1.0 / self.size
        self.cumulative_ok = False
        self.dead = False

    def lose_track(self):
        """An event the filter cannot read (no observation given): every particle dies, refilled at the next
        decision."""
        self.dead = True
        self.cumulative_ok = False

    # --- reading events ------------------------------------------------------------------------------------
    def observe(self, int mover, int64_t seen):
        """One event as the seat saw it: `mover` (a seat, or CHANCE) and `seen` (the action when the seat saw it,
        else its negative observation class). A dead filter ignores events until the next ``align``."""
        cdef double t0 = now()
        cdef int i
        self.events += 1
        if not self.dead:
            for i in range(self.size):
                if self.weights[i] > 0.0:
                    self.weights[i] *= self.update_one(<State>self.particles[i], mover, seen)
            self.normalise()
            if not self.dead and self.ess() < 0.5 * self.size:
                self.resample()
        self.seconds += now() - t0
        if (self.events & 255) == 0:
            PyErr_CheckSignals()

    cdef double update_one(self, State s, int mover, int64_t seen) noexcept:
        """Move one particle along the event; returns the likelihood factor (0: it contradicts the event)."""
        cdef int n, m = 0, j
        cdef double total = 0.0, u
        cdef int p = s.c_current_player()
        if p != mover:
            return 0.0
        if p == CHANCE:
            n = s.c_chance_outcomes(self.acts, self.probs)
        else:
            n = s.c_legal_actions(self.acts)
            if p == self.seat:                  # its own move: no evidence, every match alike
                for j in range(n):
                    self.probs[j] = 1.0
            elif self.model_probs(s, p, n) != 0:
                return 0.0
        for j in range(n):
            if self.probs[j] > 0.0 and s.c_action_observation(self.acts[j], self.seat) == seen:
                self.matched[m] = self.acts[j]
                self.matched_prob[m] = self.probs[j]
                total += self.probs[j]
                m += 1
        if m == 0 or total <= 0.0:
            return 0.0
        u = rng_uniform(&self.rng) * total
        j = 0
        while j < m - 1 and u >= self.matched_prob[j]:
            u -= self.matched_prob[j]
            j += 1
        s.c_apply(self.matched[j])
        return 1.0 if p == self.seat else total

    cdef int model_probs(self, State s, int mover, int n) noexcept:
        """probs[0..n): the opponent model's probability of each of acts[0..n) for `mover`; -1 if n == 0."""
        cdef int j
        cdef double best = -1e300, total = 0.0
        if n <= 0:
            return -1
        if self.model == MODEL_UNIFORM:
            for j in range(n):
                self.probs[j] = 1.0 / n
            return 0
        # the mover scores its moves on what it knows: a determinization from its seat, not the particle itself
        # (which holds what only the particle knows: the searching seat's hidden pieces, face-down stacks)
        self.mover_view.c_copy_from(s)
        self.mover_view.c_determinize(mover, &self.rng)
        for j in range(n):
            self.scratch.c_copy_from(self.mover_view)
            self.scratch.c_apply(self.acts[j])
            leaf_value(self.scratch, self.ret)
            self.probs[j] = self.ret[mover] / self.temp
            if self.probs[j] > best:
                best = self.probs[j]
        for j in range(n):
            self.probs[j] = exp(self.probs[j] - best)
            total += self.probs[j]
        for j in range(n):
            self.probs[j] /= total
        return 0

    cdef void normalise(self) noexcept:
        cdef int i
        cdef double total = 0.0
        for i in range(self.size):
            total += self.weights[i]
        self.cumulative_ok = False
        if not total > 0.0:
            self.dead = True
            return
        for i in range(self.size):
            self.weights[i] /= total

    cdef void resample(self) noexcept:
        """Systematic resampling: K equally weighted copies, particle i copied about K * weight_i times."""
        cdef int i, j = 0
        cdef double step = 1.0 / self.size, u = rng_uniform(&self.rng) * step, acc = self.weights[0]
        for i in range(self.size):
            while u >= acc and j < self.size - 1:
                j += 1
                acc += self.weights[j]
            while self.weights[j] <= 0.0 and j > 0:      # rounding ran past the last live particle
                j -= 1
            (<State>self.spare[i]).c_copy_from(<State>self.particles[j])
            u += step
        self.particles, self.spare = self.spare, self.particles
        for i in range(self.size):
            self.weights[i] = step
        self.cumulative_ok = False
        self.resamples += 1

    # --- at a decision -------------------------------------------------------------------------------------
    def align(self, State view):
        """At the seat's decision in `view` (any state of its information set): drop the particles elsewhere; if
        none is left, refill from `view`. Returns the number of particles kept (0: refilled)."""
        cdef double t0 = now()
        cdef int i, kept = 0
        cdef uint64_t key = view.c_info_key(self.seat)
        cdef State s
        if view.c_current_player() != self.seat:
            raise ValueError(f"align: the view is not at seat {self.seat}'s decision")
        if not self.dead:
            for i in range(self.size):
                s = <State>self.particles[i]
                if self.weights[i] > 0.0 and s.c_current_player() == self.seat and s.c_info_key(self.seat) == key:
                    kept += 1
                else:
                    self.weights[i] = 0.0
            self.normalise()
        self.seconds += now() - t0
        if kept == 0:
            self.refill(view)
        return kept

    def refill(self, State view):
        """Every particle a fresh determinization of `view` from the seat (the uniform prior), equal weights."""
        cdef double t0 = now()
        cdef int i
        for i in range(self.size):
            (<State>self.particles[i]).c_copy_from(view)
            (<State>self.particles[i]).c_determinize(self.seat, &self.rng)
            self.weights[i] = 1.0 / self.size
        self.cumulative_ok = False
        self.dead = False
        self.refills += 1
        self.seconds += now() - t0

    cdef State draw(self, Rng* rng):
        cdef int i, lo = 0, hi = self.size - 1
        cdef double acc = 0.0, u
        if not self.cumulative_ok:
            for i in range(self.size):
                acc += self.weights[i]
                self.cumulative[i] = acc
            self.cumulative_ok = True
        u = rng_uniform(rng) * self.cumulative[self.size - 1]
        while lo < hi:                          # the first particle whose prefix sum passes u
            i = (lo + hi) // 2
            if self.cumulative[i] > u:
                hi = i
            else:
                lo = i + 1
        while self.weights[lo] <= 0.0 and lo > 0:        # rounding ran past the last live particle
            lo -= 1
        return <State>self.particles[lo]

    # --- inspection ----------------------------------------------------------------------------------------
    def ess(self):
        """Effective sample size, 1 / sum(w^2) of the normalised weights (0 when dead)."""
        cdef int i
        cdef double sq = 0.0
        if self.dead:
            return 0.0
        for i in range(self.size):
            sq += self.weights[i] * self.weights[i]
        return 1.0 / sq if sq > 0 else 0.0

    def weight_list(self):
        return [self.weights[i] for i in range(self.size)]

    def action_named(self, int mover, str text):
        """The action whose notation is `text` for `mover` (or a chance outcome), read in a live particle where
        `mover` is to move: a public move is named the same in every state the seat cannot tell apart. None when
        no live particle has such a move (the protocol's events name moves, not action ids)."""
        cdef int i
        cdef State s
        if self.dead:
            return None
        for i in range(self.size):
            s = <State>self.particles[i]
            if self.weights[i] > 0.0 and s.c_current_player() == mover:
                moves = [a for a, _ in s.chance_outcomes()] if mover == CHANCE else s.legal_actions()
                for a in moves:
                    if s.action_to_str(a) == text:
                        return a
                return None
        return None

    def particle(self, int i):
        """A copy of particle i."""
        if not 0 <= i < self.size:
            raise IndexError(f"no particle {i} of {self.size}")
        return (<State>self.particles[i]).c_clone()

    def sample(self, RNG rng):
        """A copy of a particle drawn by weight with `rng` (an engine.rng.RNG: PIMC's worlds)."""
        if self.dead:
            raise ValueError("sample: every particle died; align the filter with a view first")
        return self.draw(&rng.state).c_clone()

    def stats(self):
        return {"belief_ess": round(self.ess(), 2), "belief_particles": self.size, "belief_refills": self.refills,
                "belief_resamples": self.resamples, "belief_seconds": self.seconds}
