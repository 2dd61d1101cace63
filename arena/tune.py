"""Tuning a searcher's parameters for one game: SPSA with the arena's duplicate games as the judge, then an SPRT.

SPSA (simultaneous perturbation stochastic approximation; Spall 1998, the method of fishtest's tuner): every
parameter lives on [0, 1] (linearly or on a log scale between its bounds). A step draws a random sign for each
parameter, plays the configuration ``theta + c_k * delta`` against ``theta - c_k * delta`` in duplicate deals
(the arena's pair mode: each deal in every seat rotation, the same chance outcomes for both; with more than two
players A sits against copies of B) and moves ``theta`` along ``delta`` by ``a_k * (score - 0.5) / (2 c_k)``. Both
bots of a step get the same budget (the base spec's): equal iterations, or with ``time=`` equal time. Gains follow
Spall: ``a_k = a / (k + 1 + A) ** 0.602``, ``c_k = c / (k + 1) ** 0.101``, ``A`` a tenth of the steps.

The candidate is the last ``theta``, or with ``average=N`` the mean of the last N steps' ``theta`` (Polyak-Ruppert
averaging: with one or two games a step, each ``theta`` also carries the last steps' noise, which the mean
shrinks). It is only a candidate: ``confirm`` plays it against the base spec under the arena's SPRT
(arena/sprt.py) until the test decides whether it is stronger. Every game of the run, steps and test, is kept in
the record file, so ``kleos ratings --pairs FILE`` rebuilds what was measured.
"""
from __future__ import annotations

import json
import math
from collections import deque
from dataclasses import dataclass

from bots.spec import parse_spec
from engine.errors import KleosError
from engine.rng import RNG


class TuneError(KleosError):
    """A tuning run cannot start: a bad parameter range or spec."""


@dataclass(frozen=True)
class Param:
    """One tuned option: its bounds, its scale (log or linear) and whether it is a whole number."""

    name: str
    low: float
    high: float
    log: bool = False
    integer: bool = False

    @classmethod
    def parse(cls, text: str) -> "Param":
        """``c=0.1:2:log`` or ``depth=20:600:log:int``."""
        name, eq, rest = text.partition("=")
        parts = rest.split(":")
        if not eq or not name.strip() or len(parts) < 2:
            raise TuneError(f"--param {text!r}: write NAME=LOW:HIGH[:log][:int], e.g. c=0.1:2:log")
        flags = {p.strip().lower() for p in parts[2:]}
        if flags - {"log", "int"}:
            raise TuneError(f"--param {text!r}: unknown flag {', '.join(sorted(flags - {'log', 'int'}))} "
                            "(flags: log, int)")
        try:
            low, high = float(parts[0]), float(parts[1])
        except ValueError:
            raise TuneError(f"--param {text!r}: the bounds must be numbers") from None
        if not (math.isfinite(low) and math.isfinite(high) and low < high):
            raise TuneError(f"--param {text!r}: need LOW < HIGH, both finite")
        if "log" in flags and low <= 0:
            raise TuneError(f"--param {text!r}: a log scale needs LOW > 0")
        return cls(name.strip(), low, high, "log" in flags, "int" in flags)

    def value(self, x: float):
        x = min(1.0, max(0.0, x))
        v = math.exp(math.log(self.low) + x * (math.log(self.high) - math.log(self.low))) if self.log \
            else self.low + x * (self.high - self.low)
        return int(round(v)) if self.integer else round(v, 3)

    def position(self, value: float) -> float:
        value = min(self.high, max(self.low, float(value)))
        if self.log:
            return (math.log(value) - math.log(self.low)) / (math.log(self.high) - math.log(self.low))
        return (value - self.low) / (self.high - self.low)


def spec_with(base: str, params: list[Param], theta: list[float]) -> str:
    """``base`` with each tuned option set to its value at ``theta`` (replacing the base's own)."""
    name, options = parse_spec(base)
    options = {k: v for k, v in options.items() if k not in {p.name for p in params}}
    options.update({p.name: p.value(x) for p, x in zip(params, theta)})
    return name + ":" + ",".join(f"{k}={v}" for k, v in options.items())


