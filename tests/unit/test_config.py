"""Config validation: schema, checks across keys, class order against the data.

These call :mod:`pdmeasure.pipeline.config` directly; tests/workflow/test_config_runs.py runs
the real workflow on bad configs.
"""

from __future__ import annotations

import copy

import pytest
import yaml

import pdmeasure.pipeline.config as pdconfig
from helpers import repo_config, select
from pdmeasure.pipeline.config import ConfigError
from pdmeasure.pipeline.engines import EngineUnavailable


@pytest.fixture
def raw() -> dict:
    """The repository config as parsed from YAML (defaults not yet filled)."""
    return repo_config()


def validate(config: dict) -> dict:
    return pdconfig.prepare_config(config)


def test_repository_config_is_valid(repo_root, uci_mirror, monkeypatch):
    monkeypatch.setenv("UCI_MIRROR", str(uci_mirror))
    config = pdconfig.load_config(repo_root / "config.yaml")
    pdconfig.check_data(config)
    assert config["zero_division"] == 0.0
    assert list(config["datasets"]) == ["car", "nursery", "dermatology", "krkopt"]


def test_defaults_are_filled(raw):
    del raw["cv"]["repeats"]
    raw.pop("zero_division", None)
    del raw["datasets"]["car"]["weka"]
    config = validate(raw)
    assert config["cv"]["repeats"] == 1
    assert config["zero_division"] == 0.0
    assert config["datasets"]["car"]["weka"]["missing_as_category"] is False
    assert config["datasets"]["car"]["numeric_features"] == []


def test_every_schema_key_has_description_and_default(repo_root):
    schema = yaml.safe_load(
        (repo_root / "src/pdmeasure/pipeline/config/config.schema.yaml").read_text()
    )
    required = {"class", "glob"}  # documented as required
    missing = []

    def walk(node, path):
        for key, sub in node.get("properties", {}).items():
            where = f"{path}.{key}"
            if "description" not in sub:
                missing.append(f"{where}: description")
            if "default" not in sub and key not in required:
                missing.append(f"{where}: default")
            walk(sub, where)
        if isinstance(node.get("additionalProperties"), dict):
            walk(node["additionalProperties"], f"{path}.*")

    walk(schema, "")
    walk(schema["$defs"]["dataset"], "datasets.*")
    walk(schema["$defs"]["dataset_files_entry"], "dataset_files.*")
    assert not missing


@pytest.mark.parametrize(
    ("edit", "expected"),
    [
        (lambda c: c["cv"].__setitem__("fold", c["cv"].pop("folds")), "`cv.fold`"),
        (lambda c: c["run"].__setitem__("engine", c["run"].pop("engines")), "`run.engine`"),
        (
            lambda c: c["datasets"]["car"].__setitem__("kappa_vector", {}),
            "`datasets.car.kappa_vector`",
        ),
        (
            lambda c: c["datasets"]["car"]["weka"].__setitem__("allnominal", True),
            "`datasets.car.weka.allnominal`",
        ),
    ],
    ids=["cv.fold", "engine", "kappa_vector", "weka.allnominal"],
)
def test_misspelt_key(raw, edit, expected):
    edit(raw)
    with pytest.raises(ConfigError, match="unknown key") as info:
        validate(raw)
    assert expected in str(info.value)


@pytest.mark.parametrize(
    ("edit", "key"),
    [
        (lambda c: c["cv"].__setitem__("folds", "ten"), "cv.folds"),
        (lambda c: c["cv"].__setitem__("folds", 1), "cv.folds"),
        (lambda c: c["run"].__setitem__("engines", "sklearn"), "run.engines"),
        (
            lambda c: c["datasets"]["dermatology"].__setitem__("classes", [2, 1, 3, 5, 4, 6]),
            "datasets.dermatology.classes.0",
        ),
        (
            lambda c: c["datasets"]["car"].__setitem__("kappa_grid", [0, 1.5]),
            "datasets.car.kappa_grid.1",
        ),
        (
            lambda c: c["datasets"]["car"]["kappa_vectors"].__setitem__("p1", [0, 0.8, -0.1, 1]),
            "datasets.car.kappa_vectors.p1.2",
        ),
        (lambda c: c.__setitem__("zero_division", 2), "zero_division"),
    ],
    ids=[
        "folds-str",
        "folds-1",
        "engines-str",
        "classes-int",
        "grid-range",
        "vector-range",
        "zero_division",
    ],
)
def test_wrong_type_or_range(raw, edit, key):
    edit(raw)
    with pytest.raises(ConfigError) as info:
        validate(raw)
    assert f"`{key}`" in str(info.value)


