"""The ``kleos`` command."""
from __future__ import annotations

import json

import click

from engine.chance import secret_key
from arena.options import CHART_FORMATS, SECONDS, SEED, Seconds, Finite, OutFile, RecordFileType, SafeGroup, count
from engine.errors import KleosError


@click.group(cls=SafeGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="kleos")
def main():
    """Kleos: AI opponents and a tournament arena for historical strategy board games."""


@main.command()
def games():
    """List the games, their player counts and options."""
    from arena.listing import describe_games
    from engine.registry import game_spec, list_games
    click.echo(describe_games([game_spec(name) for name in list_games()]))
    click.echo("\nAnd any OpenSpiel game as openspiel:<game string>, e.g. 'openspiel:liars_dice'\n"
               '(docs/openspiel.md; pip install "kleos[openspiel]").')


@main.command()
@click.argument("game_names", nargs=-1, metavar="[GAME]...")
@click.option("--players", "-p", type=count(1), default=None,
              help="Player count (default: every count the game has).")
@click.option("--seconds", type=SECONDS, default=2.0, show_default=True, help="Measuring time per configuration.")
@click.option("--markdown", is_flag=True, help="Print a markdown table (as in docs/performance.md).")
@click.option("--search", "search_figures", is_flag=True,
              help="Measure the searchers instead: ISMCTS and MCTS iterations/s, overhead share, 2-worker speed-up.")
@click.option("--repeats", type=count(1), default=5, show_default=True, help="Measurements per figure (medians).")
@click.option("--no-parallel", is_flag=True, help="With --search: skip the 2-worker measurement.")
def bench(game_names, players, seconds, markdown, search_figures, repeats, no_parallel):
    """Measure speed on one core: playouts, clone and determinize, or with --search the searchers.

    Every output names the build flavour (release or debug), so debug figures are never quoted as real ones."""
    from engine.build import FLAVOUR
    from engine.registry import game_spec, list_games
    try:
        names = list(game_names) or list_games()
        for name in names:
            game_spec(name)
        click.echo(f"kleos bench: {FLAVOUR}", err=True)
        if search_figures:
            from search.bench import run as search_bench
            click.echo(search_bench(names, players, seconds, repeats, parallel=not no_parallel))
            return
        from engine.bench import TARGETS, bench_game, markdown_table, meets_targets
        rows = []
        for name in names:
            spec = game_spec(name)
            counts = [players] if players else list(range(spec.min_players, spec.max_players + 1))
            for n in counts:
                rows.append(bench_game(name, {"players": n}, seconds=seconds, repeats=repeats))
                if not markdown:
                    r = rows[-1]
                    ok = meets_targets(r)
                    mark = lambda k: "" if ok[k] else "  (below target)"  # noqa: E731
                    click.echo(f"{name} players={n}:\n"
                               f"  random playout   {r['moves_per_s']:>14,.0f} moves/s{mark('moves_per_s')}\n"
                               f"  full games       {r['games_per_s']:>14,.1f} games/s "
                               f"({r['moves_per_game']:.0f} actions a game)\n"
                               f"  clone            {r['clone_us']:>14.3f} µs{mark('clone_us')}\n"
                               f"  copy into        {r['copy_us']:>14.3f} µs\n"
                               f"  determinize      {r['determinize_us']:>14.3f} µs{mark('determinize_us')}")
        if markdown:
            click.echo(markdown_table(rows))
        click.echo(f"targets: >= {TARGETS['moves_per_s']:,} moves/s, clone < {TARGETS['clone_us']} µs, "
                   f"determinize < {TARGETS['determinize_us']} µs", err=True)
    except KleosError as e:
        raise click.ClickException(str(e))


# --- shared options ------------------------------------------------------------------------------------------
def _game_options(game: str, players: int | None, option: tuple) -> dict:
    from engine.registry import parse_options
    options = {}
    for text in option:
        options.update(parse_options(text))
    if players is not None:
        options["players"] = players
    return options


def _policies(illegal, timeout, movetime, gametime, casual=False, **patience):
    from arena.adjudication import parse_draw, parse_resign
    from arena.referee import Policies
    meta = click.get_current_context(silent=True)
    meta = meta.meta if meta is not None else {}
    patience = {k: v for k, v in patience.items() if v is not None}
    try:
        rules = {"max_moves": meta.get("kleos_max_moves"), "draw": parse_draw(meta.get("kleos_draw")),
                 "resign": parse_resign(meta.get("kleos_resign"))}
        if casual:
            return Policies.casual(movetime=movetime, gametime=gametime, **rules, **patience)
        return Policies(illegal=illegal, timeout=timeout, movetime=movetime, gametime=gametime, **rules, **patience)
    except ValueError as e:
        raise click.BadParameter(str(e))


