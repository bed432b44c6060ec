# Two commands set everything up on a fresh machine (Python 3.11, git, make):
#   make serve  - create .venv, install parlour (with its compiled engines), start the web server
#   make test   - create .venv, install parlour with dev tools and the learning baselines (the CPU
#                 build of torch, Stable-Baselines3, sb3-contrib) and the test set-up (Debian's chromium
#                 and PostgreSQL, with apt when missing), run ruff, mypy and the whole test suite
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
DEV_STAMP := $(VENV)/.installed-dev
HOST ?= 127.0.0.1
PORT ?= 8000
DB ?= sqlite:///parlour.db

.PHONY: serve play test quicktest test-setup lint typecheck pytest bench clean

# What serving and playing need: parlour and its compiled engines (numba: the search levels' rollouts
# in Minus Twenty, Progression and 100 Silver Bars), compiled once here so no player's first move waits.
$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[fast]'
	$(BIN)/python -c "from parlour.batch.warmup import warm; warm()"
	touch $(STAMP)

# What the checks need besides: the dev tools and the learning baselines (torch==2.13.0 is the CPU
# build that lies on the project's machines, so this takes about a minute, not a multi-GB download).
$(DEV_STAMP): $(STAMP)
	$(BIN)/python -m pip install --quiet -e '.[dev,baselines]'
	touch $(DEV_STAMP)

serve: $(STAMP)
	$(BIN)/parlour serve --host $(HOST) --port $(PORT) --db $(DB)

play: $(STAMP)
	$(BIN)/parlour play twenty

test-setup:
	bash scripts/test-setup.sh

lint: $(DEV_STAMP)
	$(BIN)/ruff check src tests benchmarks

typecheck: $(DEV_STAMP)
	$(BIN)/mypy src

# Both cores: the tests are independent (each web test has a server, a port and a database of its own);
# a file's tests stay together, so that a module's server or browser is started once.
pytest: $(DEV_STAMP) test-setup
	$(BIN)/python -m pytest -q -n 2 --dist loadfile

test: lint typecheck pytest

quicktest: $(DEV_STAMP)
	$(BIN)/python -m pytest -q -m "not slow"

bench: $(DEV_STAMP)
	$(BIN)/python benchmarks/engine.py
	$(BIN)/python benchmarks/search.py

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache
