"""Class labels of a dataset: their order of first appearance, and checks of a configured order.

The kappa vector is positional, so the class order is part of the meaning of every kappa
vector: a configured order must be the data's. A declared class (configured, or declared by
an ARFF header or OpenML's metadata) with no sample is data too: it keeps its place.

A row whose class cell is the dataset's missing marker (ARFF's ``?``) has no class: it stays
in the canonical table but is no class of the class order, and every engine leaves it out of
training and scoring, as Weka does ("Ignored Class Unknown Instances"). A configured class
order that lists the marker keeps it a class of its own (:func:`missing_class_label`).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import numpy as np

from pdmeasure.pipeline.errors import ConfigError


def missing_class_label(classes: Iterable[str] | None, missing: str | None) -> str | None:
    """The class cell that marks a row without a class, or None when no cell does.

    Parameters
    ----------
    classes : iterable of str or None
        The class order (configured, or declared by the source); None while it is being
        derived from the data.
    missing : str or None
        The dataset's missing marker (``datasets.<name>.missing``).

    Returns
    -------
    str or None
        ``missing``, unless it is None or one of ``classes`` (a class order that lists the
        marker makes it an ordinary class, as the run treated it before missing classes were
        set aside).
    """
    if missing is None or (classes is not None and missing in set(classes)):
        return None
    return missing


def class_is_missing(
    labels: Iterable[str], classes: Iterable[str] | None, missing: str | None
) -> np.ndarray:
    """Whether each class cell of ``labels`` marks a row without a class.

    Parameters
    ----------
    labels : iterable of str
        The class column, one cell per row.
    classes, missing
        As for :func:`missing_class_label`.

    Returns
    -------
    ndarray of bool, shape (len(labels),)
    """
    cells = np.asarray(list(labels), dtype=object)
    label = missing_class_label(classes, missing)
    if label is None:
        return np.zeros(cells.shape[0], dtype=bool)
    return np.asarray(cells == label, dtype=bool)


def missing_class_text(name: str, count: int, total: int, marker: str | None) -> str:
    """The note about rows without a class: where they stay, and what leaves them out."""
    return (
        f"dataset {name}: {count} of the {total} rows have no class (class cell {marker!r}); "
        "they stay in the canonical table, and every engine leaves them out of training and "
        "scoring, as Weka does (its 'Ignored Class Unknown Instances'; the Weka engine keeps "
        "them in its fold assignment, as Weka's cross-validation does) -- to use them, give "
        "them a class in the data"
    )


def first_appearance(labels: Iterable[str]) -> list[str]:
    """Distinct labels in the order of their first appearance."""
    return list(dict.fromkeys(labels))


def check_class_order(
    name: str,
    configured: Sequence[str],
    observed: Sequence[str],
    *,
    source: str | None = None,
    ordered: bool = True,
    declared_by: str | None = None,
) -> list[str]:
    """Check that ``configured`` (``datasets.<name>.classes``) is the data's class order.

    A configured (or source-declared) class with no sample is data, not an error: it stays in
    the class order (every matrix gets a zero row for it, a zero column too when it is never
    predicted), and it is returned so that the caller can say so.

    Parameters
    ----------
    name : str
        Dataset key.
    configured : sequence of str
        The class order of the run: configured, or declared by the source.
    observed : sequence of str
        The data's labels in their order of first appearance (see :func:`first_appearance`).
    source : str, optional
        Which dataset and file the labels come from, e.g. ``dataset `toy` (file toy.csv)``;
        defaults to the dataset alone.
    ordered : bool
        Whether the order must match too (False: a source that declares its own class order,
        where any configured order is the user's choice). Classes without a sample have no
        first appearance and may stand anywhere.
    declared_by : str, optional
        Where ``configured`` comes from when the config leaves it out (``declared order in
        file x.arff``); the message then says so instead of blaming the key.

    Returns
    -------
    list of str
        The classes of ``configured`` that have no sample, in class order (empty when every
        class occurs).

    Raises
    ------
    ConfigError
        If the data have fewer than two classes, a label of the data is not among
        ``configured``, or (``ordered``) the classes that occur are in another order (see the
        module docstring for why the order matters).
    """
    key = f"datasets.{name}.classes"
    subject = source or f"dataset `{name}`"
    configured, observed = list(configured), list(observed)
    if len(observed) < 2:
        found = f"only one class, {observed[0]!r}" if observed else "no class labels"
        raise ConfigError(
            f"config key `{key}`: {subject}: the data have {found}; a classifier needs at least "
            f"two classes -- to fix: check that `datasets.{name}.target` names the class column, "
            "or give data with at least two classes"
        )
    unexpected = [label for label in observed if label not in configured]
    if unexpected:
        where = (
            f"not among the classes of the {declared_by} {configured} (`{key}` is not set)"
            if declared_by
            else "not configured"
        )
        raise ConfigError(
            f"config key `{key}`: {subject}: the data have labels {unexpected} that are {where}; "
            f"the data's classes in order of first appearance are {observed} -- to fix: set "
            f"`{key}` to that list (with one value per class in every kappa vector; a declared "
            "class without a sample may stay), or correct the data"
        )
    present = [label for label in configured if label in observed]
    if ordered and present != observed:
        raise ConfigError(
            f"config key `{key}`: {subject}: {configured} is not the data's class order; the "
            f"classes first appear in the order {observed}, which is the papers' order and the "
            f"positions of every kappa vector -- to fix: set `{key}` to that list"
        )
    return [label for label in configured if label not in observed]


def absent_classes_text(name: str, absent: Sequence[str], total: int) -> str:
    """The warning about classes with no sample: what happens to them, and how to drop them."""
    return (
        f"dataset {name}: class(es) {list(absent)} have no sample among the {total} rows; "
        "they stay in the class order as declared: every confusion matrix has a zero row for "
        "each (and a zero column where it is never predicted), its recall is 0/0 and takes "
        "the `zero_division` value, and every kappa vector keeps a weight for it -- to drop "
        f"them, set `datasets.{name}.classes` to the classes that occur"
    )
