"""The Front Nine card catalogue (a stand-in: the printed card list is not public) and stand-in values.

Example:
    >>> cards = catalogue()
    >>> cards.course["c09"].par, cards.course["c09"].cost["water"], cards.special["pro-shop"].stars
    (4, 3, 3)
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rules.common import BoardError
from rules.standins import standins

GAME = "the-front-nine"
HERE = Path(__file__).resolve().parent
RESOURCES = ("trees", "sand", "water")


def values() -> dict[str, Any]:
    """The Front Nine's stand-in values (defaults updated by any overrides)."""
    return standins(GAME, HERE / "standins.json")


@dataclass(frozen=True)
class CourseCard:
    id: str
    par: int
    land: int  # land cost in GBP at face value
    cost: dict[str, int]  # resource cubes to develop
    income: int
    features: dict[str, int]  # trees / sand / water drawn on the card


@dataclass(frozen=True)
class SpecialCard:
    id: str
    kind: str  # income, design, natural, license, market-offer
    name: str
    stars: int = 0  # VP of an income card
    resource: str = ""  # the resource of a design or license card
    bonus: dict[str, int] = field(default_factory=dict)  # resources a natural card adds


@dataclass(frozen=True)
class Catalogue:
    course: dict[str, CourseCard]
    special: dict[str, SpecialCard]


def catalogue() -> Catalogue:
    """Load the card catalogue: the built-in one, or the file named by the ``catalogue`` stand-in."""
    override = values()["catalogue"]
    path = Path(override) if override else HERE / "cards.json"
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        course = {
            c["id"]: CourseCard(**{k: c[k] for k in CourseCard.__dataclass_fields__}) for c in data["course"]
        }
        special = {
            s["id"]: SpecialCard(**{k: s[k] for k in SpecialCard.__dataclass_fields__ if k in s})
            for s in data["special"]
        }
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise BoardError(
            f"cannot read the card catalogue ({exc.__class__.__name__}: {exc})", file=str(path)
        ) from None
    return Catalogue(course, special)
