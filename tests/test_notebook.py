"""The walkthrough notebook runs for every game, so it never rots."""

import nbformat
import pytest
from nbclient import NotebookClient
from paths import REPO

from scanner.games import PLUGINS

NOTEBOOK = REPO / "notebooks" / "walkthrough.ipynb"


@pytest.mark.parametrize("game", sorted(PLUGINS))
def test_walkthrough_runs(game):
    nb = nbformat.read(NOTEBOOK, as_version=4)
    params = next(c for c in nb.cells if "parameters" in c.metadata.get("tags", []))
    params.source = params.source.replace('GAME = "18-holes"', f'GAME = "{game}"')
    assert f'GAME = "{game}"' in params.source
    NotebookClient(nb, timeout=300, kernel_name="python3", resources={"metadata": {"path": str(REPO)}}).execute()
    outputs = [o for c in nb.cells if c.cell_type == "code" for o in c.get("outputs", [])]
    assert not [o for o in outputs if o.output_type == "error"]
    assert sum("image/png" in o.get("data", {}) for o in outputs) >= 2  # the photo and at least one stage
    assert any("TOTAL" in o.get("text", "") for o in outputs)
