"""Tournaments: round robin or gauntlet, seats rotated, seeds shared across rotations (duplicate format).

A *table* is a set of bots, one per seat. A *block* is one seed played in every cyclic rotation of the table's seats,
so each bot plays each seat once with the same chance stream: luck cancels within a block. Every finished game is
appended at once to a JSON-lines file; ``resume`` skips the games already there (matched by job id and the
tournament's fingerprint), so an interrupted run loses nothing and counts nothing twice.
"""
from __future__ import annotations

import dataclasses
import hashlib
import itertools
import json
import math
from dataclasses import asdict, dataclass, field

from arena.executor import Executor, make_executor
from arena.referee import Policies, close_kept_players, derive_seed, play_game
from arena.worker import worker_profile
from engine.chance import PUBLIC_KEY, keyed_salt
from engine.errors import KleosError
from engine.records import GameRecord, RecordFile  # noqa: F401  (RecordFile: where it was first)
from engine.registry import game_spec, load_game


class TournamentError(KleosError):
    """A tournament cannot start or resume as asked."""


def unique_labels(specs: list[str]) -> list[str]:
    """The bots' names in tables and ratings: their name= (else their spec), with #2, #3 ... for repeats."""
    from bots.spec import bot_label
    seen: dict = {}
    labels = []
    for spec in specs:
        label = bot_label(spec)
        seen[label] = seen.get(label, 0) + 1
        labels.append(label if seen[label] == 1 else f"{label}#{seen[label]}")
    return labels


def timed(cfg: "TournamentConfig") -> bool:
    """Whether any bot plays against a clock or thinks for a time (then parallel games disturb each other)."""
    from bots.spec import is_timed
    return cfg.policies.movetime is not None or cfg.policies.gametime is not None or any(map(is_timed, cfg.bots))


def choose_workers(jobs: int | None, cfg: "TournamentConfig", echo=print) -> int:
    """-j as asked; by default every core, but one game at a time when any bot is timed (as cutechess and
    fastchess advise: timed games in parallel compete for the cores), with a warning when -j raises it."""
    if jobs is not None and jobs < 0:
        raise TournamentError(f"-j must be 0 (every core) or a positive number of games at once, got {jobs}")
    if not timed(cfg):
        return 0 if jobs is None else jobs
    if jobs is None:
        return 1
    if jobs != 1:
        echo(f"warning: -j {jobs} with timed bots: games at once compete for the cores, so a bot's thinking time "
             f"depends on the others' (-j 1 is the fair setting)")
    return jobs


MODES = ("roundrobin", "gauntlet", "sprt", "pair")
SEATINGS = ("one", "alternate")
EVENTS = {"roundrobin": "tournament", "gauntlet": "gauntlet", "sprt": "sprt", "pair": "strength"}


@dataclass
class TournamentConfig:
    game: str
    options: dict                    # game options, complete (players included)
    bots: list[str]                  # bot spec strings
    games: int = 10                  # games per table, rounded up to whole blocks of seat rotations
    mode: str = "roundrobin"         # roundrobin | gauntlet (the first bot against each table of the others)
                                     # | sprt (the first bot in one seat, the second in all the others)
                                     # | pair (a strength pairing: as sprt, or A, B, A, ... with seating=alternate)
    seed: int = 1
    policies: Policies = field(default_factory=Policies)
    labels: list[str] = field(default_factory=list)
    seating: str = "one"             # pair mode: one A against B in every other seat, or alternate A, B, A, ...

    def __post_init__(self):
        if self.mode not in MODES:
            raise TournamentError(f"tournament mode must be one of {', '.join(MODES)}, got {self.mode!r}")
        if self.seating not in SEATINGS:
            raise TournamentError(f"seating must be one of {', '.join(SEATINGS)}, got {self.seating!r}")
        if not self.bots:
            raise TournamentError("a tournament needs at least one bot (--bot)")
        if self.games < 1:
            raise TournamentError(f"--games must be at least 1, got {self.games}")
        if self.mode in ("gauntlet", "sprt") and len(self.bots) < 2:
            raise TournamentError(f"a {self.mode} needs a challenger and at least one opponent")
        if self.mode in ("sprt", "pair") and len(self.bots) != 2:
            raise TournamentError(f"a {self.mode} compares exactly two bots")
        if not self.labels:
            self.labels = unique_labels(self.bots)
        if len(set(self.labels)) != len(self.labels):
            raise TournamentError(f"bot labels must be unique, got {self.labels}")
        self.options = dict(load_game(self.game, **self.options).options)   # validates and completes

    @property
    def players(self) -> int:
        return int(self.options["players"])

    def fingerprint(self) -> str:
        """Identifies the tournament for --resume (everything but the number of games, which may grow)."""
        obj = {"game": self.game, "options": self.options, "bots": self.bots, "labels": self.labels,
               "mode": self.mode, "seed": self.seed, "policies": self.policies.identity()}
        if self.mode == "pair":
            obj["seating"] = self.seating
        return hashlib.sha1(json.dumps(obj, sort_keys=True).encode()).hexdigest()[:16]

    def to_dict(self) -> dict:
        return {**asdict(self), "policies": asdict(self.policies)}

    @classmethod
    def from_dict(cls, obj: dict) -> "TournamentConfig":
        obj = dict(obj)
        obj["policies"] = Policies(**obj.get("policies", {}))
        return cls(**obj)


