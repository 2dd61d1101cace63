"""The replay page: every frame it stores decodes to the picture of that ply from that view, seats see no more than
their information sets, the whole truth only once the game is over; the CLI writes it and refuses bad input."""
from __future__ import annotations

import json
import re

import pytest
from click.testing import CliRunner

from arena.cli import main
from arena.viewer import _diff, build_viewer
from engine.records import GameRecord, play_random_game, replay
from engine.registry import load_game
from engine.svg import render


def page_data(html: str) -> dict:
    blob = re.search(r'<script id="kleos-data" type="application/json">(.*?)</script>', html, re.S).group(1)
    return json.loads(blob.replace("<\\/", "</"))


def decode(data: dict, view: str) -> list[str]:
    """What the page's script does: each frame copies runs of the previous one and adds new elements."""
    out, before = [], None
    for ops in data["frames"][view]:
        ids = []
        for op in ops:
            if isinstance(op, list):
                ids.extend(before[op[0]:op[0] + op[1]])
            else:
                ids.append(op)
        before = ids
        out.append("".join(data["table"][i] for i in ids))
    return out


def record_with_stats(game="goofspiel", seed=3, **options):
    record = play_random_game(load_game(game, **options), seed)
    record.evals = [{"iterations": 100 + i, "value": 0.5} if p >= 0 else None for i, p in enumerate(record.players)]
    return record


@pytest.mark.parametrize("game,options", [("goofspiel", {"players": 3, "cards": 6}), ("polis", {})])
def test_every_frame_is_the_picture_of_its_ply_from_its_view(game, options):
    record = record_with_stats(game, **options)
    data = page_data(build_viewer(record))
    states = list(replay(record))
    assert data["views"] == [str(p) for p in range(len(record.seats))] + ["all"]
    for view in data["views"]:
        frames = decode(data, view)
        assert len(frames) == len(states)
        seat = None if view == "all" else int(view)
        for state, svg in zip(states, frames):
            assert svg == render(state, seat)


def test_a_seat_sees_hidden_moves_as_hidden_and_only_its_own_statistics():
    record = record_with_stats("goofspiel", players=2, cards=5)
    data = page_data(build_viewer(record))
    states = list(replay(record))
    for i, action in enumerate(record.actions):
        for seat in (0, 1):
            secret = states[i].action_observation(action, seat) != action
            assert (data["moves"][str(seat)][i] == "(hidden)") == secret
        assert data["moves"]["all"][i] == record.moves[i]
    assert any(m == "(hidden)" for m in data["moves"]["0"])       # the other seat's bids
    for seat in (0, 1):
        assert {record.players[int(k)] for k in data["stats"][str(seat)]} == {seat}
    assert len(data["stats"]["all"]) == sum(1 for p in record.players if p >= 0)


def test_no_whole_truth_before_the_game_is_over():
    record = play_random_game(load_game("goofspiel"), 4)
    cut = GameRecord(record.game, record.options, record.seed, record.seats, record.actions[:9], record.moves[:9],
                     record.players[:9], record.times[:9])
    data = page_data(build_viewer(cut))
    assert data["views"] == ["0", "1"] and "all" not in data["frames"]
    state = list(replay(cut))[-1]
    cut.suspend(state, "stopped by a person")          # an unfinished game can be resumed: still no whole truth
    assert page_data(build_viewer(cut))["views"] == ["0", "1"]
    only = page_data(build_viewer(record, seat=1))
    assert only["views"] == ["1"]


def test_the_diff_round_trips():
    cases = [([1, 2, 3, 4, 5], [1, 2, 9, 4, 5]), ([1, 2, 3], [1, 2, 3, 4]), ([1, 2, 3, 4], [2, 3]),
             ([], [1]), ([5, 6], []), ([1, 2, 3, 4, 5, 6], [1, 7, 3, 4, 8, 6]), (list(range(50)), list(range(3, 60)))]
    for before, after in cases:
        got = []
        for op in _diff(before, after):
            got.extend(before[op[0]:op[0] + op[1]] if isinstance(op, list) else [op])
        assert got == after, (before, after)


def test_replay_html_command(tmp_path):
    path = tmp_path / "games.jsonl"
    path.write_text(record_with_stats().to_json() + "\n")
    out = tmp_path / "game.html"
    result = CliRunner().invoke(main, ["replay", str(path), "-g", "0", "--html", str(out)])
    assert result.exit_code == 0, result.output
    html = out.read_text()
    assert "<svg" in html and "http://" not in html.replace("http://www.w3.org/2000/svg", "")
    assert "src=" not in html and "<link" not in html          # nothing fetched: one file
    bad = CliRunner().invoke(main, ["replay", str(path), "-g", "5", "--html", str(out)])
    assert bad.exit_code != 0 and "there is no game 5" in bad.output
    bad = CliRunner().invoke(main, ["replay", str(path), "--seat", "4", "--html", str(out)])
    assert bad.exit_code != 0 and "seat 4 is out of range" in bad.output


def test_render_command(tmp_path):
    runner = CliRunner()
    out = tmp_path / "board.svg"
    result = runner.invoke(main, ["render", "polis", "--seed", "2", "--plies", "30", "--view", "1", "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert out.read_text().startswith("<svg") and "view of sparta" in out.read_text()
    state_file = tmp_path / "state.json"
    state = load_game("goofspiel").new_initial_state()
    state.apply(state.chance_outcomes()[0][0])
    state_file.write_text(json.dumps(state.to_json()))
    result = runner.invoke(main, ["render", "goofspiel", "--state", str(state_file), "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert render(state) == out.read_text()
    for args, message in ((["goofspiel", "--out", str(tmp_path / "x.gif")], "use one of .svg, .png"),
                          (["goofspiel", "--view", "3", "--out", str(out)], "seat 3 is out of range"),
                          (["chess", "--out", str(out)], "unknown game 'chess'"),
                          (["goofspiel", "--plies", "-1", "--out", str(out)], "-1 is not in the range x>=0")):
        result = runner.invoke(main, ["render", *args])
        assert result.exit_code != 0 and message in result.output, result.output
    state_file.write_text("{broken")
    result = runner.invoke(main, ["render", "goofspiel", "--state", str(state_file), "--out", str(out)])
    assert result.exit_code != 0 and "not a readable JSON state" in result.output
