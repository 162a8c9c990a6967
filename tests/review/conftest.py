"""Review tests use the painted stand-in game and the folders of the batch tests."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parents[1] / "batch"))

from paintgame import club_night, painted  # noqa: E402, F401  (fixtures)
