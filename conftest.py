"""Test-wide settings: the scanners' drawn component pictures (``scanner.artcache``) are kept in a folder of
the test run's own, not in the user's cache, and the folder is removed when the run ends."""

import atexit
import os
import shutil
import tempfile

_CACHE = tempfile.mkdtemp(prefix="golfscan-test-cache-")
os.environ["GOLFSCAN_CACHE"] = _CACHE
atexit.register(shutil.rmtree, _CACHE, ignore_errors=True)
