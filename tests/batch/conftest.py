"""Batch tests run on the painted stand-in game (``paintgame``), never on a real scanner's accuracy."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from paintgame import club_night, painted  # noqa: E402, F401  (fixtures)
