"""The paper-exact engine: Weka's own classifiers and cross-validation, through JPype.

Paper 000 computed Tables 6-9 with Weka (10-fold cross-validation, seed 1, default options).
This engine runs the same classifiers in the Weka 3.9.7 bundled with python-weka-wrapper3,
so its pooled krkopt matrices equal the authors' published ones cell for cell (Bagging,
BayesNet, DecisionTable, J48; see docs/errata.md, section "Weka findings", for Weka versions and RandomForest).

Cross-validation is Weka's own ``Evaluation.crossValidateModel(classifier, data, folds,
new Random(seed))`` (= the command line's ``-x 10 -s 1``), so the classifiers see exactly what
they see in Weka. Weka does not report which instance each prediction belongs to; the engine
recovers it by replaying the two steps of that method that decide the fold order, with Weka's
own code: ``randomize(new Random(seed))`` (the first use of the random generator) then
``stratify(folds)``. Both move instances by the random draws and the class values alone, so
the engine replays them on a copy that holds each row's number and class
(:func:`row_tagged`), and reads every position's row back in one call; fold ``i`` is the
block of positions ``testCV(folds, i)`` takes. :func:`cross_validate_instances` checks the recovered
rows against Weka's predictions (the actual class of every prediction) and against Weka's
confusion matrix, and raises if anything disagrees.

Repeats: repeat ``r`` (1-based) uses seed ``cv.seed + r - 1``.

One JVM per process (JPype cannot restart one): :func:`ensure_jvm` starts it on first use and
never stops it. Its heap is capped at 2 GB (``PDMEASURE_WEKA_MAX_HEAP`` overrides), so parallel
Snakemake jobs do not each claim a quarter of the machine's memory.
"""

from __future__ import annotations

import difflib
import functools
import importlib.util
import logging
import os
import re
import shutil
import zipfile
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np

from pdmeasure.pipeline.engines import base
from pdmeasure.pipeline.engines.base import Engine, EngineUnavailable, file_stamps
from pdmeasure.pipeline.engines.weka_encoding import (
    AttributeSpec,
    class_positions,
    instances_from_array,
    to_instances,
)

#: What to do when a requirement is missing; part of every EngineUnavailable message.
HOW_TO_RUN_WITHOUT = (
    "To run without the weka engine, remove `weka` from `engines` in config.yaml "
    "(engines: [sklearn])."
)
JAVA_MISSING = (
    "the weka engine needs a Java runtime (>= 11) but `java` is not on PATH. Install one: "
    "`apt-get install openjdk-17-jre-headless` (Debian/Ubuntu) or `conda install -c conda-forge "
    "openjdk` (conda); if Java is installed elsewhere, set JAVA_HOME and put $JAVA_HOME/bin on PATH."
)
PACKAGE_MISSING = (
    "the weka engine needs the Python package python-weka-wrapper3 (which bundles Weka 3.9.7 "
    "and JPype), but it is not importable: `pip install python-weka-wrapper3` "
    "(or `pip install -e '.[weka]'`)."
)
JVM_MISSING = (
    "the weka engine found `java` on PATH but JPype cannot find the JVM library ({error}). "
    "Set JAVA_HOME to the Java installation (the folder containing lib/server/libjvm.so), or "
    "install `openjdk-17-jre-headless` (Debian/Ubuntu) / `conda install -c conda-forge openjdk`."
)

#: Maximum Java heap of the engine's JVM (``-Xmx``), overridable with the environment variable
#: :data:`MAX_HEAP_ENV`. Java's own default is a quarter of the machine's memory, which each
#: Snakemake job's JVM then fills before collecting garbage (6 GB resident on a 23 GB machine);
#: the largest job, RandomForest on krkopt, needs between 384 MB (fails) and 768 MB (runs).
DEFAULT_MAX_HEAP = "2g"
MAX_HEAP_ENV = "PDMEASURE_WEKA_MAX_HEAP"

#: Memory of a job that is not Java heap: the JVM's own (metaspace, JIT code, thread stacks)
#: and the Python process around it. The heap of a job with ``mem_mb`` is ``mem_mb`` minus
#: this (at least :data:`MIN_HEAP_MB`).
JVM_OVERHEAD_MB = 512
MIN_HEAP_MB = 256

