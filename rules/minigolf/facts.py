"""Everything the scoring reads about one board, computed once: holes, numbers, circuit, land, arrows."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

from rules.minigolf.board import Board
from rules.minigolf.catalogue import LANDS, rotate_edge
from rules.minigolf.circuit import Transition, transitions
from rules.minigolf.land import LandFit, fit
from rules.minigolf.numbering import HOLES, Numbering, number_holes
from rules.minigolf.trace import Course, Hole, Step, trace

PAR_TARGET = 36  # cubes per player
GREEN_AREA = range(3, 6)  # par 3-5


def arrow_ok(step: Step) -> bool | None:
    """Whether the arrow on this step's pathway points the way the hole is played (None: no arrow)."""
    tile = step.placement.tile
    if tile is None or tile.arrow is None or tile.arrow.pathway != step.pathway:
        return None
    return step.leave == rotate_edge(tile.arrow.to, step.placement.rotation)


@dataclass(frozen=True)
class Facts:
    board: Board

    @cached_property
    def course(self) -> Course:
        return trace(self.board)

    @cached_property
    def numbering(self) -> Numbering:
        return number_holes(self.board, self.course.completed)

    @cached_property
    def circuit(self) -> list[Transition]:
        return transitions(self.board, self.numbering)

    @cached_property
    def land(self) -> LandFit | None:
        land = self.board.setup.land
        return fit(self.board, LANDS[land]) if land else None

    @cached_property
    def arrows(self) -> tuple[list[Step], list[Step]]:
        """(correct, wrong) arrow steps on completed holes."""
        checked = [(s, arrow_ok(s)) for h in self.course.completed for s in h.steps]
        return [s for s, ok in checked if ok], [s for s, ok in checked if ok is False]

    @property
    def completed(self) -> tuple[Hole, ...]:
        return self.course.completed

    @property
    def total_par(self) -> int:
        return sum(h.par for h in self.completed)

    @property
    def green_area_holes(self) -> list[Hole]:
        return [h for h in self.completed if h.par in GREEN_AREA]

    @property
    def par_points(self) -> int:
        """2 per hole in the green area, -1 per leftover or extra (black) cube."""
        return 2 * len(self.green_area_holes) - abs(PAR_TARGET - self.total_par)

    @property
    def playability_points(self) -> int:
        """The (negative) playability total: hole count, badly built holes, mismatches, wrong arrows."""
        return (
            (0 if len(self.completed) == HOLES else -10)
            - 3 * len(self.course.badly_built)
            - 3 * len(self.course.mismatches)
            - len(self.arrows[1])
        )

    @property
    def grass_tiles(self) -> int:
        return sum(1 for p in self.board.tiles if p.tile and p.tile.is_grass)

    def feature(self, name: str) -> int:
        return sum(p.tile.features[name] for p in self.board.tiles if p.tile)

    def number_of(self, hole: Hole) -> str:
        """'hole 3' for a numbered hole, else a description of its tee."""
        n = next((k for k, h in self.numbering.holes.items() if h is hole), None)
        return f"hole {n}" if n else f"unnumbered hole from {hole.tee.placement.label}"
