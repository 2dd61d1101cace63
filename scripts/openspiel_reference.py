"""The reference comparison of issue 24: a Kleos searcher against OpenSpiel's Python ISMCTS on goofspiel.

    python scripts/openspiel_reference.py --variant public --budget time=0.2 --pairs 50
    python scripts/openspiel_reference.py --variant imp_info --budget iterations=1000 --pairs 50 --record games.jsonl

Needs OpenSpiel (``pip install open_spiel``; imported only when a game is played). The game is OpenSpiel's
``goofspiel(imp_info=...,num_cards=13,points_order=random,players=2)`` turned turn-based
(``turn_based_simultaneous_game``: player 0 bids, then player 1, then the bids are resolved), and Kleos's
``goofspiel(players=2,cards=13)``, which plays the same way (one prize revealed by chance each round, bids in seat
order, face down until both are in). A referee keeps one state of each in lockstep, applies every move to both
and checks at every decision that both offer the same legal moves; the chance draws (the prize order) come from
the referee's seeded stream.

Each bot sees only its own seat's view:
- Kleos's searcher is handed ``state.determinize(seat)`` of the Kleos state (its hidden parts resampled).
- OpenSpiel's ``ISMCTSBot`` (random rollouts, ``uct_c`` 2.0, the most visited move, every other setting its
  default) searches the OpenSpiel state but samples its worlds through a resampler that draws what the seat
  cannot see (OpenSpiel's turn-based wrapper has no ``resample_from_infostate`` of its own): with
  ``imp_info=False`` the opponent's pending bid, uniformly from the opponent's (public) hand; with
  ``imp_info=True`` also the opponent's earlier bids, drawn round by round among the cards consistent with the
  public win sequence (a restart on a dead end). The bot checks that every world it samples has the seat's
  information state.
Kleos's goofspiel has no imp_info option: it always reveals both bids at the end of a round, so in the
``imp_info`` variant the Kleos bot sees the opponent's past bids and the OpenSpiel bot does not (the comparison
of the issue did the same).

Budgets (``--budget``): ``time=S`` gives both bots S seconds a decision (OpenSpiel: simulations until the clock
runs out, at least one), ``iterations=N`` N iterations / simulations each. Games are played in duplicate pairs:
the same prize order twice, seats swapped; the score is Kleos's mean return (1 win, 0.5 draw, 0 loss) with a 95%
interval over pairs (1.96 sd / sqrt(pairs)).
"""
from __future__ import annotations

import argparse
import gzip
import json
import math
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine.chance import sample_outcome  # noqa: E402
from engine.registry import load_game  # noqa: E402
from engine.rng import RNG  # noqa: E402
from search import from_spec  # noqa: E402

VARIANTS = {"public": False, "imp_info": True}
CARDS = 13


def openspiel_game(imp_info: bool, cards: int = CARDS):
    import pyspiel
    return pyspiel.load_game(f"turn_based_simultaneous_game(game=goofspiel(imp_info={imp_info},"
                             f"num_cards={cards},points_order=random,players=2))")


class Resampler:
    """What an OpenSpiel seat cannot see, drawn afresh for each of its ISMCTS's worlds (see the module docstring).
    History layout of the turn-based game: per round a chance prize, player 0's bid, player 1's bid."""

    def __init__(self, game, imp_info: bool, seed: int):
        import numpy as np
        self.game, self.imp_info = game, imp_info
        self.rng = np.random.RandomState(seed)
        self._prefix_key = None
        self._prefix = None

    def __call__(self, state, player):
        history = state.history()
        rounds = [history[i:i + 3] for i in range(0, len(history), 3)]
        pending = len(rounds[-1]) == 2 and player == 1       # player 0 has bid face down in this round
        if not self.imp_info:
            if not pending:
                return state.clone()
            key = tuple(history[:-1])
            if key != self._prefix_key:                      # one search: the same root for every world
                self._prefix_key, self._prefix = key, self._replay(history[:-1])
            world = self._prefix.clone()
            world.apply_action(int(self.rng.choice(world.legal_actions())))
            return world
        return self._imp_info_world(rounds, player, pending)

    def _replay(self, actions):
        s = self.game.new_initial_state()
        for a in actions:
            s.apply_action(a)
        return s

    def _imp_info_world(self, rounds, player, pending):
        other = 1 - player
        complete = [r for r in rounds if len(r) == 3]
        for _ in range(10_000):
            left = set(range(CARDS))
            bids = []
            for _prize, *pair in complete:
                mine, theirs = pair[player], pair[other]
                # the public outcome of the round: who won (or a tie), never the card
                sign = (theirs > mine) - (theirs < mine)
                options = [c for c in left if (c > mine) - (c < mine) == sign]
                if not options:
                    break
                bids.append(int(self.rng.choice(options)))
                left.discard(bids[-1])
            else:
                actions = []
                for (prize, *pair), b in zip(complete, bids):
                    actions += [prize, pair[0] if player == 0 else b, b if player == 0 else pair[1]]
                if len(rounds[-1]) < 3 and rounds[-1]:
                    actions.append(rounds[-1][0])            # this round's prize
                    if pending:
                        actions.append(int(self.rng.choice(sorted(left))))
                    elif len(rounds[-1]) == 2:               # our own bid (player 0) is known to us
                        actions.append(rounds[-1][1])
                return self._replay(actions)
        raise RuntimeError("no opponent bid sequence fits the win sequence (10,000 tries)")