def _stash(ctx, param, value):
    """Adjudication options reach _policies through the context, so the commands' signatures stay as they are."""
    ctx.meta[f"kleos_{param.name}"] = value
    return value


def _default_out(game: str, what: str) -> str:
    """A record file of its own for a run without --out: named for the time, never one that exists already (two
    runs started within the same second get -2, -3, ...)."""
    import os
    import re
    import time
    stem = f"kleos-{what}-{re.sub(r'[^A-Za-z0-9_]+', '-', game).strip('-')}-{time.strftime('%Y%m%d-%H%M%S')}"
    name, n = f"{stem}.jsonl", 1
    while os.path.exists(name):
        n += 1
        name = f"{stem}-{n}.jsonl"
    return name


def game_arguments(f):
    f = click.option("--option", "-o", multiple=True, metavar="NAME=VALUE[,...]",
                     help="Game option (repeatable), e.g. -o cards=8.")(f)
    f = click.option("--players", "-p", type=count(1), default=None,
                     help="Number of players (default: the game's).")(f)
    return f


def patience_arguments(f):
    """How long a player is waited for, and how often it may fail, before it loses a game or is taken out."""
    f = click.option("--takeout", type=count(1), default=None,
                     help="Games in a row a bot may crash, or lose on time, before it is taken out (default 3).")(f)
    f = click.option("--no-clock-wait", type=SECONDS, default=None,
                     help="Seconds a cmd: player may take for a move when no clock runs (default 120).")(f)
    f = click.option("--stop-wait", type=Seconds(allow_zero=True), default=None,
                     help="Seconds a cmd: player has to answer after `stop` before it is late (default 1).")(f)
    f = click.option("--grace", type=Seconds(allow_zero=True), default=None,
                     help="Seconds over a time limit that are forgiven (default 0.25).")(f)
    return f


def referee_arguments(f):
    f = click.option("--resign", default=None, expose_value=False, callback=_stash, metavar="movecount=K,score=S",
                     help="Resign adjudication: a seat whose own reported value is <= S (default 0.05) for K "
                          "(default 4) decisions in a row loses; add twosided=true to need the others' agreement.")(f)
    f = click.option("--draw", default=None, expose_value=False, callback=_stash,
                     metavar="movenumber=M,movecount=K,score=S",
                     help="Draw adjudication: from decision M on, K decisions in a row each reported within S of "
                          "even (0.5) end the game drawn (defaults 0, 8, 0.05).")(f)
    f = click.option("--max-moves", type=count(1), default=None, expose_value=False, callback=_stash,
                     help="A game still going after this many decisions is adjudicated a draw.")(f)
    f = click.option("--gametime", type=SECONDS, default=None, help="Seconds each seat may use in a game.")(f)
    f = click.option("--movetime", type=SECONDS, default=None, help="Seconds a move may take.")(f)
    f = click.option("--on-timeout", "timeout", type=click.Choice(["forfeit", "random"]), default="forfeit",
                     show_default=True, help="A late move forfeits the game, or a random move is played.")(f)
    f = click.option("--on-illegal", "illegal", type=click.Choice(["forfeit", "retry"]), default="forfeit",
                     show_default=True, help="An illegal move forfeits the game, or the bot is asked again.")(f)
    return f


def executor_arguments(f):
    f = click.option("--address", default=None, metavar="HOST:PORT",
                     help="With --executor ray: a running Ray cluster (default: start a local one of -j CPUs).")(f)
    f = click.option("--executor", "backend", type=click.Choice(["local", "ray"]), default="local",
                     show_default=True, help="Where games run: local processes, or a Ray cluster (kleos[ray]).")(f)
    return f


def _executor(backend: str, jobs: int | None, address: str | None):
    """None for the local pool (run_tournament builds it from -j); a Ray executor when asked."""
    if address and backend != "ray":
        raise click.UsageError("--address is for --executor ray")
    if backend == "local":
        return None
    from arena.executor import make_executor
    try:
        return make_executor(jobs, backend, address)
    except KleosError as e:
        raise click.ClickException(str(e))


def _fail(e: Exception):
    raise click.ClickException(str(e))


def _progress_echo(what: str):
    """A progress callback (done, total) that redraws one line on stderr (None when stderr is no terminal)."""
    import sys
    if not sys.stderr.isatty():
        return None

    def report(done: int, total: int):
        click.echo(f"\r{what} {done}/{total}", err=True, nl=done == total)
    return report


# --- commands ------------------------------------------------------------------------------------------------
@main.command("bots")
def bots_command():
    """List the bots and their options (spec strings: name:option=value,...)."""
    from bots import describe_bots
    for line in describe_bots():
        click.echo(line)


