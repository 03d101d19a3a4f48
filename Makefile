# Two commands on a fresh machine with only python3:
#   make demo   set up .venv and play a short scripted 1914 opening
#   make test   set up .venv and run the test suite
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: demo test schemas setup soak bench

setup: $(STAMP)

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -e '.[test]'
	touch $(STAMP)

demo: $(STAMP)
	$(BIN)/referee demo

test: $(STAMP)
	$(BIN)/python -m pytest

# Rewrite schemas/*.json from the models (a test fails while they are stale).
schemas: $(STAMP)
	$(BIN)/python -c "from referee.schemas import write_all; write_all('schemas')"

# Hundreds of random complete 1914 games, every invariant checked after every record.
soak: $(STAMP)
	$(BIN)/python -m referee.soak --games 200

# Full-campaign benchmark: replay throughput, status/show against the import floor, memory.
bench: $(STAMP)
	$(BIN)/python -m referee.bench
