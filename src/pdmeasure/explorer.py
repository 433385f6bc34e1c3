"""The interactive kappa explorer: one self-contained HTML file for the matrices of one dataset.

The page needs no server and no network: the matrices, the exact histograms of pd over the
kappa grid and the exact win probabilities are embedded as JSON, and one inline script
recomputes pd (paper 000, eq. 30) in the browser as the class weights move. Every user-given
name (class labels, classifier and dataset names) reaches the page only as escaped text: the
JSON block escapes ``<``, ``>``, ``&``, U+2028 and U+2029 so it cannot close its script tag,
and the script builds the page with ``textContent``, never ``innerHTML``.
"""
from __future__ import annotations

import html
import json
import math
import os
from collections.abc import Mapping, Sequence

import numpy as np

from .io import write_text

#: Bin width of the embedded pd histograms.
HISTOGRAM_BIN_WIDTH = 0.02
#: Values per class of the default kappa grid (when none is given), lowered for many classes
#: so that the exact analysis can count the grid (at most 2**63 - 1 vectors).
DEFAULT_GRID_VALUES = 11
#: Monte Carlo samples of the exact analysis's share estimates (not shown by the explorer).
_MONTE_CARLO = 1000

_JSON_ESCAPES = {"<": "\\u003c", ">": "\\u003e", "&": "\\u0026",
                 "\u2028": "\\u2028", "\u2029": "\\u2029"}


def default_grid(n_classes: int) -> list[float]:
    """Evenly spaced kappa values in [0, 1]: 11 per class, fewer where 11**C would overflow."""
    values = DEFAULT_GRID_VALUES
    while values > 2 and values**n_classes > 2**63 - 1:
        values -= 1
    return [round(v, 12) for v in np.linspace(0.0, 1.0, values)]


def script_json(data) -> str:
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


def explorer_data(matrices: Mapping[str, np.ndarray], labels: Sequence[str], *,
                  dataset: str = "", grid_values: Sequence[float] | None = None,
                  zero_division=0.0) -> dict:
    """Everything the page shows: matrices, default kappa, exact histograms and win probabilities.

    Parameters
    ----------
    matrices : mapping
        Classifier name -> (C, C) count matrix (rows actual, columns predicted, ``labels``
        order); all with the same actual-class counts (one dataset).
    labels : sequence of str
        The class labels, in matrix order.
    dataset : str
        Shown in the title.
    grid_values : sequence of float, optional
        Kappa grid of the histograms and win probabilities; default :func:`default_grid`.
    zero_division : {0.0, 1.0, "nan"}
        Value of a 0/0 precision or recall, in Python and in the page alike.

    Returns
    -------
    dict
        JSON-ready (see :func:`script_json`).
    """
    from .exact import DatasetAnalysis, ExactSettings

    names = list(matrices)
    cms = {name: np.asarray(matrices[name], dtype=np.int64) for name in names}
    n_classes = len(labels)
    for name, cm in cms.items():
        if cm.shape != (n_classes, n_classes):
            raise ValueError(f"matrix of {name!r} has shape {cm.shape}, expected "
                             f"({n_classes}, {n_classes}) for the classes {list(labels)}")
    grid = list(grid_values) if grid_values is not None else default_grid(n_classes)
    settings = ExactSettings(fine_grid_values=2, monte_carlo_samples=_MONTE_CARLO,
                             bin_width=HISTOGRAM_BIN_WIDTH, zero_division=zero_division)
    analysis = DatasetAnalysis(cms, grid, settings, engine="", dataset=dataset,
                               classes=list(labels))
    _, histogram = analysis.distributions()
    histogram = histogram[histogram["space"] == "grid"]
    wins = analysis.win_probabilities()
    # Each unordered pair once (A before B in classifier order): P(B > A) is P(A < B).
    position = {name: i for i, name in enumerate(names)}
    wins = wins[wins["space"].isin(["grid", "uniform"])
                & (wins["classifier_a"].map(position) < wins["classifier_b"].map(position))]
    first = next(iter(cms.values()))
    actual = first.sum(axis=1)
    return {
        "dataset": dataset,
        "labels": [str(label) for label in labels],
        "classifiers": names,
        "matrices": {name: cms[name].tolist() for name in names},
        "default_kappa": (actual / actual.sum()).tolist(),
        "zero_division": "nan" if _is_nan(zero_division) else float(zero_division),
        "grid": grid,
        "bin_width": HISTOGRAM_BIN_WIDTH,
        "excluded": [str(name) for name in getattr(analysis, "excluded", {})],
        "histograms": {
            str(name): {"left": group["bin_left"].astype(float).tolist(),
                        "p": ((group["p_lower"].astype(float) + group["p_upper"].astype(float))
                              / 2).tolist()}
            for name, group in histogram.groupby("classifier", sort=False)
        },
        "wins": [
            {"space": row.space, "a": row.classifier_a, "b": row.classifier_b,
             "greater": float(row.p_greater), "tie": float(row.p_tie), "less": float(row.p_less)}
            for row in wins.itertuples(index=False)
        ],
    }


