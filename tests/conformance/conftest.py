"""Parametrize the conformance suite over every registered game and every configuration it asks for."""
import pytest

from engine.registry import game_spec, list_games


def _cases():
    for name in list_games():
        for options in game_spec(name).test_configurations():
            label = name + "-" + "-".join(f"{k}{v}" for k, v in options.items())
            yield pytest.param((name, options), id=label)


CASES = list(_cases())


@pytest.fixture(params=CASES)
def case(request):
    """(game name, options) for one registered game configuration."""
    return request.param
