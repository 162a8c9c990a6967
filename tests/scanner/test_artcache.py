"""The drawn component pictures kept between runs: drawn once, read back the same, redrawn when the file is
broken or the code changed, and drawn as before when the cache cannot be written."""

from __future__ import annotations

import numpy as np

from scanner import artcache


def counting_draw(calls: list[int]):
    def draw() -> dict[str, np.ndarray]:
        calls.append(1)
        return {"tile": np.arange(24, dtype=np.uint8).reshape(2, 3, 4), "card": np.eye(3, dtype=np.float32)}
    return draw


def same(a: dict[str, np.ndarray], b: dict[str, np.ndarray]) -> bool:
    return a.keys() == b.keys() and all(a[k].dtype == b[k].dtype and np.array_equal(a[k], b[k]) for k in a)


def test_pictures_are_drawn_once_and_read_back_the_same(tmp_path, monkeypatch):
    monkeypatch.setenv("GOLFSCAN_CACHE", str(tmp_path))
    calls: list[int] = []
    first = artcache.drawn("cards", counting_draw(calls))
    again = artcache.drawn("cards", counting_draw(calls))
    assert len(calls) == 1 and same(first, again)
    assert [p.suffix for p in tmp_path.iterdir()] == [".npz"]  # no half-written file left behind


def test_a_broken_file_is_drawn_afresh(tmp_path, monkeypatch):
    monkeypatch.setenv("GOLFSCAN_CACHE", str(tmp_path))
    calls: list[int] = []
    artcache.drawn("cards", counting_draw(calls))
    (kept,) = tmp_path.iterdir()
    kept.write_bytes(kept.read_bytes()[:100])  # cut short, as by a full disk
    assert same(artcache.drawn("cards", counting_draw(calls)), counting_draw([])()) and len(calls) == 2


def test_pictures_drawn_by_other_code_are_replaced(tmp_path, monkeypatch):
    monkeypatch.setenv("GOLFSCAN_CACHE", str(tmp_path))
    (tmp_path / "cards-0123456789abcdef.npz").write_bytes(b"drawn by another version")
    calls: list[int] = []
    artcache.drawn("cards", counting_draw(calls))
    assert len(calls) == 1 and [p.name for p in tmp_path.iterdir()] != ["cards-0123456789abcdef.npz"]
    assert len(list(tmp_path.iterdir())) == 1


def test_an_unwritable_cache_draws_as_before(tmp_path, monkeypatch):
    blocked = tmp_path / "file"
    blocked.write_text("not a folder")
    monkeypatch.setenv("GOLFSCAN_CACHE", str(blocked / "cache"))
    assert same(artcache.drawn("cards", counting_draw([])), counting_draw([])())


def test_the_key_follows_the_sources(tmp_path):
    (tmp_path / "art.py").write_text("SIZE = 1\n")
    (tmp_path / "notes.txt").write_text("not a source")
    before = artcache.source_key((tmp_path,))
    (tmp_path / "notes.txt").write_text("still not a source")
    assert artcache.source_key.__wrapped__((tmp_path,)) == before
    (tmp_path / "art.py").write_text("SIZE = 2\n")
    assert artcache.source_key.__wrapped__((tmp_path,)) != before
