"""Pantikapaion (Evgeny Petrov), 2 to 4 players: build a city of polyomino tiles, harvest resources with workers,
raise buildings and advance on the development board. Rules: docs/rules/spec/pantikapaion.md; coverage, decisions
and the ASSUMED data: docs/rules/pantikapaion.md; data: data/*.json.
"""
from engine.registry import GameSpec


def _make(options):
    from engine.games.pantikapaion.state import PantikapaionGame
    return PantikapaionGame(options)


GAME = GameSpec(
    name="pantikapaion",
    title="Pantikapaion",
    summary="tile-laying city building: pick tiles from a ring, raise buildings, race on the development board",
    min_players=2,
    max_players=4,
    default_players=2,
    make=_make,
    has_hidden_information=False,      # only the bag order is unknown, and the bag is a multiset of counts
    conformance_options=({"players": 2}, {"players": 3}, {"players": 4}),
    # `kleos play --level`: at 20 iterations ISMCTS loses to greedy here and 60 plays as well as 200, so easy and
    # medium are 60 and 600, each a step (2 players: docs/play.md, "Seats, levels and time")
    levels={"easy": "ismcts:iterations=60", "medium": "ismcts:iterations=600"},
    # Kleos's own bot: simulations cut 8 actions from the root and scored by evaluate(). At equal time (0.8 s a
    # turn) it beat plain ISMCTS's full random rollouts 0.850 +- 0.103 and depth 12 0.775 (docs/strength.md,
    # "Pantikapaion's kleos bot"). A leaf where a token or tile is about to be dealt is scored after a sampled deal
    # (chance_leaf=sample): 0.567 +- 0.054 against the same bot without it at 0.4 s a turn, 180 games ("Settled
    # leaves"). Each rollout step plays the legal move evaluate() likes best (lookahead=0; the same time a search
    # here as the best of 3 sampled, which it beat 0.575 +- 0.068 over 160 games at 0.8 s a turn:
    # "Pantikapaion's kleos takes greedy rollout steps")
    kleos_bot="ismcts:depth=8,rollout=heuristic,chance_leaf=sample,lookahead=0",
    # With 4 players the tree fills the 8-action horizon early (85% of the iterations at 1 s a decision expand
    # nothing), and three opponents move inside it, so a cut-off leaf is scored half by evaluate() and half by a
    # uniform playout to the game's end (leaf_mix=0.5): each visit of a full tree's leaf draws another ending.
    # Against three plain ISMCTS at 1 s a decision it scored 0.607 +- 0.150 over 28 where the bot without it
    # scored 0.396 over 16, and it gains about +90 Elo a doubling from 1x to 8x; at 0.1 s 0.806 +- 0.100 over 24,
    # and against the bot without it 0.556 +- 0.150 over 24 (docs/strength.md, "Pantikapaion's 4-player kleos
    # mixes its leaves with playouts" and the section after it). With 2 players it lost to the bot without it
    # (0.091 over 11), so 2 players (and 3, not measured) keep kleos_bot
    kleos_bot_players={4: "ismcts:depth=8,rollout=heuristic,chance_leaf=sample,lookahead=0,leaf_mix=0.5"},
)
