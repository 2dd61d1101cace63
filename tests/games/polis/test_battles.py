"""Spec section 6: battles (cards, matching, Misthophoroi, Salpinktes, retreat, prestige flows, end conditions)."""
from .helpers import CODES, COUNTS, G, battle, clear_units, edit, fresh, names, play, player, set_round


def _hands(att, dfn, attacker="sparta"):
    other = "athens" if attacker == "sparta" else "sparta"
    return {attacker: att, other: dfn}


def test_6_3_matched_units_attacker_gains_difference_example_L612():
    """Spec 6.3 (L612): Phalanx-Othismos(2) + Toxotai-Voli(0) vs Phalanx-Proothisi(1) + Toxotai-Proothisi(1):
    both match, no losses, the attacker gains 2-1 = 1; the defender never gains (L588)."""
    s = battle("Boeotia", 4, 4, _hands(["A2", "C0", "B1", "D0"], ["A1", "C1", "B0", "D0"]), "sparta")
    play(s, "attack:A2+C0", "defend:A1,C1")
    j = s.to_json()
    assert j["players"]["sparta"]["prestige"] == 6 and j["players"]["athens"]["prestige"] == 5
    assert j["regions"]["Boeotia"] == {"athens": 4, "sparta": 4, "tribute": None}


def test_6_3_attacking_salpinktes_costs_prestige_and_a_cube_example_L616():
    """Spec 6.3 (L616, L598): sea: Trieres-Kyklos(0) + Salpinktes vs Trieres-Periplous(1) + Anotera: Trieres match,
    0 < 1 -> nothing; Salpinktes -> the defender loses 1 galley, the attacker loses 1 prestige."""
    s = battle("Cyclades", 4, 4, _hands(["B0", "S-1", "A1", "D0"], ["B1", "A2", "C1", "C0"], "athens"), "athens")
    play(s, "attack:B0+S-1", "defend:B1,A2")
    j = s.to_json()
    assert j["players"]["athens"]["prestige"] == 4 and j["seas"]["Cyclades"]["sparta"] == 3


def test_6_3_defending_misthophoroi_joker_example_L620():
    """Spec 6.3 (L620, L594): Phalanx-Othismos(2) + Toxotai-Proothisi(1); the defender's Misthophoroi matches the
    Phalanx (attacker +2), Hippeis vs Toxotai does not match (defender -1 hoplite, attacker +1)."""
    s = battle("Boeotia", 4, 4, _hands(["A2", "C1", "D0", "D0"], ["M0", "B1", "A1", "C0"]), "sparta")
    play(s, "attack:A2+C1", "defend:M0,B1")
    j = s.to_json()
    assert j["players"]["sparta"]["prestige"] == 5 + 3 and j["regions"]["Boeotia"]["athens"] == 3


def test_6_3_attacking_misthophoroi_counts_as_defenders_unit_L594():
    """Spec 9.3 (L594): an attacking Misthophoroi matches whatever the defender plays: no loss, no gain."""
    s = battle("Boeotia", 4, 4, _hands(["M0", "D0", "D0", "B0"], ["A2", "C1", "A1", "C0"]), "sparta")
    play(s, "attack:D0+M0", "defend:C1,A2")
    j = s.to_json()
    assert j["regions"]["Boeotia"]["athens"] == 3            # D0 vs C1 no match: 1 loss; M0 vs A2: match
    assert j["players"]["sparta"]["prestige"] == 5           # D0 strength 0, M0 gains max(0, 0-2) = 0


def test_6_3_attacking_misthophoroi_vs_defending_salpinktes_A9():
    """Spec 10.7 A9 (ASSUMED): defending Salpinktes beats the attacking Misthophoroi joker: the defender loses
    a cube, the attacker gains 0."""
    s = battle("Boeotia", 4, 4, _hands(["M0", "A1", "D0", "B0"], ["S-1", "A2", "C1", "C0"]), "sparta")
    play(s, "attack:A1+M0", "defend:A2,S-1")
    j = s.to_json()
    assert j["regions"]["Boeotia"]["athens"] == 3 and j["players"]["sparta"]["prestige"] == 5


