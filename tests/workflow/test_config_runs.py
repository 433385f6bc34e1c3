"""Bad configs and bad data stop the real workflow before any job.

Each test runs Snakemake on a config or data file with one mistake (a misspelt key, a wrong
type, a kappa vector of the wrong length, a class order the data contradicts, too many classes
for a grid, a bad classifier parameter, no mirror offline, a checksum mismatch, an empty CSV)
and asserts that it stops with a message naming the key or file and the fix, and that nothing
was written. The same checks called directly are unit tests (tests/unit/test_config*.py,
test_data*.py).
"""

from __future__ import annotations

import pytest

from helpers import TOY, many_classes_config, select, small_config, toy_block, write_config


def _bad_class_order(config):
    config["datasets"]["car"]["classes"] = ["acc", "unacc", "vgood", "good"]


def _misspelt(config):
    config["cv"]["fold"] = config["cv"].pop("folds")


def _wrong_type(config):
    config["cv"]["folds"] = "three"


def _kappa_length(config):
    config["datasets"]["car"]["kappa_vectors"]["p2"] = [0, 1, 0]


def many_classes_csv(path, n_classes: int, rows_per_class: int = 3) -> list[str]:
    """A local CSV with ``n_classes`` classes (first appearance c00, c01, ...); returns them."""
    classes = [f"c{i:02d}" for i in range(n_classes)]
    lines = ["colour,label"] + [
        f"{'red' if r % 2 else 'blue'},{c}" for r in range(rows_per_class) for c in classes
    ]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return classes


def _no_output(workdir):
    results = workdir / "results"
    return not results.exists() or not any(p.is_file() for p in results.rglob("*"))


@pytest.mark.parametrize(
    ("edit", "expected"),
    [
        (_misspelt, "unknown key `cv.fold`"),
        (_wrong_type, "config key `cv.folds`: 'three' is not of type 'integer'"),
        (_kappa_length, "config key `datasets.car.kappa_vectors.p2`: kappa has 3 value(s)"),
        (_bad_class_order, "config key `datasets.car.classes`"),
    ],
    ids=["misspelt", "wrong-type", "kappa-length", "class-order"],
)
def test_snakemake_stops_before_any_job(tmp_path, uci_mirror, snakemake_runner, edit, expected):
    config = small_config(uci_mirror)
    edit(config)
    write_config(tmp_path, config)
    done = snakemake_runner(tmp_path, "--cores", "1")
    output = done.stdout + done.stderr
    assert done.returncode != 0
    assert "ConfigError" in output and expected in output
    assert "Select jobs to execute" not in output
    assert not (tmp_path / "results").exists()
    assert not (tmp_path / "logs").exists()


def test_twenty_classes_with_a_three_value_grid_stop_at_config_time(tmp_path, snakemake_runner):
    classes = many_classes_csv(tmp_path / "many.csv", 20)
    write_config(tmp_path, many_classes_config(classes, kappa_grid=[0, 0.5, 1]))
    # The refusal comes while the workflow is parsed, before any job: no results or logs
    # folder is made (below). The timeout only bounds a hang (about 5 s on an idle machine).
    done = snakemake_runner(tmp_path, "--cores", "2", timeout=120)
    assert done.returncode != 0
    out = done.stdout + done.stderr
    assert "config key `datasets.many.kappa_grid`" in out
    assert "3.49e+09 kappa vectors" in out and "`histogram.max_grid_vectors`" in out
    assert "kappa_grid: null" in out
    assert not (tmp_path / "results").exists() and not (tmp_path / "logs").exists()


def test_null_grid_plans_no_grid_figure(tmp_path, snakemake_runner):
    classes = many_classes_csv(tmp_path / "many.csv", 3)
    write_config(tmp_path, many_classes_config(classes, kappa_grid=None))
    done = snakemake_runner(tmp_path, "--dry-run", "--cores", "1")
    assert done.returncode == 0, done.stdout[-3000:]
    assert "figure7_sklearn.png" not in done.stdout  # no grid Figure 7
    assert "figure7_fine_sklearn.png" in done.stdout  # the exact analysis's, over the fine grid
    assert "rule analyse:" in done.stdout


def test_bad_classifier_parameter_stops_snakemake_before_any_job(tmp_path, snakemake_runner):
    classes = many_classes_csv(tmp_path / "many.csv", 3)
    config = many_classes_config(classes)
    config["classifiers"]["sklearn"]["RandomForest"]["params"] = {"n_estimators": -5}
    write_config(tmp_path, config)
    done = snakemake_runner(tmp_path, "--cores", "1")
    assert done.returncode != 0
    assert "config key `classifiers.sklearn.RandomForest`" in done.stdout + done.stderr
    assert not (tmp_path / "results").exists()


def test_snakemake_offline_without_mirror(tmp_path, snakemake_runner):
    config = small_config(None)
    write_config(tmp_path, config)
    done = snakemake_runner(
        tmp_path, "--cores", "1", "results/data/car.csv", env={"UCI_MIRROR": None}
    )
    output = done.stdout + done.stderr
    assert done.returncode != 0
    assert "DataFetchError" in output and "dataset `car`" in output
    assert "no offline mirror is configured" in output and "UCI_MIRROR" in output
    assert _no_output(tmp_path)
    assert "no offline mirror" in (tmp_path / "logs" / "data" / "car.log").read_text()


def test_snakemake_checksum_mismatch(tmp_path, corrupt_mirror, snakemake_runner):
    workdir = tmp_path / "run"
    write_config(workdir, small_config(corrupt_mirror))
    done = snakemake_runner(workdir, "--cores", "1", "results/data/car.csv")
    output = done.stdout + done.stderr
    assert done.returncode != 0
    assert "DataFetchError" in output and "checksum mismatch" in output
    assert _no_output(workdir)


def test_snakemake_empty_csv_stops_before_any_job(tmp_path, snakemake_runner):
    config = small_config(None)
    config["datasets"] = {"toy": {**toy_block(), "kappa_vectors": {}, "kappa_grid": [0, 1]}}
    select(config, datasets=["toy"])
    write_config(tmp_path, config)
    (tmp_path / "data").mkdir()
    (tmp_path / "data" / "toy.csv").write_bytes(b"")
    done = snakemake_runner(
        tmp_path, "--cores", "1", "results/data/toy.csv", env={"UCI_MIRROR": None}
    )
    output = done.stdout + done.stderr
    assert done.returncode != 0
    assert "ConfigError" in output
    assert (
        f"config key `datasets.toy.path`: {TOY}: the file is empty; to fix: give a CSV with a header row and at least one data row"
        in output
    )
    assert not (tmp_path / "results").exists() and not (tmp_path / "logs").exists()
