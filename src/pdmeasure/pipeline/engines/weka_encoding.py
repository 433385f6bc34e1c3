"""The Weka encoding of a canonical dataset table: as the source declares it, or by the rules
that reproduce the paper's numbers.

A dataset's ``weka`` block in ``config.yaml`` names the encoding rules. For a source that
declares its attributes (an ARFF file, OpenML) the default is ``value_order: declared`` with
``all_nominal: false``: every attribute keeps its declared type, every nominal attribute its
declared values in declared order, the class attribute its declared classes in declared
order, and ``?`` is Weka's missing value -- the instances Weka's own ARFF loader builds, so
that the engine's matrices equal those of Weka run on the file (``-t file.arff -x 10 -s 1``).
Weka prints an instance's nominal values by their text and its numbers with
``Utils.doubleToString(value, 6)``; RandomTree (and so RandomForest) seeds its random
generator from that text (``Instances.getRandomNumberGenerator``), and every classifier sees
the value order (ties, splits, priors), so both must be the loader's.

The papers' four UCI datasets name other rules; each is forced by at least one published
number of paper 000 (Tables 6-9):

``all_nominal`` (bool)
    Every feature becomes a nominal attribute, including numeric-looking ones (dermatology's
    scores and age, krkopt's ranks). ``false`` makes the dataset's ``numeric_features``
    numeric attributes (the missing marker then becomes Weka's missing value).
``value_order`` (``"declared"``, ``"sorted"`` or ``"first_appearance"``)
    Order in which a nominal attribute's values are declared. ``declared``: the source's
    declaration (``declared_values``, which the pipeline reads from the ARFF header or OpenML's
    metadata), the class attribute included -- the engine maps Weka's class indices back to
    the configured class order, so any order may be configured for the kappa vectors; an
    attribute the source does not declare nominal falls back to ``sorted``. ``sorted``:
    numeric order when every declared value is a number, otherwise alphabetical (code-point)
    order; a missing marker kept as a category is a declared value like any other, so
    dermatology's age is declared ``10, 12, ..., 8, 9, ?`` (see :func:`declared_values`).
    ``first_appearance``: order of first appearance in the file (breaks Table 8's Bagging
    column). Under these two the class attribute is declared in the dataset's configured
    class order (the positional order of kappa vectors).
``missing_as_category`` (bool)
    Keep the missing marker (dermatology's ``?`` ages) as an ordinary category instead of a
    Weka missing value. Table 8 needs it: with ``?`` as missing, Weka's Bagging gives 0.4016
    for a cell printed 0.3798.
``keep_file_order`` (bool)
    Instances stay in the original file order. The cross-validation folds are drawn by
    shuffling this order with ``java.util.Random(seed)``, so any other order gives other
    folds; ``false`` is rejected because no other order reproduces the paper.

Only :func:`to_instances` needs a running JVM; the rules themselves are plain Python.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from pdmeasure.pipeline.engines.base import DatasetSpec, missing_class_rows

VALUE_ORDERS = ("sorted", "first_appearance", "declared")


@dataclass(frozen=True)
class WekaEncoding:
    """The validated ``weka`` block of one dataset (see the module docstring for each rule).

    ``declared_values`` is not a user's key: the pipeline resolves it from the source
    (:func:`pdmeasure.pipeline.config.resolve.resolve_weka`) for ``value_order: declared``.
    """

    all_nominal: bool = True
    value_order: str = "sorted"
    missing_as_category: bool = False
    keep_file_order: bool = True
    declared_values: Mapping[str, tuple[str, ...]] | None = None

    @classmethod
    def from_options(cls, options: Mapping[str, Any] | None) -> WekaEncoding:
        """Build from a dataset's ``weka`` config block.

        A ``value_order`` of None is ``declared`` when ``declared_values`` are given, else
        ``sorted``.

        Raises
        ------
        ValueError
            On an unknown key, a non-boolean flag, an unknown ``value_order``,
            ``value_order: declared`` without ``declared_values``, or
            ``keep_file_order: false``.
        """
        options = dict(options or {})
        if options.get("declared_values") is not None:
            options["declared_values"] = {
                str(name): tuple(str(v) for v in values)
                for name, values in options["declared_values"].items()
            }
        if options.get("value_order", "sorted") is None:
            options["value_order"] = (
                "sorted" if options.get("declared_values") is None else "declared"
            )
        known = {f for f in cls.__dataclass_fields__}
        unknown = sorted(set(options) - known)
        if unknown:
            raise ValueError(f"unknown weka encoding option(s) {unknown}; known: {sorted(known)}")
        for flag in ("all_nominal", "missing_as_category", "keep_file_order"):
            if flag in options and not isinstance(options[flag], bool):
                raise ValueError(
                    f"weka option {flag!r} must be true or false, got {options[flag]!r}"
                )
        encoding = cls(**options)
        if encoding.value_order not in VALUE_ORDERS:
            raise ValueError(
                f"weka option value_order must be one of {VALUE_ORDERS}, got {encoding.value_order!r}"
            )
        if encoding.value_order == "declared" and encoding.declared_values is None:
            raise ValueError(
                "weka option value_order: declared needs declared_values, the nominal values "
                "the source declares (the pipeline reads them from an ARFF header or OpenML)"
            )
        if not encoding.keep_file_order:
            raise ValueError(
                "weka option keep_file_order: false is not supported; the folds of "
                "Weka's cross-validation are drawn from the file order"
            )
        return encoding


def _as_number(value: str) -> float | None:
    try:
        number = float(value)
    except ValueError:
        return None
    return number if math.isfinite(number) else None


def declared_values(values: Sequence[str], *, value_order: str = "sorted") -> list[str]:
    """The declared value list of one nominal attribute.

    Parameters
    ----------
    values : sequence of str
        The column's cells that are values (cells that become Weka missing values removed).
    value_order : {"sorted", "first_appearance"}
        ``sorted``: numeric order (ties broken by the text) when every value is a number,
        otherwise alphabetical (code-point order, as Python's and Java's string sort).
        ``first_appearance``: order of first appearance. (``declared`` takes the source's
        list, see :func:`encode`, and falls back to ``sorted`` here.)

    Returns
    -------
    list of str
        Distinct values, each once.

    Examples
    --------
    >>> declared_values(["10", "8", "9", "10"])
    ['8', '9', '10']
    >>> declared_values(["10", "8", "?"])
    ['10', '8', '?']
    """
    distinct = list(dict.fromkeys(values))
    if value_order == "first_appearance":
        return distinct
    if value_order not in ("sorted", "declared"):
        raise ValueError(f"value_order must be one of {VALUE_ORDERS}, got {value_order!r}")
    numbers = [_as_number(v) for v in distinct]
    if all(n is not None for n in numbers):
        return [v for _, v in sorted(zip(numbers, distinct))]
    return sorted(distinct)


@dataclass(frozen=True)
class AttributeSpec:
    """One Weka attribute: name, and its declared values (``None`` for a numeric attribute)."""

    name: str
    values: tuple[str, ...] | None


def encode(data: pd.DataFrame, dataset: DatasetSpec) -> tuple[list[AttributeSpec], np.ndarray]:
    """Attribute declarations and the value matrix of a canonical table (no JVM needed).

    Parameters
    ----------
    data : DataFrame
        Canonical table: strings, original file order, the class column ``dataset.target``.
    dataset : DatasetSpec
        ``dataset.options`` is the ``weka`` block (see :class:`WekaEncoding`).

    Returns
    -------
    attributes : list of AttributeSpec
        Features in column order, then the class attribute last, its values in
        :func:`class_values` order.
    values : ndarray, shape (n_rows, n_attributes), float
        Weka's internal values: the index of the declared value for nominal attributes, the
        number for numeric ones, NaN (Weka's missing value) for missing cells, the class of a
        row without a class included.

    Raises
    ------
    ValueError
        If the class column is absent, a class label is not configured, a numeric feature has
        a non-numeric cell, a nominal cell is not among its attribute's declared values, or
        the table is empty.
    """
    encoding = WekaEncoding.from_options(dataset.options)
    features, numeric = _features(data, dataset, encoding)
    attributes: list[AttributeSpec] = []
    columns: list[np.ndarray] = []
    marker = dataset.missing
    for name in features:
        cells = data[name].to_numpy(dtype=object)
        is_missing = (cells == marker) if marker is not None else np.zeros(len(cells), bool)
        if name in numeric:
            attributes.append(AttributeSpec(name, None))
            columns.append(_numeric_column(cells, is_missing, name, dataset.name))
            continue
        declared, column = _nominal_column(cells, is_missing, encoding, name, dataset)
        attributes.append(AttributeSpec(name, declared))
        columns.append(column)
    classes = class_values(dataset)
    attributes.append(AttributeSpec(dataset.target, classes))
    columns.append(_class_column(data, dataset, classes))
    return attributes, np.column_stack(columns)


def class_values(dataset: DatasetSpec) -> tuple[str, ...]:
    """The values of the class attribute, in the order Weka declares them.

    Under ``value_order: declared`` the source's class order (as Weka's loader declares it),
    when it holds the same classes as ``dataset.classes``; else ``dataset.classes``.
    """
    encoding = WekaEncoding.from_options(dataset.options)
    if encoding.value_order == "declared" and encoding.declared_values is not None:
        declared = encoding.declared_values.get(dataset.target)
        if declared is not None and sorted(declared) == sorted(dataset.classes):
            return tuple(declared)
    return tuple(dataset.classes)


def class_positions(dataset: DatasetSpec) -> np.ndarray:
    """For each class index of the Weka class attribute, its position in ``dataset.classes``."""
    position = {c: i for i, c in enumerate(dataset.classes)}
    return np.array([position[c] for c in class_values(dataset)], dtype=np.int64)


def _features(
    data: pd.DataFrame, dataset: DatasetSpec, encoding: WekaEncoding
) -> tuple[list[str], set[str]]:
    """The feature columns and those of them encoded as numbers, the table checked."""
    if dataset.target not in data.columns:
        raise ValueError(
            f"{dataset.name}: class column {dataset.target!r} not in {list(data.columns)}"
        )
    if len(data) == 0:
        raise ValueError(f"{dataset.name}: the table has no rows")
    features = [c for c in data.columns if c != dataset.target]
    numeric = set() if encoding.all_nominal else set(dataset.numeric_features)
    unknown_numeric = numeric - set(features)
    if unknown_numeric:
        raise ValueError(
            f"{dataset.name}: numeric_features {sorted(unknown_numeric)} are not columns"
        )
    return features, numeric


def _numeric_column(
    cells: np.ndarray, is_missing: np.ndarray, name: str, dataset: str
) -> np.ndarray:
    """A numeric attribute's values: the numbers, NaN where a cell is missing."""
    column = np.full(len(cells), np.nan)
    for i, cell in enumerate(cells):
        if not is_missing[i]:
            number = _as_number(cell)
            if number is None:
                raise ValueError(
                    f"{dataset}: numeric feature {name!r} has non-numeric cell {cell!r} (row {i})"
                )
            column[i] = number
    return column


