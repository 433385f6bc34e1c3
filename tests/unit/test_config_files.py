"""`dataset_files`: a folder of datasets by one key.

Each file a glob entry matches is a dataset named after the file, validated by the schema and
resolved exactly as a hand-written `datasets` block with that `path` would be; a block of the
same name replaces it; `run.datasets` selects them by name or all with the word
`dataset_files`; a pattern that matches nothing, two files of one name and the reserved name
stop the run naming the entry's key. These call :mod:`pdmeasure.pipeline.config` directly;
tests/workflow/test_dataset_files_runs.py runs Snakemake on a folder.
"""

from __future__ import annotations

import copy
import logging
import re
import shutil
from pathlib import Path

import pytest
import yaml
from hypothesis import given
from hypothesis import strategies as st

import pdmeasure.pipeline.config as pdconfig
from helpers import REPO_ROOT, WINE, ZOO, ZOO_CLASSES, grade_csv, repo_config, select
from pdmeasure.pipeline.config import ConfigError
from pdmeasure.pipeline.config.files import name_file_keys

#: Two folders with different class columns, and an ARFF file (class last, declared order).
FIRST = {"glob": "data/first/*.csv", "target": "first"}
LAST = {"glob": "data/last/*.csv", "target": "last", "missing": "?", "kappa_grid": [0, 1]}
ARFF = {"glob": "data/*.arff"}


@pytest.fixture
def folder(tmp_path, monkeypatch) -> Path:
    """The working directory tmp_path with data/first/wine.csv (class first),
    data/last/grade-a.csv (class last, ``?`` missing) and data/zoo.arff."""
    (tmp_path / "data" / "first").mkdir(parents=True)
    (tmp_path / "data" / "last").mkdir()
    shutil.copy(WINE, tmp_path / "data" / "first" / "wine.csv")
    grade_csv(tmp_path / "data" / "last" / "grade-a.csv")
    shutil.copy(ZOO, tmp_path / "data" / "zoo.arff")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def files_config(*entries: dict, datasets=("dataset_files",), **blocks) -> dict:
    """The repository config with these `dataset_files` entries and extra `datasets` blocks,
    ``datasets`` selected (sklearn only, no mirror)."""
    config = copy.deepcopy(repo_config())
    config["mirror"] = None
    config["dataset_files"] = [copy.deepcopy(e) for e in entries]
    config["datasets"].update(copy.deepcopy(blocks))
    select(config, engines=["sklearn"])
    config["run"]["datasets"] = list(datasets) if datasets is not None else None
    return config


def resolve(config: dict) -> dict:
    resolved = pdconfig.prepare_config(config)
    pdconfig.check_data(resolved)
    return resolved


def error_of(config: dict) -> str:
    with pytest.raises(ConfigError) as info:
        resolve(config)
    return str(info.value)


# --- each file a dataset ------------------------------------------------------------------


#: A file's origin in the resolved run says whether its entry sets bad files aside.
KEPT = {"skip_invalid": False}


def test_each_file_is_a_dataset_named_after_it(folder):
    resolved = resolve(files_config(FIRST, LAST, ARFF))
    assert list(resolved["datasets"]) == ["wine", "grade_a", "zoo"]
    wine, grade, zoo = (resolved["datasets"][n] for n in ("wine", "grade_a", "zoo"))
    assert wine["path"] == "data/first/wine.csv" and wine["target"] == "cultivar"
    assert grade["path"] == "data/last/grade-a.csv" and grade["target"] == "grade"
    assert grade["classes"] == ["mid", "lo", "hi"] and grade["missing"] == "?"
    assert grade["kappa_grid"] == [0, 1] and wine["kappa_grid_rule"].startswith("auto")
    assert zoo["format"] == "arff" and zoo["classes"] == list(ZOO_CLASSES)
    assert resolved["dataset_files"] == {
        "wine": {"path": "data/first/wine.csv", "entry": 0, "glob": FIRST["glob"], **KEPT},
        "grade_a": {"path": "data/last/grade-a.csv", "entry": 1, "glob": LAST["glob"], **KEPT},
        "zoo": {"path": "data/zoo.arff", "entry": 2, "glob": ARFF["glob"], **KEPT},
    }