def _is_nan(value) -> bool:
    return isinstance(value, str) or (isinstance(value, float) and math.isnan(value))


def explorer_html(matrices: Mapping[str, np.ndarray], labels: Sequence[str], *,
                  dataset: str = "", grid_values: Sequence[float] | None = None,
                  zero_division=0.0) -> str:
    """The explorer page (see :func:`explorer_data` for the parameters).

    Returns
    -------
    str
        A complete HTML document: data and script inline, no external resource.
    """
    data = explorer_data(matrices, labels, dataset=dataset, grid_values=grid_values,
                         zero_division=zero_division)
    title = html.escape(f"pd kappa explorer: {dataset}" if dataset else "pd kappa explorer")
    return (_PAGE.replace("__TITLE__", title)
            .replace("__DATA__", script_json(data))
            .replace("__SCRIPT__", _SCRIPT))


def write_explorer(matrices: Mapping[str, np.ndarray], labels: Sequence[str],
                   path: str | os.PathLike, *, dataset: str = "",
                   grid_values: Sequence[float] | None = None, zero_division=0.0) -> None:
    """Write :func:`explorer_html` to ``path`` atomically."""
    write_text(explorer_html(matrices, labels, dataset=dataset, grid_values=grid_values,
                             zero_division=zero_division), path)


_PAGE = """<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:">
<title>__TITLE__</title>
<style>
body { font-family: sans-serif; margin: 1.5em; max-width: 70em; color: #222; }
h1 { font-size: 1.4em; } h2 { font-size: 1.1em; margin-top: 1.5em; }
table { border-collapse: collapse; margin: 0.5em 0; }
td, th { border: 1px solid #ccc; padding: 0.2em 0.6em; text-align: left; }
td.pd, td.p { font-family: monospace; text-align: right; }
.weight { display: grid; grid-template-columns: 12em 16em 6em; gap: 0.5em; align-items: center; }
.hist { display: inline-block; margin: 0.3em 1em 0.3em 0; vertical-align: top; }
.note { color: #555; font-size: 0.9em; }
</style>
</head>
<body>
<h1 id="title"></h1>
<p class="note">pd = (1/C) &sum;<sub>i</sub> [&kappa;<sub>i</sub> precision<sub>i</sub> + (1 &minus; &kappa;<sub>i</sub>) recall<sub>i</sub>] (paper 000, eq. 30). Move a class weight &kappa;<sub>i</sub> (1: precision of that class counts, 0: its recall counts); the pd of every classifier and their ranking follow. <span id="zd"></span></p>
<h2>Class weights &kappa;</h2>
<div id="weights"></div>
<p><button id="reset" type="button">default &kappa; (actual-class shares, eq. 31)</button></p>
<h2>pd at this &kappa; and ranking</h2>
<table id="ranking"><thead><tr><th>rank</th><th>classifier</th><th>pd</th></tr></thead><tbody></tbody></table>
<h2>pd over the kappa grid <span class="note" id="gridnote"></span></h2>
<div id="histograms"></div>
<h2>Win probabilities (exact)</h2>
<table id="wins"><thead><tr><th>kappa space</th><th>A</th><th>B</th><th>P(A &gt; B)</th><th>P(tie)</th><th>P(A &lt; B)</th></tr></thead><tbody></tbody></table>
<script type="application/json" id="data">__DATA__</script>
<script>__SCRIPT__</script>
</body>
</html>
"""

