"""Read one square from its measurements (``features.measure``) and the network's kind probabilities
(``squares.kind_probabilities``): what is drawn in it, which edges it uses, and how sure we are.

The network says what the square is; the strokes say which way it runs: a fairway uses the two edges its
lines reach furthest along, a tee/green is split by the diagonal that runs on ink, and each of its
triangles connects through the edge its stub's lines run from (``features.stub_ink``). The confidence is
the lower of the network's probability and how clearly the strokes decide the edges (a logistic function
of the margin), so a reading near a decision is flagged for review.

Example:
    >>> import numpy as np
    >>> from scanner.games.eighteen.features import measure
    >>> from scanner.games.eighteen.squares import KINDS
    >>> ink = np.zeros((64, 64), np.float32); ink[:, 20:23] = 1; ink[:, 42:45] = 1
    >>> probs = np.eye(len(KINDS))[KINDS.index("fairway")]
    >>> guess = read_square(measure(ink, 0.3), probs)
    >>> guess.value, guess.confidence > 0.9
    ({'k': 'fairway', 'edges': ['N', 'S']}, True)
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from math import exp

import numpy as np

from scanner.games.eighteen.features import EDGES, CellFeatures, stub_ink
from scanner.games.eighteen.squares import KINDS

FAIRWAY_GAP = 0.08  # a fairway's second edge is reached this much further along than any third edge
DIAGONAL_GAP = 0.04  # a tee/green's diagonal runs on this much more ink than the other diagonal
ALTERNATIVE = 0.02  # other kinds at least this probable are listed as alternatives
BARE = 0.002  # a square with less ink than this share, in no piece, is blank whatever the network says
SPLIT = 0.97  # a fairway read over an unbroken corner-to-corner line this sure may be a tee/green whose
# triangle is shaded over (shaded fairways reach it for 1-3 in 100, tee/greens nearly always)
SPLIT_DOUBT = 0.7  # confidence cap of such a fairway reading
LINED = 0.9  # a fairway over a corner-to-corner line this unbroken keeps the line's triangles (``Guess.halves``): a
# par digit found in it makes it a tee/green after all (``plan.par_in_fairway``; hatching may break the line
# a little) ...
LINED_ALONE = 0.25  # ... when the other diagonal runs on this much less ink: shading inks both nearly alike (0.16-0.19
# apart in the shaded fairways of the tuning plans that held a digit-like piece, 0.28-0.34 in the outside plans'
# shaded tee/greens)

# The two triangles a diagonal makes, each with its two edges: TL-BR diagonal, then BL-TR diagonal.
HALVES = {0: (("N", "E"), ("S", "W")), 1: (("N", "W"), ("S", "E"))}


def sure(value: float, threshold: float, scale: float) -> float:
    """Confidence that ``value`` lies above ``threshold``: 0.5 at it, near 1 a few ``scale`` above."""
    z = max(-30.0, min(30.0, (value - threshold) / scale))
    return 1.0 / (1.0 + exp(-z))


@dataclass(frozen=True)
class Guess:
    """A square's reading. For a tee/green, ``halves`` holds the stub ink at the two edges of each
    triangle (in ``HALVES[diagonal]`` order), and ``ends`` the whole-square reader's log-odds that a stub
    leaves by each edge (``EDGES`` order) and that the first triangle is the tee (``plan.with_edge_reading``)."""

    value: dict
    confidence: float
    alternatives: tuple[tuple[dict, float], ...] = ()
    note: str = ""
    diagonal: int = -1  # 0 = TL-BR, 1 = BL-TR for a tee/green square (and a fairway over such a line)
    halves: tuple[tuple[float, float], ...] = field(default=())
    ends: tuple[float, ...] = ()  # per edge, then the first triangle as the tee; empty when not read


def _fairway(f: CellFeatures) -> tuple[dict, float, tuple]:
    """The two edges the fairway's strokes reach, sure by how much the second beats the third; the third offered
    in place of either, in place of the first as likely as the first and the second are alike (a tie, even odds).
    """
    evidence = sorted(((f.crossings[e].extent, e) for e in EDGES), reverse=True)
    (ea, a), (eb, b), (ec, third), _ = evidence
    conf = sure(eb - ec, FAIRWAY_GAP, 0.03)
    first_stays = sure(ea - eb, 0.0, 0.03)
    pairs = (((a, third), (1 - conf) * first_stays), ((b, third), (1 - conf) * (1 - first_stays)))
    alternatives = tuple(({"k": "fairway", "edges": sorted(pair, key=EDGES.index)}, p) for pair, p in pairs
                         if p >= ALTERNATIVE)
    return {"k": "fairway", "edges": sorted((a, b), key=EDGES.index)}, conf, alternatives


def turned_fairway(g: Guess, edges: list[str], note: str) -> Guess:
    """Fairway reading ``g`` turned to ``edges`` (as another reader or the neighbours have them), its own edges
    offered first at its own confidence, the turned pair no longer among its alternatives; the confidence stays.

    >>> g = Guess({"k": "fairway", "edges": ["N", "E"]}, 0.3, (({"k": "fairway", "edges": ["E", "W"]}, 0.6),))
    >>> turned = turned_fairway(g, ["E", "W"], "why")
    >>> turned.value["edges"], [(v["edges"], p) for v, p in turned.alternatives], turned.confidence
    (['E', 'W'], [(['N', 'E'], 0.3)], 0.3)
    """
    through = {"k": "fairway", "edges": edges}
    others = tuple(alt for alt in g.alternatives if alt[0] != through)
    return replace(g, value=through, alternatives=((g.value, g.confidence), *others), note=note)


def stub_halves(f: CellFeatures, diagonal: int) -> tuple[tuple[float, float], ...]:
    """The stub ink at each triangle's two edges (``HALVES[diagonal]`` order) of a square split by ``diagonal``."""
    ink = stub_ink(f.strokes, diagonal)
    return tuple((ink[a], ink[b]) for a, b in HALVES[diagonal])