def _nominal_column(
    cells: np.ndarray,
    is_missing: np.ndarray,
    encoding: WekaEncoding,
    name: str,
    dataset: DatasetSpec,
) -> tuple[tuple[str, ...], np.ndarray]:
    """A nominal attribute's declared values and the index of each cell's (NaN: missing)."""
    present = cells if encoding.missing_as_category else cells[~is_missing]
    source = (encoding.declared_values or {}).get(name)
    if encoding.value_order == "declared" and source is not None:
        declared = list(source)
        unknown = [v for v in dict.fromkeys(cells[~is_missing]) if v not in source]
        if unknown:
            raise ValueError(
                f"{dataset.name}: attribute {name!r} has the value(s) {unknown[:5]}, which its "
                f"declaration {declared} does not list"
            )
        if encoding.missing_as_category and is_missing.any() and dataset.missing not in source:
            declared.append(str(dataset.missing))  # a kept marker: after the declared values
    else:
        declared = declared_values(list(present), value_order=encoding.value_order)
    index = {v: float(i) for i, v in enumerate(declared)}
    return tuple(declared), np.array([index.get(cell, np.nan) for cell in cells])


def _class_column(data: pd.DataFrame, dataset: DatasetSpec, classes: Sequence[str]) -> np.ndarray:
    """The class attribute's values: each label's position in ``classes``, NaN (Weka's
    missing value) for a row without a class (:func:`missing_class_rows`), as Weka's ARFF
    loader reads a ``?`` class."""
    class_index = {c: float(i) for i, c in enumerate(classes)}
    labels = data[dataset.target].to_numpy(dtype=object)
    unclassed = missing_class_rows(data, dataset)
    unknown = sorted(set(labels[~unclassed]) - set(class_index))
    if unknown:
        raise ValueError(
            f"{dataset.name}: class labels {unknown} are not among the configured classes {list(dataset.classes)}"
        )
    return np.array(
        [np.nan if none else class_index[v] for v, none in zip(labels, unclassed, strict=True)]
    )


