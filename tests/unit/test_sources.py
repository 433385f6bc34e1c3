"""The dataset sources: CSV/TSV, ARFF (declared class order) and OpenML (recorded responses).

OpenML is exercised without a network in two ways: the real call of
``sklearn.datasets.fetch_openml`` with its download patched to serve scikit-learn's own
recorded responses (as scikit-learn's tests do), which fills the cache; and a failed download
that falls back to the mirror folder `.test/data/openml` built from the same recordings.
"""

from __future__ import annotations

import gzip
import hashlib
import io
import json
import urllib.error
from pathlib import Path

import pandas as pd
import pytest
import sklearn

from helpers import REPO_ROOT, ZOO_CLASSES
from pdmeasure.pipeline.config import ConfigError
from pdmeasure.pipeline.data import openml, sources
from pdmeasure.pipeline.errors import DataFetchError

RECORDED = Path(sklearn.__file__).parent / "datasets" / "tests" / "data" / "openml"
MIRROR = REPO_ROOT / ".test" / "data" / "openml"
ZOO = REPO_ROOT / ".test" / "data" / "zoo.arff"

ARFF = """\
% weather, with a quoted value and a missing one
@relation weather
@attribute outlook {sunny, overcast, 'light rain'}
@attribute temperature numeric
@attribute windy {TRUE, FALSE}
@attribute play {yes, no, maybe}

@data
sunny,85,FALSE,no
'light rain',?,TRUE,yes
overcast,83.5,?,yes
sunny,72,TRUE,maybe
"""


# --- CSV / TSV ------------------------------------------------------------------------------


def test_tsv_without_header_gets_numbered_columns(tmp_path):
    path = tmp_path / "x.tsv"
    path.write_text("a\t1\tyes\nb\t2\tno\n", encoding="utf-8")
    table = sources.read_delimited("x", path, separator="\t", header=False, target=-1)
    assert list(table.frame.columns) == ["column_1", "column_2", "column_3"]
    assert table.target == "column_3"
    assert table.frame.to_numpy().tolist() == [["a", "1", "yes"], ["b", "2", "no"]]
    assert table.classes is None and table.numeric is None
    assert table.sha256 == hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.mark.parametrize(
    ("target", "expected"), [("first", "first"), ("last", "c"), (1, "first"), ("b", "b")]
)
def test_a_column_named_first_wins_over_the_keyword(tmp_path, target, expected):
    path = tmp_path / "x.csv"
    path.write_text("a,first,b,c\n1,2,3,4\n", encoding="utf-8")
    assert sources.read_delimited("x", path, target=target).target == expected


def test_sha256_pin_names_both_digests(tmp_path):
    path = tmp_path / "x.csv"
    path.write_text("a,b\n1,2\n", encoding="utf-8")
    with pytest.raises(DataFetchError) as caught:
        sources.read_delimited("x", path, sha256="0" * 64)
    message = str(caught.value)
    assert message.startswith(f"dataset `x` (file {path}): checksum mismatch")
    assert hashlib.sha256(path.read_bytes()).hexdigest() in message and "0" * 64 in message


def test_wrong_field_count_names_the_line(tmp_path):
    path = tmp_path / "x.tsv"
    path.write_text("a\tb\n1\t2\n3\n", encoding="utf-8")
    with pytest.raises(DataFetchError, match=r"line 3 has 1 fields, expected 2"):
        sources.read_delimited("x", path, separator="\t")


def test_numeric_inference_rule():
    frame = pd.DataFrame(
        {
            "n": ["1", "2.5", "?"],
            "mixed": ["1", "x", "2"],
            "all_missing": ["?", "?", "?"],
            "inf": ["1", "inf", "2"],
            "label": ["1", "2", "3"],
        }
    )
    assert sources.infer_numeric(frame, "label", "?") == ("n",)


# --- ARFF -----------------------------------------------------------------------------------


