"""Golden files: every committed photo set is scanned end to end and compared with its ground truth.

The bounds are the accuracy the scanners reach on these photos today (see the benchmark notes for
larger fresh sets); they guard against regressions. One promise holds for every photo without a
bound: a score that is wrong is flagged for review, and where a game lists the places it read wrong, each
of them is flagged.
"""

from pathlib import Path

import pytest
from click.testing import CliRunner
from paths import REPO

from golfscan.bench import measure_photo, summarize
from golfscan.cli import main

SETS = REPO / "fixtures" / "sets"

# game -> (item kind, highest read error % accepted on the committed sets)
READ_ERROR_BOUND = {
    "18-holes": ("squares", 40.0),
    "minigolf-designer": ("tiles", 5.0),
    "gnoming-a-round": ("cards", 3.0),
    "the-front-nine": ("cards", 5.0),
}


def _photos(game: str) -> list[Path]:
    return sorted(SETS.glob(f"{game}-*/*.jpg"))


@pytest.mark.parametrize("game", sorted(READ_ERROR_BOUND))
def test_committed_photos_read_against_ground_truth(game):
    photos = _photos(game)
    assert photos, f"no committed photos for {game} under {SETS}"
    outcomes = [measure_photo(photo, game) for photo in photos]
    assert [o.photo for o in outcomes if o.wrong_unflagged] == []
    assert [(o.photo, o.missed) for o in outcomes if o.missed] == []  # every wrong read is itself flagged
    kind, bound = READ_ERROR_BOUND[game]
    assert summarize(outcomes)[f"{kind} read error %"] <= bound


def test_committed_sets_match_the_code():
    result = CliRunner().invoke(main, ["fixtures", "make-set", "--check"])
    assert result.exit_code == 0, result.output
    assert "out of date" not in result.output
