# Entry points, each self-contained on a fresh machine:
#   make reproduce  -> create/reuse .venv, install the project, run the whole pipeline
#   make test       -> same set-up, run the quick tiers (tests/unit, tests/workflow)
#   make test-all   -> same set-up, run every tier (adds tests/system); what CI runs
PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin
# Cores for `make reproduce`: every core the machine reports (Snakemake's `--cores all`);
# `make reproduce CORES=N` overrides it.
CORES  ?= all
# Extra Snakemake arguments, e.g. SNAKEMAKE_ARGS="--config 'run={engines: [sklearn]}'" (no Java needed).
SNAKEMAKE_ARGS ?=
# Offline fallback for ucimlrepo: ../shared/data/uci where it exists; override with
# `make reproduce UCI_MIRROR=/path`.
UCI_MIRROR ?= $(if $(wildcard ../shared/data/uci/MANIFEST.json),$(abspath ../shared/data/uci))
export UCI_MIRROR
export MPLBACKEND := Agg

.PHONY: setup reproduce test test-all lint bench clean docs docs-figures release-check

$(BIN)/activate:
	$(PYTHON) -m venv $(VENV)

$(VENV)/.installed: $(BIN)/activate pyproject.toml
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e ".[pipeline,arrow,weka,report,test,lint,docs,release]"
	touch $@

setup: $(VENV)/.installed

reproduce: setup
	$(BIN)/snakemake --cores $(CORES) $(SNAKEMAKE_ARGS)

# The test tiers are folders (tests/conftest.py marks each test with its tier); pytest's
# addopts print the 15 slowest tests of every run. Both run on every core (pytest-xdist);
# tests that share one run or process stay on one worker (tests/conftest.py).
PYTEST_XDIST ?= -n auto
test: setup
	$(BIN)/python -m pytest $(PYTEST_XDIST) tests/unit tests/workflow

test-all: setup
	$(BIN)/python -m pytest $(PYTEST_XDIST) tests

# The six checks of the code base (tests/system/test_lint.py runs each of them in CI).
lint: setup
	$(BIN)/snakemake --lint
	$(BIN)/snakefmt --check Snakefile workflow
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy
	$(BIN)/lint-imports

# The documentation site, warnings as errors (-W), every reference checked (-n); the figures
# come from a run of the small .test experiment, made first when they are missing.
DOCS_OUT ?= docs/_build/html
docs: setup docs/_generated/run.txt
	$(BIN)/sphinx-build -W --keep-going -n -b html docs $(DOCS_OUT)

docs/_generated/run.txt: | setup
	$(BIN)/python docs/_tools/figures.py --cores $(CORES)

# Regenerate the figures of the site (Figure 7, a CD diagram, the explorer) from a fresh run.
docs-figures: setup
	$(BIN)/python docs/_tools/figures.py --cores $(CORES)

# CITATION.cff, the sdist and the wheel as a release would publish them. cffconvert runs in a
# virtual environment of its own (its jsonschema < 4 conflicts with the pipeline's).
CFFCONVERT := $(VENV)-cffconvert/bin/cffconvert
$(CFFCONVERT):
	$(PYTHON) -m venv $(VENV)-cffconvert
	$(VENV)-cffconvert/bin/python -m pip install --quiet "cffconvert==2.0.0"

release-check: setup $(CFFCONVERT)
	$(CFFCONVERT) --validate -i CITATION.cff
	rm -rf dist
	$(BIN)/python -m build --outdir dist .
	$(BIN)/twine check --strict dist/*

bench: setup
	$(BIN)/python -m benchmarks

clean:
	rm -rf results/*/ results/*.csv $(filter-out results/README.md,$(wildcard results/*.md)) .snakemake logs