@main.command()
@click.argument("game")
@click.option("--bot", "bots", multiple=True, required=True, metavar="SPEC",
              help="A bot (repeat: at least two, or one to play itself): a spec such as ismcts:time=0.5, or "
                   "key=value words as in cutechess: 'name=A cmd=./engine option.X=1 tc=40/60+0.6', "
                   "'name=B bot=ismcts iterations=300', st=SECONDS (docs/tournaments.md).")
@click.option("--games", "-n", type=count(1), default=10, show_default=True,
              help="Games for each table of bots, rounded up to whole seat rotations.")
@click.option("--mode", type=click.Choice(["roundrobin", "gauntlet"]), default="roundrobin", show_default=True,
              help="Every table of bots, or the first bot against the others (gauntlet).")
@game_arguments
@click.option("--seed", type=SEED, default=1, show_default=True, help="Tournament seed (the dice of every game).")
@click.option("--jobs", "-j", type=count(0), default=None,
              help="Games at once on local processes (0: every core; default: every core, 1 with timed bots).")
@click.option("--out", type=OutFile(), default=None,
              help="JSON-lines record file (default: kleos-tournament-<game>-<time>.jsonl).")
@click.option("--resume", is_flag=True, help="Continue the tournament recorded in --out.")
@patience_arguments
@referee_arguments
@click.option("--bootstrap", type=count(0), default=200, show_default=True, help="Bootstrap samples for intervals.")
@click.option("--chart", type=OutFile(CHART_FORMATS), default=None,
              help="Save the ratings, their history and the crosstable as a chart (PNG/SVG/PDF).")
@click.option("--quiet", "-q", is_flag=True, help="No progress bar.")
@executor_arguments
def tournament(game, bots, games, mode, players, option, seed, jobs, backend, address, out, resume, illegal, timeout,
               movetime, gametime, bootstrap, chart, quiet, **patience):
    """Play a round robin (or gauntlet) of bots at GAME; print the crosstable and the ratings.

    Every bot plays every seat, and each seed is played in every seat rotation (duplicate format).
    Each finished game is appended to --out at once; --resume continues an interrupted run.
    """
    from arena.charts import save_ratings_chart
    from arena.ratings import format_report
    from arena.tournament import Ladder, TournamentConfig, choose_workers, run_tournament, schedule
    try:
        if resume and not out:
            raise click.UsageError("--resume needs the --out file of the run to continue")
        out = out or _default_out(game, "tournament")
        cfg = TournamentConfig(game, _game_options(game, players, option), list(bots), games, mode, seed,
                               _policies(illegal, timeout, movetime, gametime, **patience))
        n_games = len(schedule(cfg))
        click.echo(f"{game} ({cfg.players} players), {len(bots)} bots, {n_games} games -> {out}", err=True)
        try:
            jobs = choose_workers(jobs, cfg, lambda m: click.echo(m, err=True))
            result = run_tournament(cfg, out, workers=jobs, executor=_executor(backend, jobs, address),
                                    resume=resume, progress=not quiet, chance_key=secret_key(),
                                    echo=lambda m: click.echo(m, err=True))
        except KeyboardInterrupt:
            click.echo(f"\ninterrupted: the finished games are in {out}; add --resume to the same command to go on",
                       err=True)
            raise SystemExit(130)
        ladder = Ladder(cfg.labels)
        for r in result.records:
            ladder.update(r)
        click.echo(format_report(result.records, bootstrap, 0, ladder))     # as `kleos ratings` computes it
        for label, why in result.removed.items():
            click.echo(f"taken out: {label}: {why}")
        if chart and result.records:
            save_ratings_chart(result.records, chart, bootstrap, 0)
            click.echo(f"chart saved to {chart}")
        click.echo(f"records: {out} ({result.played} played now, {result.resumed} from before)", err=True)
        if result.errors:
            raise click.ClickException(f"{len(result.errors)} games failed: {result.errors[0]}")
    except KleosError as e:
        _fail(e)


@main.command()
@click.argument("game")
@click.option("--bot", "bots", multiple=True, required=True, metavar="SPEC",
              help="Give it twice: the challenger A first, then the baseline B.")
@click.option("--elo0", type=Finite(), default=0.0, show_default=True, help="H0: A is this much stronger.")
@click.option("--elo1", type=Finite(), default=10.0, show_default=True, help="H1: A is this much stronger.")
@click.option("--alpha", type=Finite(0, 0.5), default=0.05, show_default=True, help="Chance of accepting H1 when H0 holds.")
@click.option("--beta", type=Finite(0, 0.5), default=0.05, show_default=True, help="Chance of accepting H0 when H1 holds.")
@click.option("--max-games", type=count(1), default=20000, show_default=True, help="Give up (inconclusive) after this.")
@game_arguments
@click.option("--seed", type=SEED, default=1, show_default=True)
@click.option("--jobs", "-j", type=count(0), default=None,
              help="Games at once on local processes (0: every core; default: every core, 1 with timed bots).")
