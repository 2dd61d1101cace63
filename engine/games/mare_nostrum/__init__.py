"""Mare Nostrum (Serge Laget), 3 to 5 players, with secret simultaneous trade offers.

Rules: shared/rules/mare_nostrum.md (spec) and docs/rules/mare_nostrum.md (coverage, decisions, ASSUMED values).
The map, the set-ups and every number the rulebook lost live in data/*.toml.
"""
from engine.registry import GameSpec, Option


def _make(options):
    from engine.games.mare_nostrum.state import MareNostrumGame
    return MareNostrumGame(options)


GAME = GameSpec(
    name="mare_nostrum",
    title="Mare Nostrum",
    summary="five ancient empires trade, build and fight; win by Pyramids, 5 heroes, 4 capitals or 3 titles",
    min_players=3,
    max_players=5,
    default_players=5,
    make=_make,
    options={
        "max_rounds": Option(30, "round cap for bot play (ASSUMED G41): a draw at the cap", minimum=1, maximum=200),
        "capital_exception_buildings": Option(
            False, "ASSUMED G19: the capital exception also allows buildings (not only units)"),
    },
    has_hidden_information=True,
    conformance_options=({"players": 3}, {"players": 4}, {"players": 5}),
)
