"""Hellas hidden blocks (spec 7.2 H4-H7, 7.3 item 2): what a player sees of enemy blocks, what he sees of their
moves, and determinize resampling the identities and steps of the enemy blocks he has not seen, from nothing but
what he has seen (no peeking)."""
import random

import pytest

from engine.rng import RNG
from games.hellas.helpers import edit, game, play_random, same_view_other_truth, spring, unseen
from search import make_searcher

ATH, SPA = 0, 1
SIDE_NAMES = ("Athens", "Sparta")
SLOT_KEYS = ("area", "inside", "moved", "raised", "routed", "came", "strait")


def midgame(seed, mover=SPA, step="action", min_moves=150):
    """A seeded random game played until `mover` is to decide at `step`, after at least min_moves moves."""
    s = spring()
    rng = random.Random(seed)
    n = 0
    while not s.is_terminal():
        if n >= min_moves and s.current_player() == mover and s.step_name() == step:
            return s
        if s.is_chance_node():
            out = s.chance_outcomes()
            s.apply(rng.choices([a for a, _ in out], [p for _, p in out])[0])
        else:
            s.apply(rng.choice(s.legal_actions()))
        n += 1
    raise AssertionError("the game ended first")


def slots(obj, names):
    return sorted(tuple(str(obj["blocks"][b][k]) for k in SLOT_KEYS) for b in names)


def test_spec7_3_determinize_resamples_only_unseen_enemy_blocks():
    """7.3 item 2: every unseen enemy block may come out as another; own blocks, revealed and eliminated enemy
    blocks and the slots (where, inside, moved, raised, routed, came) stay; info_key(observer) stays; the sample is
    a valid state (from_json takes it) whose steps fit each block."""
    data = game().data
    units = {u.id: u for u in data.units}
    moved = set()
    for seed in range(3):
        s = midgame(seed)
        truth = s.to_json()
        hidden = unseen(truth, "Athens")
        assert len(hidden) >= 5
        for k in range(25):
            d = s.determinize(SPA, RNG(100 * seed + k))
            obj = d.to_json()
            assert d.info_key(SPA) == s.info_key(SPA) and d.observation(SPA) == s.observation(SPA)
            for b, v in truth["blocks"].items():
                if b not in hidden:
                    assert obj["blocks"][b] == v, b
            assert unseen(obj, "Athens") == hidden
            assert slots(obj, hidden) == slots(truth, hidden)
            for b in hidden:
                v = obj["blocks"][b]
                assert (v["steps"] == 0) == (v["area"] == "pool")
                assert v["steps"] <= units[b].max_steps
                if v["area"] != truth["blocks"][b]["area"]:
                    moved.add((seed, b))
            game().state_from_json(obj)
    assert len(moved) >= 3, "the unseen blocks never changed places (where the tracker leaves room)"


def test_spec7_3_determinized_blocks_respect_unit_kinds():
    """A fleet's slot at sea takes a fleet, a raised barbarian's slot a barbarian, a land unit never goes to sea or
    to a coastless area (spec 2.5, 6.8): checked by from_json on every sample and directly here."""
    data = game().data
    units = {u.id: u for u in data.units}
    areas = {a.id: a for a in data.areas}
    s = midgame(5)
    for k in range(40):
        obj = s.determinize(SPA, RNG(k)).to_json()
        for b, v in obj["blocks"].items():
            if v["area"] == "pool":
                continue
            a = areas[v["area"]]
            if a.sea:
                assert units[b].type == "fleet"
            if units[b].type == "fleet":
                assert a.sea or a.coasts
            assert v["raised"] == bool(units[b].barbarian) or units[b].side == "Sparta"


def test_spec7_3_random_games_from_determinizations_finish():
    """Determinizations are states the rules can play on: random games from them end with a result."""
    for seed in range(3):
        s = midgame(seed, mover=ATH)
        for k in range(2):
            d = s.determinize(ATH, RNG(k))
            play_random(d, seed * 10 + k)
            assert d.is_terminal() and sum(d.returns()) == pytest.approx(1.0)


