"""Reading a Gnoming card's printed value with tesseract, the alternative to matching the card art.

Kept to measure the two readers against each other on synthetic photos with ground truth::

    python -m scanner.games.gnoming.ocr PHOTOS_DIR   # photos and .json truth from `golfscan fixtures make`

On 126 cards of phone and hard photos (fresh seeds), tesseract read 79 % of the values right at 0.4 s a
card, even given the true card outline; matching the card art read 100 % at 0.025 s a card. The
scanner uses matching.
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

import cv2
import numpy as np
import pytesseract

from scanner.cards import FoundCard, find_cards, rectify_card

OCR_PX_PER_MM = 6.0
VALUE_BOX_MM = (8.0, 20.0, 55.0, 57.0)  # the centre value, and the word on hazard and mulligan cards


def read_value(card_image: np.ndarray) -> str | None:
    """The face a rectified, upright card (BGR at OCR_PX_PER_MM) shows by its printed value; None if unread."""
    x0, y0, x1, y1 = (int(round(v * OCR_PX_PER_MM)) for v in VALUE_BOX_MM)
    patch = card_image[y0:y1, x0:x1].max(axis=2)  # the value is lighter than its panel on every face
    _, ink = cv2.threshold(cv2.GaussianBlur(patch, (0, 0), 1.0), 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    text = pytesseract.image_to_string(255 - ink, config="--psm 6").upper().replace(" ", "")
    if "HAZ" in text:
        return "hazard"
    if "MUL" in text or "LIG" in text:
        return "mulligan"
    digits = "".join(ch for ch in text if ch.isdigit() or ch in "-—–")
    for ch in "—–":
        digits = digits.replace(ch, "-")
    return digits if digits in {"3", "4", "5", "6", "7", "8", "-1", "-2", "-3", "-4"} else None


def _truth_face(card: FoundCard, truth_cards: list[dict]) -> tuple[str, np.ndarray] | None:
    dist = [np.linalg.norm(card.centre - np.mean(c["corners"], axis=0)) for c in truth_cards]
    if not dist or min(dist) > 0.3 * np.linalg.norm(card.corners[1] - card.corners[0]):
        return None
    best = truth_cards[int(np.argmin(dist))]
    return best["face"], np.asarray(best["corners"])


def compare_readers(folder: Path) -> dict[str, float]:
    """Share of cards each reader gets right, and seconds per card, on the photos of ``folder``."""
    from scanner.games.gnoming import SPEC, read_card, templates
    from scanner.load import load_photo

    counts = {"cards": 0, "ocr_right": 0, "match_right": 0, "ocr_s": 0.0, "match_s": 0.0}
    for path in sorted(folder.glob("*.jpg")):
        truth = json.loads(path.with_suffix(".json").read_text())
        cards = truth.get("cards") or truth.get("truth", {}).get("cards", [])
        image = load_photo(path).image
        for card in find_cards(image, SPEC):
            known = _truth_face(card, cards)
            if known is None:
                continue
            face, corners = known
            t = time.perf_counter()
            match = read_card(image, card, templates())
            counts["match_s"] += time.perf_counter() - t
            t = time.perf_counter()
            upright = FoundCard(corners.astype(np.float32), card.panel, card.area_px)  # the reader's best case
            ocr = read_value(rectify_card(image, upright, SPEC, OCR_PX_PER_MM).image)
            counts["ocr_s"] += time.perf_counter() - t
            counts["cards"] += 1
            counts["ocr_right"] += ocr == face
            counts["match_right"] += match.face == face
    n = max(counts["cards"], 1)
    return {"cards": counts["cards"], "ocr_accuracy": counts["ocr_right"] / n,
            "match_accuracy": counts["match_right"] / n, "ocr_s_per_card": counts["ocr_s"] / n,
            "match_s_per_card": counts["match_s"] / n}


if __name__ == "__main__":
    print(json.dumps(compare_readers(Path(sys.argv[1])), indent=1))
