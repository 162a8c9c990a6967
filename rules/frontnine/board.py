"""The Front Nine board files: every player's developed cards, checked against the catalogue and the rules.

Example:
    >>> table = parse({"players": [{"name": "Ada", "course": ["c01", "c09"], "specials": ["woodland"]},
    ...                            {"name": "Bo", "course": ["c10"], "distance_balls": 4.5}]})
    >>> [p.name for p in table.players], table.players[0].course[1].par, table.players[1].distance_balls
    (['Ada', 'Bo'], 4, 4.5)
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Any

from rules.common import BoardError, review_warnings
from rules.frontnine.catalogue import Catalogue, CourseCard, SpecialCard, catalogue
from rules.frontnine.geometry import Placement

MAX_HOLES = 9
# Course cards used per number of players, by par (the rulebook's setup table).
COURSE_CARDS_USED = {2: {3: 3, 4: 12, 5: 3}, 3: {3: 6, 4: 17, 5: 4}, 4: {3: 8, 4: 22, 5: 6}}


@dataclass(frozen=True)
class PlayerTable:
    """One player's developed cards; the course in chain order from the club house."""

    name: str
    course: tuple[CourseCard, ...]
    specials: tuple[SpecialCard, ...]
    distance_balls: float | None  # measured with the box scale, if given
    club_house: Placement | None
    positions: tuple[Placement, ...]  # one per course card, or empty


@dataclass(frozen=True)
class FrontNineTable:
    players: tuple[PlayerTable, ...]
    small_table: bool  # the Small Table variant: distance is not scored
    warnings: tuple[str, ...] = ()


def parse(data: dict[str, Any]) -> FrontNineTable:
    """Turn schema-valid JSON into a table; raise BoardError for what the cards or the rules cannot hold."""
    cards = catalogue()
    used: dict[str, str] = {}  # card id -> where it was first seen: a physical card is on the table once
    players = []
    for i, p in enumerate(data["players"]):
        place = f"players[{i}]"
        if p["name"] in {q.name for q in players}:
            raise BoardError(f"player name {p['name']!r} appears twice", f"{place}.name")
        if len(p["course"]) > MAX_HOLES:
            raise BoardError(
                f"{len(p['course'])} course cards; a course has at most {MAX_HOLES}", f"{place}.course"
            )
        course = tuple(
            _card(cid, f"{place}.course[{j}]", cards, "course", used) for j, cid in enumerate(p["course"])
        )
        specials = tuple(
            _card(cid, f"{place}.specials[{j}]", cards, "special", used)
            for j, cid in enumerate(p.get("specials", []))
        )
        positions = tuple(Placement(**at) for at in p.get("positions", []))
        if positions and len(positions) != len(course):
            raise BoardError(
                f"{len(positions)} positions for {len(course)} course cards; give one per card",
                f"{place}.positions",
            )
        club = Placement(**p["club_house"]) if "club_house" in p else None
        players.append(PlayerTable(p["name"], course, specials, p.get("distance_balls"), club, positions))
    _check_cards_in_play(players)
    return FrontNineTable(tuple(players), data.get("variant") == "small-table", tuple(review_warnings(data)))


def _card(cid: str, place: str, cards: Catalogue, kind: str, used: dict[str, str]) -> Any:
    """The catalogue card ``cid`` of ``kind`` ("course" or "special"), seen for the first time."""
    known = getattr(cards, kind)
    if cid not in known:
        other = "special" if kind == "course" else "course"
        hint = f" (it is a {other} card)" if cid in getattr(cards, other) else ""
        raise BoardError(f"unknown {kind} card {cid!r}{hint}", place)
    if cid in used:
        raise BoardError(f"card {cid!r} is already on the table at {used[cid]}; each card exists once", place)
    used[cid] = place
    return known[cid]


def _check_cards_in_play(players: list[PlayerTable]) -> None:
    """With 2 or 3 players only some course cards of each par are dealt into the game."""
    limits = COURSE_CARDS_USED.get(len(players))
    if limits is None:
        return
    shown = Counter(card.par for p in players for card in p.course)
    for par, count in sorted(shown.items()):
        if count > limits[par]:
            raise BoardError(
                f"{count} par-{par} course cards developed, but a {len(players)}-player game uses only {limits[par]}",
                "players",
            )
