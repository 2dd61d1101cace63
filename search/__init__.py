"""Searchers over engine.core.State at C speed: MCTS, determinized MCTS (PIMC) and ISMCTS."""
