"""OpenSpiel both ways (the optional extra ``pip install "kleos[openspiel]"``).

- ``interop.openspiel.kleos_games``: every registered Kleos game as an OpenSpiel Python game
  (``pyspiel.load_game("kleos_polis")`` once the module is imported).
- ``interop.openspiel.games`` and ``interop.openspiel.state``: any OpenSpiel game as a Kleos game, named
  ``openspiel:<OpenSpiel game string>`` wherever Kleos takes a game name.
- ``interop.openspiel.bots``: OpenSpiel's bots as Kleos bots (``os-ismcts``, ``os-mcts``, ``os-random``, ``os-cfr``).

docs/openspiel.md shows both directions and a comparison of the two ISMCTS implementations.
"""
from engine.errors import KleosError


class OpenSpielMissing(KleosError, ImportError):
    """The open_spiel package is not installed."""


def require_pyspiel():
    """The pyspiel module, or an error saying how to install it."""
    try:
        import pyspiel
    except ImportError:
        raise OpenSpielMissing('OpenSpiel is not installed; install the extra: pip install "kleos[openspiel]" '
                               "(the open_spiel package)") from None
    return pyspiel