#: Datasets below this many rows x classes are fitted with the JVM's quick compiler alone
#: (``-XX:TieredStopAtLevel=1``): their fits last seconds, and compiling the hot loops a
#: second time with the optimising compiler costs more CPU than it saves. Measured on the
#: 2-core development machine (2026-11-28, each job rerun alone with ``snakemake --force``,
#: two runs each): the Weka batch of all five classifiers took 7.4-8.1 instead of
#: 11.4-12.2 CPU-s on car (6,912 cells) and 10.6-11.6 instead of 13.7-15.3 on dermatology
#: (2,196); on nursery (64,800) Bagging and DecisionTable took 27.8-28.4 instead of 22.8-23.9,
#: and on krkopt (505,008) a part of 2 RandomForest folds 16.7 instead of 12.2-13.7. The
#: predictions are the same either way (Java's floating point is strict since Java 17).
QUICK_JIT_BELOW_CELLS = 20_000

#: The JVM settings of this process, set by :meth:`WekaEngine.configure` before the JVM starts.
_JVM: dict[str, str | int | bool | None] = {"max_heap": None, "threads": None, "quick_jit": False}

#: Keys allowed in a classifier's entry of ``config["classifiers"]["weka"]``.
PARAM_KEYS = frozenset({"class", "options"})


def ensure_jvm() -> None:
    """Start the JVM with the Weka jars bundled in python-weka-wrapper3, once per process.

    The maximum heap is :func:`max_heap_size`, also the initial one, and the processor count
    the one of :func:`configure_jvm` (a Snakemake job's ``threads``); see
    :func:`java_tool_options`. Later calls do nothing. The JVM is never stopped: JPype cannot
    start a second one in the same process, so stopping it would break every later Weka call.

    Raises
    ------
    EngineUnavailable
        If Java or python-weka-wrapper3 is missing.
    ValueError
        If ``$PDMEASURE_WEKA_MAX_HEAP`` is not a heap size.
    """
    try:
        import jpype
    except ImportError:
        raise EngineUnavailable(f"{PACKAGE_MISSING} {HOW_TO_RUN_WITHOUT}") from None
    if jpype.isJVMStarted():
        return
    WekaEngine().check_available()
    max_heap = max_heap_size()
    jvm = weka_jvm_module()
    # JAVA_TOOL_OPTIONS is read by every JVM at start, JPype's included (python-weka-wrapper3's
    # start() passes no other JVM flags than -Xmx). It is set for this start only: the
    # processes this one starts later (a `java` command, a Snakemake run) size their own JVMs.
    user_options = os.environ.get("JAVA_TOOL_OPTIONS")
    threads = _JVM["threads"]
    options = java_tool_options(
        user_options or "", max_heap, int(threads) if threads else None, bool(_JVM["quick_jit"])
    )
    logging.getLogger(__name__).info("JVM options: %s", options)
    os.environ["JAVA_TOOL_OPTIONS"] = options
    try:
        # packages=False: no Weka packages loaded (runs do not depend on ~/wekafiles contents).
        jvm.start(packages=False, max_heap_size=max_heap, logging_level=logging.WARNING)
    finally:
        if user_options is None:
            del os.environ["JAVA_TOOL_OPTIONS"]
        else:
            os.environ["JAVA_TOOL_OPTIONS"] = user_options


