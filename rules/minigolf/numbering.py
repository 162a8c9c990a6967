"""Hole numbers: read from the number tokens, inferred along the circuit where a token is missing.

A token names the completed hole that passes through its tile (its ``pathway`` picks one where two
holes cross; otherwise the hole whose green is on that tile). Holes without a token take the free
numbers in the order that joins the most circuit transitions, starting from the entrance.
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
    greens = [h for h in on if h.green.cell == cell]
    if len(on) > 1 and greens:
        on = greens
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

    free = [h for h in completed if not any(h is n for n in numbered.values())]
    missing = [n for n in range(1, HOLES + 1) if n not in numbered][: len(free)]
    chosen = _circuit_order(board.entrance.cell, numbered, missing, free)
    for number, hole in zip(missing, chosen, strict=True):
        numbered[number] = hole
        free.remove(hole)
        warnings.append(f"hole {number}: number inferred along the circuit (no number token read); check it")
    if free:
        warnings.append(f"{len(free)} completed hole(s) beyond 9 have no number and are not in the circuit")
    return Numbering(dict(sorted(numbered.items())), frozenset(missing), tuple(warnings))


def _circuit_order(entrance: Cell, numbered: dict[int, Hole], missing: list[int], free: list[Hole]) -> list[Hole]:
    """Holes for the ``missing`` numbers, chosen to join as many circuit transitions as possible.

    From each green (the entrance at first) the search tries every free hole whose tee joins it; when
    none does, only the nearest (branching is at most five: same tile and four neighbours; memoized).
    """
    def joins(a: Cell, b: Cell, same_tile: bool) -> bool:
        return distance(a, b) == 1 or (same_tile and a == b)

    memo: dict[tuple, tuple[int, list[Hole]]] = {}

    def search(number: int, prev: Cell, left: list[Hole]) -> tuple[int, list[Hole]]:
        key = (number, prev, tuple(id(h) for h in left))
        if key not in memo:
            memo[key] = step(number, prev, left)
        return memo[key]

    def step(number: int, prev: Cell, left: list[Hole]) -> tuple[int, list[Hole]]:
        if number > HOLES or (number not in numbered and not left):
            return (joins(prev, entrance, False) if number > HOLES else 0), []
        if number in numbered:
            hole = numbered[number]
            gain = joins(prev, hole.tee.cell, number > 1)
            score, rest = search(number + 1, hole.green.cell, left)
            return gain + score, rest
        ranked = sorted(left, key=lambda h: (distance(prev, h.tee.cell), h.tee.cell))
        options = [h for h in ranked if joins(prev, h.tee.cell, number > 1)] or ranked[:1]
        best: tuple[int, list[Hole]] = (-1, [])
        for hole in options:
            score, rest = search(number + 1, hole.green.cell, [h for h in left if h is not hole])
            gain = joins(prev, hole.tee.cell, number > 1)
            if gain + score > best[0]:
                best = (gain + score, [hole, *rest])
        return best

    return search(1, entrance, free)[1] if missing else []
