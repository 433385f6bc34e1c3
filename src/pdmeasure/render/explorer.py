"""The interactive kappa explorer: one self-contained HTML file for the matrices of one dataset.

The page needs no server and no network: the matrices, the exact histograms of pd over the
kappa grid and the exact win probabilities are embedded as JSON, and one inline script
recomputes pd (paper 000, eq. 30) in the browser as the class weights move. Every user-given
name (class labels, classifier and dataset names) reaches the page only as escaped text: the
JSON block escapes ``<``, ``>``, ``&``, U+2028 and U+2029 so it cannot close its script tag,
and the script builds the page with ``textContent``, never ``innerHTML``.

Kappa grid
----------
The histograms and the grid win probabilities are over a product grid with the same values
for every class: ``grid_values`` when given (a dataset's configured ``kappa_grid``), else
:func:`default_grid`, evenly spaced values in [0, 1]: 11 per class (0, 0.1, ..., 1) while the
grid has at most :data:`DEFAULT_GRID_MAX_VECTORS` vectors (up to 6 classes), else the most
values per class that stay within that bound (10 for 7 classes, 8 for 8, 6 for 9, 5 for 10,
4 for 11 and 12, 3 for 13 to 15), and never fewer than 2 (the corners {0, 1}**C from 16
classes on). The bound keeps the exact analysis quick: it counts such a grid without
enumerating it, but its meet-in-the-middle search grows with the square root of the number of
vectors. Win probabilities are also given for kappa uniform on [0, 1]**C.
"""

from __future__ import annotations

import html
import json
import math
import os
from collections.abc import Mapping, Sequence

import numpy as np

from pdmeasure.pipeline.io import write_text

#: Bin width of the embedded pd histograms.
HISTOGRAM_BIN_WIDTH = 0.02
#: Values per class of the default kappa grid (when none is given and the grid is small enough).
DEFAULT_GRID_VALUES = 11
#: Largest default grid (vectors); more classes get fewer values per class (see the module).
DEFAULT_GRID_MAX_VECTORS = 2**24
#: Monte Carlo samples of the exact analysis's share estimates (not shown by the explorer).
_MONTE_CARLO = 1000

_JSON_ESCAPES = {
    "<": "\\u003c",
    ">": "\\u003e",
    "&": "\\u0026",
    "\u2028": "\\u2028",
    "\u2029": "\\u2029",
}


def default_grid(n_classes: int) -> list[float]:
    """The default kappa values of every class: evenly spaced in [0, 1].

    Parameters
    ----------
    n_classes : int
        C, the number of classes.

    Returns
    -------
    list of float
        :data:`DEFAULT_GRID_VALUES` values (0, 0.1, ..., 1) if that grid has at most
        :data:`DEFAULT_GRID_MAX_VECTORS` vectors, else the most values ``v`` with
        ``v**C <= DEFAULT_GRID_MAX_VECTORS``, but at least 2 (0 and 1).
    """
    values = DEFAULT_GRID_VALUES
    while values > 2 and values**n_classes > DEFAULT_GRID_MAX_VECTORS:
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


def explorer_data(
    matrices: Mapping[str, np.ndarray],
    labels: Sequence[str],
    *,
    dataset: str = "",
    grid_values: Sequence[float] | None = None,
    zero_division=0.0,
    uncertainty: Mapping | None = None,
) -> dict:
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
    uncertainty : mapping, optional
        Draws of each classifier's per-class precision and recall, with the interval's
        ``level`` and ``method`` (:func:`pdmeasure.pipeline.uncertainty_tables.explorer_draws`):
        the page then shows pd's interval and each classifier's probability of ranking first
        at the kappa currently set (pd is linear in them, eq. 30).

    Returns
    -------
    dict
        JSON-ready (see :func:`script_json`): names, matrices, default kappa, the grid, the
        histogram counts per classifier and the win probabilities (each pair once, kappa
        spaces ``grid`` and ``uniform``).

    Raises
    ------
    ValueError
        For a matrix of the wrong shape, repeated classifier names, grid values outside
        [0, 1], an unknown ``zero_division``, or matrices with different actual-class counts.
    """
    from pdmeasure._validation import check_zero_division
    from pdmeasure.exact import ExactSettings
    from pdmeasure.pipeline.exact_tables import DatasetAnalysis

    zd = check_zero_division(zero_division)
    names = [str(name) for name in matrices]
    if len(set(names)) != len(names):
        raise ValueError(f"classifier names repeat: {names}")
    cms = {str(name): np.asarray(cm, dtype=np.int64) for name, cm in matrices.items()}
    n_classes = len(labels)
    for name, cm in cms.items():
        if cm.shape != (n_classes, n_classes):
            raise ValueError(
                f"matrix of {name!r} has shape {cm.shape}, expected "
                f"({n_classes}, {n_classes}) for the classes {list(labels)}"
            )
    grid = [float(v) for v in grid_values] if grid_values is not None else default_grid(n_classes)
    if not all(0.0 <= v <= 1.0 for v in grid):  # also refuses NaN
        raise ValueError(f"kappa grid values must lie in [0, 1], got {grid}")
    settings = ExactSettings(
        fine_grid_values=2,
        monte_carlo_samples=_MONTE_CARLO,
        bin_width=HISTOGRAM_BIN_WIDTH,
        zero_division=zd,
    )
    analysis = DatasetAnalysis(
        cms, grid, settings, engine="", dataset=dataset, classes=[str(label) for label in labels]
    )
    # The page shows the grid and uniform kappa only: leave the analysis's fine grid out
    # rather than count it too.
    analysis.grids.pop("fine", None)
    _, histogram = analysis.distributions()
    histogram = histogram[histogram["space"] == "grid"]
    wins = analysis.win_probabilities()
    # Each unordered pair once (A before B in classifier order): P(B > A) is P(A < B).
    position = {name: i for i, name in enumerate(names)}
    wins = wins[
        wins["space"].isin(["grid", "uniform"])
        & (wins["classifier_a"].map(position) < wins["classifier_b"].map(position))
    ]
    actual = next(iter(cms.values())).sum(axis=1)
    data = {
        "dataset": str(dataset),
        "labels": [str(label) for label in labels],
        "classifiers": names,
        "matrices": {name: cms[name].tolist() for name in names},
        "default_kappa": (actual / actual.sum()).tolist(),
        "zero_division": "nan" if math.isnan(zd) else zd,
        "grid": grid,
        "n_vectors": len(grid) ** n_classes,
        "bin_width": HISTOGRAM_BIN_WIDTH,
        "excluded": list(analysis.excluded),
        # Exact counts of grid vectors per pd bin; lower and upper bounds (equal when exact)
        # when the grid is too large to count exactly ("method" says which).
        "histograms": {
            str(name): {
                "left": group["bin_left"].astype(float).tolist(),
                "count_lower": [int(v) for v in group["count_lower"]],
                "count_upper": [int(v) for v in group["count_upper"]],
                "method": str(group["method"].iloc[0]),
            }
            for name, group in histogram.groupby("classifier", sort=False)
        },
        # Midpoints of the probability bounds, and the half-width of the widest (0: exact).
        "wins": [
            {
                "space": row.space,
                "a": row.classifier_a,
                "b": row.classifier_b,
                "greater": float(row.p_greater),
                "tie": float(row.p_tie),
                "less": float(row.p_less),
                "error_bound": float(row.error_bound),
                "method": str(row.method),
            }
            for row in wins.itertuples(index=False)
        ],
    }
    if uncertainty is not None:
        data["uncertainty"] = _uncertainty_block(uncertainty, names, n_classes)
    return data


def _uncertainty_block(uncertainty: Mapping, names: Sequence[str], n_classes: int) -> dict:
    """The page's draws, checked: one (draws, C) precision and recall list per classifier."""
    if list(uncertainty["classifiers"]) != list(names):
        raise ValueError(
            f"uncertainty draws are for {list(uncertainty['classifiers'])}, the matrices for "
            f"{list(names)}"
        )
    for key in ("precision", "recall"):
        shape = np.shape(uncertainty[key])
        if len(shape) != 3 or shape[0] != len(names) or shape[2] != n_classes:
            raise ValueError(f"uncertainty {key} has shape {shape}, expected (K, draws, C)")
    return {key: uncertainty[key] for key in ("level", "method", "draws", "precision", "recall")}


def explorer_html(
    matrices: Mapping[str, np.ndarray],
    labels: Sequence[str],
    *,
    dataset: str = "",
    grid_values: Sequence[float] | None = None,
    zero_division=0.0,
    uncertainty: Mapping | None = None,
) -> str:
    """The explorer page (see :func:`explorer_data` for the parameters).

    Returns
    -------
    str
        A complete HTML document: data and script inline, no external resource.
    """
    data = explorer_data(
        matrices,
        labels,
        dataset=dataset,
        grid_values=grid_values,
        zero_division=zero_division,
        uncertainty=uncertainty,
    )
    title = html.escape(f"pd kappa explorer: {dataset}" if dataset else "pd kappa explorer")
    return (
        _PAGE.replace("__TITLE__", title)
        .replace("__DATA__", script_json(data))
        .replace("__SCRIPT__", _SCRIPT)
    )