def java_tool_options(
    current: str, max_heap: str, threads: int | None, quick_jit: bool = False
) -> str:
    """``current`` (the user's ``JAVA_TOOL_OPTIONS``) with the JVM flags of a job added, each
    only where the user has not set it.

    - ``-Xms`` equal to the maximum heap: the JVM starts with the whole heap instead of 1/64
      of the machine's memory, so it neither grows the heap step by step nor runs a full
      collection at each step. The Weka fits of the papers' run take about 10 % less CPU
      with it, most of it on krkopt's and nursery's large fits (``docs/scale-out.md``). Only
      the pages the job allocates are touched, so a small job's memory stays small.
    - ``-XX:ActiveProcessorCount`` equal to the job's ``threads``: the JVM sizes its
      garbage-collector and JIT-compiler thread pools from the processors it sees; it then
      sees the job's cores, not the machine's.
    - ``-XX:TieredStopAtLevel=1`` with ``quick_jit``: only the quick (C1) compiler, for a job
      on a small dataset (:data:`QUICK_JIT_BELOW_CELLS`), unless the user chose the compilers.

    Examples
    --------
    >>> java_tool_options("", "1024m", 1)
    '-Xms1024m -XX:ActiveProcessorCount=1'
    >>> java_tool_options("-Xms64m -Dfile.encoding=UTF-8", "2g", None)
    '-Xms64m -Dfile.encoding=UTF-8'
    >>> java_tool_options("", "1024m", 1, quick_jit=True)
    '-Xms1024m -XX:ActiveProcessorCount=1 -XX:TieredStopAtLevel=1'
    """
    flags = current.split()
    if not any(flag.startswith(("-Xms", "-XX:InitialHeapSize")) for flag in flags):
        flags.append(f"-Xms{max_heap}")
    if threads and not any("ActiveProcessorCount" in flag for flag in flags):
        flags.append(f"-XX:ActiveProcessorCount={threads}")
    if quick_jit and not any("TieredStopAtLevel" in f or "TieredCompilation" in f for f in flags):
        flags.append("-XX:TieredStopAtLevel=1")
    return " ".join(flags)


def weka_jvm_module() -> ModuleType:
    """``weka.core.jvm`` of python-weka-wrapper3, imported without touching the root logger.

    Its first import calls ``logging.basicConfig()``, which gives the root logger a stderr
    handler when it has none. In Snakemake's own process (the engine checks run while the
    workflow is parsed) every Snakemake message then printed twice, once as
    ``INFO:snakemake.logging:...``. Any handler the import adds to the root logger is removed
    again; the module's own warnings still reach stderr through the handlers the process has
    (a job's log, :func:`pdmeasure.pipeline.run.script_logger`), or through Python's
    last-resort handler, which prints warnings when no handler is configured.

    Raises
    ------
    ImportError
        If python-weka-wrapper3 is not installed.
    """
    root = logging.getLogger()
    before = list(root.handlers)
    try:
        import weka.core.jvm as jvm
    finally:
        for handler in [h for h in root.handlers if h not in before]:
            root.removeHandler(handler)
    return jvm


@functools.lru_cache(maxsize=1)
def bundled_weka_classes() -> frozenset[str]:
    """Fully qualified names of the classes in python-weka-wrapper3's ``weka.jar`` (empty if
    the package is not installed; :meth:`WekaEngine.check_available` reports that)."""
    try:
        lib_dir = weka_jvm_module().lib_dir
    except ImportError:
        return frozenset()
    jar = Path(lib_dir()) / "weka.jar"
    if not jar.is_file():
        return frozenset()
    with zipfile.ZipFile(jar) as archive:
        return frozenset(
            name[: -len(".class")].replace("/", ".")
            for name in archive.namelist()
            if name.endswith(".class") and "$" not in name
        )


def configure_jvm(
    *, threads: int | None = None, mem_mb: int | None = None, quick_jit: bool = False
) -> None:
    """Size the JVM of this process from a job's resources; call before it starts.

    Parameters
    ----------
    threads : int, optional
        Cores of the job: the JVM's ``-XX:ActiveProcessorCount``, which sizes its GC and JIT
        thread pools.
    mem_mb : int, optional
        Memory of the job: the heap (``-Xmx``) is ``mem_mb - JVM_OVERHEAD_MB`` MB, at least
        :data:`MIN_HEAP_MB`.
    quick_jit : bool
        Compile with the quick compiler alone (:func:`java_tool_options`).

    Raises
    ------
    RuntimeError
        If the JVM already runs with other settings (a JVM cannot be restarted in a process).
    """
    heap = None if mem_mb is None else f"{max(int(mem_mb) - JVM_OVERHEAD_MB, MIN_HEAP_MB)}m"
    wanted = {"max_heap": heap, "threads": threads}
    try:
        import jpype

        started = jpype.isJVMStarted()
    except ImportError:
        started = False
    running = {name: _JVM[name] for name in wanted}
    if started and wanted != running:
        raise RuntimeError(
            f"the JVM already runs with {running}; it cannot be resized to {wanted} in this process"
        )
    # A running JVM keeps the compilers it started with: they change the speed, not the
    # results, so asking for others is no error.
    if not started:
        _JVM.update(wanted, quick_jit=quick_jit)


