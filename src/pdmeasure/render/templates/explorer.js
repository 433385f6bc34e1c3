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

// Per-class precision and recall of one matrix (rows actual, columns predicted), computed once:
// pd is linear in them (eq. 30), so a weight change costs O(C) per classifier.
function classRatios(matrix) {
  const precision = [], recall = [];
  for (let i = 0; i < C; i++) {
    let row = 0, col = 0;
    for (let j = 0; j < C; j++) { row += matrix[i][j]; col += matrix[j][i]; }
    const tp = matrix[i][i];
    precision.push(ratio(tp, col));
    recall.push(ratio(tp, row));
  }
  return {precision, recall};
}
const RATIOS = DATA.classifiers.map(name => classRatios(DATA.matrices[name]));

// pd at kappa, eq. 30. A term whose weight is 0 is absent, so under zero_division "nan" an
// undefined precision (recall) makes pd NaN only where its class weight is not 0 (not 1), as
// in pdmeasure.measures.preference_driven.
function pd(r, k) {
  let total = 0;
  for (let i = 0; i < C; i++) {
    if (k[i] !== 0) total += k[i] * r.precision[i];
    if (k[i] !== 1) total += (1 - k[i]) * r.recall[i];
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

// A node's text, written only when it changes (no needless style and layout work).
function setText(node, text) {
  if (node.textContent !== text) node.textContent = text;
}

// Rows best first; equal pd share a rank; an undefined pd (NaN) comes last, without a rank.
// One row per classifier, made at the first call; later calls set the rank and pd texts and
// move the rows whose place changed.
let rankingRows = null;
function updateRanking(values) {
  const body = document.querySelector("#ranking tbody");
  if (rankingRows === null) {
    rankingRows = DATA.classifiers.map((name) => {
      const row = el("tr", null, {"data-classifier": name});
      const rank = el("td", null, {class: "rank"});
      const value = el("td", null, {class: "pd", "data-classifier": name});
      row.append(rank, el("td", name, {class: "name"}), value);
      return {row, rank, value};
    });
  }
  const order = DATA.classifiers.map((name, i) => i);
  order.sort((a, b) => {
    const x = values[a], y = values[b];
    if (Number.isNaN(x)) return Number.isNaN(y) ? a - b : 1;
    if (Number.isNaN(y)) return -1;
    return y - x || a - b;
  });
  // In this order a rank, 1 + the number of greater values, is 1 + the place of the first
  // of the values equal to it.
  let rank = 0;
  order.forEach((i, place) => {
    const value = values[i], cells = rankingRows[i];
    if (!Number.isNaN(value) && (place === 0 || values[order[place - 1]] !== value)) {
      rank = place + 1;
    }
    setText(cells.rank, Number.isNaN(value) ? "" : String(rank));
    setText(cells.value, fmt(value));
    const here = body.children[place] || null;
    if (here !== cells.row) body.insertBefore(cells.row, here);
  });
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

// The draws' per-class precision or recall, (K, draws, C) flattened: base64 of little-endian
// float64 (pdmeasure.render.explorer.float64_base64), read back bit for bit.
function float64s(text) {
  const bytes = atob(text), view = new DataView(new ArrayBuffer(bytes.length));
  for (let b = 0; b < bytes.length; b++) view.setUint8(b, bytes.charCodeAt(b));
  const values = new Float64Array(bytes.length / 8);
  for (let v = 0; v < values.length; v++) values[v] = view.getFloat64(8 * v, true);
  return values;
}

// pd of every draw of one classifier at kappa, from its per-class precision and recall draws
// (eq. 30 is linear in them): the interval and, over all classifiers, P(rank 1), where the
// classifiers tied for first in a draw share its rank evenly. The arrays and the table rows
// are made at the first call; later calls refill the arrays and set the rows' texts.
let drawState = null;
function updateUncertainty(values) {
  const U = DATA.uncertainty;
  if (!U) return;
  const K = DATA.classifiers.length, D = U.draws;
  if (drawState === null) {
    const body = document.querySelector("#intervals tbody");
    drawState = {
      precision: float64s(U.precision),
      recall: float64s(U.recall),
      drawn: DATA.classifiers.map(() => new Float64Array(D)),
      sorted: new Float64Array(D),
      rows: DATA.classifiers.map((name) => {
        const row = el("tr", null, {"data-classifier": name});
        const cells = {};
        row.appendChild(el("td", name, {class: "name"}));
        for (const key of ["value", "lower", "upper", "first"]) {
          cells[key] = el("td", null, {class: "p " + key});
          row.appendChild(cells[key]);
        }
        body.appendChild(row);
        return cells;
      }),
    };
  }
  const {precision, recall, drawn, sorted, rows} = drawState;
  for (let k = 0; k < K; k++) {
    for (let d = 0; d < D; d++) {
      const base = (k * D + d) * C;
      let total = 0;
      for (let i = 0; i < C; i++) {
        total += kappa[i] * precision[base + i] + (1 - kappa[i]) * recall[base + i];
      }
      drawn[k][d] = total / C;
    }
  }
  const first = new Float64Array(K);
  for (let d = 0; d < D; d++) {
    let best = -Infinity, tied = 0;
    for (let k = 0; k < K; k++) if (drawn[k][d] > best) best = drawn[k][d];
    for (let k = 0; k < K; k++) if (drawn[k][d] === best) tied += 1;
    for (let k = 0; k < K; k++) if (drawn[k][d] === best) first[k] += 1 / tied;
  }
  const tail = (1 - U.level) / 2;
  for (let k = 0; k < K; k++) {
    sorted.set(drawn[k]);
    sorted.sort();  // a typed array sorts by number
    setText(rows[k].value, fmt(values[k]));
    setText(rows[k].lower, fmt(quantile(sorted, tail)));
    setText(rows[k].upper, fmt(quantile(sorted, 1 - tail)));
    setText(rows[k].first, (first[k] / D).toFixed(3));
  }
}

function update() {
  const values = RATIOS.map(r => pd(r, kappa));
  updateRanking(values);
  updateUncertainty(values);
  DATA.classifiers.forEach((name, i) => {
    const x = String(Number.isNaN(values[i]) ? -10 : values[i] * W);
    if (markers[name].getAttribute("x1") === x) return;
    markers[name].setAttribute("x1", x);
    markers[name].setAttribute("x2", x);
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
