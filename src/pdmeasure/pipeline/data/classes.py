"""Class labels of a dataset: their order of first appearance, and checks of a configured order.

The kappa vector is positional, so the class order is part of the meaning of every kappa
vector: a configured order must be the data's.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from pdmeasure.pipeline.errors import ConfigError


def first_appearance(labels: Iterable[str]) -> list[str]:
    """Distinct labels in the order of their first appearance."""
    return list(dict.fromkeys(labels))


def label_mismatch(
    found: Sequence[str], expected: Sequence[str], unexpected_text: str, missing_text: str
) -> str:
    """What differs between two label lists, in words (empty when they hold the same labels).

    ``unexpected_text`` and ``missing_text`` are formats with one ``{}`` for the labels of
    ``found`` not in ``expected`` and of ``expected`` not in ``found``.
    """
    unexpected = [label for label in found if label not in expected]
    missing = [label for label in expected if label not in found]
    parts = [
        text.format(labels)
        for text, labels in ((unexpected_text, unexpected), (missing_text, missing))
        if labels
    ]
    return " and ".join(parts)


def check_class_order(
    name: str,
    configured: Sequence[str],
    observed: Sequence[str],
    *,
    source: str | None = None,
    ordered: bool = True,
) -> None:
    """Check that ``configured`` (``datasets.<name>.classes``) is the data's class order.

    Parameters
    ----------
    name : str
        Dataset key.
    configured : sequence of str
        The configured class order.
    observed : sequence of str
        The data's labels in their order of first appearance (see :func:`first_appearance`).
    source : str, optional
        Which dataset and file the labels come from, e.g. ``dataset `toy` (file toy.csv)``;
        defaults to the dataset alone.
    ordered : bool
        Whether the order must match too (False: a source that declares its own class order,
        where any configured order is the user's choice).

    Raises
    ------
    ConfigError
        If the data have fewer than two classes, a label is missing on either side, or the
        order differs (see the module docstring for why the order matters).
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
    problem = label_mismatch(
        observed,
        configured,
        "the data have labels {} that are not configured",
        "configured labels {} do not occur in the data",
    )
    if problem:
        raise ConfigError(
            f"config key `{key}`: {subject}: {problem}; the data's classes in order "
            f"of first appearance are {observed} -- to fix: set `{key}` to that list (with one "
            "value per class in every kappa vector), or correct the data"
        )
    if ordered and configured != observed:
        raise ConfigError(
            f"config key `{key}`: {subject}: {configured} is not the data's class order; the "
            f"classes first appear in the order {observed}, which is the papers' order and the "
            f"positions of every kappa vector -- to fix: set `{key}` to that list"
        )
