# Two commands on a fresh machine: `make run` and `make test` (README.md).
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
HOST ?= 127.0.0.1
PORT ?= 8000

.PHONY: install install-dev messages chromium axe run serve demo test lint docs check bench clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip

$(VENV)/.installed: requirements.txt | $(BIN)/python
	$(BIN)/pip install --quiet -r requirements.txt
	touch $@

$(VENV)/.installed-dev: requirements.txt requirements-dev.txt | $(BIN)/python
	$(BIN)/pip install --quiet -r requirements-dev.txt
	touch $@ $(VENV)/.installed

install: $(VENV)/.installed
install-dev: $(VENV)/.installed-dev

# The catalogues (Korean, Japanese, Simplified Chinese) are compiled, not committed; gettext's msgfmt does it
# (CI installs gettext).
PO := $(wildcard config/locale/*/LC_MESSAGES/django.po)
MO := $(VENV)/.messages
$(MO): $(PO) | $(VENV)/.installed
	@if command -v msgfmt >/dev/null; then $(BIN)/python manage.py compilemessages --ignore=.venv --verbosity 0; \
	else echo "msgfmt (gettext) is missing: pages stay in English"; fi
	@touch $@
messages: $(MO)

demo: install messages
	$(BIN)/python manage.py migrate --no-input --verbosity 0
	$(BIN)/python manage.py score_sheet examples/wrc-demo.json
	$(BIN)/python manage.py load_demo --base-url http://$(HOST):$(PORT)

# The quick start is a development server: DEBUG on, the development SECRET_KEY (docs/deployment.md for more).
run: demo
	@$(MAKE) --no-print-directory serve

# Served by gunicorn, as in production, with DEBUG on: WhiteNoise serves the static files from the apps' folders
# and --reload restarts the workers when the code changes. Not runserver: its thread per request let 100
# referees wait at once for SQLite's write lock, and some waited past the lock timeout (a 500, "database is
# locked"); gunicorn's few workers take the requests in turn and the rest queue on the socket.
# benchmarks/load.py --embedded serves through this target.
WEB_WORKERS ?= 4
serve: messages
	@echo "Serving on http://$(HOST):$(PORT)/ (Ctrl-C stops); the organiser's console: http://$(HOST):$(PORT)/events/demo-open/manage/ (login demo / demo)"
	exec env DEBUG=1 $(BIN)/gunicorn config.wsgi:application --bind $(HOST):$(PORT) --workers $(WEB_WORKERS) --reload \
	  --graceful-timeout 5

# The browser tests drive Debian's Chromium; install it where apt-get can (CI, a fresh machine as root).
chromium:
	@[ -x /usr/bin/chromium ] || { command -v apt-get >/dev/null && [ "$$(id -u)" = 0 ] && \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium; } || \
	  echo "Chromium is missing (apt-get install chromium): the browser tests will fail"

# axe-core (package.json, pinned in package-lock.json), which tests/e2e/axe_walk.py runs on every page: the npm
# packages once, as `make lint` installs them (npm ci empties node_modules first, 14 s on every run otherwise).
# Without npm the step says so and that test skips; CI installs npm and requires it (.ci/run: REQUIRE_AXE=1).
axe:
	@if command -v npm >/dev/null; then $(MAKE) --no-print-directory $(NODE); \
	else echo "npm is missing (apt-get install npm): the accessibility test skips without axe-core"; fi

# Every core (pytest-xdist), each worker on a test database of its own; --dist loadfile keeps a module's tests on
# one worker, in order (tests/api/test_openapi.py checks at its end what its own tests exercised), and
# --no-loadscope-reorder hands the modules out in the order tests/conftest.py gives (the long ones first).
# Bytecode is written even where the environment says not to (PYTHONDONTWRITEBYTECODE, set in many Python images):
# pytest then rewrites the tests' assertions once, not in every worker of every run (a third of collection).
test: install-dev messages chromium axe
	PYTHONDONTWRITEBYTECODE= $(BIN)/python -m pytest -n auto --dist loadfile --no-loadscope-reorder

# The npm packages of package.json (pinned in package-lock.json): eslint and stylelint for `make lint`.
NODE := node_modules/.installed
$(NODE): package.json package-lock.json
	@command -v npm >/dev/null || { echo "npm is missing (apt-get install npm): eslint and stylelint need it"; exit 1; }
	npm ci --no-audit --no-fund --loglevel=error
	@touch $@

# The Python code, the templates (djLint's rules; scripts/wrap_templates.py: no long line left that could break),
# the scripts and the style sheets.
lint: install-dev $(NODE)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy .
	$(BIN)/lint-imports
	$(BIN)/djlint templates --lint
	$(BIN)/python scripts/wrap_templates.py --check templates
	node_modules/.bin/eslint web/static/site eslint.config.js stylelint.config.js
	node_modules/.bin/stylelint "web/static/site/*.css"

# The documentation site (docs/, mkdocs.yml) into site/; a warning (a dead link, a missing page) fails it.
docs: install-dev
	NO_MKDOCS_2_WARNING=1 $(BIN)/mkdocs build --strict --quiet
	@echo "Built site/index.html"

bench: install-dev
	$(BIN)/python benchmarks/settle.py
	$(BIN)/python benchmarks/tiles.py
	$(BIN)/python benchmarks/seating.py
	$(BIN)/python benchmarks/standings.py
	$(BIN)/python benchmarks/stages.py
	$(BIN)/python benchmarks/stats.py

clean:
	rm -rf $(VENV) node_modules db.sqlite3 site .mypy_cache .ruff_cache .pytest_cache
