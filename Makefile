# Two entry points for a new user:  `make example`  and  `make test`.
# Both set the machine up first (idempotent): virtual environment, pip packages, tesseract
# (and chromium for the tests).
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed

.PHONY: setup browser example test lint clean

# apt-get install a Debian package when its command is missing (sudo when not root).
define apt_install
	@command -v $(1) >/dev/null 2>&1 || { \
	  echo "installing $(2) via apt-get"; \
	  SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
	  $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq $(2) >/dev/null; }
endef

setup: $(STAMP)
	$(call apt_install,tesseract,tesseract-ocr)

# Debian's chromium, for the review page's browser test (a test tool's own browser download is not used).
browser:
	$(call apt_install,chromium,chromium)

$(STAMP): pyproject.toml
	@test -x $(PY) || python3 -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -e '.[dev]'
	@touch $(STAMP)

# Scan the bundled photo of a finished Minigolf Designer course; the setup file holds what a photo
# cannot show (land card, clients, orders).
example: setup
	$(VENV)/bin/golfscan scan examples/minigolf-designer/photo.jpg \
	  --setup examples/minigolf-designer/photo-setup.json --overlay examples/minigolf-designer/photo-overlay.png

lint: setup
	$(VENV)/bin/ruff check .

test: setup browser lint
	$(VENV)/bin/python -m pytest

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache
