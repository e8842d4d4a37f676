# Every target sets itself up: a fresh machine needs only python3 and make.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python

.PHONY: run test bench demo clean

$(VENV)/installed: requirements.txt
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --disable-pip-version-check -r requirements.txt
	touch $@

run: $(VENV)/installed
	$(PY) app.py

# The suite runs on SQLite, then again on PostgreSQL when WAREHOUSE_TEST_DATABASE_URL names one.
# The page tests drive Debian's chromium through Playwright (never `playwright install`); the
# label tests turn PDF pages into images with poppler's pdftoppm to scan their barcodes.
# The suite starts about 70 Python processes and two pytest workers: with bytecode written (empty
# PYTHONDONTWRITEBYTECODE), each reads the code compiled instead of compiling it again.
test: export PYTHONDONTWRITEBYTECODE :=
test: $(VENV)/installed
	@command -v chromium >/dev/null || (apt-get update -qq && apt-get install -y -qq chromium)
	@command -v pdftoppm >/dev/null || (apt-get update -qq && apt-get install -y -qq poppler-utils)
	@echo "== tests on SQLite =="
	$(PY) -m pytest -q
	@if [ -n "$$WAREHOUSE_TEST_DATABASE_URL" ]; then \
		echo "== tests on PostgreSQL ($$WAREHOUSE_TEST_DATABASE_URL) =="; \
		WAREHOUSE_TEST_BACKEND=postgresql $(PY) -m pytest -q; \
	else \
		echo "== PostgreSQL skipped: WAREHOUSE_TEST_DATABASE_URL is not set =="; \
	fi

bench: $(VENV)/installed
	@command -v wrk >/dev/null || (apt-get update -qq && apt-get install -y -qq wrk)
	$(PY) bench/run.py

# A fresh demo depot in demo.db (the old one is replaced), then served like `make run`.
demo: $(VENV)/installed
	rm -f demo.db demo.db-wal demo.db-shm demo.db-changes
	DATABASE_URL=sqlite:///demo.db $(VENV)/bin/flask --app app demo
	DATABASE_URL=sqlite:///demo.db $(PY) app.py

clean:
	rm -rf $(VENV) .pytest_cache
