"""``kleos analyse``: one search bot's thinking about one position, from the seat to move's view: its candidate
moves, principal line and tree statistics, as a live table while it searches, or as one JSON object.

The position is a state file or a seeded random game (as ``kleos render``); chance is resolved from the seed up to
the first decision. The bot never sees that state: it searches a determinization from the seat's view, so two
positions that differ only in what the seat cannot see give the same analysis (search/analysis.py does the search).
"""
from __future__ import annotations

from arena.pictures import random_position, state_from_file
from bots.base import BadBotSpecError, GameInfo
from engine.chance import sample_outcome
from engine.errors import KleosError
from engine.registry import load_game
from engine.rng import RNG
from search.analysis import analyse


class AnalyseError(KleosError, ValueError):
    """A position or bot that cannot be analysed (named in the message)."""


def position(game, state_file, seed: int, plies: int, actions: list | None = None):
    """The state to analyse: from the file, or after `plies` random actions of the game seeded `seed`; chance
    resolved (by its odds, from `seed`) up to the first decision. A random game's actions are appended to
    `actions` when given (a state file has none)."""
    state = state_from_file(game, state_file) if state_file else random_position(game, seed, plies, actions)
    rng = RNG(seed)
    while state.is_chance_node():
        outcome = sample_outcome(state.chance_outcomes(), rng)
        state.apply(outcome)
        if actions is not None and not state_file:
            actions.append(outcome)
    if state.is_terminal():
        raise AnalyseError("the position is the end of the game: there is no move to analyse")
    return state


def search_bot(spec: str, game_name: str, game, seat: int, seed: int):
    """The searcher a search bot of `spec` would run in this game (the game's tuned defaults filled in, seeded
    `seed` unless the spec says)."""
    from bots import make_bot
    from bots.searchbot import SearchBot
    try:
        bot = make_bot(spec)
    except (BadBotSpecError, ValueError) as e:
        raise AnalyseError(f"--bot {spec}: {e}") from None
    if not isinstance(bot, SearchBot):
        raise AnalyseError(f"--bot {spec}: analyse needs a search bot (mcts, pimc, ismcts...), not {bot.name!r}")
    if bot.oracle:
        raise AnalyseError(f"--bot {spec}: oracle=true searches the hidden state; analyse searches the seat's view")
    info = GameInfo(game=game_name, options=dict(game.options),
                    num_players=game.num_players, seat=seat, seed=seed)
    return bot._make(bot._options_for(info, None))


def run_analysis(game_name: str, options: dict, spec: str, state_file=None, seat: int | None = None, seed: int = 1,
                 plies: int = 0, every: float = 0.25, on_slice=None) -> dict:
    """The analysis (search.analysis.analyse) with what it was asked about."""
    game = load_game(game_name, **options)
    history: list = []
    state = position(game, state_file, seed, plies, history)
    mover = state.current_player()
    if seat is not None and seat != mover:
        if not 0 <= seat < state.num_players:
            raise AnalyseError(f"--seat {seat}: the game has seats 0 to {state.num_players - 1}")
        raise AnalyseError(f"--seat {seat}: seat {mover} is to move in this position (a searcher decides for the "
                           "seat to move)")
    searcher = search_bot(spec, game_name, game, mover, seed)
    view = state.determinize(mover, RNG(seed))    # the seat's view: the hidden state is resampled, never read
    if not state_file:
        follow_history(searcher, game, history, mover, seed)
    try:
        out = analyse(searcher, view, every, on_slice)
    finally:
        searcher.close()
    where = {"state": str(state_file)} if state_file else {"seed": seed, "plies": plies}
    return {"game": game_name, "options": options, "position": where, "bot": spec, **out}


def follow_history(searcher, game, actions: list, seat: int, seed: int) -> None:
    """belief=particles: the searcher's filter reads the game's actions as `seat` saw them (a state file has no
    history: its filter starts from the view)."""
    belief = searcher.new_belief(game.new_initial_state(), seat, seed)
    if belief is None:
        return
    state = game.new_initial_state()
    for action in actions:
        belief.observe(state.current_player(), state.action_observation(action, seat))
        state.apply(action)


# --- printing ------------------------------------------------------------------------------------------------
def _pct(x) -> str:
    return "-" if x is None else f"{x:.3f}"