def test_spec7_2_hidden_blocks_and_hand_make_one_information_set():
    s = midgame(1)
    s, t = same_view_other_truth(s)
    assert s.to_json() != t.to_json()
    assert s.info_key(SPA) == t.info_key(SPA) and s.observation(SPA) == t.observation(SPA)
    assert s.info_key(ATH) != t.info_key(ATH)
    for k in range(10):     # the same determinization from either truth: it depends only on what Sparta saw
        assert s.determinize(SPA, RNG(k)).to_json() == t.determinize(SPA, RNG(k)).to_json()


@pytest.mark.parametrize("name,options", [("ismcts", {"iterations": 150}), ("pimc", {"iterations": 150})])
def test_no_peeking_the_decision_ignores_hidden_blocks(name, options):
    """The searcher's whole search is the same from two truths in one information set (the hidden blocks and
    hand differ): it sees only what its player sees."""
    s = midgame(1)
    s, t = same_view_other_truth(s)
    a = make_searcher(name, seed=4, depth=40, **options).search(s)
    b = make_searcher(name, seed=4, depth=40, **options).search(t)
    assert a.action == b.action and a.stats["visits"] == b.stats["visits"]


def test_spec7_2_enemy_moves_of_unseen_blocks_show_where_not_which():
    """H4/H5/H6: Sparta sees an Athenian unseen block move from an area (not which block); the mover sees it."""
    s = midgame(2, mover=ATH, step="move-unit", min_moves=40)
    for action in s.legal_actions():
        text = s.action_to_str(action)
        seen = s.action_observation(action, SPA)
        if text.startswith("unit:") and not s.to_json()["blocks"][text.split(":")[1]]["revealed"]:
            assert seen < -3 and s.action_observation(action, ATH) == action
        else:
            assert seen == action


def test_spec7_2_H6_a_replacement_step_hides_which_block_took_it():
    """H6: after a replacement step in an area, none of that side's blocks there is known to the enemy any more
    (he learns the area, not the block), and the action shows him only the area."""
    s = midgame(3, mover=ATH, step="action", min_moves=0)
    steps = [a for a in s.legal_actions() if s.action_to_str(a).startswith("step:")]
    if not steps:
        pytest.skip("no replacement step open in this seeded position")
    action = steps[0]
    bid = s.action_to_str(action).split(":")[1]

    def reveal(o):
        for v in o["blocks"].values():
            v["revealed"] = v["area"] != "pool" or v["revealed"]
    r = edit(s, reveal)
    area = r.to_json()["blocks"][bid]["area"]
    assert r.action_observation(action, SPA) < -3 and r.action_observation(action, ATH) == action
    r.apply(action)
    obj = r.to_json()
    assert all(not v["revealed"] for b, v in obj["blocks"].items() if b[0] == "A" and v["area"] == area)
    assert any(v["revealed"] for b, v in obj["blocks"].items() if b[0] == "A" and v["area"] != area)


def test_the_oracle_does_see_hidden_blocks():
    """The control for the test above: MCTS on the true state uses the hidden blocks, so that test can fail."""
    s = midgame(1)
    s, t = same_view_other_truth(s)
    a = make_searcher("mcts", seed=4, depth=40, iterations=150).search(s)
    b = make_searcher("mcts", seed=4, depth=40, iterations=150).search(t)
    assert a.stats["visits"] != b.stats["visits"]


def test_spec7_3_rewind_takes_back_spartas_face_down_card():
    """Spec 7.2/7.3, text L40 and L258: the season's cards are chosen in secret, Sparta first; Athens decides
    without seeing Sparta's card. On Athens's determinization the search's hook (c_rewind_pending, issue 24)
    takes Sparta's card back so it is chosen again at Sparta's own node: Sparta is to move, its hand is whole,
    and any card it picks leads back to Athens's information set with Athens's moves."""
    s = midgame(3, mover=ATH, step="card", min_moves=0)
    view = s.determinize(ATH, 5)
    rewound, k = view.rewind_pending(ATH)
    assert k == 1 and rewound.current_player() == SPA and rewound.step_name() == "card"
    for card in rewound.legal_actions():
        again = rewound.clone()
        again.apply(card)
        assert again.current_player() == ATH and again.info_key(ATH) == s.info_key(ATH)
        assert again.legal_actions() == s.legal_actions()
    # Sparta, deciding first, has nothing of Athens's to take back
    first = midgame(3, mover=SPA, step="card", min_moves=0)
    assert first.determinize(SPA, 5).rewind_pending(SPA)[1] == 0
