"""The Front Nine final scoring: distance, three resource rankings, income-card stars, course par.

Example:
    >>> {n: p.points for n, p in placings({"a": 6, "b": 6, "c": 2}, lowest_best=False).items()}
    {'a': 4, 'b': 4, 'c': 1}
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rules.common import BoardError, GameResult, PlayerScore, ScoreLine, Standing, note_ties, rank_by_key
from rules.frontnine.board import FrontNineTable, PlayerTable
from rules.frontnine.catalogue import RESOURCES, values
from rules.frontnine.geometry import gap_mm

PLACE_POINTS = (5, 3, 1)
MAX_BALLS = 19  # beyond the 19th ball of the scale: no points, no rank
PAR_TARGET = 36
PAR_POINTS = 5


@dataclass(frozen=True)
class Placing:
    """A player's place in one ranked category; ``tied`` players share places place..place+tied-1."""

    place: int
    tied: int
    points: int

    def why(self) -> str:
        if self.tied == 1:
            return f"{ordinal(self.place)} place"
        shared = [_place_points(k) for k in range(self.place, self.place + self.tied)]
        exact = sum(shared) % self.tied == 0
        return (
            f"{self.tied}-way tie for {ordinal(self.place)}: ({' + '.join(map(str, shared))}) / {self.tied}"
            f"{'' if exact else ' rounded down'} = {self.points}"
        )


def ordinal(n: int) -> str:
    return f"{n}{ {1: 'st', 2: 'nd', 3: 'rd'}.get(n if n < 20 else n % 10, 'th') }"


def _place_points(place: int) -> int:
    return PLACE_POINTS[place - 1] if place <= len(PLACE_POINTS) else 0


def placings(values: dict[str, float], lowest_best: bool) -> dict[str, Placing]:
    """5/3/1 points for 1st/2nd/3rd; tied players add the points of the places they fill, divide, round down."""
    order = sorted(values, key=lambda n: values[n] if lowest_best else -values[n])
    out: dict[str, Placing] = {}
    place = 1
    while place <= len(order):
        group = [n for n in order if values[n] == values[order[place - 1]]]
        share = sum(_place_points(k) for k in range(place, place + len(group))) // len(group)
        out.update({n: Placing(place, len(group), share) for n in group})
        place += len(group)
    return out


def distance_balls(player: PlayerTable, standin: dict[str, Any]) -> tuple[float | None, str]:
    """The distance in golf balls and how it was found: measured, or from the card positions."""
    if player.distance_balls is not None:
        return player.distance_balls, "measured"
    if player.positions and player.club_house:
        gap = gap_mm(player.club_house, standin["club_house_mm"], player.positions[-1], standin["card_mm"])
        ball = standin["ball_mm"]
        return round(gap / ball, 1), f"from card positions: {gap:.0f} mm at the stand-in {ball:g} mm per ball"
    return None, ""


def resource_counts(player: PlayerTable) -> dict[str, tuple[int, int]]:
    """Per resource: (count on developed course cards, bonus from Natural cards)."""
    return {
        r: (
            sum(card.features.get(r, 0) for card in player.course),
            sum(card.bonus.get(r, 0) for card in player.specials),
        )
        for r in RESOURCES
    }


def _distance_lines(table: FrontNineTable, standin: dict[str, Any]) -> tuple[dict[str, ScoreLine], list[str]]:
    lines: dict[str, ScoreLine] = {}
    warnings = []
    ranked: dict[str, tuple[float, str]] = {}
    for p in table.players:
        if table.small_table:
            lines[p.name] = ScoreLine("distance", 0, "Small Table variant: distance is not scored")
            continue
        dist, how = distance_balls(p, standin)
        if not p.course:
            lines[p.name] = ScoreLine("distance", 0, "no course card developed: no distance")
        elif dist is None:
            lines[p.name] = ScoreLine("distance", 0, "distance not measured: no points")
            warnings.append(f"{p.name}: distance from the club house is not given; scored 0")
        elif dist > MAX_BALLS:
            lines[p.name] = ScoreLine(
                "distance", 0, f"{dist:.1f} balls ({how}): beyond the {MAX_BALLS}th ball, no rank"
            )
        else:
            ranked[p.name] = (dist, how)
    for name, placing in placings({n: d for n, (d, _) in ranked.items()}, lowest_best=True).items():
        dist, how = ranked[name]
        lines[name] = ScoreLine("distance", placing.points, f"{dist:.1f} balls ({how}): {placing.why()}")
    return lines, warnings


