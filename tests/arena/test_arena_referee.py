"""The referee: chance independent of the bots, policies for illegal moves, time-outs and crashes, records."""
import time

import pytest

from arena.referee import ChanceStream, Policies, Referee, derive_seed, play_game
from bots import Bot, make_bot
from engine.records import verify


class Scripted(Bot):
    """Plays the first legal move, and misbehaves at its ``at``-th decision in the way ``how`` says."""

    name = "scripted"

    def __init__(self, how, at=1, times=1):
        super().__init__(f"scripted:{how}")
        self.how, self.at, self.times, self.calls = how, at, times, 0

    def act(self, view, turn):
        self.calls += 1
        if self.at <= self.calls < self.at + self.times:
            if self.how == "illegal":
                return 999
            if self.how == "raise":
                raise RuntimeError("bot bug")
            if self.how == "slow":
                time.sleep(0.3)
            if self.how == "notint":
                return "bid:1"
        return turn.legal[0]


def _play(bots, policies=None, seed=5, players=2, cards=5):
    return Referee("goofspiel", {"players": players, "cards": cards}, bots, seed, policies).play()


def test_chance_is_the_same_whatever_the_bots_do():
    """Duplicate format: the same seed gives the same prize order for any bots in any seats."""
    def prizes(record):
        return [m for m, p in zip(record.moves, record.players) if p == -1]
    a = play_game("goofspiel", {"players": 3, "cards": 8}, ["random", "greedy", "random"], 42, salt=5)
    b = play_game("goofspiel", {"players": 3, "cards": 8}, ["greedy", "mcts:iterations=20", "random"], 42, salt=5)
    c = play_game("goofspiel", {"players": 3, "cards": 8}, ["random"] * 3, 43, salt=5)
    assert prizes(a) == prizes(b)
    assert prizes(a) != prizes(c)
    assert a.actions != b.actions           # the bots did differ


def test_chance_stream_rewinds():
    s = ChanceStream(1, 99)
    outcomes = [(i, 0.25) for i in range(4)]
    first = [s.draw(outcomes) for _ in range(6)]
    s.used = 2
    assert [s.draw(outcomes) for _ in range(4)] == first[2:]
    assert derive_seed(1, 2) != derive_seed(1, 3) and derive_seed(1, 2) == derive_seed(1, 2)


@pytest.mark.parametrize("how,reason", [("illegal", "illegal"), ("raise", "crash"), ("notint", "illegal")])
def test_forfeit_policies(how, reason):
    record = _play([make_bot("random"), Scripted(how, at=2)])
    assert record.result["reason"] == f"{reason}:1"
    assert record.result["returns"] == [1.0, 0.0]
    assert record.result["ranks"] == [1, 2]
    assert record.meta["error"]
    verify(record)                          # a forfeited record still replays


def test_forfeit_in_a_three_player_game_ranks_the_offender_last():
    record = _play([make_bot("random"), Scripted("raise", at=1), make_bot("random")], players=3)
    assert record.result["returns"] == [0.75, 0.0, 0.75]
    assert record.result["ranks"] == [1, 3, 1]


def test_illegal_move_retry_policy():
    bot = Scripted("illegal", at=2, times=2)
    record = _play([make_bot("random"), bot], Policies(illegal="retry", retries=2))
    assert record.result["reason"] == "normal"
    assert len(record.meta["warnings"]) == 2
    record = _play([make_bot("random"), Scripted("illegal", at=2, times=3)], Policies(illegal="retry", retries=2))
    assert record.result["reason"] == "illegal:1"


def test_time_out_policies():
    record = _play([Scripted("slow", at=2), make_bot("random")], Policies(movetime=0.1, grace=0.05))
    assert record.result["reason"] == "timeout:0"
    record = _play([Scripted("slow", at=2), make_bot("random")], Policies(movetime=0.1, grace=0.05, timeout="random"))
    assert record.result["reason"] == "normal" and "random move" in record.meta["warnings"][0]
    record = _play([Scripted("slow", at=1, times=5), make_bot("random")], Policies(gametime=0.5, grace=0.05))
    assert record.result["reason"] == "timeout:0"


def test_policies_reject_bad_values():
    with pytest.raises(ValueError):
        Policies(illegal="shrug")
    with pytest.raises(ValueError):
        Policies(movetime=0)


def test_referee_rejects_wrong_seat_counts_and_shared_bots():
    bot = make_bot("random")
    with pytest.raises(ValueError):
        Referee("goofspiel", {"players": 3}, [bot, make_bot("random")], 1)
    with pytest.raises(ValueError):
        Referee("goofspiel", {"players": 2}, [bot, bot], 1)


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_records_of_every_player_count_replay(players):
    record = play_game("goofspiel", {"players": players, "cards": 5}, ["greedy"] + ["random"] * (players - 1), 9)
    verify(record)
    assert record.meta["policies"]["illegal"] == "forfeit"
    assert record.seats[0] == "greedy" and len(record.result["ranks"]) == players
