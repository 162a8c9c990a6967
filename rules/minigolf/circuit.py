"""The circuit: entrance -> tee 1, green 1 -> tee 2, ..., green 9 -> entrance (2 points per joined transition).

Joined means on the same tile (a green and the next tee) or on orthogonally adjacent cells.
A green -> tee transition is *aligned* (Mr Straightforward) when the direction of play into the
green equals the direction out of the next tee and that tee is on the same tile or the next tile
straight ahead.
"""

from __future__ import annotations

from dataclasses import dataclass

from rules.minigolf.board import Board, Cell
from rules.minigolf.catalogue import STEP
from rules.minigolf.numbering import HOLES, Numbering, distance
from rules.minigolf.trace import Hole


@dataclass(frozen=True)
class Transition:
    label: str  # e.g. "green 3 -> tee 4"
    joined: bool
    why: str
    aligned: bool = False  # only ever True for green -> tee transitions


def aligned(green: Hole, tee: Hole) -> bool:
    """Green of one hole and tee of the next in line (see module docstring)."""
    direction = green.direction_in
    if direction is None or direction != tee.direction_out:
        return False
    (r, c), (dr, dc) = green.green.cell, STEP[direction]
    return tee.tee.cell in (green.green.cell, (r + dr, c + dc))


def _join(a: Cell, b: Cell, same_tile_ok: bool) -> tuple[bool, str]:
    if a == b:
        return same_tile_ok, "on the same tile" if same_tile_ok else "on the same cell"
    d = distance(a, b)
    return d == 1, "adjacent" if d == 1 else f"not adjacent: ({a[0]},{a[1]}) to ({b[0]},{b[1]}), {d} steps apart"


def transitions(board: Board, numbering: Numbering) -> list[Transition]:
    """The ten transitions of the circuit, in order."""
    holes = numbering.holes
    entrance = board.entrance.cell
    out: list[Transition] = []
    for k in range(HOLES + 1):
        frm = "entrance" if k == 0 else f"green {k}"
        to = "entrance" if k == HOLES else f"tee {k + 1}"
        label = f"{frm} -> {to}"
        missing = [n for n in (k, k + 1) if 1 <= n <= HOLES and n not in holes]
        if missing:
            out.append(Transition(label, False, f"no completed hole {missing[0]}"))
            continue
        a = entrance if k == 0 else holes[k].green.cell
        b = entrance if k == HOLES else holes[k + 1].tee.cell
        joined, why = _join(a, b, same_tile_ok=0 < k < HOLES)
        in_line = 0 < k < HOLES and aligned(holes[k], holes[k + 1])
        out.append(Transition(label, joined, why + (", in line" if in_line else ""), in_line))
    return out