def max_heap_size() -> str:
    """The JVM's ``-Xmx`` value: the job's (:func:`configure_jvm`), else
    ``$PDMEASURE_WEKA_MAX_HEAP``, else :data:`DEFAULT_MAX_HEAP`.

    Raises
    ------
    ValueError
        If the variable is set to something that is not a heap size (``2g``, ``768m``, ...).
    """
    value = str(_JVM["max_heap"] or os.environ.get(MAX_HEAP_ENV) or DEFAULT_MAX_HEAP)
    if not re.fullmatch(r"[1-9][0-9]*[kKmMgG]?", value):
        raise ValueError(f"{MAX_HEAP_ENV}={value!r} is not a Java heap size such as 2g or 768m")
    return value


def weka_version() -> str:
    """Version string of the Weka library in the running JVM (starts it if needed)."""
    ensure_jvm()
    from jpype import JClass

    return str(JClass("weka.core.Version").VERSION)


def classifier_setup(params: Mapping[str, Any]) -> tuple[str, list[str]]:
    """Validate a config entry ``{class: weka.classifiers..., options: [...]}`` (no JVM needed).

    Returns
    -------
    class_name : str
    options : list of str
        Weka command-line options; empty means Weka's defaults (the paper's setting).

    Raises
    ------
    ValueError
        On unknown keys, a missing or non-Weka ``class``, or options that are not a list of
        strings.
    """
    unknown = sorted(set(params) - PARAM_KEYS)
    if unknown:
        raise ValueError(
            f"unknown weka classifier parameter(s) {unknown}; known: {sorted(PARAM_KEYS)}"
        )
    class_name = params.get("class")
    if not isinstance(class_name, str) or not class_name.startswith("weka.classifiers."):
        raise ValueError(
            "a weka classifier entry needs `class`, a Weka class name such as "
            f"weka.classifiers.trees.J48; got {class_name!r}"
        )
    options = params.get("options") or []
    if (
        isinstance(options, str)
        or not isinstance(options, Sequence)
        or not all(isinstance(o, str) for o in options)
    ):
        raise ValueError(f"weka classifier options must be a list of strings, got {options!r}")
    return class_name, list(options)


# Weka objects (Instances, classifiers, Evaluation) are JPype proxies of Java objects: Any.
def make_classifier(params: Mapping[str, Any]) -> Any:
    """A Weka classifier (``AbstractClassifier.forName``) from a config entry.

    See :func:`classifier_setup` for the entry's keys. Starts the JVM if needed. A classifier
    with execution slots (``-num-slots``) gets the job's ``threads`` (:func:`configure_jvm`)
    unless its options set them.
    """
    class_name, options = classifier_setup(params)
    ensure_jvm()
    from jpype import JArray, JClass, JString

    classifier = JClass("weka.classifiers.AbstractClassifier").forName(
        class_name, JArray(JString)(options)
    )
    threads = int(_JVM["threads"] or 1)
    if threads > 1 and "-num-slots" not in options and hasattr(classifier, "setNumExecutionSlots"):
        # Weka's parallel ensembles (Bagging, RandomForest, ...) draw every member's seed
        # before they build the members on `threads` slots: the same models as on one.
        classifier.setNumExecutionSlots(threads)
    return classifier


@dataclass(frozen=True)
class CVResult:
    """Per-instance outcome of one Weka cross-validation (see :func:`cross_validate_instances`).

    Attributes
    ----------
    fold : ndarray of int, shape (n,)
        1-based fold of each prediction, in Weka's evaluation order.
    row : ndarray of int, shape (n,)
        0-based position in the input data of each prediction.
    actual, predicted : ndarray of int, shape (n,)
        Class indices (declared order = configured class order).
    confusion : ndarray of int, shape (C, C)
        Weka's own pooled matrix ``Evaluation.confusionMatrix()``; equal to the matrix of
        ``actual``/``predicted`` (checked).
    """

    fold: np.ndarray
    row: np.ndarray
    actual: np.ndarray
    predicted: np.ndarray
    confusion: np.ndarray