@dataclass(frozen=True)
class Job:
    id: str
    table: int
    block: int
    rotation: int
    seed: int
    seats: tuple                     # bot index per seat
    salt: int | None = None          # the secret half of the dice (one a block; set when the job is handed out)


def tables(cfg: TournamentConfig) -> list[tuple]:
    """The sets of bots that meet, one bot index per seat before rotation."""
    n, k = cfg.players, len(cfg.bots)
    if cfg.mode == "sprt" or (cfg.mode == "pair" and cfg.seating == "one"):
        return [(0,) + (1,) * (n - 1)]
    if cfg.mode == "pair":
        return [tuple(i % 2 for i in range(n))]
    if k < n:                        # fewer bots than seats: the bots fill the seats in turn
        return [tuple(i % k for i in range(n))]
    if cfg.mode == "gauntlet":
        return [(0,) + rest for rest in itertools.combinations(range(1, k), n - 1)]
    return list(itertools.combinations(range(k), n))


def schedule(cfg: TournamentConfig) -> list[Job]:
    """Every game of the tournament, block by block (so a run stopped early is still balanced)."""
    n = cfg.players
    blocks = math.ceil(cfg.games / n)
    jobs = []
    all_tables = tables(cfg)
    for b in range(blocks):
        seed = derive_seed(cfg.seed, b)      # one seed a block, shared by all rotations and tables
        for t, table in enumerate(all_tables):
            for r in range(n):
                seats = table[r:] + table[:r]
                jobs.append(Job(f"t{t}b{b}r{r}", t, b, r, seed, seats))
    return jobs


def play_job(cfg_dict: dict, job: Job) -> dict:
    """One game of a tournament (runs in a worker process): the record as a dict."""
    cfg = TournamentConfig.from_dict(cfg_dict)
    specs = [cfg.bots[i] for i in job.seats]
    labels = [cfg.labels[i] for i in job.seats]
    meta = {"tournament": cfg.fingerprint(), "job": job.id, "table": job.table, "block": job.block,
            "rotation": job.rotation, "tournament_seed": cfg.seed, "worker": worker_profile(cfg.game, cfg.options)}
    if cfg.mode == "pair":
        meta["pair"] = list(cfg.labels)          # A, B: the strength table's row
    return play_game(cfg.game, cfg.options, specs, job.seed, cfg.policies, labels, meta, keep_players=True,
                     event=EVENTS[cfg.mode], salt=job.salt).to_dict()


def deal_of(job: Job) -> tuple:
    """The unit of work of a distributed run: one table's deal, in all its seat rotations."""
    return job.table, job.block


@dataclass
class TournamentResult:
    records: list[GameRecord]
    played: int                       # games played by this run
    resumed: int                      # games found in the file and kept
    removed: dict                     # label -> why it was taken out
    problems: list[str]               # unreadable lines of the record file
    errors: list[str]                 # games that could not be played (worker failures)


