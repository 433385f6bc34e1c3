"""The Weka engine's JVM: its requirements, its start and its memory and processor options.

One JVM per process (JPype cannot restart one): :func:`ensure_jvm` starts it on first use and
never stops it. Its heap is capped at 2 GB (``PDMEASURE_WEKA_MAX_HEAP`` overrides), so parallel
Snakemake jobs do not each claim a quarter of the machine's memory; a job sizes it from its
resources first (:func:`configure_jvm`).

- :func:`check_requirements` -- Java, JPype and python-weka-wrapper3 present, without starting
  the JVM;
- :func:`ensure_jvm`, :func:`java_tool_options`, :func:`max_heap_size` -- the start and its
  flags;
- :func:`weka_jvm_module`, :func:`bundled_weka_classes`, :func:`weka_version` -- what
  python-weka-wrapper3 bundles.
"""

from __future__ import annotations

import functools
import importlib.util
import logging
import os
import re
import shutil
import zipfile
from pathlib import Path
from types import ModuleType

from pdmeasure.pipeline.engines.base import EngineUnavailable

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

#: The JVM settings of this process, set by :func:`configure_jvm` before the JVM starts.
_JVM: dict[str, str | int | bool | None] = {"max_heap": None, "threads": None, "quick_jit": False}


def check_requirements() -> None:
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
        raise EngineUnavailable(f"{JVM_MISSING.format(error=exc)} {HOW_TO_RUN_WITHOUT}") from None


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
    check_requirements()
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
    the package is not installed; :func:`check_requirements` reports that)."""
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
