# Two entry points (see README): `make run` and `make test`.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin

.PHONY: run test install dev bench clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(VENV)/.installed: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e .
	touch $@

$(VENV)/.dev-installed: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $@ $(VENV)/.installed

$(VENV)/.ray-installed: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[dev,ray]'
	touch $@ $(VENV)/.dev-installed $(VENV)/.installed

install: $(VENV)/.installed
dev: $(VENV)/.dev-installed

## make run: create .venv, install, start an interactive terminal game
run: install
	$(BIN)/dicetable play

## make test: create .venv, install dev extras, run the whole suite.
## Ray is needed only by the Ray backend's tests (marked `ray`): they run, with the
## `ray` extra installed, only when the environment variable CI is set.
ifdef CI
test: dev $(VENV)/.ray-installed
	$(BIN)/python -m pytest -n auto -q
else
test: dev
	$(BIN)/python -m pytest -n auto -q -m "not ray"
endif

bench: install
	$(BIN)/dicetable bench

clean:
	rm -rf $(VENV) build src/*.egg-info .pytest_cache .hypothesis