_SCRIPT = r"""
"use strict";
const DATA = JSON.parse(document.getElementById("data").textContent);
const C = DATA.labels.length;
const ZD = DATA.zero_division === "nan" ? NaN : DATA.zero_division;
const kappa = DATA.default_kappa.slice();

function el(tag, text, attrs) {
  const node = document.createElement(tag);
  if (text !== undefined && text !== null) node.textContent = String(text);
  for (const [key, value] of Object.entries(attrs || {})) node.setAttribute(key, value);
  return node;
}

function ratio(num, den) { return den === 0 ? ZD : num / den; }

// pd of one matrix at kappa (eq. 30): a term whose weight is 0 is absent, so an undefined
// precision (recall) makes pd undefined only where its class weight is not 0 (not 1).
function pd(matrix, k) {
  let total = 0;
  for (let i = 0; i < C; i++) {
    let row = 0, col = 0;
    for (let j = 0; j < C; j++) { row += matrix[i][j]; col += matrix[j][i]; }
    const tp = matrix[i][i];
    if (k[i] !== 0) total += k[i] * ratio(tp, col);
    if (k[i] !== 1) total += (1 - k[i]) * ratio(tp, row);
  }
  return total / C;
}

function fmt(x) { return Number.isNaN(x) ? "NaN" : x.toFixed(4); }

function buildWeights() {
  const box = document.getElementById("weights");
  DATA.labels.forEach((label, i) => {
    const line = el("div", null, {class: "weight"});
    line.appendChild(el("label", label, {for: "kappa-" + i}));
    const slider = el("input", null, {type: "range", min: "0", max: "1", step: "0.01",
                                      id: "kappa-" + i, "data-index": String(i)});
    const number = el("input", null, {type: "number", min: "0", max: "1", step: "0.01",
                                      id: "kappa-number-" + i, "data-index": String(i)});
    const set = (value, source) => {
      const v = Math.min(1, Math.max(0, Number(value)));
      if (Number.isNaN(v)) return;
      kappa[i] = v;
      if (source !== slider) slider.value = String(v);
      if (source !== number) number.value = String(v);
      update();
    };
    slider.addEventListener("input", () => set(slider.value, slider));
    number.addEventListener("input", () => set(number.value, number));
    number.addEventListener("change", () => set(number.value, number));
    slider.value = String(kappa[i]);
    number.value = String(kappa[i]);
    line.appendChild(slider);
    line.appendChild(number);
    box.appendChild(line);
  });
}

function updateRanking(values) {
  const body = document.querySelector("#ranking tbody");
  body.replaceChildren();
  const order = DATA.classifiers.map((name, i) => i);
  order.sort((a, b) => {
    const x = values[a], y = values[b];
    if (Number.isNaN(x)) return Number.isNaN(y) ? a - b : 1;
    if (Number.isNaN(y)) return -1;
    return y - x || a - b;
  });
  for (const i of order) {
    const value = values[i];
    const rank = Number.isNaN(value) ? "" :
      1 + values.filter(v => !Number.isNaN(v) && v > value).length;
    const row = el("tr", null, {"data-classifier": DATA.classifiers[i]});
    row.appendChild(el("td", rank, {class: "rank"}));
    row.appendChild(el("td", DATA.classifiers[i], {class: "name"}));
    row.appendChild(el("td", fmt(value), {class: "pd", "data-classifier": DATA.classifiers[i]}));
    body.appendChild(row);
  }
}

const SVG = "http://www.w3.org/2000/svg";
function svg(tag, attrs) {
  const node = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, String(value));
  return node;
}

const W = 260, H = 90;
const markers = {};
function buildHistograms() {
  const box = document.getElementById("histograms");
  const grid = DATA.grid.map(String).join(", ");
  document.getElementById("gridnote").textContent =
    "(values {" + grid + "} for every class; " + DATA.bin_width + " wide bins; red: pd at the current kappa)";
  DATA.classifiers.forEach((name) => {
    const figure = el("div", null, {class: "hist"});
    figure.appendChild(el("div", name, {class: "name"}));
    const plot = svg("svg", {width: W, height: H + 14, viewBox: "0 0 " + W + " " + (H + 14)});
    const hist = DATA.histograms[name];
    if (hist) {
      const top = Math.max(...hist.p, 1e-12);
      hist.left.forEach((left, j) => {
        const h = H * hist.p[j] / top;
        plot.appendChild(svg("rect", {x: left * W, y: H - h, width: W * DATA.bin_width,
                                      height: h, fill: "#5b8bd0"}));
      });
    } else {
      const text = svg("text", {x: 4, y: H / 2, "font-size": 11});
      text.textContent = "pd undefined over this grid";
      plot.appendChild(text);
    }
    plot.appendChild(svg("line", {x1: 0, y1: H, x2: W, y2: H, stroke: "#444"}));
    for (const t of [0, 0.5, 1]) {
      const label = svg("text", {x: Math.min(t * W, W - 14), y: H + 12, "font-size": 10});
      label.textContent = String(t);
      plot.appendChild(label);
    }
    const marker = svg("line", {x1: 0, y1: 0, x2: 0, y2: H, stroke: "#d03030",
                                "stroke-width": 2, class: "marker"});
    plot.appendChild(marker);
    markers[name] = marker;
    figure.appendChild(plot);
    box.appendChild(figure);
  });
}

function buildWins() {
  const body = document.querySelector("#wins tbody");
  const spaces = {grid: "kappa grid", uniform: "uniform kappa"};
  for (const w of DATA.wins) {
    const row = el("tr");
    row.appendChild(el("td", spaces[w.space] || w.space));
    row.appendChild(el("td", w.a));
    row.appendChild(el("td", w.b));
    for (const p of [w.greater, w.tie, w.less]) row.appendChild(el("td", p === null ? "NaN" : p.toFixed(4), {class: "p"}));
    body.appendChild(row);
  }
  if (DATA.excluded.length) {
    const note = el("p", "Left out of the exact analysis (pd undefined under zero_division nan): "
                    + DATA.excluded.join(", "), {class: "note"});
    document.getElementById("wins").after(note);
  }
}

function update() {
  const values = DATA.classifiers.map(name => pd(DATA.matrices[name], kappa));
  updateRanking(values);
  DATA.classifiers.forEach((name, i) => {
    const x = Number.isNaN(values[i]) ? -10 : values[i] * W;
    markers[name].setAttribute("x1", String(x));
    markers[name].setAttribute("x2", String(x));
  });
}

document.getElementById("title").textContent =
  "pd kappa explorer" + (DATA.dataset ? ": " + DATA.dataset : "");
document.getElementById("zd").textContent =
  "A 0/0 precision or recall counts as " + (Number.isNaN(ZD) ? "NaN" : String(ZD)) + ".";
document.getElementById("reset").addEventListener("click", () => {
  DATA.default_kappa.forEach((v, i) => {
    kappa[i] = v;
    document.getElementById("kappa-" + i).value = String(v);
    document.getElementById("kappa-number-" + i).value = String(v);
  });
  update();
});
buildWeights();
buildHistograms();
buildWins();
update();
"""