@pytest.mark.parametrize("entry", [FIRST, LAST, ARFF], ids=["csv-first", "csv-last", "arff"])
def test_a_file_resolves_exactly_as_its_own_block(folder, entry):
    by_files = resolve(files_config(entry))
    [(name, block)] = by_files["datasets"].items()
    hand = {k: v for k, v in entry.items() if k != "glob"}
    by_block = resolve(files_config(datasets=[name], **{name: {**hand, "path": block["path"]}}))
    assert by_block["datasets"][name] == block
    assert by_block["dataset_files"] == {}
    assert pdconfig.dataset_spec(by_files, name, "weka") == pdconfig.dataset_spec(
        by_block, name, "weka"
    )


def test_files_are_taken_in_sorted_path_order_and_names_made_valid(folder):
    for stem in ("b.part", "a-1", "C d"):
        shutil.copy(WINE, folder / "data" / "first" / f"{stem}.csv")
    resolved = resolve(files_config(FIRST))
    assert list(resolved["datasets"]) == ["C_d", "a_1", "b_part", "wine"]


@pytest.mark.parametrize(
    ("file_name", "name"),
    [
        ("breast-cancer.arff", "breast_cancer"),
        ("weather.nominal.arff", "weather_nominal"),
        ("data/x y--z.csv", "x_y_z"),
        ("iris.csv", "iris"),
        ("Ünïcode.csv", "_n_code"),
    ],
)
def test_dataset_name(file_name, name):
    assert pdconfig.dataset_name(file_name) == name


@given(st.text(min_size=1).filter(lambda s: "/" not in s and "\x00" not in s))
def test_every_file_name_gives_a_valid_dataset_name(stem):
    name = pdconfig.dataset_name(f"{stem}.csv")
    assert re.fullmatch(r"[A-Za-z0-9_]+", name), name


def test_recursive_pattern_and_results_folder_skipped(folder):
    """`**` spans folders; the pipeline's own outputs under the results folder are not data."""
    (folder / "results" / "data").mkdir(parents=True)
    shutil.copy(WINE, folder / "results" / "data" / "wine_out.csv")
    (folder / "data" / "last" / "folder.csv").mkdir()  # a folder, not a file
    (folder / "data" / "last" / ".hidden.csv").write_text("x,y\n1,a\n2,b\n")
    config = files_config({"glob": "**/grade*.csv", "target": "last", "missing": "?"})
    config["results"] = "results"
    assert list(resolve(config)["datasets"]) == ["grade_a"]
    config = files_config({"glob": "**/*.csv", "target": "last"}, datasets=None)
    config["datasets"] = {}
    defined = pdconfig.expand_dataset_files(pdconfig.validate_schema(config))
    assert list(defined) == ["wine", "grade_a"]  # data/first/... sorts before data/last/...


def test_relative_patterns_start_at_the_working_directory(folder, tmp_path_factory, monkeypatch):
    elsewhere = tmp_path_factory.mktemp("elsewhere")
    monkeypatch.chdir(elsewhere)
    message = error_of(files_config(FIRST))
    assert "config key `dataset_files.0.glob`: no file matches 'data/first/*.csv'" in message
    assert f"working directory {elsewhere}" in message
    absolute = {**FIRST, "glob": str(folder / "data" / "first" / "*.csv")}
    resolved = resolve(files_config(absolute))
    assert resolved["datasets"]["wine"]["path"] == str(folder / "data" / "first" / "wine.csv")


# --- validated like a block -------------------------------------------------------------


@pytest.mark.parametrize(
    ("entry", "expected"),
    [
        ({**FIRST, "path": "x.csv"}, "unknown key `dataset_files.0.path`"),
        ({**FIRST, "uci_id": 19}, "unknown key `dataset_files.0.uci_id`"),
        ({**FIRST, "sha256": "0" * 64}, "unknown key `dataset_files.0.sha256`"),
        ({**FIRST, "kappa_vector": {}}, "unknown key `dataset_files.0.kappa_vector`"),
        ({"target": "first"}, "config key `dataset_files.0`: 'glob' is a required property"),
        ({**FIRST, "glob": ""}, "config key `dataset_files.0.glob`"),
        ({**FIRST, "kappa_grid": [0, 1.5]}, "config key `dataset_files.0.kappa_grid.1`"),
        ({**FIRST, "weka": {"allnominal": True}}, "`dataset_files.0.weka.allnominal`"),
        ({**FIRST, "classes": [1, 2, 3]}, "config key `dataset_files.0.classes.0`"),
    ],
    ids=[
        "path",
        "uci_id",
        "sha256",
        "misspelt",
        "no-glob",
        "empty-glob",
        "grid-range",
        "weka-misspelt",
        "classes-int",
    ],
)
def test_schema_checks_an_entry_like_a_block(folder, entry, expected):
    assert expected in error_of(files_config(entry))


def test_schema_defaults_fill_an_entry(folder):
    config = pdconfig.validate_schema(files_config(FIRST))
    [entry] = config["dataset_files"]
    assert entry["kappa_grid"] == "auto" and entry["header"] is True
    assert entry["weka"] == {
        "all_nominal": False,
        "value_order": None,  # resolved per file: declared for ARFF, sorted for CSV
        "missing_as_category": False,
        "keep_file_order": True,
    }


@pytest.mark.parametrize(
    ("entry", "key", "words"),
    [
        ({**FIRST, "target": "label"}, "dataset_files.1.target", "no column 'label'"),
        (
            {**FIRST, "classes": ["3", "2", "1"]},
            "dataset_files.1.classes",
            "is not the data's class order",
        ),
        (
            {**FIRST, "kappa_vectors": {"p1": [1, 0]}},
            "dataset_files.1.kappa_vectors.p1",
            "3 classes",
        ),
        ({**FIRST, "numeric_features": ["Alcohol"]}, "dataset_files.1.numeric_features", "Alcohol"),
        ({**FIRST, "format": "arff"}, "dataset_files.1", "wine.csv"),
    ],
    ids=["target", "class-order", "kappa-length", "numeric", "format"],
)
def test_errors_about_a_file_name_its_entry_and_the_file(folder, entry, key, words):
    message = error_of(files_config(LAST, entry))
    assert f"config key `{key}" in message and words in message
    assert "`datasets.wine" not in message.split(" [dataset ")[0]
    assert (
        "[dataset `wine` is the file data/first/wine.csv, matched by `dataset_files.1.glob` "
        "('data/first/*.csv')" in message
    )
    assert "add a block `datasets.wine` with `path: data/first/wine.csv`" in message


def test_a_grid_too_large_names_the_entry(folder):
    entry = {**ARFF, "kappa_grid": [0, 0.5, 1]}
    config = files_config(entry)
    config["histogram"]["max_grid_vectors"] = 100
    message = error_of(config)
    assert message.startswith("config key `dataset_files.0.kappa_grid`: 3 values over the 7")


def test_name_file_keys_rewrites_only_file_datasets():
    origins = {"x": {"path": "d/x.csv", "entry": 2, "glob": "d/*.csv"}}
    message = "config key `datasets.x.path`: empty; see `datasets.car.classes` and `datasets.xy`"
    rewritten = name_file_keys(message, origins)
    assert rewritten.startswith(
        "config key `dataset_files.2.glob`: empty; see `datasets.car.classes` and `datasets.xy`"
    )
    assert name_file_keys("config key `datasets.car`: bad", origins) == (
        "config key `datasets.car`: bad"
    )


# --- what stops the run -------------------------------------------------------------------


def test_a_pattern_that_matches_nothing(folder):
    message = error_of(files_config(FIRST, {"glob": "data/*.tsv"}))
    assert message.startswith("config key `dataset_files.1.glob`: no file matches 'data/*.tsv'")
    assert "to fix: correct the pattern" in message


def test_a_pattern_that_matches_only_a_folder(folder):
    message = error_of(files_config({"glob": "data/fir*"}))
    assert "config key `dataset_files.0.glob`: no file matches 'data/fir*'" in message
    assert "folders, hidden files and files under the results folder" in message


def test_two_files_of_one_name(folder):
    shutil.copy(WINE, folder / "data" / "last" / "wine.csv")
    message = error_of(files_config({"glob": "data/**/*.csv"}))
    assert message == (
        "config key `dataset_files.0.glob`: files data/first/wine.csv (matched by "
        "`dataset_files.0.glob` ('data/**/*.csv')) and data/last/wine.csv (matched by "
        "'data/**/*.csv') would both be dataset `wine`; to fix: rename one of the files, or "
        "narrow the patterns so that only one of them matches"
    )


def test_two_file_names_that_become_one_dataset_name(folder):
    shutil.copy(WINE, folder / "data" / "first" / "red-wine.csv")
    shutil.copy(WINE, folder / "data" / "first" / "red.wine.csv")
    message = error_of(files_config(FIRST))
    assert "files data/first/red-wine.csv" in message and "data/first/red.wine.csv" in message
    assert "would both be dataset `red_wine`" in message


def test_one_file_matched_by_two_entries(folder):
    message = error_of(files_config(FIRST, {"glob": "data/*/wine.csv"}))
    assert message.startswith(
        "config key `dataset_files.1.glob`: file data/first/wine.csv is matched by both "
        "`dataset_files.0.glob` ('data/first/*.csv') and `dataset_files.1.glob`"
    )


def test_the_reserved_name(folder):
    shutil.copy(WINE, folder / "data" / "first" / "dataset_files.csv")
    message = error_of(files_config(FIRST))
    assert message.startswith(
        "config key `dataset_files.0.glob`: file data/first/dataset_files.csv would be "
        "dataset `dataset_files`, the word that selects every dataset"
    )
    config = files_config(datasets=["car"], dataset_files={"path": "x.csv"})
    assert error_of(config).startswith("config key `datasets.dataset_files`: the name is reserved")


def test_no_dataset_at_all():
    config = {"run": {"engines": ["sklearn"]}}
    message = error_of(config)
    assert message.startswith("config key `datasets`: no dataset is defined")
    assert "dataset_files: [{glob:" in message


# --- a block of the same name -------------------------------------------------------------


def test_a_block_replaces_the_file_of_its_name(folder, caplog):
    """The block with the file's own path gives one file its own keys, silently."""
    own = {"path": "data/first/wine.csv", "target": "first", "kappa_vectors": {"p1": [1, 0, 0]}}
    with caplog.at_level(logging.WARNING):
        resolved = resolve(files_config(FIRST, LAST, wine=own))
    assert list(resolved["datasets"]) == ["wine", "grade_a"]
    assert resolved["datasets"]["wine"]["kappa_vectors"] == {"p1": [1, 0, 0]}
    assert "wine" not in resolved["dataset_files"] and "grade_a" in resolved["dataset_files"]
    assert not caplog.records
    # An error about it names its block, not the entry.
    bad = {**own, "target": "label"}
    assert error_of(files_config(FIRST, wine=bad)).startswith("config key `datasets.wine.target`")


def test_a_block_with_another_source_and_a_file_of_its_name_is_an_error(folder):
    """The user's file is never replaced by other data: the error names both and the fix."""
    shutil.copy(WINE, folder / "data" / "first" / "car.csv")
    message = error_of(files_config(FIRST))
    assert message.startswith("the file data/first/car.csv (matched by `dataset_files.0.glob`")
    assert "the block `datasets.car` (uci_id: 19) are both dataset `car`" in message
    assert "`dataset_files.0.exclude: [car.csv]`" in message
    # Left out, the file is not read and config.yaml's car stays defined.
    resolved = pdconfig.prepare_config(files_config({**FIRST, "exclude": ["car.csv"]}))
    assert list(resolved["datasets"]) == ["wine"]


