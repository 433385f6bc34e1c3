"""Part jobs: a classifier's cross-validation cut into contiguous ranges of folds.

The model fitting of one engine and dataset is one job (rule ``cross_validate``) that fits
every classifier one after the other in one process. The config can cut a classifier out of
it (``cv.parts: {<dataset>: {<classifier>: n}}``): each of its cross-validation schemes --
the k-fold CV (scheme ``cv``: ``cv.repeats`` x ``cv.folds`` folds) and, with
``stats.cv5x2``, the 5 x 2-fold CV (scheme ``cv5x2``: 10 folds) -- then runs as ``n`` part
jobs (rule ``cross_validate_part``) of contiguous folds in (repeat, fold) order, which the
dataset's job assembles. The files are byte-identical either way: the engines compute any
fold alone exactly as within the whole run.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

#: The cross-validation schemes of a classifier, in the order its files are written.
SCHEMES = ("cv", "cv5x2")


def scheme_folds(scheme: str, cv: Mapping[str, Any]) -> tuple[int, int]:
    """``(repeats, folds)`` of a scheme: the ``cv`` block's, or 5 x 2 for ``cv5x2``.

    Raises
    ------
    ValueError
        An unknown scheme.
    """
    if scheme == "cv":
        return int(cv["repeats"]), int(cv["folds"])
    if scheme == "cv5x2":
        return 5, 2
    raise ValueError(f"unknown cross-validation scheme {scheme!r}; known: {SCHEMES}")


@dataclass(frozen=True, order=True)
class Part:
    """The folds ``first`` .. ``last`` (1-based positions in (repeat, fold) order) of one
    scheme of a classifier; its file name is :attr:`name`, e.g. ``cv_1-5``."""

    scheme: str
    first: int
    last: int

    @property
    def name(self) -> str:
        """``<scheme>_<first>-<last>``, the ``part`` wildcard of rule cross_validate_part."""
        return f"{self.scheme}_{self.first}-{self.last}"

    @classmethod
    def parse(cls, name: str) -> Part:
        """The part named ``name`` (:attr:`name`); a path's file stem works too.

        Raises
        ------
        ValueError
            ``name`` is not ``<scheme>_<first>-<last>`` with 1 <= first <= last.
        """
        match = re.fullmatch(r"(\w+?)_(\d+)-(\d+)", Path(name).stem)
        if not match or match.group(1) not in SCHEMES:
            raise ValueError(f"{name!r} is not a part name such as cv_1-5 or cv5x2_3-4")
        part = cls(match.group(1), int(match.group(2)), int(match.group(3)))
        if not 1 <= part.first <= part.last:
            raise ValueError(f"part {name!r}: folds {part.first}-{part.last} are not a range")
        return part

    def pairs(self, folds: int) -> tuple[tuple[int, int], ...]:
        """The ``(repeat, fold)`` pairs of the part, for ``folds`` folds per repeat."""
        return tuple(
            ((position - 1) // folds + 1, (position - 1) % folds + 1)
            for position in range(self.first, self.last + 1)
        )

    @property
    def size(self) -> int:
        """Number of folds in the part."""
        return self.last - self.first + 1


def split_positions(scheme: str, n: int, k: int) -> tuple[Part, ...]:
    """``n`` folds cut into ``k`` contiguous parts whose sizes differ by at most one (the
    larger first); ``k`` is clipped to ``1 <= k <= n``.

    Examples
    --------
    >>> [p.name for p in split_positions("cv", 10, 4)]
    ['cv_1-3', 'cv_4-6', 'cv_7-8', 'cv_9-10']
    """
    k = max(1, min(int(k), int(n)))
    sizes = [n // k + (1 if i < n % k else 0) for i in range(k)]
    parts, first = [], 1
    for size in sizes:
        parts.append(Part(scheme, first, first + size - 1))
        first += size
    return tuple(parts)


def classifier_parts(n: int | None, cv: Mapping[str, Any], cv5x2: bool) -> tuple[Part, ...]:
    """The parts of a classifier that ``cv.parts`` cuts into ``n`` (None: none): ``n`` parts
    of each scheme it runs, the k-fold CV first.

    Examples
    --------
    >>> [p.name for p in classifier_parts(2, {"folds": 10, "repeats": 1}, True)]
    ['cv_1-5', 'cv_6-10', 'cv5x2_1-5', 'cv5x2_6-10']
    >>> classifier_parts(None, {"folds": 10, "repeats": 1}, True)
    ()
    """
    if not n:
        return ()
    schemes = SCHEMES if cv5x2 else SCHEMES[:1]
    return tuple(
        part for scheme in schemes for part in split_positions(scheme, _total(scheme, cv), n)
    )


def _total(scheme: str, cv: Mapping[str, Any]) -> int:
    repeats, folds = scheme_folds(scheme, cv)
    return repeats * folds


def fit_log_line(scheme: str, seconds: float, done: int, total: int) -> str:
    """The log line that records the fitting CPU time of ``done`` of a scheme's ``total``
    folds."""
    return f"fit CPU time {scheme} {seconds:.3f} s for {done} of {total} folds"