def to_instances(data: pd.DataFrame, dataset: DatasetSpec) -> Any:  # a JPype proxy of a Java object
    """A ``weka.core.Instances`` object (class = last attribute) built from the canonical table.

    Needs a running JVM (see :func:`pdmeasure.pipeline.engines.weka_engine.ensure_jvm`). Instances are
    added in file order with weight 1; the relation is named after the dataset.
    """
    attributes, values = encode(data, dataset)
    return instances_from_array(dataset.name, attributes, values)


def instances_from_array(
    relation: str, attributes: Sequence[AttributeSpec], values: np.ndarray
) -> Any:  # a JPype proxy of a Java object
    """A ``weka.core.Instances`` named ``relation`` of ``attributes``, one instance of weight 1
    per row of ``values`` (Weka's internal values: a nominal value's index, NaN for missing),
    in row order; the last attribute is the class. Needs a running JVM."""
    from jpype import JArray, JClass, JDouble

    ArrayList = JClass("java.util.ArrayList")
    Attribute = JClass("weka.core.Attribute")
    DenseInstance = JClass("weka.core.DenseInstance")
    Instances = JClass("weka.core.Instances")
    declared = ArrayList()
    for spec in attributes:
        if spec.values is None:
            declared.add(Attribute(spec.name))
        else:
            labels = ArrayList()
            for value in spec.values:
                labels.add(value)
            declared.add(Attribute(spec.name, labels))
    instances = Instances(relation, declared, values.shape[0])
    instances.setClassIndex(len(attributes) - 1)
    rows = JArray(JDouble, 2)(np.ascontiguousarray(values))
    for row in rows:
        instances.add(DenseInstance(1.0, row))
    return instances
