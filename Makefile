# Two commands to start: `make console` (try the bot offline) and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
# Two stamps: the bot alone (run, console, migrate, sync) and the bot with its test tools.
# Installing the test extras installs the bot too, so it refreshes both stamps.
RUNTIME := $(VENV)/.runtime
STAMP := $(VENV)/.installed
PIP := $(BIN)/python -m pip install --quiet --disable-pip-version-check

.PHONY: console test run migrate sync lint typecheck format bench load clean messages

$(RUNTIME): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(PIP) -e .
	touch $(RUNTIME)

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(PIP) -e '.[test]'
	touch $(RUNTIME) $(STAMP)

console: $(RUNTIME)
	$(BIN)/narrator console

test: $(STAMP)
	$(BIN)/python -m pytest

run: $(RUNTIME)
	$(BIN)/narrator run

migrate: $(RUNTIME)
	$(BIN)/narrator migrate

sync: $(RUNTIME)
	$(BIN)/narrator sync

lint: $(STAMP)
	$(BIN)/ruff format --check .
	$(BIN)/ruff check .

typecheck: $(STAMP)
	$(BIN)/python -m mypy engine bot

format: $(STAMP)
	$(BIN)/ruff format .
	$(BIN)/ruff check --fix .

bench: $(STAMP)
	for script in benchmarks/[a-z]*.py; do \
		name=$$(basename $$script .py); [ $$name = e2e_load ] || $(BIN)/python -m benchmarks.$$name; \
	done

load: $(STAMP)
	$(BIN)/python -m benchmarks.e2e_load

# The translation template (.pot) a translator starts a new language's .po from.
messages: $(STAMP)
	$(BIN)/python -m bot.i18n.extract build/narrator.pot

clean:
	rm -rf $(VENV) .pytest_cache
