# The search tree: one growable C array of nodes linked by indices (no Python objects, realloc-safe).
#
# A node is reached from its parent by one edge: the player who moved (`mover`, CHANCE for chance) and `key`,
# the action itself (MCTS) or what the searching player saw of it (ISMCTS: action_observation). Siblings form a
# list sorted by (mover, key), so a node's children can be matched against sorted legal moves in one pass.
from libc.stdint cimport int32_t, int64_t, uint64_t

from engine.core cimport MAX_PLAYERS


cdef struct Node:
    int64_t key
    int64_t visits
    int64_t avail                  # ISMCTS availability: parent visits in which this edge was legal
    int32_t first_child            # -1: none
    int32_t next_sibling           # -1: last
    int32_t mover                  # seat that chose the edge into this node, or CHANCE
    double value[MAX_PLAYERS]      # sums of the backed-up reward vectors (max^n: one entry per player)


cdef struct Tree:
    Node* nodes
    int32_t size
    int32_t capacity


cdef int tree_init(Tree* t, int32_t capacity) noexcept
cdef void tree_clear(Tree* t) noexcept
cdef void tree_free(Tree* t) noexcept
# A fresh node linked after sibling `prev` of `parent` (prev = -1: first child). Returns its index, -1 when out
# of memory (the caller then simply does not expand). t.nodes may move: re-read pointers after calling.
cdef int32_t tree_add_child(Tree* t, int32_t parent, int32_t prev, int mover, int64_t key) noexcept
# A fresh node linked to nothing (an information-set node, found through an Index); -1 when out of memory.
cdef int32_t tree_add_node(Tree* t, int mover, int64_t key) noexcept


# Information-set index: 64-bit information-set key -> node index (open addressing, linear probing). The
# information-set trees of ISMCTS (keys=mover, keys=observer) find a decision's node by the key of what its
# player knows there, not by the path that led to it.
cdef struct Index:
    uint64_t* keys                 # 0: empty slot (a key of 0 is stored as INDEX_ZERO)
    int32_t* nodes
    int64_t capacity               # a power of two
    int64_t used


cdef int index_init(Index* ix, int64_t capacity) noexcept
cdef void index_clear(Index* ix) noexcept
cdef void index_free(Index* ix) noexcept
# The node of `key`, or -1.
cdef int32_t index_get(Index* ix, uint64_t key) noexcept
# Store key -> node (the key must be absent); -1 when out of memory.
cdef int index_put(Index* ix, uint64_t key, int32_t node) noexcept
