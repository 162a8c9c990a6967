"""``golfscan`` with the painted stand-in game as its only plugin, for tests that need a real process."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

import paintgame  # noqa: E402

from golfscan.cli import main  # noqa: E402
from scanner.games import PLUGINS  # noqa: E402

if __name__ == "__main__":
    paintgame.register(PLUGINS)
    main(sys.argv[1:])
