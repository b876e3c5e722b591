# Two commands for a fresh machine (Python 3.10+ and make):
#   make play    set up .venv and play in a window (headless screenshot if no screen)
#   make test    set up .venv and run the whole test suite
PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: setup play test lint bench clean

setup: $(STAMP)

$(STAMP): requirements-dev.txt pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --disable-pip-version-check -r requirements-dev.txt
	$(PY) -m pip install -q --disable-pip-version-check --no-deps -e .
	touch $(STAMP)

play: setup
	$(PY) code.py $(ARGS)

lint: setup
	$(PY) -m ruff check .

test: lint
	$(PY) -m pytest $(ARGS)

bench: setup
	$(PY) tools/bench.py $(ARGS)

clean:
	rm -rf $(VENV) build .pytest_cache .ruff_cache .hypothesis
