"""A batch has the scanners build their templates before its workers fork, only for the games it scans."""

from __future__ import annotations

import sys
from types import ModuleType

import pytest

from golfscan import batch
from scanner.games import PLUGINS


@pytest.fixture
def warmed(monkeypatch) -> list[str]:
    """Three stand-in plugins (one without ``warm_up``) as the only ones; the games warmed, in order."""
    calls: list[str] = []
    for game in list(PLUGINS):
        monkeypatch.delitem(PLUGINS, game)
    for game in ("alpha", "beta", "gamma"):
        module = ModuleType(f"warm_up_test_{game}")
        if game != "gamma":
            module.warm_up = lambda game=game: calls.append(game)
        monkeypatch.setitem(sys.modules, module.__name__, module)
        monkeypatch.setitem(PLUGINS, game, module.__name__)
    return calls


def test_only_the_games_scanned_are_warmed(warmed):
    batch._load_scanners(["beta", "beta", "gamma"])
    assert warmed == ["beta"]


def test_every_game_is_warmed_when_one_is_detected(warmed):
    batch._load_scanners(["alpha", None])
    assert warmed == ["alpha", "beta"]


def test_a_failing_warm_up_stops_only_its_own_game(warmed, monkeypatch):
    def broken() -> None:
        raise RuntimeError("no templates")

    monkeypatch.setattr(sys.modules["warm_up_test_alpha"], "warm_up", broken)
    batch._load_scanners([None])
    assert warmed == ["beta"]
