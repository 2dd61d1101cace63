"""Bot-vs-bot strength tables from the engine and the searchers alone (the arena's tournaments may replace it).

    python -m search.strength GAME [--players N] [--option k=v ...] [--games 100] [--processes 16]
                              --pair "ismcts:iterations=10000" random --pair ... [--out table.md]

A pairing A vs B plays `games` games: deals (referee seeds) are reused across every rotation of the seats, so each
bot plays each seat on the same chance outcomes (duplicate format). With n > 2 players A sits in one seat and B in
all the others (A against the field; ``--seating alternate``: A, B, A, ...). Each game scores A by the mean return
of its seats (returns are rank-based in [0, 1]: 0.5 is parity); the table
gives A's mean score with a 95% confidence interval, wins / draws / losses of A (a game counts as a win when A's
seats score more than B's on average) and A's outright first places.

The interval is over deals, not games: a deal's rotations share their chance outcomes, so its games are not
independent (a seat that wins most deals makes A's two games of a deal cancel). As in fishtest's pentanomial model
and the arena's SPRT, the sample is the deal's mean score over its rotations, and the interval is the normal
approximation 1.96 * sd(deal means) / sqrt(deals). ``--record FILE`` appends every game (deal, seats, returns) as
a JSON line, and ``--summarize FILE ...`` rebuilds the table from such records, pooling runs of other seeds.

Players are spec strings: ``random``, ``greedy`` (the one-move bot: the legal move whose resulting state
evaluate()s best for the mover), or a searcher spec (``ismcts:iterations=10000,c=0.7``). Every player decides on
its own view, ``state.determinize(seat, rng)``, so nobody peeks; ``oracle:`` before a spec hands that player the
true state instead (a ceiling for experiments).
"""
from __future__ import annotations

import argparse
import contextlib
import gzip
import json
import math
import time
from collections import defaultdict
from concurrent.futures import ProcessPoolExecutor

from engine.chance import sample_outcome
from engine.registry import load_game
from engine.rng import RNG
from search.searchers import from_spec

_CHANCE, _TERMINAL = -1, -2


class Player:
    """One seat's decision maker, built from a spec string."""

    def __init__(self, spec: str, seed: int):
        self.spec = spec
        self.oracle = spec.startswith("oracle:")
        body = spec[len("oracle:"):] if self.oracle else spec
        self.kind = body.split(":", 1)[0]
        self.rng = RNG(seed)
        self.searcher = None
        if self.kind not in ("random", "greedy"):
            # the searcher's seed: the player's own, unless the spec fixes one
            if "seed=" not in body:
                body += ("," if ":" in body else ":") + f"seed={seed}"
            self.searcher = from_spec(body)

    def choose(self, state) -> int:
        if self.kind == "random":
            return self.rng.choice(state.legal_actions())
        if self.kind == "greedy":
            me = state.current_player()
            best, choices = None, []
            for action in state.legal_actions():
                after = state.clone()
                after.apply(action)
                value = after.evaluate()[me]
                if best is None or value > best:
                    best, choices = value, [action]
                elif value == best:
                    choices.append(action)
            return self.rng.choice(choices)
        return self.searcher.search(state).action

    def close(self):
        if self.searcher is not None:
            self.searcher.close()


def play_game(game_name: str, options: dict, seats: list[str], seed: int, on_decision=None) -> dict:
    """One refereed game; every decision is checked legal. Returns the returns and the seconds each seat used.
    `on_decision(state, seat, action)`, if given, sees each decision just before it is applied."""
    game = load_game(game_name, **options)
    state = game.new_initial_state()
    chance = RNG(seed)                          # the referee's stream: the same deal for every rotation
    views = RNG(seed ^ 0x5EED)
    players = [Player(spec, seed * 31 + i) for i, spec in enumerate(seats)]
    spent = [0.0] * len(seats)
    decided = [0] * len(seats)
    moves = 0
    try:
        while True:
            p = state.current_player()
            if p == _TERMINAL:
                break
            if p == _CHANCE:
                state.apply(sample_outcome(state.chance_outcomes(), chance))
                continue
            view = state.clone() if players[p].oracle else state.determinize(p, views)
            t0 = time.perf_counter()
            action = players[p].choose(view)
            spent[p] += time.perf_counter() - t0
            decided[p] += 1
            if action not in state.legal_actions():
                raise RuntimeError(f"{seats[p]} chose illegal action {action} in {game_name}")
            if on_decision is not None:
                on_decision(state, p, action)
            state.apply(action)
            moves += 1
    finally:
        for pl in players:
            pl.close()
    return {"returns": state.returns(), "seconds": spent, "decisions": decided, "moves": moves}


SEATINGS = ("one", "alternate")


def _seatings(a: str, b: str, n: int, seating: str = "one") -> list[list[str]]:
    """Every rotation of the base seating: "one": A in one seat and B in all the others (A against the field);
    "alternate": A, B, A, ... (the same for 2 players: A-B and B-A)."""
    if seating not in SEATINGS:
        raise ValueError(f"seating {seating!r} is not one of {', '.join(SEATINGS)}")
    base = [a if (i == 0 if seating == "one" else i % 2 == 0) else b for i in range(n)]
    return [base[r:] + base[:r] for r in range(n)]


