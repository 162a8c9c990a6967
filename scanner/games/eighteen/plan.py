"""From per-square readings (in the rectified frame) to the upright plan: orientation, tee/green sides, par.

Orientation: the plan is photographed at any angle, so the rectified grid is upright after 0-3 quarter
turns. Par digits are written upright: for each quarter turn, each tee/green square votes with its most
digit-like ink piece, read as turned that way; trees (a canopy above a trunk) and flags add their votes.

Tee/green sides: the diagonal splits a square into two triangles, each with two edges. In each triangle
the edge its stub's lines run from is the connection, together with the neighbours across the edges (a
fairway there that ends on this edge, a tee/green whose stub leans to it). The triangle holding the par
digit is the tee; as a hole runs from one square's tee to another square's green, the digits' evidence is
pooled along each chain of linked holes, so a square whose digit is unreadable takes its sides from the
others (``tee_sides``).

Fairway edges: a fairway the strokes read doubtfully takes the two edges its settled neighbours join it by,
when exactly two do (``fairway_from_neighbours``): hatching that reaches a third edge misleads the strokes.

Par: the digit reader's reading of the most digit-like piece (``read_par``), read again from the whole square
(``with_square_reading``), the two readers' evidence pooled, and last weighed with the length of the hole it tees
off (``with_hole_length``): a player draws a hole as long as its par, as that scores. The par is the likeliest
of the three, as sure as the evidence makes it. A square whose par the whole-square reader is sure of
(``WHOLE_SQUARE_SURE``) is not cut into pieces at all, but for the first squares (which settle the orientation)
and a few of each chain of holes (``squares_to_locate``): the digits found there tell each hole's tee from its
green for the whole chain. A par read whole that its completed hole is not as long as is read from the square's
pieces too (``read_whole_against_holes``).

Example:
    >>> rotate_edge("N", 1), rotate_edge("E", 2)
    ('W', 'W')
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from functools import cache

import cv2
import numpy as np

from rules.eighteen.board import parse
from rules.eighteen.tracing import trace_holes
from scanner.games.eighteen.classify import (
    ALTERNATIVE,
    HALVES,
    SPLIT_DOUBT,
    Guess,
    stub_halves,
    sure,
    turned_fairway,
)
from scanner.games.eighteen.digits import LABELS, PAR, Candidate, read_rotations, read_turned, softmax, steady
from scanner.games.eighteen.features import EDGES, MARGIN, CellFeatures
from scanner.games.eighteen.square_edges import CLASSES as EDGE_PAIRS
from scanner.games.eighteen.square_par import CLASSES

CCW = {"N": "W", "W": "S", "S": "E", "E": "N"}  # where an edge goes when the grid turns a quarter anticlockwise
OPPOSITE = {"N": "S", "S": "N", "E": "W", "W": "E"}
STEP = {"N": (-1, 0), "E": (0, 1), "S": (1, 0), "W": (0, -1)}
PAR_REJECT = 0.5  # a piece read as a par digit with less probability than this leaves the par unreadable
UNSTEADY = 0.6  # confidence (flagged, still offered) of a par whose reading flips with a pixel of ink
AGREE = 2  # least excess of a mark's cuts reading its par over those reading another, for a sure par
NEIGHBOUR = 1.0  # weight of a neighbouring fairway that ends on an edge, against the strokes seen in the square
STUB_FLOOR = 0.3  # stub ink (side units) added to a triangle's total: faint strokes on both edges decide little
FLOOR = 0.1  # a vote's probability floor: one square moves the choice by at most log(1 / FLOOR)
EDGE_MARGIN = 0.8  # a triangle's edge is sure when it beats the other by this much (``lean`` plus neighbours):
# one stub's lines alone reach about 0.9, a neighbouring fairway ending on the edge adds 1
EDGE_SCALE = 0.05
ENDS_WEIGHT, SIDE_WEIGHT = 0.3, 0.5  # the whole-square edge reader's log-odds, scaled by these, join the
# strokes' margin for each triangle's edge and the digits' log-odds for the tee's triangle (``with_edge_reading``);
# it learnt our flags, and at a side weight of 1 it turned a whole chain of holes round on a plan drawn by
# another hand with other flags: a clear digit outweighs it
ENDS_CAP = 4.0  # ... each capped at this (a probability of about 0.98): it is one more reader, never certain
EARLY, EARLY_SURE = 3, 0.99  # the plan's orientation is settled by the first tee/greens read once this many
# of them make it this sure (``orientation_and_digits``; a plan whose top is in doubt is flagged below 0.9). Over
# 1,597 plans of seeds 16302-16802, 17602 and 17702, the first one to eight tee/greens (and the trees) made 1,487
# down to 1,383 plans this sure, never of a wrong turn; settled after three instead of six, a plan reads 11 ms
# sooner, its squares and pars read the same (only the orientation's own confidence moves). Not fewer: over 502
# plans of seeds 22602 and 22702, the other hand's six, 60 hard photos and 40 flat scans, settled after one square
# (3.5 squares read a plan against 5.9) the turn is always the same, but six plans whose digits, misread, leave the
# top in doubt once all are read (0.72-0.89, every read flagged) are settled surely by their trees and one square,
# and a hard photo's 9 wrong squares go unflagged; after two squares, three such plans
PAR_FITS_ODDS = 6.0  # a completed hole's length is this many times likelier its par than either other par:
# players draw a hole as long as its par, as that scores (69 of the 91 completed holes on plans drawn by another
# hand, odds of 6.3; 96% on ours, odds of 47): about what the other hand shows, so that a hand that draws its holes
# to other lengths is not misread. On the doubtful pars of 200 plans of seed 14402, odds of 4 left 33 of 3,884
# pars wrong and 6 left 28
UNLISTED = 0.01  # probability of a par that a reader did not offer (alternatives below this are not kept)
DIGIT_POWER, SQUARE_POWER = 0.25, 0.5  # the digit reader's and the whole-square reader's probabilities, raised to
# these, pooled make the par's probabilities (``pooled_evidence``), and with a completed hole's length
# (``PAR_FITS_ODDS``) its confidence: both readers are surer than they are right, and they share mistakes on a small
# or smudged digit. Chosen over 15,476 pars of 800 phone plans (seeds 18812-19102) and the 130 of the plans drawn by
# another hand: 53 wrong instead of 66, none of them given 0.92 or more (``PAR_SURE``), and 961 right pars flagged
# instead of 3,342; on the other hand's, none wrong and 8 flagged instead of 21 (at 0.1 and 0.5, 51 wrong on ours,
# and one wrong there: the hole's length, which that hand draws longer than the par a quarter of the time,
# weighed too much)


def rotate_edge(edge: str, turns: int) -> str:
    for _ in range(turns % 4):
        edge = CCW[edge]
    return edge


@dataclass(frozen=True)
class DigitRead:
    """The par digit of one tee/green square: value (None if unreadable), confidence, centre (0..1)."""

    par: int | None
    confidence: float
    centre: tuple[float, float] | None
    alternatives: tuple[tuple[int, float], ...] = ()
    patch: np.ndarray | None = None  # the ink piece read (binary, rectified frame)
    digit_like: float = 0.0  # probability that the piece is a par digit at all
    others: tuple[tuple[tuple[float, float], float], ...] = ()  # the other pieces: centre, digit-likeness
    evidence: tuple[float, ...] = ()  # probabilities of pars 3, 4, 5 from both readers (``pooled_evidence``)
    located: float | None = None  # the digit reader's own confidence in its piece, once the whole-square
    # reader has set the par's (``with_square_reading``): that reader says which par, not where it lies
    pieces_read: bool = True  # False: the square's ink was not cut into pieces, its par is the whole-square
    # reader's alone (``NOT_CUT``)

    @property
    def placed(self) -> float:
        """How surely the par digit lies where its piece does."""
        return self.confidence if self.located is None else self.located


@dataclass(frozen=True)
class Orientation:
    turns: int  # quarter turns anticlockwise that make the rectified grid upright
    scores: tuple[float, ...]  # log-evidence per number of turns
    confidence: float  # probability of the chosen turn among the four


def digit_probabilities(cands: list[Candidate], turns: int | None = None) -> np.ndarray:
    """(pieces, 4 turns, 4 classes) for the digit candidates of one square; with the plan's ``turns`` known,
    only that turn is read (the others left "other")."""
    if turns is not None:
        return digits_at_turn([cands], turns)[0]
    if not cands:
        return np.zeros((0, 4, len(LABELS)))
    return read_rotations([c.patch for c in cands])


def digits_at_turn(squares: list[list[Candidate]], turns: int) -> list[np.ndarray]:
    """``digit_probabilities`` at the plan's ``turns`` of each square's candidates, all read in one batch."""
    if not squares:
        return []
    patches = [c.patch for cands in squares for c in cands]
    probs = np.zeros((len(patches), 4, len(LABELS)))
    probs[:, :, -1] = 1.0
    if patches:
        probs[:, turns] = read_turned(patches, turns)
    return np.split(probs, np.cumsum([len(cands) for cands in squares])[:-1])


def orientation(per_square: list[np.ndarray], up_votes: np.ndarray) -> Orientation:
    """Choose the quarter turn from digit probabilities of every tee/green square and other up-cues.

    ``up_votes`` (4,) are additional log-evidence per turn (trees, flags).
    """
    # each square's best piece at each turn
    return weighed_turns(np.array([probs[:, :, :3].max(axis=2).max(axis=0) for probs in per_square if len(probs)]),
                         up_votes)


def weighed_turns(upright: np.ndarray, up_votes: np.ndarray) -> Orientation:
    """Choose the quarter turn from each tee/green square's probability (squares, 4) that its par digit stands
    upright at each turn, and other up-cues (``up_votes``, as for ``orientation``).

    >>> weighed_turns(np.array([[0.1, 0.9, 0.0, 0.0]] * 4), np.zeros(4)).turns
    1
    """
    scores = np.array(up_votes, float) + np.log(upright.reshape(-1, 4) + FLOOR).sum(axis=0)
    voters = int(np.count_nonzero(up_votes)) + len(upright)
    # The votes share one reader's habits, so they are not independent: temper the sum before it
    # becomes a probability.
    p = np.exp((scores - scores.max()) / np.sqrt(max(voters, 1)))
    p /= p.sum()
    turns = int(np.argmax(scores))
    return Orientation(turns, tuple(float(s) for s in scores), float(p[turns]))


def orientation_and_digits(squares: list[tuple[int, int]], candidates: Callable[[tuple[int, int]], list[Candidate]],
                           up_votes: np.ndarray) -> tuple[Orientation, dict[tuple[int, int], np.ndarray]]:
    """Which way is up (``orientation``), from the tee/green ``squares``' digit probabilities at all four turns
    (``digit_probabilities`` of their ``candidates``, cut only when asked for), read in turn until at least
    ``EARLY`` of them (and ``up_votes``) settle the orientation surely (``EARLY_SURE``); a plan whose digits do
    not settle it soon is read at all four turns throughout. Returns the orientation and the probabilities of
    the squares read: the rest are read, where they need to be, at that turn alone (``digits_at_turn``), which
    reads them just as at all four (the turn is all a par is read at) for a quarter of the work.
    """
    probs: dict[tuple[int, int], np.ndarray] = {}
    orient = orientation([], up_votes)
    for i, sq in enumerate(squares):
        if i >= EARLY and orient.confidence >= EARLY_SURE:
            break
        probs[sq] = digit_probabilities(candidates(sq))
        orient = orientation(list(probs.values()), up_votes)
    return orient, probs


def read_par(cands: list[Candidate], probs: np.ndarray, turns: int) -> DigitRead:
    """The par digit of a square, read with the plan's orientation (``read_pars`` for one square)."""
    return read_pars({None: (cands, probs)}, turns)[None]


