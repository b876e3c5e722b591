# Two commands for a fresh machine (Python 3.10+ and make):
#   make play    set up .venv and play in a window (headless screenshot if no screen)
#   make test    set up .venv and run the whole test suite
# One .venv, filled in layers, each only as far as a command needs:
#   board  requirements-device.txt: the board's libraries (make deploy, make bundle)
#   play   requirements-play.txt: + the desktop game (make play)
#   dev    requirements-dev.txt: + tests, lint, survey, benches (make test, make bench)
PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
PIP := $(PY) -m pip install -q --disable-pip-version-check
BOARD_STAMP := $(VENV)/.board-installed
PLAY_STAMP := $(VENV)/.play-installed
DEV_STAMP := $(VENV)/.installed

.PHONY: setup play test lint bench deploy bundle clean

setup: $(DEV_STAMP)

$(PY):
	$(PYTHON) -m venv $(VENV)

# --no-deps: a board takes only the modules the game imports (deploy follows the
# imports), never the libraries' desktop dependencies (Blinka and its own).
$(BOARD_STAMP): requirements-device.txt | $(PY)
	$(PIP) --no-deps -r requirements-device.txt
	touch $@

$(PLAY_STAMP): requirements-play.txt pyproject.toml $(BOARD_STAMP)
	$(PIP) -r requirements-play.txt
	$(PIP) --no-deps -e .
	touch $@

$(DEV_STAMP): requirements-dev.txt $(PLAY_STAMP)
	$(PIP) -r requirements-dev.txt
	touch $@

play: $(PLAY_STAMP)
	$(PY) code.py $(ARGS)

# pytest and ruff run as scripts, not `python -m`: that would put the repo
# root on sys.path, where the board's code.py hides the standard `code` module.
lint: setup
	$(VENV)/bin/ruff check .

# one worker a core, a test file to each (its tests share module fixtures
# and files): half the time on two cores; ARGS="-n 0" runs in one process
test: lint
	$(VENV)/bin/pytest -n auto --dist loadfile $(ARGS)

bench: setup
	$(PY) tools/bench.py $(ARGS)

deploy: $(BOARD_STAMP)
	$(PY) tools/deploy.py $(ARGS)

bundle: $(BOARD_STAMP)
	$(PY) tools/bundle.py $(ARGS)

clean:
	rm -rf $(VENV) build dist .pytest_cache .ruff_cache .hypothesis
