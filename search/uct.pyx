"""The UCT engine shared by every searcher: selection, expansion, rollout and max^n backup, all in C.

One engine, three ways of keying nodes:
- plain (MCTS, and each PIMC tree): the tree is over the one given state; an edge is an action.
- information sets (ISMCTS, the default ``keys=mover``): every iteration starts from a fresh determinization of
  the root from the observer's seat; every decision's node is the information set of the player to move there,
  found by its ``c_info_key`` in an index (not by the path that led to it). So whatever a player learns (a
  revealed bid, a drawn card) separates its nodes, and an opponent's node never depends on the searcher's own
  secret choices. With ``rewind`` (the searcher's ``pending=rewind``) each iteration first takes back the other
  players' secret choices made before the root and not yet revealed to the searcher (``c_rewind_pending`` on the
  determinization): they are made again at their players' own nodes, and the searcher's root node is then found
  by its key, so a second mover answers the others' strategies, not a uniformly drawn secret. ``keys=observer``: every node is the searching player's information set instead, opponents'
  moves it cannot see merged into one edge and drawn uniformly (single-observer ISMCTS).
- paths (``keys=path``, the engine before issue 24, kept for comparison): an edge is what the observer saw of
  the action when it was made (``c_action_observation``), so what it learns later (a reveal) never enters a
  key; optionally one tree a player (multi-observer).
In all information-set modes a child's exploration term counts the visits in which it was available, not the
parent's.
Chance nodes are never chosen: their outcome is sampled by its probability and the edge is followed (or added).
Rewards are vectors (one value per player, from ``c_returns`` or ``c_evaluate``); at a node the player to move
picks by its own component (max^n).
"""
from cpython.exc cimport PyErr_CheckSignals
from libc.math cimport ceil, log, pow, sqrt
from libc.stdint cimport int32_t, int64_t, uint64_t
from libc.stdlib cimport free, malloc, qsort, realloc
from libc.string cimport memset

from engine.clock cimport now
from engine.core cimport CHANCE, MAX_ACTIONS, MAX_PLAYERS, TERMINAL, State, sample_chance_outcome
from engine.rng cimport Rng, rng_below, rng_seed, rng_uniform
from search.belief cimport ParticleFilter
from search.rollout cimport (ROLLOUT_MAST, ROLLOUT_RANDOM, Mast, turn_reached, policy_action, cutoff_value,
                             leaf_value, mast_decay, mast_free, mast_mean, mast_note, mast_reset, mast_update, rollout)
from engine.hashing cimport hash_mix
from search.tree cimport (Index, Node, Tree, index_clear, index_free, index_get, index_init, index_put, tree_add_child,
                          tree_add_node, tree_clear, tree_free, tree_init)
from engine.core import no_legal_action

# How ISMCTS keys its nodes (the `keys` option; see the module docstring).
cpdef enum:
    KEYS_PATH = 0
    KEYS_MOVER = 1
    KEYS_OBSERVER = 2


# reuse: a kept tree larger than this is dropped for a fresh one (most of it is then off the game's path)
cdef int32_t REUSE_MAX_NODES = 1_000_000        # about 80 MB of nodes

# stop=decided looks at the root every STOP_CHECK_EVERY iterations (a scan of its children), from STOP_CHECK_FROM on
# (before that the rate the budget left is reckoned at is too rough)
cdef enum:
    STOP_CHECK_EVERY = 16
    STOP_CHECK_FROM = 64

cdef tuple _game_identity(State s):
    """What makes two states' games the same game (views may come from different Game objects)."""
    return (s.game.name, s.game.num_players, s.game.options)

# ln(n) for small n: UCB takes one logarithm a child (availability counts differ between children), and a table
# lookup is several times cheaper than log() in the selection loop.
cdef enum:
    LOG_TABLE_SIZE = 8192
cdef double LOG_TABLE[LOG_TABLE_SIZE]
cdef int _i
LOG_TABLE[0] = 0.0
for _i in range(1, LOG_TABLE_SIZE):
    LOG_TABLE[_i] = log(<double>_i)


cdef inline double fast_log(int64_t n) noexcept nogil:
    return LOG_TABLE[n] if n < LOG_TABLE_SIZE else log(<double>n)


cdef struct KeyAct:
    int64_t key          # the edge this action belongs to
    int action


cdef int cmp_keyact(const void* a, const void* b) noexcept nogil:
    cdef int64_t x = (<const KeyAct*>a).key
    cdef int64_t y = (<const KeyAct*>b).key
    if x != y:
        return -1 if x < y else 1
    return (<const KeyAct*>a).action - (<const KeyAct*>b).action


cdef inline bint path_push(int32_t** path, int* length, int* capacity, int32_t node) noexcept:
    """Append `node` to a growable path (doubled when full; False when out of memory)."""
    cdef int32_t* grown
    cdef int cap
    if length[0] == capacity[0]:
        cap = 2 * capacity[0] if capacity[0] > 0 else 64
        grown = <int32_t*>realloc(path[0], cap * sizeof(int32_t))
        if grown == NULL:
            return False
        path[0] = grown
        capacity[0] = cap
    path[0][length[0]] = node
    length[0] += 1
    return True


cdef inline void credit(Node* nodes, const int32_t* path, int length, const double* ret, int players) noexcept:
    """Count one visit and add the reward vector `ret` at every node of `path`."""
    cdef int i, q
    cdef int32_t x
    for i in range(length):
        x = path[i]
        nodes[x].visits += 1
        for q in range(players):
            nodes[x].value[q] += ret[q]