def read_pars(squares: dict, turns: int) -> dict:
    """The par digit of each square (key -> its candidates and their ``digit_probabilities``), read with the
    plan's orientation (``_par_reading``); a par that would be sure is flagged (``UNSTEADY``) when its piece's
    reading is not ``steady``, the pieces of all squares asked at once."""
    reads = {key: _par_reading(cands, probs, turns) for key, (cands, probs) in squares.items()}
    asked = [key for key, read in reads.items() if read.confidence > UNSTEADY]
    verdicts = steady([reads[key].patch for key in asked], turns)
    return reads | {key: replace(reads[key], confidence=UNSTEADY) for key, ok in zip(asked, verdicts, strict=True) if not ok}


def _par_reading(cands: list[Candidate], probs: np.ndarray, turns: int) -> DigitRead:
    """The par digit of a square from its best piece, as sure as its rivals and the mark's other cuts let it be
    (before the steadiness of its reading is asked)."""
    if not len(probs):
        return DigitRead(None, 0.0, None)
    upright = probs[:, turns, :]
    best = int(upright[:, :3].max(axis=1).argmax())
    p = upright[best]
    order = np.argsort(-p[:3])
    value = PAR[LABELS[order[0]]]
    # another piece of the square read as another par puts the digit itself in doubt; pieces that share
    # ink with the chosen one are other cuts of the same mark (a part of it, or it with a neighbour)
    apart = [i for i, c in enumerate(cands) if i != best and not overlaps(c, cands[best])]
    rival = float(np.delete(upright[apart, :3], order[0], axis=1).max()) if apart else 0.0
    confidence = float(p[order[0]]) * (1.0 - rival)
    # the same mark cut at the other ink levels reads the same: a reading that only one cut gives, or that
    # about as many cuts give another par, is a guess (a line junction passing for a 4 at one level)
    same_mark = [i for i, c in enumerate(cands) if overlaps(c, cands[best])]
    reads = upright[same_mark].argmax(axis=1)
    if int((reads == order[0]).sum()) < int(((reads != order[0]) & (reads < 3)).sum()) + AGREE:
        confidence = min(confidence, UNSTEADY)
    # a par read only with erased strokes put back may have taken a line's piece for a digit's stroke
    as_cut = [read for i, read in zip(same_mark, reads, strict=True) if not cands[i].restored]
    if cands[best].restored and order[0] not in as_cut:
        confidence = min(confidence, UNSTEADY)
    alternatives = tuple((PAR[LABELS[j]], float(p[j])) for j in order[1:] if p[j] > UNLISTED)
    digit_like = float(p[:3].sum())
    others = tuple((c.centre, float(upright[i, :3].sum())) for i, c in enumerate(cands) if i != best)
    # a rival or an unsteady reading makes the par doubtful (flagged), yet the piece's own reading is still
    # the best guess to offer; only a piece that is itself no clear digit leaves the par unread
    if p[order[0]] < PAR_REJECT:
        return DigitRead(None, confidence, cands[best].centre, ((value, confidence),) + alternatives,
                         cands[best].patch, digit_like, others)
    return DigitRead(value, confidence, cands[best].centre, alternatives, cands[best].patch, digit_like, others)


