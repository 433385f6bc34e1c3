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
