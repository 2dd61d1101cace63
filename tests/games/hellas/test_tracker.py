"""Hellas's block tracker (engine/games/hellas/tracker.pxi; spec 7.2 H4-H7, 7.3 item 2): what the enemy can know of
each block, kept in the state from what he sees, and determinize() drawing only what agrees with it.

Each block's "known" (JSON) holds the identities the enemy holds possible for the token where it stands and bounds
on its steps. Along seeded random games the truth always agrees with it (the tracker is sound), and every
determinization agrees with it too (a perfect matching of slots to the unseen identities within the masks)."""
import random

import pytest

from engine.errors import BadStateError
from engine.rng import RNG
from engine.games.hellas.codec import prior_steps
from games.hellas.helpers import edit, game, spring

ATH, SPA = 0, 1
SIDES = ("Athens", "Sparta")


def bounds(data, bid, known):
    """The steps block bid may have as the token of `known` (tracker.step_bounds)."""
    u = {u.id: u for u in data.units}[bid]
    base = prior_steps(data, u) if known["steps_from"] == "prior" else 0
    lo, hi = max(1, base + known["steps"][0]), min(u.max_steps, base + known["steps"][1])
    return (max(hi, 1), max(hi, 1)) if lo > hi else (lo, hi)


def agrees(obj, data, side):
    """Every block of side is one its own token's mask allows, with steps within its bounds (on the map)."""
    for bid, v in obj["blocks"].items():
        if bid[0] != side[0]:
            continue
        assert bid in v["known"]["could_be"], (bid, v["known"])
        if v["revealed"]:
            assert v["known"]["could_be"] == [bid]
        elif v["area"] != "pool":
            lo, hi = bounds(data, bid, v["known"])
            assert lo <= v["steps"] <= hi, (bid, v["steps"], v["known"])


def walk(seed, data="431", limit=2500):
    """A seeded random game from Spring of the first year, yielding the state after each action."""
    s = spring(data=data)
    rng = random.Random(seed)
    for _ in range(limit):
        if s.is_terminal():
            return
        if s.is_chance_node():
            out = s.chance_outcomes()
            s.apply(rng.choices([a for a, _ in out], [p for _, p in out])[0])
        else:
            s.apply(rng.choice(s.legal_actions()))
        yield s


def decisions(seeds, every, limit):
    """(state, the seat to decide) every `every` nodes of seeded random games, at nodes where a seat decides."""
    for seed in range(seeds):
        for n, s in enumerate(walk(seed, limit=limit)):
            if n % every == 0 and not s.is_terminal() and s.current_player() >= 0:
                yield s, s.current_player()


@pytest.mark.parametrize("data", ["431", "designer"])
def test_spec7_3_the_tracker_always_allows_the_truth(data):
    """Spec 7.3 item 2 (the roster, eliminations, the last reveal, recruits since), rulebook L160 (blocks stand
    upright, hidden from the enemy) and L161 (the pool face down): along random games every block's identity is in
    its own mask and its steps within its bounds; a revealed block is known as itself."""
    g = game(data)
    narrowed = 0
    for seed in range(3):
        for n, s in enumerate(walk(seed, data)):
            if n % 7:
                continue
            obj = s.to_json()
            for side in SIDES:
                agrees(obj, g.data, side)
            narrowed += sum(len(v["known"]["could_be"]) < 10 for b, v in obj["blocks"].items() if not v["revealed"])
    assert narrowed > 100           # the masks are not simply "any block of the side"


def test_spec7_3_a_determinization_agrees_with_what_the_observer_knows():
    """Spec 7.3 item 2, rulebook L160-L161: each determinization puts in each unseen slot an identity its mask
    allows, with steps within its bounds, and uses each of the side's unseen identities exactly once (the pool
    included)."""
    g = game()
    checked = 0
    for s, observer in decisions(3, 60, 1200):
        enemy = SIDES[1 - s.side_of(observer)]
        truth = s.to_json()
        hidden = sorted(b for b, v in truth["blocks"].items() if b[0] == enemy[0] and not v["revealed"])
        for k in range(5):
            obj = s.determinize(observer, RNG(k)).to_json()
            agrees(obj, g.data, enemy)
            assert sorted(b for b, v in obj["blocks"].items()
                          if b[0] == enemy[0] and not v["revealed"]) == hidden      # each identity once
            checked += 1
    assert checked > 50


