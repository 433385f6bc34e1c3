"""How the model fitting is cut into jobs: one job per classifier, or its folds spread over
part jobs where one job would hold up the run.

The unit of fitting work is one ``(engine, dataset, classifier)``: its k-fold cross-validation
(scheme ``cv``: ``cv.repeats`` x ``cv.folds`` folds) and, with ``stats.cv5x2``, its 5 x 2-fold
cross-validation (scheme ``cv5x2``: 10 folds). A unit runs as one job (rule
``cross_validate``), or as part jobs (rule ``cross_validate_part``), each a contiguous range
of one scheme's folds in (repeat, fold) order, that the unit's job then assembles. Both give
byte-identical files (the engines compute any fold alone exactly as within the whole run).

``cv.per_fold`` chooses: ``false`` (every unit one job), ``true`` (every fold its own part),
a list of datasets (their folds as parts), or ``auto`` (:func:`choose_parts`): a unit whose
cost, with the jobs that follow it (:data:`TAIL_SECONDS`), may be more than a core's share of
the run (the whole fitting work and the work after it, :data:`POST_SECONDS`, over the cores
at hand), its estimate taken :data:`COST_SPREAD` times over, is cut into parts of about half
the fitting work's share, so that no single job holds up the run while the cores idle, and
small units stay whole, because a part pays a process start (and a JVM for Weka) of its own.

The cost of a unit is the fitting CPU time its last run logged (:func:`measured_costs`, from
the lines :func:`fit_log_line` writes), else an estimate from the data's size
(:func:`estimate_cost`: per classifier, a fixed cost, a cost per row and one per row and
class). The plan only shapes the DAG and orders the jobs (:meth:`CVPlan.priority`); no result
depends on it.
"""

from __future__ import annotations

import json
import math
import os
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NamedTuple

from pdmeasure.pipeline.data.mirror import manifest_entry

#: The cross-validation schemes of a unit, in the order a unit's job writes them.
SCHEMES = ("cv", "cv5x2")

#: A unit of fitting work: (engine, dataset, classifier).
Unit = tuple[str, str, str]


class FitCost(NamedTuple):
    """How a classifier class's fitting CPU seconds for one whole cross-validation of a scheme
    grow with the data: ``fixed + per_row * rows + per_row_class * rows * classes``."""

    fixed: float
    per_row: float
    per_row_class: float