@click.option("--out", type=OutFile(), default=None, help="JSON-lines record file.")
@click.option("--resume", is_flag=True, help="Continue the test recorded in --out.")
@click.option("--chart", type=OutFile(CHART_FORMATS), default=None,
              help="Save the LLR after every block against its bounds as a chart (PNG/SVG/PDF).")
@referee_arguments
@click.option("--quiet", "-q", is_flag=True, help="No progress bar.")
@executor_arguments
def sprt(game, bots, elo0, elo1, alpha, beta, max_games, players, option, seed, jobs, backend, address, out, resume,
         chart, illegal, timeout, movetime, gametime, quiet):
    """Play game pairs (seats swapped, same seed) until the SPRT decides whether A is stronger than B.

    Exit status: 0 when H1 is accepted (A is stronger by elo1), 1 when H0 is accepted, 2 when inconclusive.
    """
    from arena.sprt import SPRT, run_sprt
    from arena.tournament import TournamentConfig, choose_workers
    if len(bots) != 2:
        raise click.UsageError("sprt needs exactly two --bot: the challenger A, then the baseline B")
    try:
        if resume and not out:
            raise click.UsageError("--resume needs the --out file of the test to continue")
        test = SPRT(elo0, elo1, alpha, beta)
        out = out or _default_out(game, "sprt")
        cfg = TournamentConfig(game, _game_options(game, players, option), list(bots), max_games, "sprt", seed,
                               _policies(illegal, timeout, movetime, gametime))
        click.echo(f"SPRT {cfg.labels[0]} vs {cfg.labels[1]} at {game} ({cfg.players} players) -> {out}", err=True)
        try:
            jobs = choose_workers(jobs, cfg, lambda m: click.echo(m, err=True))
            decision, result = run_sprt(cfg, test, out, workers=jobs, executor=_executor(backend, jobs, address),
                                        chance_key=secret_key(),
                                        resume=resume, progress=not quiet,
                                        echo=lambda m: click.echo(m, err=True))
        except KeyboardInterrupt:
            click.echo(f"\ninterrupted after {test.blocks} blocks:\n{test.summary()}\nthe games are in {out}; "
                       "add --resume to the same command to go on", err=True)
            raise SystemExit(130)
    except (KleosError, ValueError) as e:
        _fail(e)
    verdict = {"H1": f"H1 accepted: {cfg.labels[0]} is stronger (elo >= {elo1:g})",
               "H0": f"H0 accepted: {cfg.labels[0]} is not stronger by {elo1:g} (elo <= {elo0:g})",
               None: "inconclusive: the games ran out before the test decided"}[decision]
    click.echo(test.summary())
    click.echo(verdict)
    if chart and result.records:
        from arena.charts import save_sprt_chart
        save_sprt_chart(result.records, cfg.labels[0], cfg.labels[1], cfg.players, test, chart)
        click.echo(f"chart saved to {chart}")
    raise SystemExit({"H1": 0, "H0": 1, None: 2}[decision])


@main.command()
@click.argument("game")
@click.option("--base", required=True, metavar="SPEC", help="The bot tuned, with its budget (ismcts:iterations=3000).")
@click.option("--param", "params", multiple=True, required=True, metavar="NAME=LOW:HIGH[:log][:int]",
              help="An option to tune and its range (repeatable), e.g. --param c=0.1:2:log --param depth=20:600:log:int.")
@game_arguments
@click.option("--steps", type=count(1), default=50, show_default=True, help="SPSA steps.")
@click.option("--deals", type=count(1), default=1, show_default=True, help="Duplicate deals a step.")
@click.option("--seed", type=SEED, default=1, show_default=True, help="Seed of the perturbations and deals.")
@click.option("--average", type=count(0), default=0, show_default=True,
              help="The candidate is the mean theta of this many last steps (0: the last theta).")
@click.option("--confirm", "confirm_games", type=count(0), default=0, show_default=True,
              help="Then play the candidate against --base under the SPRT for at most this many games (0: no test).")
