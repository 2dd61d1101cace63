"""Which flavour of the C build is running: the release build (``-O3``, bounds checks off) or the debug build
(``KLEOS_DEBUG=1``: ``-O0 -g``, bounds and wrap-around checks on). Every bench prints it, so a debug build's
figures are never mistaken for the real ones."""

cdef extern from *:
    """
    #ifndef KLEOS_DEBUG_BUILD
    #define KLEOS_DEBUG_BUILD 0
    #endif
    """
    int KLEOS_DEBUG_BUILD

DEBUG = bool(KLEOS_DEBUG_BUILD)
FLAVOUR = "debug build (KLEOS_DEBUG=1: -O0, bounds checks on; figures not comparable)" if DEBUG else \
    "release build (-O3, bounds checks off)"