def _job(args):
    game_name, options, seats, seed, a_seats = args
    out = play_game(game_name, options, seats, seed)
    return {"seed": seed, "seats": seats, "a_seats": a_seats, "returns": list(out["returns"]),
            "seconds": out["seconds"], "decisions": out["decisions"], "moves": out["moves"]}


def pairing(game_name: str, options: dict, a: str, b: str, games: int = 100, seed: int = 1,
            pool: ProcessPoolExecutor | None = None, seating: str = "one", on_game=None) -> dict:
    """Play A vs B for at least `games` games (rounded up to whole rotations); A's score and its 95% CI.
    The row's "records" are the games themselves (see `summarize`); `on_game(record)`, if given, sees each game
    as it finishes (in deal order), so a long run can save its games as it goes."""
    n = load_game(game_name, **options).num_players
    seatings = _seatings(a, b, n, seating)
    deals = math.ceil(games / len(seatings))
    jobs = []
    for d in range(deals):
        for seats in seatings:
            a_seats = [i for i, s in enumerate(seats) if s == a] if a != b else [0]
            jobs.append((game_name, options, seats, seed * 100_003 + d, a_seats))
    records = []
    for record in (pool.map(_job, jobs) if pool is not None else map(_job, jobs)):
        records.append(record)
        if on_game is not None:
            on_game(record)
    return summarize(a, b, records)


def summarize(a: str, b: str, records: list[dict]) -> dict:
    """A's results over game records (`_job`'s, possibly pooled from runs with other seeds): the mean score, the
    95% interval over deals (games with one referee seed), wins / draws / losses, first places and time used."""
    if not records:
        raise ValueError(f"no games recorded for {a} against {b}")
    by_deal = defaultdict(list)
    wins = draws = losses = firsts = decisions = a_decisions = 0
    a_seconds = 0.0
    for r in records:
        ret, a_seats = r["returns"], r["a_seats"]
        b_seats = [i for i in range(len(ret)) if i not in a_seats]
        a_score = sum(ret[i] for i in a_seats) / len(a_seats)
        b_score = sum(ret[i] for i in b_seats) / len(b_seats)
        by_deal[r["seed"]].append(a_score)
        wins += a_score > b_score
        draws += a_score == b_score
        losses += a_score < b_score
        firsts += any(ret[i] == 1.0 for i in a_seats)          # an A seat won outright (sole first place)
        a_seconds += sum(r["seconds"][i] for i in a_seats)
        a_decisions += sum(r["decisions"][i] for i in a_seats)
        decisions += r["moves"]
    games = len(records)
    deal_means = [sum(v) / len(v) for v in by_deal.values()]
    mean = sum(sum(v) for v in by_deal.values()) / games
    k = len(deal_means)
    sd = math.sqrt(sum((m - mean) ** 2 for m in deal_means) / max(k - 1, 1))
    return {
        "a": a, "b": b, "games": games, "deals": k, "score": mean, "ci95": 1.96 * sd / math.sqrt(k),
        "wins": wins, "draws": draws, "losses": losses, "firsts": firsts,
        "a_seconds_per_game": a_seconds / games,
        # forced moves (one legal action) count as decisions that took no search
        "a_ms_per_decision": 1000 * a_seconds / max(a_decisions, 1),
        "decisions_per_game": decisions / games,
        "records": records,
    }


RECORD_FIELDS = ("a", "b", "seed", "seats", "a_seats", "returns", "seconds", "decisions", "moves")


def record_line(game_name: str, options: dict, a: str, b: str, record: dict) -> str:
    """One game as a JSON line: the game, its options and the pairing on each, so files from several runs can be
    pooled."""
    return json.dumps({"game": game_name, "options": options, "a": a, "b": b, **record})


def read_records(paths: list[str], game_name: str, options: dict) -> list[dict]:
    """The table rows of every pairing recorded in `paths` for this game and these options, in the order first
    seen. A repeated game (the same pairing, deal and seats in two files) is an error: pooling it would count
    it twice. Files ending in .gz are read compressed."""
    grouped, seen = {}, set()
    for path in paths:
        with (gzip.open(path, "rt") if str(path).endswith(".gz") else open(path)) as f:
            for line_no, line in enumerate(f, 1):
                if not line.strip():
                    continue
                try:
                    rec = json.loads(line)
                except json.JSONDecodeError as e:
                    raise ValueError(f"{path}:{line_no}: not a JSON record ({e.msg})") from None
                if not isinstance(rec, dict):
                    raise ValueError(f"{path}:{line_no}: a record is a JSON object, got {type(rec).__name__}")
                if rec.get("game") != game_name or rec.get("options") != options:
                    continue
                missing = [k for k in RECORD_FIELDS if k not in rec]
                if missing:
                    raise ValueError(f"{path}:{line_no}: the record lacks {', '.join(missing)}")
                key = (rec["a"], rec["b"], rec["seed"], tuple(rec["seats"]))
                if key in seen:
                    raise ValueError(f"{path}:{line_no}: game {key} is recorded twice; pool runs with other seeds")
                seen.add(key)
                grouped.setdefault((rec["a"], rec["b"]), []).append(rec)
    return [summarize(a, b, recs) for (a, b), recs in grouped.items()]


