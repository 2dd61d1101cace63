"""`kleos play --level`: the common level bots, and a game's own where it declares them (GameSpec.levels), with
game-agnostic code (arena/console/levels.py)."""
import pytest

import engine.registry as registry
from arena.console.levels import LEVELS, level_spec
from arena.console.session import fill_seats
from bots import make_bot
from engine.errors import KleosError
from engine.registry import list_games


def test_a_game_declaring_a_level_bot_seats_it_and_keeps_the_common_ones_for_the_rest(redeclare_game):
    redeclare_game("goofspiel", levels={"easy": "ismcts:iterations=7"})
    assert level_spec("easy", "goofspiel") == "ismcts:iterations=7"
    assert fill_seats("goofspiel", ["human"], {"players": 2}, "easy")[0] == ["human", "ismcts:iterations=7"]
    assert fill_seats("goofspiel", ["human", "ai"], {"players": 3}, "easy")[0] == ["human"] + ["ismcts:iterations=7"] * 2
    assert level_spec("medium", "goofspiel") == LEVELS["medium"]
    assert level_spec("easy", "polis") == level_spec("easy", None) == LEVELS["easy"]


def test_every_declared_level_is_a_known_level_with_a_bot_that_builds():
    for game in list_games():
        for level, spec in registry.game_spec(game).levels.items():
            assert level in LEVELS, f"{game} declares an unknown level {level!r}"
            assert make_bot(spec) is not None, f"{game}: level {level} bot {spec!r}"


def test_an_unknown_level_is_a_clear_error():
    with pytest.raises(KleosError, match="unknown level 'expert'; levels: easy, medium, hard, max"):
        level_spec("expert", "goofspiel")