def test_arff_keeps_declared_class_order_and_nominal_text(tmp_path):
    path = tmp_path / "weather.arff"
    path.write_text(ARFF, encoding="utf-8")
    table = sources.read_arff("weather", path)
    assert table.target == "play"
    assert table.classes == ("yes", "no", "maybe")  # declared, not first appearance
    assert table.numeric == ("temperature",)
    assert table.frame["outlook"].tolist() == ["sunny", "light rain", "overcast", "sunny"]
    assert table.frame["temperature"].tolist() == ["85", "?", "83.5", "72"]
    assert table.frame["windy"].tolist() == ["FALSE", "TRUE", "?", "TRUE"]
    # every nominal attribute's values as declared (the Weka engine's `value_order: declared`)
    assert table.nominal == {
        "outlook": ("sunny", "overcast", "light rain"),
        "windy": ("TRUE", "FALSE"),
        "play": ("yes", "no", "maybe"),
    }


def test_zoo_arff_as_openml_serves_it():
    table = sources.read_arff("zoo", ZOO)
    assert table.classes == ZOO_CLASSES
    assert len(table.frame) == 101 and table.numeric == ("legs",)


@pytest.mark.parametrize("path", [ZOO, "weather"])
def test_an_arff_header_declares_what_the_whole_file_does(tmp_path, path):
    """rows=False (the description read while the workflow is parsed) gives the same target,
    classes, numeric features and declared values as reading every row, and no rows."""
    if path == "weather":
        path = tmp_path / "weather.arff"
        path.write_text(ARFF, encoding="utf-8")
    whole, header = sources.read_arff("d", path), sources.read_arff("d", path, rows=False)
    assert (header.target, header.classes, header.numeric, header.nominal) == (
        whole.target,
        whole.classes,
        whole.numeric,
        whole.nominal,
    )
    assert header.frame.empty and list(header.frame.columns) == list(whole.frame.columns)


def test_an_arff_header_leaves_the_rows_errors_to_the_whole_read(tmp_path):
    path = tmp_path / "bad.arff"
    path.write_text("@relation x\n@attribute a {u,v}\n@data\nu,v,w\n", encoding="utf-8")
    assert sources.read_arff("bad", path, rows=False).classes == ("u", "v")
    with pytest.raises(DataFetchError, match="not a valid ARFF"):
        sources.read_arff("bad", path)
    path.write_text("@relation x\n@attribute a {u,v\n@data\nu\n", encoding="utf-8")
    with pytest.raises(DataFetchError, match="not a valid ARFF"):  # a broken header
        sources.read_arff("bad", path, rows=False)


def test_arff_numeric_class_is_an_error_naming_the_fix(tmp_path):
    path = tmp_path / "weather.arff"
    path.write_text(ARFF, encoding="utf-8")
    with pytest.raises(DataFetchError, match=r"class attribute 'temperature' is NUMERIC"):
        sources.read_arff("weather", path, target="temperature")


def test_invalid_arff_names_the_file(tmp_path):
    path = tmp_path / "bad.arff"
    path.write_text("@relation x\n@attribute a {u,v}\n@data\nu,v,w\n", encoding="utf-8")
    with pytest.raises(
        DataFetchError, match=r"dataset `bad` \(file .*bad.arff\): not a valid ARFF"
    ):
        sources.read_arff("bad", path)


def test_unknown_target_names_the_attributes(tmp_path):
    path = tmp_path / "weather.arff"
    path.write_text(ARFF, encoding="utf-8")
    with pytest.raises(ConfigError, match=r"`datasets.weather.target`.*no column 'class'"):
        sources.read_arff("weather", path, target="class")


# --- OpenML ---------------------------------------------------------------------------------


class _Response(io.BytesIO):
    """A urlopen response serving a recorded gzip body, as OpenML sends it."""

    def info(self):
        return {"Content-Encoding": "gzip"}


