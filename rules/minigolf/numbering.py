"""Hole numbers: read from the number tokens, inferred along the circuit where a token is missing.

A token names the completed hole that passes through its tile (its ``pathway`` picks one where two
holes cross; otherwise the hole whose green is on that tile). Holes without a token take the free
numbers in circuit order: starting at the entrance, each next number goes to the unnumbered hole
whose tee is nearest the previous green (same tile first, then orthogonal distance).
"""

from __future__ import annotations

from dataclasses import dataclass

from rules.minigolf.board import Board, Cell, Token
from rules.minigolf.trace import Hole

HOLES = 9


@dataclass(frozen=True)
class Numbering:
    holes: dict[int, Hole]  # number -> completed hole
    inferred: frozenset[int]
    warnings: tuple[str, ...]


def distance(a: Cell, b: Cell) -> int:
    return abs(a[0] - b[0]) + abs(a[1] - b[1])


def _token_hole(token: Token, completed: tuple[Hole, ...]) -> tuple[Hole | None, str]:
    cell = (token.row, token.col)
    on = [h for h in completed
          if any(s.cell == cell and token.pathway in (None, s.pathway) for s in h.steps)]
    if len(on) > 1:
        on = [h for h in on if h.green.cell == cell]
    where = f"number token {token.number} at ({token.row},{token.col}) [{token.place}]"
    if not on:
        return None, f"{where} is not on a completed hole; ignored"
    if len(on) > 1:
        return None, f"{where} lies on {len(on)} holes; give its pathway; ignored"
    return on[0], ""


def number_holes(board: Board, completed: tuple[Hole, ...]) -> Numbering:
    """Number the completed holes 1-9 (extra holes stay unnumbered)."""
    numbered: dict[int, Hole] = {}
    warnings: list[str] = []
    for token in sorted(board.tokens, key=lambda t: t.number):
        hole, problem = _token_hole(token, completed)
        if hole is None:
            warnings.append(problem)
        elif token.number in numbered:
            warnings.append(f"number token {token.number} appears twice [{token.place}]; the second is ignored")
        elif any(h is hole for h in numbered.values()):
            warnings.append(f"hole {hole.describe()} has two number tokens; token {token.number} ignored")
        else:
            numbered[token.number] = hole

    inferred: set[int] = set()
    free = [h for h in completed if not any(h is n for n in numbered.values())]
    previous: Cell = board.entrance.cell
    for number in range(1, HOLES + 1):
        if number not in numbered and free:
            best = min(free, key=lambda h, p=previous: (distance(p, h.tee.cell), h.tee.cell))
            free.remove(best)
            numbered[number] = best
            inferred.add(number)
            warnings.append(f"hole {number}: number inferred along the circuit (no number token read); check it")
        if number in numbered:
            previous = numbered[number].green.cell
    if free:
        warnings.append(f"{len(free)} completed hole(s) beyond 9 have no number and are not in the circuit")
    return Numbering(dict(sorted(numbered.items())), frozenset(inferred), tuple(warnings))
