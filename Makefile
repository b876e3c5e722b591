# Two commands for a fresh machine (Python 3.10+ and make):
#   make play    set up .venv and play in a window (headless screenshot if no screen)
#   make test    set up .venv and run the whole test suite
PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: setup play test lint bench deploy bundle clean

setup: $(STAMP)

$(STAMP): requirements-dev.txt pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --disable-pip-version-check -r requirements-dev.txt
	$(PY) -m pip install -q --disable-pip-version-check --no-deps -e .
	touch $(STAMP)

play: setup
	$(PY) code.py $(ARGS)

# pytest and ruff run as scripts, not `python -m`: that would put the repo
# root on sys.path, where the board's code.py hides the standard `code` module.
lint: setup
	$(VENV)/bin/ruff check .

test: lint
	$(VENV)/bin/pytest $(ARGS)

bench: setup
	$(PY) tools/bench.py $(ARGS)

deploy: setup
	$(PY) tools/deploy.py $(ARGS)

bundle: setup
	$(PY) tools/bundle.py $(ARGS)

clean:
	rm -rf $(VENV) build dist .pytest_cache .ruff_cache .hypothesis
