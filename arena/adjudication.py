"""Adjudication: ending a game early, as cutechess-cli's -maxmoves, -draw and -resign do, from the game's length and
the values the bots report about their own moves (a search bot's ``value``: its expected rank return, 0.5 even).

* ``max_moves=N``: after N decisions (chance excluded) a game still going is a draw.
* ``draw=movenumber=M,movecount=K,score=S``: from decision M on, when K decisions in a row were each reported by
  its mover within S of even (|value - 0.5| <= S), the game is a draw. Meant for games that have draws.
* ``resign=movecount=K,score=S[,twosided=true]``: when K of a seat's own decisions in a row were reported at or
  below S, that seat loses (last place; the others share the rest, as for a forfeit). Two-sided: only if the
  latest report of some other seat is at least 1 - S (they agree).

A decision without a reported value breaks a streak. The record's reason says which rule ended the game:
``adjudicated:max-moves``, ``adjudicated:draw``, ``adjudicated:resign:S``.
"""
from __future__ import annotations

import math
from dataclasses import dataclass


def _parse_fields(text: str, what: str, known: dict) -> dict:
    """'movenumber=40,movecount=8,score=0.05' -> typed values; ValueError naming the bad part."""
    out = {}
    for part in filter(None, (p.strip() for p in str(text).split(","))):
        if "=" not in part:
            raise ValueError(f"--{what}: {part!r} is not name=value (names: {', '.join(known)})")
        key, value = (s.strip() for s in part.split("=", 1))
        if key not in known:
            raise ValueError(f"--{what}: unknown {key!r} (names: {', '.join(known)})")
        kind = known[key]
        try:
            if kind is bool:
                if value.lower() not in ("true", "false", "1", "0", "yes", "no"):
                    raise ValueError
                out[key] = value.lower() in ("true", "1", "yes")
            else:
                out[key] = kind(value)
        except ValueError:
            raise ValueError(f"--{what}: {key}={value!r} is not a valid {kind.__name__}") from None
    return out


def parse_draw(text: str | None) -> dict | None:
    if text is None:
        return None
    rule = {"movenumber": 0, "movecount": 8, "score": 0.05,
            **_parse_fields(text, "draw", {"movenumber": int, "movecount": int, "score": float})}
    check_draw(rule)
    return rule


def parse_resign(text: str | None) -> dict | None:
    if text is None:
        return None
    rule = {"movecount": 4, "score": 0.05, "twosided": False,
            **_parse_fields(text, "resign", {"movecount": int, "score": float, "twosided": bool})}
    check_resign(rule)
    return rule


def check_draw(rule: dict) -> None:
    if not isinstance(rule, dict) or set(rule) != {"movenumber", "movecount", "score"}:
        raise ValueError(f"draw adjudication needs movenumber, movecount and score, got {rule!r}")
    if rule["movenumber"] < 0 or rule["movecount"] < 1:
        raise ValueError(f"draw adjudication: movenumber >= 0 and movecount >= 1, got {rule!r}")
    if not (math.isfinite(rule["score"]) and 0 <= rule["score"] < 0.5):
        raise ValueError(f"draw adjudication: score is a distance from even in [0, 0.5), got {rule['score']!r}")


def check_resign(rule: dict) -> None:
    if not isinstance(rule, dict) or set(rule) != {"movecount", "score", "twosided"}:
        raise ValueError(f"resign adjudication needs movecount, score and twosided, got {rule!r}")
    if rule["movecount"] < 1:
        raise ValueError(f"resign adjudication: movecount >= 1, got {rule['movecount']!r}")
    if not (math.isfinite(rule["score"]) and 0 <= rule["score"] < 0.5):
        raise ValueError(f"resign adjudication: score is a value in [0, 0.5), got {rule['score']!r}")


@dataclass
class Adjudicator:
    """Watches a game's decisions; ``after(seat, value)`` says how the game ends, or None to go on."""
    max_moves: int | None = None
    draw: dict | None = None
    resign: dict | None = None

    def __post_init__(self):
        self.decisions = 0
        self.draw_streak = 0
        self.low_streak: dict = {}
        self.last_value: dict = {}

    @property
    def active(self) -> bool:
        return bool(self.max_moves or self.draw or self.resign)

    def after(self, seat: int, value) -> tuple[str, int | None] | None:
        """A decision of ``seat`` was played, reported at ``value`` (None: no report). ('draw', None),
        ('max-moves', None), ('resign', seat), or None."""
        self.decisions += 1
        reported = isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)
        if reported:
            self.last_value[seat] = float(value)
        if self.resign:
            if reported and value <= self.resign["score"]:
                self.low_streak[seat] = self.low_streak.get(seat, 0) + 1
            else:
                self.low_streak[seat] = 0
            if self.low_streak[seat] >= self.resign["movecount"]:
                others = [v for s, v in self.last_value.items() if s != seat]
                if not self.resign["twosided"] or any(v >= 1 - self.resign["score"] for v in others):
                    return "resign", seat
        if self.draw:
            even = reported and abs(value - 0.5) <= self.draw["score"]
            self.draw_streak = self.draw_streak + 1 if even and self.decisions > self.draw["movenumber"] else 0
            if self.draw_streak >= self.draw["movecount"]:
                return "draw", None
        if self.max_moves and self.decisions >= self.max_moves:
            return "max-moves", None
        return None
