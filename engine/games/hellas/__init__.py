"""Hellas (Hellenes: Campaigns of the Peloponnesian War), two players, hidden blocks, hidden hands and a secret
simultaneous card choice each season.

Rules: docs/rules/hellas.md (coverage, decisions, what is built and what is not yet). Every rule choice and number
lives in data/ (hellas_rules.toml, the map, the rosters, the deck, the events, the scenarios), read and checked by
loader.py. The game is not registered yet (no ``GAME`` here): it is registered once a whole game plays to the end
and the conformance suite passes.
"""
