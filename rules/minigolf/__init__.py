"""Minigolf Designer (+ Putt of No Return expansion): board format, tile catalogue and final scoring.

See docs/boards/minigolf-designer.md for the board file format and the catalogue data format.
"""

from rules.minigolf.board import Board, parse
from rules.minigolf.score import GAME, score
from rules.registry import load_schema

TITLE = "Minigolf Designer"
FORMAT_VERSION = 1
SCHEMA = load_schema(__file__)

__all__ = ["GAME", "TITLE", "FORMAT_VERSION", "SCHEMA", "Board", "parse", "score"]
