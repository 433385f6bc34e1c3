# Two entry points, both self-contained on a fresh machine:
#   make reproduce  -> create/reuse .venv, install the project, run the whole pipeline
#   make test       -> same set-up, run the test suite
PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin
# Cores for `make reproduce`: every core the machine reports (Snakemake's `--cores all`);
# `make reproduce CORES=N` overrides it.
CORES  ?= all
# Extra Snakemake arguments, e.g. SNAKEMAKE_ARGS="--config 'run={engines: [sklearn]}'" (no Java needed).
SNAKEMAKE_ARGS ?=
# Offline fallback for ucimlrepo; override with `make reproduce UCI_MIRROR=/path`.
UCI_MIRROR ?= $(abspath ../shared/data/uci)
export UCI_MIRROR
export MPLBACKEND := Agg

.PHONY: setup reproduce test lint bench clean

$(BIN)/activate:
	$(PYTHON) -m venv $(VENV)

$(VENV)/.installed: $(BIN)/activate pyproject.toml
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e ".[pipeline,weka,report,test,lint]"
	touch $@

setup: $(VENV)/.installed

reproduce: setup
	$(BIN)/snakemake --cores $(CORES) $(SNAKEMAKE_ARGS)

test: setup
	$(BIN)/python -m pytest

# The five checks of the code base (tests/test_lint.py runs each of them in CI).
lint: setup
	$(BIN)/snakemake --lint
	$(BIN)/snakefmt --check Snakefile workflow
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy

bench: setup
	$(BIN)/python -m benchmarks

clean:
	rm -rf results/*/ results/*.csv $(filter-out results/README.md,$(wildcard results/*.md)) .snakemake logs