def with_square_reading(digit: DigitRead, probs: np.ndarray) -> DigitRead:
    """The par read again with the whole-square reader's probabilities ``probs`` (``square_par``: 3, 4, 5, no
    digit): the par the two readers' pooled evidence (``pooled_evidence``) makes likeliest, as sure as it makes it
    (``decided``). Where the digit lies stays the digit reader's reading. They fail differently: the digit reader
    when the cut breaks a digit or joins it to a line, the square reader when a digit is small."""
    return decided(replace(digit, evidence=pooled_evidence(digit, probs)), 1.0)


def decided(digit: DigitRead, odds: np.ndarray | float) -> DigitRead:
    """The par of ``digit``'s evidence weighed by ``odds`` (per par, or one for all): the likeliest, with its
    probability as its confidence and the others offered."""
    p = np.asarray(digit.evidence) * odds
    p = p / p.sum()
    order = np.argsort(-p)
    others = tuple((CLASSES[j], float(p[j])) for j in order[1:] if p[j] > UNLISTED)
    return replace(digit, par=CLASSES[order[0]], confidence=float(p[order[0]]), alternatives=others,
                   located=digit.placed)


def hole_lengths(squares: list[list[Guess]]) -> dict[tuple[int, int], int]:
    """The length of the hole teeing off each tee/green square of the readings (0: incomplete), traced as the
    rules trace it."""
    cells = [[g.value for g in row] for row in squares]
    board = parse({"grid": {"rows": len(cells), "cols": len(cells[0])}, "cells": cells})
    return {hole.tee: hole.length for hole in trace_holes(board)}


def fitted_to_holes(squares: list[list[Guess]], digits: dict, guesses: list[list[Guess]], sides: dict
                    ) -> tuple[list[list[Guess]], dict]:
    """Every par of the readings ``squares`` weighed again with the length of the completed hole it tees off
    (``with_hole_length``), and its square resolved again (``resolve_teegreen`` of ``guesses`` and ``sides``)
    where that changes the par. A square no longer read as a tee/green (walled in by blacked-out squares, and
    read as blacked out too) has no par: its digit reading is dropped. Returns the squares and the pars."""
    pars = {sq: digit for sq, digit in digits.items() if squares[sq[0]][sq[1]].value["k"] == "teegreen"}
    lengths = hole_lengths(squares)
    out = [list(row) for row in squares]
    for (r, c), digit in pars.items():
        pars[r, c] = fitted = with_hole_length(digit, lengths[r, c])
        if fitted.par != digit.par:  # the square's reading holds its par; its sureness is the par's own
            out[r][c] = resolve_teegreen(guesses, r, c, fitted, sides[r, c])
    return out, pars


def read_whole_against_holes(squares: list[list[Guess]], digits: dict[tuple[int, int], DigitRead]
                             ) -> list[tuple[int, int]]:
    """The tee/green squares of the readings ``squares`` whose par was read whole (not cut into pieces,
    ``NOT_CUT``) and is not the length of the completed hole it tees off: read from their pieces too, the two
    readers agreeing stand against the hole's length (``with_hole_length``), where one reader alone is doubted.

    >>> tee = Guess({"k": "teegreen", "tee_edge": "E", "green_edge": "W", "par": 3}, 0.9)
    >>> fairway = Guess({"k": "fairway", "edges": ["E", "W"]}, 0.9)
    >>> green = Guess({"k": "teegreen", "tee_edge": "S", "green_edge": "W", "par": 4}, 0.9)
    >>> plan = [[tee, fairway, fairway, green]]  # a hole of 4 squares teeing off (0, 0)
    >>> read_whole = replace(NOT_CUT, par=3)
    >>> read_whole_against_holes(plan, {(0, 0): read_whole, (0, 3): replace(NOT_CUT, par=4)})
    [(0, 0)]
    >>> read_whole_against_holes(plan, {(0, 0): replace(read_whole, pieces_read=True)})
    []
    """
    lengths = hole_lengths(squares)
    return [(r, c) for (r, c), digit in digits.items() if not digit.pieces_read and squares[r][c].value["k"] == "teegreen"
            and lengths[r, c] in CLASSES[:3] and lengths[r, c] != digit.par]


def pooled_evidence(digit: DigitRead, probs: np.ndarray) -> tuple[float, ...]:
    """Probabilities of pars 3, 4 and 5 from the digit reader's reading ``digit`` and the whole-square reader's
    ``probs``, each tempered (``DIGIT_POWER``, ``SQUARE_POWER``): both are surer than they are right, and they
    share mistakes on a small or smudged digit.

    >>> read = DigitRead(4, 0.6, None, ((3, 0.3),))
    >>> [round(p, 2) for p in pooled_evidence(read, np.array([0.5, 0.4, 0.05, 0.05]))]
    [0.45, 0.48, 0.06]
    >>> unread = DigitRead(None, 0.1, None, ((3, 0.1),))
    >>> [round(p, 2) for p in pooled_evidence(unread, np.array([0.97, 0.01, 0.01, 0.01]))]
    [0.89, 0.05, 0.05]
    """
    own = {v: UNLISTED for v in CLASSES[:3]} | {v: max(p, UNLISTED) for v, p in digit.alternatives if v is not None}
    if digit.par is not None:
        own[digit.par] = max(digit.confidence, UNLISTED)
    logs = DIGIT_POWER * np.log([own[v] for v in CLASSES[:3]]) + SQUARE_POWER * np.log(probs[:3] + 1e-3)
    return tuple(float(v) for v in softmax(logs))


def with_hole_length(digit: DigitRead, length: int) -> DigitRead:
    """The par read again knowing that it tees off a completed hole of ``length`` squares (0: incomplete): its
    readers' evidence (``evidence``) with the odds that a hole is as long as its par (``PAR_FITS_ODDS``) decides.

    >>> read = DigitRead(3, 0.5, None, evidence=(0.7, 0.2, 0.1))
    >>> [with_hole_length(read, length).par for length in (4, 5, 0)]
    [4, 3, 3]
    """
    if length not in CLASSES[:3] or not digit.evidence:
        return digit
    return decided(digit, np.array([PAR_FITS_ODDS if v == length else 1.0 for v in CLASSES[:3]]))


