"""Kleos engine: the game contract (``engine.core``), the RNG, the registry and the games."""
from engine.errors import (  # noqa: F401
    KleosError, UnknownGameError, BadOptionError, IllegalActionError, BadMoveError, BadStateError, BadRecordError,
)

__version__ = "0.1.0"
