# Two entry points for a new user:  `make example`  and  `make test`.
# Both set the machine up first (idempotent): virtual environment, pip packages, tesseract.
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed

.PHONY: setup example test lint bench clean

setup: $(STAMP)
	@command -v tesseract >/dev/null 2>&1 || { \
	  echo "installing tesseract-ocr via apt-get"; \
	  SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
	  $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq tesseract-ocr >/dev/null; }
	@command -v chromium >/dev/null 2>&1 || { \
	  echo "installing chromium (for the review page's browser test) via apt-get"; \
	  SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
	  $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq chromium >/dev/null; }

$(STAMP): pyproject.toml
	@test -x $(PY) || python3 -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -e '.[dev]'
	@touch $(STAMP)

example: setup
	$(VENV)/bin/golfscan score-board examples/minigolf-designer/board.json

lint: setup
	$(VENV)/bin/ruff check .

test: setup lint
	$(VENV)/bin/python -m pytest

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache
