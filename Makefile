# Two commands on a fresh machine with only python3:
#   make demo   set up .venv and play a short scripted 1914 opening
#   make test   set up .venv and run the test suite
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
PIP    := $(BIN)/python -m pip --quiet --disable-pip-version-check
# The exact releases, with the hashes of their files, that make setup installs (make lock
# writes it from pyproject.toml's ranges). INSTALL=latest installs the newest releases the
# ranges allow instead: make test-latest.
LOCK    := requirements.lock
INSTALL ?= locked
UV      := .venv-tools/bin/uv
UV_VERSION := 0.13.8
# The game data compiled from its YAML: the first read of a journal needs no YAML parsing.
# It is bound to the content of the YAML files and ignored when they change. One per game.
# The skirmish's data is small and read as it is: no compiled copy (a target never written
# would make every `make` build the others again).
GAMES    := $(filter-out skirmish,$(notdir $(patsubst %/game.yaml,%,$(wildcard games/*/game.yaml))))
COMPILED := $(GAMES:%=referee/_compiled/%.json)

.PHONY: demo test soak-tests schemas setup soak bench roundtrips docs lock test-latest try-wheel

setup: $(STAMP) $(COMPILED)

$(STAMP): pyproject.toml $(LOCK)
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
ifeq ($(INSTALL),latest)
	$(PIP) install --upgrade --upgrade-strategy eager -e '.[test]'
else
	$(PIP) install --require-hashes -r $(LOCK)
	$(PIP) install --no-deps --no-build-isolation -e .
endif
	$(BIN)/python -m compileall -q referee
	touch $(STAMP)

$(COMPILED) &: $(STAMP) $(wildcard games/*/* games/*/scenarios/*) \
             $(wildcard referee/data/*.py) $(wildcard referee/contracts/*.py)
	$(BIN)/python -m referee.data.build

demo: setup
	$(BIN)/referee demo

# Plain asserts: rewriting every test module's asserts, in each worker of a fresh tree, cost
# a tenth of the run. A failing test run alone (CONTRIBUTING.md) shows the values compared.
# One worker more than the processors this process may use: many tests wait on a child
# process, a lock or a socket, and the extra worker fills those waits (on two processors,
# 150 s instead of 170 s).
WORKERS ?= $(shell $(PYTHON) -c "import os; print((len(os.sched_getaffinity(0)) if \
	hasattr(os, 'sched_getaffinity') else os.cpu_count() or 1) + 1)")
#
# The package and the tests compiled first, to bytecode files that are up to date: where
# PYTHONDONTWRITEBYTECODE is set, or a source changed since make setup compiled it, every
# worker and every referee process a test starts (hundreds) would compile each module again
# (a fifth to a third of the CPU of a test that runs the referee as its own process).
#
# The soaks (tests/soaks.py: every kill point, many random games, floods, races) are left to
# `make soak-tests`; `make test` keeps a short form of each. CI runs both.
test: setup
	$(BIN)/python -m compileall -q referee tests
	$(BIN)/python -m pytest -n $(WORKERS) --assert=plain -m "not soak"
	@echo "(the soaks, tests/soaks.py, are left to make soak-tests: CI runs both)"

soak-tests: setup
	$(BIN)/python -m compileall -q referee tests
	$(BIN)/python -m pytest -n $(WORKERS) --assert=plain -m soak

# Rewrite requirements.lock: the newest releases pyproject.toml's ranges allow, and the build
# backend's (with `editables`, which hatchling asks for to install this tree editable, as
# make setup does), pinned with the hashes of every file of each, for every platform and
# every Python the project supports. The tool that writes it is pinned here.
lock:
	test -x $(UV) || ($(PYTHON) -m venv .venv-tools && \
	    .venv-tools/bin/python -m pip --quiet install uv==$(UV_VERSION))
	$(PYTHON) -c "import tomllib; print(*tomllib.load(open('pyproject.toml', 'rb'))\
	['build-system']['requires'], 'editables', sep='\n')" | \
	    $(UV) --quiet pip compile pyproject.toml - \
	    --extra test --universal --python-version 3.11 --generate-hashes --upgrade \
	    --custom-compile-command "make lock" -o $(LOCK)

# The suite on the newest releases pyproject.toml allows, in a copy of this tree with an
# environment of its own (build/latest): what an install without the lock gets today.
test-latest:
	rm -rf build/latest
	.ci/copy-tree build/latest
	$(MAKE) -C build/latest test INSTALL=latest
	build/latest/$(BIN)/python -m pip freeze --exclude-editable > build/latest/versions.txt
	@echo "passed with the newest releases allowed: build/latest/versions.txt"

# The wheel built, installed as users install it in build/wheel, and its demo played.
try-wheel: setup
	.ci/try-wheel $(CURDIR)/build/wheel

# Rewrite schemas/*.json from the contract classes (a test fails while one is stale).
schemas: setup
	$(BIN)/python -c "from referee.contracts.schemas import write_all; write_all('schemas')"

# Rewrite docs/commands.md from the command line's own help, and referee/cli/forms.json (what
# the console script's quick path reads of status, show and order) from the same commands;
# a test fails while either is stale. Draw the pictures of the mail docs/player.md shows.
docs: setup
	$(BIN)/python -m referee.cli.reference docs/commands.md
	$(BIN)/python -m referee.cli.forms referee/cli/forms.json
	$(BIN)/python -m referee.cli.docpictures docs

# Hundreds of random complete 1914 games (200 TTLM, 50 AT ALL COSTS!), every invariant
# checked after every record, odd
# seeds with every optional rule on, even seeds with each on or off by the seed; then
# 400 well-chained journals of the wrong shape through every command (12 in `make test`);
# the leak property test over all 22 of its games (4 in `make test`, 10 in soak-tests;
# soak-tests also reads every record of the stored long games, test_leaks_late.py).
soak: soak-tests
	$(BIN)/python -m referee.cli.soak --games 200 --options all
	$(BIN)/python -m referee.cli.soak --game aac --games 50 --options all
	REFEREE_MUTANTS=400 $(BIN)/python -m pytest -q tests/test_hostile_input.py -k wrong_shape
	REFEREE_SOAK=1 $(BIN)/python -m pytest -q -n auto tests/test_leaks.py

# Full-campaign benchmark: every read and write path against the import floor, and memory;
# the installed wheel's reads beside the checkout's; tick's memory under a flood of mail; a
# judge host's folders. Every part runs, whatever an earlier one missed; the exit says
# whether any missed a target.
bench: try-wheel
	missed=0; \
	$(BIN)/python -m referee.cli.bench --installed build/wheel/venv/bin/referee || missed=1; \
	$(BIN)/python tests/mailbench.py || missed=1; \
	$(BIN)/python -m referee.cli.hostbench --installed build/wheel/venv/bin/referee || missed=1; \
	exit $$missed

# Decisions asked and hand-offs between players per seasonal turn of a fixed 1914 opening.
roundtrips: setup
	$(BIN)/python -m referee.cli.roundtrips
