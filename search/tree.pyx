"""The node pool of every searcher (see tree.pxd)."""
from libc.stdint cimport int32_t, int64_t, uint64_t
from libc.stdlib cimport calloc, free, malloc, realloc
from libc.string cimport memset

from engine.core cimport MAX_PLAYERS

# Trees larger than this stop growing (2**31 - 1 indices; the searches keep running, without expanding).
cdef int32_t MAX_NODES = 2_000_000_000


cdef int tree_init(Tree* t, int32_t capacity) noexcept:
    t.nodes = <Node*>malloc(capacity * sizeof(Node))
    t.capacity = capacity if t.nodes != NULL else 0
    tree_clear(t)
    return 0 if t.nodes != NULL else -1


cdef inline void _reset(Node* n, int mover, int64_t key) noexcept:
    cdef int p
    n.key = key
    n.visits = 0
    n.avail = 0
    n.first_child = -1
    n.next_sibling = -1
    n.mover = mover
    for p in range(MAX_PLAYERS):
        n.value[p] = 0.0


cdef void tree_clear(Tree* t) noexcept:
    """Keep only a fresh root (index 0)."""
    t.size = 0
    if t.capacity > 0:
        _reset(&t.nodes[0], -3, 0)
        t.size = 1


cdef void tree_free(Tree* t) noexcept:
    free(t.nodes)
    t.nodes = NULL
    t.size = 0
    t.capacity = 0


cdef int32_t tree_add_node(Tree* t, int mover, int64_t key) noexcept:
    cdef Node* grown
    cdef int64_t capacity
    cdef int32_t i
    if t.size >= t.capacity:
        if t.capacity >= MAX_NODES:
            return -1
        capacity = min(<int64_t>t.capacity * 2 + 16, <int64_t>MAX_NODES)
        grown = <Node*>realloc(t.nodes, capacity * sizeof(Node))
        if grown == NULL:
            return -1
        t.nodes = grown
        t.capacity = <int32_t>capacity
    i = t.size
    t.size += 1
    _reset(&t.nodes[i], mover, key)
    return i


cdef int32_t tree_add_child(Tree* t, int32_t parent, int32_t prev, int mover, int64_t key) noexcept:
    cdef int32_t i = tree_add_node(t, mover, key)
    if i < 0:
        return -1
    if prev < 0:
        t.nodes[i].next_sibling = t.nodes[parent].first_child
        t.nodes[parent].first_child = i
    else:
        t.nodes[i].next_sibling = t.nodes[prev].next_sibling
        t.nodes[prev].next_sibling = i
    return i


# --- information-set index (see tree.pxd) ----------------------------------------------------------------------
cdef uint64_t INDEX_ZERO = 0x9E3779B97F4A7C15ULL


cdef int index_init(Index* ix, int64_t capacity) noexcept:
    ix.keys = <uint64_t*>calloc(capacity, sizeof(uint64_t))
    ix.nodes = <int32_t*>malloc(capacity * sizeof(int32_t))
    if ix.keys == NULL or ix.nodes == NULL:
        index_free(ix)
        return -1
    ix.capacity = capacity
    ix.used = 0
    return 0


cdef void index_clear(Index* ix) noexcept:
    if ix.used > 0:
        memset(ix.keys, 0, ix.capacity * sizeof(uint64_t))
    ix.used = 0


cdef void index_free(Index* ix) noexcept:
    free(ix.keys)
    free(ix.nodes)
    ix.keys = NULL
    ix.nodes = NULL
    ix.capacity = 0
    ix.used = 0


cdef inline int64_t _slot(uint64_t key, int64_t capacity) noexcept:
    # the keys are hashes already; fold the high bits in so that a power-of-two mask sees them
    return <int64_t>((key ^ (key >> 29)) & <uint64_t>(capacity - 1))


cdef int32_t index_get(Index* ix, uint64_t key) noexcept:
    cdef int64_t i
    if ix.capacity == 0:
        return -1
    if key == 0:
        key = INDEX_ZERO
    i = _slot(key, ix.capacity)
    while ix.keys[i] != 0:
        if ix.keys[i] == key:
            return ix.nodes[i]
        i = (i + 1) & (ix.capacity - 1)
    return -1


cdef int _grow(Index* ix) noexcept:
    cdef Index bigger
    cdef int64_t i, j
    if index_init(&bigger, ix.capacity * 2) != 0:
        return -1
    for i in range(ix.capacity):
        if ix.keys[i] != 0:
            j = _slot(ix.keys[i], bigger.capacity)
            while bigger.keys[j] != 0:
                j = (j + 1) & (bigger.capacity - 1)
            bigger.keys[j] = ix.keys[i]
            bigger.nodes[j] = ix.nodes[i]
    bigger.used = ix.used
    index_free(ix)
    ix[0] = bigger
    return 0


cdef int index_put(Index* ix, uint64_t key, int32_t node) noexcept:
    cdef int64_t i
    if ix.capacity == 0 or 2 * (ix.used + 1) > ix.capacity:       # load factor at most 1/2
        if ix.capacity == 0 or _grow(ix) != 0:
            return -1
    if key == 0:
        key = INDEX_ZERO
    i = _slot(key, ix.capacity)
    while ix.keys[i] != 0:
        i = (i + 1) & (ix.capacity - 1)
    ix.keys[i] = key
    ix.nodes[i] = node
    ix.used += 1
    return 0