READER_DIAGONAL = 0.9  # the whole-square edge reader this sure that the tee's and green's edges are ones only the
# other diagonal splits turns a tee/green's diagonal round (``with_reader_diagonal``) ...
DIAGONAL_DOUBT = 0.6  # ... and the square is flagged, below this


def splits(diagonal: int, a: str, b: str) -> bool:
    """Whether ``diagonal`` (0 = TL-BR, 1 = BL-TR) puts edges ``a`` and ``b`` in different triangles.

    >>> splits(0, "N", "E"), splits(1, "N", "E"), splits(0, "N", "S"), splits(1, "N", "S")
    (False, True, True, True)
    """
    first = HALVES[diagonal][0]
    return (a in first) != (b in first)


def reader_pairs(probs: np.ndarray, turns: int) -> list[tuple[str, str, float]]:
    """The whole-square edge reader's (tee edge, green edge, probability) for each pair it reads (``square_edges``,
    read upright), the edges turned back into the rectified frame (the plan turned ``turns`` quarter turns to be
    upright).

    >>> probs = np.zeros(len(EDGE_PAIRS)); probs[EDGE_PAIRS.index(("N", "E"))] = 1.0
    >>> [pair for pair in reader_pairs(probs, 1) if pair[2]]
    [('E', 'S', 1.0)]
    """
    return [(*(rotate_edge(e, -turns) for e in pair), float(p))
            for pair, p in zip(EDGE_PAIRS, probs, strict=True) if pair is not None]


def with_reader_diagonal(g: Guess, f: CellFeatures, probs: np.ndarray, turns: int) -> Guess:
    """A tee/green split by the other diagonal when the whole-square edge reader (``square_edges``: the (tee
    edge, green edge) pairs' probabilities, read upright, the plan turned ``turns`` quarter turns to be so)
    puts ``READER_DIAGONAL`` of its belief on pairs that only the other diagonal splits; its stub ink
    (``f``'s strokes) taken again for that diagonal, and flagged. The strokes pick the diagonal that runs on
    more ink, and where a tee/green's shading, hatching or a stub along the other diagonal inks both alike,
    that choice is a guess: of 3,884 tee/greens on 200 photographed plans (seed 14402) 11 were split by the
    wrong diagonal, 7 of them with both diagonals inked exactly alike, and the reader put at least 0.96 on
    the right one for each, and never 0.5 against a right one; on the outside plans it never did.
    """
    if g.value["k"] != "teegreen" or g.diagonal < 0:
        return g
    other = 1 - g.diagonal
    belief = sum(float(p) for tee, green, p in reader_pairs(probs, turns)
                 if splits(other, tee, green) and not splits(g.diagonal, tee, green))
    if belief < READER_DIAGONAL:
        return g
    note = "; ".join(n for n in (g.note, "the other diagonal, as the whole square reads") if n)
    return replace(g, confidence=min(g.confidence, DIAGONAL_DOUBT), note=note, diagonal=other,
                   halves=stub_halves(f, other))


def with_edge_reading(g: Guess, probs: np.ndarray, turns: int) -> Guess:
    """A tee/green reading with the whole-square edge reader's evidence (``square_edges``: probabilities of
    the (tee edge, green edge) pairs, read upright, the plan turned ``turns`` quarter turns to be so): for each
    edge, the log-odds that a stub leaves by it, and the log-odds that the first triangle of the square's
    diagonal (``HALVES``) holds the tee. Pairs that the diagonal does not split apart are left out.

    >>> g = Guess({"k": "teegreen"}, 0.9, diagonal=0)  # triangles (N, E) and (S, W)
    >>> probs = np.zeros(len(EDGE_PAIRS)); probs[EDGE_PAIRS.index(("N", "S"))] = 1.0
    >>> [round(v) for v in with_edge_reading(g, probs, 0).ends]
    [4, -4, 4, -4, 4]
    """
    first = HALVES[g.diagonal][0]
    used, tee_in = dict.fromkeys(EDGES, 1e-3), [1e-3, 1e-3]
    for tee, green, p in reader_pairs(probs, turns):
        if not splits(g.diagonal, tee, green):
            continue
        tee_in[0 if tee in first else 1] += p
        used[tee] += p
        used[green] += p
    total = sum(tee_in)
    odds = [np.log(used[e] / max(total - used[e], 1e-3)) for e in EDGES] + [np.log(tee_in[0] / tee_in[1])]
    return replace(g, ends=tuple(float(np.clip(v, -ENDS_CAP, ENDS_CAP)) for v in odds))


def may_be_teegreen(g: Guess) -> bool:
    """Whether a fairway reading may be a tee/green whose split the network missed (a shaded stub can hide
    it): read over a corner-to-corner line (``Guess.diagonal`` set), its two edges on either side of the line
    as a tee/green's tee and green are. Cheap: only such a square is cut again for a par digit."""
    if g.value["k"] != "fairway" or g.diagonal < 0:
        return False
    return splits(g.diagonal, *g.value["edges"])


UNMARKED = 0.9  # both whole-square readers this sure of no par digit and no tee/green overrule a digit found in a
# fairway over a corner-to-corner line (``par_in_fairway``)


def unmarked(par_probs: np.ndarray, edge_probs: np.ndarray, sure: float = UNMARKED) -> bool:
    """Whether both whole-square readers are ``sure`` the square holds no par digit (``square_par``) and is no
    tee/green (``square_edges``): a digit the pieces' reader found in a fairway is then some other stroke of it.

    >>> unmarked(np.float32([0.01, 0, 0, 0.99]), np.eye(len(EDGE_PAIRS))[-1])
    True
    >>> unmarked(np.float32([0.6, 0, 0, 0.4]), np.eye(len(EDGE_PAIRS))[-1])
    False
    """
    return bool(par_probs[CLASSES.index(None)] >= sure and edge_probs[EDGE_PAIRS.index(None)] >= sure)


def par_in_fairway(g: Guess, digit: DigitRead) -> Guess | None:
    """A fairway that ``may_be_teegreen`` as the tee/green it is when a par digit is read in it (players write
    one in tee/green squares only), flagged for a person to check, the fairway offered; else None."""
    if not may_be_teegreen(g) or digit.par is None:
        return None
    value = {"k": "teegreen", "green_edge": "", "tee_edge": "", "par": None}
    return Guess(value, min(g.confidence, digit.confidence, SPLIT_DOUBT), ((g.value, g.confidence),),
                 note="a par digit beside a corner-to-corner line: read as a tee/green", diagonal=g.diagonal,
                 halves=g.halves)