def _recorded(url: str) -> Path:
    """The recorded response of scikit-learn's tests for an OpenML URL (iris and the other
    datasets it recorded)."""
    path = url.split("openml.org/", 1)[1].split("?")[0]
    parts = path.split("/")
    if path.startswith("data/v1/download/"):
        return next(RECORDED.glob(f"id_*/data-v1-dl-{parts[3]}.arff.gz"))
    kind = {"features": "jdf", "qualities": "jdq"}.get(parts[4], "jd")
    openml_id = parts[-1]
    return RECORDED / f"id_{openml_id}" / f"api-v1-{kind}-{openml_id}.json.gz"


@pytest.fixture
def recorded_openml(monkeypatch):
    """Patch the download of fetch_openml to serve the recorded responses; count the calls."""
    import sklearn.datasets._openml as sk_openml

    calls = []

    def urlopen(request, *args, **kwargs):
        url = getattr(request, "full_url", request)
        calls.append(url)
        return _Response(_recorded(url).read_bytes())

    monkeypatch.setattr(sk_openml, "urlopen", urlopen)
    return calls


@pytest.fixture
def no_network(monkeypatch):
    import sklearn.datasets._openml as sk_openml

    def urlopen(request, *args, **kwargs):
        raise urllib.error.URLError("network unreachable (test)")

    monkeypatch.setattr(sk_openml, "urlopen", urlopen)


def test_openml_real_call_on_recorded_responses_fills_the_cache(tmp_path, recorded_openml):
    cache = tmp_path / "cache"
    table = openml.fetch_openml("iris", 61, cache_dir=cache)
    assert table.target == "class"
    assert table.classes == ("Iris-setosa", "Iris-versicolor", "Iris-virginica")
    assert table.numeric == ("sepallength", "sepalwidth", "petallength", "petalwidth")
    assert table.frame.shape == (150, 5)
    assert table.frame.iloc[0].tolist() == ["5.1", "3.5", "1.4", "0.2", "Iris-setosa"]
    assert table.origin == f"OpenML id 61 (cache {cache})"
    cached = cache / "openml" / "openml.org" / "data" / "v1" / "download" / "61" / "iris.arff.gz"
    assert cached.is_file() and gzip.decompress(cached.read_bytes()).startswith(b"%")
    n_calls = len(recorded_openml)
    again = openml.fetch_openml("iris", 61, cache_dir=cache)  # from the cache, no download
    assert len(recorded_openml) == n_calls
    pd.testing.assert_frame_equal(again.frame, table.frame)


def test_openml_falls_back_to_the_mirror(tmp_path, no_network, caplog):
    table = openml.fetch_openml("iris", 61, cache_dir=tmp_path / "cache", mirror=MIRROR)
    assert table.origin == f"OpenML id 61 (mirror {MIRROR})"
    assert table.classes == ("Iris-setosa", "Iris-versicolor", "Iris-virginica")
    assert table.nominal == {"class": table.classes}
    assert "URLError" in caplog.text and "reading the mirror" in caplog.text


def test_openml_without_network_or_mirror_names_dataset_and_fix(tmp_path, no_network):
    with pytest.raises(DataFetchError) as caught:
        openml.fetch_openml("iris", 61, cache_dir=tmp_path / "cache")
    message = str(caught.value)
    assert message.startswith("dataset `iris` (OpenML id 61): cannot fetch it (URLError")
    assert "openml.mirror" in message
    with pytest.raises(DataFetchError, match=r"the mirror .* does not hold it"):
        openml.fetch_openml("iris", 61, cache_dir=tmp_path / "c2", mirror=tmp_path / "empty")


def test_openml_numeric_target_names_the_config_key(tmp_path, no_network):
    with pytest.raises(DataFetchError) as caught:
        openml.fetch_openml(
            "iris", 61, cache_dir=tmp_path / "cache", mirror=MIRROR, target="petallength"
        )
    message = str(caught.value)
    assert "the class column 'petallength' is REAL, not nominal" in message
    assert "point `datasets.iris.target` at a nominal attribute" in message