def candidates_table(snap: dict, limit: int = 12, title: str = ""):
    from rich.table import Table
    table = Table(title=title, title_justify="left")
    rows = snap["candidates"]
    implicit = any("implicit" in c for c in rows)        # the searcher's implicit minimax values (implicit=alpha)
    columns = [("move", "left"), ("visits", "right"), ("share", "right"), ("value", "right"), ("95% interval", "right")]
    for name, justify in columns + ([("implicit", "right")] if implicit else []):
        table.add_column(name, justify=justify)
    for c in rows[:limit]:
        interval = "-" if c["low"] is None else f"{c['low']:.3f}-{c['high']:.3f}"
        cells = [c["move"], str(c["visits"]), f"{c['share']:.1%}", _pct(c["value"]), interval]
        table.add_row(*cells, *([_pct(c.get("implicit"))] if implicit else []))
    if len(rows) > limit:
        table.add_row(f"... {len(rows) - limit} more", *[""] * (len(columns) - 1 + implicit))
    return table


def live_title(snap: dict) -> str:
    return (f"thinking: {snap['iterations']} iterations, {snap['seconds']:.2f} s, "
            f"{snap['iterations_per_s']:,.0f}/s, {snap['nodes']} nodes, depth {snap['max_depth']}")


def print_report(report: dict, console) -> None:
    from rich.markup import escape
    from rich.table import Table
    where = report["position"]
    where = where["state"] if "state" in where else f"random game seed {where['seed']} after {where['plies']} plies"
    console.print(escape(f"{report['game']}, {where}: seat {report['seat']} to move"))
    console.print(escape(f"bot: {report['searcher']}"))
    console.print(escape(f"candidates: {report['note']}"))
    console.print(candidates_table(report))
    choice = report["choice"]["move"] + (" (forced)" if report["forced"] else "")
    console.print(f"choice: [bold]{choice}[/bold]")
    line = " ".join(f"{'chance' if m['seat'] < 0 else 'P' + str(m['seat'])}:{m['move']}({m['visits']})"
                    for m in report["principal_line"])
    console.print(escape(f"principal line: {line or '-'}  (stops at: {report['line_stop']})"))
    t = report["tree"]
    stats = Table(show_header=False, box=None)
    for name, value in (("nodes", f"{t['nodes']:,}"), ("max depth", str(t["max_depth"])),
                        ("tree memory", f"{t['memory_bytes'] / 2 ** 20:.1f} MiB"),
                        ("iterations", f"{t['iterations']:,} in {t['seconds']:.2f} s "
                                       f"({t['iterations_per_s']:,.0f}/s)"),
                        ("forward-model calls", f"{t['calls']:,}"),
                        ("time in rollouts", f"{t['rollout_share']:.0%}"),
                        ("determinizations", f"{t['determinizations']:,}")):
        stats.add_row(name, value)
    if t.get("cutoff") is not None:
        # the horizon the search ended at: with deepen it moved as the iterations doubled
        unit = "turns" if t.get("depth_unit") == "turns" else "actions"
        stats.add_row("depth cut-off", f"{t['cutoff']} {unit} from the root")
    if t.get("opponents") == "policy":
        # a self-only tree: max depth and nodes count the seat's own decisions
        stats.add_row("opponents", "played by the rollout policy: the tree holds this seat's decisions only")
    if t.get("stop") == "decided":
        # stop=decided: a search that ended early kept the rest of its budget (a bot's turn time) for later
        stats.add_row("stop", "decided before the budget was spent: the most visited move could not be overtaken"
                      if t.get("stopped") else "at the budget: the choice was still open")
    if t["cutoff_in_tree_share"] > 0:
        # near 100%: the tree already fills the depth cut-off's horizon, and more iterations score the same leaves
        stats.add_row("cut off in the tree", f"{t['cutoff_in_tree_share']:.0%} of the iterations expanded nothing")
    if report.get("belief"):
        b = report["belief"]
        stats.add_row("belief", f"{b['particles']} particles, effective sample size {b['ess']:.1f}, "
                                f"refilled {b['refills']}x from the view")
    console.print(stats)


def show(analysis) -> dict:
    """Run ``analysis(on_slice)`` with a live table on a terminal, then print the report."""
    from rich.console import Console
    from rich.live import Live
    console = Console()
    if not console.is_terminal:
        report = analysis(None)
    else:
        with Live(console=console, auto_refresh=False, transient=True) as live:
            def on_slice(snap):
                live.update(candidates_table(snap, title=live_title(snap)), refresh=True)
            report = analysis(on_slice)
    print_report(report, console)
    return report
