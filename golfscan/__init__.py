"""golfscan: score finished golf-themed tabletop games from a photo."""

__version__ = "0.1.0"
