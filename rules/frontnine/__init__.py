"""The Front Nine (2-4 players): build a nine-hole course; points for distance, resources, stars and par.

Example:
    >>> from rules import registry
    >>> engine, table = registry.parse_board({"format": "golfscan/the-front-nine", "version": 1, "players": [
    ...     {"name": "Ada", "course": ["c09"], "distance_balls": 3},
    ...     {"name": "Bo", "course": ["c10"], "distance_balls": 5}]})
    >>> [(line.item, line.points) for line in engine.score([table]).scores[0].lines]
    [('distance', 5), ('trees', 4), ('sand', 0), ('water', 5), ('course par', 0)]
"""

from rules.frontnine.board import parse
from rules.frontnine.scoring import score
from rules.registry import load_schema

GAME = "the-front-nine"
TITLE = "The Front Nine"
FORMAT_VERSION = 1
SCHEMA = load_schema(__file__)

__all__ = ["GAME", "TITLE", "FORMAT_VERSION", "SCHEMA", "parse", "score"]
