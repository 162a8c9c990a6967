"""`golfscan scan` turns every failure into one line and a non-zero exit."""

import pytest
from click.testing import CliRunner

import golfscan.pipeline
from golfscan.cli import main


def _explode(*args, **kwargs):
    raise IndexError("list index out of range")


def test_scanner_fault_is_one_line(tmp_path, monkeypatch):
    monkeypatch.setattr(golfscan.pipeline, "scan_photo", _explode)
    monkeypatch.delenv("GOLFSCAN_TRACEBACK", raising=False)
    result = CliRunner().invoke(main, ["scan", str(tmp_path / "p.jpg")])
    assert result.exit_code == 3
    assert result.output.count("\n") == 1 and "IndexError" in result.output


def test_scanner_fault_trace_on_request(tmp_path, monkeypatch):
    monkeypatch.setattr(golfscan.pipeline, "scan_photo", _explode)
    monkeypatch.setenv("GOLFSCAN_TRACEBACK", "1")
    result = CliRunner().invoke(main, ["scan", str(tmp_path / "p.jpg")])
    assert isinstance(result.exception, IndexError)


@pytest.mark.parametrize("content", [b"", b"not an image at all"])
def test_bad_photo_is_one_line(tmp_path, content):
    photo = tmp_path / "p.jpg"
    photo.write_bytes(content)
    result = CliRunner().invoke(main, ["scan", str(photo)])
    assert result.exit_code == 2 and result.output.count("\n") == 1


@pytest.mark.parametrize("game", ["minigolf-designer", "18-holes", "gnoming-a-round", "the-front-nine"])
def test_overlay_written_for_every_game(tmp_path, game):
    """`--overlay` writes the photo with the reading drawn on it, whatever the game."""
    import cv2
    import numpy as np
    from paths import REPO

    photo = sorted((REPO / "fixtures" / "sets" / f"{game}-flat-scan").glob("*.jpg"))[0]
    out = tmp_path / "overlay.png"
    result = CliRunner().invoke(main, ["scan", str(photo), "--game", game, "--overlay", str(out)])
    assert result.exit_code == 0, result.output
    drawn, original = cv2.imread(str(out)), cv2.imread(str(photo))
    assert drawn is not None and drawn.shape == original.shape
    assert np.abs(drawn.astype(int) - original).max() > 100  # something is drawn, not the photo copied