def start_position(base: str, params: list[Param], start: dict | None = None) -> list[float]:
    """Where SPSA starts: the value the base spec (or ``start``) gives an option, else the middle of its range."""
    _, options = parse_spec(base)
    given = {**options, **(start or {})}
    out = []
    for p in params:
        try:
            out.append(p.position(float(given[p.name])) if p.name in given else 0.5)
        except ValueError:
            raise TuneError(f"{p.name}={given[p.name]!r} in {base!r} is not a number") from None
    return out


def spsa(game: str, options: dict, base: str, params: list[Param], out, *, steps: int = 50, deals: int = 1,
         seed: int = 1, a: float = 0.2, c: float = 0.2, start: dict | None = None, echo=print,
         workers: int = 1, average: int = 0) -> dict:
    """Run SPSA; returns {"spec": the candidate, "theta": its positions, "last": the last theta's spec,
    "steps": [...]} (each step logged by echo). The candidate is the last theta, or with ``average`` the mean of
    the last ``average`` steps' thetas."""
    from arena.strength import run_pairings
    from engine.registry import game_spec
    if not params:
        raise TuneError("nothing to tune: give at least one --param")
    if steps < 1 or deals < 1:
        raise TuneError("steps and deals must be at least 1")
    if not 0 <= average <= steps:
        raise TuneError(f"average={average}: the steps averaged must be between 0 and the steps ({steps})")
    spec_with(base, params, [0.5] * len(params))            # a bad base spec fails here
    import os
    if os.path.exists(out) and os.path.getsize(out) > 0:
        raise TuneError(f"{out} exists already; a tuning run writes a record file of its own")
    n = int(options.get("players") or game_spec(game).default_players or game_spec(game).min_players)
    theta = start_position(base, params, start)
    rng = RNG(seed)
    big_a = max(1.0, steps / 10)
    log = []
    kept = deque(maxlen=average or 1)                       # the thetas the candidate averages
    for k in range(steps):
        ck = c / (k + 1) ** 0.101
        ak = a / (k + 1 + big_a) ** 0.602
        delta = [1 if rng.next_u64() & 1 else -1 for _ in params]
        plus = [min(1.0, max(0.0, t + ck * d)) for t, d in zip(theta, delta)]
        minus = [min(1.0, max(0.0, t - ck * d)) for t, d in zip(theta, delta)]
        spec_plus, spec_minus = spec_with(base, params, plus), spec_with(base, params, minus)
        entry = {"step": k + 1, "plus": spec_plus, "minus": spec_minus}
        if spec_plus != spec_minus:                         # (whole-number options can round together)
            row = run_pairings(game, options, [(spec_plus, spec_minus)], out, games=n * deals,
                               seed=seed * 100_003 + k, progress=False, echo=lambda *_: None, workers=workers)[0]
            score = row["score"]
            theta = [min(1.0, max(0.0, t + ak * (score - 0.5) / (2 * ck) * d)) for t, d in zip(theta, delta)]
            entry["score"] = round(score, 4)
        entry["theta"] = {p.name: p.value(x) for p, x in zip(params, theta)}
        kept.append(theta)
        log.append(entry)
        echo(json.dumps(entry))
    candidate = [sum(t[i] for t in kept) / len(kept) for i in range(len(params))]
    return {"spec": spec_with(base, params, candidate), "theta": candidate, "last": spec_with(base, params, theta),
            "steps": log}


def confirm(game: str, options: dict, candidate: str, base: str, out, *, max_games: int = 400, elo0: float = 0.0,
            elo1: float = 30.0, seed: int = 2, echo=print, workers: int = 1):
    """The arena's SPRT: is ``candidate`` stronger than ``base`` by elo1 rather than elo0? (decision, SPRT)."""
    from arena.referee import Policies
    from arena.sprt import SPRT, run_sprt
    from arena.tournament import TournamentConfig
    if candidate == base:
        raise TuneError("the candidate is the base spec itself; nothing to confirm")
    test = SPRT(elo0, elo1)
    cfg = TournamentConfig(game, dict(options), [candidate, base], max_games, "sprt", seed, Policies())
    decision, _ = run_sprt(cfg, test, out, workers=workers, progress=False, echo=lambda *_: None, shared_file=True)
    echo(test.summary())
    return decision, test
