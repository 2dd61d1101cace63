"""``kleos replay``: step through a recorded game from any seat, or verify every game of a record file."""
from __future__ import annotations

import sys

from engine.errors import BadRecordError
from engine.records import read_records, replay, verify


def verify_file(path, echo=print) -> tuple[int, list[str]]:
    """Replay every record of ``path``; (how many reach their recorded result, a message for each that fails)."""
    records, problems = read_records(path)
    failures = list(problems)
    ok = 0
    for record in records:
        try:
            verify(record)
            ok += 1
        except BadRecordError as e:
            failures.append(f"{getattr(record, 'source', path)}: {e}")
    for message in failures:
        echo(f"FAILED {message}")
    return ok, failures


def read_game(path, index: int):
    """Game ``index`` (0-based) of the record file ``path`` (BadRecordError naming the problem)."""
    records, problems = read_records(path)
    if not records:
        raise BadRecordError(f"{path} holds no readable game record" + (f" ({problems[0]})" if problems else ""))
    if not 0 <= index < len(records):
        raise BadRecordError(f"{path} holds games 0..{len(records) - 1}; there is no game {index}")
    return records[index]


def replay_game(path, index: int = 0, seat: int | None = None, interactive: bool = False, echo=print,
                inp=None) -> None:
    """Show game ``index`` of ``path`` move by move, rendered for ``seat`` (None: everything).

    From a seat, moves that seat could not see are shown as hidden. Interactive: Enter goes on, 'b' back,
    a number jumps to that move, 'q' stops.
    """
    record = read_game(path, index)
    states = list(replay(record))
    if seat is not None and not 0 <= seat < len(record.seats):
        raise BadRecordError(f"seat {seat} is out of range 0..{len(record.seats) - 1}")
    echo(f"game {index} of {path}: {record.game} {record.options}, seed {record.seed}")
    echo("seats: " + ", ".join(f"P{i} {s}" for i, s in enumerate(record.seats)))

    def line(i: int) -> str:
        state, action = states[i], record.actions[i]
        mover = state.current_player()
        who = "chance" if mover < 0 else f"P{mover}"
        if seat is not None and state.action_observation(action, seat) != action:
            return f"{i + 1:4d}. {who}: (hidden)"
        return f"{i + 1:4d}. {who}: {state.action_to_str(action)}"

    def show(i: int):
        if i > 0:
            echo(line(i - 1))
        echo(states[i].render(seat))

    if not interactive:
        for i in range(len(states)):
            show(i)
    else:
        inp = inp or sys.stdin
        i = 0
        show(i)
        while True:
            echo(f"[{i}/{len(states) - 1}] Enter: next, b: back, <n>: go to move n, q: quit > ", nl=False) \
                if _takes_nl(echo) else echo(f"[{i}/{len(states) - 1}] Enter/b/<n>/q > ")
            text = inp.readline()
            if not text or text.strip().lower() == "q":
                break
            text = text.strip().lower()
            if text == "b":
                i = max(0, i - 1)
            elif text.isdigit():
                i = min(len(states) - 1, int(text))
            elif i < len(states) - 1:
                i += 1
            else:
                break
            show(i)
    res = record.result or {}
    echo(f"result: {res.get('reason', '?')}; scores {res.get('scores')}; ranks {res.get('ranks')}")


def _takes_nl(echo) -> bool:
    try:
        import click
        return echo is click.echo
    except ImportError:
        return False