def test_a_block_without_a_source_adds_its_keys_to_the_file(folder):
    own = {"kappa_vectors": {"p1": [1, 0, 0]}, "kappa_grid": [0, 1]}
    resolved = resolve(files_config(FIRST, LAST, wine=own))
    wine = resolved["datasets"]["wine"]
    assert wine["path"] == "data/first/wine.csv" and wine["target"] == "cultivar"
    assert wine["kappa_vectors"] == {"p1": [1, 0, 0]} and wine["kappa_grid"] == [0, 1]
    assert resolved["dataset_files"]["wine"]["entry"] == 0


# --- run.datasets -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("selection", "expected"),
    [
        (["dataset_files"], ["wine", "grade_a", "zoo"]),
        (["zoo", "dataset_files"], ["zoo", "wine", "grade_a"]),
        (["dataset_files", "zoo"], ["wine", "grade_a", "zoo"]),
        (["grade_a"], ["grade_a"]),
        (["mine", "dataset_files"], ["mine", "wine", "grade_a", "zoo"]),
        (None, ["car", "nursery", "dermatology", "krkopt", "mine", "wine", "grade_a", "zoo"]),
    ],
    ids=["all-files", "name-first", "name-after", "one-file", "block-and-files", "null"],
)
def test_run_datasets_selects_files_by_name_or_all(folder, selection, expected):
    mine = {"path": "data/first/wine.csv", "target": "first"}
    config = files_config(FIRST, LAST, ARFF, datasets=selection, mine=mine)
    assert list(resolve(config)["datasets"]) == expected


def test_defined_files_do_not_run_unless_selected(folder):
    resolved = resolve(files_config(FIRST, LAST, datasets=["grade_a"]))
    assert list(resolved["datasets"]) == ["grade_a"]
    assert list(resolved["dataset_files"]) == ["grade_a"]


def test_run_datasets_names_a_file_that_is_not_there(folder):
    message = error_of(files_config(FIRST, LAST, datasets=["grade-a"]))
    assert message.startswith(
        "config key `run.datasets`: ['grade-a'] are not defined under `datasets` or by "
        "`dataset_files` (defined: car, nursery, dermatology, krkopt, wine, grade_a)"
    )


def test_the_word_without_entries(folder):
    message = error_of(files_config(datasets=["dataset_files"]))
    assert message.startswith(
        "config key `run.datasets`: `dataset_files` selects every dataset of `dataset_files`, "
        "but the config has no `dataset_files` entry"
    )


def test_cv_parts_name_a_file_dataset(folder):
    config = files_config(FIRST, LAST)
    config["cv"]["parts"] = {"grade_a": {"DecisionTree": 2}}
    assert resolve(config)["cv"]["parts"] == {"grade_a": {"DecisionTree": 2}}


# --- the worked example -------------------------------------------------------------------


def test_the_worked_example_resolves_and_the_page_shows_it(tmp_path, monkeypatch):
    """config/examples/folders.yaml with the files its comment copies, merged into
    config.yaml as --configfile does; docs/own-experiment.md shows it verbatim."""
    from snakemake.utils import update_config

    example = REPO_ROOT / "config" / "examples" / "folders.yaml"
    (tmp_path / "data" / "arff").mkdir(parents=True)
    (tmp_path / "data" / "csv").mkdir()
    shutil.copy(ZOO, tmp_path / "data" / "arff")
    shutil.copy(WINE, tmp_path / "data" / "csv")
    monkeypatch.chdir(tmp_path)
    config = repo_config()
    update_config(config, yaml.safe_load(example.read_text(encoding="utf-8")))
    resolved = resolve(config)
    assert list(resolved["datasets"]) == ["zoo", "wine"] and resolved["engines"] == ["sklearn"]
    assert resolved["datasets"]["wine"]["target"] == "cultivar"
    body = "\n".join(
        line
        for line in example.read_text(encoding="utf-8").splitlines()
        if not line.startswith("#")
    )
    page = (REPO_ROOT / "docs" / "own-experiment.md").read_text(encoding="utf-8")
    assert f"```yaml\n{body.strip()}\n```" in page
    assert "snakemake --configfile config/examples/folders.yaml --cores 2" in page