def overlaps(a: Candidate, b: Candidate) -> bool:
    """Whether two candidates' boxes share pixels (both cut from the same crop)."""
    (ax, ay), (bx, by) = a.origin, b.origin
    return (ax < bx + b.patch.shape[1] and bx < ax + a.patch.shape[1]
            and ay < by + b.patch.shape[0] and by < ay + a.patch.shape[0])


def half_of(diagonal: int, centre: tuple[float, float]) -> int:
    """Which triangle (index into ``HALVES[diagonal]``) a point (x, y in 0..1) lies in."""
    x, y = centre
    return 0 if (x > y if diagonal == 0 else x + y < 1) else 1


def lean(g: Guess, edge: str) -> float:
    """How much a tee/green's stub ink favours ``edge`` over the other edge of its triangle, in (-1, 1)."""
    for pair, scores in zip(HALVES[g.diagonal], g.halves, strict=True):
        if edge in pair:
            own, other = scores if edge == pair[0] else scores[::-1]
            return (own - other) / (own + other + STUB_FLOOR)
    return 0.0


def connects(guesses: list[list[Guess]], r: int, c: int, edge: str) -> float:
    """How surely the square across ``edge`` joins this one there: 1 for a fairway ending on the edge or a
    tee/green whose tee or green is on it, an unresolved tee/green's lean towards it (``lean``), else 0."""
    dr, dc = STEP[edge]
    rr, cc = r + dr, c + dc
    if not (0 <= rr < len(guesses) and 0 <= cc < len(guesses[0])):
        return 0.0
    other = guesses[rr][cc].value
    if other.get("k") == "fairway":
        return 1.0 if OPPOSITE[edge] in other["edges"] else 0.0
    if other.get("k") == "teegreen" and other.get("tee_edge"):
        return 1.0 if OPPOSITE[edge] in (other["tee_edge"], other["green_edge"]) else 0.0
    if other.get("k") == "teegreen":
        return max(0.0, lean(guesses[rr][cc], OPPOSITE[edge]))
    return 0.0


JOIN_DOUBT = 0.5  # a fairway read less surely than this takes the edges its neighbours join it by: over 200
# plans of seed 12902, 43 -> 15 fairways with wrong edges (at 0.8, 18); players also draw stray fairways that
# join nothing, and on the outside plans a fairway read at 0.73 was right against its neighbours


def fairway_from_neighbours(squares: list[list[Guess]], r: int, c: int, doubt: float = JOIN_DOUBT) -> Guess:
    """A doubtful fairway (read less surely than ``doubt``) turned to the edges its neighbours join it by,
    when exactly two do and the strokes chose otherwise; else the reading as it was. Hatching that reaches a
    third edge leads the strokes astray, and a fairway runs on into the squares beside it. Still flagged,
    the strokes' edges offered (and no longer the joined edges, if the strokes offered them).

    >>> straight = Guess({"k": "fairway", "edges": ["E", "W"]}, 0.9)
    >>> doubtful = Guess({"k": "fairway", "edges": ["N", "E"]}, 0.3, ((straight.value, 0.35), ({"k": "tree"}, 0.1)))
    >>> squares = [[straight, doubtful, straight]]
    >>> joined = fairway_from_neighbours(squares, 0, 1)
    >>> joined.value, [value.get("edges", value["k"]) for value, _ in joined.alternatives]
    ({'k': 'fairway', 'edges': ['E', 'W']}, [['N', 'E'], 'tree'])
    >>> fairway_from_neighbours(squares, 0, 0) is straight
    True
    """
    g = squares[r][c]
    if g.value["k"] != "fairway" or g.confidence >= doubt:
        return g
    joined = [e for e in EDGES if connects(squares, r, c, e) >= 1.0]
    if len(joined) != 2 or joined == g.value["edges"]:
        return g
    return turned_fairway(g, joined, "edges from the squares that join it")


def triangle_edges(guesses: list[list[Guess]], r: int, c: int) -> tuple[list[str], list[float]]:
    """The edge each triangle of a tee/green square connects through (``HALVES`` order), and how sure each is:
    its stub's lines, and a neighbour that joins it there."""
    g = guesses[r][c]
    chosen, sureness = [], []
    for a, b in HALVES[g.diagonal]:
        margin = lean(g, a) + NEIGHBOUR * (connects(guesses, r, c, a) - connects(guesses, r, c, b))
        if g.ends:
            margin += ENDS_WEIGHT * (g.ends[EDGES.index(a)] - g.ends[EDGES.index(b)]) / 2
        chosen.append(a if margin >= 0 else b)
        sureness.append(sure(abs(margin), EDGE_MARGIN, EDGE_SCALE))
    return chosen, sureness


def side_evidence(g: Guess, digit: DigitRead) -> float:
    """Evidence in (-1, 1) that the first triangle (``HALVES[g.diagonal][0]``) is the tee, negative for the
    second: as sure as the piece read as the par is a digit at all and is read as a par by the digit reader
    (a flag or a stub on a tiny or blurred plan looks like a digit, yet reads as a guess; the whole-square
    reader's par, which says nothing of where the digit lies, does not count), and as no piece across looks
    like one."""
    if digit.centre is None:
        return 0.0
    tee_half = half_of(g.diagonal, digit.centre)
    across = max((like for centre, like in digit.others if half_of(g.diagonal, centre) != tee_half), default=0.0)
    strength = min(digit.digit_like, digit.placed) * (1.0 - across)
    return strength if tee_half == 0 else -strength


def _hole_end(guesses: list[list[Guess]], r: int, c: int, edge: str) -> tuple[tuple[int, int], str] | None:
    """Where the fairway leaving square (r, c) through ``edge`` ends: the tee/green square and the edge it
    enters by, or None when it runs into anything else."""
    for _ in range(len(guesses) * len(guesses[0])):
        dr, dc = STEP[edge]
        r, c, entry = r + dr, c + dc, OPPOSITE[edge]
        if not (0 <= r < len(guesses) and 0 <= c < len(guesses[0])):
            return None
        value = guesses[r][c].value
        if value["k"] == "teegreen":
            return (r, c), entry
        if value["k"] != "fairway" or entry not in value["edges"]:
            return None
        edge = next(e for e in value["edges"] if e != entry)
    return None


SIDE_EVIDENCE_CAP = 0.98  # one square's digit evidence never makes its side certain on its own
DISAGREE = 1.0  # a square's own digit or whole-square reading this sure (log-odds) against its chain's side ...
SIDE_DOUBT = 0.45  # ... leaves the side this sure at most (flagged: tee and green may be swapped)
CHAIN_SURE = 0.8  # a chain less sure than this yields to a square whose digit and whole-square reading agree
# against it (tee/green swaps 16 -> 8 on seed 12802, 25 -> 20 on 12702; at any sureness: 16 -> 15)
OUTVOTED = (0.5, 1.0)  # a square's own digit and whole-square reading both at least this sure (log-odds) against
# its chain take the side even from a sure chain, whose links may be misread (600 phone plans of seeds
# 17802-18002: of the tee/greens whose edges were read right, 21 had tee and green swapped, 17 with this; none
# put wrong)


