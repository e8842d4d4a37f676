# Every target sets itself up: a fresh machine needs only python3 and make.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python

.PHONY: run test bench demo clean

# Two stamps: `make run` installs what the service needs (requirements.txt) and nothing more;
# the tests and the benchmark also install their tools (requirements-dev.txt).
$(VENV)/installed: requirements.txt
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --disable-pip-version-check -r requirements.txt
	touch $@

$(VENV)/installed-dev: $(VENV)/installed requirements-dev.txt
	$(PY) -m pip install --quiet --disable-pip-version-check -r requirements-dev.txt
	touch $@

run: $(VENV)/installed
	$(PY) app.py

# The suite runs on SQLite, then again on PostgreSQL when WAREHOUSE_TEST_DATABASE_URL names one.
# The page tests drive Debian's chromium through Playwright (never `playwright install`); the
# HTTPS test runs Debian's caddy in front of the service; the label tests turn PDF pages into
# images with poppler's pdftoppm to scan their barcodes.
# The suite starts about 70 Python processes and two pytest workers: with bytecode written (empty
# PYTHONDONTWRITEBYTECODE), each reads the code compiled instead of compiling it again.
test: export PYTHONDONTWRITEBYTECODE :=
test: $(VENV)/installed-dev
	@command -v chromium >/dev/null || (apt-get update -qq && apt-get install -y -qq chromium)
	@command -v caddy >/dev/null || (apt-get update -qq && apt-get install -y -qq caddy)
	@command -v pdftoppm >/dev/null || (apt-get update -qq && apt-get install -y -qq poppler-utils)
	@echo "== tests on SQLite =="
	$(PY) -m pytest -q
	@if [ -n "$$WAREHOUSE_TEST_DATABASE_URL" ]; then \
		echo "== tests on PostgreSQL ($$WAREHOUSE_TEST_DATABASE_URL) =="; \
		WAREHOUSE_TEST_BACKEND=postgresql $(PY) -m pytest -q; \
	else \
		echo "== PostgreSQL skipped: WAREHOUSE_TEST_DATABASE_URL is not set =="; \
	fi

bench: $(VENV)/installed-dev
	@command -v wrk >/dev/null || (apt-get update -qq && apt-get install -y -qq wrk)
	$(PY) bench/run.py

# A fresh demo depot in demo/ (the old one is replaced), then served like `make run`. Its
# database and its backups (demo/backups) stay apart from the depot's own, and its depot
# identity tells `flask restore` that a demo backup is not the depot's.
DEMO_ENV := DATABASE_URL=sqlite:///demo/warehouse.db WAREHOUSE_BACKUP_DIR=backups WAREHOUSE_DEPOT_NAME="Demo depot (make demo)"
demo: $(VENV)/installed
	rm -rf demo
	mkdir -p demo
	$(DEMO_ENV) $(VENV)/bin/flask --app app demo
	$(DEMO_ENV) $(PY) app.py

clean:
	rm -rf $(VENV) .pytest_cache