#: :class:`FitCost` by classifier class and scheme, fitted (non-negative least squares, each
#: error weighted by one over the square root of the time, so that the large units, which
#: shape the plan, weigh more than the small ones) to the median logged fitting times of nine
#: runs of the papers' DAG on the 2-core development machine (2026-11-27 and -28,
#: ``benchmarks/cores.py``; 10-fold CV; car, nursery, dermatology and krkopt; Weka on car and
#: dermatology with its quick compiler,
#: :data:`~pdmeasure.pipeline.engines.weka_engine.QUICK_JIT_BELOW_CELLS`). The fixed term is
#: what a small dataset costs whatever its size (the JIT's warm-up, an ensemble's hundred
#: members). The rows term is what does not grow with the classes: Weka's DecisionTable
#: searches attribute subsets over the rows, and with rows x classes alone its estimate on
#: nursery (5 classes) was half its logged time while krkopt's (18) was right; nursery's
#: Bagging and DecisionTable then shared one job that held up a run planned for 16 cores. The
#: 5 x 2-fold CV has terms of its own: its fits see half the rows, but its tests are larger.
#: The fitted estimates of nursery and krkopt are within 0.75-1.1 times the logged times;
#: those of car and dermatology within their start-up (dermatology's 34 attributes make its
#: BayesNet and DecisionTable 2-11 times their estimates, 1-3 s). Only the order of magnitude
#: matters: a unit's own logged time replaces the estimate after its first run.
COST_MODEL = {
    "weka.classifiers.trees.RandomForest": {
        "cv": FitCost(0.45, 7.4e-5, 1.1e-4),
        "cv5x2": FitCost(0.33, 8.5e-5, 1.1e-4),
    },
    "weka.classifiers.rules.DecisionTable": {
        "cv": FitCost(0.38, 5.4e-4, 9.9e-6),
        "cv5x2": FitCost(0.32, 2.4e-4, 6.0e-6),
    },
    "weka.classifiers.meta.Bagging": {
        "cv": FitCost(0.59, 1.9e-4, 1.9e-5),
        "cv5x2": FitCost(0.22, 8.9e-5, 1.2e-5),
    },
    "weka.classifiers.bayes.BayesNet": {
        "cv": FitCost(0.22, 1.6e-4, 0.0),
        "cv5x2": FitCost(0.17, 9.3e-5, 0.0),
    },
    "weka.classifiers.trees.J48": {
        "cv": FitCost(0.06, 6.2e-5, 3.4e-6),
        "cv5x2": FitCost(0.047, 8.5e-5, 6.1e-7),
    },
    "sklearn.ensemble.RandomForestClassifier": {
        "cv": FitCost(2.3, 2.1e-4, 3.0e-5),
        "cv5x2": FitCost(2.3, 1.2e-4, 2.1e-5),
    },
    "sklearn.ensemble.BaggingClassifier": {
        "cv": FitCost(0.56, 2.8e-5, 5.6e-6),
        "cv5x2": FitCost(0.42, 1.4e-5, 4.2e-6),
    },
    "sklearn.tree.DecisionTreeClassifier": {
        "cv": FitCost(0.064, 4.5e-6, 8.5e-7),
        "cv5x2": FitCost(0.084, 3.8e-6, 5.8e-7),
    },
    "sklearn.naive_bayes.CategoricalNB": {
        "cv": FitCost(0.11, 0.0, 3.4e-7),
        "cv5x2": FitCost(0.12, 4.0e-6, 1.1e-7),
    },
}
#: The model of a classifier class not in :data:`COST_MODEL`: each scheme's largest known
#: terms, so that an unknown classifier on a large dataset is rather split than left whole.
DEFAULT_COST_MODEL = {
    scheme: FitCost(*(max(terms) for terms in zip(*(m[scheme] for m in COST_MODEL.values()))))
    for scheme in SCHEMES
}

#: CPU seconds a fitting job spends before and around its work, by engine: the interpreter,
#: pandas and scikit-learn imports, reading the data; for Weka also the JVM's start and the
#: encoding of the data as Weka instances (the smallest fitting jobs of the papers' run).
START_SECONDS = {"sklearn": 1.8, "weka": 2.6}
DEFAULT_START_SECONDS = 2.6

#: Shortest part ``auto`` cuts where the run is bound by its work: below it a part's start
#: (:data:`START_SECONDS`) would cost more than a quarter to a third of its work.
MIN_PART_SECONDS = 7.5

#: Where a run is bound by its longest chain instead (more cores than work), parts are as
#: short as that chain needs, down to this many times the engine's start: the idle cores pay
#: the extra starts, and a part of half start, half work still shortens the chain.
PATH_PART_STARTS = 2.0

#: Seconds of the chain of jobs that follow a classifier's last fit to the run's end: its
#: assembly, its dataset's ``analyse``, ``collect`` and the CD diagrams. On krkopt, the
#: papers' largest dataset, they took 2.0, 7.5, 4.6 and 3.3 s in a replay on 16 cores of a
#: 2-core run (2026-11-27, ``benchmarks/cores.py --cores 2 --plan-cores 16 --replay 16``),
#: where analyse had 2 processes of its 3.
TAIL_SECONDS = 15.0

#: How many times its estimate a unit may cost, against the run's other units, on the machine
#: that runs it: the estimates (:data:`COST_MODEL`) are one machine's, and the engines' speeds
#: differ between machines by more than the units' sizes do. scikit-learn's RandomForest on
#: krkopt took 0.35 of the CPU time of Weka's on the development machine (24.7 against 69.8
#: CPU-s, 2d05d40's four jobs, 2026-12-01) and 0.57 of their time on the 16-core device
#: machine (63.8 against 111.6 s, the same jobs at ``--cores 16``, 2026-11-26): 1.6 times.
#: :func:`choose_parts` cuts a unit whose cost, this many times over, would hold up the run.
COST_SPREAD = 1.6