def _resource_lines(table: FrontNineTable, resource: str) -> dict[str, ScoreLine]:
    counts = {p.name: resource_counts(p)[resource] for p in table.players}
    eligible = {n: sum(c) for n, c in counts.items() if sum(c) >= 1}
    ranked = placings(eligible, lowest_best=False)
    lines = {}
    for p in table.players:
        on_course, natural = counts[p.name]
        design = any(card.kind == "design" and card.resource == resource for card in p.specials)
        if p.name not in ranked:
            lines[p.name] = ScoreLine(resource, 0, f"no {resource}: at least 1 is needed to rank")
            continue
        held = f"{on_course + natural} {resource}" + (
            f" ({on_course} on the course + {natural} Natural)" if natural else ""
        )
        why = f"{held}: {ranked[p.name].why()}"
        points = ranked[p.name].points
        if design:
            why += f"; Special Design doubles: {points} x 2"
            points *= 2
        lines[p.name] = ScoreLine(resource, points, why)
    return lines


def _par_line(player: PlayerTable) -> ScoreLine:
    total = sum(card.par for card in player.course)
    points = max(0, PAR_POINTS - abs(total - PAR_TARGET))
    return ScoreLine(
        "course par",
        points,
        f"total par {total} over {len(player.course)} holes: max(0, {PAR_POINTS} - |{total} - {PAR_TARGET}|) = {points}",
    )


def score(boards: list[FrontNineTable], options: dict | None = None) -> GameResult:
    """Score the whole table (one board file: the rankings need every player)."""
    if len(boards) != 1:
        raise BoardError(f"{len(boards)} files given; one The Front Nine file holds the whole table")
    table = boards[0]
    standin = values()
    distance, warnings = _distance_lines(table, standin)
    resources = {r: _resource_lines(table, r) for r in RESOURCES}
    scores = []
    for p in table.players:
        lines = [distance[p.name]] + [resources[r][p.name] for r in RESOURCES]
        lines += [
            ScoreLine(c.name, c.stars, "income card star bonus") for c in p.specials if c.kind == "income"
        ]
        lines.append(_par_line(p))
        counts = resource_counts(p)
        player_warnings = [
            f"{c.name} ({c.id}) is discarded after use and scores nothing"
            for c in p.specials
            if c.kind == "market-offer"
        ]
        details = {
            "holes": len(p.course),
            "par": sum(card.par for card in p.course),
            "resources": {r: sum(counts[r]) for r in RESOURCES},
            "distance_balls": distance_balls(p, standin)[0],
        }
        scores.append(PlayerScore(p.name, lines, player_warnings, details))
    warnings = list(table.warnings) + warnings
    if standin["catalogue"] is None:
        warnings.append(
            "card pars and trees/sand/water come from golfscan's stand-in card list, not the printed cards"
        )
    if len(table.players) == 1:
        warnings.append(
            "1 player: the rankings (distance, resources) need 2 or more players; scored as if first"
        )
    return GameResult("the-front-nine", scores, standings(scores), warnings)


def standings(scores: list[PlayerScore]) -> list[Standing]:
    """Highest total wins; a tie goes to the player with more resources (developed + Natural)."""
    held = {s.player: sum(s.details["resources"].values()) for s in scores}
    ranked = rank_by_key(scores, lambda s: (-s.total, -held[s.player]))
    return note_ties(ranked, lambda player: f"tie on points, {held[player]} resources decide")
