"""18 Holes board files: malformed files through `golfscan score-board`, and the neutral converter."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from eighteen_grid import board
from paths import outside_dir

from golfscan.cli import main
from rules import registry, standins
from rules.eighteen import score
from rules.eighteen.neutral import from_neutral

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "18-holes" / "plan.json"
PLAN = """
W>E4 WE WE W>E3
b    .  .  ~
"""


def _broken(change) -> dict:
    data = board(PLAN)
    change(data)
    return data


@pytest.mark.parametrize(
    ("change", "place"),
    [
        (lambda d: d["cells"].pop(), "cells"),
        (lambda d: d["cells"][1].pop(), "cells[1]"),
        (lambda d: d["grid"].update(cols=0), "grid.cols"),
        (lambda d: d["cells"][0][1].update(edges=["W", "Q"]), "cells[0][1].edges[1]"),
        (lambda d: d["cells"][0][1].update(edges=["W", "W"]), "cells[0][1].edges"),
        (lambda d: d["cells"][0][1].update(edges=["W"]), "cells[0][1].edges"),
        (lambda d: d["cells"][0][0].update(par=6), "cells[0][0].par"),
        (lambda d: d["cells"][0][0].update(tee_edge="W"), "cells[0][0]"),
        (lambda d: d["cells"][0][0].pop("green_edge"), "cells[0][0]"),
        (lambda d: d["cells"][1][0].update(k="sand"), "cells[1][0].k"),
        (lambda d: d["cells"][1][0].update(edges=["N", "S"]), "cells[1][0]"),
        (lambda d: d.update(setup={"prime_location": "13"}), "setup.prime_location"),
    ],
)
def test_malformed_file_is_one_line_naming_file_and_place(tmp_path, change, place):
    path = tmp_path / "plan.json"
    path.write_text(json.dumps(_broken(change)))
    result = CliRunner().invoke(main, ["score-board", str(path)])
    assert result.exit_code == 2
    lines = result.output.strip().splitlines()
    assert len(lines) == 1, result.output
    assert f"{path}: {place}:" in lines[0]
    assert "Traceback" not in result.output


@pytest.mark.parametrize("bad", [[(1, 2)], [(1, 2), (1, 1)]])
def test_an_invalid_square_among_valid_ones_of_its_kind_is_named_where_it_lies(bad):
    # the schema remembers the square values it found valid ("." is one, eight times over): a value like them but
    # not valid is still checked, and named where it lies, each copy of it alike
    data = board(PLAN + ".  .  .  .\n")
    for r, c in bad:
        data["cells"][r][c] = {"k": "empty", "edges": ["N", "S"]}
    with pytest.raises(registry.BoardError) as raised:
        registry.parse_board(data)
    assert raised.value.place in {f"cells[{r}][{c}]" for r, c in bad}
    assert "'edges' was unexpected" in raised.value.message


def test_example_plan_scores_through_the_command_line():
    result = CliRunner().invoke(main, ["score-board", str(EXAMPLE)])
    assert result.exit_code == 0, result.output
    assert "14 completed holes in a chain, a full circuit: 10" in result.output
    assert "solo rating" in result.output


def _as_neutral(data: dict) -> dict:
    """Our board in the outside samples' neutral ground-truth layout."""
    rows, cols = data["grid"]["rows"], data["grid"]["cols"]
    points = [[[10.0 * c, 10.0 * r] for c in range(cols + 1)] for r in range(rows + 1)]
    return {
        "rows": rows,
        "cols": cols,
        "cells": copy.deepcopy(data["cells"]),
        "grid_corners": {"NW": points[0][0], "NE": points[0][-1], "SE": points[-1][-1], "SW": points[-1][0]},
        "grid_points": points,
        "image": {"file": "plan.jpg", "width": 10 * cols, "height": 10 * rows},
    }


def test_neutral_plan_converts_to_the_same_score():
    ours = json.loads(EXAMPLE.read_text())
    converted = from_neutral(_as_neutral(ours))
    assert converted["cells"] == ours["cells"] and converted["source"]["photo"] == "plan.jpg"
    converted.update(player=ours["player"], setup=ours["setup"])  # not part of the neutral format
    _, from_file = registry.parse_board(ours)
    _, from_truth = registry.parse_board(converted)
    assert score([from_truth]).to_dict() == score([from_file]).to_dict()


def _outside_plans() -> list[Path]:
    """Neutral ground truth of the outside sample plans (see tests/paths.py)."""
    folder = outside_dir()
    return sorted(Path(folder, "18-holes").glob("plan_*.json")) if folder else []


@pytest.mark.skipif(not _outside_plans(), reason="outside samples not found (../shared/outside or $GOLFSCAN_OUTSIDE)")
@pytest.mark.parametrize("path", _outside_plans(), ids=lambda p: p.name)
def test_outside_ground_truth_parses_and_scores(path):
    truth = json.loads(path.read_text())
    _, plan = registry.parse_board(from_neutral(truth), str(path))
    result = score([plan]).scores[0]
    assert result.details["tees"] == sum(c["k"] == "teegreen" for row in truth["cells"] for c in row)
    assert result.details["completed_holes"] > 0 and result.total > 0


def test_documented_example_scores_as_printed():
    doc = (EXAMPLE.parents[2] / "docs" / "boards" / "18-holes.md").read_text()
    example = json.loads(doc.split("```json\n", 1)[1].split("```", 1)[0])
    _, plan = registry.parse_board(example)
    result = score([plan]).scores[0]
    assert (result.total, result.details["linked_holes"], result.details["scored_holes"]) == (17, 2, 1)
    assert result.warnings == ["check cells[1][2]: straight or corner? (confidence 0.55)"]


def test_non_numeric_stand_in_override_is_one_line(tmp_path):
    override = tmp_path / "standins.json"
    override.write_text(json.dumps({"18-holes": {"bunker_points": "one"}}))
    try:
        result = CliRunner().invoke(main, ["score-board", "--standins", str(override), str(EXAMPLE)])
    finally:
        standins.set_overrides(None)  # the command leaves its overrides loaded in this process
    assert result.exit_code == 2
    assert result.output.strip() == "golfscan: stand-in 18-holes.bunker_points must be a number, not 'one'"


def test_squares_found_valid_on_an_earlier_board_vouch_only_for_themselves():
    data = board(PLAN)
    registry.parse_board(data)  # its square values are now remembered as valid, from one validation to the next
    data["cells"][1][1] = {"k": "empty", "edges": ["N", "S"]}
    with pytest.raises(registry.BoardError) as raised:
        registry.parse_board(data)
    assert raised.value.place == "cells[1][1]"
    registry.parse_board(board(PLAN))  # ... and the first board is valid still