def test_spec7_3_H5_a_recruit_is_only_ever_a_block_its_city_may_raise():
    """Spec 7.3 item 2 ("home-city rules: a new Greek unit must match its city's nationality"), rulebook L113, L169:
    a unit recruited into a city is determinized only as a block of that city's nationality (a port for a fleet),
    though which pool block it was is not shown (H5)."""
    g = game()
    units = {u.id: u for u in g.data.units}
    areas = {a.id: a for a in g.data.areas}
    seen = 0
    for seed in range(6):
        s = spring()
        rng = random.Random(seed)
        for _ in range(3000):
            if s.is_terminal():
                break
            if s.is_chance_node():
                out = s.chance_outcomes()
                s.apply(rng.choices([a for a, _ in out], [p for _, p in out])[0])
                continue
            acts = s.legal_actions()
            if s.step_name() == "place":
                a = rng.choice(acts)
                city = areas[s.action_to_str(a).split(":")[1]]
                mover = s.current_player()                  # seat = side here (SIDE_SELECTION assigned)
                recruit = g.data.units[s.to_json()["machine"]["unit"]]
                season = s.to_json()["season"]
                s.apply(a)
                after = s.to_json()
                if after["season"] != season or after["step"] != "action" or after["machine"]["active"] != mover:
                    continue                                # the phase ended: Winter supply may merge the place
                raisable = {x for x, u in units.items() if u.side == recruit.side and u.nationality == city.nationality
                            and (u.type != "fleet" or city.site_type == "port")}
                known = s.to_json()["blocks"][recruit.id]["known"]
                assert recruit.id in known["could_be"] and set(known["could_be"]) <= raisable, (recruit.id, city.id)
                for k in range(4):                          # whoever fills the recruit's slot may be raised there
                    obj = s.determinize(1 - mover, RNG(k)).to_json()
                    fill = [b for b, v in obj["blocks"].items() if v["area"] == city.id and v["known"] == known]
                    assert fill and all(b in raisable for b in fill), (fill, city.id)
                    seen += 1
                continue
            s.apply(rng.choice(acts))
    assert seen > 0


def enemy_seat(s, bid):
    """The seat that does not own block bid."""
    return next(p for p in (0, 1) if SIDES[s.side_of(p)][0] != bid[0])


def moves(seeds, limit=3000):
    """(state after, JSON before, JSON after, block id) for each block that went from one area to another (pool
    not included) along seeded random games."""
    for seed in range(seeds):
        prev = None
        for s in walk(seed, limit=limit):
            obj = s.to_json()
            if prev is not None:
                for bid, v in obj["blocks"].items():
                    p = prev["blocks"][bid]
                    if "pool" not in (p["area"], v["area"]) and p["area"] != v["area"] and not v["revealed"]:
                        yield s, prev, obj, bid
            prev = obj


def test_spec7_2_H4_a_block_seen_then_moved_unseen_stays_one_that_stood_there():
    """Spec 7.2 H4 (a reveal lasts until the block moves), 7.3 item 2 ("each block's last revealed identity"),
    rulebook L160: a block revealed at X that then moves (its move shows which block: it was revealed) is, in every
    determinization, that block: the observer followed it."""
    found = 0
    for s, before, after, bid in moves(8):
        if not before["blocks"][bid]["revealed"]:
            continue
        assert after["blocks"][bid]["known"]["could_be"] == [bid]
        for k in range(3):
            assert s.determinize(enemy_seat(s, bid), RNG(k)).to_json()["blocks"][bid] == after["blocks"][bid]
        found += 1
        if found > 10:
            return
    assert found > 0


