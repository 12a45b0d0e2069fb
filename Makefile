# Two entry points (see README): `make run` and `make test`.
PYTHON ?= python3
VENV   := .venv
PORT   ?= 8000
BIN    := $(VENV)/bin

.PHONY: run test install dev bench clean chromium postgres-binaries base-venv

## $(TICKING) cmd...: runs cmd and says every 30 s that it is still at work (a first compile takes
## minutes with nothing else printed; a quiet terminal looks hung); the exit status is cmd's.
TICKING = sh -c '( trap "kill \$$s 2>/dev/null; exit 0" TERM; n=0; while :; do sleep 30 & s=$$!; wait $$s; n=$$((n+30)); echo "dicetable: still installing ($$n s so far)"; done ) & t=$$!; "$$@"; rc=$$?; kill $$t 2>/dev/null; exit $$rc' ticking

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

## make run's install is what a new user's `pip install .` gives (tests/install checks that very
## install): the compiled build when a C compiler works, else pure (docs/compiled.md). Any change
## under src/ installs again. A .venv made by `make dev` or `make test` is the editable pure
## install, which already runs every edit: it is used as it is.
SOURCES := setup.py $(shell find src -type f -not -path '*/__pycache__/*' -not -path '*.egg-info*')
$(VENV)/.installed: pyproject.toml $(SOURCES) | $(BIN)/python
	@if [ -f $(VENV)/.dev-installed ]; then \
	  echo "dicetable: .venv is the editable development install (make dev): it runs the sources as they are"; \
	else \
	  echo "dicetable: installing (compiling the rules with mypyc when a C compiler works: a few minutes the first time)"; \
	  $(TICKING) $(BIN)/python -m pip install --quiet . && $(BIN)/dicetable --version; \
	fi
	touch $@

$(VENV)/.dev-installed: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $@ $(VENV)/.installed

$(VENV)/.ray-installed: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[dev,ray]'
	touch $@ $(VENV)/.dev-installed $(VENV)/.installed

install: $(VENV)/.installed
dev: $(VENV)/.dev-installed

## make run: create .venv, install, start the server (embedded SQLite) and print the URL to open
## (make run PORT=8001 when port 8000 is taken)
run: install
	@echo "dicetable: open http://127.0.0.1:$(PORT)/ in your browser (Ctrl-C stops the server)."
	@echo "           To play in the terminal instead: .venv/bin/dicetable play"
	$(BIN)/dicetable serve --port $(PORT)

## PostgreSQL server binaries for the server tests (a throwaway server is started from them);
## installed with apt-get when missing and running as root, otherwise those tests are skipped
postgres-binaries:
	@ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || command -v initdb >/dev/null || \
	{ if [ "$$(id -u)" = 0 ]; then apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q postgresql; \
	  else echo "PostgreSQL binaries missing: sudo apt-get install postgresql (else the PostgreSQL tests are skipped)"; fi; }

## A fresh base install, as `make run` gives a new user: a new virtual environment with only
## `pip install .` (no extras), rebuilt on every `make test`; tests/install runs the package,
## the terminal, the bots and `make run`'s server from it (DICETABLE_BASE_PYTHON).
## It is the compiled build when a C compiler is present (setup.py, docs/compiled.md: a few
## minutes of compiling), else the pure one; tests/build checks it plays the pure build's games.
## The editable .venv of `make dev` and `make test` stays pure: an edited .py file takes effect
## without compiling again.
BASE_VENV := $(CURDIR)/.venv-base
base-venv:
	rm -rf $(BASE_VENV)
	$(PYTHON) -m venv $(BASE_VENV)
	$(BASE_VENV)/bin/python -m pip install --quiet --upgrade pip
	@echo "$(BASE_VENV)/bin/python -m pip install --quiet .  (compiling the rules when a C compiler works: a few minutes)"
	@$(TICKING) $(BASE_VENV)/bin/python -m pip install --quiet .
	$(BASE_VENV)/bin/dicetable --version

## make test: create .venv, install dev extras (and Debian's chromium for the browser tests), run the whole suite.
## Ray is needed only by the Ray backend's tests (marked `ray`): they run, with the
## `ray` extra installed, only when the environment variable CI is set.
## The whole suite runs on the compiled build when .venv-base is one (PYTHONPATH puts its
## package first, tests/build/compiled_path.py); the tests marked pure_build, which replace a
## rules method and so cannot run compiled, run again on the editable pure build, and
## tests/build plays the same 1,000 games in both builds byte for byte.
COMPILED_PATH := $(BASE_VENV)/compiled-path
ifdef CI
SUITE_MARKS :=
test: dev $(VENV)/.ray-installed postgres-binaries chromium base-venv
else
SUITE_MARKS := -m "not ray"
test: dev postgres-binaries chromium base-venv
endif
	$(BASE_VENV)/bin/python tests/build/compiled_path.py $(COMPILED_PATH)
	DICETABLE_BASE_PYTHON=$(BASE_VENV)/bin/python PYTHONPATH=$(COMPILED_PATH) $(BIN)/python -m pytest -n auto -q $(SUITE_MARKS)
	$(BIN)/python -m pytest -q -m pure_build

# The browser tests (tests/web) drive Debian's chromium; Playwright's own browser download is not used.
chromium:
	@test -x /usr/bin/chromium || { echo "installing Debian's chromium for the browser tests"; \
	  if [ "$$(id -u)" = 0 ]; then apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends chromium; \
	  else sudo apt-get update -q && sudo DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends chromium; fi; }

## make bench: both builds side by side (the compiled one from .venv-base when it could be built)
bench: base-venv
	$(BASE_VENV)/bin/dicetable bench

clean:
	rm -rf $(VENV) $(BASE_VENV) build src/*.egg-info .pytest_cache .hypothesis