def test_6_3_defending_salpinktes_counts_as_different_unit_L598():
    """Spec 9.3 (L598): a defending Salpinktes never matches: the defender loses 1 cube and the attacker gains
    strength(a)."""
    s = battle("Boeotia", 4, 4, _hands(["A2", "A1", "D0", "B0"], ["S-1", "A1", "C1", "C0"]), "sparta")
    play(s, "attack:A2+A1", "defend:S-1,A1")
    j = s.to_json()
    assert j["regions"]["Boeotia"]["athens"] == 3 and j["players"]["sparta"]["prestige"] == 5 + 2 + 0


def test_6_3_misthophoroi_defender_vs_salpinktes_attacker_no_match_L598():
    """Spec 6.3 rule 1 (L598): an attacking Salpinktes is never matched, not even by the Misthophoroi joker."""
    s = battle("Boeotia", 4, 4, _hands(["S-1", "A1", "D0", "B0"], ["M0", "A1", "C1", "C0"]), "sparta")
    play(s, "attack:A1+S-1", "defend:A1,M0")
    j = s.to_json()
    assert j["regions"]["Boeotia"]["athens"] == 3 and j["players"]["sparta"]["prestige"] == 4


def test_6_3_attacking_salpinktes_at_zero_prestige_loses_L207_A10():
    """Spec 8.1 / A10 (L207, L598): an attacker at 0 prestige who plays Salpinktes falls below 0 and loses."""
    s = battle("Boeotia", 4, 4, _hands(["S-1", "D0", "D0", "B0"], ["A2", "A1", "C1", "C0"]), "sparta", prestige=(5, 0))
    play(s, "attack:D0+S-1")
    assert s.is_terminal() and s.returns() == [1.0, 0.0]


def test_6_3_defender_assigns_each_card_and_choice_is_ordered():
    """Spec 6.3 step 2 (L585): the defender assigns one card to each attacker card (ordered choice)."""
    s = battle("Boeotia", 4, 4, _hands(["A2", "C1", "D0", "D0"], ["M0", "B1", "A1", "C0"]), "sparta")
    s.apply("attack:A2+C1")
    opts = names(s)
    assert "defend:M0,B1" in opts and "defend:B1,M0" in opts and len(opts) == 12
    assert s.current_player() == 0


def test_6_3_refill_and_roles_swap_L600_L602():
    """Spec 6.3 steps 7-8 (L600-602): the attacker draws 2, the defender 2 - losses; then roles swap."""
    s = battle("Boeotia", 4, 4, _hands(["A2", "C1", "D0", "D0"], ["M0", "B1", "A1", "C0"]), "sparta")
    play(s, "attack:A2+C1", "defend:M0,B1")
    assert names(s) == ["retreat", "stay"] and s.current_player() == 0    # next attacker (Athens) declares first
    play(s, "stay", "stay")
    j = s.to_json()
    assert j["phase"] == "deal" and j["battle"]["need"] == {"athens": 1, "sparta": 2}
    assert j["battle"]["attacker"] == "athens"
    play(s, "deal:A1", "deal:B1", "deal:B1")
    j = s.to_json()
    assert j["phase"] == "attack" and s.current_player() == 0
    assert len(j["battle"]["hands"]["athens"]) == 3 and len(j["battle"]["hands"]["sparta"]) == 4


def test_6_5_retreat_costs_one_and_pays_opponent_L604():
    """Spec 6.5 (L604): retreat: -1 prestige to the retreater, +1 to the opponent; units stay; battle over."""
    s = battle("Boeotia", 4, 4, _hands(["A2", "C1", "D0", "D0"], ["M0", "B1", "A1", "C0"]), "sparta")
    play(s, "attack:A2+C1", "defend:A1,C0")
    s.apply("retreat")
    j = s.to_json()
    # both pairs matched: Sparta +1 +1; then Athens retreats: -1 to Athens, +1 to Sparta
    assert j["battle"] is None and j["players"]["athens"]["prestige"] == 4 and j["players"]["sparta"]["prestige"] == 8
    assert j["regions"]["Boeotia"] == {"athens": 4, "sparta": 4, "tribute": None}