def test_spec7_2_H4_a_block_moved_unseen_from_x_is_one_of_those_that_stood_at_x():
    """Spec 7.2 H4, 7.3 item 2, rulebook L160: an unseen block that moves from X (the enemy sees a block of X move,
    not which) may be, for the enemy, only an identity one of the unseen blocks of its side at X (field or city, as
    it stood) could be; and in every determinization the block in its slot is one of those."""
    found = 0
    for s, before, after, bid in moves(4):
        p = before["blocks"][bid]
        if p["revealed"]:
            continue
        stood = set()
        for b, v in before["blocks"].items():
            if b[0] == bid[0] and v["area"] == p["area"] and v["inside"] == p["inside"] and not v["revealed"]:
                stood |= set(v["known"]["could_be"])
        known = after["blocks"][bid]["known"]
        assert set(known["could_be"]) <= stood
        d = s.determinize(enemy_seat(s, bid), RNG(found)).to_json()
        fill = [b for b, v in d["blocks"].items() if v["area"] == after["blocks"][bid]["area"] and v["known"] == known]
        assert fill and all(b in stood for b in fill)
        found += 1
        if found > 40:
            return
    assert found > 10


def test_spec7_2_H4_steps_after_a_secret_attrition_hit_stay_within_bounds():
    """Spec 7.2 H4 (siege attrition does not reveal: the opponent learns only how many steps were lost in that
    area), 7.1 R4 (rulebook L240, L298: siege attrition dice): after attrition hits every besieged token of that side has a lower bound lowered, the
    block that took the hit is within its bounds, and determinizations draw steps within them."""
    g = game()
    hits = 0
    for seed in range(12):
        for s in walk(seed, limit=4000):
            if s.step_name() != "attrition" or hits > 5:
                continue
            area = g.data.areas[s.to_json()["machine"]["att_area"]].id
            before = s.to_json()
            t = s.clone()
            t.apply(max(a for a, p in t.chance_outcomes()))        # the most hits
            after = t.to_json()
            lost = [b for b, v in after["blocks"].items() if v["area"] == area and v["inside"]
                    and v["steps"] < before["blocks"][b]["steps"]]
            if not lost or t.is_terminal() or t.current_player() < 0:
                continue
            side = lost[0][0]
            for b, v in after["blocks"].items():
                if b[0] == side and v["area"] == area and v["inside"]:
                    assert not v["revealed"]
                    assert v["known"]["steps"][0] < before["blocks"][b]["known"]["steps"][0] or \
                        before["blocks"][b]["revealed"]
            observer = 0 if SIDES[t.side_of(0)][0] != side else 1
            for k in range(5):
                agrees(t.determinize(observer, RNG(k)).to_json(), g.data, "Athens" if side == "A" else "Sparta")
            hits += 1
    assert hits > 0


def test_spec7_2_a_revealed_block_stays_what_it_was():
    """Spec 7.3 item 2 ("each block's last revealed identity and strength"), 7.2 H4 (rulebook L160, reveal
    ASSUMED): determinize leaves every revealed enemy block as it is."""
    for seed in range(3):
        for n, s in enumerate(walk(seed, limit=900)):
            if n % 90 or s.current_player() < 0:
                continue
            obs = s.current_player()
            truth = s.to_json()
            d = s.determinize(obs, RNG(n)).to_json()
            for b, v in truth["blocks"].items():
                if v["revealed"]:
                    assert d["blocks"][b] == v


def test_the_tracker_survives_a_json_round_trip():
    """A state rebuilt from its JSON has the same tracker (masks and bounds), and the same info keys."""
    for n, s in enumerate(walk(1, limit=900)):
        if n % 50:
            continue
        t = s.game.state_from_json(s.to_json())
        raw, back = s._raw(), t._raw()
        for key in ("poss", "slo", "shi", "srel", "revealed"):
            assert raw[key] == back[key], (n, key)
        if not s.is_terminal():
            assert s.info_key(0) == t.info_key(0) and s.info_key(1) == t.info_key(1)