def hole_links(guesses: list[list[Guess]], squares: list[tuple[int, int]]
               ) -> dict[tuple[int, int], list[tuple[tuple[int, int], int]]]:
    """For each tee/green square of ``squares``, the squares of ``squares`` its fairways run to, each with 1
    when its tee lies in the triangle (``HALVES`` index) other than this square's tee does, 0 when in the same:
    a hole runs from one square's tee triangle along its fairway to another square's green triangle."""
    halves = {sq: triangle_edges(guesses, *sq)[0] for sq in squares}
    links: dict[tuple[int, int], list[tuple[tuple[int, int], int]]] = {sq: [] for sq in squares}
    for sq in squares:
        for half, edge in enumerate(halves[sq]):
            end = _hole_end(guesses, *sq, edge)
            if end is None or end[0] == sq or end[0] not in halves or end[1] not in halves[end[0]]:
                continue
            # exactly one end is a tee: tee(sq) == half differs from tee(other) == other_half
            other, other_half = end[0], halves[end[0]].index(end[1])
            links[sq].append((other, 1 ^ half ^ other_half))
    return links


def chain_parities(links: dict[tuple[int, int], list[tuple[tuple[int, int], int]]], start: tuple[int, int]
                   ) -> dict[tuple[int, int], int]:
    """The squares of ``start``'s chain of linked holes (``hole_links``), each with 0 when its tee lies in the
    same triangle as ``start``'s, 1 when in the other."""
    parity, todo = {start: 0}, [start]
    while todo:
        sq = todo.pop()
        for other, flip in links[sq]:
            if other not in parity:
                parity[other] = parity[sq] ^ flip
                todo.append(other)
    return parity


NOT_CUT = DigitRead(None, 0.0, None, pieces_read=False)  # the digit reading of a square not cut into pieces: its
# par is then the whole-square reader's alone (``with_square_reading``), as sure as that reader, tempered, makes it
# (0.93 for 0.999), and where the digit lies is not known: its tee side comes from its chain and its edges
WHOLE_SQUARE_SURE = 0.999  # a tee/green whose par the whole-square reader is this sure of is not cut into pieces
# (unless its chain wants it, ``squares_to_locate``, or its hole disputes it, ``read_whole_against_holes``): on the 7,706 tee/greens of seeds 22602 and 22702, 89% are
# read so surely, one of them wrong (a 5 read as a 3, wrong in the pooled reading too); on the other hand's six
# plans 74%, none wrong; on the hard preset's 60 photos 32%, none wrong
LOCATED_PER_CHAIN = 2  # least squares of each chain of linked holes whose par digit is looked for among its ink
# pieces (``squares_to_locate``): the chain's tee sides are pooled from where its digits lie


def squares_to_locate(links: dict[tuple[int, int], list[tuple[tuple[int, int], int]]], located: set
                      ) -> set[tuple[int, int]]:
    """``located`` (tee/green squares whose digit is looked for among their ink pieces) and, for each chain of
    linked holes (``hole_links``) with fewer than ``LOCATED_PER_CHAIN`` of them, more of its squares in order
    until it has that many: a square whose par the whole-square reader is sure of need not be cut into pieces,
    but that reader says nothing of where the digit lies, and the digits found decide which end of each hole
    is its tee (the whole-square edge reader, which learnt our own flags, is weighed less than a digit).

    >>> links = {(0, 0): [((0, 3), 0)], (0, 3): [((0, 0), 0)], (2, 2): []}
    >>> sorted(squares_to_locate(links, set()))
    [(0, 0), (0, 3), (2, 2)]
    >>> sorted(squares_to_locate(links | {(4, 0): [], (4, 1): []}, {(4, 0)}))
    [(0, 0), (0, 3), (2, 2), (4, 0), (4, 1)]
    """
    out, seen = set(located), set()
    for start in links:
        if start in seen:
            continue
        chain = list(chain_parities(links, start))
        seen.update(chain)
        wanted = LOCATED_PER_CHAIN - sum(sq in out for sq in chain)
        out.update([sq for sq in chain if sq not in out][:max(wanted, 0)])
    return out


def tee_sides(guesses: list[list[Guess]], digits: dict[tuple[int, int], DigitRead]) -> dict[tuple[int, int], tuple[int, float]]:
    """Which triangle (``HALVES`` index) of each tee/green square is the tee, and how surely.

    A hole runs from one square's tee triangle along its fairway to another square's green triangle, so
    the two ends of a fairway between tee/green squares have opposite roles, and a chain of linked holes
    pools the par digits' evidence (``side_evidence``, as log-odds, tempered by the square root of the
    number of digits), with the whole-square reader's (``with_edge_reading``): a square whose digit is
    unreadable takes its side from a neighbour along the chain whose digit is clear, disagreeing digits
    leave the chain in doubt, and a square whose own evidence clearly disagrees with its chain is in doubt.
    """
    squares = list(digits)
    links = hole_links(guesses, squares)
    # each square's own evidence for its first triangle as the tee: its par digit, and the whole-square reader
    own = {sq: (2.0 * np.arctanh(np.clip(side_evidence(guesses[sq[0]][sq[1]], digits[sq]),
                                         -SIDE_EVIDENCE_CAP, SIDE_EVIDENCE_CAP)),
                SIDE_WEIGHT * (guesses[sq[0]][sq[1]].ends or (0.0,) * 5)[4]) for sq in squares}
    logit = {sq: sum(own[sq]) for sq in squares}
    out: dict[tuple[int, int], tuple[int, float]] = {}
    for start in squares:
        if start in out:
            continue
        parity = chain_parities(links, start)  # tee half relative to the start square's: same (0) or other (1)
        total = sum(logit[sq] * (1 - 2 * p) for sq, p in parity.items())  # for the start's tee in half 0
        # one hand wrote all the digits and one reader read them: their errors go together, so the pooled
        # evidence is tempered as the orientation's is
        voters = max(1, sum(1 for sq in parity if logit[sq] != 0.0))
        root, conf = (0 if total >= 0 else 1), float(np.tanh(abs(total) / (2 * np.sqrt(voters))))
        for sq, p in parity.items():
            side = root ^ p
            for_side = [v * (1 - 2 * side) for v in own[sq]]
            outvoted = all(v < -least for v, least in zip(for_side, OUTVOTED, strict=True))
            if outvoted or (conf < CHAIN_SURE and max(for_side) < 0):
                # the square's digit and its whole-square reading both say otherwise, and its chain is unsure
                # (or they both say so clearly): a stray fairway or tee/green links squares whose roles the
                # chain cannot tell
                out[sq] = (1 - side, min(float(np.tanh(-sum(for_side) / 2)), SIDE_DOUBT))
                continue
            # a square whose own digit or own whole-square reading clearly says otherwise is in doubt, however
            # sure its chain: the chain may be linked wrongly, or its other squares misread alike
            out[sq] = (side, min(conf, SIDE_DOUBT) if min(for_side) < -DISAGREE else conf)
    return out