def test_6_5_no_retreat_at_zero_prestige_L604():
    """Spec 6.5 (L604): a player with 0 prestige may not retreat (its window is skipped)."""
    s = battle("Boeotia", 4, 4, _hands(["A2", "C1", "D0", "D0"], ["M0", "B1", "A1", "C0"]), "sparta", prestige=(0, 5))
    play(s, "attack:A2+C1", "defend:M0,B1")
    assert s.current_player() == 1 and s.to_json()["phase"] == "retreat"   # only Sparta is asked


def test_6_6_battle_ends_when_defender_below_two_cubes_L605():
    """Spec 6.6 (L605): a defender left with fewer than 2 cubes ends the battle."""
    s = battle("Boeotia", 3, 5, _hands(["A2", "A1", "D0", "D0", "B0"], ["D0", "C0", "C1"]), "sparta", rnd="omega")
    play(s, "attack:A2+A1", "defend:C0,C1")
    j = s.to_json()
    assert j["regions"]["Boeotia"]["athens"] == 1 and j["battle"] is None
    assert j["players"]["sparta"]["prestige"] == 5 + 3


def test_6_6_battle_ends_when_deck_cannot_refill_L606_A13():
    """Spec 6.6 (L606, ASSUMED A13): if the deck holds fewer cards than both refills need, the battle ends."""
    att, dfn = ["D0", "D0", "M0", "S-1"], ["A2", "A1", "B1", "C1"]
    rest = []
    for code, n in zip(CODES, COUNTS):
        rest += [code] * (n - (att + dfn).count(code))
    s = battle("Boeotia", 4, 4, _hands(att, dfn), "sparta", discard=rest[:-1])     # one card left in the deck
    j = s.to_json()
    assert len(j["battle"]["deck"]) == 1
    play(s, "attack:D0+D0", "defend:A2,A1", "stay", "stay")
    assert s.to_json()["battle"] is None


def test_6_2_first_window_then_deal_equal_to_units_L579_L583():
    """Spec 6.2 (L579-583): a fresh 24-card deck; retreat window 0; each draws as many cards as own cubes."""
    def fn(j):
        set_round(j, "sigma")
        clear_units(j)
        j["regions"]["Boeotia"].update(athens=4, sparta=3)
        j["regions"]["Megaris"]["sparta"] = 1
    s = edit(fresh(), fn)
    play(s, "move-hoplites", "to:Boeotia", "from:Megaris", "pass", "stay", "stay")
    j = s.to_json()
    assert j["phase"] == "deal" and j["battle"]["need"] == {"athens": 4, "sparta": 4}
    assert sorted(len(s.chance_outcomes()) for _ in [0]) == [9]
    probs = dict((s.action_to_str(a), p) for a, p in s.chance_outcomes())
    assert abs(probs["deal:A1"] - 5 / 24) < 1e-12
    for _ in range(8):
        s.apply("deal:D0" if s.to_json()["battle"]["deck"].count("D0") else "deal:A1")
    assert s.to_json()["phase"] == "attack" and s.current_player() == 1


def test_6_1_refight_at_next_check_when_eight_remain_L604():
    """Spec 6.1 (L604, A15): a battle ended by retreat leaves 8 cubes: the next turn's check fights again."""
    s = battle("Boeotia", 4, 4, _hands(["A2", "C1", "D0", "D0"], ["M0", "B1", "A1", "C0"]), "sparta")
    play(s, "attack:A2+C1", "defend:A1,C0", "retreat")
    j = s.to_json()
    assert j["battle"] is None and j["regions"]["Boeotia"] == {"athens": 4, "sparta": 4, "tribute": None}
    assert s.current_player() == 0                       # the check of Sparta's turn is over: Athens plays
    play(s, "pass")                                       # Athens' turn ends: Boeotia fights again
    assert s.to_json()["battle"]["area"] == "Boeotia"