@click.option("--elo1", type=float, default=30.0, show_default=True, help="The SPRT's H1 (elo0 is 0).")
@click.option("--jobs", "-j", type=count(0), default=1, show_default=True, help="Games at once (0: every core).")
@click.option("--out", type=OutFile(), required=True, help="Record file for every game of the run (.jsonl[.gz]).")
def tune(game, base, params, players, option, steps, deals, seed, average, confirm_games, elo1, jobs, out):
    """Tune searcher options at GAME by SPSA, judged by duplicate games at equal budget; then an SPRT (arena/tune.py)."""
    from arena.tune import Param, confirm, spsa
    try:
        from engine.registry import load_game
        options = dict(load_game(game, **_game_options(game, players, option)).options)
        parsed = [Param.parse(p) for p in params]
        result = spsa(game, options, base, parsed, out, steps=steps, deals=deals, seed=seed, workers=jobs,
                      echo=click.echo, average=average)
        if average:
            click.echo(f"last theta: {result['last']}")
        click.echo(f"candidate: {result['spec']}" + (f" (the mean of the last {average} steps)" if average else ""))
        if confirm_games:
            decision, _ = confirm(game, options, result["spec"], base, out, max_games=confirm_games, elo1=elo1,
                                  seed=seed + 1, echo=click.echo, workers=jobs)
            click.echo({"H1": f"H1: the candidate is stronger than {base} (by {elo1:g} Elo or more)",
                        "H0": f"H0: the candidate is not stronger than {base} by {elo1:g} Elo",
                        None: "inconclusive: the games ran out before the SPRT decided"}[decision])
        click.echo(f"records: {out}", err=True)
    except (KleosError, ValueError) as e:
        _fail(e)


@main.command()
@click.argument("game")
@click.option("--pair", "pairs", nargs=2, multiple=True, required=True, metavar="A B",
              help="A pairing, the challenger A then B (repeat for more rows), e.g. --pair ismcts greedy.")
@click.option("--games", "-n", type=count(1), default=100, show_default=True,
              help="Games a pairing, rounded up to whole seat rotations.")
@click.option("--seating", type=click.Choice(["one", "alternate"]), default="one", show_default=True,
              help="With 3+ players: one A against B in every other seat, or A, B, A, ...")
@game_arguments
@click.option("--seed", type=SEED, default=1, show_default=True, help="Seed of the deals.")
@click.option("--jobs", "-j", type=count(0), default=1, show_default=True, help="Games at once (0: every core).")
@click.option("--out", type=OutFile(), default=None,
              help="Record file for every game, .jsonl or .jsonl.gz (default: kleos-strength-<game>-<time>.jsonl).")
@click.option("--resume", is_flag=True, help="Continue the pairings recorded in --out.")
@click.option("--table", "table_out", type=OutFile(), default=None,
              help="Also append the markdown table to this file.")
@click.option("--chart", type=OutFile(CHART_FORMATS), default=None,
              help="Also draw each pairing's score and its interval over deals (PNG/SVG/PDF; as `kleos ratings "
                   "--pairs --chart`).")
@referee_arguments
@click.option("--quiet", "-q", is_flag=True, help="No progress bar.")
def strength(game, pairs, games, seating, players, option, seed, jobs, out, resume, table_out, chart, illegal,
             timeout, movetime, gametime, quiet):
    """A strength table at GAME: each --pair A B played with seats rotated on shared deals (docs/strength.md).

    Prints a markdown row a pairing as it finishes; `kleos ratings --pairs FILE ...` rebuilds the table from the
    records, pooling runs of other seeds.
    """
    from arena.strength import TABLE_HEADER, markdown_row, markdown_table, run_pairings, table_title
    try:
        if resume and not out:
            raise click.UsageError("--resume needs the --out file of the run to continue")
        out = out or _default_out(game, "strength")
        options = _game_options(game, players, option)
        from engine.registry import load_game
        options = dict(load_game(game, **options).options)
        click.echo(f"{table_title(game, options)}\n\n{TABLE_HEADER}")
        try:
            rows = run_pairings(game, options, [tuple(p) for p in pairs], out, games=games, seed=seed,
                                chance_key=secret_key(),
                                seating=seating, policies=_policies(illegal, timeout, movetime, gametime),
                                workers=jobs, resume=resume, progress=not quiet,
                                echo=lambda m: click.echo(m, err=True),
                                on_row=lambda r: click.echo(markdown_row(r)))
        except KeyboardInterrupt:
            click.echo(f"\ninterrupted: the finished games are in {out}; add --resume to the same command to go on",
                       err=True)
            raise SystemExit(130)
        click.echo(f"\nrecords: {out}", err=True)
        if table_out:
            with open(table_out, "a", encoding="utf-8") as f:
                f.write(markdown_table(game, options, rows) + "\n\n")
        if chart:
            from arena.charts import save_strength_chart
            save_strength_chart([(table_title(game, options), rows)], chart)
            click.echo(f"chart saved to {chart}", err=True)
    except KleosError as e:
        _fail(e)