def test_the_masks_are_part_of_the_information_set():
    """Two states that differ only in what the enemy knows of one unseen block (its mask) are different
    information sets for him (blind() keys the slots with their masks)."""
    s, observer = next((x, p) for x, p in decisions(1, 1, 3000) if x.step_name() == "action" and x.sides_set()
                       and x.to_json()["year"] < 431)
    obj = s.to_json()
    enemy = SIDES[1 - s.side_of(observer)]
    roster = [u.id for u in s.game.data.units if u.side == enemy]
    bid = next(b for b, v in obj["blocks"].items() if b[0] == enemy[0] and not v["revealed"]
               and v["known"]["could_be"] != roster)

    def widen(o):
        o["blocks"][bid]["known"]["could_be"] = roster
    assert edit(s, widen).info_key(observer) != s.info_key(observer)


@pytest.mark.parametrize("change,message", [
    (lambda k, bid: k.update(could_be=[]), "non-empty"),
    (lambda k, bid: k.update(could_be=k["could_be"] + ["A1"]), "is not a block of Sparta"),
    (lambda k, bid: k.update(could_be=["S2" if bid != "S2" else "S3"]), "itself"),
    (lambda k, bid: k.update(steps=[2, 1]), "low <= high"),
    (lambda k, bid: k.update(steps=[0, 99]), "low <= high"),
    (lambda k, bid: k.update(steps=[-8, -3], steps_from="absolute"), "outside the bounds"),
    (lambda k, bid: k.update(steps_from="guess"), "steps_from"),
    (lambda k, bid: k.pop("steps"), "must hold"),
])
def test_bad_tracker_fields_are_refused_with_a_clear_error(change, message):
    """Bad input: a mask naming a block of the other side, an empty mask, one ruling out the block itself, bad or
    unmet step bounds, a missing field: BadStateError naming the field."""
    s = spring()
    obj = s.to_json()
    bid = next(b for b, v in obj["blocks"].items() if b[0] == "S" and v["area"] != "pool" and not v["revealed"])
    change(obj["blocks"][bid]["known"], bid)
    with pytest.raises(BadStateError, match=message):
        s.game.state_from_json(obj)


def test_a_state_file_without_the_tracker_gets_the_least_knowledge():
    """Without "known" a block is, to the enemy, any block of its side (a revealed one: itself)."""
    s = spring()
    obj = s.to_json()
    for v in obj["blocks"].values():
        del v["known"]
    t = s.game.state_from_json(obj)
    back = t.to_json()
    for bid, v in back["blocks"].items():
        side = "Athens" if bid[0] == "A" else "Sparta"
        n = sum(u.side == side for u in s.game.data.units)
        assert len(v["known"]["could_be"]) == (1 if v["revealed"] else n)


def test_no_peeking_any_truth_of_the_information_set_gives_the_same_determinizations():
    """No peeking (spec 7.3): a determinization is another truth of the observer's information set (same info key,
    its tracker included); determinizing from it gives, seed for seed, exactly what determinizing from the true
    state gives: the draw depends only on what the observer saw."""
    checked = 0
    for s, obs in decisions(3, 100, 1500):
        other = s.determinize(obs, RNG(1000 + checked))
        assert other.info_key(obs) == s.info_key(obs)
        for k in range(3):
            assert other.determinize(obs, RNG(k)).to_json() == s.determinize(obs, RNG(k)).to_json()
        checked += 1
    assert checked > 10


def test_the_observation_shows_what_the_observer_knows_of_unseen_blocks():
    """The observation lists, per unseen enemy block (not named), where it stands and the tracker's identities and
    step bounds, as the truth has them."""
    for s, obs in decisions(1, 150, 1500):
        if not s.sides_set():
            continue
        view = s.observation(obs)
        enemy = SIDES[1 - s.side_of(obs)]
        truth = s.to_json()["blocks"]
        hidden = [v for b, v in truth.items() if b[0] == enemy[0] and not v["revealed"]]
        assert len(view["unseen_known"]) == len(hidden)
        assert sorted(str(k) for k in view["unseen_known"]) == \
            sorted(str({"area": v["area"], "inside": v["inside"], **v["known"]}) for v in hidden)
        assert not any(b in view["blocks"] for b, v in truth.items() if b[0] == enemy[0] and not v["revealed"])


