# Two commands to start: `make console` (try the bot offline) and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: console test run migrate sync lint format bench load clean

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -e '.[test]'
	touch $(STAMP)

console: $(STAMP)
	$(BIN)/narrator console

test: $(STAMP)
	$(BIN)/python -m pytest

run: $(STAMP)
	$(BIN)/narrator run

migrate: $(STAMP)
	$(BIN)/narrator migrate

sync: $(STAMP)
	$(BIN)/narrator sync

lint: $(STAMP)
	$(BIN)/ruff format --check .
	$(BIN)/ruff check .

format: $(STAMP)
	$(BIN)/ruff format .
	$(BIN)/ruff check --fix .

bench: $(STAMP)
	for script in benchmarks/[a-z]*.py; do \
		name=$$(basename $$script .py); [ $$name = e2e_load ] || $(BIN)/python -m benchmarks.$$name; \
	done

load: $(STAMP)
	$(BIN)/python -m benchmarks.e2e_load

clean:
	rm -rf $(VENV) .pytest_cache
