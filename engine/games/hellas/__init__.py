"""Hellas (Hellenes: Campaigns of the Peloponnesian War), two players, hidden blocks, hidden hands and a secret
simultaneous card choice each season. Seat 0 is Athens, seat 1 is Sparta, unless the rule key SIDE_SELECTION
(spec 5.13) has a coin or the seats' bids choose (the option rules, e.g. SIDE_SELECTION="random").

Rules: docs/rules/hellas.md (coverage, decisions, what is built and what is not yet). Every rule choice and number
lives in data/ (hellas_rules.toml, the map, the rosters, the deck, the events, the scenarios), read and checked by
loader.py.
"""
from pathlib import Path

from engine.registry import GameSpec, Option

DATA = Path(__file__).parent / "data"


def _make(options):
    from engine.games.hellas.state import HellasGame
    return HellasGame(options)


GAME = GameSpec(
    name="hellas",
    title="Hellas",
    summary="Athens against Sparta from 431 BC: hidden blocks, hidden hands and a secret card each season (2 players)",
    min_players=2,
    max_players=2,
    default_players=2,
    make=_make,
    options={"data": Option("placeholder", "the 431 roster: placeholder (the spec's placeholder roster, scenario_431), "
                                           "designer (the designer's order of battle, spec 10.6.2), or a "
                                           "scenario_<name>.toml file (or a folder holding one) whose folder "
                                           "holds the files it names", names_files=True),
             "rules": Option("", "rule keys set over the data set, KEY=VALUE;KEY=VALUE with values as in the rules "
                                 "file (docs/rules/hellas.md), e.g. ROUT_TARGET=\"smallest\"")},
    datasets={"placeholder": DATA / "scenario_431.toml", "designer": DATA / "scenario_431_designer.toml"},
    has_hidden_information=True,
    conformance_options=({"players": 2}, {"players": 2, "data": "designer"},
                         {"players": 2, "rules": 'SIDE_SELECTION="random"'},
                         {"players": 2, "rules": 'SIDE_SELECTION="bid"'}),
    # a random game is about 650 actions; ISMCTS gets about 2,400 full-rollout iterations a second at a mid-game
    # position against 7,600 with the cut at 60 actions scored by evaluate() (docs/strength.md); "depth=none"
    # opts out
    search_defaults={"depth": 60},
    # Kleos's own bot: a shorter cut-off, 20 actions from the root, with rollouts whose every move is the best of 3
    # sampled by evaluate(). At equal time (0.3 s a turn) it scored 0.586 +- 0.076 against the search defaults over
    # 180 games (+60 Elo [+9, +112]) and 0.688 +- 0.084 against PIMC over 80 (docs/strength.md, "Hellas: a
    # 20-action cut-off with heuristic rollouts" and "Hellas: more games against plain ISMCTS and PIMC"). reuse=yes
    # (each search starts from the node its earlier searches grew for the position; a turn is 3 to 4 decisions):
    # 0.613 +- 0.108 against the same bot without it over 80 games (+80 Elo [+2, +157]; docs/strength.md,
    # "Keeping the tree")
    kleos_bot="ismcts:depth=20,rollout=heuristic,reuse=yes",
)
