"""Polis (Fran Diaz, 2020 Devir edition): Athens against Sparta in the Peloponnesian War.

Two players, three rounds (alpha, sigma, omega) of alternating two-action turns; sieges, tribute, trade with
the external markets, proxenoi and civil wars, and battles fought with secret hands of battle cards.
Rules: docs/rules/spec/polis.md; coverage table, decision split and ASSUMED values: docs/rules/polis.md.
Seat 0 is Athens, seat 1 is Sparta.
"""
from pathlib import Path

from engine.registry import GameSpec, Option


def _make(options):
    from engine.games.polis.state import PolisGame
    return PolisGame(options)


GAME = GameSpec(
    name="polis",
    title="Polis",
    summary="Athens against Sparta: sieges, trade, proxenoi and battles with secret card hands (2 players)",
    min_players=2,
    max_players=2,
    default_players=2,
    make=_make,
    options={"data": Option("ed1", "the board's data: ed1 (the first-edition board, SRC_ED1), assumed (the spec's "
                                   "placeholders), or a directory whose files replace the built-in ones",
                            names_files=True)},
    datasets={name: Path(__file__).parent / "data" / name for name in ("ed1", "assumed")},
    has_hidden_information=True,
    conformance_options=({"players": 2}, {"players": 2, "data": "assumed"}),
    # the kleos bot here: tuned by `kleos tune` at equal time (SPSA over c, depth, the rollouts' lookahead and
    # history, two runs of 300 steps on the search defaults, their last 100 steps averaged) and measured 0.625 +-
    # 0.070 over 200 games against the configuration before it (ismcts:c=0.514,depth=30) at 0.3 s a turn
    # (docs/strength.md, "Polis's kleos re-tuned by SPSA at equal time"); the cut-off scores with evaluate(), so a
    # new evaluate() calls for measuring it again
    kleos_bot="ismcts:c=0.3,depth=21,history=0.15",
    # rollouts cut after 24 actions and scored by evaluate() (the round's end projected), rollout moves picked by
    # it: random rollouts make passing look safest (docs/rules/polis.md, "How a game goes"; docs/strength.md, "Polis
    # with the round-end evaluate()")
    search_defaults={"depth": 24, "rollout": "heuristic"},
)
