"""What ``kleos replay`` shows besides stepping through a game: the move list (``--moves``), one position
(``--ply N``), the end (``--final``) and the search statistics the bots reported (``--stats``)."""
from __future__ import annotations

from arena.replay import read_game
from engine.errors import BadRecordError
from engine.records import GameRecord, replay


def header(record: GameRecord, index: int, path) -> list[str]:
    from arena.textrecord import result_text
    res = record.result or {}
    return [f"game {index} of {path}: {record.game} {record.options}, seed {record.seed}, {record.event or 'game'} "
            f"{record.started or ''}",
            "seats: " + ", ".join(f"P{i} {s}" + (f" ({b})" if b != s else "")
                                  for i, (s, b) in enumerate(zip(record.seats, record.bots or record.seats))),
            f"result: {result_text(record.result)} ({res.get('reason', 'unfinished')}); returns "
            f"{res.get('returns')}; scores {res.get('scores')}"]


def _seen(state, action: int, seat: int | None) -> bool:
    return seat is None or state.action_observation(action, seat) == action


def move_list(record: GameRecord, seat: int | None = None) -> list[str]:
    """Numbered moves with the mover's report, as in the text export; from a seat, what it could not see is
    hidden."""
    from arena.textrecord import comment
    if record.result_only:
        raise BadRecordError("this record keeps only the result (no moves)")
    lines = []
    states = replay(record)
    for i, (state, action) in enumerate(zip(states, record.actions)):
        mover = state.current_player()
        who = "chance" if mover < 0 else f"P{mover}"
        if not _seen(state, action, seat):
            lines.append(f"{i + 1}. {who}: (hidden)")
            continue
        note = comment(record.evals[i], record.times[i] if i < len(record.times) else 0.0)
        lines.append(f"{i + 1}. {who}: {state.action_to_str(action)}" + (f" {note}" if note else ""))
    return lines


def position(record: GameRecord, ply: int, seat: int | None = None) -> str:
    """The board after ``ply`` actions (0: the start), rendered for ``seat``."""
    n = len(record.actions)
    if not 0 <= ply <= n:
        raise BadRecordError(f"--ply must be 0..{n} for this game of {n} actions, got {ply}")
    for i, state in enumerate(replay(record)):
        if i == ply:
            last = ""
            if ply:
                prev = record.moves[ply - 1] if ply - 1 < len(record.moves) else str(record.actions[ply - 1])
                who = record.players[ply - 1] if ply - 1 < len(record.players) else None
                last = f"after {ply}. {'chance' if who is not None and who < 0 else f'P{who}'}: {prev}\n"
            return f"{last}{state.render(seat)}"
    raise BadRecordError(f"the record does not replay to ply {ply}")


def stats(record: GameRecord) -> list[str]:
    """Per seat: decisions, time (total, mean and longest), and the mean of what the bot reported (iterations,
    tree size, depth) with its first and last value estimate."""
    if record.result_only:
        raise BadRecordError("this record keeps only the result (no moves, no statistics)")
    width = max(len(s) for s in record.seats)
    lines = [f"{'seat':4s} {'bot':<{width}s} {'moves':>5s} {'time s':>8s} {'ms/move':>8s} {'max ms':>8s} "
             f"{'iterations':>10s} {'tree':>8s} {'depth':>5s} {'value first..last':>18s}"]
    for seat, label in enumerate(record.seats):
        mine = [i for i, p in enumerate(record.players) if p == seat]
        times = [record.times[i] for i in mine]
        evals = [record.evals[i] or {} for i in mine]

        def mean(key):
            values = [e[key] for e in evals if isinstance(e.get(key), (int, float)) and not e.get("forced")]
            return sum(values) / len(values) if values else None

        values = [e["value"] for e in evals if isinstance(e.get("value"), (int, float))]
        total = sum(times)
        cells = [f"{'P' + str(seat):4s}", f"{label:<{width}s}", f"{len(mine):5d}", f"{total:8.3f}",
                 f"{1000 * total / len(mine) if mine else 0:8.1f}", f"{1000 * max(times, default=0):8.1f}"]
        for key, w, fmt in (("iterations", 10, ".0f"), ("tree_size", 8, ".0f"), ("max_depth", 5, ".1f")):
            m = mean(key)
            cells.append(f"{'-' if m is None else format(m, fmt):>{w}s}")
        cells.append(f"{f'{values[0]:.3f}..{values[-1]:.3f}' if values else '-':>18s}")
        lines.append(" ".join(cells))
    lines.append("(iterations, tree and depth: means over the decisions that searched; forced moves excluded)")
    return lines


def view(path, index: int = 0, seat: int | None = None, moves: bool = False, ply: int | None = None,
         final: bool = False, show_stats: bool = False) -> list[str]:
    """The lines of ``kleos replay --moves / --ply N / --final / --stats`` (any together, in that order)."""
    record = read_game(path, index)
    if seat is not None and not 0 <= seat < len(record.seats):
        raise BadRecordError(f"seat {seat} is out of range 0..{len(record.seats) - 1}")
    lines = header(record, index, path)
    if moves:
        lines += [""] + move_list(record, seat)
    if ply is not None:
        lines += ["", position(record, ply, seat)]
    if final:
        lines += ["", position(record, len(record.actions), seat)]
    if show_stats:
        lines += [""] + stats(record)
    return lines
