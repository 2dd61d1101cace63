"""Goofspiel as a picture: the prize on offer, the prizes left, each player's hand, bid and points.

A seat sees the others' bids of this round face down until all have bid (their ``has_bid`` only).
"""
from __future__ import annotations

from engine.svg import Canvas, MUTED, seat_colour

CARD_W, CARD_H, GAP = 26, 38, 4


def draw(state, seat=None) -> Canvas:
    n = state.game.num_players
    cards = state.game.options.get("cards", 13)
    if seat is None:
        j = state.to_json()
        bids = j["bids"]                        # this round's bids, all shown
        bid_made = [b is not None for b in bids]
    else:
        j = state.observation(seat)
        bid_made = j["has_bid"]
        bids = [j["my_bid"] if p == seat else None for p in range(n)]
    width = max(560, 170 + (cards + 1) * (CARD_W + GAP))
    row_h = CARD_H + 30
    height = 150 + n * row_h
    c = Canvas(width, height, title=f"Goofspiel, {n} players")
    who = {-1: "chance (the next prize)", -2: "nobody: the game is over"}.get(j.get("to_move", state.current_player()))
    to_move = who or f"P{state.current_player()}"
    y = c.heading([f"Goofspiel: round {j['round'] + (0 if j['phase'] == 'over' else 1)} of {cards}",
                   f"to move: {to_move}" + (f"  |  view of P{seat}" if seat is not None else "  |  all")])
    # the prize on offer and the prize deck
    c.text(12, y + 14, "prize", size=11, fill=MUTED)
    prize = j["prize"] if j["phase"] != "over" else None
    if prize is not None:
        c.card(12, y + 20, CARD_W * 1.4, CARD_H * 1.4, str(prize), colour="#f6d776", cls="prize")
    c.text(80, y + 14, f"prizes still in the deck ({len(j['prize_deck'])})", size=11, fill=MUTED)
    for i, v in enumerate(j["prize_deck"]):
        c.card(80 + i * (CARD_W + GAP), y + 20, CARD_W, CARD_H, str(v), colour="#fbeec1", cls="deck")
    y += 20 + CARD_H * 1.4 + 16
    for p in range(n):
        colour = seat_colour(p)
        c.rect(8, y - 4, width - 16, row_h - 4, fill=colour, fill_opacity=0.07, stroke=colour, rx=5)
        me = " (you)" if seat == p else ""
        c.text(16, y + 14, f"P{p}{me}", size=13, weight="bold", fill=colour)
        c.text(16, y + 32, f"{_num(j['points'][p])} points", size=11)
        last = j["last_bids"][p]
        c.text(16, y + 48, f"last bid {last}" if last is not None else "", size=10, fill=MUTED)
        # this round's bid: shown to its owner and at the whole-truth view, face down to the others
        bx = 100
        if bid_made[p]:
            c.card(bx, y + 2, CARD_W, CARD_H, None if bids[p] is None else str(bids[p]), colour="#ffffff",
                   cls="bid", data_seat=p)
        else:
            c.rect(bx, y + 2, CARD_W, CARD_H, fill="none", stroke=MUTED, stroke_dasharray="3 3", rx=3)
        hx = bx + CARD_W + 20
        for i, v in enumerate(j["hands"][p]):
            c.card(hx + i * (CARD_W + GAP), y + 2, CARD_W, CARD_H, str(v), colour="#ffffff", cls="hand",
                   data_seat=p)
        y += row_h
    return c


def _num(v):
    return f"{v:g}" if isinstance(v, float) else str(v)
