"""18 Holes: Course Architect (Seabrook Studios): score a finished course plan drawn on a square grid.

The board file (``docs/boards/18-holes.md``) lists every square of the plan; holes are traced from
each tee along the fairways (:mod:`rules.eighteen.tracing`) and scored by :mod:`rules.eighteen.scoring`.
"""

from rules.eighteen.board import parse
from rules.eighteen.scoring import GAME, score
from rules.registry import load_schema

TITLE = "18 Holes: Course Architect"
FORMAT_VERSION = 1
SCHEMA = load_schema(__file__)

__all__ = ["FORMAT_VERSION", "GAME", "SCHEMA", "TITLE", "parse", "score"]
