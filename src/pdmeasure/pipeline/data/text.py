"""Reading data files as text: UTF-8 decoding and CSV rows checked against their columns."""

from __future__ import annotations

import csv
import hashlib
import io
from collections.abc import Callable, Iterator
from pathlib import Path

from pdmeasure.pipeline.errors import DataFetchError


def read_pinned(
    path: Path, sha256: str | None, missing: str, mismatch: Callable[[str], str]
) -> tuple[bytes, str]:
    """The bytes of the file ``path`` and their sha256 digest, checked against ``sha256``.

    Parameters
    ----------
    path : Path
        The file.
    sha256 : str or None
        The digest the file must have; None accepts any.
    missing : str
        The error message when the file does not exist.
    mismatch : callable
        The error message when the digests differ, from the file's digest.

    Raises
    ------
    DataFetchError
        With ``missing`` or ``mismatch``'s message.
    """
    if not path.is_file():
        raise DataFetchError(missing)
    raw = path.read_bytes()
    digest = hashlib.sha256(raw).hexdigest()
    if sha256 is not None and digest != sha256:
        raise DataFetchError(mismatch(digest))
    return raw, digest


def decode_text(raw: bytes, subject: str, fix: str) -> str:
    """``raw`` as UTF-8 text (a leading byte-order mark dropped).

    Parameters
    ----------
    raw : bytes
        The file's content.
    subject : str
        Start of the error message (:func:`data_subject`).
    fix : str
        How to fix a file that is not UTF-8.

    Raises
    ------
    DataFetchError
        Naming the first byte that is not UTF-8, its line and ``fix``.
    """
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = raw.count(b"\n", 0, exc.start) + 1
        raise DataFetchError(
            f"{subject}: the file is not UTF-8 text (byte 0x{raw[exc.start]:02x} at offset "
            f"{exc.start}, line {line}); to fix: {fix}"
        ) from None


def csv_rows(
    text: str, columns: list[str] | None, source: str, *, delimiter: str = ","
) -> Iterator[tuple[int, list[str]]]:
    """``(line, fields)`` of every non-blank CSV row; all rows must have ``len(columns)`` fields.

    With ``columns`` None the first row sets the expected count (a header row).
    """
    reader = csv.reader(io.StringIO(text), delimiter=delimiter)
    for row in reader:
        if not row or (len(row) == 1 and not row[0].strip()):
            continue  # blank line (nursery.data ends with one)
        if columns is None:
            columns = row
        if len(row) != len(columns):
            raise DataFetchError(
                f"{source}: line {reader.line_num} has {len(row)} fields, expected "
                f"{len(columns)} ({', '.join(columns)}); to fix: give that row one value per "
                "column (quote values that contain a comma)"
            )
        yield reader.line_num, row