@main.command()
@click.argument("files", nargs=-1, required=True, type=RecordFileType())
@click.option("--bootstrap", type=count(0), default=200, show_default=True, help="Bootstrap samples for intervals.")
@click.option("--seed", type=SEED, default=0, show_default=True, help="Seed of the bootstrap.")
@click.option("--chart", type=OutFile(CHART_FORMATS), default=None,
              help="Save the ratings, their history and the crosstable as a chart (PNG/SVG/PDF); with --pairs, "
                   "each pairing's score and its interval.")
@click.option("--pairs", is_flag=True, help="The strength table instead: one row a pairing of `kleos strength` "
                                            "(runs pooled).")
@click.option("--target", type=Finite(0, 1), default=None,
              help="With --pairs --chart: the score to draw as a line and judge each row against (0.5 without).")
@click.option("--same", nargs=2, multiple=True, metavar="NAME AS",
              help="Count the bot shown as NAME as the one shown as AS (one configuration recorded under two "
                   "names, such as kleos:time=1 and the searcher spec it stood for); repeatable.")
def ratings(files, bootstrap, seed, chart, pairs, target, same):
    """Recompute the crosstable and ratings from record files (.jsonl or .jsonl.gz)."""
    from arena.charts import save_ratings_chart
    from arena.ratings import format_report
    from engine.records import read_records
    if target is not None and not (pairs and chart):
        raise click.BadParameter("draws a line on the strength chart: give it with --pairs and --chart",
                                 param_hint="--target")
    records = []
    for path in files:
        got, problems = read_records(path)
        records += [r for r in got if not r.unfinished]
        for p in problems:
            click.echo(f"warning: skipped {p}", err=True)
        if any(r.unfinished for r in got):
            click.echo(f"warning: skipped {sum(r.unfinished for r in got)} unfinished games of {path}", err=True)
    records = _merge_names(records, same, files)
    if pairs:
        from arena.charts import save_strength_chart
        from arena.strength import markdown_table, pair_rows, pairing_of, table_title
        tables = []                 # one table a game and its options, in the order first seen
        try:
            for game, options in dict.fromkeys((r.game, json.dumps(r.options)) for r in records
                                               if pairing_of(r) and r.result):
                options = json.loads(options)
                rows = pair_rows([r for r in records if r.game == game and r.options == options])
                tables.append((game, options, rows))
        except KleosError as e:
            _fail(e)
        if not tables:
            raise click.ClickException("these files hold no strength pairings (games of `kleos strength`)")
        for game, options, rows in tables:
            click.echo(markdown_table(game, options, rows) + "\n")
        click.echo(f"pooled from {', '.join(files)}")
        if chart:
            save_strength_chart([(table_title(game, options), rows) for game, options, rows in tables], chart, target)
            click.echo(f"chart saved to {chart}")
        return
    if not any(r.result for r in records):
        raise click.ClickException(f"no finished game to rate in {', '.join(files)}")
    games = {r.game for r in records}
    if len(games) > 1:
        raise click.ClickException(f"the files mix games ({', '.join(sorted(games))}); rate one game at a time")
    counts = {len(r.seats) for r in records}
    if len(counts) > 1:
        raise click.ClickException(f"the files mix player counts {sorted(counts)}; rate one count at a time")
    from arena.tournament import Ladder
    labels = sorted({s for r in records for s in r.seats})
    ladder = Ladder(labels) if labels else None
    for r in records:
        ladder.update(r)
    click.echo(format_report(records, bootstrap, seed, ladder))
    if chart and records:
        save_ratings_chart(records, chart, bootstrap, seed)
        click.echo(f"chart saved to {chart}")


def _merge_names(records, same, files):
    """`ratings --same NAME AS`: each NAME must be a bot of these files, and never AS's opponent."""
    from engine.records import renamed
    for old, new in same:
        try:
            records = renamed(records, old, new)
        except KleosError as e:
            raise click.BadParameter(f"{e} ({', '.join(files)})", param_hint="--same") from None
    return records


@main.command()
@click.argument("file", type=RecordFileType())
@click.option("--game", "-g", "index", type=count(0), default=None, help="Which game of the file (0-based).")
@click.option("--seat", "-s", type=count(0), default=None, help="Render from this seat (default: the whole truth).")
@click.option("--verify", is_flag=True, help="Replay every game and check it reaches its recorded result.")
@click.option("--step/--no-step", default=None, help="Wait for Enter between moves (default: when interactive).")
@click.option("--moves", is_flag=True, help="Print the numbered move list with the bots' reports.")
@click.option("--ply", type=count(0), default=None, help="Print the position after this many actions (0: the start).")
@click.option("--final", is_flag=True, help="Print the final position and the result.")
@click.option("--stats", "show_stats", is_flag=True, help="Print each seat's recorded search statistics.")
@click.option("--html", type=OutFile((".html", ".htm")), default=None,
              help="Write a self-contained replay page (board at every ply, moves, clock, statistics; views of "
                   "every seat, or only --seat's) instead of printing.")