def openspiel_bot(game, imp_info: bool, budget: tuple[str, float], seed: int, uct_c: float = 2.0):
    import numpy as np
    from open_spiel.python.algorithms import ismcts, mcts

    kind, amount = budget

    class Bot(ismcts.ISMCTSBot):
        """OpenSpiel's ISMCTS; with a time budget its simulation loop runs until the clock is out."""
        simulations = 0

        def run_search(self, state):
            if kind == "iterations":
                self.simulations += self._max_simulations
                return super().run_search(state)
            self.reset()
            legal = state.legal_actions()
            if len(legal) == 1:
                return [(legal[0], 1.0)]
            self._root_node = self.create_new_node(state)
            root_key = self.get_state_key(state)
            deadline = time.perf_counter() + amount
            n = 0
            while n == 0 or time.perf_counter() < deadline:
                world = self.sample_root_state(state)
                assert self.get_state_key(world) == root_key
                self.run_simulation(world)
                n += 1
            self.simulations += n
            return self.get_final_policy(state, self._root_node)

    rs = np.random.RandomState(seed)
    bot = Bot(game, mcts.RandomRolloutEvaluator(1, np.random.RandomState(seed + 1)), uct_c,
              int(amount) if kind == "iterations" else 1, random_state=rs)
    bot.set_resampler(Resampler(game, imp_info, seed + 2))
    return bot


def play(variant: str, kleos_spec: str, budget: tuple[str, float], kleos_seat: int, deal: int, uct_c: float = 2.0):
    """One game; returns Kleos's return (1, 0.5, 0) and the search effort of both bots."""
    imp_info = VARIANTS[variant]
    os_game = openspiel_game(imp_info)
    os_state = os_game.new_initial_state()
    state = load_game("goofspiel", players=2, cards=CARDS).new_initial_state()
    chance, views = RNG(deal), RNG(deal ^ 0x5EED)
    kleos = from_spec(f"{kleos_spec}{',' if ':' in kleos_spec else ':'}{budget[0]}={budget[1]:g},seed={deal}")
    other = openspiel_bot(os_game, imp_info, budget, deal, uct_c)
    kleos_iterations = kleos_decisions = os_decisions = 0
    while not state.is_terminal():
        p = state.current_player()
        if os_state.is_terminal():
            # OpenSpiel plays the last round (one prize, one card each) by itself; Kleos plays it as forced moves
            moves = state.chance_outcomes() if p == -1 else state.legal_actions()
            if len(moves) != 1:
                raise RuntimeError(f"deal {deal}: OpenSpiel's game is over, Kleos's has a choice left")
            state.apply(moves[0][0] if p == -1 else moves[0])
            continue
        if p == -1:
            action = sample_outcome(state.chance_outcomes(), chance)
            if not os_state.is_chance_node() or action not in dict(os_state.chance_outcomes()):
                raise RuntimeError(f"deal {deal}: prize {action} is no chance outcome of the OpenSpiel state")
        else:
            if os_state.current_player() != p or os_state.legal_actions() != state.legal_actions():
                raise RuntimeError(f"deal {deal}: the two games disagree on the move of player {p}")
            if p == kleos_seat:
                result = kleos.search(state.determinize(p, views))
                action = result.action
                kleos_iterations += result.stats["iterations"]
                kleos_decisions += not result.stats["forced"]
            else:
                action = int(other.step(os_state))
                os_decisions += len(os_state.legal_actions()) > 1
        state.apply(action)
        os_state.apply_action(action)
    kleos.close()
    ret = state.returns()[kleos_seat]
    os_ret = os_state.returns()[kleos_seat]          # win_loss returns: 1, 0, -1
    if (ret - 0.5) * 2 != os_ret:
        raise RuntimeError(f"deal {deal}: Kleos scores {ret}, OpenSpiel {os_ret} for the same game")
    return {"deal": deal, "kleos_seat": kleos_seat, "kleos_return": ret, "points": state.scores(),
            "kleos_iterations": kleos_iterations, "kleos_decisions": kleos_decisions,
            "openspiel_simulations": other.simulations, "openspiel_decisions": os_decisions}


def parse_budget(text: str) -> tuple[str, float]:
    kind, _, value = text.partition("=")
    if kind not in ("time", "iterations") or not value:
        raise ValueError(f"budget {text!r}: give time=SECONDS or iterations=N")
    amount = float(value) if kind == "time" else int(value)
    if amount <= 0:
        raise ValueError(f"budget {text!r} must be positive")
    return kind, amount


