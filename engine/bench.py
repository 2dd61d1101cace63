"""The figures of ``kleos bench``: random-playout speed, clone, copy and determinize times, for one game."""
from __future__ import annotations

import statistics

from engine import playout
from engine.chance import sample_outcome
from engine.registry import game_spec, load_game
from engine.rng import RNG

TARGETS = {"moves_per_s": 1_000_000, "clone_us": 1.0, "determinize_us": 10.0}


def midgame_states(game, count: int, seed: int) -> list:
    """States a third of the way through random games (where clone and determinize work hardest)."""
    rng = RNG(seed)
    states = []
    for _ in range(count):
        length = playout.playout(game.new_initial_state(), rng.split())
        s = game.new_initial_state()
        for _ in range(length // 3):
            if s.is_terminal():            # this walk's game may end sooner than the playout that timed it
                break
            if s.is_chance_node():
                s.apply(sample_outcome(s.chance_outcomes(), rng))
            else:
                s.apply(rng.choice(s.legal_actions()))
        states.append(s)
    return states


def hides_something(state, observer: int, tries: int = 8) -> bool:
    """Whether `observer` has something hidden in `state`: some determinization from its seat differs from the
    state (a resample of an empty set changes nothing, and timing it would say nothing)."""
    if state.is_terminal():
        return False
    truth = state.to_json()
    return any(state.determinize(observer, seed).to_json() != truth for seed in range(tries))


def hidden_information_states(game, count: int, seed: int) -> list:
    """Midgame decisions (see midgame_states) at which the player to move has something hidden: from each
    midgame state, random play goes on to the first such decision (a 2-player goofspiel bid is hidden only from
    the second bidder). For a game without hidden information, or a walk that finds none, the midgame state is
    kept: `hides_something` tells the caller."""
    rng = RNG(seed ^ 0xD37)
    states = []
    for start in midgame_states(game, count, seed):
        s = start.clone()
        while not s.is_terminal() and not (s.current_player() >= 0 and hides_something(s, s.current_player())):
            if s.is_chance_node():
                s.apply(sample_outcome(s.chance_outcomes(), rng))
            else:
                s.apply(rng.choice(s.legal_actions()))
        states.append(start if s.is_terminal() else s)
    return states


def bench_game(name: str, options: dict | None = None, seconds: float = 2.0, repeats: int = 5, seed: int = 1) -> dict:
    """Median over ``repeats`` rounds of each measurement, for the game ``name`` with ``options``."""
    game = load_game(name, **(options or {}))
    start = game.new_initial_state()
    runs = [playout.measure_playouts(start, seconds / repeats, seed + i) for i in range(repeats)]
    states = midgame_states(game, repeats, seed)
    clone = [playout.measure_clone(s, 20_000) for s in states]
    copy = [playout.measure_copy(s, 20_000) for s in states]
    # determinize is timed where the player to move has something hidden (a resample that changes nothing would
    # time nothing); "determinize_hidden" says how many of the positions have
    hidden = hidden_information_states(game, repeats, seed)
    observers = [max(s.current_player(), 0) for s in hidden]
    det = [playout.measure_determinize(s, o, 20_000, seed) for s, o in zip(hidden, observers)]
    moves = sum(r["moves"] for r in runs)
    games = sum(r["games"] for r in runs)
    return {
        "game": name,
        "options": dict(game.options),
        "moves_per_s": statistics.median(r["moves"] / r["seconds"] for r in runs),
        "games_per_s": statistics.median(r["games"] / r["seconds"] for r in runs),
        "moves_per_game": moves / games,
        "clone_us": statistics.median(clone) * 1e6,
        "copy_us": statistics.median(copy) * 1e6,
        "determinize_us": statistics.median(det) * 1e6,
        "hidden_information": game_spec(name).has_hidden_information,
        "determinize_hidden": sum(hides_something(s, o) for s, o in zip(hidden, observers)) / len(hidden),
    }


def meets_targets(row: dict) -> dict:
    return {
        "moves_per_s": row["moves_per_s"] >= TARGETS["moves_per_s"],
        "clone_us": row["clone_us"] < TARGETS["clone_us"],
        "determinize_us": row["determinize_us"] < TARGETS["determinize_us"],
    }


def markdown_table(rows: list[dict]) -> str:
    head = ("| game | options | playout moves/s | games/s | moves/game | clone µs | copy µs | determinize µs |\n"
            "|---|---|---:|---:|---:|---:|---:|---:|")
    lines = [head]
    for r in rows:
        opts = ",".join(f"{k}={v}" for k, v in r["options"].items())
        lines.append(f"| {r['game']} | {opts} | {r['moves_per_s']:,.0f} | {r['games_per_s']:,.1f} | "
                     f"{r['moves_per_game']:.0f} | {r['clone_us']:.3f} | {r['copy_us']:.3f} | "
                     f"{r['determinize_us']:.3f} |")
    return "\n".join(lines)