def _battlefield(myrtoan: bool):
    """Round sigma with several areas at 8 or more cubes, so random play fights many battles."""
    def fn(j):
        set_round(j, "sigma")
        clear_units(j)
        j["regions"]["Boeotia"].update(athens=4, sparta=4)
        j["regions"]["Megaris"].update(athens=4, sparta=3)
        j["regions"]["Arcadia"]["sparta"] = 1
        j["seas"]["Cyclades"].update(athens=4, sparta=4)
        if myrtoan:
            j["seas"]["Myrtoan"].update(athens=3, sparta=4)
        j["players"]["athens"].update(prestige=8, wheat=12)
        j["players"]["sparta"].update(prestige=8, wheat=12)
    return edit(fresh(), fn)


def _random_step(s, rng):
    """One random move: a chance outcome by its probability, else a uniform legal action."""
    if s.is_chance_node():
        acts, probs = zip(*s.chance_outcomes())
        s.apply(rng.choices(acts, probs)[0])
    else:
        s.apply(rng.choice(s.legal_actions()))


def test_random_battles_keep_every_invariant():
    """Spec 6 as a whole: random play through many battles (several areas at 8+ cubes in sigma) never breaks
    the piece accounting, the 24-card deck, hand sizes or the stacking limits (from_json re-checks them all)."""
    import random

    start = _battlefield(myrtoan=True)
    battles = 0
    for seed in range(25):
        rng = random.Random(seed)
        s = start.clone()
        for _ in range(400):
            if s.is_terminal():
                break
            j = s.to_json()
            assert G.state_from_json(j).to_json() == j
            if j["phase"] == "attack":
                battles += 1
            _random_step(s, rng)
    assert battles > 20


def test_6_3_salpinktes_prestige_is_paid_when_played_A10_L598():
    """Spec A10 (L598, L207): the attacker plays Salpinktes "by spending 1 prestige": the cost is paid as the card
    is played, before the defender answers, so an attacker at 0 prestige loses at once; the +2 of an unmatched
    Phalanx-Othismos in the same exchange does not net it away."""
    s = battle("Boeotia", 4, 4, _hands(["A2", "S-1", "D0", "B0"], ["B1", "C1", "C0", "D0"]), "sparta", prestige=(5, 0))
    s.apply("attack:A2+S-1")
    assert s.is_terminal() and s.returns() == [1.0, 0.0]


def test_6_3_salpinktes_cost_then_gains_at_one_prestige_L598():
    """Spec 6.3 (L598, L620): at 1 prestige the attacker pays the Salpinktes (1 -> 0) when playing it, then gains the
    unmatched Phalanx-Othismos's 2 after the defence; the defender loses a cube to each unmatched card."""
    s = battle("Boeotia", 4, 4, _hands(["A2", "S-1", "D0", "B0"], ["B1", "C1", "C0", "D0"]), "sparta", prestige=(5, 1))
    s.apply("attack:A2+S-1")
    assert not s.is_terminal() and s.to_json()["players"]["sparta"]["prestige"] == 0
    s.apply("defend:B1,C1")
    j = s.to_json()
    assert j["players"]["sparta"]["prestige"] == 2 and j["regions"]["Boeotia"]["athens"] == 2


def test_7_2_info_key_survives_a_json_round_trip_after_battles_H1():
    """Spec 7.2 (H1): an information-set key depends on the information set alone: for random positions around
    and after battles, a JSON round trip (which keeps everything observable) leaves info_key of both players equal."""
    import random

    start = _battlefield(myrtoan=False)
    ended = 0
    for seed in range(20):
        rng = random.Random(seed)
        s = start.clone()
        in_battle = False
        for _ in range(300):
            back = G.state_from_json(s.to_json())
            for p in (0, 1):
                assert back.info_key(p) == s.info_key(p), (seed, s.to_json()["phase"])
            if s.is_terminal():
                break
            now = s.to_json()["battle"] is not None
            ended += in_battle and not now
            in_battle = now
            _random_step(s, rng)
    assert ended >= 10
