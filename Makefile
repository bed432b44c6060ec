# Two commands set everything up on a fresh machine (Python 3.11, git, make):
#   make serve  - create .venv, install parlour, start the web server (open the printed address)
#   make test   - create .venv, install parlour with dev tools and the test set-up (Debian's chromium
#                 and PostgreSQL, with apt when missing), run ruff, mypy and the whole test suite
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
HOST ?= 127.0.0.1
PORT ?= 8000
DB ?= sqlite:///parlour.db

.PHONY: serve play test quicktest test-setup lint typecheck pytest bench clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

serve: $(STAMP)
	$(BIN)/parlour serve --host $(HOST) --port $(PORT) --db $(DB)

play: $(STAMP)
	$(BIN)/parlour play twenty

test-setup:
	bash scripts/test-setup.sh

lint: $(STAMP)
	$(BIN)/ruff check src tests benchmarks

typecheck: $(STAMP)
	$(BIN)/mypy src

pytest: $(STAMP) test-setup
	$(BIN)/python -m pytest -q

test: lint typecheck pytest

quicktest: $(STAMP)
	$(BIN)/python -m pytest -q -m "not slow"

bench: $(STAMP)
	$(BIN)/python benchmarks/engine.py
	$(BIN)/python benchmarks/search.py

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache
