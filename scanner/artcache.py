"""Component pictures the scanners draw from the project's own art, kept on disk between runs.

Minigolf Designer's tile references and The Front Nine's card faces are drawn by ``fixtures.art`` when a
scanner first needs them: about 0.4 CPU s, as much as a scan of a photo. They are kept in ``$GOLFSCAN_CACHE``
(default ``$XDG_CACHE_HOME/golfscan``, else ``~/.cache/golfscan``), in a file named by a hash of every source
file they can depend on (the art and the rules' catalogues) and of the numpy and OpenCV versions: a change to
how anything is drawn draws it afresh. A cache that cannot be read or written is passed over, and the pictures
are drawn as before.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import zipfile
from collections.abc import Callable
from functools import cache
from pathlib import Path

import cv2
import numpy as np

# What the pictures are drawn from: the art, and the catalogues the art reads (tile paths, card values).
PROJECT = Path(__file__).resolve().parents[1]
SOURCES = (PROJECT / "fixtures" / "art", PROJECT / "rules")


def cache_dir() -> Path:
    """Where the pictures are kept (``$GOLFSCAN_CACHE``, else the user's cache folder)."""
    if os.environ.get("GOLFSCAN_CACHE"):
        return Path(os.environ["GOLFSCAN_CACHE"])
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "golfscan"


def drawn(name: str, draw: Callable[[], dict[str, np.ndarray]]) -> dict[str, np.ndarray]:
    """``draw()``'s pictures (name -> array), read from the cache when it holds this code's drawing of them,
    else drawn and kept there (written whole, then renamed into place, so a reader never sees half a file)."""
    folder = cache_dir()
    path = folder / f"{name}-{source_key(SOURCES)}.npz"
    with contextlib.suppress(OSError, ValueError, EOFError, zipfile.BadZipFile), \
            np.load(path, allow_pickle=False) as kept:
        return {key: kept[key] for key in kept.files}
    pictures = draw()
    with contextlib.suppress(OSError):
        folder.mkdir(parents=True, exist_ok=True)
        for stale in folder.glob(f"{name}-*.npz"):  # drawn by other code
            stale.unlink(missing_ok=True)
        unfinished = path.with_name(f"{path.name}.{os.getpid()}.part")
        with unfinished.open("wb") as out:
            np.savez(out, **pictures)
        os.replace(unfinished, path)
    return pictures


@cache
def source_key(roots: tuple[Path, ...]) -> str:
    """A hash of every Python and JSON file under ``roots`` (names and contents) and of the numpy and OpenCV
    versions that draw with them."""
    digest = hashlib.sha256(f"{np.__version__} {cv2.__version__}".encode())
    for root in roots:
        for path in sorted(p for p in root.rglob("*") if p.suffix in (".py", ".json")):
            digest.update(str(path.relative_to(root)).encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()[:16]