def fold_sizes(n: int, folds: int) -> np.ndarray:
    """Sizes of Weka's ``Instances.testCV(folds, i)`` blocks: the first ``n % folds`` get one more."""
    sizes = np.full(folds, n // folds)
    sizes[: n % folds] += 1
    return sizes


def row_tagged(instances: Any) -> Any:
    """Each row's number and class, as ``weka.core.Instances`` (row, class) in file order.

    ``randomize`` and ``stratify`` move instances by the random draws, the number of instances
    and their class values alone, so they lay out this pair exactly as they lay out
    ``instances``. Built once per dataset, it lets :func:`replay_fold_order` read the layout
    in one call instead of mapping every instance back to its row from Python.

    Returns
    -------
    weka.core.Instances
        Attribute 0 numeric (the 0-based row), attribute 1 the class (``numClasses()``
        values, missing where the class is missing), set as the class.
    """
    classes = np.asarray(instances.attributeToDoubleArray(int(instances.classIndex())))
    attributes = [
        AttributeSpec("row", None),
        AttributeSpec("class", tuple(str(v) for v in range(int(instances.numClasses())))),
    ]
    rows = np.column_stack([np.arange(classes.size, dtype=np.float64), classes])
    return instances_from_array("rows", attributes, rows)


def replay_fold_order(instances: Any, folds: int, seed: int, *, tagged: Any = None) -> np.ndarray:
    """File rows in the order ``Evaluation.crossValidateModel`` lays them out before the folds.

    Replays ``randomize(new Random(seed))`` and ``stratify(folds)`` with Weka's own code on a
    copy of the rows' numbers and classes (:func:`row_tagged`), and reads the rows back.

    Parameters
    ----------
    instances : weka.core.Instances
    folds, seed : int
    tagged : weka.core.Instances, optional
        ``row_tagged(instances)``, when the caller replays several layouts of one dataset.

    Returns
    -------
    ndarray of int, shape (n,)
        ``order[k]`` is the 0-based row of ``instances`` at position ``k``.
    """
    from jpype import JClass

    copy = JClass("weka.core.Instances")(row_tagged(instances) if tagged is None else tagged)
    copy.randomize(JClass("java.util.Random")(seed))
    if instances.classAttribute().isNominal():
        copy.stratify(folds)
    return np.asarray(copy.attributeToDoubleArray(0)).astype(np.int64)


def evaluate_one_fold(instances: Any, classifier: Any, folds: int, seed: int, fold: int) -> Any:
    """The ``Evaluation`` of fold ``fold`` (1-based) alone, exactly as inside
    ``crossValidateModel(classifier, instances, folds, new Random(seed))``.

    ``crossValidateModel`` copies the data, calls ``randomize(random)`` and ``stratify``,
    then for each fold i draws ``trainCV(folds, i, random)`` -- which shuffles the training
    set with the same ``random`` -- builds a copy of the classifier on it and evaluates it on
    ``testCV(folds, i)``. Here the same draws are replayed: ``randomize``, ``stratify`` and the
    ``trainCV`` of every earlier fold (a copy of the data, no model), so fold ``fold`` gets the
    training set, in the same order, that it gets inside the whole cross-validation.

    Returns
    -------
    weka.classifiers.Evaluation
        With the fold's predictions, in the order of ``testCV(folds, fold - 1)``.
    """
    from jpype import JClass

    random = JClass("java.util.Random")(seed)
    data = JClass("weka.core.Instances")(instances)
    data.randomize(random)
    if data.classAttribute().isNominal():
        data.stratify(folds)
    for earlier in range(fold - 1):
        data.trainCV(folds, earlier, random)
    train = data.trainCV(folds, fold - 1, random)
    evaluation = JClass("weka.classifiers.Evaluation")(data)
    evaluation.setPriors(train)
    model = JClass("weka.classifiers.AbstractClassifier").makeCopy(classifier)
    model.buildClassifier(train)
    evaluation.evaluateModel(model, data.testCV(folds, fold - 1))
    return evaluation


def cross_validate_instances(
    instances: Any,
    classifier: Any,
    folds: int,
    seed: int,
    *,
    only_fold: int | None = None,
    tagged: Any = None,
) -> CVResult:
    """Weka's ``Evaluation.crossValidateModel(classifier, instances, folds, new Random(seed))``
    with each prediction's fold and row.

    Parameters
    ----------
    instances : weka.core.Instances
        Class attribute set and nominal.
    classifier : weka.classifiers.Classifier
        Copied by Weka for every fold; not modified.
    folds, seed : int
    only_fold : int, optional
        Evaluate this fold (1-based) alone (:func:`evaluate_one_fold`); the result holds
        its predictions only, identical to that fold's part of the whole run.
    tagged : weka.core.Instances, optional
        ``row_tagged(instances)``, built once for many cross-validations of one dataset.

    Returns
    -------
    CVResult
        The predictions in Weka's evaluation order, with Weka's confusion matrix.

    Raises
    ------
    ValueError
        ``folds`` is not between 2 and the number of instances, or ``only_fold`` not a fold.
    RuntimeError
        If Weka left an instance unclassified (no predicted label) or the recovered rows
        disagree with Weka's predictions or confusion matrix.
    """
    from jpype import JClass

    n = int(instances.numInstances())
    if folds < 2 or folds > n:
        raise ValueError(f"folds must be between 2 and the number of instances ({n}), got {folds}")
    order = replay_fold_order(instances, folds, seed, tagged=tagged)
    fold = np.repeat(np.arange(1, folds + 1), fold_sizes(n, folds))
    if only_fold is None:
        evaluation = JClass("weka.classifiers.Evaluation")(instances)
        evaluation.crossValidateModel(
            classifier, instances, folds, JClass("java.util.Random")(seed)
        )
    else:
        if not 1 <= only_fold <= folds:
            raise ValueError(f"fold must be between 1 and {folds}, got {only_fold}")
        evaluation = evaluate_one_fold(instances, classifier, folds, seed, only_fold)
        order, fold = order[fold == only_fold], fold[fold == only_fold]
    actual, predicted = _predicted_classes(evaluation, len(order))
    confusion = _checked_confusion(instances, evaluation, order, actual, predicted)
    return CVResult(fold=fold, row=order, actual=actual, predicted=predicted, confusion=confusion)


def _predicted_classes(evaluation: Any, n: int) -> tuple[np.ndarray, np.ndarray]:
    """``(actual, predicted)`` class indices of the ``n`` predictions of ``evaluation``."""
    predictions = evaluation.predictions()
    if predictions.size() != n:
        raise RuntimeError(f"Weka returned {predictions.size()} predictions for {n} instances")
    actual = np.empty(n)
    predicted = np.empty(n)
    for k, prediction in enumerate(predictions):
        actual[k] = prediction.actual()
        predicted[k] = prediction.predicted()
    if np.isnan(predicted).any():
        raise RuntimeError(
            f"Weka left {int(np.isnan(predicted).sum())} instance(s) unclassified "
            "(all-zero class distribution); the predictions table needs a label for every row"
        )
    return actual.astype(np.int64), predicted.astype(np.int64)


def _checked_confusion(
    instances: Any, evaluation: Any, order: np.ndarray, actual: np.ndarray, predicted: np.ndarray
) -> np.ndarray:
    """Weka's confusion matrix, once the recovered rows are checked against Weka's results.

    The class of each row ``order[k]`` must be the actual class of prediction ``k``, and the
    matrix of ``actual``/``predicted`` must be Weka's own.
    """
    classes = np.asarray(instances.attributeToDoubleArray(int(instances.classIndex())))
    expected = classes[order].astype(np.int64)
    if not np.array_equal(expected, actual):
        raise RuntimeError(
            "recovered rows disagree with Weka's predictions: the fold replay does not match "
            "this Weka version's Evaluation.crossValidateModel"
        )
    n_classes = int(instances.numClasses())
    confusion = np.rint(np.array([list(r) for r in evaluation.confusionMatrix()])).astype(np.int64)
    mine = np.bincount(actual * n_classes + predicted, minlength=n_classes**2).reshape(
        n_classes, n_classes
    )
    if not np.array_equal(mine, confusion):
        raise RuntimeError("per-instance predictions disagree with Weka's confusion matrix")
    return confusion


class WekaEngine(Engine):
    """Weka 3.9 classifiers with Weka's own stratified cross-validation (paper 000, Tables 6-9)."""

    name = "weka"

    def check_available(self) -> None:
        """Raise :class:`EngineUnavailable` naming what to install if Java or the package is missing.

        Does not start the JVM (cheap enough for Snakemake's parse time).
        """
        if shutil.which("java") is None:
            raise EngineUnavailable(f"{JAVA_MISSING} {HOW_TO_RUN_WITHOUT}")
        for module in ("jpype", "weka"):
            if importlib.util.find_spec(module) is None:
                raise EngineUnavailable(f"{PACKAGE_MISSING} {HOW_TO_RUN_WITHOUT}")
        import jpype

        try:
            jpype.getDefaultJVMPath()
        except jpype.JVMNotFoundException as exc:
            raise EngineUnavailable(
                f"{JVM_MISSING.format(error=exc)} {HOW_TO_RUN_WITHOUT}"
            ) from None

    def configure(
        self, *, threads: int, mem_mb: int | None = None, cells: int | None = None
    ) -> None:
        """Size the JVM from the job's resources, and choose its compilers from the size of
        the job's data (:func:`configure_jvm`, :data:`QUICK_JIT_BELOW_CELLS`)."""
        quick = cells is not None and cells < QUICK_JIT_BELOW_CELLS
        configure_jvm(threads=threads, mem_mb=mem_mb, quick_jit=quick)

    def prepare(self, params: Mapping[str, Any]) -> None:
        """Start the JVM and build the classifier once (:func:`make_classifier`)."""
        make_classifier(params)

    def check_fingerprint(self, params: Mapping[str, Any]) -> str | None:
        """The files of python-weka-wrapper3 (which bundles ``weka.jar``) and of this module: a
        verdict stands until either is installed again, upgraded or edited
        (:meth:`Engine.check_fingerprint`). It spares an entry with options the JVM that its
        check starts."""
        return file_stamps("weka", files=(__file__,))

    def check_classifier(self, name: str, params: Mapping[str, Any]) -> None:
        """Validate one configured classifier entry (config check hook).

        Besides :func:`classifier_setup`, the class must exist in the bundled ``weka.jar``
        (read as a zip file, so a misspelt class stops the run before any job), and an entry
        with options is built once so that Weka parses them (an unknown option or a value
        of the wrong type stops the run before any job).

        Raises
        ------
        ValueError
            See :func:`classifier_setup`; or the class is not in ``weka.jar``.
        """
        class_name, options = classifier_setup(params)
        known = bundled_weka_classes()
        if known and class_name not in known:
            close = difflib.get_close_matches(class_name, sorted(known), n=3)
            hint = f"; did you mean {', '.join(close)}?" if close else ""
            raise ValueError(f"class {class_name!r} is not in the bundled weka.jar{hint}")
        if options and known:
            # Weka parses its own options: build the classifier once (this starts the JVM,
            # about 1.5 s, so only entries that set options pay for it).
            try:
                make_classifier(params)
            except Exception as exc:  # noqa: BLE001 - Java exceptions arrive as JPype types
                message = str(exc).replace("java.lang.Exception: ", "")
                raise ValueError(
                    f"Weka rejects the options {options} of {class_name}: {message}"
                ) from None

    def predict_folds(self, job: base.CVJob) -> Iterator[base.FoldPredictions]:
        """Weka's cross-validation of each repeat (:func:`cross_validate_instances`).

        The data are encoded with the dataset's ``weka`` rules
        (:mod:`pdmeasure.pipeline.engines.weka_encoding`); repeat ``r`` uses seed ``cv.seed + r - 1``.
        Each fold of ``job.only`` replays Weka's random draws (:func:`evaluate_one_fold`).
        Class indices are returned in the configured class order, whatever order Weka
        declares the classes in (:func:`~pdmeasure.pipeline.engines.weka_encoding.class_positions`).
        """
        cv = job.cv
        if cv.repeats < 1:
            raise ValueError(f"cv.repeats must be >= 1, got {cv.repeats}")
        model = make_classifier(job.params)
        instances = to_instances(job.data, job.dataset)
        # Weka's class index -> position in the configured class order (the same order unless
        # the source declares another: value_order declared).
        position = class_positions(job.dataset)
        tagged = row_tagged(instances)
        for repeat, wanted in base.folds_to_run(cv, job.only):
            seed = cv.seed + repeat - 1
            for only_fold in [None] if wanted is None else wanted:
                result = cross_validate_instances(
                    instances, model, cv.folds, seed, only_fold=only_fold, tagged=tagged
                )
                yield base.FoldPredictions(
                    repeat,
                    result.fold,
                    result.row,
                    position[result.actual],
                    position[result.predicted],
                )
