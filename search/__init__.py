"""Searchers over engine.core.State at C speed: MCTS, determinized MCTS (PIMC) and ISMCTS.

>>> from search import SEARCHERS, make_searcher
>>> result = make_searcher("ismcts", time=1.0, c=0.7).search(view)
>>> result.action, result.stats

docs/search.md describes the algorithms, the options and the measured speed.
"""
from search.options import SearchOptionError, SearchStateError, parse_spec
from search.searchers import ISMCTS, MCTS, PIMC, SEARCHERS, Searcher, SearchResult, from_spec, make_searcher

__all__ = ["SEARCHERS", "make_searcher", "from_spec", "parse_spec", "Searcher", "SearchResult", "MCTS", "PIMC",
           "ISMCTS", "SearchOptionError", "SearchStateError"]
