"""Errors the scanner raises for input it cannot read. The CLI prints them as one line."""


class ScanError(Exception):
    """The photo cannot be scanned (not an image, nothing found, wrong game ...)."""
