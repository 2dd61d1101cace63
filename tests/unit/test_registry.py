"""engine.registry: discovery, options and their errors."""
import pytest

from engine.errors import BadOptionError, UnknownGameError
from engine.registry import game_spec, list_games, load_game, parse_options


def test_reference_game_is_registered():
    assert "goofspiel" in list_games()
    assert list_games() == sorted(list_games())


def test_options_are_checked_and_coerced():
    game = load_game("goofspiel", players="3", cards="5")
    assert game.num_players == 3 and game.options == {"players": 3, "cards": 5}
    assert load_game("goofspiel").options["players"] == game_spec("goofspiel").default_players


@pytest.mark.parametrize("options, message", [
    ({"players": 6}, "above the maximum 5"),
    ({"players": 1}, "below the minimum 2"),
    ({"players": "many"}, "not an integer"),
    ({"players": True}, "must be int"),
    ({"colour": "red"}, "unknown option 'colour'; known options: players, cards"),
])
def test_bad_options_name_the_problem(options, message):
    with pytest.raises(BadOptionError, match=message):
        load_game("goofspiel", **options)


def test_unknown_game_lists_the_known_ones():
    with pytest.raises(UnknownGameError, match="unknown game 'chess'; registered games: .*goofspiel"):
        load_game("chess")


def test_parse_options():
    assert parse_options("players=3, cards=5") == {"players": "3", "cards": "5"}
    assert parse_options("") == {}
    with pytest.raises(BadOptionError, match="name=value"):
        parse_options("players")
