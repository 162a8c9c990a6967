"""The review model: doubtful photos and reads first, choices, corrections that rescore and persist."""

from __future__ import annotations

import json

import cv2
import numpy as np
import pytest

from golfscan import corrections
from golfscan.review.session import ReviewError, ReviewSession

BO = "table1/bo.png"
WATER = {"k": "water"}


def totals(state: dict) -> dict[str, int]:
    return {s["player"]: s["total"] for s in state["result"]["scores"]}


def test_doubtful_photo_and_read_come_first(club_night):
    session = ReviewSession(club_night)
    state = session.state(BO)
    photos = session.photos()
    assert photos[0]["photo"] == BO and photos[0]["flagged"] == 1
    confidences = [r["confidence"] for r in state["reads"]]
    assert confidences == sorted(confidences)
    assert state["reads"][0]["where"] == "cells[0][1]" and state["reads"][0]["flagged"]
    assert totals(state) == {"Bo": 3}  # the table's setup (player, committee bonus) applies


def test_choices_start_with_the_scanners_guesses(club_night):
    session = ReviewSession(club_night)
    choices = session.choices(BO, "cells[0][1]")
    guesses = [c["value"] for c in choices if c["group"] == "the scanner's guesses"]
    assert guesses == [{"k": "fairway", "edges": ["W", "E"]}, WATER]
    assert {"k": "bunker"} in [c["value"] for c in choices]


def test_correction_rescores_at_once_and_survives_a_new_session(club_night):
    session = ReviewSession(club_night)
    state = session.correct(BO, "cells[0][1]", WATER)
    assert totals(state) == {"Bo": 1}
    assert state["flagged"] == 0
    (read,) = [r for r in state["reads"] if r["where"] == "cells[0][1]"]
    assert read["corrected"] and read["value"] == WATER
    sidecar = json.loads(corrections.sidecar_path(club_night / BO).read_text())
    assert sidecar["corrections"] == [{"where": "cells[0][1]", "value": WATER,
                                       "was": {"k": "fairway", "edges": ["W", "E"]}}]
    again = ReviewSession(club_night).state(BO)  # a rescan from scratch
    assert totals(again) == {"Bo": 1} and again["corrections"][0]["value"] == WATER
    back = ReviewSession(club_night).uncorrect(BO, "cells[0][1]")
    assert totals(back) == {"Bo": 3} and back["flagged"] == 1


def test_a_value_the_board_format_refuses_is_not_saved(club_night):
    session = ReviewSession(club_night)
    with pytest.raises(ReviewError, match="cells\\[0\\]\\[1\\]"):
        session.correct(BO, "cells[0][1]", {"k": "lava"})
    with pytest.raises(ReviewError, match="no read"):
        session.correct(BO, "cells[9][9]", WATER)
    assert not corrections.sidecar_path(club_night / BO).exists()


def test_only_photos_under_the_folder_can_be_opened(club_night, painted):
    painted.paint(club_night.parent / "outside.png", ["GFG", "EEE"])
    session = ReviewSession(club_night)
    for name in ("../outside.png", str(club_night.parent / "outside.png"), "table1/setup.json", "table1"):
        with pytest.raises(ReviewError, match="not a photo of this review"):
            session.state(name)


def test_a_link_to_a_photo_outside_the_folder_is_not_served(club_night, painted):
    outside = painted.paint(club_night.parent / "outside.png", ["GFG", "EEE"])
    (club_night / "loose" / "link.png").symlink_to(outside)
    session = ReviewSession(club_night)
    assert "loose/link.png" not in [p["photo"] for p in session.photos()]
    with pytest.raises(ReviewError):
        session.image_jpeg("loose/link.png")


def test_single_photo_uses_its_folders_setup(club_night):
    session = ReviewSession(club_night / BO)
    assert [p["photo"] for p in session.photos()] == ["bo.png"]
    assert totals(session.state("bo.png")) == {"Bo": 3}


def test_crop_shows_the_read_with_its_surroundings(club_night):
    session = ReviewSession(club_night)
    crop = cv2.imdecode(np.frombuffer(session.crop_png(BO, "cells[0][1]"), np.uint8), cv2.IMREAD_COLOR)
    assert crop.shape[0] > 32 and crop.shape[1] > 32  # the 32 px square plus a margin
    assert crop.shape[0] <= 64 and crop.shape[1] <= 96


def test_correction_of_another_version_of_the_photo_is_kept_but_not_applied(club_night, painted):
    corrections.correct(club_night / BO, "cells[0][1]", WATER)
    painted.paint(club_night / BO, ["GFG", "TEE"], between={(0, 1): ("F", "W", 0.45)})  # retaken
    state = ReviewSession(club_night).state(BO)
    assert totals(state) == {"Bo": 3}
    assert any("photo changed" in w for w in state["warnings"])
    assert corrections.load_sidecar(club_night / BO).corrections[0].value == WATER


def test_only_the_last_photos_stay_in_memory_and_counts_are_kept(club_night, monkeypatch):
    monkeypatch.setattr("golfscan.review.session.KEEP_OPEN", 1)
    session = ReviewSession(club_night)
    session.correct(BO, "cells[0][1]", WATER)
    session.state("table1/ada.png")  # pushes bo.png out of memory
    assert list(session._opened) == ["table1/ada.png"]
    assert {p["photo"]: p["flagged"] for p in session.photos()}[BO] == 0
    assert totals(session.state(BO)) == {"Bo": 1}  # scanned again, correction applied
