"""The paper-exact engine: Weka's own classifiers and cross-validation, through JPype.

Paper 000 computed Tables 6-9 with Weka (10-fold cross-validation, seed 1, default options).
This engine runs the same classifiers in the Weka 3.9.7 bundled with python-weka-wrapper3,
so its pooled krkopt matrices equal the authors' published ones cell for cell (Bagging,
BayesNet, DecisionTable, J48; see docs/errata.md, section "Weka findings", for Weka versions and RandomForest).

The classifiers run in Weka's own cross-validation, and each prediction's fold and row is
recovered by replaying Weka's fold order (:mod:`pdmeasure.pipeline.engines.weka_cv`).
Repeats: repeat ``r`` (1-based) uses seed ``cv.seed + r - 1``.

One JVM per process, started on first use with a capped heap
(:mod:`pdmeasure.pipeline.engines.weka_jvm`). This module re-exports the public names of
both modules.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from pdmeasure.pipeline.engines import base
from pdmeasure.pipeline.engines.base import Engine
from pdmeasure.pipeline.engines.weka_cv import (
    CVResult,
    cross_validate_instances,
    evaluate_one_fold,
    fold_sizes,
    replay_fold_order,
    row_tagged,
)
from pdmeasure.pipeline.engines.weka_encoding import class_positions, to_instances
from pdmeasure.pipeline.engines.weka_jvm import (
    _JVM,
    DEFAULT_MAX_HEAP,
    HOW_TO_RUN_WITHOUT,
    JAVA_MISSING,
    JVM_MISSING,
    JVM_OVERHEAD_MB,
    MAX_HEAP_ENV,
    MIN_HEAP_MB,
    PACKAGE_MISSING,
    QUICK_JIT_BELOW_CELLS,
    bundled_weka_classes,
    check_requirements,
    configure_jvm,
    ensure_jvm,
    java_tool_options,
    max_heap_size,
    weka_jvm_module,
    weka_version,
)

#: Keys allowed in a classifier's entry of ``config["classifiers"]["weka"]``.
PARAM_KEYS = frozenset({"class", "options"})


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


class WekaEngine(Engine):
    """Weka 3.9 classifiers with Weka's own stratified cross-validation (paper 000, Tables 6-9)."""

    name = "weka"

    def check_available(self) -> None:
        """Raise :class:`EngineUnavailable` naming what to install if Java or the package is missing.

        Does not start the JVM (cheap enough for Snakemake's parse time;
        :func:`~pdmeasure.pipeline.engines.weka_jvm.check_requirements`).
        """
        check_requirements()

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
        Rows without a class go to Weka as instances with a missing class, so that the folds
        are Weka's; they get no prediction (:mod:`pdmeasure.pipeline.engines.weka_cv`).
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


__all__ = [
    "DEFAULT_MAX_HEAP",
    "HOW_TO_RUN_WITHOUT",
    "JAVA_MISSING",
    "JVM_MISSING",
    "JVM_OVERHEAD_MB",
    "MAX_HEAP_ENV",
    "MIN_HEAP_MB",
    "PACKAGE_MISSING",
    "PARAM_KEYS",
    "QUICK_JIT_BELOW_CELLS",
    "CVResult",
    "WekaEngine",
    "bundled_weka_classes",
    "check_requirements",
    "classifier_setup",
    "configure_jvm",
    "cross_validate_instances",
    "ensure_jvm",
    "evaluate_one_fold",
    "fold_sizes",
    "java_tool_options",
    "make_classifier",
    "max_heap_size",
    "replay_fold_order",
    "row_tagged",
    "weka_jvm_module",
    "weka_version",
]
