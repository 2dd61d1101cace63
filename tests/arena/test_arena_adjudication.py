"""Adjudication (arena/adjudication.py) as cutechess's -maxmoves, -draw and -resign: from the game's length and the
values the bots report; every bad value refused; a tournament's fingerprint unchanged when no rule is set."""
import hashlib
import json
from dataclasses import asdict

import pytest

from arena.adjudication import Adjudicator, parse_draw, parse_resign
from arena.referee import Policies, Referee, play_game
from arena.tournament import TournamentConfig
from bots.base import Bot
from engine.records import verify


def test_rules_by_hand():
    a = Adjudicator(draw={"movenumber": 2, "movecount": 3, "score": 0.05})
    # decisions 1 and 2 do not count (movenumber 2); then three even reports in a row
    assert [a.after(s, v) for s, v in ((0, 0.5), (1, 0.5), (0, 0.52), (1, 0.49))] == [None] * 4
    assert a.after(0, 0.5) == ("draw", None)
    a = Adjudicator(draw={"movenumber": 0, "movecount": 2, "score": 0.05})
    assert [a.after(0, 0.5), a.after(1, None), a.after(0, 0.5)] == [None, None, None]   # no report breaks it
    r = Adjudicator(resign={"movecount": 2, "score": 0.1, "twosided": False})
    assert [r.after(0, 0.05), r.after(1, 0.9), r.after(0, 0.2), r.after(1, 0.9), r.after(0, 0.05)] == [None] * 5
    assert r.after(0, 0.08) == ("resign", 0)
    two = Adjudicator(resign={"movecount": 1, "score": 0.1, "twosided": True})
    assert two.after(1, 0.8) is None and two.after(0, 0.05) is None          # seat 1 does not agree (0.8 < 0.9)
    assert two.after(1, 0.95) is None and two.after(0, 0.05) == ("resign", 0)
    m = Adjudicator(max_moves=3)
    assert [m.after(0, None), m.after(1, None), m.after(0, None)] == [None, None, ("max-moves", None)]


@pytest.mark.parametrize("parse, text, message", [
    (parse_draw, "movecount=x", "movecount='x' is not a valid int"),
    (parse_draw, "moves=3", "unknown 'moves'"),
    (parse_draw, "score", "is not name=value"),
    (parse_draw, "score=0.5", "score is a distance from even in"),
    (parse_draw, "score=nan", "score is a distance"),
    (parse_draw, "movecount=0", "movecount >= 1"),
    (parse_draw, "movenumber=-1", "movenumber >= 0"),
    (parse_resign, "score=-0.1", "score is a value in"),
    (parse_resign, "movecount=0", "movecount >= 1"),
    (parse_resign, "twosided=maybe", "twosided='maybe' is not a valid bool"),
])
def test_bad_rules_are_refused(parse, text, message):
    with pytest.raises(ValueError, match=message):
        parse(text)


def test_defaults_and_policy_checks():
    assert parse_draw("") == {"movenumber": 0, "movecount": 8, "score": 0.05}
    assert parse_resign("twosided=true") == {"movecount": 4, "score": 0.05, "twosided": True}
    for bad in ({"max_moves": 0}, {"max_moves": True}, {"draw": {"score": 0.1}}, {"resign": {"movecount": 1}}):
        with pytest.raises(ValueError):
            Policies(**bad)


class Reporter(Bot):
    """Plays the first legal move and reports a fixed value."""

    def __init__(self, value):
        super().__init__("reporter")
        self.value = value

    def act(self, view, turn):
        self.last_stats = {"value": self.value}
        return turn.legal[0]


def test_referee_adjudicates_and_the_record_says_how():
    game = ("goofspiel", {"players": 2, "cards": 6})
    rec = Referee(*game, [Reporter(0.5), Reporter(0.5)], 1, Policies(max_moves=4)).play()
    assert rec.result["reason"] == "adjudicated:max-moves" and rec.result["returns"] == [0.5, 0.5]
    assert sum(1 for p in rec.players if p >= 0) == 4
    verify(rec)
    rec = Referee(*game, [Reporter(0.02), Reporter(0.97)], 1,
                  Policies(resign={"movecount": 2, "score": 0.05, "twosided": True})).play()
    assert rec.result["reason"] == "adjudicated:resign:0" and rec.result["ranks"] == [2, 1]
    rec = Referee(*game, [Reporter(0.5), Reporter(0.51)], 1,
                  Policies(draw={"movenumber": 2, "movecount": 4, "score": 0.02})).play()
    assert rec.result["reason"] == "adjudicated:draw" and rec.result["ranks"] == [1, 1]
    assert rec.meta["policies"]["draw"] == {"movenumber": 2, "movecount": 4, "score": 0.02}
    normal = play_game(*game, ["random", "random"], 1, Policies(max_moves=1000))
    assert normal.result["reason"] == "normal"                     # a game that ends first is not touched


def test_fingerprints_of_runs_without_rules_are_unchanged():
    cfg = TournamentConfig("goofspiel", {"players": 2}, ["greedy", "random"])
    old_policies = {k: v for k, v in asdict(cfg.policies).items()
                    if k not in ("max_moves", "draw", "resign", "stop_wait", "no_clock_wait", "takeout")}
    obj = {"game": cfg.game, "options": cfg.options, "bots": cfg.bots, "labels": cfg.labels, "mode": cfg.mode,
           "seed": cfg.seed, "policies": old_policies}
    assert cfg.fingerprint() == hashlib.sha1(json.dumps(obj, sort_keys=True).encode()).hexdigest()[:16]
    ruled = TournamentConfig("goofspiel", {"players": 2}, ["greedy", "random"], policies=Policies(max_moves=9))
    assert ruled.fingerprint() != cfg.fingerprint()


def test_command_line(kleos):
    out = kleos("tournament", "goofspiel", "-o", "cards=8", "--bot", "random", "--bot", "greedy", "--max-moves",
                "4", "-n", "2", "--out", "a.jsonl", "-q").stdout
    assert "ends: adjudicated 2" in out
    bad = kleos("sprt", "goofspiel", "--bot", "random", "--bot", "greedy", "--resign", "score=2", check=False)
    assert bad.returncode != 0 and "resign adjudication: score" in bad.stderr and "Traceback" not in bad.stderr