cdef class UCT:
    """The engine; searchers (search/searchers.py) drive it. Not thread-safe; one search at a time."""
    cdef Tree trees[MAX_PLAYERS]          # plain and single-observer: trees[0]; multi-observer: one a player
    cdef readonly bint info_sets
    cdef readonly bint multi                    # multi-observer ISMCTS (one tree a player)
    cdef readonly int keys                      # KEYS_PATH, KEYS_MOVER or KEYS_OBSERVER (information sets only)
    cdef Index index                            # information-set key -> node (KEYS_MOVER, KEYS_OBSERVER)
    cdef int ntrees
    cdef int main                               # the tree that holds the searching player's decision
    cdef readonly double c
    cdef readonly int rollout_kind
    cdef readonly int lookahead                 # rollout=heuristic: moves scored a step (0: every legal move)
    cdef readonly int64_t depth_limit           # actions (turns) from the root before evaluate() scores; < 0: none
    cdef readonly int64_t depth_base            # depth_limit at a search's start (deepen moves it during one)
    cdef readonly int64_t deepen                # actions depth_limit moves at deepen_from iterations, each doubling
    cdef readonly int64_t deepen_from
    cdef int64_t deepen_next                    # this search's iteration count of the next move; < 0: none
    cdef readonly int64_t playout_limit         # rollout actions past the tree's leaf before it scores; < 0: none
    cdef readonly double leaf_mix               # the share of a cut-off leaf's value from a rollout to the end
    cdef readonly bint mix_in_tree_only         # leaf_mix at cut-offs met inside the tree only (mix_at=tree)
    cdef readonly int mix_kind                  # the policy of leaf_mix's ending: ROLLOUT_RANDOM or rollout_kind
    cdef readonly bint settle                   # evaluate() scores only states where chance does not act next
    cdef readonly bint turns                    # depth and playout count turns, not actions (depth_unit=turns)
    cdef readonly bint self_only                # opponents=policy: the tree holds the searcher's decisions only
    cdef readonly bint stop_decided             # stop=decided: end a search once its choice cannot change
    cdef public bint stopped_early              # the last run ended so, before its budget (a slicing caller that
                                                # stops the search itself sets it)
    cdef int last                               # who made this iteration's last decision (-1: no one yet)
    cdef int64_t turns_begun                    # depth_unit=turns: turns begun below the root this iteration
    cdef Mast mast                              # move averages of this search (search/rollout.pxd)
    cdef readonly bint averages                 # the move averages are kept (rollout=mast, or history > 0)
    cdef readonly double history                # progressive history's weight (0: off)
    cdef readonly double carry                  # the share of the move averages a run keeps from the last one
    cdef readonly bint reuse                    # information sets: a run starts from the last runs' node of its root
    cdef readonly double implicit               # implicit minimax backups' weight alpha (0: off; one tree only)
    cdef double* imp                            # [node * MAX_PLAYERS + q]: trees[0]'s implicit minimax values
    cdef int64_t imp_cap                        # the nodes imp has a row for
    cdef bint imp_on                            # implicit > 0 and every node of the tree has its row
    cdef readonly double oma                    # opponent move abstraction's equivalence K (0: off)
    cdef Tree abstract                          # oma: the searching player's own moves from the root, nothing else
    cdef int32_t* apath                         # oma: this iteration's nodes of `abstract`
    cdef int apath_len
    cdef int apath_cap
    cdef int32_t anode                          # oma: this iteration's node of `abstract` (-1: none, out of memory)
    cdef bint abstracting                       # choose_edge at a node of the searching player, oma on
    cdef int32_t achild[MAX_ACTIONS]            # oma: each edge's node of `abstract` (-1: not yet)
    cdef readonly double widen                  # progressive widening at the other players' nodes: C (0: off)
    cdef readonly double widen_power            # ... and its exponent: a node has at most ceil(C (n + 1)^power) edges
    cdef readonly int32_t root_node             # the root's node (0 but where a reused tree already held it)
    cdef readonly int64_t reused_visits         # the root node's visits carried in from earlier runs
    cdef object reuse_game                      # the game the kept tree was searched in: (name, players, options)
    cdef Rng rng
    cdef State root
    cdef State work
    cdef State scratch
    cdef readonly int observer                  # the seat searching (ISMCTS: whose information set)
    cdef int num_players
    # per-iteration scratch
    cdef int32_t* paths[MAX_PLAYERS]
    cdef int path_cap[MAX_PLAYERS]
    cdef int path_len[MAX_PLAYERS]
    cdef int path_edges                         # information-set trees: decisions on the path (for max_depth)
    cdef int32_t at[MAX_PLAYERS]                # multi-observer: each tree's current node (-1: stopped)
    cdef int acts[MAX_ACTIONS]
    cdef KeyAct ka[MAX_ACTIONS]
    cdef int dstart[MAX_ACTIONS]
    cdef int dend[MAX_ACTIONS]
    cdef int32_t dchild[MAX_ACTIONS]
    cdef int32_t dprev[MAX_ACTIONS]
    cdef int missing[MAX_ACTIONS]
    cdef double ret[MAX_PLAYERS]
    cdef bint stuck                             # an iteration reached a node without a legal action (in work)
    cdef readonly bint rewind                   # keys=mover: root iterations before others' pending secret choices
    cdef bint bad_rewind                        # a game's c_rewind_pending did not lead back to the root
    cdef ParticleFilter belief                  # information sets: worlds drawn from it by weight (None: off)
    cdef double belief_mix                      # the share of iterations that still take a fresh determinization
    # statistics of the last run
    cdef readonly int64_t iterations
    cdef readonly int64_t calls
    cdef readonly int max_depth
    cdef readonly double seconds
    cdef readonly double rollout_seconds
    cdef readonly int64_t belief_draws          # iterations whose world was a particle
    cdef readonly int64_t cutoff_in_tree        # iterations scored at the depth cut-off before leaving the tree

    def __cinit__(self):
        cdef int t
        for t in range(MAX_PLAYERS):
            self.paths[t] = NULL
            self.trees[t].nodes = NULL
            self.trees[t].capacity = 0
            self.trees[t].size = 0
        self.index.keys = NULL
        self.index.nodes = NULL
        self.index.capacity = 0
        self.index.used = 0
        memset(&self.mast, 0, sizeof(Mast))
        self.imp = NULL
        self.imp_cap = 0
        self.abstract.nodes = NULL
        self.abstract.capacity = 0
        self.abstract.size = 0
        self.apath = NULL
        self.apath_len = 0
        self.apath_cap = 0

    def __init__(self, bint info_sets, double c, int rollout_kind, int64_t depth_limit, bint multi=False,
                 int keys=KEYS_PATH, bint rewind=False, bint settle=False, double epsilon=0.1,
                 double history=0.0, double carry=0.0, bint reuse=False, double implicit=0.0, int lookahead=3,
                 int64_t playout_limit=-1, double leaf_mix=0.0, bint mix_in_tree_only=False,
                 int64_t deepen=0, int64_t deepen_from=1000, bint turns=False, bint self_only=False,
                 bint mix_by_rollout=False, bint stop_decided=False, double oma=0.0, double widen=0.0,
                 double widen_power=0.5):
        cdef int t
        if keys not in (KEYS_PATH, KEYS_MOVER, KEYS_OBSERVER):
            raise ValueError(f"UCT: keys={keys} is not one of KEYS_PATH, KEYS_MOVER, KEYS_OBSERVER")
        if keys != KEYS_PATH and (multi or not info_sets):
            raise ValueError("UCT: information-set keys need info_sets=True and one tree (multi=False)")
        self.info_sets = info_sets
        self.keys = keys if info_sets else KEYS_PATH
        self.multi = multi and info_sets
        self.rewind = rewind and self.keys == KEYS_MOVER
        self.ntrees = MAX_PLAYERS if self.multi else 1
        self.c = c
        self.rollout_kind = rollout_kind
        if lookahead < 0:
            raise ValueError(f"UCT: lookahead {lookahead} is not >= 0")
        self.lookahead = lookahead
        self.depth_limit = depth_limit
        self.depth_base = depth_limit
        if deepen < 0 or deepen_from < 1:
            raise ValueError(f"UCT: deepen {deepen} must be >= 0 and deepen_from {deepen_from} >= 1")
        self.deepen = deepen if depth_limit >= 0 else 0      # no cut-off, nothing to move
        self.deepen_from = deepen_from
        self.deepen_next = -1
        self.playout_limit = playout_limit
        if not 0.0 <= leaf_mix <= 1.0:
            raise ValueError(f"UCT: leaf_mix {leaf_mix} is not in [0, 1]")
        self.leaf_mix = leaf_mix
        self.mix_in_tree_only = mix_in_tree_only
        self.mix_kind = rollout_kind if mix_by_rollout else ROLLOUT_RANDOM   # mix_policy=rollout: the search's own
        self.settle = settle
        self.turns = turns
        if self_only and self.multi:
            raise ValueError("UCT: opponents=policy keeps one tree of the searcher's decisions: not with multi=True "
                             "(one tree a player)")
        self.self_only = self_only
        self.stop_decided = stop_decided
        self.stopped_early = False
        self.last = -1
        self.turns_begun = 0
        if not 0.0 <= epsilon <= 1.0:
            raise ValueError(f"UCT: epsilon {epsilon} is not in [0, 1]")
        self.mast.epsilon = epsilon
        if not history >= 0.0:
            raise ValueError(f"UCT: history {history} is not >= 0")
        self.history = history
        self.averages = rollout_kind == ROLLOUT_MAST or history > 0.0
        if not 0.0 <= carry <= 1.0:
            raise ValueError(f"UCT: carry {carry} is not in [0, 1]")
        self.carry = carry
        if reuse and self.keys == KEYS_PATH:
            raise ValueError("UCT: reuse needs information-set keys (KEYS_MOVER or KEYS_OBSERVER): a path-keyed "
                             "tree has no node to find a later root by")
        self.reuse = reuse
        if not 0.0 <= implicit <= 1.0:
            raise ValueError(f"UCT: implicit {implicit} is not in [0, 1]")
        if implicit > 0.0 and self.multi:
            raise ValueError("UCT: implicit minimax backups need one tree (multi=False)")
        self.implicit = implicit
        self.imp_on = False
        if not oma >= 0.0:
            raise ValueError(f"UCT: oma {oma} is not >= 0")
        if oma > 0.0 and self.multi:
            raise ValueError("UCT: opponent move abstraction needs one tree (multi=False)")
        self.oma = oma
        self.abstracting = False
        self.anode = -1
        if not widen >= 0.0 or not 0.0 <= widen_power <= 1.0:
            raise ValueError(f"UCT: widen {widen} must be >= 0 and widen_power {widen_power} in [0, 1]")
        self.widen = widen
        self.widen_power = widen_power
        self.root_node = 0
        self.reused_visits = 0
        for t in range(self.ntrees):
            if tree_init(&self.trees[t], 4096) != 0:
                raise MemoryError("search tree")
            self.path_cap[t] = 256
            self.paths[t] = <int32_t*>malloc(self.path_cap[t] * sizeof(int32_t))
            if self.paths[t] == NULL:
                raise MemoryError("search path")
        if self.keys != KEYS_PATH and index_init(&self.index, 8192) != 0:
            raise MemoryError("search index")
        if self.oma > 0.0 and tree_init(&self.abstract, 4096) != 0:
            raise MemoryError("search abstraction")

    def __dealloc__(self):
        cdef int t
        for t in range(MAX_PLAYERS):
            tree_free(&self.trees[t])
            free(self.paths[t])
        index_free(&self.index)
        tree_free(&self.abstract)
        free(self.apath)
        mast_free(&self.mast)
        free(self.imp)

    @property
    def epsilon(self):
        """rollout=mast: the share of rollout moves drawn uniformly."""
        return self.mast.epsilon

    def set_belief(self, ParticleFilter belief, double mix=0.0):
        """Information-set searches draw each iteration's world from `belief`'s particles by weight (a share `mix`
        of them still a fresh determinization of the root); None: determinizations only. The filter must be
        aligned with the root (ParticleFilter.align) before run()."""
        if not 0.0 <= mix <= 1.0:
            raise ValueError(f"UCT: belief mix {mix} is not in [0, 1]")
        self.belief = belief if mix < 1.0 else None      # mix=1: every world a determinization, as without
        self.belief_mix = mix

    cdef inline void fresh_world(self, State w) noexcept:
        """`w` becomes this iteration's world: a particle drawn by weight, or a determinization of the root."""
        if self.belief is not None and (self.belief_mix <= 0.0 or rng_uniform(&self.rng) >= self.belief_mix):
            w.c_copy_from(self.belief.draw(&self.rng))
            self.belief_draws += 1
        else:
            w.c_copy_from(self.root)
            w.c_determinize(self.observer, &self.rng)

    cdef inline bint push(self, int t, int32_t node) noexcept:
        return path_push(&self.paths[t], &self.path_len[t], &self.path_cap[t], node)

    # --- implicit minimax backups (Lanctot, Winands, Pepels and Sturtevant 2014) --------------------------------
    # Each node of trees[0] keeps a value vector besides its mean return: evaluate() of the state it was made in,
    # then backed up by max^n: a node where p moves takes the vector of its child best for p; a node whose
    # children are chance outcomes, their visit-weighted mean; an information-set edge (no children: the next
    # decision is found by its key) the running mean of the nodes that followed it, since the worlds behind one
    # edge differ. UCB's value term for p is (1 - implicit) x p's mean return + implicit x p's entry.
    cdef bint imp_room(self, int32_t node) noexcept:
        """imp has a row for `node` (grown by doubling); False when out of memory."""
        cdef int64_t cap
        cdef double* grown
        if node < self.imp_cap:
            return True
        cap = max(2 * self.imp_cap, <int64_t>node + 1, 4096)
        grown = <double*>realloc(self.imp, cap * MAX_PLAYERS * sizeof(double))
        if grown == NULL:
            return False
        self.imp = grown
        self.imp_cap = cap
        return True

    cdef void imp_init(self, int32_t node, State w) noexcept:
        """A new node's row: the value of `w`, this iteration's world where the node was made (never the root
        state). Out of memory: the implicit values are off until the tree is cleared."""
        if not self.imp_on or node < 0:
            return
        if not self.imp_room(node):
            self.imp_on = False
            return
        leaf_value(w, &self.imp[<int64_t>node * MAX_PLAYERS])

    cdef void imp_backup(self) noexcept:
        """Back the implicit values up this iteration's path (after its visits were counted)."""
        cdef Node* nodes = self.trees[0].nodes
        cdef int n = self.path_len[0], i, q, m
        cdef int32_t x, c, best_c, s
        cdef double* row
        cdef double total, weight, best
        for i in range(n - 1, -1, -1):
            x = self.paths[0][i]
            row = &self.imp[<int64_t>x * MAX_PLAYERS]
            c = nodes[x].first_child
            if c >= 0 and nodes[c].mover == CHANCE:       # chance children sort first, and come alone
                total = 0.0
                for q in range(self.num_players):
                    row[q] = 0.0
                while c >= 0:
                    weight = <double>nodes[c].visits
                    total += weight
                    for q in range(self.num_players):
                        row[q] += weight * self.imp[<int64_t>c * MAX_PLAYERS + q]
                    c = nodes[c].next_sibling
                if total > 0.0:
                    for q in range(self.num_players):
                        row[q] /= total
            elif c >= 0:
                m = nodes[c].mover
                best_c = c
                best = -1e300
                while c >= 0:
                    if nodes[c].mover == m and self.imp[<int64_t>c * MAX_PLAYERS + m] > best:
                        best = self.imp[<int64_t>c * MAX_PLAYERS + m]
                        best_c = c
                    c = nodes[c].next_sibling
                for q in range(self.num_players):
                    row[q] = self.imp[<int64_t>best_c * MAX_PLAYERS + q]
            elif i + 1 < n and nodes[x].visits > 0:
                s = self.paths[0][i + 1]
                for q in range(self.num_players):
                    row[q] += (self.imp[<int64_t>s * MAX_PLAYERS + q] - row[q]) / nodes[x].visits

    def run(self, State root, long long iterations, double seconds, long long calls, uint64_t seed,
            bint resume=False, double stop_seconds=-1.0):
        """Search from `root` (a decision node) until the first budget is met: `iterations` (> 0), `seconds`
        (> 0) or forward-model `calls` (> 0; checked between iterations). 0 means "no such budget"; at least
        one iteration always runs. The tree is kept for inspection until the next run. ``resume=True`` goes on
        with the last run's tree, random stream and counters (same `root`; `seed` ignored; the budgets count
        from here), so a search in slices is the same search as one run of their total (search/analysis.py).
        With stop_decided the run also ends once the root's choice is decided (decided_within()), reckoned
        against `iterations`, `calls` and `stop_seconds`: the seconds the whole search has left where this run is a
        slice of it (search/analysis.py; 0: no time budget), this run's `seconds` where negative."""
        cdef int player = root.c_current_player()
        cdef int k
        if player < 0:
            raise ValueError("UCT.run needs a decision node")
        if self.belief is not None and (self.belief.seat != player or self.belief.dead):
            raise ValueError("UCT.run: the belief is not aligned with the root (another seat, or every particle "
                             "died); align it first")
        if resume:
            if self.trees[self.main].size == 0 or player != self.observer or root.num_players != self.num_players:
                raise ValueError("UCT.run(resume=True) needs a previous run from the same position")
            return self._loop(root, iterations, seconds, calls, stop_seconds)
        cdef int32_t kept = self.kept_root(root, player)
        self.observer = player
        self.num_players = root.num_players
        rng_seed(&self.rng, seed)
        self.main = player if self.multi else 0
        if self.multi and root.num_players > MAX_PLAYERS:
            raise ValueError("too many players")
        if kept >= 0:
            self.root_node = kept
            self.reused_visits = self.trees[0].nodes[kept].visits
        else:
            self.root_node = 0
            self.reused_visits = 0
            for k in range(self.ntrees):
                tree_clear(&self.trees[k])
                if self.trees[k].size == 0:
                    raise MemoryError("search tree")
            if self.keys != KEYS_PATH:
                # the root is the searching player's information set: every determinization of it shares the key
                index_clear(&self.index)
                self.trees[0].nodes[0].mover = player
                self.trees[0].nodes[0].key = <int64_t>self.set_key(root, player)
                if index_put(&self.index, <uint64_t>self.trees[0].nodes[0].key, 0) != 0:
                    raise MemoryError("search index")
            # the root's implicit value comes from its children (the root state itself is never evaluated: it
            # may be the true state, which the searching player cannot see)
            self.imp_on = self.implicit > 0.0 and self.imp_room(0)
            if self.imp_on:
                memset(self.imp, 0, MAX_PLAYERS * sizeof(double))
        if self.oma > 0.0:
            tree_clear(&self.abstract)          # the searching player's own moves count from this root
            if self.abstract.size == 0:
                raise MemoryError("search abstraction")
        self.reuse_game = _game_identity(root) if self.reuse else None
        self.iterations = 0
        self.depth_limit = self.depth_base               # each search starts at the declared cut-off
        self.deepen_next = self.deepen_from if self.deepen > 0 else -1
        self.calls = 0
        self.max_depth = 0
        self.rollout_seconds = 0.0
        self.seconds = 0.0
        self.belief_draws = 0
        self.cutoff_in_tree = 0
        if self.averages:
            if (self.carry > 0.0 and self.mast.players == root.num_players
                    and self.mast.actions == root.game.num_distinct_actions):
                mast_decay(&self.mast, self.carry)     # the same game: the last runs' averages, faded
            elif mast_reset(&self.mast, root.num_players, root.game.num_distinct_actions) != 0:
                raise MemoryError("search move averages")
        return self._loop(root, iterations, seconds, calls, stop_seconds)

    cdef int32_t kept_root(self, State root, int player):
        """reuse: the node the earlier runs of this game left for the root's information set, or -1 (a fresh
        tree). Only the same seat's own earlier searches count: a tree another seat searched was grown from
        worlds drawn from that seat's information, which this one must not see."""
        cdef int32_t node
        if (not self.reuse or self.reuse_game != _game_identity(root)
                or player != self.observer or root.num_players != self.num_players
                or self.trees[0].size > REUSE_MAX_NODES):
            return -1
        node = index_get(&self.index, self.set_key(root, player))
        if node < 0 or self.trees[0].nodes[node].mover != player:
            return -1
        return node

    cdef int64_t _loop(self, State root, long long iterations, double seconds, long long calls,
                       double stop_seconds) except -1:
        """Iterate until this call's budgets are met (counted from the counters' values on entry), or with
        stop_decided until the root's choice is decided (see run() for `stop_seconds`)."""
        cdef int64_t it0 = self.iterations, calls0 = self.calls, done
        self.stopped_early = False
        self.root = root
        self.work = root.c_clone()
        self.scratch = root.c_clone()
        self.stuck = False
        self.bad_rewind = False
        cdef double t0 = now(), t = t0
        while True:
            if self.deepen_next > 0 and self.iterations >= self.deepen_next:
                # deepen: the more iterations, the less noise in each leaf's mean, so a longer (less biased)
                # horizon pays; the leaves scored before keep their shorter horizon, a shrinking share
                self.depth_limit += self.deepen
                self.deepen_next = self.deepen_next * 2 if self.deepen_next < (<int64_t>1 << 61) else -1
            self.mast.n_played = 0
            if self.keys != KEYS_PATH:
                self.iterate_infosets()
            elif self.multi:
                self.iterate_multi()
            else:
                self.iterate()
            if self.stuck:                      # a broken state: raise rather than search on
                self.root = None
                raise no_legal_action(self.work, "search")
            if self.bad_rewind:
                self.root = None
                raise RuntimeError(f"{type(root).__name__}.c_rewind_pending: after the pending choices were made "
                                   "again the searching player's information set was not the root's (a game bug)")
            self.iterations += 1
            if (self.iterations & 1023) == 0:
                PyErr_CheckSignals()            # Ctrl-C stops a long search
            if iterations > 0 and self.iterations - it0 >= iterations:
                break
            if calls > 0 and self.calls - calls0 >= calls:
                break
            if seconds > 0:
                t = now()
                if t - t0 >= seconds:
                    break
            done = self.iterations - it0
            if (self.stop_decided and done >= STOP_CHECK_FROM and done % STOP_CHECK_EVERY == 0
                    and self.decided_within(iterations, seconds if stop_seconds < 0 else stop_seconds, calls, done,
                                            self.calls - calls0, t - t0)):
                self.stopped_early = True
                break
        self.seconds += now() - t0
        self.root = None
        return self.iterations

    cdef void iterate(self) noexcept:
        cdef State w = self.work
        cdef int32_t node = 0, child
        cdef int p, n, i
        cdef int64_t key, applied = 0
        cdef bint created
        if self.info_sets:
            self.fresh_world(w)
        else:
            w.c_copy_from(self.root)
        self.path_len[0] = 0
        self.push(0, 0)
        self.last = -1
        self.turns_begun = 0
        self.anode = 0
        self.apath_len = 0
        # --- selection and expansion ---------------------------------------------------------------------
        while True:
            p = w.c_current_player()
            if self.scored_leaf(w, p, applied):
                return
            if p == CHANCE:
                i = sample_chance_outcome(w, &self.rng)
                if i < 0:
                    self.stuck = True
                    return
                key = w.c_action_observation(i, self.observer) if self.info_sets else i
                child = self.find_or_add(&self.trees[0], node, CHANCE, key, &created)
                w.c_apply(i)
                applied += 1
                self.calls += 1
                if child < 0:
                    break                      # out of memory: roll out from here without expanding
                node = child
                self.push(0, node)
                if created:
                    self.imp_init(node, w)
                    break
                continue
            n = w.c_legal_actions(self.acts)
            if n <= 0:                         # a broken state: run() raises
                self.stuck = True
                return
            if self.self_only and p != self.observer:
                if not self.policy_move(w, p, n):
                    return
                applied += 1
                continue
            child = self.choose_edge(w, &self.trees[0], node, p, n, &created)
            applied += 1
            self.last = p
            if child < 0:
                break                          # out of memory: roll out from here without expanding
            node = child
            self.push(0, node)
            if created:
                self.imp_init(node, w)
                break
        # --- simulation ----------------------------------------------------------------------------------
        self.simulate(w, applied)

    # --- information-set trees (keys=mover, keys=observer) ----------------------------------------------------
    cdef inline uint64_t set_key(self, State w, int p) noexcept:
        """The key of the node of player `p`'s decision in `w`: the information set of `p` (keys=mover) or of
        the searching player (keys=observer), with the seat to move folded in."""
        cdef int k = p if self.keys == KEYS_MOVER else self.observer
        return hash_mix(w.c_info_key(k), <uint64_t>(p + 1) | (<uint64_t>(k + 1) << 8))

    cdef inline void group_edges(self, State w, int p, int n, bint merge) noexcept:
        """ka[0..n): the legal actions with the key of the edge each belongs to, sorted by key. The mover's own
        actions are their own keys; with keys=observer an opponent's move is keyed by what the searching player
        sees of it (`merge`), so the moves it cannot tell apart share one edge (and so with keys=path)."""
        cdef int i
        cdef bint sorted_keys = True
        if merge:
            for i in range(n):
                self.ka[i].key = w.c_action_observation(self.acts[i], self.observer)
                self.ka[i].action = self.acts[i]
                if i > 0 and self.ka[i].key < self.ka[i - 1].key:
                    sorted_keys = False
        else:
            for i in range(n):
                self.ka[i].key = self.acts[i]
                self.ka[i].action = self.acts[i]
                if i > 0 and self.acts[i] < self.acts[i - 1]:
                    sorted_keys = False
        if not sorted_keys:
            qsort(self.ka, n, sizeof(KeyAct), cmp_keyact)

    cdef inline double move_average(self, int p, int j) noexcept:
        """The move average for `p` of edge j's first move."""
        return mast_mean(&self.mast, p, self.ka[self.dstart[j]].action)

    cdef inline double edge_score(self, Node* nodes, int p, int j, double logn) noexcept:
        """UCB1 of edge j (its child dchild[j]) for `p`; with progressive history (Nijssen and Winands) plus a
        bias towards moves that did well anywhere in this search, fading as the edge's own visits grow."""
        cdef Node* child = &nodes[self.dchild[j]]
        cdef double mean = child.value[p] / child.visits, beta
        cdef Node* abstract_child
        if self.abstracting and self.achild[j] >= 0:
            # opponent move abstraction: the same own move after the same own moves, whatever the others did in
            # between, blended in with RAVE's schedule (Gelly and Silver): it fades as the edge's own visits grow
            abstract_child = &self.abstract.nodes[self.achild[j]]
            if abstract_child.visits > 0:
                beta = sqrt(self.oma / (3.0 * child.visits + self.oma))
                mean = (1.0 - beta) * mean + beta * abstract_child.value[p] / abstract_child.visits
        if self.imp_on:
            mean = (1.0 - self.implicit) * mean + self.implicit * self.imp[<int64_t>self.dchild[j] * MAX_PLAYERS + p]
        cdef double score = mean + self.c * sqrt(logn / child.visits)
        if self.history > 0.0:
            score += self.history * self.move_average(p, j) / (child.visits + 1.0)
        return score

    cdef int pick_missing(self, int p, int nmiss) noexcept:
        """The untried edge to expand, of missing[0..nmiss): uniformly; with progressive history the one whose
        move has the best average for `p` (ties to the first from a random start), so a wide node tries its
        likely moves first; with oma, at the searching player's nodes, abstract_pick()'s."""
        cdef int start = rng_below(&self.rng, nmiss), i, m, best_j
        cdef double v, best = -1.0
        if self.abstracting:
            return self.abstract_pick(p, start, nmiss)
        if self.history <= 0.0:
            return self.missing[start]
        best_j = self.missing[start]
        for i in range(nmiss):
            m = start + i
            if m >= nmiss:
                m -= nmiss
            v = self.move_average(p, self.missing[m])
            if v > best:
                best = v
                best_j = self.missing[m]
        return best_j

    cdef int abstract_pick(self, int p, int start, int nmiss) noexcept:
        """oma: of the untried edges missing[0..nmiss), the one UCB1 on the abstraction's statistics picks (one it
        has never tried there first, from a random start): a new node of the searching player begins with the
        moves that did well after its same own moves under the others' other replies, instead of in random order
        (which would leave the abstraction unused until every move had been tried once)."""
        cdef Node* an = self.abstract.nodes
        cdef int64_t total = 0
        cdef int i, m, j, best_j = self.missing[start]
        cdef int32_t a
        cdef double v, best = -1.0, logn = 0.0
        for i in range(nmiss):
            a = self.achild[self.missing[i]]
            if a >= 0:
                total += an[a].visits
        if total > 0:
            logn = fast_log(total)
        for i in range(nmiss):
            m = start + i
            if m >= nmiss:
                m -= nmiss
            j = self.missing[m]
            a = self.achild[j]
            if a < 0 or an[a].visits == 0:
                return j
            v = an[a].value[p] / an[a].visits + self.c * sqrt(logn / an[a].visits)
            if v > best:
                best = v
                best_j = j
        return best_j

    cdef inline double widen_limit(self, int64_t visits) noexcept:
        """Progressive widening: the edges a node of another player may have after `visits` visits."""
        return ceil(self.widen * pow(<double>visits + 1.0, self.widen_power))

    cdef void abstract_edges(self, int nd) noexcept:
        """oma: achild[j], the node of `abstract` below this iteration's one for edge j (its key, the searching
        player's own action), or -1. Both lists are sorted by key."""
        cdef Node* an = self.abstract.nodes
        cdef int32_t c = an[self.anode].first_child
        cdef int j
        cdef int64_t key
        for j in range(nd):
            key = self.ka[self.dstart[j]].key
            while c >= 0 and an[c].key < key:
                c = an[c].next_sibling
            self.achild[j] = c if c >= 0 and an[c].key == key else -1

    cdef void abstract_step(self, int64_t key) noexcept:
        """oma: follow (or add) the searching player's move `key` in `abstract`; out of memory, the abstraction
        stops for the rest of this iteration."""
        cdef bint created
        cdef int32_t a = self.find_or_add(&self.abstract, self.anode, self.observer, key, &created)
        if a >= 0 and not path_push(&self.apath, &self.apath_len, &self.apath_cap, a):
            a = -1
        self.anode = a

    cdef int32_t choose_edge(self, State w, Tree* tree, int32_t node, int p, int n, bint* expanded) noexcept:
        """At `node`, where `p` moves and acts[0..n) are legal: expand one untried edge (picked uniformly) or pick
        one by UCB1 on p's reward component (information sets: availability counts in place of the parent's
        visits), and apply one of the edge's actions to `w` (uniformly among those it merges). Returns the
        child (-1: out of memory while expanding); `expanded` tells whether it is new. With progressive widening
        another player's node expands only while it has fewer edges than widen_limit(); with oma the searching
        player's edges are scored with their abstract means too."""
        cdef Node* nodes
        cdef int32_t child
        cdef int j, nd, nmiss = 0, pick = 0
        cdef double score, best = -1e300, logn = 0.0
        self.group_edges(w, p, n, self.info_sets and self.keys != KEYS_MOVER and p != self.observer)
        nd = self.match_children(tree, node, p, n)
        nodes = tree.nodes
        for j in range(nd):
            if self.dchild[j] < 0:
                self.missing[nmiss] = j
                nmiss += 1
            elif self.info_sets:
                nodes[self.dchild[j]].avail += 1
        if (self.widen > 0.0 and p != self.observer and 0 < nmiss < nd
                and nd - nmiss >= self.widen_limit(nodes[node].visits)):
            nmiss = 0                          # wide enough for its visits: choose among the edges it has
        self.abstracting = self.oma > 0.0 and p == self.observer and self.anode >= 0
        if self.abstracting:
            self.abstract_edges(nd)
        if nmiss > 0:
            pick = self.pick_missing(p, nmiss)
            child = tree_add_child(tree, node, self.dprev[pick], p, self.ka[self.dstart[pick]].key)
            if child >= 0:
                tree.nodes[child].avail = 1
            expanded[0] = True
        else:
            expanded[0] = False
            child = -1
            if not self.info_sets:
                logn = fast_log(nodes[node].visits)
            for j in range(nd):
                if self.dchild[j] < 0:         # untried, held back by progressive widening
                    continue
                if self.info_sets:
                    logn = fast_log(nodes[self.dchild[j]].avail)
                score = self.edge_score(nodes, p, j, logn)
                if score > best:
                    best = score
                    child = self.dchild[j]
                    pick = j
        if self.abstracting:
            self.abstract_step(self.ka[self.dstart[pick]].key)
            self.abstracting = False
        j = self.ka[self.dstart[pick] + <int>rng_below(&self.rng, self.dend[pick] - self.dstart[pick])].action
        if self.averages:
            mast_note(&self.mast, p, j)
        w.c_apply(j)
        self.calls += 1
        return child

    cdef void iterate_infosets(self) noexcept:
        """One iteration over information-set nodes: at each decision the node is looked up by set_key() (added
        if new), its edges are matched against the legal moves, one missing edge is expanded or UCB picks one.
        A node is the same whatever path led to it, so what a player learns between its decisions (a reveal)
        always enters the next key, and what it cannot see never does."""
        cdef State w = self.work
        cdef Tree* tree = &self.trees[0]
        cdef int32_t node = self.root_node, child
        cdef int p, n, k, rewound = 0
        cdef int64_t applied = 0
        cdef uint64_t key
        cdef bint created, at_root = True
        self.fresh_world(w)
        if self.rewind:
            # the others' pending secret choices (drawn uniformly by c_determinize) are taken back: each is made
            # again at its player's own node, and the searching player's node is then found by its key
            rewound = w.c_rewind_pending(self.observer)
        self.path_len[0] = 0
        self.last = -1
        self.turns_begun = 0
        self.anode = 0
        self.apath_len = 0
        self.path_edges = -rewound             # depths and the cut-off count from the real root
        applied = -rewound
        if rewound > 0:
            at_root = False
        else:
            self.push(0, node)
        while True:
            p = w.c_current_player()
            if applied == 0 and rewound > 0:
                if p != self.observer:
                    self.bad_rewind = True      # the game's rewind did not lead back to the searching player
                    return
                self.last = -1                 # the root's decision begins the first turn, after any rewound ones
            if self.scored_leaf(w, p, applied):
                return
            if p == CHANCE:
                k = sample_chance_outcome(w, &self.rng)
                if k < 0:
                    self.stuck = True
                    return
                w.c_apply(k)
                applied += 1
                self.calls += 1
                continue
            n = w.c_legal_actions(self.acts)
            if n <= 0:                         # a broken state: run() raises
                self.stuck = True
                return
            if self.self_only and p != self.observer:
                if not self.policy_move(w, p, n):
                    return
                applied += 1
                continue
            if at_root:
                at_root = False
            else:
                key = self.set_key(w, p)
                node = index_get(&self.index, key)
                if applied == 0 and rewound > 0 and node != self.root_node:
                    # whatever the others chose again, the searching player must be back in its own
                    # information set, the root's (c_rewind_pending's contract)
                    self.bad_rewind = True
                    return
                if node < 0:
                    node = tree_add_node(tree, p, <int64_t>key)
                    if node < 0 or index_put(&self.index, key, node) != 0:
                        break                  # out of memory: roll out from here without expanding
                    self.imp_init(node, w)
                self.push(0, node)
            child = self.choose_edge(w, tree, node, p, n, &created)
            applied += 1
            self.last = p
            if child < 0:
                break
            self.push(0, child)
            if created:
                self.imp_init(child, w)
            self.path_edges += 1
            if created and applied > 0:        # a node expanded before the root: go on to the root's decision
                break
        self.simulate(w, applied)

    cdef bint policy_move(self, State w, int p, int n) noexcept:
        """opponents=policy: an opponent `p` (acts[0..n) legal) moves in the tree as in a rollout, by the rollout
        policy, and no node is kept for the decision (the tree holds the searcher's own). False: a broken state."""
        cdef int64_t looked = 0
        cdef int a = policy_action(w, self.scratch, &self.rng, self.rollout_kind, self.settle,
                                   &self.mast if self.averages else NULL, self.lookahead, p, self.acts, n, &looked)
        if a < 0:
            self.stuck = True
            return False
        w.c_apply(a)
        self.calls += looked + 1
        self.last = p
        return True

    cdef void simulate(self, State w, int64_t applied) noexcept:
        """Roll out from the leaf `w` (`applied` actions below the root) and back the value up."""
        cdef double t0 = now()
        cdef int64_t below = self.turns_begun if self.turns else applied     # never past the cut-off: the tree
        cdef int64_t limit = self.depth_limit - below if self.depth_limit >= 0 else -1   # scores a leaf there
        cdef int64_t rolled
        if self.playout_limit >= 0 and (limit < 0 or self.playout_limit < limit):
            limit = self.playout_limit         # a cut-off that moves with the leaf: deeper trees see further
        rolled = rollout(w, self.scratch, &self.rng, self.rollout_kind, limit, self.settle,
                         &self.mast if self.averages else NULL, self.ret, self.lookahead,
                         0.0 if self.mix_in_tree_only else self.leaf_mix, self.mix_kind, self.turns, self.last)
        self.rollout_seconds += now() - t0
        if rolled < 0:
            self.stuck = True
            return
        self.calls += rolled
        self.backup()

    cdef int match_children(self, Tree* tree, int32_t node, int p, int n) noexcept:
        """Group the sorted (key, action) pairs ka[0..n) into edges; for each edge j: its actions
        ka[dstart[j]..dend[j]), its child (dchild[j], -1 if absent) and the sibling after which a new child
        keeps the list sorted (dprev[j]). Returns the number of edges."""
        cdef Node* nodes = tree.nodes
        cdef int32_t c = nodes[node].first_child, pc = -1
        cdef int i = 0, nd = 0, start
        cdef int64_t key
        while c >= 0 and nodes[c].mover < p:
            pc = c
            c = nodes[c].next_sibling
        while i < n:
            key = self.ka[i].key
            start = i
            while i < n and self.ka[i].key == key:
                i += 1
            while c >= 0 and nodes[c].mover == p and nodes[c].key < key:
                pc = c
                c = nodes[c].next_sibling
            self.dstart[nd] = start
            self.dend[nd] = i
            if c >= 0 and nodes[c].mover == p and nodes[c].key == key:
                self.dchild[nd] = c
            else:
                self.dchild[nd] = -1
                self.dprev[nd] = pc
            nd += 1
        return nd

    cdef int32_t find_or_add(self, Tree* tree, int32_t node, int mover, int64_t key, bint* created) noexcept:
        cdef Node* nodes = tree.nodes
        cdef int32_t c = nodes[node].first_child, pc = -1
        while c >= 0 and (nodes[c].mover < mover or (nodes[c].mover == mover and nodes[c].key < key)):
            pc = c
            c = nodes[c].next_sibling
        if c >= 0 and nodes[c].mover == mover and nodes[c].key == key:
            created[0] = False
            return c
        created[0] = True
        c = tree_add_child(tree, node, pc, mover, key)
        if c >= 0:
            tree.nodes[c].avail = 1
        return c

    cdef inline bint scored_leaf(self, State w, int p, int64_t applied) noexcept:
        """At the game's end or the depth cut-off: score the leaf, back the value up and return True."""
        cdef int64_t settled, reached = applied
        if self.turns:                         # depth_unit=turns; rewound choices (applied < 0) precede the root
            reached = turn_reached(p, self.last, &self.turns_begun) if applied >= 0 else -1
        if p == TERMINAL:
            w.c_returns(self.ret)
        elif self.depth_limit >= 0 and reached >= self.depth_limit:
            self.cutoff_in_tree += 1           # nothing expanded: the tree already fills the horizon here
            settled = cutoff_value(w, self.scratch, &self.rng, self.settle, self.leaf_mix, self.mix_kind,
                                   &self.mast if self.averages else NULL, self.lookahead, self.ret)
            if settled < 0:
                self.stuck = True
                return True
            self.calls += settled
        else:
            return False
        self.backup()
        return True

    cdef void backup(self) noexcept:
        """Add the reward vector to every node on the path of every tree in use."""
        cdef int t, depth
        if self.averages:
            mast_update(&self.mast, self.ret)
        for t in range(self.ntrees if self.multi else 1):
            if self.multi and t >= self.num_players:
                break
            credit(self.trees[t].nodes, self.paths[t], self.path_len[t], self.ret, self.num_players)
        if self.oma > 0.0:
            credit(self.abstract.nodes, self.apath, self.apath_len, self.ret, self.num_players)
        if self.imp_on:
            self.imp_backup()
        depth = self.path_edges if self.keys != KEYS_PATH else self.path_len[self.main] - 1
        if depth > self.max_depth:
            self.max_depth = depth

    # --- multi-observer ISMCTS -----------------------------------------------------------------------------
    cdef void iterate_multi(self) noexcept:
        """One tree a player, each keyed by what its owner sees (Cowling, Powley and Whitehouse's MO-ISMCTS): the
        player to move chooses in its own tree, where its moves are visible, and every other tree follows the
        edge of what its owner saw of that move. The searching player's decision is read from its own tree,
        which (as in the single-observer search) holds no node keyed on anything it cannot see."""
        cdef State w = self.work
        cdef Tree* tree
        cdef Node* nodes
        cdef int32_t node, child
        cdef int p, n, i, j, nd, nmiss, pick, k, q
        cdef int64_t applied = 0
        cdef bint expanded
        cdef double score, best, logn
        self.fresh_world(w)
        self.last = -1
        self.turns_begun = 0
        for q in range(self.num_players):
            self.path_len[q] = 0
            self.at[q] = 0
            self.push(q, 0)
        while True:
            p = w.c_current_player()
            if self.scored_leaf(w, p, applied):
                return
            if p == CHANCE:
                i = sample_chance_outcome(w, &self.rng)
                if i < 0:
                    self.stuck = True
                    return
                expanded = self.follow(w, i, CHANCE, -1)
                w.c_apply(i)
                applied += 1
                self.calls += 1
                if expanded:
                    break
                continue
            n = w.c_legal_actions(self.acts)
            if n <= 0:
                self.stuck = True
                return
            expanded = False
            node = self.at[p]
            if node < 0:                       # this tree stopped growing (out of memory): a random move
                k = self.acts[rng_below(&self.rng, n)]
            else:
                tree = &self.trees[p]
                self.group_edges(w, p, n, False)
                nd = self.match_children(tree, node, p, n)
                nodes = tree.nodes
                nmiss = 0
                for j in range(nd):
                    if self.dchild[j] < 0:
                        self.missing[nmiss] = j
                        nmiss += 1
                    else:
                        nodes[self.dchild[j]].avail += 1
                if nmiss > 0:
                    j = self.pick_missing(p, nmiss)
                    k = self.ka[self.dstart[j]].action
                    child = tree_add_child(tree, node, self.dprev[j], p, k)
                    if child >= 0:
                        tree.nodes[child].avail = 1
                    expanded = True
                else:
                    best = -1e300
                    child = self.dchild[0]
                    pick = 0
                    for j in range(nd):
                        logn = fast_log(nodes[self.dchild[j]].avail)
                        score = self.edge_score(nodes, p, j, logn)
                        if score > best:
                            best = score
                            child = self.dchild[j]
                            pick = j
                    k = self.ka[self.dstart[pick]].action
                self.at[p] = child
                if child >= 0:
                    self.push(p, child)
            self.follow(w, k, p, p)
            if self.averages:
                mast_note(&self.mast, p, k)
            w.c_apply(k)
            applied += 1
            self.last = p
            self.calls += 1
            if expanded:
                break
        self.simulate(w, applied)

    cdef bint follow(self, State w, int action, int mover, int skip) noexcept:
        """Every tree but `skip` steps along the edge of what its owner sees of `action` (before it is applied),
        adding it if new. Returns whether the searching player's tree added a node."""
        cdef int q
        cdef int64_t key
        cdef int32_t child
        cdef bint created, main_created = False
        for q in range(self.num_players):
            if q == skip or self.at[q] < 0:
                continue
            key = action if q == mover else w.c_action_observation(action, q)
            child = self.find_or_add(&self.trees[q], self.at[q], mover, key, &created)
            self.at[q] = child
            if child >= 0:
                self.push(q, child)
            if q == self.main and created:
                main_created = True
        return main_created

    # --- inspection (Python) --------------------------------------------------------------------------------
    cdef Tree* _tree(self, int tree) except NULL:
        if tree < 0:
            tree = self.main
        if not 0 <= tree < self.ntrees or self.trees[tree].nodes == NULL:
            raise IndexError(f"no tree {tree}")
        return &self.trees[tree]

    def tree_size(self, int tree=-1):
        """Nodes in a tree (default: the searching player's; multi-observer: `tree` is a seat)."""
        return self._tree(tree).size

    def total_size(self):
        """Nodes in all the trees of the last search."""
        return sum(self.trees[t].size for t in range(self.ntrees) if self.trees[t].nodes != NULL)

    def memory(self):
        """Bytes held by all the trees (allocated node arrays, whether used yet or not), oma's abstraction
        included."""
        return sum(<int64_t>self.trees[t].capacity * sizeof(Node) for t in range(self.ntrees)
                   if self.trees[t].nodes != NULL) + <int64_t>self.abstract.capacity * sizeof(Node)

    cdef int32_t _node_index(self, Tree* t, int node) except -2:
        """`node` checked against tree `t`; -1 is the last run's root (node 0 but in a reused tree)."""
        if node == -1:
            node = self.root_node if t == &self.trees[0] else 0
        if not 0 <= node < t.size:
            raise IndexError(f"no node {node} in a tree of {t.size}")
        return node

    def node(self, int node=-1, int tree=-1):
        """One node as a dict: index, mover, key, visits, avail and value (the mean reward vector), and with
        implicit minimax backups its implicit value vector; -1: the last run's root."""
        cdef Tree* t = self._tree(tree)
        node = self._node_index(t, node)
        cdef Node* x = &t.nodes[node]
        out = {"index": node, "mover": x.mover, "key": x.key, "visits": x.visits, "avail": x.avail,
               "value": [x.value[q] / x.visits if x.visits else 0.0 for q in range(self.num_players)]}
        if self.imp_on and t == &self.trees[0]:
            out["implicit"] = [self.imp[<int64_t>node * MAX_PLAYERS + q] for q in range(self.num_players)]
        return out

    def children(self, int node=-1, int tree=-1):
        """The children of `node` (-1: the last run's root) as dicts (see node())."""
        cdef Tree* t = self._tree(tree)
        node = self._node_index(t, node)
        out = []
        cdef int32_t c = t.nodes[node].first_child
        while c >= 0:
            out.append(self.node(c, tree))
            c = t.nodes[c].next_sibling
        return out

    def descend(self, State state, actions):
        """The node that the last search uses for the decision reached by playing `actions` (ints, chance
        outcomes included) from `state`, a member of the searching player's root information set; -1 when the
        search never made it. Information-set keys: the node of that decision's information set; path keys: the
        node reached by following the edges the search keys those moves by."""
        cdef State w = state.c_clone()
        cdef Tree* tree = self._tree(-1)
        cdef int32_t node = 0, c
        cdef int mover
        cdef int64_t key
        for action in actions:
            mover = w.c_current_player()
            if mover == TERMINAL:
                raise ValueError("descend: an action after the end of the game")
            if self.keys == KEYS_PATH and node >= 0:
                key = action if mover == self.observer or not self.info_sets else \
                    w.c_action_observation(action, self.observer)
                c = tree.nodes[node].first_child
                while c >= 0 and not (tree.nodes[c].mover == mover and tree.nodes[c].key == key):
                    c = tree.nodes[c].next_sibling
                node = c
            w.apply(action)
        if self.keys == KEYS_PATH or not actions:
            return node
        mover = w.c_current_player()
        if mover < 0:
            raise ValueError("descend: the actions must end at a decision")
        return index_get(&self.index, self.set_key(w, mover))

    def node_of(self, State state):
        """Information-set keys: the node of the decision at `state` (its mover's information set, as the last
        search keyed it), -1 when the search never made one. The state may be any determinization."""
        if self.keys == KEYS_PATH:
            raise ValueError("node_of: path-keyed trees reach their nodes by edges, not by information sets")
        cdef int mover = state.c_current_player()
        if mover < 0:
            raise ValueError("node_of: the state must be at a decision")
        return index_get(&self.index, self.set_key(state, mover))

    def move_averages(self, int player):
        """rollout=mast: {action: (times played, mean return to `player`)} over `player`'s moves in the last
        search's simulations (tree and rollouts); {} for other rollouts."""
        if not self.averages or self.mast.actions == 0:
            return {}
        if not 0 <= player < self.mast.players:
            raise IndexError(f"no player {player} in a search of {self.mast.players}")
        cdef int64_t base = <int64_t>player * self.mast.actions
        return {a: (int(self.mast.counts[base + a]), self.mast.sums[base + a] / self.mast.counts[base + a])
                for a in range(self.mast.actions) if self.mast.counts[base + a] > 0}

    def abstract_moves(self, own_actions=()):
        """oma: {action: (visits, mean return to the searching player)} of the searching player's moves in the
        last search's abstraction after its own moves `own_actions` from the root (whatever came between them);
        {} where the search never made those moves, or without oma."""
        if self.oma <= 0.0 or self.abstract.size == 0:
            return {}
        cdef Node* an = self.abstract.nodes
        cdef int32_t node = 0, c
        for action in own_actions:
            c = an[node].first_child
            while c >= 0 and an[c].key != action:
                c = an[c].next_sibling
            if c < 0:
                return {}
            node = c
        out = {}
        c = an[node].first_child
        while c >= 0:
            out[int(an[c].key)] = (int(an[c].visits), an[c].value[self.observer] / an[c].visits if an[c].visits else 0.0)
            c = an[c].next_sibling
        return out

    cdef int64_t root_lead(self) noexcept:
        """How many visits the most visited of the searching player's root moves has over the next one (all of
        them with a single move): what the iterations left would have to overturn to change a choice by visits."""
        cdef Tree* t = &self.trees[self.main]
        cdef int32_t c = t.nodes[self.root_node].first_child
        cdef int64_t best = 0, second = 0, v
        while c >= 0:
            if t.nodes[c].mover == self.observer:
                v = t.nodes[c].visits
                if v > best:
                    second = best
                    best = v
                elif v > second:
                    second = v
            c = t.nodes[c].next_sibling
        return best - second

    cdef bint decided_within(self, long long iterations, double seconds, long long calls, int64_t done,
                             int64_t calls_done, double elapsed) noexcept:
        """stop=decided's rule: the root's choice is decided once its lead (root_lead) is more than the iterations
        the budgets still allow after `done` iterations, `calls_done` calls and `elapsed` seconds, reckoned at the
        rate so far (0: no such budget; the first met counts). A spent budget decides nothing: it ends the search
        anyway."""
        cdef double left = 1e300
        if iterations > 0:
            left = iterations - done
        if calls > 0 and calls_done > 0:
            left = min(left, (calls - calls_done) * <double>done / calls_done)
        if seconds > 0 and elapsed > 0:
            left = min(left, (seconds - elapsed) * <double>done / elapsed)
        return 0 < left < self.root_lead()

    def decided(self, long long iterations, double seconds, long long calls, double elapsed):
        """decided_within() for a caller that runs a search in slices and so stops it itself (search/analysis.py):
        the whole search's budgets (0: none) and seconds so far; the iterations and calls are this search's."""
        return self.trees[self.main].size > 0 and self.decided_within(iterations, seconds, calls, self.iterations,
                                                                      self.calls, elapsed)

    def root_edges(self):
        """{action: (visits, value sum for the searching player)} over its own moves at the root of its tree
        (their key is the action: one always sees one's own move)."""
        cdef Tree* t = &self.trees[self.main]
        cdef int32_t c = t.nodes[self.root_node].first_child
        cdef Node* x
        out = {}
        while c >= 0:
            x = &t.nodes[c]
            if x.mover == self.observer:
                out[x.key] = (x.visits, x.value[self.observer])
            c = x.next_sibling
        return out
