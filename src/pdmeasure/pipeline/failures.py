"""Why a classifier's fit failed, in words that name the fix: the ``reason`` of its row in
the fitting job's status table (:mod:`pdmeasure.tables.fits`).

- out of memory (Python's :class:`MemoryError`, or Java's ``OutOfMemoryError`` through JPype,
  also as the cause of another exception): the memory settings of the job,
  ``resources.cv_mem_mb.<engine>`` and ``resources.scale``;
- the time limit (:class:`FitTimeLimit`, whose message names ``cv.time_limit``);
- a part job of the classifier (rule ``cross_validate_part``) that failed
  (:class:`PartFailed`, whose message is that part's reason);
- anything else: the exception, where its traceback is, and the classifier's entry.

A changed ``cv.time_limit`` or classifier entry reruns the fitting job; memory settings change
no result, so the reason of a fit that ran out of memory ends with how to rerun its job.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping

from pdmeasure.pipeline.engines.weka_jvm import JVM_OVERHEAD_MB, max_heap_size


class FitTimeLimit(RuntimeError):
    """A scheme's fitting took longer than ``cv.time_limit``; the message names the key
    (:func:`pdmeasure.pipeline.fitting.fit_scheme`)."""


class PartFailed(RuntimeError):
    """A part job of the classifier (rule ``cross_validate_part``) failed and wrote why in its
    part file instead of predictions (:func:`pdmeasure.pipeline.fitting.fit_part_or_record`);
    the message names the part and quotes that reason, which names the fix."""


#: Words of an exception's text or class that mean the memory ran out (Java's
#: ``OutOfMemoryError`` with "Java heap space", "GC overhead limit exceeded", ...).
_OUT_OF_MEMORY = ("OutOfMemoryError", "Java heap space", "GC overhead limit exceeded")
#: The longest exception text quoted in a reason (the traceback is in the log).
_QUOTED_CHARS = 300


def exception_chain(exc: BaseException) -> Iterator[BaseException]:
    """``exc`` and the exceptions behind it: Python's ``__cause__`` and ``__context__``, and a
    Java exception's ``getCause()`` (JPype), each once."""
    seen: set[int] = set()
    stack: list[object] = [exc]
    while stack:
        current = stack.pop()
        if not isinstance(current, BaseException) or id(current) in seen:
            continue
        seen.add(id(current))
        yield current
        stack += [current.__cause__, current.__context__]
        get_cause = getattr(current, "getCause", None)
        if callable(get_cause):
            try:
                stack.append(get_cause())
            except Exception:  # noqa: BLE001 - a cause that cannot be read is no cause
                pass


def is_out_of_memory(exc: BaseException) -> bool:
    """Whether ``exc`` or an exception behind it (:func:`exception_chain`) is the memory
    running out: Python's :class:`MemoryError` or Java's ``OutOfMemoryError``."""
    for current in exception_chain(exc):
        if isinstance(current, MemoryError):
            return True
        text = f"{type(current).__name__} {current}"
        if any(word in text for word in _OUT_OF_MEMORY):
            return True
    return False


def exception_text(exc: BaseException) -> str:
    """``Type: message`` of ``exc`` on one line, at most :data:`_QUOTED_CHARS` characters; a
    Java exception's message, which starts with its class, as it is."""
    name, message = type(exc).__name__, " ".join(str(exc).split())
    text = message if message.startswith(name) else f"{name}: {message}".rstrip(": ")
    if len(text) > _QUOTED_CHARS:
        text = text[: _QUOTED_CHARS - 3] + "..."
    return text


def failure_reason(
    exc: BaseException,
    keys: Mapping[str, str],
    *,
    mem_mb: int | None = None,
    log_path: str | None = None,
    folder: str | None = None,
) -> str:
    """The reason of a failed fit, naming its fix (module docstring).

    Parameters
    ----------
    exc : BaseException
        What the fit raised.
    keys : mapping
        ``engine``, ``dataset`` and ``classifier`` of the unit.
    mem_mb : int, optional
        The job's memory (MB), quoted when it ran out.
    log_path : str, optional
        The job's log, which holds the traceback.
    folder : str, optional
        The fitting job's output folder, which to delete to fit the classifier again.
    """
    if isinstance(exc, PartFailed):
        # The part job's reason already names the fix and how its change reruns the fit.
        return str(exc)
    engine, classifier = keys["engine"], keys["classifier"]
    if isinstance(exc, FitTimeLimit):
        reason = str(exc)
    elif is_out_of_memory(exc):
        had = "" if mem_mb is None else f"the job had mem_mb = {mem_mb} MB"
        if engine == "weka":
            had += f"{', ' if had else 'the job had '}a Java heap of {max_heap_size()}"
        reason = (
            f"out of memory ({exception_text(exc)}){'; ' + had if had else ''}. Raise "
            f"`resources.cv_mem_mb.{engine}` (the Weka JVM's heap is it minus "
            f"{JVM_OVERHEAD_MB} MB) or `resources.scale` in config.yaml"
        )
    else:
        where = f"; its traceback is in {log_path}" if log_path else ""
        reason = (
            f"{exception_text(exc)}{where}. Fix the entry `classifiers.{engine}.{classifier}` "
            f"(or the data), or leave it out with `run.classifiers`"
        )
    if is_out_of_memory(exc) and not isinstance(exc, FitTimeLimit):
        # Resources change no result, so raising them reruns nothing by itself.
        again = (
            f"then run `snakemake --forcerun cross_validate` or delete {folder}"
            if folder
            else "then run its job again (`snakemake --forcerun cross_validate`)"
        )
        return f"{reason}; {again}"
    return f"{reason} (the change reruns its fitting job)"
