"""Hellas's picture (engine/games/hellas/svg.py): every block drawn where the state puts it, face up exactly where the
viewer may know what it is (his own, and the enemy's revealed ones: spec 7.2 H4), every city with its markers, the
hands as the viewer may see them, and nothing of the other side's hidden blocks or hand in a seat's picture.

Positions are seeded random games of the 431 data set cut at several plies; the counts come from the state's own
JSON (``to_json`` for the truth, ``observation`` for a seat)."""
from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from collections import Counter

import pytest

from arena.pictures import random_position
from engine.games.hellas import svg as hellas_svg
from engine.games.hellas.state import HellasGame
from engine.records import play_random_game
from engine.rng import RNG
from engine.svg import PictureError, to_png

NS = "{http://www.w3.org/2000/svg}"
SIDES = ("Athens", "Sparta")


@pytest.fixture(scope="module")
def game():
    return HellasGame({"data": "431"})


@pytest.fixture(scope="module")
def states(game):
    out = []
    for seed in (1, 2, 3):
        length = len(play_random_game(game, seed).actions)
        for plies in sorted({0, 20, length // 4, length // 2, 3 * length // 4, length - 1, length}):
            out.append(random_position(game, seed, plies))
    # and the first position of a battle being fought (its mark on the map)
    plies = next(p for p in range(0, 2000, 3) if random_position(game, 1, p).to_json()["machine"]["b_area"] >= 0)
    out.append(random_position(game, 1, plies))
    return out


def draw(state, seat):
    text = hellas_svg.draw(state, seat).to_svg()
    return text, ET.fromstring(text)


def of_class(root, cls, **data):
    return [el for el in root.iter() if el.get("class") == cls
            and all(el.get("data-" + k.replace("_", "-")) == str(v) for k, v in data.items())]


def _seat_views(states):
    """Each state drawn for each seat: (state, its JSON, seat, the seat's side, the enemy's, the seat's
    observation, (svg text, svg root))."""
    for state in states:
        truth = state.to_json()
        for seat, me in enumerate(SIDES):
            yield state, truth, seat, me, SIDES[1 - seat], state.observation(seat), draw(state, seat)


def test_every_block_on_the_map_is_drawn_where_it_stands(game, states):
    """The whole truth: one face-up block per unit on the map, in its area, inside the city or in the field."""
    for state in states:
        j = state.to_json()
        _, root = draw(state, None)
        units = of_class(root, "unit")
        assert all(u.get("data-face") == "up" for u in units)
        drawn = Counter((u.get("data-unit"), u.get("data-area"), u.get("data-inside")) for u in units)
        want = Counter((uid, b["area"], "yes" if b["inside"] else "no") for uid, b in j["blocks"].items()
                       if b["area"] != "pool")
        assert drawn == want
        pool = Counter(el.get("data-unit") for el in of_class(root, "pool"))
        assert pool == Counter(uid for uid, b in j["blocks"].items() if b["area"] == "pool")


def test_a_seat_sees_its_own_blocks_face_up_and_unrevealed_enemy_blocks_face_down(game, states):
    """Spec 7.2 H4: own blocks and revealed enemy blocks face up; every other enemy block only as a face-down block
    of its side's colour in its area (as many as the observation counts there, field and inside apart)."""
    for state, truth, seat, me, enemy, obs, (_, root) in _seat_views(states):
        up = of_class(root, "unit")
        faces_up = [u for u in up if u.get("data-face") == "up"]
        faces_down = [u for u in up if u.get("data-face") == "down"]
        mine = {uid for uid, b in truth["blocks"].items() if uid.startswith(me[0]) and b["area"] != "pool"}
        assert {u.get("data-unit") for u in faces_up if u.get("data-owner") == me} == mine
        seen_enemy = {uid for uid, b in obs["blocks"].items() if uid.startswith(enemy[0]) and b["area"] != "pool"}
        assert {u.get("data-unit") for u in faces_up if u.get("data-owner") == enemy} == seen_enemy
        assert all(u.get("data-owner") == enemy and u.get("data-unit") is None for u in faces_down)
        want = Counter()
        for area, rec in obs.get("unseen_blocks", {}).items():
            want[(area, "no")] += rec["field"]
            want[(area, "yes")] += rec["inside"]
        assert Counter((u.get("data-area"), u.get("data-inside")) for u in faces_down) == +want
        # every enemy block on the map is drawn, face up or down: the positions are public
        on_map = sum(1 for uid, b in truth["blocks"].items() if uid.startswith(enemy[0]) and b["area"] != "pool")
        assert len([u for u in up if u.get("data-owner") == enemy]) == on_map


def test_a_seats_picture_holds_nothing_of_the_enemys_hidden_blocks_or_hand(game, states):
    """The picture for Athens names no unrevealed Spartan block and no card of the Spartan hand (and the other way
    round): no text, no tooltip, no attribute; and resampling what the seat cannot see changes no byte of it."""
    rng = RNG(11)
    checked = 0
    for state, truth, seat, me, enemy, obs, (text, root) in _seat_views(states):
        hidden = [uid for uid, b in truth["blocks"].items() if uid.startswith(enemy[0]) and uid not in obs["blocks"]]
        named = {el.get("data-unit") for el in root.iter()} | {(el.text or "").strip() for el in root.iter()
                                                              if el.tag in (NS + "text", NS + "title")}
        named |= {(el.text or "").split(" ")[0] for el in root.iter() if el.tag == NS + "title"}
        leaked = sorted(set(hidden) & named)
        assert not leaked, f"{me}'s picture names the hidden {leaked}"
        hand = truth["cards"][enemy]
        shown = {el.get("data-card") for el in of_class(root, "card") if el.get("data-owner") == enemy}
        assert shown <= {None}, f"{me}'s picture shows the enemy hand: {shown}"
        backs = [el for el in of_class(root, "card", owner=enemy, kind="hand")]
        assert len(backs) == len(hand) and all(el.get("data-face") == "down" for el in backs)
        mine = sorted(int(el.get("data-card")) for el in of_class(root, "card", owner=me))
        assert mine == sorted(truth["cards"][me])
        if truth["commit"][enemy] and obs["commit"][enemy] == "face down":
            assert truth["commit"][enemy] not in text
        if not state.is_terminal():
            for _ in range(2):
                assert hellas_svg.draw(state.determinize(seat, rng), seat).to_svg() == text
            checked += 1
    assert checked > 20


def test_cities_markers_and_tracks_follow_the_state(game, states):
    for state in states:
        j = state.to_json()
        _, root = draw(state, None)
        data = game.data
        cities = of_class(root, "city")
        assert sorted(el.get("data-area") for el in cities) == sorted(a.id for a in data.areas if a.is_city)
        assert sorted(el.get("data-area") for el in of_class(root, "settlement")) == \
            sorted(a.id for a in data.areas if a.site_type == "settlement")
        for el in cities:
            assert el.get("data-control") == (j["control"][el.get("data-area")]["city"] or "")
        sieges = [el for el in root.iter() if el.get("class") == "siege"]
        assert len(sieges) == sum(1 for a in data.areas if a.is_city and j["control"][a.id]["besieged"])
        assert sorted(el.get("data-area") for el in of_class(root, "marker", kind="P")) == \
            sorted(a for a, c in j["cities"].items() if c["pillaged"])
        assert sorted(el.get("data-area") for el in of_class(root, "marker", kind="CW")) == \
            sorted(a for a, c in j["cities"].items() if c["civil_war"])
        assert sorted((el.get("data-area"), el.get("data-owner")) for el in of_class(root, "garrison")) == \
            sorted((a, c["garrison"]) for a, c in j["cities"].items() if c["garrison"])
        areas = {el.get("data-area"): el.get("data-control") for el in of_class(root, "area")}
        assert areas == {a.id: j["control"][a.id]["area"] or "" for a in data.areas if not a.sea}
        assert len(of_class(root, "battle-mark")) == (1 if j["machine"]["b_area"] >= 0 else 0)
        track = [el for el in of_class(root, "track") if el.get("data-kind") == "prestige"]
        assert len(track) == 1 and track[0].get("data-value") == str(j["prestige"])
        assert len(of_class(root, "sea")) == sum(1 for a in data.areas if a.sea)
        kinds = Counter(el.get("data-kind") for el in of_class(root, "border"))
        sea_borders = {(tuple(sorted((a.id, b))), kind) for a in data.areas if a.sea for b, kind in a.borders.items()}
        assert kinds["strait"] == sum(1 for _, k in sea_borders if k == "strait") == 3     # each drawn once
        assert kinds["hazard"] == sum(1 for _, k in sea_borders if k == "hazard") == 2
        assert kinds["coast"] == sum(len(a.coasts) for a in data.areas if a.sea)


def test_the_picture_is_svg_with_a_heading_and_renders_to_png(game, states, png_tools):
    state = states[3]
    for seat in (None, 0, 1):
        text, root = draw(state, seat)
        assert root.tag == NS + "svg"
        heading = " ".join(el.text or "" for el in root.iter() if el.get("class") == "heading")
        assert ("view of" in heading) == (seat is not None) and "BC" in heading
    png = to_png(text, scale=0.4)
    assert png[:8] == b"\x89PNG\r\n\x1a\n" and len(png) > 5000


def test_the_layout_must_place_every_area_and_colour_every_nationality(game, tmp_path):
    """The layout is data: a map whose areas the layout does not place, or a nationality it does not colour, is an
    error naming the layout file and what it lacks."""
    layout = json.loads((hellas_svg.DATA / "layout.json").read_text())
    del layout["land"]["LA07"]
    path = tmp_path / "layout.json"
    path.write_text(json.dumps(layout))
    with pytest.raises(PictureError, match=r"layout\.json: land lacks LA07"):
        hellas_svg._checked_layout(game.data, path)
    layout["land"]["LA07"] = [500, 800]
    del layout["nationalities"]["persian"]
    path.write_text(json.dumps(layout))
    with pytest.raises(PictureError, match="nationalities lacks persian"):
        hellas_svg._checked_layout(game.data, path)


def test_the_second_roster_draws_on_the_same_map():
    """The designer's order of battle (data set 431_designer) is drawn from its own roster on the same layout."""
    game = HellasGame({"data": "431_designer"})
    for plies in (0, 300):
        state = random_position(game, 4, plies)
        j = state.to_json()
        _, root = draw(state, None)
        on_map = [uid for uid, b in j["blocks"].items() if b["area"] != "pool"]
        assert sorted(u.get("data-unit") for u in of_class(root, "unit")) == sorted(on_map)


def test_a_data_set_of_ones_own_is_drawn_by_its_own_layout(tmp_path):
    """A person who drops in a real map gives its coordinates in the data folder (layout.json beside the scenario),
    no code: the picture reads that layout, and a layout that misses an area of that map is an error naming it."""
    import shutil
    for f in hellas_svg.DATA.iterdir():
        if f.suffix in (".csv", ".toml"):
            shutil.copy(f, tmp_path / f.name)
    game = HellasGame({"data": str(tmp_path / "scenario_431.toml")})
    state = game.new_initial_state()
    layout = json.loads((hellas_svg.DATA / "layout.json").read_text())
    layout["width"] += 100                      # this folder's own layout: a wider map
    (tmp_path / "layout.json").write_text(json.dumps(layout))
    _, root = draw(state, 0)
    assert root.get("width") == str(layout["width"] + hellas_svg.PANEL_W)
    del layout["seas"]["AEG"]
    (tmp_path / "layout_431.json").write_text(json.dumps(layout))       # the scenario's own layout comes first
    hellas_svg._LAYOUTS.clear()
    with pytest.raises(PictureError, match=r"layout_431\.json: seas lacks AEG"):
        draw(state, 0)
    hellas_svg._LAYOUTS.clear()
