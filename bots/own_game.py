"""A bot that searches its own copy of the game: each view it is handed is carried over (as JSON) into ``game``
before it decides. The same position under other static data, such as another evaluate() weights file; the
referee keeps playing the shipped game. Used by the A/B scripts of evaluate() weights (scripts/*_evaluate_ab.py)."""


def searching_own_game(bot, game):
    """``bot``, deciding on its view carried over (as JSON) into ``game``: the same position under other weights."""
    act = bot.act
    bot.act = lambda view, turn: act(game.state_from_json(view.to_json()), turn)
    return bot