def resolve_teegreen(guesses: list[list[Guess]], r: int, c: int, digit: DigitRead,
                     side: tuple[int, float] | None = None) -> Guess:
    """Tee edge, green edge and par of a tee/green square (rectified frame), with a confidence, and the reading
    with tee and green swapped offered beside the square's own alternatives. ``side`` is the tee triangle and its
    confidence (``tee_sides``); without it, the square's own digit decides."""
    g = guesses[r][c]
    chosen, sureness = triangle_edges(guesses, r, c)
    notes = [g.note] if g.note else []
    if side is None:
        evidence = side_evidence(g, digit)
        side = (0 if evidence >= 0 else 1, abs(evidence))
    tee_half, side_conf = side
    if digit.centre is None and digit.pieces_read:
        notes.append("no par digit found")
    if side_conf < 0.5:
        notes.append("tee and green may be swapped")
    if digit.par is None:
        notes.append("par digit unreadable")
    value = {"k": "teegreen", "green_edge": chosen[1 - tee_half], "tee_edge": chosen[tee_half], "par": digit.par}
    confidence = min([g.confidence, side_conf, *sureness])
    # the side's sureness is a tanh of its evidence (0 for a toss-up): the other side is (1 - it) / 2 likely, and
    # offered with it, a person's one click from the swapped reading
    swapped = value | {"green_edge": value["tee_edge"], "tee_edge": value["green_edge"]}
    other_side = (1.0 - side_conf) / 2
    offered = ((swapped, other_side),) if other_side >= ALTERNATIVE else ()
    return Guess(value, confidence, offered + g.alternatives, note="; ".join(notes), diagonal=g.diagonal,
                 halves=g.halves)


def rotate_value(value: dict, turns: int) -> dict:
    """A cell value with its edges turned with the grid."""
    out = dict(value)
    for key in ("green_edge", "tee_edge"):
        if out.get(key):
            out[key] = rotate_edge(out[key], turns)
    if "edges" in out:
        order = ("N", "E", "S", "W")
        out["edges"] = sorted((rotate_edge(e, turns) for e in out["edges"]), key=order.index)
    return out


def upright_index(r: int, c: int, rows: int, cols: int, turns: int) -> tuple[int, int]:
    """Where rectified square (r, c) lands after ``turns`` anticlockwise quarter turns (like np.rot90)."""
    for _ in range(turns % 4):
        r, c, rows, cols = cols - 1 - c, r, cols, rows
    return r, c


PRINTED_MATCH = 0.9  # correlation of two squares' ink above which they carry the same printed symbol
PRINTED_SQUARES = 2  # squares the sheet prints its symbol in (the rules' two gorse squares)


TWIN_SIDE, TWIN_SHIFT = 32, 3  # patches compared at this size, over shifts of up to this many pixels
FLAT = 1e-9  # a window whose ink varies by less than this share of its squared ink is flat (``similarities``)


def _small(patch: np.ndarray) -> np.ndarray:
    return cv2.resize(patch, (TWIN_SIDE, TWIN_SIDE), interpolation=cv2.INTER_AREA)


def _similarity(small_a: np.ndarray, small_b: np.ndarray) -> float:
    """Best normalised correlation of two reduced ink patches (``_small``) over small shifts."""
    core = small_a[TWIN_SHIFT:-TWIN_SHIFT, TWIN_SHIFT:-TWIN_SHIFT]
    return float(cv2.matchTemplate(small_b, core, cv2.TM_CCOEFF_NORMED).max())


def similarities(smalls_a: np.ndarray, smalls_b: np.ndarray) -> np.ndarray:
    """(A, B): ``_similarity`` of each of the reduced ink patches ``smalls_a`` (A, TWIN_SIDE, TWIN_SIDE) with each of
    ``smalls_b``, to about 1e-7: the best normalised correlation of a's core (the patch less ``TWIN_SHIFT`` pixels
    round it) with b's windows of its size, as OpenCV's ``TM_CCOEFF_NORMED`` takes it, for all pairs in one matrix
    product (each core at every shift within a blank patch, against the patches b): for a square against a plan's
    others, 9 us a pair instead of 26. As in OpenCV, a flat window correlates 0 with a core, a flat core 1 with
    every window.

    >>> ring = np.zeros((32, 32), np.float32)
    >>> _ = cv2.circle(ring, (16, 16), 9, 1.0, 2)
    >>> moved, blank = np.roll(ring, 2, axis=1), np.zeros_like(ring)
    >>> similarities(np.stack([ring, blank]), np.stack([moved, blank])).round(3).tolist()
    [[1.0, 0.0], [1.0, 1.0]]
    """
    side, shifts = TWIN_SIDE - 2 * TWIN_SHIFT, 2 * TWIN_SHIFT + 1
    cores = smalls_a[:, TWIN_SHIFT:-TWIN_SHIFT, TWIN_SHIFT:-TWIN_SHIFT].astype(np.float64)
    cores -= cores.mean(axis=(1, 2), keepdims=True)
    core_norms = np.sqrt((cores * cores).sum(axis=(1, 2)))
    placed = np.zeros((len(cores), shifts, shifts, TWIN_SIDE, TWIN_SIDE), np.float32)
    for dy, dx in np.ndindex(shifts, shifts):
        placed[:, dy, dx, dy:dy + side, dx:dx + side] = cores
    # a centred core's products with a window are those with the window less its mean
    products = placed.reshape(-1, TWIN_SIDE * TWIN_SIDE) @ smalls_b.reshape(len(smalls_b), -1).T.astype(np.float32)
    products = products.reshape(len(cores), shifts, shifts, len(smalls_b)).astype(np.float64)

    def window_sums(values: np.ndarray) -> np.ndarray:  # (B, shifts, shifts)
        total = np.pad(values.cumsum(axis=1).cumsum(axis=2), ((0, 0), (1, 0), (1, 0)))
        return (total[:, side:, side:] - total[:, :shifts, side:] - total[:, side:, :shifts]
                + total[:, :shifts, :shifts])

    # the window's spread from running sums, as OpenCV takes it; a window flat but for the sums' rounding (ink
    # clipped at full strength) has none
    b = smalls_b.astype(np.float64)
    squares = window_sums(b * b)
    spread_squared = squares - window_sums(b) ** 2 / side**2
    spread = np.sqrt(np.where(spread_squared > FLAT * squares, spread_squared, 0.0))
    scale = core_norms[:, None, None, None] * spread.transpose(1, 2, 0)[None]
    ratios = np.divide(products, scale, out=np.full_like(products, np.inf), where=scale > 0)
    # beyond 1 by rounding: +-1; far beyond (a window flat but for rounding): no likeness
    scores = np.where(np.abs(ratios) < 1.0, ratios, np.where(np.abs(ratios) < 1.125, np.sign(ratios), 0.0))
    scores[core_norms < np.finfo(np.float64).eps] = 1.0
    return scores.max(axis=(1, 2))


