"""The interactive kappa explorer: one self-contained HTML file for the matrices of one dataset.

The page needs no server and no network: what :func:`pdmeasure.tables.explorer.explorer_data`
computed (the matrices, the exact histograms of pd over the kappa grid, the exact win
probabilities) is embedded as JSON, and one inline script recomputes pd (paper 000, eq. 30) in
the browser as the class weights move. Every user-given name (class labels, classifier and
dataset names) reaches the page only as escaped text: the JSON block escapes ``<``, ``>``,
``&``, U+2028 and U+2029 so it cannot close its script tag, and the script builds the page
with ``textContent``, never ``innerHTML``.
"""

from __future__ import annotations

import functools
import html
import json
import math
import os
from importlib import resources

from pdmeasure.tables.io import write_text

_JSON_ESCAPES = {
    "<": "\\u003c",
    ">": "\\u003e",
    "&": "\\u0026",
    "\u2028": "\\u2028",
    "\u2029": "\\u2029",
}


def script_json(data: object) -> str:
    """``data`` as JSON that is safe inside ``<script type="application/json">``.

    NaN and infinities become ``null`` (JSON has neither), and the characters that could end
    the script element or break a JavaScript string are escaped as ``\\uXXXX``.
    """

    def clean(value):
        if isinstance(value, float) and not math.isfinite(value):
            return None
        if isinstance(value, dict):
            return {str(k): clean(v) for k, v in value.items()}
        if isinstance(value, (list, tuple)):
            return [clean(v) for v in value]
        return value

    text = json.dumps(clean(data), ensure_ascii=False, allow_nan=False, separators=(",", ":"))
    for char, escape in _JSON_ESCAPES.items():
        text = text.replace(char, escape)
    return text


def explorer_html(data: dict) -> str:
    """The explorer page of ``data``, as :func:`pdmeasure.tables.explorer.explorer_data` made it.

    Returns
    -------
    str
        A complete HTML document: data and script inline, no external resource.
    """
    dataset = data["dataset"]
    title = html.escape(f"pd kappa explorer: {dataset}" if dataset else "pd kappa explorer")
    return (
        _template("explorer.html")
        .replace("__TITLE__", title)
        .replace("__DATA__", script_json(data))
        .replace("__SCRIPT__", _template("explorer.js"))
    )


@functools.cache
def _template(name: str) -> str:
    """A file of the page: ``templates/explorer.html`` and its only script, ``explorer.js``.

    The script reads the data block, builds every element with createElement and textContent
    (names are data, never markup), and recomputes pd on each weight change. Both files are
    package data of :mod:`pdmeasure.render`.
    """
    return resources.files("pdmeasure.render").joinpath("templates", name).read_text("utf-8")


def write_explorer(data: dict, path: str | os.PathLike) -> None:
    """Write :func:`explorer_html` of ``data`` to ``path`` atomically."""
    write_text(explorer_html(data), path)