TRACKER_FIELDS = {"poss", "slo", "shi", "srel"}


def test_no_peeking_the_tracker_changes_only_with_what_the_observer_sees():
    """No peeking: two truths of one information set (the true state and a determinization of it for the
    observer) given the same action, where the action is legal in both and the observer sees it the same in
    both, stay one information set as far as the tracker goes: the observer's views may differ after it only by
    what he legitimately learns (a battle's reveals, eliminations, whether a group move goes on), never in the
    tracker's fields alone, except the lower step bounds after Winter supply (spec 7.2 H4: he learns how many
    steps were lost in an area, and that count depends on hidden identities). This failed while the unit picked
    for a hidden move kept its own mask under the turn machinery's pointer (hidden_pick), and while a secret loss
    that eliminated a block left the other tokens' masks apart (seed 15)."""
    g = game("placeholder")
    winter = g.data.rules["SEASONS"][-1]
    shared = 0
    for seed in range(16):
        rng, obs = random.Random(seed), seed % 2
        s, t, n = g.new_initial_state(), None, 0
        while not s.is_terminal():
            n += 1
            if s.is_chance_node():
                out = s.chance_outcomes()
                a = rng.choices([x for x, _ in out], [p for _, p in out])[0]
                both = t is not None and dict(out).get(a) == dict(t.chance_outcomes()).get(a)
            else:
                a = rng.choice(s.legal_actions())
                both = (t is not None and s.current_player() == t.current_player() and a in t.legal_actions()
                        and s.action_observation(a, obs) == t.action_observation(a, obs))
            allowed = {"slo"} if s.to_json()["season"] == winter else set()
            s.apply(a)
            if both:
                t.apply(a)
                shared += 1
                vs, vt = s._raw_view(obs), t._raw_view(obs)
                differ = {k for k in vs if vs[k] != vt[k]}
                assert not differ <= TRACKER_FIELDS or differ <= allowed, (seed, a, differ)
            if not s.is_terminal() and s.sides_set() and (not both or s.info_key(obs) != t.info_key(obs)):
                t = s.determinize(obs, RNG(n))
    assert shared > 5000


def test_the_matching_is_perfect_within_the_masks_drawn_or_by_augmenting_paths():
    """determinize's matching (hidden.match_slots): on random slot masks around a hidden true assignment, every
    slot gets an identity its mask allows, each identity once, whether drawn (most constrained slot first) or, with
    no draws allowed, by augmenting paths; a forced slot gets its identity; masks with no perfect matching give
    None, never a made-up answer."""
    from engine.games.hellas.state import _match_slots
    rng = random.Random(7)
    hows = set()
    for case in range(300):
        n = rng.randint(1, 40)
        truth = rng.sample(range(64), n)
        masks = []
        for i in range(n):
            mask = 1 << truth[i]
            for _ in range(rng.randint(0, 3)):
                mask |= 1 << rng.choice(truth)
            masks.append(mask)
        for tries in (8, 0):
            forced = rng.randrange(n) if case % 3 == 0 else -1
            fbit = truth[forced] if forced >= 0 else -1
            picks, how = _match_slots(masks, forced, fbit, seed=case, tries=tries)
            hows.add(how)
            assert sorted(picks) == sorted(truth)
            assert all((masks[i] >> picks[i]) & 1 for i in range(n))
            assert forced < 0 or picks[forced] == fbit
            assert tries or how == 1
    assert hows == {0, 1}
    assert _match_slots([1, 1, 2]) is None                  # two slots for one identity
    assert _match_slots([3, 3, 3]) is None                  # three slots, two identities
