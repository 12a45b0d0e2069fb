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

install: $(VENV)/.installed
dev: $(VENV)/.dev-installed

## make run: create .venv, install, start an interactive terminal game
run: install
	$(BIN)/dicetable play

## make test: create .venv, install dev extras, run the whole suite
test: dev
	$(BIN)/python -m pytest -n auto -q

bench: install
	$(BIN)/dicetable bench

clean:
	rm -rf $(VENV) build src/*.egg-info .pytest_cache .hypothesis