def write_explorer(
    matrices: Mapping[str, np.ndarray],
    labels: Sequence[str],
    path: str | os.PathLike,
    *,
    dataset: str = "",
    grid_values: Sequence[float] | None = None,
    zero_division=0.0,
    uncertainty: Mapping | None = None,
) -> None:
    """Write :func:`explorer_html` to ``path`` atomically."""
    write_text(
        explorer_html(
            matrices,
            labels,
            dataset=dataset,
            grid_values=grid_values,
            zero_division=zero_division,
            uncertainty=uncertainty,
        ),
        path,
    )


_PAGE = """<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:">
<title>__TITLE__</title>
<style>
body { font-family: sans-serif; margin: 1.5em; max-width: 72em; color: #222; }
h1 { font-size: 1.4em; } h2 { font-size: 1.1em; margin-top: 1.4em; }
table { border-collapse: collapse; margin: 0.5em 0; }
td, th { border: 1px solid #ccc; padding: 0.2em 0.6em; text-align: left; }
td.pd, td.p { font-family: monospace; text-align: right; }
.weight { display: grid; grid-template-columns: 12em 18em 7em; gap: 0.5em; align-items: center; }
.weight label { overflow-wrap: anywhere; }
.hist { display: inline-block; margin: 0.3em 1.2em 0.3em 0; vertical-align: top; }
.hist .name { font-weight: bold; overflow-wrap: anywhere; max-width: 300px; }
.note { color: #555; font-size: 0.9em; font-weight: normal; }
</style>
</head>
<body>
<h1 id="title"></h1>
<p class="note">pd = (1/C) &sum;<sub>i</sub> [&kappa;<sub>i</sub> precision<sub>i</sub> + (1 &minus; &kappa;<sub>i</sub>) recall<sub>i</sub>] (paper 000, eq. 30). Move a class weight &kappa;<sub>i</sub> (1: only the precision of that class counts, 0: only its recall); the pd of every classifier and their ranking follow. <span id="zd"></span></p>
<h2>Class weights &kappa;</h2>
<div id="weights"></div>
<p><button id="reset" type="button">default &kappa; (actual-class shares, eq. 31)</button></p>
<h2>pd at this &kappa; and ranking</h2>
<table id="ranking"><thead><tr><th>rank</th><th>classifier</th><th>pd</th></tr></thead><tbody></tbody></table>
<div id="uncertainty" hidden>
<h2>Uncertainty of pd at this &kappa; <span class="note" id="uncertaintynote"></span></h2>
<table id="intervals"><thead><tr><th>classifier</th><th>pd</th><th>lower</th><th>upper</th><th>P(rank 1)</th></tr></thead><tbody></tbody></table>
</div>
<h2>pd over the kappa grid <span class="note" id="gridnote"></span></h2>
<div id="histograms"></div>
<h2>Win probabilities (exact analysis)</h2>
<table id="wins"><thead><tr><th>kappa space</th><th>A</th><th>B</th><th>P(A &gt; B)</th><th>P(tie)</th><th>P(A &lt; B)</th><th>error</th></tr></thead><tbody></tbody></table>
<script type="application/json" id="data">__DATA__</script>
<script>__SCRIPT__</script>
</body>
</html>
"""