def test_kappa_vector_length(raw):
    raw["datasets"]["nursery"]["kappa_vectors"]["p3"] = [0, 0.83, 0, 1]
    with pytest.raises(ConfigError) as info:
        validate(raw)
    message = str(info.value)
    assert "`datasets.nursery.kappa_vectors.p3`" in message
    assert "4 value(s)" in message and "5 classes" in message


def test_exactly_one_of_uci_id_and_path(raw):
    raw["datasets"]["car"]["path"] = "car.csv"
    with pytest.raises(ConfigError, match=r"`datasets.car`: give exactly one source"):
        validate(raw)
    del raw["datasets"]["car"]["path"]
    del raw["datasets"]["car"]["uci_id"]
    with pytest.raises(ConfigError, match=r"`datasets.car`: give exactly one source"):
        validate(raw)


def test_unknown_engine_and_missing_classifier_block(raw, monkeypatch):
    bad = copy.deepcopy(raw)
    bad["run"]["engines"] = ["sklearn", "orange"]
    with pytest.raises(ConfigError, match=r"`run.engines`: unknown engine 'orange'"):
        validate(bad)
    monkeypatch.setitem(pdconfig.ENGINES, "orange", "orange_engine:OrangeEngine")
    with pytest.raises(ConfigError, match=r"`classifiers.orange`: engine 'orange' is listed"):
        validate(bad)


def test_unavailable_engine_is_a_config_error(raw, monkeypatch):
    class Unavailable:
        def check_available(self):
            raise EngineUnavailable("install Java")

    def get_engine(name):
        if name == "weka":
            return Unavailable()
        raise ImportError(f"No module named 'pdmeasure.pipeline.engines.{name}_engine'")

    config = validate(raw)
    monkeypatch.setattr(pdconfig.checks, "get_engine", get_engine)
    config["engines"] = ["weka"]
    with pytest.raises(
        ConfigError, match=r"`run.engines`: engine 'weka' is unavailable: install Java"
    ):
        pdconfig.check_engines(config)
    config["engines"] = ["sklearn"]
    with pytest.raises(ConfigError, match=r"`run.engines`: engine 'sklearn' cannot be loaded"):
        pdconfig.check_engines(config)


class CountingEngine:
    """An engine whose checks are counted; ``bad`` entries fail."""

    def __init__(self):
        self.checked = []

    def check_available(self):
        pass

    def check_classifier(self, classifier, params):
        self.checked.append(classifier)
        if params.get("bad"):
            raise ValueError("bad entry")


def test_every_entry_is_checked_every_time_and_a_bad_one_is_named(monkeypatch):
    engine = CountingEngine()
    monkeypatch.setattr(pdconfig.checks, "get_engine", lambda name: engine)
    config = {"engines": ["weka"], "classifiers": {"weka": {"A": {"n": 1}, "Bad": {"bad": 1}}}}
    for _ in range(2):
        with pytest.raises(ConfigError, match=r"`classifiers.weka.Bad`: bad entry"):
            pdconfig.check_engines(config)
    assert engine.checked == ["A", "Bad", "A", "Bad"]


def test_bad_classifier_params_are_a_config_error(raw):
    raw["run"]["engines"] = ["sklearn"]
    raw["classifiers"]["sklearn"]["RandomForest"]["params"] = {"n_estimator": 10}
    config = validate(raw)
    with pytest.raises(ConfigError, match=r"`classifiers.sklearn.RandomForest`.*n_estimator"):
        pdconfig.check_engines(config)


def test_class_order_checked_against_mirror(raw, uci_mirror, monkeypatch):
    monkeypatch.setenv("UCI_MIRROR", str(uci_mirror))
    raw["datasets"]["car"]["classes"] = ["unacc", "acc", "good", "vgood"]
    config = validate(raw)
    with pytest.raises(ConfigError) as info:
        pdconfig.check_data(config)
    message = str(info.value)
    assert "`datasets.car.classes`" in message
    assert "['unacc', 'acc', 'vgood', 'good']" in message


def test_class_labels_checked_against_local_file(raw, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "toy.csv").write_text("x,label\na,yes\nb,no\na,yes\n")
    raw["datasets"] = {
        "toy": {
            "path": "toy.csv",
            "target": "label",
            "classes": ["yes", "maybe"],
            "kappa_vectors": {},
        }
    }
    config = validate(select(raw, datasets=["toy"]))
    with pytest.raises(ConfigError) as info:
        pdconfig.check_data(config)
    message = str(info.value)
    assert "`datasets.toy.classes`" in message
    assert "the data have labels ['no'] that are not configured" in message
    assert "['yes', 'no']" in message


