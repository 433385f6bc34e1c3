"""Wall time of the weka engine's cross-validation jobs, beside the sklearn engine's.

Run: ``python benchmarks/bench_weka.py [--quick] [--datasets car ...]`` (``make bench`` runs
every benchmark). Needs Java and python-weka-wrapper3, and the UCI mirror (``UCI_MIRROR`` or
``../shared/data/uci``).

What is measured (one run each; these jobs take seconds to minutes, so no repeats):

* ``jvm_start_cold``: a fresh Python process importing the engine and starting the JVM, i.e.
  the fixed cost every Snakemake ``cross_validate`` job of the weka engine pays once;
* ``jvm_start``: :func:`pdmeasure.pipeline.engines.weka_engine.ensure_jvm` in this process;
* per dataset and classifier of ``config.yaml``: ``engine.cross_validate`` (encoding included)
  for the weka engine, and for the in-process baseline, the sklearn engine's classifiers on the
  same datasets and CV settings. The summary gives the total of each engine and their ratio.

``--quick`` runs car and dermatology only. Results: a table on stdout and JSON in
``benchmarks/results/bench_weka.json`` (timings, Weka version, the pooled weka matrices).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import time
from pathlib import Path

import pandas as pd
import yaml

from pdmeasure.pipeline.data.fetch import read_mirror
from pdmeasure.pipeline.engines import CVSpec, DatasetSpec, get_engine, weka_engine
from pdmeasure.tables.confusion import confusion_matrix

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
QUICK = ("car", "dermatology")


def mirror() -> Path:
    path = Path(os.environ.get("UCI_MIRROR") or ROOT.parent / "shared" / "data" / "uci")
    if not (path / "MANIFEST.json").is_file():
        raise SystemExit(f"no UCI mirror at {path}: set UCI_MIRROR")
    return path


def canonical(path: Path, name: str) -> pd.DataFrame:
    """The canonical table (results/data/<name>.csv layout), read from the UCI file by the
    pipeline's own reader."""
    uci_id = json.loads((path / "MANIFEST.json").read_text())["datasets"][name]["uci_id"]
    return read_mirror(name, uci_id, path)[0]


def spec(config: dict, name: str, engine: str) -> DatasetSpec:
    block = config["datasets"][name]
    return DatasetSpec(
        name=name,
        target=block["target"],
        classes=tuple(block["classes"]),
        numeric_features=tuple(block.get("numeric_features", ())),
        missing=block.get("missing"),
        options=dict(block.get(engine) or {}),
    )


def cold_start() -> float:
    """Seconds for a new Python process to import the engine and start the JVM."""
    code = (
        "import time; t = time.perf_counter(); "
        "from pdmeasure.pipeline.engines.weka_engine import ensure_jvm; ensure_jvm(); "
        "print(time.perf_counter() - t)"
    )
    start = time.perf_counter()
    out = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, text=True)
    total = time.perf_counter() - start
    print(
        f"jvm_start_cold: {total:.2f} s process, {float(out.stdout.split()[-1]):.2f} s import+start"
    )
    return total


def run(engine_name: str, config: dict, datasets: list[str], data: dict, cv: CVSpec) -> list[dict]:
    engine = get_engine(engine_name)
    rows = []
    for dataset in datasets:
        ds = spec(config, dataset, engine_name)
        for classifier, params in config["classifiers"][engine_name].items():
            start = time.perf_counter()
            pred = engine.cross_validate(data[dataset], ds, classifier, params, cv)
            seconds = time.perf_counter() - start
            pooled = confusion_matrix(pred["actual"], pred["predicted"], ds.classes)
            rows.append(
                {
                    "engine": engine_name,
                    "dataset": dataset,
                    "classifier": classifier,
                    "rows": len(data[dataset]),
                    "seconds": seconds,
                    "accuracy": float(pooled.trace() / pooled.sum()),
                    "pooled": pooled.tolist(),
                }
            )
            print(
                f"{engine_name:8s} {dataset:12s} {classifier:14s} {seconds:8.2f} s  "
                f"accuracy {rows[-1]['accuracy']:.4f}",
                flush=True,
            )
    return rows


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help=f"only {', '.join(QUICK)}")
    parser.add_argument("--datasets", nargs="*", help="datasets to run (default: all configured)")
    parser.add_argument("--no-baseline", action="store_true", help="skip the sklearn engine")
    parser.add_argument("--output", default=str(HERE / "results" / "bench_weka.json"))
    args = parser.parse_args(argv)
    config = yaml.safe_load((ROOT / "config.yaml").read_text())
    datasets = args.datasets or (list(QUICK) if args.quick else list(config["datasets"]))
    cv = CVSpec(**{k: int(config["cv"][k]) for k in ("folds", "seed", "repeats")})
    path = mirror()
    data = {name: canonical(path, name) for name in datasets}

    get_engine("weka").check_available()
    cold = cold_start()
    start = time.perf_counter()
    weka_engine.ensure_jvm()
    jvm = time.perf_counter() - start
    print(f"jvm_start: {jvm:.2f} s (Weka {weka_engine.weka_version()})")
    rows = run("weka", config, datasets, data, cv)
    if not args.no_baseline:
        rows += run("sklearn", config, datasets, data, cv)

    table = pd.DataFrame(rows)
    totals = table.groupby("engine")["seconds"].sum()
    print("\nTotal wall time per engine (s):")
    print(totals.round(1).to_string())
    if "sklearn" in totals:
        print(f"weka / sklearn: {totals['weka'] / totals['sklearn']:.2f}")
    result = {
        "machine": {
            "cpus": os.cpu_count(),
            "python": platform.python_version(),
            "platform": platform.platform(),
        },
        "weka_version": weka_engine.weka_version(),
        "cv": cv.__dict__,
        "jvm_start_cold_process_seconds": cold,
        "jvm_start_seconds": jvm,
        "totals_seconds": totals.to_dict(),
        "jobs": rows,
    }
    output = Path(args.output)
    output.parent.mkdir(parents=True, exist_ok=True)
    tmp = output.with_suffix(".tmp")
    tmp.write_text(json.dumps(result, indent=1))
    tmp.replace(output)
    print(f"wrote {output}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
