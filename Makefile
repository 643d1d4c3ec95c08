# Two set-up commands: `make run` (local service with the ACME sample data) and `make test`.
# While working: `make test-fast` (unit + fast integration tests), `make docs` (the docs site, links checked).
SHELL := /bin/bash
PYTHON ?= python3
VENV := .venv
TOOLS := .venv-tools
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
TOOLS_STAMP := $(TOOLS)/.installed
CORPUS := ../shared/corpus
DOCS_STAMP := $(VENV)/.docs-installed
# Mermaid's own parser (Node, npm registry) for the workflow diagram tests; they skip without it.
MERMAID_STAMP := tests/mermaid/node_modules/.installed

# The ask page's browser tests: Debian's chromium and CJK fonts (Playwright never downloads a browser here).
BROWSER_STAMP := /usr/bin/chromium

.PHONY: run test test-fast test-corpus docs tools bench lint clean browser

$(STAMP): pyproject.toml shared/requirements.txt shared/requirements-nodeps.txt
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[test]'
	$(BIN)/pip install --quiet --no-deps -r shared/requirements-nodeps.txt
	touch $(STAMP)

# aws-sam-cli pins boto3/click/pydantic, so it lives in its own virtualenv.
$(TOOLS_STAMP):
	$(PYTHON) -m venv $(TOOLS)
	$(TOOLS)/bin/pip install --quiet 'aws-sam-cli>=1.170,<2' cfn-lint
	touch $(TOOLS_STAMP)

tools: $(TOOLS_STAMP)

$(DOCS_STAMP): $(STAMP)
	$(BIN)/pip install --quiet -e '.[docs]'
	touch $(DOCS_STAMP)

$(MERMAID_STAMP): tests/mermaid/package.json tests/mermaid/package-lock.json
	@if command -v npm >/dev/null 2>&1; then \
		cd tests/mermaid && npm ci --no-audit --no-fund --silent && touch node_modules/.installed; \
	else echo "npm not found: the Mermaid parser tests will skip (apt-get install nodejs npm)"; fi

$(BROWSER_STAMP):
	@if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
		(apt-get install -y --no-install-recommends chromium fonts-noto-cjk >/dev/null 2>&1 \
		 || (apt-get update -qq && apt-get install -y --no-install-recommends chromium fonts-noto-cjk >/dev/null)); \
	else echo "chromium not found: the browser tests will skip (apt-get install chromium fonts-noto-cjk)"; fi

browser: $(BROWSER_STAMP)
	@dpkg -s fonts-noto-cjk >/dev/null 2>&1 || [ "$$(id -u)" != 0 ] || apt-get install -y --no-install-recommends fonts-noto-cjk >/dev/null

run: $(STAMP)
	$(BIN)/ragspine serve --samples

# Tests spread over the machine's cores (pytest-xdist): each test file is one unit of work, so module fixtures
# run once; tests/support/xdist_groups.py keeps the folders sharing a session service on one worker and
# hands out the units that take minutes first.
PARALLEL := -n auto --dist loadfile --no-loadscope-reorder

# The whole suite, then the corpus tests when the handout's corpus sits beside the repository (CI sets
# RAGSPINE_REQUIRE_CORPUS=1, so there a missing corpus fails instead of being left out with a notice).
test: $(STAMP) $(TOOLS_STAMP) $(MERMAID_STAMP) browser lint
	RAGSPINE_TOOLS_VENV=$(abspath $(TOOLS)) $(BIN)/python -m pytest -q $(PARALLEL) -m "not corpus"
	@if [ -d $(CORPUS) ] || [ "$$RAGSPINE_REQUIRE_CORPUS" = 1 ]; then $(MAKE) --no-print-directory test-corpus; \
	else echo "NOTICE: the corpus tests did not run: $(CORPUS) is missing (make test-corpus runs them)"; fi

# The tests and evaluations that read the handout's corpus (../shared/corpus, marker `corpus`): a
# missing corpus file fails them here instead of skipping.
test-corpus: $(STAMP)
	RAGSPINE_REQUIRE_CORPUS=1 $(BIN)/python -m pytest -q $(PARALLEL) -m corpus

# The docs site into site/; --strict (and mkdocs.yml's validation) fails on a broken link or anchor
# and on a page missing from the nav. configuration.md must match the Settings model.
docs: $(DOCS_STAMP)
	$(BIN)/python -m tools.settings_doc --check
	NO_MKDOCS_2_WARNING=1 $(BIN)/mkdocs build --strict

# `make bench BENCH_FLAGS=--record` also writes the tables into docs/benchmarks.md (commit and date stamped).
bench: $(STAMP)
	$(BIN)/python tests/bench/run.py $(BENCH_FLAGS)
	$(BIN)/python tests/bench/ask_under_ingest.py
	$(BIN)/python tests/bench/asks_during_backfill.py

# The quick tier while working: every unit test and the integration suites that run in process on
# SQLite (no moto server, osmem-server, sam, browser or corpus sweep). `make test` runs everything.
FAST_TESTS := tests/unit tests/integration/qa --ignore=tests/integration/qa/narrative tests/integration/web \
	tests/integration/template/test_template_least_privilege.py tests/integration/template/test_template_page.py

test-fast: $(STAMP)
	$(BIN)/python -m pytest -q $(PARALLEL) -m "not slow" $(FAST_TESTS)

lint: $(STAMP)
	$(BIN)/ruff check shared functions tests tools
	$(BIN)/mypy  # strict over shared/ragspine, functions, tools, tests/bench, tests/eval and tests/support (pyproject [tool.mypy])

clean:
	rm -rf $(VENV) $(TOOLS) .ragspine .aws-sam site