def replay(file, index, seat, verify, step, moves, ply, final, show_stats, html):
    """Step through a recorded game, or --verify every game of a record file (.jsonl or .jsonl.gz)."""
    if html:
        from arena.viewer import write_viewer
        try:
            write_viewer(file, index or 0, html, seat=seat, progress=_progress_echo("drawing"))
        except KleosError as e:
            _fail(e)
        click.echo(f"replay page written to {html}")
        return
    from arena.replay import replay_game, verify_file
    try:
        if moves or ply is not None or final or show_stats:
            from arena.replay_views import view
            click.echo("\n".join(view(file, index or 0, seat, moves, ply, final, show_stats)))
            return
        if verify:
            ok, failures = verify_file(file, echo=click.echo)
            click.echo(f"{ok} games replay to their recorded results, {len(failures)} do not")
            if failures:
                raise SystemExit(1)
            return
        interactive = step if step is not None else click.get_text_stream("stdin").isatty()
        replay_game(file, index or 0, seat, interactive, echo=click.echo)
    except KleosError as e:
        _fail(e)


@main.command("export")
@click.argument("file", type=RecordFileType())
@click.option("--text", is_flag=True, required=True, help="Tag pairs and numbered moves (the only export so far).")
@click.option("--game", "-g", "index", type=count(0), default=None, help="Only this game of the file (0-based).")
@click.option("--out", type=OutFile(), default=None, help="Write here instead of printing.")
def export_command(file, text, index, out):
    """Write the games of a record file as text a person reads and a diff shows (`kleos import` reads it back)."""
    from arena.textrecord import export_records
    from engine.records import read_records
    records, problems = read_records(file)
    for p in problems:
        click.echo(f"warning: skipped {p}", err=True)
    if index is not None:
        if not 0 <= index < len(records):
            _fail(KleosError(f"{file} holds games 0..{len(records) - 1}; there is no game {index}"))
        records = [records[index]]
    try:
        body = export_records(records)
    except KleosError as e:
        _fail(e)
    if out:
        with open(out, "w", encoding="utf-8") as f:
            f.write(body)
        click.echo(f"{len(records)} games written to {out}", err=True)
    else:
        click.echo(body, nl=False)


@main.command("import")
@click.argument("file", type=click.Path(exists=True, dir_okay=False))
@click.option("--out", type=OutFile(), required=True,
              help="The record file to write (.jsonl or .jsonl.gz); it must not exist yet.")
def import_command(file, out):
    """Read a text export back into a record file; every game is replayed as it is read."""
    import os

    from arena.textrecord import import_text
    from engine.records import write_records
    try:
        if os.path.exists(out):
            raise KleosError(f"{out} already exists; choose another --out")
        try:
            with open(file, encoding="utf-8") as f:
                body = f.read()
        except UnicodeDecodeError as e:
            raise KleosError(f"{file} is not a text export (not UTF-8: {e.reason})") from None
        records = import_text(body, file)
        write_records(out, records)
    except KleosError as e:
        _fail(e)
    click.echo(f"{len(records)} games imported into {out}")


@main.command()
@click.argument("game")
@game_arguments
@click.option("--state", "state_file", type=click.Path(exists=True, dir_okay=False), default=None,
              help="A JSON state (State.to_json output) to draw.")
@click.option("--view", "seat", type=count(0), default=None, help="Draw what this seat sees (default: everything).")
@click.option("--seed", type=SEED, default=1, show_default=True, help="Without --state: seed of a random game ...")
@click.option("--plies", type=count(0), default=0, show_default=True, help="... cut after this many actions.")
@click.option("--scale", type=Finite(above=0, below=20), default=1.0, show_default=True,
              help="PNG pixels per SVG unit.")
@click.option("--out", "-O", "out", type=OutFile((".svg", ".png")), required=True, help="out.svg or out.png")
def render(game, players, option, state_file, seat, seed, plies, scale, out):
    """Draw a position of GAME as SVG (or PNG through cairosvg)."""
    from arena.pictures import render_to_file
    try:
        render_to_file(game, _game_options(game, players, option), out, state_file, seat, seed, plies, scale)
    except KleosError as e:
        _fail(e)
    click.echo(f"picture written to {out}")


@main.command()
@click.argument("game")
@game_arguments
@click.option("--bot", "spec", required=True, metavar="SPEC", help="A search bot, e.g. ismcts:iterations=20000.")
@click.option("--state", "state_file", type=click.Path(exists=True, dir_okay=False), default=None,
              help="A JSON state (State.to_json output) to analyse.")
