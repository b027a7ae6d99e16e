# Two commands to start: `make console` (try the bot offline) and `make test`.
#
# Two tiers of tests (markers in pyproject.toml; both run on PYTEST_WORKERS processes):
#   make test   the fast tier, after each change (minutes): every test not marked slow, e2e
#               or postgres, including the SimCord tests of every command (in English), with
#               Hypothesis' "fast" profile (tests/hypothesis_profiles.py).
#   make check  everything, as CI runs it (.ci/run): lint, mypy, the fast tier plus the slow tests
#               (every command in Spanish too, packaging, long statistics), Hypothesis'
#               "check" profile (5x the examples), the PostgreSQL tests when TEST_DATABASE_URL
#               is set, then the real-process end-to-end tests (tests/e2e) on their own.
# No test asserts a wall-clock bound: speed is measured by `make bench`, not by the tests.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
# Two stamps: the bot alone (run, console, migrate, sync) and the bot with its test tools.
# Installing the test extras installs the bot too, so it refreshes both stamps.
RUNTIME := $(VENV)/.runtime
STAMP := $(VENV)/.installed
PIP := $(BIN)/python -m pip install --quiet --disable-pip-version-check
PYTEST := $(BIN)/python -m pytest
# pytest-xdist processes; `make test PYTEST_WORKERS=0` runs in one process (e.g. for pdb).
PYTEST_WORKERS ?= 2

.PHONY: console web test check run migrate sync lint typecheck format bench load clean messages

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

# The web companion on the console's database, logging in by name, no Discord needed:
# open http://127.0.0.1:8080 (WEB_BIND) and type gm, alice, bob or carol.
web: $(RUNTIME)
	$(BIN)/narrator web --local-login

test: $(STAMP)
	$(PYTEST) -n $(PYTEST_WORKERS) --dist worksteal -m "not slow and not e2e and not postgres"

# The end-to-end tests (tests/e2e, and packaging's wheel) start real bot processes that must
# answer within Discord's 3 s: they run after the rest, one at a time, not beside CPU-heavy tests.
check: lint typecheck $(STAMP)
	$(PYTEST) -n $(PYTEST_WORKERS) --dist worksteal -m "not e2e" --hypothesis-profile=check
	$(PYTEST) -m e2e

run: $(RUNTIME)
	$(BIN)/narrator run

migrate: $(RUNTIME)
	$(BIN)/narrator migrate

sync: $(RUNTIME)
	$(BIN)/narrator sync

# Lint (part of make check): formatting, ruff, and the layers' import contracts
# (pyproject.toml [tool.importlinter]); the house rules of the tree are tests/test_layout.py.
lint: $(STAMP)
	$(BIN)/ruff format --check .
	$(BIN)/ruff check .
	$(BIN)/lint-imports

typecheck: $(STAMP)
	$(BIN)/python -m mypy engine bot

format: $(STAMP)
	$(BIN)/ruff format .
	$(BIN)/ruff check --fix .

bench: $(STAMP)
	for script in benchmarks/[a-z]*.py; do \
		name=$$(basename $$script .py); \
		[ $$name = e2e_load ] || [ $$name = startup ] || $(BIN)/python -m benchmarks.$$name; \
	done

load: $(STAMP)
	$(BIN)/python -m benchmarks.e2e_load

# The translation template (.pot) a translator starts a new language's .po from.
messages: $(STAMP)
	$(BIN)/python -m bot.i18n.extract build/narrator.pot

clean:
	rm -rf $(VENV) .pytest_cache
