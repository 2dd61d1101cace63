"""Strength tables: A against B, one row a pairing, every game played by the arena's referee.

A pairing is a tournament in ``pair`` mode (arena/tournament.py): A sits in one seat and B in all the others
(``seating="alternate"``: A, B, A, ...), each deal (block seed) played in every rotation of the seats, so each bot
plays each seat on the same chance outcomes. Every game goes to one record file in the common format
(engine/records.py), tagged with its pairing, so a table can be rebuilt and runs of other seeds pooled with
``kleos ratings --pairs FILE ...``.

A row gives A's mean score (a game scores A by the mean return of its seats; 0.5 is parity) with a 95% interval
over deals, not games: a deal's rotations share their chance outcomes, so the sample is the deal's mean score (as
in fishtest's pentanomial model and the SPRT), and the interval is 1.96 * sd(deal means) / sqrt(deals). Also A's
wins / draws / losses (A's seats score more than B's on average), its outright first places and its time.
"""
from __future__ import annotations

import hashlib
import json
import math
from collections import defaultdict

from engine.errors import KleosError
from engine.records import GameRecord, ranks_from_returns


class StrengthError(KleosError):
    """A strength table cannot be built from these records."""


def deal_key(record: GameRecord) -> str:
    """The deal a game belongs to: its run and block (the games of a deal share their chance outcomes)."""
    meta = record.meta or {}
    if "block" in meta:
        return f"{meta.get('tournament', '')}:{meta.get('table', '')}:{meta['block']}"
    return f"seed:{record.seed}"


def pairing_of(record: GameRecord) -> tuple[str, str] | None:
    pair = (record.meta or {}).get("pair")
    if isinstance(pair, list) and len(pair) == 2 and all(isinstance(p, str) for p in pair):
        return pair[0], pair[1]
    return None


def summarize(a: str, b: str, records: list[GameRecord]) -> dict:
    """A's row over ``records`` (games of the pairing A vs B, possibly pooled from several runs)."""
    if not records:
        raise StrengthError(f"no games recorded for {a} against {b}")
    by_deal = defaultdict(list)
    wins = draws = losses = firsts = a_decisions = 0
    a_seconds = 0.0
    for r in records:
        ret = r.result["returns"]
        a_seats = [i for i, label in enumerate(r.seats) if label == a]
        b_seats = [i for i in range(len(ret)) if i not in a_seats]
        if not a_seats or not b_seats:
            raise StrengthError(f"a game of {a} against {b} (seed {r.seed}) has seats {r.seats}")
        a_score = sum(ret[i] for i in a_seats) / len(a_seats)
        b_score = sum(ret[i] for i in b_seats) / len(b_seats)
        by_deal[deal_key(r)].append(a_score)
        wins += a_score > b_score
        draws += a_score == b_score
        losses += a_score < b_score
        firsts += any(ret[i] == 1.0 for i in a_seats)          # an A seat won outright (sole first place)
        clock, decided = r.clock(), r.decisions()
        a_seconds += sum(clock[i] for i in a_seats)
        a_decisions += sum(decided[i] for i in a_seats)
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
    }


def pair_rows(records: list[GameRecord]) -> list[dict]:
    """One row a pairing found in ``records`` (in the order first seen). A game recorded twice (the same run and
    game in two files) is an error: pooling it would count it twice."""
    grouped: dict = {}
    seen = set()
    for r in records:
        pair = pairing_of(r)
        if pair is None or not r.result:
            continue
        key = (pair, deal_key(r), tuple(r.seats), (r.meta or {}).get("job"))
        if key in seen:
            raise StrengthError(f"game {key} is recorded twice; pool runs with other seeds, not copies of one run")
        seen.add(key)
        grouped.setdefault(pair, []).append(r)
    return [summarize(a, b, recs) for (a, b), recs in grouped.items()]


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


def pair_config(game: str, options: dict, a: str, b: str, games: int, seed: int, seating: str, policies=None):
    from arena.referee import Policies
    from arena.tournament import TournamentConfig
    return TournamentConfig(game, dict(options), [a, b], games, "pair", seed, policies or Policies(),
                            seating=seating)


def run_pairings(game: str, options: dict, pairs: list[tuple[str, str]], out, *, games: int = 100, seed: int = 1,
                 seating: str = "one", policies=None, workers: int | None = 1, resume: bool = False,
                 progress: bool = True, echo=print, on_row=None, chance_key: bytes | None = None) -> list[dict]:
    """Play every pairing into the record file ``out`` (one file for all; --resume continues each); the rows,
    each passed to ``on_row`` as its pairing finishes."""
    from arena.tournament import run_tournament
    rows = []
    for a, b in pairs:
        cfg = pair_config(game, options, a, b, games, seed, seating, policies)
        result = run_tournament(cfg, out, workers=workers, resume=resume, progress=progress, echo=echo,
                                shared_file=True, chance_key=chance_key)
        if result.errors:
            raise StrengthError(f"{len(result.errors)} games of {a} against {b} failed: {result.errors[0]}")
        rows.append(summarize(cfg.labels[0], cfg.labels[1], result.records))
        if on_row is not None:
            on_row(rows[-1])
    return rows


# --- the summary lines the former `python -m search.strength --record` wrote (no moves) -------------------------
LEGACY_FIELDS = ("game", "options", "a", "b", "seed", "seats", "a_seats", "returns", "seconds", "decisions", "moves")


def from_legacy_line(obj: dict) -> GameRecord:
    """A result-only record from one line of the former strength script's --record file: it kept the deal, the
    seats, the returns and each seat's time and decisions, not the moves, so the record can be rated and
    tabled, not replayed. Its deal is the old seed (that script drew chance from its own stream)."""
    missing = [k for k in LEGACY_FIELDS if k not in obj]
    if missing:
        raise StrengthError(f"not a strength summary line: it lacks {', '.join(missing)}")
    a, b = obj["a"], obj["b"]
    b_label = b if b != a else f"{b}#2"
    labels = [a if i in obj["a_seats"] else b_label for i in range(len(obj["seats"]))]
    run = hashlib.sha1(json.dumps([obj["game"], obj["options"], a, b], sort_keys=True).encode()).hexdigest()[:16]
    return GameRecord(
        game=obj["game"], options=obj["options"], seed=obj["seed"], seats=labels, actions=[], moves=[], players=[],
        times=[], result={"returns": list(obj["returns"]), "scores": None,
                          "ranks": ranks_from_returns(obj["returns"]), "reason": "normal"},
        event="strength", bots=list(obj["seats"]), started=None, ended=None, result_only=True,
        meta={"tournament": f"search.strength:{run}", "table": 0, "block": obj["seed"], "pair": [a, b_label],
              "clock": list(obj["seconds"]), "decisions": list(obj["decisions"]), "moves": obj["moves"],
              "converted": "from a `python -m search.strength --record` summary line (no moves were kept)"})