def _teegreen(f: CellFeatures) -> tuple[int, tuple, float]:
    """The diagonal on ink, the stub ink at each triangle's two edges, and how sure the diagonal is."""
    best = 0 if f.diagonal[0] >= f.diagonal[1] else 1
    return best, stub_halves(f, best), sure(f.diagonal[best] - f.diagonal[1 - best], DIAGONAL_GAP, 0.02)


def _plain(kind: str) -> dict:
    if kind in ("Mb", "Mp"):
        return {"k": "mountain", "style": "black" if kind == "Mb" else "peak"}
    return {"k": kind}


def read_square(f: CellFeatures, probs: np.ndarray) -> Guess:
    """The reading of one square (rectified frame) from its measurements and kind probabilities.

    A tee/green's tee and green edges stay empty here: the par digit decides which triangle is the tee.
    """
    if f.ink < BARE and not f.blobs:  # nothing to read: the network only knows squares with some texture
        return Guess({"k": "empty"}, 1.0)
    order = np.argsort(-probs)
    kind, p = KINDS[order[0]], float(probs[order[0]])
    others = tuple((_plain(KINDS[j]), float(probs[j])) for j in order[1:] if probs[j] >= ALTERNATIVE
                   and KINDS[j] not in ("fairway", "teegreen"))
    if kind == "fairway":
        value, conf, alternatives = _fairway(f)
        lined = max(f.diagonal) >= LINED and abs(f.diagonal[0] - f.diagonal[1]) >= LINED_ALONE
        diagonal, halves = _teegreen(f)[:2] if lined else (-1, ())
        if max(f.diagonal) >= SPLIT:
            return Guess(value, min(p, conf, SPLIT_DOUBT), alternatives + others,
                         note="a corner-to-corner line: may be a tee/green", diagonal=diagonal, halves=halves)
        return Guess(value, min(p, conf), alternatives + others, diagonal=diagonal, halves=halves)
    if kind == "teegreen":
        diagonal, halves, conf = _teegreen(f)
        value = {"k": "teegreen", "green_edge": "", "tee_edge": "", "par": None}
        return Guess(value, min(p, conf), others, diagonal=diagonal, halves=halves)
    return Guess(_plain(kind), p, others)
