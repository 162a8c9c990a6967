"""The whole-square reader of a fairway's edges (``fairway_edges``), on the committed phone photos (a seed it was
not trained on), cut where their truth files put the grid."""

from __future__ import annotations

import cv2
import numpy as np
import pytest
from paths import REPO

from scanner.games.eighteen.fairway_edges import CLASSES, image_context, label, read_fairways
from scanner.games.eighteen.truth_photos import square_quad, with_truth

PHOTOS = sorted((REPO / "fixtures" / "sets" / "18-holes-phone").glob("*.jpg"))


def turned_quad(quad: np.ndarray, degrees: float) -> np.ndarray:
    centre = quad.mean(axis=0)
    matrix = cv2.getRotationMatrix2D((float(centre[0]), float(centre[1])), degrees, 1.0)
    return np.float32(cv2.transform(quad[None], matrix)[0])


@pytest.fixture(scope="module")
def fairways() -> list[tuple[np.ndarray, np.ndarray, list[str]]]:
    """(image, square's corners, true edges) of every fairway of the committed phone photos."""
    found = []
    for photo in PHOTOS:
        loaded, truth, grid = with_truth(photo)
        for r, row in enumerate(truth["board"]["cells"]):
            for c, cell in enumerate(row):
                if cell["k"] == "fairway":
                    quad = square_quad(grid, r, c)
                    found.append((loaded.image, quad, cell["edges"]))
    return found


def test_the_reader_reads_the_fairways_of_photos_it_never_saw(fairways):
    probs = read_fairways([image_context(image, [quad])[0] for image, quad, _ in fairways])
    truth = np.array([label(edges) for _, _, edges in fairways])
    assert len(set(truth)) == len(CLASSES)  # every pair is drawn
    assert (probs.argmax(axis=1) == truth).mean() >= 0.97


def test_a_fairway_turned_a_little_reads_alike_and_a_quarter_reads_turned(fairways):
    crops = [image_context(image, [quad])[0] for image, quad, _ in fairways]
    tilted = [image_context(image, [turned_quad(quad, 4.0)])[0] for image, quad, _ in fairways]
    upright, slightly = (read_fairways(c).argmax(axis=1) for c in (crops, tilted))
    assert (upright == slightly).mean() >= 0.97
    quarter = read_fairways([np.rot90(crop) for crop in crops]).argmax(axis=1)  # turned once anticlockwise
    assert (quarter == np.array([label(edges, 1) for _, _, edges in fairways])).mean() >= 0.97
    straight = [i for i, (_, _, edges) in enumerate(fairways) if set(edges) in ({"N", "S"}, {"E", "W"})]
    assert straight and (quarter[straight] != upright[straight]).all()  # a straight fairway turned runs across
