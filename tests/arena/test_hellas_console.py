"""Hellas at the terminal (engine/games/hellas/console.py): the board, the decision panel, explain and the change
lines are drawn from the seat's information set only (spec 7.2), in words that fit 80 and 200 columns; every card,
area and roster block has its text; the end names its reason. Built on the game directly, so it runs whether or
not the game is registered yet."""
import re

import pytest
from rich.console import Console

from engine.games.hellas.console import View
from engine.games.hellas.state import HellasGame
from arena.pictures import random_position
from engine.rng import RNG

REPR = re.compile(r"\{'|\['|\bNone\b|\bTrue\b|\bFalse\b|<[\w.]+ object at")
SIDES = ("Athens", "Sparta")


@pytest.fixture(scope="module")
def game():
    return HellasGame({"data": "431"})


def draw(thing, width=80) -> str:
    console = Console(width=width, record=True, file=open("/dev/null", "w"), color_system=None)
    console.print(thing)
    return console.export_text()


def decisions(game, seed, every=23, count=8):
    """(state before, action, state after) of a random game, every ``every``-th decision."""
    state, rng, out, n = game.new_initial_state(), RNG(seed), [], 0
    while not state.is_terminal() and len(out) < count:
        if state.is_chance_node():
            state.apply(state.chance_outcomes()[int(rng.random() * len(state.chance_outcomes()))][0])
            continue
        action = rng.choice(state.legal_actions())
        n += 1
        if n % every == 0:
            after = state.clone()
            after.apply(action)
            out.append((state.clone(), action, after))
        state.apply(action)
    return out


def test_the_board_and_the_decision_depend_only_on_what_the_seat_can_see(game):
    view = View(game)
    for before, action, _ in decisions(game, 1):
        for seat in (0, 1):
            a, b = before.determinize(seat, RNG(1)), before.determinize(seat, RNG(2))
            assert draw(view.board(a, seat), 200) == draw(view.board(b, seat), 200)
        seat = before.current_player()
        a, b = before.determinize(seat, RNG(3)), before.determinize(seat, RNG(4))
        legal = a.legal_actions()
        assert draw(view.decision(a, seat, legal)) == draw(view.decision(b, seat, legal))
        for move in legal[:3]:
            assert view.explain(a, seat, move) == view.explain(b, seat, move)


@pytest.mark.parametrize("width", [80, 200])
def test_views_are_words_that_fit_the_width(game, width):
    view = View(game)
    for before, action, after in decisions(game, 2, every=17):
        seat = before.current_player()
        legal = before.legal_actions()
        for thing in (view.board(before, seat), view.board(before, 1 - seat), view.decision(before, seat, legal),
                      view.explain(before, seat, legal[0]), view.final(after)):
            text = draw(thing or "", width)
            assert max(len(line) for line in text.split("\n")) <= width
            assert not REPR.search(text), text
        for watcher in (0, 1):
            assert not REPR.search(view.change(before, after, action, watcher))


def test_enemy_blocks_are_unknowns_and_his_hand_a_count(game):
    """Athens's board names his own blocks with rating and steps, Sparta's unseen ones only as ?xN per area,
    and Sparta's hand as a count: no unrevealed Spartan block id, no card of her hand."""
    view = View(game)
    for before, _, _ in decisions(game, 3, every=13):
        truth = before.to_json()
        for seat, me in enumerate(SIDES):
            enemy = SIDES[1 - seat]
            obs = before.observation(seat)
            text = draw(view.board(before, seat), 200)
            hidden = [uid for uid in truth["blocks"] if uid.startswith(enemy[0]) and uid not in obs["blocks"]]
            named = set(re.findall(r"\b([AS]\d+) [A-F]\d ", text))
            assert not named & set(hidden), f"{me}'s board names unseen {sorted(named & set(hidden))}"
            unseen = sum(r["field"] + r["inside"] for r in obs.get("unseen_blocks", {}).values())
            assert sum(int(n) for n in re.findall(r"\?x(\d+)", text)) == unseen
            assert f"hand: {len(truth['cards'][enemy])} cards (hidden)" in text
            mine = truth["cards"][me]
            shown = re.search(rf"{me}.*?\n  hand: (.*)", text).group(1)
            assert sorted(int(c) for c in re.findall(r"#(\d+)", shown)) == sorted(mine) or not mine


def test_a_hidden_enemy_move_is_said_without_its_block(game):
    """Sparta picking an unseen block for a group move reads 'picks an unseen block', never its id."""
    view = View(game)
    state, rng, seen = game.new_initial_state(), RNG(5), 0
    while not state.is_terminal() and seen < 5:
        if state.is_chance_node():
            state.apply(state.chance_outcomes()[0][0])
            continue
        action = rng.choice(state.legal_actions())
        after = state.clone()
        after.apply(action)
        mover = state.current_player()
        name = state.action_to_str(action)
        if state.step_name() == "move-unit" and name.startswith("unit:"):
            uid = name.split(":")[1]
            if uid not in state.observation(1 - mover)["blocks"]:
                line = view.change(state, after, action, 1 - mover)
                assert uid not in re.findall(r"\b[AS]\d+\b", line), line
                assert "picks an unseen block" in line
                seen += 1
        state = after
    assert seen == 5


def test_every_card_area_and_block_has_a_text(game):
    view = View(game)
    texts = view.texts()
    for card in game.data.cards:
        assert f"#{card.id}" in texts and view.event_texts[card.event]["text"] in texts[f"#{card.id}"]
    for a in game.data.areas:
        assert texts[a.id] == texts[a.name] and "next to" in texts[a.id]
    for u in game.data.units:
        assert texts[u.id].startswith(u.name)
    assert "Civil War" in texts["#30"] and "loses its double defence" in texts["#30"]


def test_the_end_reason_names_how_the_war_ended(game):
    view = View(game)
    for seed in range(1, 7):
        state = random_position(game, seed, 100_000)           # a whole random game
        assert state.is_terminal()
        j = state.to_json()
        reason = view.end_reason(state)
        assert re.search(r"automatic victory|truce|minor victory|major victory|a draw", reason), reason
        assert str(j["year"]) in reason or "end of the scenario" in reason or "last year" in reason
        final = draw(view.final(state), 200)
        assert "Everything revealed" in final and not re.search(r"\?x\d", final)    # the truth: every block named