# The page's only script. It reads the data block, builds every element with createElement
# and textContent (names are data, never markup), and recomputes pd on each weight change.
_SCRIPT = r"""
"use strict";
const DATA = JSON.parse(document.getElementById("data").textContent);
const C = DATA.labels.length;
const ZD = DATA.zero_division === "nan" ? NaN : DATA.zero_division;
const kappa = DATA.default_kappa.slice();

// An element with text (set as textContent) and attributes.
function el(tag, text, attrs) {
  const node = document.createElement(tag);
  if (text !== undefined && text !== null) node.textContent = String(text);
  for (const [key, value] of Object.entries(attrs || {})) node.setAttribute(key, value);
  return node;
}

function ratio(num, den) { return den === 0 ? ZD : num / den; }

// pd of one matrix (rows actual, columns predicted) at kappa, eq. 30. A term whose weight is
// 0 is absent, so under zero_division "nan" an undefined precision (recall) makes pd NaN only
// where its class weight is not 0 (not 1), as in pdmeasure.measures.preference_driven.
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
// A weight as typed in a box: at most 4 decimals (the page keeps the exact value).
function short(x) { return String(Number(x.toFixed(4))); }

// One line per class: its label, a slider and a number box, kept in step.
function buildWeights() {
  const box = document.getElementById("weights");
  DATA.labels.forEach((label, i) => {
    const line = el("div", null, {class: "weight"});
    line.appendChild(el("label", label, {for: "kappa-number-" + i}));
    const slider = el("input", null, {type: "range", min: "0", max: "1", step: "0.01",
                                      id: "kappa-" + i, "data-index": String(i),
                                      "aria-label": "kappa of class " + label});
    const number = el("input", null, {type: "number", min: "0", max: "1", step: "0.01",
                                      id: "kappa-number-" + i, "data-index": String(i)});
    const set = (text, source) => {
      if (String(text).trim() === "") return;  // a box being retyped: keep the last weight
      const v = Math.min(1, Math.max(0, Number(text)));
      if (Number.isNaN(v)) return;
      kappa[i] = v;
      if (source !== slider) slider.value = String(v);
      if (source !== number) number.value = short(v);
      update();
    };
    slider.addEventListener("input", () => set(slider.value, slider));
    slider.addEventListener("change", () => set(slider.value, slider));
    number.addEventListener("input", () => set(number.value, number));
    number.addEventListener("change", () => set(number.value, number));
    line.appendChild(slider);
    line.appendChild(number);
    box.appendChild(line);
  });
  showWeights();
}

function showWeights() {
  kappa.forEach((v, i) => {
    document.getElementById("kappa-" + i).value = String(v);
    document.getElementById("kappa-number-" + i).value = short(v);
  });
}

// Rows best first; equal pd share a rank; an undefined pd (NaN) comes last, without a rank.
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
    const name = DATA.classifiers[i];
    const row = el("tr", null, {"data-classifier": name});
    row.appendChild(el("td", rank, {class: "rank"}));
    row.appendChild(el("td", name, {class: "name"}));
    row.appendChild(el("td", fmt(value), {class: "pd", "data-classifier": name}));
    body.appendChild(row);
  }
}

const SVG = "http://www.w3.org/2000/svg";
function svg(tag, attrs, text) {
  const node = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, String(value));
  if (text !== undefined) node.textContent = String(text);
  return node;
}

// Histograms: x is pd in [0, 1], bar heights are grid vectors per bin (solid: counted for
// sure; light: up to the upper bound, only where the grid is too large to count exactly).
const W = 300, H = 100, PAD = 16;
const markers = {};
function buildHistograms() {
  const box = document.getElementById("histograms");
  const bounded = Object.values(DATA.histograms).some(h => h.method !== "exact");
  document.getElementById("gridnote").textContent =
    "(values {" + DATA.grid.map(String).join(", ") + "} for each of the " + C +
    " classes, " + DATA.n_vectors.toLocaleString("en") + " kappa vectors; bins " +
    DATA.bin_width + " wide; red: pd at the current kappa" +
    (bounded ? "; light: upper bound of a count" : "") + ")";
  DATA.classifiers.forEach((name) => {
    const figure = el("div", null, {class: "hist", "data-classifier": name});
    figure.appendChild(el("div", name, {class: "name"}));
    const plot = svg("svg", {width: W, height: H + PAD, viewBox: "0 0 " + W + " " + (H + PAD)});
    const hist = DATA.histograms[name];
    if (hist) {
      const top = Math.max(...hist.count_upper, 1);
      const total = DATA.n_vectors;
      hist.left.forEach((left, j) => {
        const lo = hist.count_lower[j], hi = hist.count_upper[j];
        if (hi === 0) return;
        const x = left * W, width = W * DATA.bin_width;
        const tip = "pd in [" + left.toFixed(2) + ", " + (left + DATA.bin_width).toFixed(2) +
          "): " + (lo === hi ? lo.toLocaleString("en") : lo.toLocaleString("en") + " to " +
          hi.toLocaleString("en")) + " vectors (" + (100 * hi / total).toFixed(2) + "%)";
        if (hi > lo) {
          const bar = svg("rect", {x: x, y: H - H * hi / top, width: width, height: H * hi / top,
                                   fill: "#b9cdea"});
          bar.appendChild(svg("title", {}, tip));
          plot.appendChild(bar);
        }
        const bar = svg("rect", {x: x, y: H - H * lo / top, width: width, height: H * lo / top,
                                 fill: "#5b8bd0", class: "bar"});
        bar.appendChild(svg("title", {}, tip));
        plot.appendChild(bar);
      });
    } else {
      plot.appendChild(svg("text", {x: 4, y: H / 2, "font-size": 11},
                           "pd undefined somewhere on this grid"));
    }
    plot.appendChild(svg("line", {x1: 0, y1: H, x2: W, y2: H, stroke: "#444"}));
    for (const t of [0, 0.25, 0.5, 0.75, 1]) {
      plot.appendChild(svg("line", {x1: t * W, y1: H, x2: t * W, y2: H + 3, stroke: "#444"}));
      plot.appendChild(svg("text", {x: Math.min(Math.max(t * W, 0), W - 20) - (t > 0 && t < 1 ? 8 : 0),
                                    y: H + 13, "font-size": 10}, String(t)));
    }
    const marker = svg("line", {x1: -10, y1: 0, x2: -10, y2: H, stroke: "#d03030",
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
    const row = el("tr", null, {"data-space": w.space});
    row.appendChild(el("td", spaces[w.space] || w.space));
    row.appendChild(el("td", w.a, {class: "a"}));
    row.appendChild(el("td", w.b, {class: "b"}));
    for (const p of [w.greater, w.tie, w.less]) {
      row.appendChild(el("td", p === null ? "NaN" : p.toFixed(4), {class: "p"}));
    }
    row.appendChild(el("td", w.error_bound > 0 ? "\u00b1 " + w.error_bound.toExponential(1) : "exact",
                       {class: "error"}));
    body.appendChild(row);
  }
  if (!DATA.wins.length) {
    const row = el("tr");
    row.appendChild(el("td", "fewer than two classifiers with a defined pd", {colspan: "7"}));
    body.appendChild(row);
  }
  if (DATA.excluded.length) {
    const note = el("p", "Left out of the exact analysis (pd undefined somewhere under " +
                    "zero_division nan): " + DATA.excluded.join(", "), {class: "note"});
    document.getElementById("wins").after(note);
  }
}

// Quantile of sorted values, linear between order statistics (numpy's default method).
function quantile(sorted, q) {
  const h = (sorted.length - 1) * q, lo = Math.floor(h), hi = Math.min(lo + 1, sorted.length - 1);
  return sorted[lo] + (h - lo) * (sorted[hi] - sorted[lo]);
}

// pd of every draw of one classifier at kappa, from its per-class precision and recall draws
// (eq. 30 is linear in them): the interval and, over all classifiers, P(rank 1), where the
// classifiers tied for first in a draw share its rank evenly.
function updateUncertainty(values) {
  const U = DATA.uncertainty;
  if (!U) return;
  const drawn = DATA.classifiers.map((name, k) => U.precision[k].map((p, d) => {
    let total = 0;
    for (let i = 0; i < C; i++) total += kappa[i] * p[i] + (1 - kappa[i]) * U.recall[k][d][i];
    return total / C;
  }));
  const first = DATA.classifiers.map(() => 0);
  for (let d = 0; d < U.draws; d++) {
    let best = -Infinity;
    drawn.forEach(v => { if (v[d] > best) best = v[d]; });
    const tied = drawn.filter(v => v[d] === best).length;
    drawn.forEach((v, k) => { if (v[d] === best) first[k] += 1 / tied; });
  }
  const body = document.querySelector("#intervals tbody");
  body.replaceChildren();
  DATA.classifiers.forEach((name, k) => {
    const sorted = drawn[k].slice().sort((a, b) => a - b);
    const tail = (1 - U.level) / 2;
    const row = el("tr", null, {"data-classifier": name});
    row.appendChild(el("td", name, {class: "name"}));
    row.appendChild(el("td", fmt(values[k]), {class: "p value"}));
    row.appendChild(el("td", fmt(quantile(sorted, tail)), {class: "p lower"}));
    row.appendChild(el("td", fmt(quantile(sorted, 1 - tail)), {class: "p upper"}));
    row.appendChild(el("td", (first[k] / U.draws).toFixed(3), {class: "p first"}));
    body.appendChild(row);
  });
}

function update() {
  const values = DATA.classifiers.map(name => pd(DATA.matrices[name], kappa));
  updateRanking(values);
  updateUncertainty(values);
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
  DATA.default_kappa.forEach((v, i) => { kappa[i] = v; });
  showWeights();
  update();
});
if (DATA.uncertainty) {
  document.getElementById("uncertainty").hidden = false;
  document.getElementById("uncertaintynote").textContent =
    "(" + DATA.uncertainty.level + " interval and probability of ranking first over " +
    DATA.uncertainty.draws + " " + DATA.uncertainty.method + " draws of the matrices)";
}
buildWeights();
buildHistograms();
buildWins();
update();
"""