def run_tournament(cfg: TournamentConfig, out, *, executor: Executor | None = None, workers: int | None = None,
                   resume: bool = False, progress: bool = True, max_crashes: int | None = None, echo=print,
                   limit: int | None = None, stop=None, postfix=None, shared_file: bool = False,
                   meter=None, max_timeouts: int | None = None, chance_key: bytes | None = None
                   ) -> TournamentResult:
    """Play every game of ``cfg`` not yet in ``out``; append each as it finishes.

    ``shared_file``: ``out`` may hold other runs' games too (a strength table keeps every pairing in one file);
    only this run's are resumed, and it starts afresh when there are none.
    ``limit`` stops after that many new games (tests use it to simulate an interruption); ``stop(record)``, called
    after each game (and once for each game found in the file), ends the run when it returns True; ``postfix()``
    is the progress bar's text (default: the live ladder's leader).
    A bot that crashes in ``max_crashes`` games in a row, or loses ``max_timeouts`` in a row on time, is taken out
    (default: the policies' ``takeout``).
    ``chance_key``: the run's secret that each block's chance salt derives from (the kleos commands pass one from
    the OS, ``engine.chance.secret_key()``); None: a public key, so the same config plays the same games (tests,
    experiments) and a bot that knows the seed knows the dice.
    """
    spec = game_spec(cfg.game)
    if not spec.min_players <= cfg.players <= spec.max_players:
        raise TournamentError(f"{cfg.game} is for {spec.min_players}-{spec.max_players} players")
    _check_bots(cfg)
    records_file = RecordFile(out)
    repaired = records_file.repair() if resume else []
    existing, problems = records_file.read()
    if problems and not existing and not resume:
        raise TournamentError(f"{out} already holds data that is no game record ({problems[0]}); choose another "
                              "--out")
    problems = repaired + problems
    fingerprint = cfg.fingerprint()
    ours = [r for r in existing if r.meta.get("tournament") == fingerprint]
    if (ours if shared_file else existing) and not resume:
        raise TournamentError(f"{out} already holds {len(ours or existing)} game records; use --resume to continue "
                              f"that {'run' if shared_file else 'tournament'}, or another --out")
    if resume and existing and not ours and not shared_file:
        raise TournamentError(f"{out} holds the records of another tournament (different game, bots, options, "
                              f"seed or policies); resume with the same arguments, or choose another --out")
    jobs = schedule(cfg)
    done_ids = {r.meta.get("job") for r in ours}
    todo = [j for j in jobs if j.id not in done_ids]
    if limit is not None:
        todo = todo[:limit]
    for p in problems:
        echo(f"warning: {p}")

    removed: dict = {}
    failures = {kind: {label: 0 for label in cfg.labels} for kind in ("crash", "timeout")}
    limits = {"crash": max_crashes or cfg.policies.takeout, "timeout": max_timeouts or cfg.policies.takeout}
    # the dice: one salt a block, from the run's secret key; a block begun by an earlier run keeps the salt its
    # records revealed, so its rotations still share their chance
    key = chance_key if chance_key is not None else PUBLIC_KEY
    salts = {r.seed: r.salt for r in ours if r.salt is not None}
    records = list(ours)
    errors: list[str] = []
    ladder = Ladder(cfg.labels)
    for r in ours:
        ladder.update(r)
    cfg_dict = cfg.to_dict()
    finished = False
    if stop is not None:
        finished = any([stop(r) for r in ours])

    def tasks():
        for job in todo:
            if finished:
                return
            if any(cfg.labels[i] in removed for i in job.seats):
                continue
            yield dataclasses.replace(job, salt=salts.setdefault(job.seed, keyed_salt(key, job.seed)))

    bar = None
    if progress:
        from tqdm import tqdm
        if meter is None:
            bar = tqdm(total=len(jobs), initial=len(jobs) - len(todo), unit="game", desc=f"{cfg.game}",
                       dynamic_ncols=True, smoothing=0.1)
        else:                            # the bar follows the run's own measure of progress (the SPRT's LLR)
            bar = tqdm(total=1000, initial=meter(), desc=f"{cfg.game}", dynamic_ncols=True, smoothing=0.1,
                       bar_format="{desc}: {percentage:3.0f}% of the way to a decision |{bar}| "
                                  "[{elapsed}<{remaining}{postfix}]")
    executor = executor or make_executor(workers)
    played = 0
    try:
        for job, result, error in executor.run(play_job, tasks(), shared=cfg_dict, block=deal_of):
            if error is not None:
                errors.append(f"game {job.id}: {type(error).__name__}: {error}")
                (bar.write if bar else echo)(f"error: game {job.id} could not be played: {error}")
                if bar:
                    bar.update(1)
                continue
            records_file.append(result)
            record = GameRecord.from_dict(result)
            records.append(record)
            played += 1
            ladder.update(record)
            reason = record.result.get("reason", "normal")
            for seat, label in enumerate(record.seats):
                for kind, counts in failures.items():
                    if reason != f"{kind}:{seat}":
                        if reason == "normal" or not reason.endswith(f":{seat}"):
                            counts[label] = 0
                        continue
                    counts[label] += 1
                    if counts[label] >= limits[kind] and label not in removed:
                        what = "crashed" if kind == "crash" else "lost on time"
                        removed[label] = f"{what} in {counts[label]} games in a row: {record.meta.get('error')}"
                        (bar.write if bar else echo)(f"{label} is taken out of the tournament: {removed[label]}")
            done = stop is not None and stop(record)
            if bar:
                if meter is None:
                    bar.update(1)
                else:
                    bar.n = meter()
                bar.set_postfix_str(postfix() if postfix else ladder.leader(), refresh=False)
                bar.refresh()
            if done:
                finished = True
                break
    finally:
        if bar:
            bar.close()
        executor.close()
        close_kept_players()          # those this process ran itself (-j 1); workers' players end with them
    return TournamentResult(records, played, len(ours), removed, problems, errors)


