"""`snakemake --report` on the small pipeline run: every table and figure, in its category.

The report is built as a zip (``report/report.html`` plus ``report/data/raw/<id>/<file>``);
the HTML holds the results as JSON (``var categories = {...}``: category -> subcategory ->
paths; ``var results = {...}``: path -> caption, labels, data path), which is what is checked.
"""

from __future__ import annotations

import json
import re
import zipfile
from pathlib import Path

import pytest

from helpers import REPO_ROOT

pytestmark = pytest.mark.slow


#: The report's categories, exactly (a missing or misspelt one fails).
CATEGORIES = {
    "Data",
    "Cross-validation",
    "Measures",
    "Kappa grids",
    "Rankings",
    "Statistics",
    "Exact analysis",
    "Paper reproduction",
    "Uncertainty",
}
#: The workflow modules whose tables and figures must all be in the report.
MODULES = ("data", "cv", "dataset", "paper", "summary")
#: Outputs of those modules left out of the report on purpose (see the comments at their
#: rules), relative to the results folder.
LEFT_OUT = (
    # per-sample predictions: large, summarised by the confusion matrices and the statistics
    re.compile(r"cv/[^/]+/[^/]+/[^/]+/predictions\.csv"),
    re.compile(r"stats/cv5x2/[^/]+/[^/]+/[^/]+/predictions\.csv\.gz"),
    # per engine and dataset parts of measures.csv and warnings.csv
    re.compile(r"(measures|warnings)/[^/]+/[^/]+\.csv"),
    # per engine and dataset exact tables: collected by rule collect, or drawn in the figures
    re.compile(r"exact/[^/]+/[^/]+/[^/]+\.csv"),
    # the draws and the data the explorer pages embed
    re.compile(r"uncertainty/[^/]+/[^/]+/explorer\.json"),
    re.compile(r"explorer/[^/]+/[^/]+\.json"),
)
#: Reported files are tables and figures.
REPORTED_SUFFIXES = {".csv", ".md", ".png"}


def _module_rules() -> set[str]:
    rules = set()
    for module in MODULES:
        text = (REPO_ROOT / "workflow" / "rules" / f"{module}.smk").read_text(encoding="utf-8")
        rules.update(re.findall(r"^rule (\w+):", text, flags=re.M))
    return rules


def _json_var(html: str, name: str) -> dict:
    match = re.search(rf"^\s*var {name} = (\{{.*\}});\s*$", html, flags=re.M)
    assert match, f"no `var {name} = {{...}}` in report.html"
    return json.loads(match.group(1))


@pytest.fixture(scope="module")
def report(small_pipeline, snakemake_runner):
    """Build report.zip in the small run's workdir; return (zip names, categories, results,
    rule of every output file of the DAG)."""
    workdir = small_pipeline.parent
    done = snakemake_runner(workdir, "--report", "report.zip")
    assert done.returncode == 0, (done.stdout + done.stderr)[-6000:]
    with zipfile.ZipFile(workdir / "report.zip") as archive:
        names = set(archive.namelist())
        html = archive.read("report/report.html").decode("utf-8")
    summary = snakemake_runner(workdir, "--summary")
    assert summary.returncode == 0, (summary.stdout + summary.stderr)[-6000:]
    rows = [line.split("\t") for line in summary.stdout.splitlines()[1:] if "\t" in line]
    outputs = {row[0]: row[2] for row in rows}
    return names, _json_var(html, "categories"), _json_var(html, "results"), outputs


def test_report_has_exactly_the_categories(report):
    _, categories, _, _ = report
    assert set(categories) == CATEGORIES


def test_every_table_and_figure_is_reported(report):
    _, categories, results, outputs = report
    rules = _module_rules()
    reported = {
        path
        for subcategories in categories.values()
        for paths in subcategories.values()
        for path in paths
    }
    assert reported == set(results)
    expected, left_out = set(), set()
    for path, rule in outputs.items():
        if rule not in rules or Path(path).suffix not in REPORTED_SUFFIXES:
            continue
        relative = Path(path).relative_to("results").as_posix()
        (left_out if any(p.fullmatch(relative) for p in LEFT_OUT) else expected).add(path)
    assert expected, "no table or figure among the outputs of the workflow modules"
    assert sorted(expected - reported) == []
    assert sorted(left_out & reported) == []
    # Every kind of output the small run makes is there (figures and tables of each module).
    for path in (
        "results/data/car.csv",
        "results/figures/figure7_sklearn.png",
        "results/paper/pd_figure2.png",
        "results/reproduction.md",
        "results/exact/figures/figure7_fine_sklearn.png",
        "results/stats/report.md",
        "results/tables/table_car_sklearn.md",
        "results/tables/table_car_sklearn_ci.md",
        "results/figures/uncertainty/sklearn/car_forest.png",
        "results/uncertainty/across_signed_rank.csv",
    ):
        assert path in reported


def test_results_are_in_the_zip_with_captions(report):
    names, _, results, _ = report
    for path, result in results.items():
        assert f"report/{result['data_uri']}" in names, path
        caption = result["caption"]
        assert caption.strip(), f"{path}: empty caption"
        # A docutils warning (e.g. a duplicate link target) is printed into the caption.
        assert "system-message" not in caption, f"{path}: {caption}"


def test_labels_tell_results_apart(report):
    """Within a subcategory, the report lists one row per distinct label tuple: two results
    with the same labels would hide one of them."""
    _, categories, results, _ = report
    for category, subcategories in categories.items():
        for subcategory, paths in subcategories.items():
            labels = [results[path]["labels"] for path in paths]
            if not all(labels):
                continue  # unlabelled results are listed by path
            keys = sorted({key for label in labels for key in label})
            rows = [tuple(label.get(key, "") for key in keys) for label in labels]
            assert len(set(rows)) == len(rows), (category, subcategory, rows)


def test_category_layout(report):
    _, categories, results, _ = report
    assert set(categories["Cross-validation"]) == {"sklearn", "All engines"}
    assert set(categories["Rankings"]) == {"sklearn"}
    assert set(categories["Uncertainty"]) == {"sklearn", "Across datasets"}
    cd = categories["Statistics"]["Critical-difference diagrams"]
    assert cd and all(results[path]["labels"]["engine"] == "sklearn" for path in cd)
    # Fitted alone or in a batch of the CV plan, the caption names the classifier (among the
    # batch's) and the dataset, and the labels tell the classifier.
    confusion = results["results/cv/sklearn/car/Bagging/confusion.csv"]
    assert confusion["labels"] == {"dataset": "car", "classifier": "Bagging"}
    assert "Bagging" in confusion["caption"] and "car" in confusion["caption"]
    assert "{{" not in confusion["caption"] and "** on" not in confusion["caption"]
