"""The ``kleos`` command."""
from __future__ import annotations

import click

from engine.errors import KleosError


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="kleos")
def main():
    """Kleos: AI opponents and a tournament arena for historical strategy board games."""


@main.command()
def games():
    """List the games, their player counts and options."""
    from engine.registry import game_spec, list_games
    for name in list_games():
        spec = game_spec(name)
        opts = " ".join(f"{k}={o.default}" for k, o in spec.all_options().items() if k != "players")
        hidden = "hidden information" if spec.has_hidden_information else "open information"
        click.echo(f"{name:14s} players={spec.min_players}-{spec.max_players} {opts:24s} {hidden}; {spec.summary}")


@main.command()
@click.argument("game_names", nargs=-1, metavar="[GAME]...")
@click.option("--players", "-p", type=int, default=None, help="Player count (default: every count the game has).")
@click.option("--seconds", type=float, default=2.0, show_default=True, help="Playout time per configuration.")
@click.option("--markdown", is_flag=True, help="Print a markdown table (as in docs/performance.md).")
def bench(game_names, players, seconds, markdown):
    """Measure playout moves/s, games/s, clone and determinize times on one core."""
    from engine.bench import TARGETS, bench_game, markdown_table, meets_targets
    from engine.registry import game_spec, list_games
    try:
        names = list(game_names) or list_games()
        rows = []
        for name in names:
            spec = game_spec(name)
            counts = [players] if players else list(range(spec.min_players, spec.max_players + 1))
            for n in counts:
                rows.append(bench_game(name, {"players": n}, seconds=seconds))
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


if __name__ == "__main__":
    main()
