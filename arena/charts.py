"""Charts of ratings and tests (matplotlib; PNG, SVG or PDF by the file's extension).

* ``save_ratings_chart``: the Elo forest plot (each bot's rating with its 95% block-bootstrap interval), the rating
  over games (the same fit on the first k games, k growing, with its interval band), and the crosstable as a heat
  map (the row bot's score against the column bot: wins plus half the draws, over their meetings).
* ``save_sprt_chart``: the SPRT's log-likelihood ratio after every block against its Wald bounds, with the
  verdict where it crossed one.
* ``save_strength_chart``: the strength tables (``kleos ratings --pairs``) as one forest plot: A's score in each
  pairing with its 95% interval over deals, grouped by game, against parity and an optional target score.
* ``save_doubling_chart``: the Elo a bot gains from each doubling of its budget (against itself at half of it),
  the gains chained from the smallest budget measured, a panel a game.
"""
from __future__ import annotations

import textwrap

import numpy as np

from arena.ratings import crosstable, rate, results_from_records
from arena.sprt import SPRT, block_score

SCORE_COLOURS = "RdYlGn"


def _pyplot():
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    return plt


def _labels_by_strength(ratings) -> list[str]:
    return [r.label for r in ratings]


def forest(ax, ratings, title: str = ""):
    """Each bot's Elo with its 95% interval, strongest on top."""
    rows = ratings[::-1]
    y = np.arange(len(rows))
    elo = np.array([r.elo for r in rows])
    err = np.array([[r.elo - r.low for r in rows], [r.high - r.elo for r in rows]])
    open_ended = ~np.isfinite(err)            # a perfect score's interval has no end on one side: draw an arrow
    finite = err[np.isfinite(err)]
    reach = max(400.0, 1.5 * float(finite.max())) if finite.size else 400.0
    err = np.where(open_ended, reach, err)
    ax.errorbar(elo, y, xerr=err, fmt="o", capsize=4, color="#1f77b4")
    for side, sign, marker in ((0, -1, "<"), (1, 1, ">")):
        for i in np.flatnonzero(open_ended[side]):
            ax.plot(elo[i] + sign * reach, y[i], marker=marker, color="#1f77b4")
    ax.set_yticks(y, [r.label for r in rows])
    ax.axvline(0, color="grey", lw=0.5)
    ax.set_xlabel("Elo (mean 0), 95% bootstrap interval")
    ax.set_title(title or "ratings")


