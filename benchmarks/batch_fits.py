"""What batching saves: the CPU of small classifiers fitted one after the other in one process
(a batch of the CV plan, rule cross_validate_batch_*) against one process each (rule
cross_validate), measured in one invocation.

Run from the repository root, after a run has fetched the data (``results/data/``)::

    python benchmarks/batch_fits.py --engine weka --datasets car dermatology
    python benchmarks/batch_fits.py --engine sklearn --datasets car dermatology

Each classifier's k-fold CV and 5 x 2-fold CV (``pdmeasure.pipeline.fitting.fit_unit``, as the
jobs run them) runs once in a process of its own, then all of them in one process; each
process is a fresh interpreter that imports the package, as a job does. Prints the CPU
seconds (user + system, the processes' own) of both, and their ratio. The files are written
to a temporary folder and compared: the batch writes the same bytes.
Not part of ``make bench``: tens of seconds, and it needs the fetched data.
"""

from __future__ import annotations

import argparse
import filecmp
import json
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from cores import children_cpu  # noqa: E402 (the sibling script of this folder)

#: The child process: fit the classifiers named on its command line, in this one process.
CHILD = r"""
import json, logging, sys
from pdmeasure.pipeline.config import load_config, dataset_spec
from pdmeasure.pipeline.data.fetch import read_canonical
from pdmeasure.pipeline.engines import CVSpec, get_engine
from pdmeasure.pipeline.fitting import UnitFiles, fit_unit
args = json.loads(sys.argv[1])
config = load_config(args["config"])
engine = get_engine(args["engine"])
engine.configure(threads=1, mem_mb=2048)
log = logging.getLogger("batch_fits")
cv = CVSpec(folds=config["cv"]["folds"], seed=config["cv"]["seed"], repeats=config["cv"]["repeats"])
for dataset, classifier in args["units"]:
    data = read_canonical(f"{args['results']}/data/{dataset}.csv")
    out = f"{args['out']}/{dataset}-{classifier}"
    files = UnitFiles(out + "-predictions.csv", out + "-confusion.csv", out + "-cv5x2.csv.gz")
    keys = {"engine": args["engine"], "dataset": dataset, "classifier": classifier}
    params = config["classifiers"][args["engine"]][classifier]
    fit_unit(engine, data, dataset_spec(config, dataset, args["engine"]), keys, params, cv,
             config["cv"]["seed"], [], files, log)
"""


def fit(units: list[tuple[str, str]], engine: str, results: Path, out: Path) -> float:
    """CPU seconds of one fresh process fitting ``units`` one after the other."""
    args = {
        "engine": engine,
        "units": units,
        "results": str(results),
        "out": str(out),
        "config": "config.yaml",
    }
    before = children_cpu()
    subprocess.run([sys.executable, "-c", CHILD, json.dumps(args)], check=True)
    return children_cpu() - before


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--engine", default="sklearn", choices=["sklearn", "weka"])
    parser.add_argument("--datasets", nargs="+", default=["car", "dermatology"])
    parser.add_argument("--results", type=Path, default=Path("results"))
    args = parser.parse_args()
    from pdmeasure.pipeline.config import load_config

    classifiers = list(load_config("config.yaml")["classifiers"][args.engine])
    units = [(dataset, name) for dataset in args.datasets for name in classifiers]
    with tempfile.TemporaryDirectory() as temp:
        alone, together = Path(temp, "alone"), Path(temp, "together")
        alone.mkdir()
        together.mkdir()
        separate = sum(fit([unit], args.engine, args.results, alone) for unit in units)
        batched = fit(units, args.engine, args.results, together)
        names = sorted(p.name for p in alone.iterdir())
        same = all(filecmp.cmp(alone / n, together / n, shallow=False) for n in names)
    print(f"{args.engine}, {len(units)} classifiers on {', '.join(args.datasets)}:")
    print(f"  one process each    {separate:7.2f} CPU-s")
    print(f"  one process for all {batched:7.2f} CPU-s  (ratio {batched / separate:.2f})")
    print(f"  files identical: {same} ({len(names)} files)")
    return 0 if same else 1


if __name__ == "__main__":
    raise SystemExit(main())
