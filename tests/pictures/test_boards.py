"""Every game's picture: valid SVG, one element per piece the state holds, nothing hidden in a seat's view, PNG.

Positions are random games cut at several plies, drawn from every seat and in full. The counts come from the
state's own JSON (``to_json`` / ``observation``), so a picture that drops or doubles a piece fails.
"""
from __future__ import annotations

import xml.etree.ElementTree as ET
from collections import Counter

import pytest

from arena.pictures import random_position
from engine.records import play_random_game
from engine.registry import game_spec, list_games, load_game
from engine.rng import RNG
from engine.svg import PictureError, has_picture, load_layout, render, to_png

NS = "{http://www.w3.org/2000/svg}"
GAMES = [g for g in list_games() if has_picture(g)]
# games being built that have no picture yet; remove a name when its svg.py lands
PICTURE_PENDING: set = set()


def elements(svg: str):
    root = ET.fromstring(svg)
    assert root.tag == NS + "svg"
    return list(root.iter())


def classes(svg: str, cls: str, **data) -> list:
    found = []
    for el in elements(svg):
        if el.get("class") != cls:
            continue
        if all(el.get("data-" + k.replace("_", "-")) == str(v) for k, v in data.items()):
            found.append(el)
    return found


def positions(game_name: str, options: dict | None = None):
    """States of two seeded random games at the start, early, middle, just before the end and at the end."""
    game = load_game(game_name, **(options or {}))
    out = []
    for seed in (1, 2):
        length = len(play_random_game(game, seed).actions)
        for plies in sorted({0, length // 5, length // 2, length - 1, length}):
            out.append(random_position(game, seed, plies))
    return out


def test_every_registered_game_draws_a_picture():
    missing = [g for g in list_games() if not has_picture(g) and g not in PICTURE_PENDING]
    assert not missing, f"games without engine/games/<game>/svg.py: {missing}"


@pytest.mark.parametrize("name", GAMES)
def test_picture_is_svg_for_every_view(name):
    for options in game_spec(name).test_configurations()[:2]:
        for state in positions(name, options)[::2]:
            for seat in [None, *range(state.game.num_players)]:
                svg = render(state, seat)
                els = elements(svg)
                assert len(els) > 10
                heading = " ".join(el.text or "" for el in els if el.get("class") == "heading")
                assert ("view of" in heading) == (seat is not None), heading


@pytest.mark.parametrize("name", [g for g in list_games() if game_spec(g).has_hidden_information])
def test_a_seats_picture_shows_only_its_information_set(name):
    """Resampling what a seat cannot see (determinize) must not change the seat's picture by one byte: the replay
    page shows a seat nothing else. Every game with hidden information, drawn by its svg.py or as its text view."""
    rng = RNG(7)
    for state in positions(name):
        if state.is_terminal():
            continue
        for seat in range(state.game.num_players):
            mine = render(state, seat)
            for _ in range(3):
                assert render(state.determinize(seat, rng), seat) == mine, f"{name}: seat {seat} sees hidden state"


def test_goofspiel_pieces():
    for state in positions("goofspiel", {"players": 3, "cards": 8}):
        j = state.to_json()
        for seat in (None, 0, 1):
            svg = render(state, seat)
            assert len(classes(svg, "hand")) == sum(len(h) for h in j["hands"])
            assert len(classes(svg, "deck")) == len(j["prize_deck"])
            bids = [b for b in j["bids"] if b is not None]
            cards = classes(svg, "bid")
            assert len(cards) == len(bids)
            shown = sorted(int("".join(c.itertext()).strip()) for c in cards if c.get("data-face") == "up")
            if seat is None:
                assert shown == sorted(bids)
            else:                       # only the seat's own bid is face up
                assert len(shown) <= 1 and (not shown or shown[0] == j["bids"][seat])


def test_polis_pieces():
    for state in positions("polis"):
        j = state.to_json()
        svg = render(state, None)
        for side in ("athens", "sparta"):
            for area, rec in j["regions"].items():
                assert len(classes(svg, "unit", kind="hoplite", owner=side, area=area)) == rec[side]
            for area, rec in j["seas"].items():
                assert len(classes(svg, "unit", kind="galley", owner=side, area=area)) == rec[side]
            merchants = sum(1 for cell in j["market"]["cells"] if cell["merchant"] == side)
            assert len(classes(svg, "unit", kind="merchant", owner=side)) == merchants
            owned = [p for p, rec in j["poleis"].items() if rec["owner"] == side]
            assert sorted(e.get("data-area") for e in classes(svg, "polis", owner=side)) == sorted(owned)
        assert len(classes(svg, "polis")) == len(j["poleis"])
        built = sum(len(v) for key in ("started", "completed") for v in j["projects"][key].values())
        assert len(classes(svg, "building")) == built
        assert len(classes(svg, "tribute")) == sum(1 for r in j["regions"].values() if r["tribute"])


def test_mare_nostrum_pieces():
    for state in positions("mare_nostrum", {"players": 3}):
        j = state.to_json()
        svg = render(state, 1)
        for e in j["empires"]:
            name = e["empire"]
            legions = Counter({k: v for k, v in e["legions"].items()})
            drawn = Counter(el.get("data-area") for el in classes(svg, "unit", kind="legion", owner=name))
            assert drawn == legions
            ships = Counter(el.get("data-area") for el in classes(svg, "unit", kind="trireme", owner=name))
            assert ships == Counter(e["triremes"])
            forts = sorted(el.get("data-area") for el in classes(svg, "fortress", owner=name))
            assert forts == sorted(e["fortresses"])
        built = sum(1 for rec in j["provinces"].values() for space in rec["spaces"] if space[1])
        assert len(classes(svg, "building")) == built
        assert len(classes(svg, "province")) == len(j["provinces"])


def test_pantikapaion_pieces():
    for state in positions("pantikapaion", {"players": 3}):
        j = state.to_json()
        svg = render(state, 2)
        assert len(classes(svg, "tile")) == sum(1 for t in j["ring"] if t)
        assert len(classes(svg, "trireme")) == 1
        for p, b in enumerate(j["boards"]):
            cities = [el for el in elements(svg) if el.get("class") == "city-map" and el.get("data-owner") == str(p)]
            if not b["tiles"]:
                assert not cities
                continue
            (city,) = cities
            cells = [el for el in city if el.get("class") == "cell"]
            assert len(cells) == sum(1 for c in range(256) if state._height(p, c))
            assert max(int(el.get("data-level")) for el in cells) == max(state._height(p, c) for c in range(256))
            kinds = Counter(el.get("class") for el in city)
            assert kinds["cube"] == len(b["cubes"])
            assert kinds["worker"] == len(b["workers"])
            assert kinds["building"] == len(b["buildings"])


@pytest.mark.parametrize("name", GAMES)
def test_picture_renders_to_png(name, png_tools):
    state = positions(name)[2]
    png = to_png(render(state, 0), scale=0.5)
    assert png[:8] == b"\x89PNG\r\n\x1a\n" and len(png) > 2000


def test_a_game_without_a_picture_shows_its_text_view(monkeypatch):
    """A game with no svg.py (an OpenSpiel game, one being built) is drawn as its own text view, from the seat."""
    import engine.svg as svg

    def no_picture(name):
        raise PictureError(f"{name} has no picture yet")
    monkeypatch.setattr(svg, "picture_module", no_picture)
    rng = RNG(3)
    for state in positions("goofspiel", {"players": 3, "cards": 5})[1:4]:
        for seat in (None, 0, 2):
            picture = render(state, seat)
            lines = [("".join(el.itertext())).replace("\u00a0", " ") for el in elements(picture)
                     if el.get("class") in ("heading", "text-line")]
            assert lines == state.render(seat).splitlines()
            if seat is not None:
                assert render(state.determinize(seat, rng), seat) == picture


def test_a_face_down_block_or_card_carries_nothing_but_its_colour():
    """The kit's hidden pieces (Hellas's enemy blocks, a secret bid) hold no text and no tooltip."""
    from engine.svg import Canvas
    c = Canvas(100, 60, background=None)
    c.block(20, 20, 30, "#c0392b", None, data_owner="sparta", data_area="Attica")
    c.card(50, 5, 20, 30, None)
    hidden = c.to_svg()
    assert "<text" not in hidden and "Attica" in hidden
    assert hidden.count("<title>") == 1 and "<title>face down</title>" in hidden
    c = Canvas(100, 60, background=None)
    c.block(20, 20, 30, "#c0392b", "Leon", rating="B3", steps=2, max_steps=4)
    shown = c.to_svg()
    assert "Leon" in shown and "B3" in shown
    assert shown.count('fill="#2b2b2b" stroke="#2b2b2b"') == 2          # two steps left of four


def test_a_bad_seat_or_layout_is_a_clear_error(tmp_path):
    state = load_game("goofspiel").new_initial_state()
    with pytest.raises(PictureError, match="seat 2 is out of range"):
        render(state, 2)
    path = tmp_path / "layout.json"
    path.write_text('{"width": 100, "height": 100, "areas": {"A": [10, 10], "B": [500, 1]}}')
    with pytest.raises(PictureError, match="areas lacks C"):
        load_layout(path, {"areas": ["A", "C"]})
    with pytest.raises(PictureError, match=r"areas\.B must be \[x, y\] inside 100x100"):
        load_layout(path, {"areas": ["A", "B"]})
    path.write_text("{not json")
    with pytest.raises(PictureError, match="cannot read it"):
        load_layout(path, {})
