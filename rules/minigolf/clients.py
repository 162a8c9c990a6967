"""Client cards: each client's family points (fixed points for what the course offers).

Only completed holes count for a client. Point values come from clients.json; Mr Short's from the
stand-ins. The expert ranking (score.py) ranks players by these family points.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rules.minigolf.catalogue import CLIENTS
from rules.minigolf.facts import HOLES, Facts

ClientScore = tuple[int, str]  # (points, why)


def _holes_where(facts: Facts, test: Callable) -> list[str]:
    return [facts.number_of(h) for h in facts.completed if test(h)]


def _per_hole(points: int, names: list[str], what: str) -> ClientScore:
    listed = f": {', '.join(names)}" if names else ""
    return points * len(names), f"{len(names)} completed hole(s) {what}{listed}"


def mrs_noreturn(facts: Facts, p: dict[str, Any]) -> ClientScore:
    good, bad = facts.arrows
    extra = f" ({len(bad)} pointing the wrong way)" if bad else ""
    return p["points"] * len(good), f"{len(good)} correctly oriented arrow(s) on completed holes{extra}"


def mr_intheway(facts: Facts, p: dict[str, Any]) -> ClientScore:
    names = _holes_where(facts, lambda h: any(t.tile.obstacle for t in h.tiles))
    return _per_hole(p["points"], names, "with an obstacle")


def mrs_camper(facts: Facts, p: dict[str, Any]) -> ClientScore:
    n = facts.grass_tiles
    return p["points"] * n, f"{n} grass tile(s)"


def mr_perfect(facts: Facts, p: dict[str, Any]) -> ClientScore:
    parts = p["parts"]
    met = {
        "playable": facts.playability_points == 0,
        "land": facts.land is not None and facts.land.perfect,
        "circuit": all(t.joined for t in facts.circuit),
        "par": facts.par_points == 2 * HOLES,
    }
    points = sum(parts[k] for k, ok in met.items() if ok)
    why = ", ".join(f"{k} {parts[k] if ok else 0}" for k, ok in met.items())
    return points, why


def mr_long(facts: Facts, p: dict[str, Any]) -> ClientScore:
    n = p["min_tiles"]
    return _per_hole(p["points"], _holes_where(facts, lambda h: h.length >= n), f"of {n}+ tiles")


def mr_short(facts: Facts, p: dict[str, Any]) -> ClientScore:
    n = p["mr_short_max_tiles"]
    points, why = _per_hole(p["mr_short_points"], _holes_where(facts, lambda h: h.length <= n), f"of at most {n} tiles")
    return points, f"{why} (stand-in rule)"


def mr_straightforward(facts: Facts, p: dict[str, Any]) -> ClientScore:
    names = [t.label for t in facts.circuit if t.aligned]
    listed = f": {', '.join(names)}" if names else ""
    return p["points"] * len(names), f"{len(names)} green -> tee transition(s) in line{listed}"


SCORERS: dict[str, Callable[[Facts, dict[str, Any]], ClientScore]] = {
    "mrs-noreturn": mrs_noreturn,
    "mr-intheway": mr_intheway,
    "mrs-camper": mrs_camper,
    "mr-perfect": mr_perfect,
    "mr-long": mr_long,
    "mr-short": mr_short,
    "mr-straightforward": mr_straightforward,
}


def family_score(client_id: str, facts: Facts, standins: dict[str, Any]) -> ClientScore | None:
    """A client's family points and why; None for a client whose card is not scored (Mr Whim)."""
    scorer = SCORERS.get(client_id)
    if scorer is None:
        return None
    return scorer(facts, {**CLIENTS[client_id].params, **standins})