#: CPU seconds of the jobs after the fits, per engine and dataset, the run's shared ones
#: (collect, the figures across datasets, the papers' own tables) included: 142 CPU-s over 8 in
#: the papers' DAG planned for 8 cores (2026-11-27, 2 cores). With the fitting work it sets when
#: a balanced run ends (:func:`choose_parts`).
POST_SECONDS = 15.0

#: How a job's log records its fitting time (:func:`fit_log_line`, :func:`measured_costs`).
_FIT_LINE = re.compile(
    r"fit CPU time (\w+) ([0-9.]+) s for (\d+) of (\d+) folds(?: of classifier (\w+))?"
)


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
    scheme of a unit; its file name is :attr:`name`, e.g. ``cv_1-5``."""

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
    larger first), ``1 <= k <= n``."""
    k = max(1, min(int(k), int(n)))
    sizes = [n // k + (1 if i < n % k else 0) for i in range(k)]
    parts, first = [], 1
    for size in sizes:
        parts.append(Part(scheme, first, first + size - 1))
        first += size
    return tuple(parts)


def is_tiling(parts: Sequence[Part], sizes: Mapping[str, int]) -> bool:
    """Whether ``parts`` cover each scheme of ``sizes`` (scheme -> folds) exactly, in order,
    and no other scheme."""
    by_scheme: dict[str, list[Part]] = {}
    for part in parts:
        by_scheme.setdefault(part.scheme, []).append(part)
    if set(by_scheme) != set(sizes):
        return False
    for scheme, own in by_scheme.items():
        expected = 1
        for part in own:
            if part.first != expected:
                return False
            expected = part.last + 1
        if expected != sizes[scheme] + 1:
            return False
    return [p.scheme for p in parts] == sorted((p.scheme for p in parts), key=SCHEMES.index)


def estimate_cost(
    classifier_class: str, rows: int | None, classes: int, scheme: str = "cv"
) -> float:
    """Estimated fitting CPU seconds of one whole cross-validation of ``scheme``:
    ``fixed + per_row * rows + per_row_class * rows * classes`` of the classifier's
    :data:`COST_MODEL`; 1,000 rows when the size is unknown."""
    model = COST_MODEL.get(classifier_class, DEFAULT_COST_MODEL)[scheme]
    rows = 1000 if rows is None else rows
    return model.fixed + (model.per_row + model.per_row_class * classes) * rows


def fit_log_line(
    scheme: str, seconds: float, done: int, total: int, classifier: str | None = None
) -> str:
    """The log line that records the fitting CPU time of ``done`` of a scheme's ``total``
    folds (read back by :func:`measured_costs`); a batch's job names the ``classifier``."""
    line = f"fit CPU time {scheme} {seconds:.3f} s for {done} of {total} folds"
    return line if classifier is None else f"{line} of classifier {classifier}"


def measured_costs(logs: Path, units: Iterable[Unit]) -> dict[Unit, dict[str, float]]:
    """The fitting CPU seconds of each unit's schemes, as their last runs logged them.

    Reads ``logs/cv/<engine>/<dataset>/<classifier>.log`` (a unit's job), the logs of its
    parts (``.../<classifier>/parts/*.log``) and the lines that name it in the logs of the
    batches (``.../batches/*.log``); a scheme fitted in parts costs the sum of its parts'
    times scaled to all its folds. Where several kinds of log record a scheme, the newest
    wins. Units or schemes with no record are left out.
    """
    costs: dict[Unit, dict[str, float]] = {}
    for unit in units:
        base = logs / "cv" / unit[0] / unit[1]
        whole = _fit_records([base / f"{unit[2]}.log"])
        parts = _fit_records(sorted((base / unit[2] / "parts").glob("*.log")))
        batched = _fit_records(sorted((base / "batches").glob("*.log")), unit[2])
        found = {}
        for scheme in SCHEMES:
            newest = max(
                (
                    r
                    for r in (whole.get(scheme), parts.get(scheme), batched.get(scheme))
                    if r is not None
                ),
                default=None,
                key=lambda record: record[0],
            )
            if newest is not None:
                found[scheme] = newest[1]
        if found:
            costs[unit] = found
    return costs


def _fit_records(
    paths: Iterable[Path], classifier: str | None = None
) -> dict[str, tuple[float, float]]:
    """Scheme -> (newest mtime, CPU seconds scaled to all folds) over the logs ``paths``,
    their fitting lines summed: those that name no classifier, or with ``classifier`` (a
    batch's log) those that name it."""
    sums: dict[str, list[float]] = {}  # scheme -> [mtime, seconds, done, total]
    for path in paths:
        try:
            text = path.read_text(encoding="utf-8", errors="replace")
            mtime = path.stat().st_mtime
        except OSError:
            continue
        for scheme, seconds, done, total, named in _FIT_LINE.findall(text):
            if named != (classifier or ""):
                continue
            entry = sums.setdefault(scheme, [0.0, 0.0, 0, int(total)])
            entry[0] = max(entry[0], mtime)
            entry[1] += float(seconds)
            entry[2] += int(done)
    return {
        scheme: (mtime, seconds * total / done)
        for scheme, (mtime, seconds, done, total) in sums.items()
        if done
    }


@dataclass(frozen=True)
class CVPlan:
    """The jobs of the run's model fitting.

    Attributes
    ----------
    costs : mapping
        Unit -> scheme -> estimated fitting CPU seconds.
    parts : mapping
        Unit -> its parts, in order; empty: the unit runs as one job.
    batches : tuple of tuple of Unit
        Units of one engine and dataset fitted one after the other in one job
        (:func:`choose_batches`); a unit in no batch runs in a job of its own.
    start : mapping
        Engine -> CPU seconds a job spends besides fitting (:data:`START_SECONDS`).
    """

    costs: Mapping[Unit, Mapping[str, float]]
    parts: Mapping[Unit, tuple[Part, ...]]
    batches: tuple[tuple[Unit, ...], ...] = ()
    start: Mapping[str, float] = field(default_factory=lambda: dict(START_SECONDS))

    def batch_cost(self, batch: Sequence[Unit]) -> float:
        """Estimated CPU seconds of a batch's job: every scheme of every unit, and one start."""
        fits = sum(sum(self.costs[unit].values()) for unit in batch)
        return fits + self.start.get(batch[0][0], DEFAULT_START_SECONDS)

    def part_cost(self, unit: Unit, part: Part, folds: int) -> float:
        """Estimated CPU seconds of a part job: its share of the scheme's cost and a start."""
        share = self.costs[unit].get(part.scheme, 0.0) * part.size / folds
        return share + self.start.get(unit[0], DEFAULT_START_SECONDS)

    def job_cost(self, unit: Unit) -> float:
        """Estimated CPU seconds of a unit's job: every scheme when it runs whole; assembling
        its parts (about a start) when it is split."""
        start = self.start.get(unit[0], DEFAULT_START_SECONDS)
        if self.parts.get(unit):
            return start
        return sum(self.costs[unit].values()) + start


def choose_parts(
    costs: Mapping[Unit, Mapping[str, float]],
    folds: Mapping[str, int],
    per_fold: str | Sequence[str],
    cores: int | None,
    start: Mapping[str, float] | None = None,
) -> dict[Unit, tuple[Part, ...]]:
    """Which units run as parts, and which parts.

    Parameters
    ----------
    costs : mapping
        Unit -> scheme -> fitting CPU seconds; the schemes listed are the unit's.
    folds : mapping
        Scheme -> its number of folds over all repeats.
    per_fold : "auto" or sequence of str
        ``cv.per_fold`` as resolved: ``"auto"``, or the datasets whose every fold is a part
        (empty: none).
    cores : int or None
        Jobs that run at once (``--cores``, or ``--jobs`` on a cluster); ``auto`` splits
        nothing on one core or when unknown.
    start : mapping, optional
        Engine -> CPU seconds of a job besides fitting (default :data:`START_SECONDS`).

    Returns
    -------
    dict
        Unit -> parts in scheme then fold order; ``()`` for a unit that runs whole.

    Notes
    -----
    ``auto``: with ``W`` the run's fitting work including one start per unit, ``A`` the work
    after the fits (:data:`POST_SECONDS` per engine and dataset) and ``P`` the cores, a
    balanced run ends after ``(W + A) / P``, and the chain after a unit's fits takes
    :data:`TAIL_SECONDS`. A unit of cost above ``(W + A) / P - TAIL_SECONDS``, started first,
    would still hold up the run's end, and so may one above that over :data:`COST_SPREAD`
    (its cost against the others' on the machine that runs it); such a unit is cut into parts
    of :func:`part_seconds`, each scheme separately, at most one part per fold. Everything
    else stays whole, since a part costs more CPU than its folds in a whole job (a start, and
    for Weka a JIT that warms up again), and so does a unit that fits in less than two of the
    shortest parts (of :data:`MIN_PART_SECONDS`, or shorter where the run is bound by its
    longest chain): cutting it would mostly add starts.
    """
    start = dict(START_SECONDS if start is None else start)
    if per_fold != "auto":
        chosen = set(per_fold)
        return {
            unit: tuple(p for s in schemes for p in split_positions(s, folds[s], folds[s]))
            if unit[1] in chosen
            else ()
            for unit, schemes in costs.items()
        }
    if not cores or cores < 2:
        return {unit: () for unit in costs}
    whole = {
        unit: sum(schemes.values()) + start.get(unit[0], DEFAULT_START_SECONDS)
        for unit, schemes in costs.items()
    }
    end = balanced_end(costs, cores, start)
    # Once per engine: each call sums the whole run's work.
    sizes = {engine: part_seconds(costs, cores, engine, start) for engine in {u[0] for u in costs}}
    plan: dict[Unit, tuple[Part, ...]] = {}
    for unit, schemes in costs.items():
        target = sizes[unit[0]]
        shortest = min(target, MIN_PART_SECONDS)
        if COST_SPREAD * whole[unit] <= end - TAIL_SECONDS or sum(schemes.values()) < 2 * shortest:
            plan[unit] = ()
            continue
        plan[unit] = tuple(
            part
            for scheme in SCHEMES
            if scheme in schemes
            for part in split_positions(scheme, folds[scheme], math.ceil(schemes[scheme] / target))
        )
    return plan


def _fitting_work(
    costs: Mapping[Unit, Mapping[str, float]], start: Mapping[str, float] | None
) -> float:
    """The run's fitting CPU seconds, one start per unit included."""
    start = dict(START_SECONDS if start is None else start)
    return sum(
        sum(schemes.values()) + start.get(unit[0], DEFAULT_START_SECONDS)
        for unit, schemes in costs.items()
    )


def balanced_end(
    costs: Mapping[Unit, Mapping[str, float]],
    cores: int,
    start: Mapping[str, float] | None = None,
) -> float:
    """When a balanced run ends: ``(W + A) / P``, the fitting work ``W`` (one start per unit
    included) and the work after the fits ``A`` (:data:`POST_SECONDS` per engine and dataset)
    over the cores ``P``."""
    after = POST_SECONDS * len({unit[:2] for unit in costs})
    return (_fitting_work(costs, start) + after) / cores


#: A dataset's own jobs after its fits (rules ``analyse`` and ``render``) take several threads
#: only when its fitting is at least this share of the heaviest dataset's
#: (:func:`tail_datasets`).
TAIL_SHARE = 0.5


def tail_datasets(
    costs: Mapping[Unit, Mapping[str, float]], share: float = TAIL_SHARE
) -> frozenset[str]:
    """The datasets whose fits are expected to end last: those whose fitting CPU seconds
    (every engine, classifier and scheme) are at least ``share`` times the heaviest dataset's.

    Their jobs after the fits are on the run's tail. A job of several threads holds its cores
    for its busiest process's time, so elsewhere its threads idle cores that a run bound by
    its work needs. In replays of the papers' runs in the device model
    (``docs/scale-out.md``), threads for the analyses of every dataset against krkopt's alone
    ended the run planned for 8 cores 6.7 s later, the one planned for 16 at the same time,
    and the scikit-learn engine's alone on 16 cores 0.9 s sooner (its nursery analysis ends
    with krkopt's there).

    Examples
    --------
    >>> costs = {("weka", "krkopt", "J48"): {"cv": 9.0}, ("weka", "car", "J48"): {"cv": 1.0},
    ...          ("sklearn", "nursery", "RF"): {"cv": 3.0, "cv5x2": 2.0}}
    >>> sorted(tail_datasets(costs))
    ['krkopt', 'nursery']
    >>> sorted(tail_datasets(costs, share=0.9))
    ['krkopt']
    """
    work: dict[str, float] = {}
    for (_, dataset, _), schemes in costs.items():
        work[dataset] = work.get(dataset, 0.0) + sum(schemes.values())
    heaviest = max(work.values(), default=0.0)
    return frozenset(dataset for dataset, seconds in work.items() if seconds >= share * heaviest)


def part_target(
    costs: Mapping[Unit, Mapping[str, float]],
    cores: int,
    start: Mapping[str, float] | None = None,
) -> float:
    """CPU seconds of the parts of a run bound by its work: half of a core's fair share of the
    run's fitting work (one start per unit included), at least :data:`MIN_PART_SECONDS`."""
    return max(_fitting_work(costs, start) / cores / 2, MIN_PART_SECONDS)


def part_seconds(
    costs: Mapping[Unit, Mapping[str, float]],
    cores: int,
    engine: str,
    start: Mapping[str, float] | None = None,
) -> float:
    """CPU seconds of the parts ``auto`` cuts for ``engine``, and the most a batch may hold.

    :func:`part_target`, unless the run is bound by its longest chain: where a balanced run
    (:func:`balanced_end`) leaves a unit's fits less than that before the chain after them
    (:data:`TAIL_SECONDS`), the parts are as long as it leaves, and at least
    :data:`PATH_PART_STARTS` times the engine's start. A run of the scikit-learn engine alone
    on 16 cores is such a run: about 13 s of work per core, and a chain after the fits of about
    15 s.
    """
    target = part_target(costs, cores, start)
    slack = balanced_end(costs, cores, start) - TAIL_SECONDS
    if slack >= target:
        return target
    own = dict(START_SECONDS if start is None else start).get(engine, DEFAULT_START_SECONDS)
    return max(slack, PATH_PART_STARTS * own)


def batch_target(
    costs: Mapping[Unit, Mapping[str, float]],
    cores: int,
    engine: str,
    start: Mapping[str, float] | None = None,
) -> float:
    """The most fitting CPU seconds a batch of ``engine`` may hold: :func:`part_seconds`, so
    that a batch holds up the run no more than a part does.

    A batch adds up the errors of its units' estimates. With rows x classes alone (before
    :data:`COST_MODEL`'s fixed term) the smaller datasets' estimates were 1.4-100 times too
    low, a batch of a whole part's estimate took 40 CPU-s on nursery and became the critical
    path of a run planned for 8 cores, and batches were held to half a part. With the fixed
    term, half a part made more, smaller batches on 16 cores (42 fitting jobs instead of 40)
    and 28 CPU-s more work (2026-11-27, a replay of a 2-core run planned for 16)."""
    return part_seconds(costs, cores, engine, start)


def choose_batches(
    costs: Mapping[Unit, Mapping[str, float]],
    cores: int | None,
    eligible: Iterable[Unit],
    start: Mapping[str, float] | None = None,
) -> tuple[tuple[Unit, ...], ...]:
    """The ``eligible`` units (whole ones) packed into batches: units of one engine and
    dataset fitted one after the other in one job, so that they share one process start (and
    one JVM, warmed up once, for Weka).

    Parameters
    ----------
    costs : mapping
        Unit -> scheme -> fitting CPU seconds, of every unit of the run (they set the size
        of a batch, :func:`batch_target`).
    cores : int or None
        Jobs that run at once; on one core (or unknown) every eligible unit of an engine and
        dataset goes into one batch, since nothing runs beside it anyway.
    eligible : iterable of Unit
        The units that may share a job, in the run's order: those that run whole.
    start : mapping, optional
        Engine -> CPU seconds of a job besides fitting (default :data:`START_SECONDS`).

    Returns
    -------
    tuple of tuple of Unit
        Batches of two or more units, each in the run's order, in the order of their first
        unit; a unit in none runs in a job of its own.

    Notes
    -----
    The units of each engine and dataset are packed first-fit, largest first, into batches
    of at most :func:`batch_target` seconds of fitting, a part's. A unit that fills a batch
    alone keeps a job of its own.
    """
    eligible = list(eligible)
    order = {unit: position for position, unit in enumerate(eligible)}
    groups: dict[tuple[str, str], list[Unit]] = {}
    for unit in eligible:
        groups.setdefault(unit[:2], []).append(unit)
    # Once per engine: each call sums the whole run's work.
    capacities = {
        engine: math.inf if not cores or cores < 2 else batch_target(costs, cores, engine, start)
        for engine in {engine for engine, _ in groups}
    }
    batches = []
    for (engine, _), units in groups.items():
        capacity = capacities[engine]
        bins: list[tuple[float, list[Unit]]] = []
        for unit in sorted(units, key=lambda u: (-sum(costs[u].values()), order[u])):
            cost = sum(costs[unit].values())
            for index, (filled, members) in enumerate(bins):
                if filled + cost <= capacity:
                    bins[index] = (filled + cost, [*members, unit])
                    break
            else:
                bins.append((cost, [unit]))
        batches += [
            tuple(sorted(members, key=order.__getitem__)) for _, members in bins if len(members) > 1
        ]
    return tuple(sorted(batches, key=lambda batch: order[batch[0]]))


def settle_batches(
    fresh: Callable[[Iterable[Unit]], tuple[tuple[Unit, ...], ...]],
    recorded: Sequence[Sequence[str]],
    key: Mapping[Unit, str],
    finished: Mapping[Unit, bool],
    whole: Iterable[Unit],
) -> tuple[tuple[Unit, ...], ...]:
    """The batches to use: a recorded batch with a finished unit is kept as it was, so that
    running again with other cores reruns nothing; the other whole units that are not
    finished are batched afresh (``fresh``, given the units it may batch).

    A finished unit in no kept batch stays in a job of its own (the job it was made by).
    """
    units = {key[unit]: unit for unit in key}
    whole = list(whole)
    allowed = set(whole)
    kept: list[tuple[Unit, ...]] = []
    for names in recorded:
        found = [units.get(name) for name in names]
        members = tuple(unit for unit in found if unit is not None)
        if (
            len(members) == len(found) > 1
            and all(unit in allowed for unit in members)
            and any(finished.get(unit) for unit in members)
        ):
            kept.append(members)
    taken = {unit for batch in kept for unit in batch}
    free = [unit for unit in whole if unit not in taken and not finished.get(unit)]
    position = {unit: index for index, unit in enumerate(whole)}
    return tuple(sorted([*kept, *fresh(free)], key=lambda batch: position[batch[0]]))


def batch_record(
    batches: Sequence[Sequence[Unit]],
    recorded: Sequence[Sequence[str]],
    key: Mapping[Unit, str],
) -> list[list[str]]:
    """The batches to record: this run's, and the recorded ones that hold a unit outside
    this run (a run of fewer datasets or classifiers, a dry run of another config), unless
    this run's batches take one of their units. So the record still tells how those units'
    files were made when a later run selects them again."""
    mine = [[key[unit] for unit in batch] for batch in batches]
    current = set(key.values())
    taken = {name for batch in mine for name in batch}
    kept = [
        list(names) for names in recorded if not set(names) <= current and not set(names) & taken
    ]
    return mine + kept


def plan_record(plan: CVPlan, key: Mapping[Unit, str]) -> dict[str, list[str]]:
    """The parts of every unit by its key (a path that names it), for :func:`save_plan`."""
    return {key[unit]: [part.name for part in parts] for unit, parts in plan.parts.items()}


def load_plan(path: Path) -> dict[str, list[str]]:
    """The recorded parts by unit key (:func:`save_plan`); empty when there is no readable
    record."""
    try:
        record = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    units = record.get("units") if isinstance(record, dict) else None
    if not isinstance(units, dict):
        return {}
    return {
        str(key): [str(name) for name in names]
        for key, names in units.items()
        if isinstance(names, list)
    }


def load_batches(path: Path) -> list[list[str]]:
    """The recorded batches, each a list of unit keys (:func:`save_plan`); empty when there
    is no readable record or it has none."""
    try:
        record = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return []
    batches = record.get("batches") if isinstance(record, dict) else None
    if not isinstance(batches, list):
        return []
    return [[str(name) for name in batch] for batch in batches if isinstance(batch, list)]


def save_plan(
    path: Path,
    units: Mapping[str, Sequence[str]],
    cores: int | None,
    batches: Sequence[Sequence[str]] = (),
) -> None:
    """Record the parts of every unit by key, and the batches as lists of keys, atomically
    (a temporary file renamed)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    record = {
        "cores": cores,
        "units": dict(sorted(units.items())),
        "batches": [list(batch) for batch in batches],
    }
    text = json.dumps(record, indent=1)
    temp = path.with_name(f".{path.name}.{os.getpid()}")
    temp.write_text(text + "\n", encoding="utf-8")
    os.replace(temp, path)


def settle_parts(
    fresh: Mapping[Unit, tuple[Part, ...]],
    recorded: Mapping[str, Sequence[str]],
    key: Mapping[Unit, str],
    finished: Mapping[Unit, bool],
    folds: Mapping[Unit, Mapping[str, int]],
) -> dict[Unit, tuple[Part, ...]]:
    """The parts to use: a finished unit keeps the parts it was made with, so that running
    again with other cores (or after new timings) reruns nothing; every other unit gets its
    ``fresh`` plan.

    A recorded split that no longer tiles the unit's schemes (``folds``: unit -> scheme ->
    folds; e.g. after ``cv.folds`` changed, which reruns the unit anyway) is replaced by the
    fresh one.
    """
    settled = {}
    for unit, parts in fresh.items():
        names = recorded.get(key[unit])
        if finished.get(unit) and names is not None:
            try:
                kept = tuple(Part.parse(name) for name in names)
            except ValueError:
                kept = None
            if kept is not None and (not kept or is_tiling(kept, folds[unit])):
                settled[unit] = kept
                continue
        settled[unit] = parts
    return settled


def known_rows(
    block: Mapping[str, Any], fetched: Path, manifest: Mapping[str, Any] | None
) -> int | None:
    """A dataset's number of rows where it is known without running anything: its fetched
    canonical table's description (``<results>/data/<name>.json``), the UCI mirror's
    ``MANIFEST.json`` entry, or the lines of its local file; ``None`` otherwise."""
    try:
        about = json.loads(fetched.with_suffix(".json").read_text(encoding="utf-8"))
        return int(about["rows"])
    except (OSError, ValueError, KeyError, TypeError):
        pass
    if manifest is not None and block.get("uci_id") is not None:
        entry = manifest_entry(manifest, block["uci_id"])
        rows = None if entry is None else entry.get("rows")
        return rows if isinstance(rows, int) else None
    if block.get("path"):
        try:
            with open(block["path"], "rb") as handle:
                lines = sum(chunk.count(b"\n") for chunk in iter(lambda: handle.read(1 << 20), b""))
        except OSError:
            return None
        return max(lines - 1, 1)
    return None