def printed_twins(patches: dict[tuple[int, int], np.ndarray], unread: list[tuple[int, int]]) -> dict:
    """Unread squares whose ink matches another square's almost exactly: a symbol printed on the sheet.

    Hand-drawn marks seldom repeat that closely; the two pre-printed gorse squares do. ``patches`` are
    the squares that may hold a symbol (no fairway or tee/green), ``unread`` those not recognised.
    Returns {square: (best match score, the square it matches)} for the unread squares with a twin.
    """
    if not unread:
        return {}
    keys = list(patches)
    at = {k: i for i, k in enumerate(keys)}
    small = np.stack([_small(patches[k]) for k in keys])
    forwards = similarities(small[[at[a] for a in unread]], small)
    found: dict[tuple[int, int], tuple[float, tuple[int, int]]] = {}
    for a, row in zip(unread, forwards, strict=True):
        for j, b in enumerate(keys):
            if b == a:
                continue
            forward, best = float(row[j]), found.get(a, (0.0, b))[0]
            if forward < PRINTED_MATCH or forward <= best:  # the lesser of both ways cannot win: one way is enough
                continue
            score = min(forward, _similarity(small[j], small[at[a]]))  # seldom asked: one pair
            if score >= PRINTED_MATCH and score > best:
                found[a] = (score, b)
    return found


HOLDS_PRINT = 0.97  # share of a bare printed square's ink another square's ink holds for it to be that print with
# a drawing over it (200 phone plans of seed 15502 and 200 of 15402: hazards drawn over the print 0.97-1.0,
# squares scribbled out 0.5-0.96: a scribble's loops cover much of a symbol, seldom all of it)
HELD_SHIFT = 3  # pixels (of a patch) the print may sit off between the two squares


def print_held(symbol: np.ndarray, patch: np.ndarray, threshold: float) -> float:
    """Share of the ink of ``symbol`` (a square the sheet printed, bare) that ``patch`` holds too, at the best
    of shifts up to ``HELD_SHIFT`` with its strokes a pixel wider each way; the printed line round the square
    is left out. Patches are ink squares of one size, binarised at ``threshold``.

    >>> ring = np.zeros((64, 64), np.float32)
    >>> _ = cv2.circle(ring, (32, 32), 14, 1.0, 2)
    >>> drawn_over = ring.copy()
    >>> _ = cv2.line(drawn_over, (12, 50), (52, 14), 1.0, 3)
    >>> apart = np.roll(ring, 12, axis=1)
    >>> print_held(ring, drawn_over, 0.3), round(print_held(ring, apart, 0.3), 1)
    (1.0, 0.2)
    """
    m = int(round(MARGIN * symbol.shape[0]))
    inner = symbol[m:-m, m:-m] > threshold
    if not inner.any():
        return 0.0
    wider = cv2.dilate((patch > threshold).astype(np.uint8), np.ones((3, 3), np.uint8))
    size = inner.shape[0]
    return max(float(wider[m + dy:m + dy + size, m + dx:m + dx + size][inner].mean())
               for dy in range(-HELD_SHIFT, HELD_SHIFT + 1) for dx in range(-HELD_SHIFT, HELD_SHIFT + 1))


PRINT_IDENTICAL = 0.955  # least ``registered_likeness`` of twins that are the print however they read (but trees):
# on those 800 plans and 400 of seeds 18602-18702, 4 plans read exactly right more (the print's rows of small arcs,
# read as two lakes), none less
REGISTER_SHIFT = 1  # pixels (of a 64-pixel patch) a print may sit off between its two squares
REGISTER_MARGIN = 0.125  # share of the side left out all round: the grid line, its blur and that shift


def registered_likeness(a: np.ndarray, b: np.ndarray) -> float:
    """Correlation of two squares' ink at full detail, held in register (shifted by ``REGISTER_SHIFT`` at
    most): a print sits where the sheet put it, the same in both squares, and repeats stroke for stroke, while
    one hand's two drawings alike sit apart by a few pixels and differ in their strokes. On 800 phone plans (seeds
    18812-19102), of 263 twin pairs that were the bare print, 95% at 0.952 and up, median 0.984; of 659 pairs one
    hand drew, median 0.80, 11 above 0.955, every one a pair of trees (lakes and bunkers: 0.948 at most).

    >>> ring = np.zeros((64, 64), np.float32)
    >>> _ = cv2.circle(ring, (32, 32), 14, 1.0, 2)
    >>> round(registered_likeness(ring, ring), 2), registered_likeness(ring, np.roll(ring, 4, axis=1)) < 0.5
    (1.0, True)
    """
    m, s = int(round(REGISTER_MARGIN * a.shape[0])), REGISTER_SHIFT
    window = np.ascontiguousarray(b[m - s:b.shape[0] - m + s, m - s:b.shape[1] - m + s], np.float32)
    core = np.ascontiguousarray(a[m:-m, m:-m], np.float32)
    return float(cv2.matchTemplate(window, core, cv2.TM_CCOEFF_NORMED).max())


def printed_pair(patches: dict[tuple[int, int], np.ndarray],
                 twins: dict[tuple[int, int], tuple[float, tuple[int, int]]]) -> dict:
    """Of the twins ``printed_twins`` found, those that are the sheet's printed symbol: the sheet prints it on
    ``PRINTED_SQUARES`` squares, so only the closest pair, and only if its shape is on no third square of
    ``patches`` (one hand may draw three trees alike, or two pairs of lakes).

    >>> ring = np.zeros((64, 64), np.float32)
    >>> _ = cv2.circle(ring, (32, 32), 20, 1.0, 3)
    >>> cross = np.zeros((64, 64), np.float32)
    >>> _ = cv2.line(cross, (10, 10), (54, 54), 1.0, 3); _ = cv2.line(cross, (54, 10), (10, 54), 1.0, 3)
    >>> patches = {(0, 0): ring, (0, 1): ring, (0, 2): ring, (1, 0): cross, (1, 1): cross}
    >>> printed_pair(patches, {(0, 0): (0.99, (0, 1)), (1, 0): (0.97, (1, 1)), (1, 1): (0.97, (1, 0))})
    {(1, 0): (0.97, (1, 1)), (1, 1): (0.97, (1, 0))}
    """
    if not twins:
        return {}
    small = {k: _small(p) for k, p in patches.items()}

    @cache  # twins come in pairs that name each other: each square's look-alikes are found once
    def alike(a: tuple[int, int]) -> set[tuple[int, int]]:
        return {b for b in small
                if min(_similarity(small[a], small[b]), _similarity(small[b], small[a])) >= PRINTED_MATCH}

    pairs = {a: (score, b) for a, (score, b) in twins.items() if len(alike(a) | alike(b)) <= PRINTED_SQUARES}
    if not pairs:
        return {}
    closest, (_, twin) = max(pairs.items(), key=lambda item: item[1][0])
    return {a: v for a, v in pairs.items() if {a, v[1]} == {closest, twin}}