def history_points(results, checkpoints: int) -> list[int]:
    """The game counts at which the rating is refitted: about ``checkpoints`` of them, the last one all games."""
    n = len(results)
    if n == 0:
        return []
    first = min(n, max(2, n // checkpoints))
    return sorted({int(round(x)) for x in np.linspace(first, n, min(checkpoints, n))})


def rating_history(ax, results, order: list[str], checkpoints: int = 12, bootstrap: int = 50, seed: int = 0):
    """Each bot's rating fitted on the first k games (in the order they were recorded), with its interval band."""
    points = history_points(results, checkpoints)
    series = {label: ([], [], []) for label in order}
    for k in points:
        for r in rate(results[:k], bootstrap, seed):
            if r.label in series:
                elo, low, high = series[r.label]
                elo.append((k, r.elo))
                low.append(max(r.low, r.elo - 2000.0))      # an open interval (perfect score) drawn clipped
                high.append(min(r.high, r.elo + 2000.0))
    colours = _pyplot().get_cmap("tab10")
    for i, label in enumerate(order):
        elo, low, high = series[label]
        if not elo:
            continue
        xs = [k for k, _ in elo]
        ax.plot(xs, [e for _, e in elo], marker="o", ms=3, color=colours(i % 10), label=label)
        ax.fill_between(xs, low, high, color=colours(i % 10), alpha=0.15, lw=0)
    ax.axhline(0, color="grey", lw=0.5)
    ax.set_xlabel("games")
    ax.set_ylabel("Elo (mean 0)")
    ax.set_title("rating over games (95% interval band)")
    ax.legend(fontsize=8, loc="best")


def score_matrix(results, order: list[str]) -> tuple[np.ndarray, np.ndarray]:
    """(score, meetings): the row bot's score against the column bot (NaN where they never met)."""
    table = crosstable(results)
    k = len(order)
    score = np.full((k, k), np.nan)
    meetings = np.zeros((k, k), dtype=int)
    for i, a in enumerate(order):
        for j, b in enumerate(order):
            wins, draws, losses = table.get((a, b), (0, 0, 0))
            n = wins + draws + losses
            meetings[i, j] = n
            if n:
                score[i, j] = (wins + draws / 2) / n
    return score, meetings


def crosstable_heatmap(ax, results, order: list[str]):
    score, meetings = score_matrix(results, order)
    image = ax.imshow(np.ma.masked_invalid(score), cmap=SCORE_COLOURS, vmin=0, vmax=1)
    ax.set_xticks(range(len(order)), order, rotation=30, ha="right")
    ax.set_yticks(range(len(order)), order)
    for i in range(len(order)):
        for j in range(len(order)):
            if meetings[i, j]:
                ax.text(j, i, f"{100 * score[i, j]:.0f}%\n{meetings[i, j]}", ha="center", va="center", fontsize=8,
                        color="black")
    ax.set_title("crosstable: row's score against column\n(percent, meetings)")
    return image


def save_ratings_chart(records, path, bootstrap: int = 200, seed: int = 0, title: str | None = None) -> None:
    """The forest plot, the rating over games and the crosstable heat map in one picture."""
    plt = _pyplot()
    results = results_from_records(records)
    ratings = rate(results, bootstrap, seed)
    order = _labels_by_strength(ratings)
    k = len(order)
    fig, axes = plt.subplots(1, 3, figsize=(17, max(4.5, 0.45 * k + 2.5)),
                             gridspec_kw={"width_ratios": [1.0, 1.3, 1.0]})
    game = records[0].game if records else ""
    forest(axes[0], ratings, f"{game}: ratings from {len(results)} games")
    rating_history(axes[1], results, order, bootstrap=max(20, bootstrap // 4), seed=seed)
    image = crosstable_heatmap(axes[2], results, order)
    fig.colorbar(image, ax=axes[2], fraction=0.046, pad=0.04)
    if title:
        fig.suptitle(title)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def llr_path(records, challenger: str, players: int, test: SPRT) -> list[float]:
    """The LLR after each complete block of an SPRT record file, in the order the blocks finished (as the test
    saw them); ``test`` is fed the block scores."""
    open_blocks: dict = {}
    path = []
    for record in records:
        if not record.result:
            continue
        block = (record.meta or {}).get("block")
        open_blocks.setdefault(block, []).append(record)
        if len(open_blocks[block]) == players:
            test.add(block_score(open_blocks.pop(block), challenger))
            path.append(test.llr())
    return path


def save_sprt_chart(records, challenger: str, baseline: str, players: int, test: SPRT, path,
                    title: str | None = None) -> list[float]:
    """The LLR against the bounds, block by block; returns the LLR path drawn."""
    plt = _pyplot()
    fresh = SPRT(test.elo0, test.elo1, test.alpha, test.beta)
    values = llr_path(records, challenger, players, fresh)
    fig, ax = plt.subplots(figsize=(9, 4.8))
    xs = np.arange(1, len(values) + 1)
    ax.axhspan(fresh.upper, max(fresh.upper * 1.25, max(values, default=0) + 0.2), color="#2ca02c", alpha=0.08)
    ax.axhspan(min(fresh.lower * 1.25, min(values, default=0) - 0.2), fresh.lower, color="#d62728", alpha=0.08)
    ax.axhline(fresh.upper, color="#2ca02c", lw=1.5, ls="--", label=f"accept H1 (elo >= {fresh.elo1:g}): "
                                                                     f"{fresh.upper:.2f}")
    ax.axhline(fresh.lower, color="#d62728", lw=1.5, ls="--", label=f"accept H0 (elo <= {fresh.elo0:g}): "
                                                                     f"{fresh.lower:.2f}")
    ax.axhline(0, color="grey", lw=0.5)
    ax.plot(xs, values, color="#1f77b4", lw=1.6, marker="o" if len(values) <= 60 else None, ms=3, label="LLR")
    status = fresh.status()
    if values:
        verdict = {"H1": "H1 accepted", "H0": "H0 accepted", None: "undecided"}[status]
        ax.text(0.98, 0.04, f"{verdict} after {len(values)} blocks; {challenger} scored {100 * fresh.mean():.1f}%",
                transform=ax.transAxes, ha="right", va="bottom", fontsize=9,
                bbox={"facecolor": "white", "edgecolor": "#cccccc", "boxstyle": "round"})
    ax.set_xlabel("blocks (game pairs with the seats swapped)")
    ax.set_ylabel("log-likelihood ratio")
    ax.set_title(title or f"SPRT {challenger} vs {baseline}: elo0 {fresh.elo0:g}, elo1 {fresh.elo1:g}, "
                          f"alpha {fresh.alpha:g}, beta {fresh.beta:g}")
    ax.legend(fontsize=8, loc="upper left")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return values


# --- strength tables ------------------------------------------------------------------------------------------
VERDICT_COLOURS = {"above": "#2ca02c", "point": "#e6a117", "below": "#d62728"}
# An interval over fewer deals is not read as one: its normal quantile understates the spread of a mean of so few
# (the t quantile for 4 deals is 2.78, not 1.96), and two deals that happen to score alike give +-0.
MIN_DEALS = 5


def strength_verdict(row: dict, target: float | None) -> str:
    """Where a pairing's interval puts A against the line (the target, or parity without one): ``above`` (the
    whole 95% interval over deals is above it, from at least MIN_DEALS deals), ``point`` (the score is, the
    interval is not, or it rests on too few deals) or ``below``."""
    line = 0.5 if target is None else target
    if row["score"] - row["ci95"] > line and row.get("deals", MIN_DEALS) >= MIN_DEALS:
        return "above"
    return "point" if row["score"] > line else "below"


def save_strength_chart(tables, path, target: float | None = None, title: str | None = None) -> list[str]:
    """``tables``: (title, rows) a game and its options, the rows of ``arena.strength.pair_rows`` (a row's
    ``label``, where it has one, names it instead of its bots). Draws each row's score and its interval, a group a
    table, with parity (and ``target``) as lines; returns each row's verdict in the order drawn (top to bottom)."""
    plt = _pyplot()
    flat, heads = [], []
    for head, rows in tables:
        heads.append((len(flat), head))
        flat += rows
    if not flat:
        raise ValueError("no strength rows to draw")
    labels = [row.get("label") or f"{row['a']}  vs  {row['b']}" for row in flat]
    verdicts = [strength_verdict(row, target) for row in flat]
    n = len(flat)
    slots = n + len(heads)                  # a row a pairing, and one above each group for its title
    starts = {start for start, _ in heads}
    y_of, y = [], slots - 1
    for i in range(n):
        if i in starts:
            y -= 1                          # the group's title takes this line
        y_of.append(y)
        y -= 1
    width = min(26.0, 8.0 + 0.085 * max(len(s) for s in labels))
    fig, ax = plt.subplots(figsize=(width, 0.36 * slots + 1.6))
    for i, row in enumerate(flat):
        ax.errorbar(row["score"], y_of[i], xerr=row["ci95"], fmt="o", capsize=3, color=VERDICT_COLOURS[verdicts[i]],
                    ms=5)
        deals = f", {row['deals']} deals" if "deals" in row else ""
        ax.text(1.01, y_of[i], f"{row['score']:.3f} ± {row['ci95']:.3f}  ({row['games']} games{deals})",
                va="center", fontsize=8, transform=ax.get_yaxis_transform())
    for start, head in heads:
        ax.text(0.0, y_of[start] + 1, head, va="center", ha="left", fontsize=9, fontweight="bold",
                transform=ax.get_yaxis_transform())
    ax.set_yticks(y_of, labels, fontsize=8)
    ax.set_ylim(-0.8, slots - 0.2)
    ax.set_xlim(0.0, 1.0)
    ax.axvline(0.5, color="grey", lw=0.8, label="parity (0.5)")
    if target is not None:
        ax.axvline(target, color="#2ca02c", lw=1.0, ls="--", label=f"target ({target:g})")
    for verdict, words in (("above", "interval above the line"),
                           ("point", f"score above; interval not, or under {MIN_DEALS} deals"),
                           ("below", "score at or below the line")):
        if verdict in verdicts:
            ax.plot([], [], "o", color=VERDICT_COLOURS[verdict], label=words)
    ax.legend(fontsize=8, loc="lower left", bbox_to_anchor=(0.0, 1.0), ncol=5, frameon=False)
    ax.set_xlabel("A's score (1 a win, 0.5 a draw; mean rank return with more players), 95% interval over deals")
    if title:
        ax.set_title(title, pad=24)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return verdicts



def doubling_chain(rows: list[dict]) -> tuple[list[float], list[float], list[tuple[float, float]]]:
    """A series' doublings chained: the budgets (its smallest A's half, then each A's) and the Elo over the first,
    each gain added to the one before, with each doubling's own 95% interval around its point (the uncertainty of
    that step alone, not of the sum). Rows must double one after another."""
    if not rows:
        return [], [], []
    xs, ys, bars = [rows[0]["multiple"] / 2], [0.0], [(0.0, 0.0)]
    for row in rows:
        if not np.isclose(row["multiple"], 2 * xs[-1]):
            raise ValueError(f"the doublings skip from {xs[-1]:g}x to {row['multiple']:g}x")
        xs.append(row["multiple"])
        ys.append(ys[-1] + row["elo"])
        bars.append((ys[-2] + row["low"], ys[-2] + row["high"]))
    return xs, ys, bars


def save_doubling_chart(panels, path, title: str | None = None, clip: float = 600.0) -> list[tuple]:
    """``panels``: (title, series) a game, each series (label, current, rows) with rows of a budget ``multiple``
    (of the 0.1 s budget) and the ``elo`` of that doubling with its interval (``low``, ``high``). Draws each series'
    chain (``doubling_chain``), the bots a game fields now solid, earlier ones dashed; an end of an interval
    further than ``clip`` Elo from its point (or unbounded) is drawn at ``clip``. Returns what was drawn: (panel,
    label, budgets, Elo)."""
    plt = _pyplot()
    panels = [(head, series) for head, series in panels if series]
    if not panels:
        raise ValueError("no doubling series to draw")
    cols = min(4, len(panels))
    rows_n = -(-len(panels) // cols)
    fig, axes = plt.subplots(rows_n, cols, figsize=(4.4 * cols, 4.6 * rows_n + 0.8), squeeze=False)
    drawn, colours = [], plt.get_cmap("tab10")
    for k, (head, series) in enumerate(panels):
        ax = axes[k // cols][k % cols]
        for j, (label, current, rows) in enumerate(series):
            xs, ys, bars = doubling_chain(rows)
            if not xs:                  # named in the legend all the same, so a gap is seen, not missed
                ax.plot([], [], " ", label=textwrap.fill(f"{label} ({'now' if current else 'earlier'}): not measured",
                                                         48))
                continue
            low = [min(y - b[0], clip) for y, b in zip(ys, bars)]
            high = [min(b[1] - y, clip) for y, b in zip(ys, bars)]
            ax.errorbar(xs, ys, yerr=[low, high], fmt="-o" if current else "--s", ms=4, capsize=3, lw=1.6 if current
                        else 1.0, color=colours(j % 10), alpha=1.0 if current else 0.6,
                        label=textwrap.fill(f"{label}{' (now)' if current else ' (earlier)'}", 48))
            drawn.append((head, label, xs, ys))
        ax.set_xscale("log", base=2)
        ticks = [2.0 ** e for e in range(-3, 4)]                 # every panel from 1/8x to 8x, to compare
        ax.set_xticks(ticks, [f"{t:g}x" if t >= 1 else f"1/{round(1 / t)}x" for t in ticks], fontsize=8)
        ax.set_xlim(2 ** -3.4, 2 ** 3.4)
        ax.axhline(0.0, color="grey", lw=0.8)
        ax.set_title(head, fontsize=10)
        ax.set_xlabel("budget (x the 0.1 s one)", fontsize=8)
        ax.set_ylabel("Elo over the smallest", fontsize=8)
        ax.tick_params(axis="y", labelsize=8)
        ax.legend(fontsize=7, loc="upper center", bbox_to_anchor=(0.5, -0.2), frameon=False)
    for k in range(len(panels), rows_n * cols):
        axes[k // cols][k % cols].set_visible(False)
    if title:
        fig.suptitle(title, fontsize=11)
    fig.text(0.5, 0.005, "Each point: the bot at that budget against itself at half of it, its Elo added to the "
             "point before; each bar: that one doubling's 95% interval over deals, not the sum's (cut at "
             f"{clip:g} Elo from its point).", ha="center", fontsize=8)
    fig.tight_layout(rect=(0, 0.03, 1, 1))
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return drawn
