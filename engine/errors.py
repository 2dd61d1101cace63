"""The exceptions that Kleos raises for bad input. Each message names the problem."""


class KleosError(Exception):
    """Base of every error Kleos raises on purpose."""


class UnknownGameError(KleosError, KeyError):
    """load_game() was given a name that no registered game has."""

    def __str__(self):  # KeyError would quote the message
        return str(self.args[0]) if self.args else ""


class BadOptionError(KleosError, ValueError):
    """A game option is unknown, of the wrong type or out of range."""


class IllegalActionError(KleosError, ValueError):
    """apply() was given an action that is not legal in the state."""


class BadMoveError(KleosError, ValueError):
    """str_to_action() was given a string that names no legal move."""


class BadStateError(KleosError, ValueError):
    """from_json() was given a malformed or rule-breaking state."""


class NoLegalActionError(KleosError, RuntimeError):
    """A decision node has no legal action (or a chance node no outcome). The rules never allow it, so the state
    is broken: a game bug, or a state that from_json should have refused. Searchers and playouts raise it rather
    than go on with undefined behaviour."""


class BadRecordError(KleosError, ValueError):
    """A game record is malformed, truncated or does not replay."""


class BadDataError(KleosError, ValueError):
    """A game's data file (rules, map, roster, deck) is malformed or inconsistent; the message names the file,
    the key or field and what is wrong."""