def test_numeric_attributes_declared_with_a_range_read_as_weka_reads_them(tmp_path):
    """`@attribute x integer [1,10]` (Weka's breast-w.arff; zoo.arff with CRLF line ends):
    Weka ignores the range, and so does the reader."""
    from pdmeasure.pipeline.data.sources import read_arff

    text = (
        "@relation r\r\n@attribute 'size a' INTEGER [1,10]\r\n@attribute b real [0.5, 2]\r\n"
        "@attribute class {yes,no}\r\n@data\r\n1,0.5,yes\r\n10,2,no\r\n"
    )
    path = tmp_path / "ranged.arff"
    path.write_bytes(text.encode())
    table = read_arff("ranged", path)
    assert table.numeric == ("size a", "b")
    assert table.frame.to_numpy(dtype=object).tolist() == [["1", "0.5", "yes"], ["10", "2", "no"]]


def _declared_classes(openml_id: int, target: str) -> tuple[str, ...]:
    """The class values that OpenML's feature metadata declares for ``target``; where it
    lists none (titanic), those of the recorded ARFF file's header (liac-arff)."""
    import arff

    features = json.loads(
        gzip.decompress(
            (RECORDED / f"id_{openml_id}" / f"api-v1-jdf-{openml_id}.json.gz").read_bytes()
        )
    )["data_features"]["feature"]
    feature = next(f for f in features if f["name"] == target)
    values = feature.get("nominal_value", feature.get("nominal_values"))
    if values is not None:
        return tuple(json.loads(values) if isinstance(values, str) else values)
    (recorded,) = RECORDED.glob(f"id_{openml_id}/data-v1-dl-*.arff.gz")
    header = arff.loads(gzip.decompress(recorded.read_bytes()).decode("utf-8"))
    return tuple(dict(header["attributes"])[target])


@pytest.mark.parametrize("openml_id", [61, 2, 40945, 40966, 561, 1119])
def test_openml_tables_are_scikit_learns_cells_in_the_declared_class_order(
    tmp_path, recorded_openml, openml_id
):
    """On the recorded datasets of scikit-learn's own tests: the table read from the cache has
    scikit-learn's columns (ignored and row-id columns left out), cells, default target and
    numeric features, and the class order that OpenML's metadata declares, classes without a
    sample included (anneal's and 40966's files are truncated: scikit-learn's frame has
    only the classes present); read again while the workflow is parsed (prefer_mirror), the
    cache gives the same table without a download."""
    from sklearn.datasets import fetch_openml as sk_fetch

    cache = tmp_path / "cache"
    try:
        table = openml.fetch_openml("d", openml_id, cache_dir=cache)
    except DataFetchError as exc:  # 561: a numeric default target
        assert "the class column 'class' is REAL, not nominal" in str(exc)
        assert "point `datasets.d.target` at a nominal attribute" in str(exc)
        return
    bunch = sk_fetch(data_id=openml_id, data_home=str(cache), as_frame=True, parser="liac-arff")
    frame = bunch.frame
    expected = pd.DataFrame(
        {
            str(c): pd.array([sources.cell_text(v) for v in frame[c].astype(object)], dtype=str)
            for c in frame.columns
        }
    )
    pd.testing.assert_frame_equal(table.frame, expected)
    assert table.target == bunch.details["default_target_attribute"]
    numbers = [
        c for c in frame.columns if c != table.target and pd.api.types.is_numeric_dtype(frame[c])
    ]
    assert list(table.numeric) == numbers
    assert table.classes == _declared_classes(openml_id, table.target)
    assert set(frame[table.target].dropna().astype(str)) <= set(table.classes)
    n_calls = len(recorded_openml)
    again = openml.fetch_openml("d", openml_id, cache_dir=cache, prefer_mirror=True)
    assert len(recorded_openml) == n_calls
    pd.testing.assert_frame_equal(again.frame, table.frame)
    assert (again.classes, again.origin) == (table.classes, table.origin)


def test_the_parse_time_reader_needs_every_cached_file(tmp_path):
    assert openml.read_cached("iris", 61, tmp_path, None) is None
    assert openml.read_cached("iris", 61, MIRROR, None, kind="mirror").origin == (
        f"OpenML id 61 (mirror {MIRROR})"
    )
