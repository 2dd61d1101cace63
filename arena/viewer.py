"""``kleos replay FILE -g N --html out.html``: one self-contained HTML page to step through a recorded game.

The page holds the board at every ply as SVG (no server, no network: the pictures, the script and the style are
inline), the move list, each seat's clock, and the search statistics each move recorded (the record's ``evals``).
A view switch shows the game from each seat: that seat's pictures are drawn from its own observation, moves it
could not see are listed as hidden, and only its own search statistics are shown. The whole truth ("all") is
offered only when the record's game is over (a stopped, resumable game is not). A game without a picture of its
own is shown as its text view.

Pictures are stored compactly: the SVG elements of every frame go into one table of distinct strings, and a frame is
the difference from the previous frame of the same view (runs copied from it, then new element ids), so a long game
whose board changes a little each ply stays a few megabytes.
"""
from __future__ import annotations

import json
from difflib import SequenceMatcher
from html import escape
from pathlib import Path

from engine.errors import BadRecordError
from engine.records import GameRecord, replay
from engine.registry import game_spec
from engine.svg import drawer

PAGE = Path(__file__).with_name("viewer.html")


class FrameEncoder:
    """Turns each view's sequence of SVGs into element-table ids and per-frame differences."""

    def __init__(self):
        self.table: list[str] = []
        self.ids: dict[str, int] = {}
        self.previous: dict[str, list[int]] = {}

    def _id(self, part: str) -> int:
        found = self.ids.get(part)
        if found is None:
            found = self.ids[part] = len(self.table)
            self.table.append(part)
        return found

    def add(self, view: str, parts: list[str]) -> list:
        """The frame as ops: [start, length] copies a run of the previous frame, a bare int is a new element."""
        current = [self._id(p) for p in parts]
        before = self.previous.get(view)
        self.previous[view] = current
        if before is None:
            return current
        return _diff(before, current)


def _diff(before: list[int], current: list[int]) -> list:
    """Ops that turn ``before`` into ``current``: the common ends are copied, the middle matched by position when it
    kept its length, else by difflib (only the middle, so a long frame with two changes stays cheap)."""
    n, m = len(before), len(current)
    a = 0
    while a < n and a < m and before[a] == current[a]:
        a += 1
    b = 0
    while b < n - a and b < m - a and before[n - 1 - b] == current[m - 1 - b]:
        b += 1
    ops: list = [[0, a]] if a else []
    old, new = before[a:n - b], current[a:m - b]
    if len(old) == len(new):
        start = None
        for k, (x, y) in enumerate(zip(old, new)):
            if x == y:
                start = k if start is None else start
                continue
            if start is not None:
                ops.append([a + start, k - start])
                start = None
            ops.append(y)
        if start is not None:
            ops.append([a + start, len(old) - start])
    elif old and len(new) < 400:
        for tag, i1, i2, j1, j2 in SequenceMatcher(None, old, new, autojunk=False).get_opcodes():
            if tag == "equal":
                ops.append([a + i1, i2 - i1])
            elif tag in ("replace", "insert"):
                ops.extend(new[j1:j2])
    else:
        ops.extend(new)
    if b:
        ops.append([n - b, b])
    return ops


def _svg_parts(state, seat) -> list[str]:
    """The drawing of ``state`` for ``seat`` as the pieces of its SVG text."""
    return drawer(state.game.name)(state, seat).document()


def build_viewer(record: GameRecord, title: str = "", progress=None, seat: int | None = None) -> str:
    """The HTML page for ``record`` (BadRecordError if it does not replay): every seat's view and, once the game
    is over, the whole truth; or only ``seat``'s view."""
    states = list(replay(record))
    n = len(record.seats)
    if seat is not None and not 0 <= seat < n:
        raise BadRecordError(f"seat {seat} is out of range 0..{n - 1}")
    over = record.result is not None and not record.unfinished      # a stopped game may still be resumed
    views = [str(seat)] if seat is not None else [str(p) for p in range(n)] + (["all"] if over else [])
    encoder = FrameEncoder()
    frames: dict[str, list] = {v: [] for v in views}
    for i, state in enumerate(states):
        for v in views:
            frames[v].append(encoder.add(v, _svg_parts(state, None if v == "all" else int(v))))
        if progress:
            progress(i + 1, len(states))
    moves = {v: _move_list(record, states, None if v == "all" else int(v)) for v in views}
    stats = _stats(record)
    data = {
        "title": title or f"{record.game} {record.options}, seed {record.seed}",
        "seats": list(record.seats),
        "views": views,
        "table": encoder.table,
        "frames": frames,
        "moves": moves,
        "players": list(record.players),
        "times": [float(t) for t in record.times],
        "stats": {v: {str(k): s for k, s in stats.items() if v == "all" or record.players[k] == int(v)}
                  for v in views},
        "result": record.result,
        "reason": (record.result or {}).get("reason"),
    }
    blob = json.dumps(data, separators=(",", ":")).replace("</", "<\\/")
    page = PAGE.read_text(encoding="utf-8")
    return page.replace("__TITLE__", escape(data["title"])).replace("__DATA__", blob)


def _move_list(record: GameRecord, states, seat) -> list[str]:
    out = []
    for i, action in enumerate(record.actions):
        state = states[i]
        if seat is not None and state.action_observation(action, seat) != action:
            out.append("(hidden)")
        else:
            out.append(record.moves[i] if i < len(record.moves) else state.action_to_str(action))
    return out


def _stats(record: GameRecord) -> dict:
    """{action index: {name: value}}: what each mover reported about its move (value, iterations ...)."""
    out = {}
    for i, report in enumerate(record.evals[:len(record.actions)]):
        if isinstance(report, dict) and report:
            out[i] = {k: v for k, v in report.items() if isinstance(v, (int, float, str))}
    return out


def write_viewer(path, index: int, out, seat: int | None = None, progress=None) -> GameRecord:
    """Write the viewer of game ``index`` of the record file ``path`` to ``out``; returns the record."""
    from arena.replay import read_game
    record = read_game(path, index)
    game_spec(record.game)               # fail early, before replaying, on a game that is not registered
    html = build_viewer(record, f"{Path(path).name} game {index}: {record.game}", progress, seat)
    Path(out).write_text(html, encoding="utf-8")
    return record