@click.option("--seat", type=count(0), default=None, help="The seat whose view it is (must be the seat to move).")
@click.option("--seed", type=SEED, default=1, show_default=True, help="Without --state: seed of a random game ...")
@click.option("--plies", type=count(0), default=0, show_default=True, help="... cut after this many actions.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object instead of the live table.")
def analyse(game, players, option, spec, state_file, seat, seed, plies, as_json):
    """What a search bot thinks of a position, from the view of the seat to move (docs/search.md)."""
    from arena.analyse import run_analysis, show
    try:
        if as_json:
            click.echo(json.dumps(run_analysis(game, _game_options(game, players, option), spec, state_file, seat,
                                               seed, plies)))
        else:
            show(lambda on_slice: run_analysis(game, _game_options(game, players, option), spec, state_file, seat,
                                               seed, plies, on_slice=on_slice))
    except KleosError as e:
        _fail(e)


@main.command()
@click.option("--bot", default=None, metavar="SPEC",
              help="The bot to serve (default: kleos, the game's strongest configuration, thinking 80% of "
                   "each go's movetime; else 1000 iterations).")
@click.option("--seed", type=SEED, default=0, show_default=True, help="Seed of the bot's randomness.")
def engine(bot, seed):
    """Serve a bot over stdin/stdout in the Kleos text protocol (docs/protocol.md)."""
    from arena.engine import EngineSession
    from bots import default_hint_spec
    try:
        # by default the strongest bot, with no budget of its own: it thinks as long as each `go` allows
        session = EngineSession(bot or default_hint_spec(1.0).split(":")[0], seed)
    except KleosError as e:
        _fail(e)
    session.serve(click.get_text_stream("stdin"), click.get_text_stream("stdout"))
    import os
    import sys
    # the reader thread may still be blocked in stdin's readline, holding its lock: a normal interpreter exit
    # would then abort ("could not acquire lock ... at interpreter shutdown"); the session is over, so leave now
    if sys.stdin is sys.__stdin__:                 # the process's own stdin (not a test runner's stand-in)
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(0)


@main.command()
@click.argument("game", required=False)
@click.option("--seat", "seats", multiple=True, metavar="SPEC",
              help="Who sits in each seat, in order: human, or a bot spec (e.g. --seat human --seat ismcts:time=2); "
                   "seats left over are filled with the last bot given (or the --level bot).")
@game_arguments
@click.option("--level", type=click.Choice(["easy", "medium", "hard", "max"]), default=None,
              help="Difficulty of the bots that fill the seats left over (docs/play.md gives their strength).")
@click.option("--seed", type=SEED, default=None, help="Seed of the game (default: from the clock).")
@click.option("--games", "-n", type=count(1), default=1, show_default=True, help="Games to play in a row.")
@click.option("--rated", is_flag=True, help="Rated rules: no hint, no undo, an illegal or late move forfeits.")
@click.option("--movetime", type=SECONDS, default=None, help="Seconds a whole turn may take (a seat's consecutive "
                                                           "decisions); in rated games a late turn loses.")
@click.option("--gametime", type=SECONDS, default=None, help="Seconds each seat may use in the whole game.")
@click.option("--hint", default="auto", metavar="BOT", help="Bot spec for 'hint' (auto: ismcts if built).")
@click.option("--out", type=OutFile(), default=None, help="Also append the game records here.")
@click.option("--save", type=OutFile(), default=None,
              help="The game's save file, rewritten after every move (default: kleos-play-<game>-<time>.json).")
@click.option("--resume", type=click.Path(dir_okay=False), default=None, metavar="FILE",
              help="Go on with the unfinished game saved in FILE (same seats, seed and rules).")
@click.option("--start-from", "start_from", type=click.Path(dir_okay=False), default=None, metavar="STATE.json",
              help="Start from a saved position (the game's JSON state) instead of the setup.")
@click.option("--no-auto", is_flag=True, help="Ask even when a decision has a single legal move.")
def play(game, seats, players, option, level, seed, games, rated, movetime, gametime, hint, out, save, resume,
         start_from, no_auto):
    """Play GAME at the terminal against bots (or watch bots play); every game is saved as it goes."""
    from arena.console.session import PlayRequest, PlaySession
    if game is None and resume is None:
        raise click.UsageError("name the GAME to play (kleos games lists them), or --resume FILE")
    try:
        options = _game_options(game, players, option) if game else {}
        request = PlayRequest(game, list(seats), options, seed, games, rated, movetime, gametime, hint, out, save,
                              level, resume, start_from, auto=not no_auto)
        _policies("forfeit", "forfeit", movetime, gametime)       # checks the clocks before any game starts
        code = PlaySession(request).run()
    except (KleosError, ValueError) as e:
        _fail(e)
    if code:
        raise SystemExit(code)


if __name__ == "__main__":
    main()
