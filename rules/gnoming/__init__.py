"""Gnoming A Round (3-7 players, 110 cards): lowest score over three rounds of 3x3 card grids.

Example:
    >>> from rules import registry
    >>> grid = [["5", "5", "5"], ["-2", "hazard", "3"], ["mulligan", "7", "4"]]
    >>> engine, board = registry.parse_board(
    ...     {"format": "golfscan/gnoming-a-round", "version": 1, "rounds": [{"grids": {"Ada": grid}}]})
    >>> engine.score([board]).scores[0].total
    17
"""

from rules.gnoming.board import parse
from rules.gnoming.scoring import score
from rules.registry import load_schema

GAME = "gnoming-a-round"
TITLE = "Gnoming A Round"
FORMAT_VERSION = 1
SCHEMA = load_schema(__file__)

__all__ = ["GAME", "TITLE", "FORMAT_VERSION", "SCHEMA", "parse", "score"]
