"""The game views of the console (arena/console/view.py and each game's console.py): drawn from the seat's
information only, words not reprs, fitted to the width; and the turn budget (time=T a whole turn)."""
import re

import pytest
from rich.console import Console

from arena.console.view import GameView, load_view
from bots.base import Turn, TurnPace
from engine.registry import list_games, load_game
from engine.rng import RNG

REPR = re.compile(r"\{'|\['|\bNone\b|\bTrue\b|\bFalse\b|<[\w.]+ object at")
OPTIONS = {"mare_nostrum": {"players": 3}}


def draw(thing, width=80) -> str:
    console = Console(width=width, record=True, file=open("/dev/null", "w"), color_system=None)
    console.print(thing)
    return console.export_text()


def positions(game, count=6, seed=1):
    """Some positions of a random game (decision nodes only)."""
    state = game.new_initial_state()
    rng = RNG(seed)
    out = []
    steps = 0
    while not state.is_terminal() and len(out) < count:
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply(outcomes[int(rng.random() * len(outcomes))][0])
            continue
        steps += 1
        if steps % 17 == 0:
            out.append(state.clone())
        state.apply(rng.choice(state.legal_actions()))
    return out


@pytest.mark.parametrize("name", list_games())
def test_a_board_depends_only_on_what_the_seat_can_see(name):
    game = load_game(name, **OPTIONS.get(name, {}))
    view = load_view(game)
    for state in positions(game):
        seat = state.current_player()
        a = state.determinize(seat, RNG(1))
        b = state.determinize(seat, RNG(2))          # other samples of everything hidden from the seat
        assert draw(view.board(a, seat)) == draw(view.board(b, seat))
        legal = a.legal_actions()
        assert draw(view.decision(a, seat, legal) or "") == draw(view.decision(b, seat, legal) or "")
        action = legal[0]
        assert view.explain(a, seat, action) == view.explain(b, seat, action)


@pytest.mark.parametrize("name", list_games())
@pytest.mark.parametrize("width", [80, 200])
def test_views_are_words_that_fit_the_width(name, width):
    game = load_game(name, **OPTIONS.get(name, {}))
    view = load_view(game)
    assert view.legend().strip()
    for state in positions(game, 4, seed=3):
        seat = state.current_player()
        legal = state.legal_actions()
        for thing in (view.board(state, seat), view.decision(state, seat, legal), view.explain(state, seat, legal[0]),
                      view.preview(state, seat, legal[0])):
            text = draw(thing or "", width)
            assert max((len(line) for line in text.split("\n")), default=0) <= width
            assert not REPR.search(text), text
        after = state.clone()
        after.apply(legal[0])
        assert not REPR.search(view.change(state, after, legal[0], seat))


def test_games_with_a_console_module_have_their_own_view_and_texts():
    for name in ("pantikapaion", "polis", "mare_nostrum"):
        view = load_view(load_game(name, **OPTIONS.get(name, {})))
        assert type(view) is not GameView and view.texts()
    assert type(load_view(load_game("goofspiel"))) is GameView        # a game without one still plays
    assert "legions gets +1" in load_view(load_game("mare_nostrum", players=3)).texts()["Caesar"]


def test_pantikapaion_anchor_grid_covers_every_legal_anchor():
    from engine.games.pantikapaion.notation import A_ANCHOR, A_AQCOL, cell_name
    game = load_game("pantikapaion")
    view = load_view(game)
    rng = RNG(4)
    state = game.new_initial_state()
    seen = 0
    while not state.is_terminal() and seen < 3:
        if state.is_chance_node():
            state.apply(state.chance_outcomes()[0][0])
            continue
        legal = state.legal_actions()
        if A_ANCHOR <= legal[0] < A_AQCOL and len(legal) > 1:
            seen += 1
            text = draw(view.decision(state, state.current_player(), legal), 200)
            header = next(line for line in text.split("\n") if re.match(r"^\s+a?\s*[a-p](\s+[a-p])*\s*$", line))
            columns = set(header.split())
            rows = {int(m.group(1)) for m in re.finditer(r"^\s*(\d+) ", text, re.M)}
            for a in legal:
                cell = cell_name(a - A_ANCHOR)
                assert cell[0] in columns and int(cell[1:]) in rows, (cell, columns, rows)
            assert text.count("+") >= len(legal)
        state.apply(rng.choice(legal))
    assert seen == 3


def test_the_end_reason_is_named_for_every_game():
    from engine.records import play_random_game
    for name in ("pantikapaion", "polis", "mare_nostrum"):
        game = load_game(name, **OPTIONS.get(name, {}))
        record = play_random_game(game, 5)
        from engine.records import final_state
        reason = load_view(game).end_reason(final_state(record))
        assert re.search(r"final scoring|sudden death|won|round cap|draw", reason), reason


def test_a_turn_budget_is_shared_among_the_decisions_of_the_turn():
    pace = TurnPace()
    total = 1.0
    shares = []
    for step in range(3):              # the first turn: about 3 decisions expected; the bots' order of calls
        turn = Turn(0, [0, 1], step, turn_step=step, turn_used=sum(shares))
        pace.start(turn)
        pace.decided()
        shares.append(pace.share(total, turn))
    assert sum(shares) == pytest.approx(total) and shares == pytest.approx([total / 3] * 3)
    for step in range(6):              # a turn of 6 decisions
        pace.start(Turn(0, [0, 1], 10 + step, turn_step=step))
        pace.decided()
    pace.start(Turn(0, [0, 1], 20, turn_step=0))
    pace.decided()
    assert pace.decisions_left() == pytest.approx((3 + 6 + 3) / 3)     # learnt: the prior and the two turns seen
    for step in range(1, 4):
        pace.start(Turn(0, [0, 1], 20 + step, turn_step=step))
        pace.decided()
    # the fourth decision: of the turns seen only the 6-decision one got this far, and it had 3 left
    assert pace.decisions_left() == pytest.approx(3)
    for step in range(4, 7):
        pace.start(Turn(0, [0, 1], 20 + step, turn_step=step))
        pace.decided()
    assert pace.decisions_left() == 2.0    # the seventh: longer than every turn seen, it takes half of what is left


def test_the_front_pace_is_the_earlier_rule():
    """pace=front: the turn time left over the mean turn length less the decisions taken, this one counted (at
    least one): half a 3-decision turn to its first decision, the rest to the second, the floor to the third."""
    pace = TurnPace("front")
    total, shares = 1.0, []
    for step in range(3):
        turn = Turn(0, [0, 1], step, turn_step=step, turn_used=sum(shares))
        pace.start(turn)
        pace.decided()
        shares.append(pace.share(total, turn))
    assert shares == pytest.approx([0.5, 0.5, 0.02])
    with pytest.raises(ValueError, match="pace: 'late' is not one of even, front"):
        TurnPace("late")


def test_the_referee_limits_a_whole_turn_not_each_decision():
    from arena.referee import Policies
    from arena.referee import play_game
    record = play_game("mare_nostrum", {"players": 3, "max_rounds": 1},
                       ["ismcts:time=0.2", "random", "random"], 2, Policies(movetime=0.5, grace=0.3))
    assert record.result["reason"] == "normal"        # time=0.2 a turn keeps under a 0.5 s turn limit
    turns, last = [], None
    for p, t in zip(record.players, record.times):
        if p < 0:
            continue
        if p != last:
            turns.append([p, 0.0])
            last = p
        turns[-1][1] += t
    mine = [t for p, t in turns if p == 0]
    assert max(mine) < 0.5 and sum(1 for p, _ in turns if p == 0) > 3
