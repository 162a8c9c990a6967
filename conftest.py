"""Test-wide settings: the scanners' drawn component pictures (``scanner.artcache``) are kept in a folder of
the test run's own, not in the user's cache."""

import os
import tempfile

os.environ["GOLFSCAN_CACHE"] = tempfile.mkdtemp(prefix="golfscan-test-cache-")