def _check_bots(cfg: TournamentConfig) -> None:
    from bots.spec import is_config, parse_config
    for spec in cfg.bots:
        inner = parse_config(spec).spec if is_config(spec) else spec      # checks a configuration's values
        kind = inner.split(":", 1)[0].strip().lower()
        if kind == "human":
            raise TournamentError("human seats belong in `kleos play`, not in tournaments")
    check_game_and_bots(cfg.game, cfg.options, cfg.bots)


def check_game_and_bots(game: str, options: dict, specs: list[str]) -> None:
    """Build the game and each bot once before any game, so a bad spec fails at once with its message; a ``cmd:``
    player is started and must answer ``protocol_version`` (a program that does not exist, or does not speak the
    protocol, stops the run before it starts, as in cutechess)."""
    from bots import BotCrashed, BotTimeout, make_bot
    load_game(game, **options)
    for spec in dict.fromkeys(specs):
        bot = make_bot(spec)
        try:
            if hasattr(bot, "check_starts"):
                bot.check_starts()
        except (BotCrashed, BotTimeout) as e:
            raise TournamentError(f"bot {spec!r} cannot play: {e}") from None
        finally:
            bot.close()


class Ladder:
    """A live rating ladder (openskill's Plackett-Luce model), updated game by game."""

    def __init__(self, labels: list[str]):
        from openskill.models import PlackettLuce
        self.model = PlackettLuce()
        self.ratings = {label: self.model.rating(name=label) for label in labels}

    def update(self, record: GameRecord) -> None:
        if not record.result or any(s not in self.ratings for s in record.seats):
            return
        best: dict = {}                    # a bot in several seats counts once, with its best finish
        for label, rank in zip(record.seats, record.result["ranks"]):
            best[label] = min(rank, best.get(label, rank))
        if len(best) < 2:
            return
        labels = list(best)
        new = self.model.rate([[self.ratings[s]] for s in labels], ranks=[best[s] for s in labels])
        for s, team in zip(labels, new):
            self.ratings[s] = team[0]

    def table(self) -> list[tuple[str, float, float, float]]:
        rows = [(label, r.mu, r.sigma, r.ordinal()) for label, r in self.ratings.items()]
        return sorted(rows, key=lambda row: -row[3])

    def leader(self) -> str:
        label, mu, sigma, _ = self.table()[0]
        return f"leader {label} {mu:.1f}±{2 * sigma:.1f}"
