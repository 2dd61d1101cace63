"""The node pool of every searcher (see tree.pxd)."""
from libc.stdint cimport int32_t, int64_t
from libc.stdlib cimport free, malloc, realloc

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


cdef int32_t tree_add_child(Tree* t, int32_t parent, int32_t prev, int mover, int64_t key) noexcept:
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
    if prev < 0:
        t.nodes[i].next_sibling = t.nodes[parent].first_child
        t.nodes[parent].first_child = i
    else:
        t.nodes[i].next_sibling = t.nodes[prev].next_sibling
        t.nodes[prev].next_sibling = i
    return i
