"""Goofspiel (Merrill Flood's game of pure strategy), n-player, with secret bids.

A small real game that exercises every part of the contract: chance nodes (the prize deck), simultaneous secret
choices sequentialized with secrecy (the bids), partially observable moves and 2 to 5 players. Searchers and the
arena test against it before the long games; docs/rules/goofspiel.md has its rules and their tests.
"""
from engine.registry import GameSpec, Option


def _make(options):
    from engine.games.goofspiel.state import GoofspielGame
    return GoofspielGame(options)


GAME = GameSpec(
    name="goofspiel",
    title="Goofspiel",
    summary="bid a hand of cards for random prizes; bids are secret until all have bid (reference game)",
    min_players=2,
    max_players=5,
    default_players=2,
    make=_make,
    options={"cards": Option(13, "cards in each hand and in the prize deck", minimum=3, maximum=24)},
    has_hidden_information=True,
    conformance_options=({"players": 2}, {"players": 3, "cards": 8}, {"players": 5, "cards": 6}),
    max_game_length=lambda o: o["cards"] * (o["players"] + 1),     # a prize and a bid from each, every round
)