def strength_table(game_name: str, pairs: list[tuple[str, str]], options: dict | None = None, games: int = 100,
                   seed: int = 1, processes: int = 1, seating: str = "one", on_row=None,
                   on_game=None) -> list[dict]:
    """Every pairing of `pairs` on one game; games run on `processes` local processes. `on_row` is called with
    each pairing's row as soon as it is done (a long run shows its results as it goes), `on_game(a, b, record)`
    with each game."""
    options = dict(options or {})
    rows = []
    pool = ProcessPoolExecutor(max_workers=processes) if processes > 1 else None
    try:
        for a, b in pairs:
            each_game = None if on_game is None else (lambda record, a=a, b=b: on_game(a, b, record))
            rows.append(pairing(game_name, options, a, b, games, seed, pool, seating, each_game))
            if on_row is not None:
                on_row(rows[-1])
    finally:
        if pool is not None:
            pool.shutdown()
    return rows


TABLE_HEADER = ("| A | B | games | A's score | 95% CI (deals) | A wins / draws / losses | A first "
                "| A's seconds a game | A's ms a decision |\n|---|---|---:|---:|---:|---:|---:|---:|---:|")


def markdown_row(r: dict) -> str:
    return (f"| `{r['a']}` | `{r['b']}` | {r['games']} | {r['score']:.3f} | ±{r['ci95']:.3f} | "
            f"{r['wins']} / {r['draws']} / {r['losses']} | {r['firsts']} | {r['a_seconds_per_game']:.2f} | "
            f"{r['a_ms_per_decision']:.0f} |")


def table_title(game_name: str, options: dict) -> str:
    return f"{game_name} ({','.join(f'{k}={v}' for k, v in options.items()) or 'defaults'})"


def markdown_table(game_name: str, options: dict, rows: list[dict]) -> str:
    return "\n".join([table_title(game_name, options), "", TABLE_HEADER] + [markdown_row(r) for r in rows])


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m search.strength", description="bot-vs-bot strength table")
    parser.add_argument("game")
    parser.add_argument("--players", type=int, default=None)
    parser.add_argument("--option", action="append", default=[], metavar="NAME=VALUE", help="a game option")
    parser.add_argument("--pair", nargs=2, action="append", default=[], metavar=("A", "B"))
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--processes", type=int, default=1)
    parser.add_argument("--seating", choices=SEATINGS, default="one",
                        help="with more than 2 players: one A against B in every other seat (default), or A, B, A, ...")
    parser.add_argument("--out", default=None, help="append the markdown table to this file")
    parser.add_argument("--record", default=None, metavar="FILE",
                        help="append every game (deal, seats, returns, time) to FILE as JSON lines")
    parser.add_argument("--summarize", nargs="+", default=None, metavar="FILE",
                        help="play nothing: the table of the games recorded in these files (runs pooled)")
    args = parser.parse_args(argv)
    if bool(args.pair) == bool(args.summarize):
        parser.error("give --pair A B (play) or --summarize FILE ... (tabulate records), not both or neither")
    options = dict(o.split("=", 1) for o in args.option)
    if args.players:
        options["players"] = args.players
    options = dict(load_game(args.game, **options).options)
    # a round trip through JSON, so options compare equal to those read back from records
    options = json.loads(json.dumps(options))
    print(table_title(args.game, options), "", TABLE_HEADER, sep="\n", flush=True)
    if args.summarize:
        rows = read_records(args.summarize, args.game, options)
        if not rows:
            raise SystemExit(f"no {table_title(args.game, options)} games in {', '.join(args.summarize)}")
        for row in rows:
            print(markdown_row(row))
        footer = f"pooled from {', '.join(args.summarize)}"
    else:
        t0 = time.perf_counter()
        with open(args.record, "a") if args.record else contextlib.nullcontext() as record_file:

            def on_game(a, b, record):
                # every game is saved as soon as it is known: an interrupted run keeps what it played
                record_file.write(record_line(args.game, options, a, b, record) + "\n")
                record_file.flush()

            # each row is printed as its pairing finishes; --out gets the whole table at the end
            rows = strength_table(args.game, [tuple(p) for p in args.pair], options, args.games, args.seed,
                                  args.processes, args.seating, on_row=lambda r: print(markdown_row(r), flush=True),
                                  on_game=on_game if record_file else None)
        footer = f"seating: {args.seating}; {time.perf_counter() - t0:.0f} s"
    print(f"\n{footer}")
    if args.out:
        with open(args.out, "a") as f:
            f.write(f"{markdown_table(args.game, options, rows)}\n\n{footer}\n\n")


if __name__ == "__main__":
    main()
