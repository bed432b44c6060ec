# Two commands set everything up on a fresh machine (Python 3.11, git, make):
#   make play   - create .venv, install parlour, play Twenty against the computer
#   make test   - create .venv, install parlour with dev tools, run ruff, mypy and the tests
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: play test quicktest lint typecheck pytest bench clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

play: $(STAMP)
	$(BIN)/parlour play twenty

lint: $(STAMP)
	$(BIN)/ruff check src tests benchmarks

typecheck: $(STAMP)
	$(BIN)/mypy src

pytest: $(STAMP)
	$(BIN)/python -m pytest -q

test: lint typecheck pytest

quicktest: $(STAMP)
	$(BIN)/python -m pytest -q -m "not slow"

bench: $(STAMP)
	$(BIN)/python benchmarks/engine.py
	$(BIN)/python benchmarks/search.py

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache
