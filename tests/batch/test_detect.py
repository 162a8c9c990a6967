"""Game detection and loading: cheapest likelihood first, a sure one ends the search, detected on a small decode."""

from __future__ import annotations

import sys
from types import ModuleType

import cv2
import numpy as np
import pytest

from golfscan import pipeline
from scanner.errors import ScanError


def fake_plugins(monkeypatch, likelihoods: dict[str, float | Exception], work: dict[str, int] | None = None,
                 refuse: set[str] | None = None):
    """Stand-in plugins whose likelihood is fixed and whose scan reads their own name (or, for the games in
    ``refuse``, finds no board); returns the games asked, in order."""
    asked: list[str] = []
    plugins = {}
    for game, value in likelihoods.items():
        module = ModuleType(f"fake_{game.replace('-', '_')}")

        def likelihood(image, game=game, value=value):
            asked.append(game)
            if isinstance(value, Exception):
                raise value
            return value

        def scan(image, setup=None, debug=None, game=game):
            if game in (refuse or ()):
                raise ScanError(f"no {game} board found")
            return game  # stands for the scanner's reading

        module.likelihood = likelihood
        module.scan = scan
        if work and game in work:
            module.WORK_PIXELS = work[game]
        monkeypatch.setitem(sys.modules, module.__name__, module)
        plugins[game] = module.__name__
    monkeypatch.setattr(pipeline, "PLUGINS", plugins)
    monkeypatch.setattr("scanner.games.PLUGINS", plugins)
    return asked


IMAGE = np.zeros((8, 8, 3), np.uint8)


def test_a_sure_likelihood_ends_the_search(monkeypatch):
    asked = fake_plugins(monkeypatch, {"the-front-nine": 0.9, "18-holes": 0.95, "minigolf-designer": 0.1})
    assert pipeline.detect_game(IMAGE) == "18-holes"
    assert asked == ["minigolf-designer", "18-holes"]  # cheapest first; the Front Nine is never tried


def test_without_a_sure_one_the_most_likely_game_wins(monkeypatch):
    asked = fake_plugins(monkeypatch, {"minigolf-designer": 0.3, "18-holes": ScanError("no grid"),
                                       "gnoming-a-round": 0.6, "the-front-nine": 0.5, "new-game": 0.2})
    assert pipeline.detect_game(IMAGE) == "gnoming-a-round"
    assert asked == ["minigolf-designer", "18-holes", "gnoming-a-round", "the-front-nine", "new-game"]


def test_no_likely_game_is_a_scan_error(monkeypatch):
    fake_plugins(monkeypatch, {"18-holes": 0.1, "gnoming-a-round": ScanError("no cards")})
    with pytest.raises(ScanError, match="no known game recognised"):
        pipeline.detect_game(IMAGE)


def counted_loads(monkeypatch) -> list[int]:
    """The pixel bound of every decode the pipeline makes, in order."""
    decoded: list[int] = []
    real_load = pipeline.load_photo

    def counting_load(path, max_pixels, **options):
        decoded.append(max_pixels)
        return real_load(path, max_pixels=max_pixels, **options)

    monkeypatch.setattr(pipeline, "load_photo", counting_load)
    return decoded


def grey_photo(tmp_path):
    photo = tmp_path / "p.jpg"
    cv2.imwrite(str(photo), np.full((400, 600, 3), 128, np.uint8))
    return photo


def test_a_sure_likely_game_is_asked_first_on_one_decode_at_its_size(monkeypatch, tmp_path):
    photo = grey_photo(tmp_path)
    asked = fake_plugins(monkeypatch, {"minigolf-designer": 0.1, "18-holes": 0.9},
                         work={"minigolf-designer": 60_000, "18-holes": 200_000})
    decoded = counted_loads(monkeypatch)
    game, loaded = pipeline.load_and_detect(photo, likely="18-holes")
    assert (game, asked, decoded) == ("18-holes", ["18-holes"], [200_000])
    assert loaded.image.shape == (365, 548, 3)  # as with the game given


@pytest.mark.parametrize(("likely_score", "expected", "shape"), [(0.5, "minigolf-designer", (200, 300, 3)),
                                                                  (0.7, "18-holes", (365, 548, 3))])
def test_a_likely_game_that_is_not_sure_leaves_the_usual_search(monkeypatch, tmp_path, likely_score, expected,
                                                                 shape):
    photo = grey_photo(tmp_path)
    asked = fake_plugins(monkeypatch, {"minigolf-designer": 0.6, "18-holes": likely_score},
                         work={"minigolf-designer": 60_000, "18-holes": 200_000})
    decoded = counted_loads(monkeypatch)
    game, loaded = pipeline.load_and_detect(photo, likely="18-holes")
    assert asked == ["18-holes", "minigolf-designer", "18-holes"]  # the search judges the detection size
    assert (game, decoded, loaded.image.shape) == (expected, [200_000], shape)  # never decoded twice


def test_a_game_working_at_the_detection_size_scans_the_image_it_was_detected_on(monkeypatch, tmp_path):
    photo = grey_photo(tmp_path)
    fake_plugins(monkeypatch, {"minigolf-designer": 0.1, "18-holes": 0.9},
                 work={"minigolf-designer": 200_000, "18-holes": 60_000})
    decoded = counted_loads(monkeypatch)
    seen = []
    monkeypatch.setattr(pipeline, "detect_game", lambda image: seen.append(image) or "18-holes")
    game, loaded = pipeline.load_and_detect(photo)
    assert (game, decoded) == ("18-holes", [60_000])  # one decode, at the smallest size any game works at
    assert loaded.image is seen[0]  # the very array: work the likelihood did is reused by the scan
    assert loaded.image.shape == (200, 300, 3) and loaded.scale == 0.5
    given, direct = pipeline.load_and_detect(photo, "18-holes")
    assert given == "18-holes" and direct.image.shape == loaded.image.shape  # as when the game is given


def test_a_game_needing_more_pixels_gets_the_photo_decoded_again_at_its_size(monkeypatch, tmp_path):
    photo = grey_photo(tmp_path)
    fake_plugins(monkeypatch, {"minigolf-designer": 0.9, "18-holes": 0.1},
                 work={"minigolf-designer": 200_000, "18-holes": 60_000})
    decoded = counted_loads(monkeypatch)
    game, loaded = pipeline.load_and_detect(photo)
    assert (game, decoded) == ("minigolf-designer", [60_000, 200_000])
    given, direct = pipeline.load_and_detect(photo, "minigolf-designer")
    assert direct.image.shape == loaded.image.shape == (365, 548, 3)  # as when the game is given


def test_when_the_detected_game_finds_no_board_a_game_the_photo_surely_shows_is_read(monkeypatch, tmp_path):
    photo = grey_photo(tmp_path)
    fake_plugins(monkeypatch, {"minigolf-designer": 0.81, "gnoming-a-round": 1.0}, refuse={"minigolf-designer"})
    loaded, scan = pipeline.read_photo(photo)
    assert scan == "gnoming-a-round"
    assert loaded.image.shape == (400, 600, 3)


def test_without_another_sure_game_the_first_scanners_reason_stands(monkeypatch, tmp_path):
    photo = grey_photo(tmp_path)
    fake_plugins(monkeypatch, {"minigolf-designer": 0.9, "gnoming-a-round": 0.7}, refuse={"minigolf-designer"})
    with pytest.raises(ScanError, match="no minigolf-designer board found"):
        pipeline.read_photo(photo)


def test_a_game_given_is_never_swapped_for_another(monkeypatch, tmp_path):
    photo = grey_photo(tmp_path)
    asked = fake_plugins(monkeypatch, {"minigolf-designer": 0.9, "gnoming-a-round": 1.0},
                         refuse={"minigolf-designer"})
    with pytest.raises(ScanError, match="no minigolf-designer board found"):
        pipeline.read_photo(photo, "minigolf-designer")
    assert asked == []


def test_the_next_game_is_detected_on_the_small_decode_though_the_first_needed_more(monkeypatch, tmp_path):
    photo = grey_photo(tmp_path)
    fake_plugins(monkeypatch, {"18-holes": 0.9, "gnoming-a-round": 1.0}, refuse={"18-holes"},
                 work={"18-holes": 200_000, "gnoming-a-round": 60_000})
    judged = []
    real_detect = pipeline.detect_game
    monkeypatch.setattr(pipeline, "detect_game",
                        lambda image, **kw: judged.append(image.shape) or real_detect(image, **kw))
    loaded, scan = pipeline.read_photo(photo)
    assert scan == "gnoming-a-round"
    assert judged == [(200, 300, 3), (200, 300, 3)]  # not the 18 Holes decode (365 x 548)
    assert loaded.image.shape == (200, 300, 3)


def test_a_photo_is_read_with_one_blas_thread_and_the_pools_are_restored_after(monkeypatch, tmp_path):
    """Every product a scanner makes is small: more BLAS threads would only spin (a batch runs a photo per core)."""
    from threadpoolctl import threadpool_info

    def blas_threads() -> list[int]:
        return [pool["num_threads"] for pool in threadpool_info() if pool["user_api"] == "blas"]

    seen: list[list[int]] = []
    fake_plugins(monkeypatch, {"minigolf-designer": 0.9})
    monkeypatch.setattr(sys.modules["fake_minigolf_designer"], "scan",
                        lambda image, setup=None, debug=None: seen.append(blas_threads()) or "read")
    before = blas_threads()
    if not before:
        pytest.skip("numpy without a BLAS thread pool")
    assert pipeline.read_photo(grey_photo(tmp_path))[1] == "read"
    assert seen == [[1] * len(before)]
    assert blas_threads() == before
