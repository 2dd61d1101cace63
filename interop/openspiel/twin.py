"""A bot's own history of a Kleos game, replayed into the same game as OpenSpiel implements it (its *twin*).

OpenSpiel's bots are fastest on OpenSpiel's C++ games. Where OpenSpiel has the Kleos game too, with the same action
ids step for step (chance outcomes included; e.g. Kleos ``goofspiel`` and OpenSpiel
``goofspiel(points_order=random,imp_info=False)`` taken in turn), an OpenSpiel bot can play on the twin: ``os-ismcts:
twin=<OpenSpiel game string>``. The bot never gets the true history: ``consistent_history`` draws one that fits
everything the seat has seen (the events it was shown, and its information set at each of its decisions), so
what reaches OpenSpiel is a determinization, as a Kleos view is.
"""
from __future__ import annotations

from engine.errors import KleosError

MAX_STEPS = 200_000        # candidate actions tried before giving up (games whose hidden moves stay hidden long)


class TwinError(KleosError):
    """The twin game does not follow the Kleos game, or no history fits what the seat saw."""


def consistent_history(game, seat: int, events: list, checkpoints: dict, rng) -> list[int]:
    """Action ids of a history of ``game`` (an engine.core.Game) that ``seat`` cannot tell from the real one.

    ``events`` are the Event objects the seat was shown, in order (hidden ones carry only their class);
    ``checkpoints`` maps an event count to the seat's ``info_key`` after that many events (taken at its
    decisions); ``rng`` (engine.rng.RNG) orders the candidates, chance outcomes by their probabilities.
    """
    if not events:
        return []
    root = game.new_initial_state()
    # depth-first: stack[i] = (state before event i, candidates still to try there)
    stack = [(root, _candidates(root, events[0], seat, rng))]
    chosen: list[int] = []
    steps = 0
    while stack:
        state, options = stack[-1]
        if not options:
            stack.pop()
            if chosen:
                chosen.pop()
            continue
        action = options.pop()
        steps += 1
        if steps > MAX_STEPS:
            raise TwinError(f"no history consistent with seat {seat}'s information found in {MAX_STEPS} steps")
        child = state.clone()
        child.apply(action)
        done = len(chosen) + 1
        key = checkpoints.get(done)
        if key is not None and child.info_key(seat) != key:
            continue
        chosen.append(action)
        if done == len(events):
            return chosen
        stack.append((child, _candidates(child, events[done], seat, rng)))
    raise TwinError(f"no history of {game.name} fits what seat {seat} was shown (are the events from this game?)")


def _candidates(state, event, seat: int, rng) -> list[int]:
    """The actions event may have been, in the order to try them (last first)."""
    mover = state.current_player()
    if mover != event.seat:
        return []
    if mover == -1:
        outcomes = state.chance_outcomes()
    else:
        outcomes = [(a, 1.0) for a in state.legal_actions()]
    if event.action is not None:
        return [event.action] if any(a == event.action for a, _ in outcomes) else []
    fits = [(a, p) for a, p in outcomes if state.action_observation(a, seat) == event.hidden_class]
    # a weighted random order without replacement (Efraimidis-Spirakis keys), drawn from the bot's stream
    keyed = sorted(fits, key=lambda ap: rng.random() ** (1.0 / ap[1]) if ap[1] > 0 else -1.0)
    return [a for a, _ in keyed]


class Twin:
    """One seat's twin game: OpenSpiel's implementation, fed the seat's consistent histories."""

    def __init__(self, game_string: str, kleos_game, seat: int):
        from interop.openspiel.bridge import Bridge
        self.bridge = Bridge(game_string)
        if self.bridge.num_players != kleos_game.num_players:
            raise TwinError(f"twin {game_string!r} has {self.bridge.num_players} players, the game "
                            f"{kleos_game.num_players}")
        self.kleos = kleos_game
        self.seat = seat
        self.checkpoints: dict = {}

    def state(self, view, turn, rng):
        """The twin state for this decision (a determinization from the seat, in OpenSpiel's game)."""
        self.checkpoints[len(turn.events)] = view.info_key(self.seat)
        history = consistent_history(self.kleos, self.seat, turn.events, self.checkpoints, rng)
        try:
            state = self.bridge.state_from_history(history)
        except KleosError as e:
            raise TwinError(f"twin {self.bridge.game_string!r} does not follow {self.kleos.name}: {e}") from None
        if state.is_terminal() or state.current_player() != self.seat or \
                sorted(state.legal_actions()) != sorted(turn.legal):
            raise TwinError(f"twin {self.bridge.game_string!r} does not follow {self.kleos.name}: after the same "
                            f"actions it is player {state.current_player()}'s turn with legal actions "
                            f"{state.legal_actions()[:12]}, not seat {self.seat}'s with {turn.legal[:12]}")
        return state