def summarize(games: list[dict]) -> dict:
    pairs = {}
    for g in games:
        pairs.setdefault(g["deal"], []).append(g["kleos_return"])
    means = [sum(v) / len(v) for v in pairs.values()]
    score = sum(g["kleos_return"] for g in games) / len(games)
    sd = math.sqrt(sum((m - score) ** 2 for m in means) / max(len(means) - 1, 1))
    seat = {s: [g["kleos_return"] for g in games if g["kleos_seat"] == s] for s in (0, 1)}
    return {
        "games": len(games), "pairs": len(pairs), "score": score, "ci95": 1.96 * sd / math.sqrt(len(means)),
        "wins": sum(g["kleos_return"] == 1 for g in games), "draws": sum(g["kleos_return"] == 0.5 for g in games),
        "losses": sum(g["kleos_return"] == 0 for g in games),
        "kleos_score_by_seat": {s: sum(v) / len(v) for s, v in seat.items() if v},
        "kleos_iterations_per_decision": sum(g["kleos_iterations"] for g in games)
        / max(1, sum(g["kleos_decisions"] for g in games)),
        "openspiel_simulations_per_decision": sum(g["openspiel_simulations"] for g in games)
        / max(1, sum(g["openspiel_decisions"] for g in games)),
    }


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", choices=sorted(VARIANTS), default="public",
                        help="public: imp_info=False (bids revealed); imp_info: imp_info=True")
    parser.add_argument("--budget", default="time=0.2", help="time=SECONDS or iterations=N a decision, each bot")
    parser.add_argument("--kleos", default="ismcts", help="the Kleos searcher spec (the budget is added)")
    parser.add_argument("--pairs", type=int, default=50, help="duplicate pairs (two games each)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--uct-c", type=float, default=2.0, help="OpenSpiel's exploration constant")
    parser.add_argument("--record", default=None, help="append every game to this file as a JSON line")
    parser.add_argument("--summarize", nargs="+", default=None, metavar="RECORDS",
                        help="play nothing: summarize the games of --record files (of one variant and budget)")
    args = parser.parse_args(argv)
    if args.summarize:
        games = []
        for path in args.summarize:
            # the kept records are gzipped (docs/records/issue24-*.jsonl.gz); a fresh --record file is plain
            try:
                with open(path, "rb") as raw:
                    gzipped = raw.read(2) == b"\x1f\x8b"
                with (gzip.open if gzipped else open)(path, "rt", encoding="utf-8") as f:
                    for number, line in enumerate(f, 1):
                        if line.strip():
                            games.append(json.loads(line))
            except OSError as e:
                parser.error(f"cannot read {path}: {e}")
            except (json.JSONDecodeError, UnicodeDecodeError) as e:
                parser.error(f"{path}:{number}: not a JSON game record ({e})")
        runs = {(g["variant"], g["budget"], g["kleos"]) for g in games}
        if len(runs) != 1:
            parser.error(f"the records mix runs {sorted(runs)}; summarize one variant, budget and bot at a time")
        variant, budget, kleos = runs.pop()
        seats = {}
        for g in games:
            seats.setdefault(g["deal"], set()).add(g["kleos_seat"])
        games = [g for g in games if len(seats[g["deal"]]) == 2]        # whole pairs only (a run cut short)
        if not games:
            parser.error("no complete pair (both seats of one deal) in the records")
        print(json.dumps({"variant": variant, "budget": budget, "kleos": kleos, **summarize(games)}, indent=1))
        return
    try:
        budget = parse_budget(args.budget)
    except ValueError as e:
        parser.error(str(e))
    if args.pairs < 1:
        parser.error("--pairs must be at least 1")
    try:
        import pyspiel  # noqa: F401
    except ImportError:
        parser.error("OpenSpiel is not installed: pip install open_spiel")
    games = []
    t0 = time.perf_counter()
    for i in range(args.pairs):
        for seat in (0, 1):
            g = play(args.variant, args.kleos, budget, seat, args.seed * 100_003 + i, args.uct_c)
            g.update(variant=args.variant, budget=args.budget, kleos=args.kleos, uct_c=args.uct_c)
            games.append(g)
            if args.record:
                with open(args.record, "a") as f:
                    f.write(json.dumps(g) + "\n")
        s = summarize(games)
        print(f"pair {i + 1}/{args.pairs}: score {s['score']:.3f} ±{s['ci95']:.3f}", file=sys.stderr, flush=True)
    s = summarize(games)
    print(json.dumps({"variant": args.variant, "budget": args.budget, "kleos": args.kleos, "seed": args.seed,
                      "seconds": round(time.perf_counter() - t0), **s}, indent=1))


if __name__ == "__main__":
    main()