def test_class_order_checked_against_fetched_table(raw, tmp_path, monkeypatch):
    """A UCI dataset the mirror does not describe is checked against results/data/<name>.csv."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("UCI_MIRROR", raising=False)
    (tmp_path / "results" / "data").mkdir(parents=True)
    (tmp_path / "results" / "data" / "car.csv").write_text("a,class\nx,acc\ny,unacc\n")
    raw["mirror"] = None
    raw["datasets"] = {
        "car": {**raw["datasets"]["car"], "classes": ["unacc", "acc"], "kappa_vectors": {}}
    }
    config = validate(select(raw, datasets=["car"]))
    with pytest.raises(ConfigError, match=r"`datasets.car.classes`.*\['acc', 'unacc'\]"):
        pdconfig.check_data(config)


def test_numeric_features_must_be_columns(raw, uci_mirror, monkeypatch):
    monkeypatch.setenv("UCI_MIRROR", str(uci_mirror))
    raw["datasets"]["dermatology"]["numeric_features"] = ["Age"]
    config = validate(raw)
    with pytest.raises(ConfigError, match=r"`datasets.dermatology.numeric_features`: \['Age'\]"):
        pdconfig.check_data(config)


def test_configured_mirror_must_exist(raw, tmp_path):
    raw["mirror"] = str(tmp_path / "nowhere")
    config = validate(raw)
    with pytest.raises(ConfigError, match=r"`mirror`: .*nowhere.* is not a folder with MANIFEST"):
        pdconfig.check_data(config)


def test_specs(raw):
    config = validate(raw)
    spec = pdconfig.dataset_spec(config, "dermatology", "weka")
    assert spec.classes == ("2", "1", "3", "5", "4", "6")
    assert spec.numeric_features == ("age",) and spec.missing == "?"
    assert spec.options["missing_as_category"] is True
    assert pdconfig.dataset_spec(config, "dermatology", "sklearn").options == {}
    import dataclasses

    assert pdconfig.dataset_spec_from_dict(dataclasses.asdict(spec)) == spec
    assert pdconfig.cv_spec(config).folds == config["cv"]["folds"]
    jobs = pdconfig.cv_jobs(config)
    assert len(jobs) == sum(len(config["classifiers"][e]) for e in config["engines"]) * 4


# --- through Snakemake: stop before any job, name the key, write nothing ----------------


def test_cv_parts_resolve_to_the_datasets_of_the_run(uci_mirror):
    config = select(copy.deepcopy(repo_config()), datasets=["car", "dermatology"])
    config["cv"]["parts"] = {"krkopt": {"J48": 2}, "dermatology": {"J48": 3}, "car": {"Bagging": 1}}
    config["mirror"] = str(uci_mirror)
    # run order; krkopt is defined but not selected by run.datasets
    parts = pdconfig.prepare_config(config)["cv"]["parts"]
    assert list(parts.items()) == [("car", {"Bagging": 1}), ("dermatology", {"J48": 3})]


@pytest.mark.parametrize(
    ("parts", "message"),
    [
        ({"kr_kopt": {"J48": 2}}, r"`cv.parts`: \['kr_kopt'\] are not defined"),
        ({"krkopt": {"J84": 2}}, r"`cv.parts.krkopt`: \['J84'\] are not classifiers of any engine"),
    ],
)
def test_cv_parts_name_an_unknown_dataset_or_classifier(parts, message):
    config = copy.deepcopy(repo_config())
    config["cv"]["parts"] = parts
    with pytest.raises(ConfigError, match=message):
        pdconfig.prepare_config(config)


@pytest.mark.parametrize(
    "parts", [{"krkopt": {"J48": 0}}, {"krkopt": ["J48"]}, {"krkopt": {"J48": "2"}}]
)
def test_cv_parts_are_positive_counts(parts):
    config = copy.deepcopy(repo_config())
    config["cv"]["parts"] = parts
    with pytest.raises(ConfigError, match="parts"):
        pdconfig.prepare_config(config)


@pytest.mark.parametrize("key", ["per_fold", "plan_cores"])
def test_the_keys_of_the_old_planner_are_refused(key):
    config = copy.deepcopy(repo_config())
    config["cv"][key] = True if key == "per_fold" else 16
    with pytest.raises(ConfigError, match=key):
        pdconfig.prepare_config(config)
