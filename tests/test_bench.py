"""The benchmark's arithmetic: rates per item kind, flags, and unreadable photos counted as all wrong."""

import pytest

from golfscan.bench import PhotoOutcome, _all_wrong, format_summary, summarize


def _outcome(wrong, exact, score_right, flagged, seconds=1.0):
    return PhotoOutcome("p.jpg", {"tiles": 40, "tiles_wrong": wrong}, exact, score_right, flagged,
                        scan_seconds=seconds, decode_seconds=0.5)


def test_summary_rates():
    outcomes = [_outcome(0, True, True, False), _outcome(2, False, False, True, 3.0),
                _outcome(1, False, False, False, 2.0), _outcome(0, True, True, False)]
    s = summarize(outcomes)
    assert s["tiles read error %"] == pytest.approx(100 * 3 / 160)
    assert s["boards exactly right %"] == 50.0
    assert s["photos flagged %"] == 25.0
    assert s["wrong scores not flagged"] == 1  # the third photo: wrong score, no flag
    assert s["median scan s"] == 1.5 and s["scan / decode"] == pytest.approx(3.0)
    assert "| tiles read error % | 1.875 |" in format_summary(s, "t")


def test_unreadable_photo_counts_every_item_wrong():
    counts = {"cards": 27, "cards_wrong": 0, "grids": 3, "exact": True, "wrong": []}
    assert _all_wrong(counts) == {"cards": 27, "cards_wrong": 27, "grids": 3}


def test_wrong_reads_not_flagged_are_counted_only_for_games_that_list_them():
    listing = [_outcome(1, False, False, True), _outcome(0, True, True, False)]
    listing[0].missed, listing[1].missed = ["cells[0][1]", "cells[2][2].par"], []
    assert summarize(listing)["wrong reads not flagged"] == 2
    assert "wrong reads not flagged" not in summarize([_outcome(1, False, False, True)])
