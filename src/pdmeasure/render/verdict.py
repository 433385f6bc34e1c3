r"""A verdict in plain words per measure, written from the tables across datasets.

For one engine and (measure, kappa), :func:`measure_verdict` reads the tables that
:func:`pdmeasure.tables.stats_across.compare_across_datasets` writes (average ranks, omnibus
tests, post-hoc tests, Nemenyi's critical difference), optionally the Bayesian signed-rank
table (:func:`pdmeasure.tables.uncertainty_comparisons.signed_rank_table`) and the effect
sizes (:func:`pdmeasure.tables.effect_sizes.effect_size_table`), and writes:

* a headline: ``On N datasets, X is best by <measure> (mean rank r); <how sure>``, where
  *how sure* is what the tests support: significantly better than every other classifier,
  or than some (Nemenyi), or no significant difference; and what the Bayesian test adds
  (practically equivalent, better with probability >= 0.95, or undecided);
* which omnibus test was used and why, with its statistic and p-value;
* the mean ranks, best first;
* the pairs that differ by Nemenyi's critical difference;
* Cliff's delta of the best classifier against each other one, with its magnitude;
* the Bayesian probabilities of each of those pairs, with the ROPE.

The rule for the test: the project runs the rank tests of Demsar (2006) on every measure,
with Iman-Davenport's F as the omnibus test (Friedman's chi-square is "undesirably
conservative", Demsar 2006, Sec. 3.2.2) and Nemenyi's critical difference after it. autorank
(Herbold 2020) chooses between repeated-measures ANOVA and Friedman's test by checking
normality (Shapiro-Wilk) and equal variances (Bartlett or Levene) of each classifier's
values; here no such check is made, because the values of different datasets are not on one
scale (an accuracy that is the best on one dataset can be the worst on another), so a
classifier's values over the datasets are no sample of one distribution, and a handful of
datasets could not show that they are. That is autorank's non-parametric branch, taken
always.

Nothing is computed here but the orientation of a pair (the best classifier first).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
import pandas as pd

from pdmeasure.stats.omnibus import FRIEDMAN_MIN_K, FRIEDMAN_MIN_N
from pdmeasure.tables.stats import AcrossTables, measure_label

#: The omnibus test the verdict reports (its ``test`` name in the omnibus table).
OMNIBUS = "iman_davenport"
#: The post-hoc test whose pairs the verdict lists.
POSTHOC = "nemenyi"

_RULE = (
    "Iman-Davenport's F on the ranks of the classifiers within each dataset (Friedman's "
    "test, less conservative than its chi-square), then Nemenyi's critical difference: the "
    "rank tests of Demsar (2006), used for every measure because the values of different "
    "datasets are not on one scale, so no normality is assumed"
)


def _p(value: float) -> str:
    """A p-value for a sentence: 3 significant digits, ``< 0.001`` below (0 included: the
    F approximation gives p = 0 when every dataset ranks the classifiers alike)."""
    if value is None or not np.isfinite(value):
        return "n/a"
    return "< 0.001" if value < 0.001 else f"{value:.3g}"


def _p_is(value: float) -> str:
    """``p = 0.0123`` or ``p < 0.001``."""
    text = _p(value)
    return f"p {text}" if text.startswith("<") else f"p = {text}"


def _names(items: Sequence[str]) -> str:
    """``A``, ``A and B``, ``A, B and C``."""
    items = list(items)
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


def _rows(frame: pd.DataFrame | None, engine: str, measure: str, kappa: str) -> pd.DataFrame:
    """The rows of one (engine, measure, kappa) of a table (empty when there is none)."""
    if frame is None or frame.empty:
        return pd.DataFrame()
    kappas = frame["kappa"].fillna("").astype(str)
    mask = (frame["engine"] == engine) & (frame["measure"] == measure) & (kappas == kappa)
    return frame[mask.to_numpy()]


def _pair(rows: pd.DataFrame, best: str, other: str) -> pd.Series | None:
    """The row of the pair (best, other) in either order, or None."""
    if rows.empty:
        return None
    hit = rows[
        ((rows["classifier_a"] == best) & (rows["classifier_b"] == other))
        | ((rows["classifier_a"] == other) & (rows["classifier_b"] == best))
    ]
    return None if hit.empty else hit.iloc[0]


def _bayes(rows: pd.DataFrame, best: str, other: str) -> tuple[float, float, float] | None:
    """(P(best better), P(equivalent), P(other better)) of the signed-rank table, or None."""
    row = _pair(rows, best, other)
    if row is None:
        return None
    probs = (float(row["p_a_better"]), float(row["p_equivalent"]), float(row["p_b_better"]))
    if any(math.isnan(p) for p in probs):
        return None
    return probs if row["classifier_a"] == best else (probs[2], probs[1], probs[0])


def _bayes_outcome(probs: tuple[float, float, float], threshold: float) -> str:
    """``better``, ``equivalent``, ``worse`` or ``undecided`` for the best classifier."""
    if probs[0] >= threshold:
        return "better"
    if probs[2] >= threshold:
        return "worse"
    return "equivalent" if probs[1] >= threshold else "undecided"


def _effect(rows: pd.DataFrame, best: str, other: str) -> tuple[float, str] | None:
    """Cliff's delta of ``best`` over ``other`` (positive: best better) and its magnitude."""
    row = _pair(rows, best, other)
    if row is None or not np.isfinite(float(row["value"])):
        return None
    value = float(row["value"]) if row["classifier_a"] == best else -float(row["value"])
    return value + 0.0, str(row["magnitude"])


def _omnibus_sentence(omnibus: pd.DataFrame, alpha: float) -> tuple[str, pd.Series | None]:
    """The test sentence, and the omnibus row it reports."""
    chosen = omnibus[omnibus["test"] == OMNIBUS] if not omnibus.empty else omnibus
    if chosen.empty:
        return f"Test: {_RULE}; no omnibus result.", None
    row = chosen.iloc[0]
    stat, p = float(row["statistic"]), float(row["p_value"])
    outcome = "significant" if bool(row["significant"]) else "not significant"
    text = (
        f"Test: {_RULE}. F = {stat:.3f} ({float(row['df1']):g} and {float(row['df2']):g} "
        f"df), {_p_is(p)}: {outcome} at alpha = {alpha:g}"
    )
    extra = []
    friedman = omnibus[omnibus["test"] == "friedman"]
    if not friedman.empty:
        extra.append(f"Friedman's chi-square {_p_is(float(friedman['p_value'].iloc[0]))}")
    n, k = int(row["n_datasets"]), int(row["n_classifiers"])
    if n < FRIEDMAN_MIN_N or k < FRIEDMAN_MIN_K:
        extra.append(
            f"approximate with N = {n} datasets and K = {k} classifiers, below the "
            f"N > {FRIEDMAN_MIN_N - 1}, K > {FRIEDMAN_MIN_K - 1} of the approximation"
        )
    if str(row.get("can_reach_alpha")) == "False":
        extra.append(f"with N = {n} even a perfectly consistent ranking cannot reach alpha")
    if extra:
        text += f" ({'; '.join(extra)})"
    return text + ".", row


def _nemenyi_sentence(
    posthoc: pd.DataFrame, cd: float, ranks: pd.Series, omnibus_significant: bool
) -> tuple[str, list[tuple[str, str]]]:
    """The critical-difference sentence, and the (better, worse) pairs that differ."""
    rows = posthoc[posthoc["test"] == POSTHOC] if not posthoc.empty else posthoc
    pairs = []
    for _, r in rows.iterrows():
        if bool(r["significant"]):
            a, b = str(r["classifier_a"]), str(r["classifier_b"])
            pairs.append((a, b) if r["better"] == a else (b, a))
    if not np.isfinite(cd):
        return "Nemenyi: no critical difference with fewer than 2 datasets.", pairs
    if pairs:
        listed = "; ".join(
            f"{a} better than {b} (rank difference {abs(ranks[b] - ranks[a]):.2f})"
            for a, b in pairs
        )
        text = f"Nemenyi's critical difference CD = {cd:.3f}: {listed}; no other pair differs"
    else:
        spread = float(ranks.max() - ranks.min())
        text = (
            f"Nemenyi's critical difference CD = {cd:.3f}: no pair differs (largest rank "
            f"difference {spread:.2f})"
        )
    if pairs and not omnibus_significant:
        text += " (the omnibus test does not reject, so read these pairs as exploratory)"
    return text + ".", pairs


def _headline(label: str, n: int, best: list[str], rank: float, sure: str, bayes: str) -> str:
    who = best[0] if len(best) == 1 else f"{_names(best)} (tied)"
    verb = "is" if len(best) == 1 else "are"
    return (
        f"On {n} dataset{'s' if n != 1 else ''}, {who} {verb} best by {label} "
        f"(mean rank {rank:.2f}); {sure}{bayes}."
    )


def _how_sure(
    n: int,
    best: str,
    others: list[str],
    omnibus: pd.Series | None,
    pairs: list[tuple[str, str]],
) -> str:
    """What the frequentist tests support about ``best``, in words."""
    if n < 2 or omnibus is None or not np.isfinite(float(omnibus["p_value"])):
        return "a single dataset allows no test across datasets"
    p = _p_is(float(omnibus["p_value"]))
    if not bool(omnibus["significant"]):
        return f"no significant difference among the classifiers (Iman-Davenport {p})"
    beaten = [o for o in others if (best, o) in pairs]
    if beaten and len(beaten) == len(others):
        return f"significantly better than every other classifier (Iman-Davenport {p}, Nemenyi)"
    if beaten:
        rest = [o for o in others if o not in beaten]
        return (
            f"significantly better than {_names(beaten)} (Iman-Davenport {p}, Nemenyi), "
            f"not distinguishable from {_names(rest)}"
        )
    return (
        f"the classifiers differ (Iman-Davenport {p}), but none differs from {best} by "
        "more than the critical difference"
    )


def _bayes_parts(
    rows: pd.DataFrame, best: str, others: list[str], threshold: float
) -> tuple[str, str]:
    """The headline's Bayesian clause and the Bayesian sentence."""
    found = {}
    for other in others:
        probs = _bayes(rows, best, other)
        if probs is not None:
            found[other] = probs
    if not found:
        return "", ""
    rope = float(rows["rope"].iloc[0])
    outcomes = {o: _bayes_outcome(p, threshold) for o, p in found.items()}
    groups: dict[str, list[str]] = {}
    for other, outcome in outcomes.items():
        groups.setdefault(outcome, []).append(other)
    words = {
        "better": "better than {}",
        "equivalent": "practically equivalent to {}",
        "worse": "worse than {}",
        "undecided": "undecided against {}",
    }
    clause = "; ".join(words[k].format(_names(groups[k])) for k in words if k in groups)
    headline = (
        f"; the Bayesian signed-rank test (ROPE {rope:g}, P >= {threshold:g}) finds {best} {clause}"
    )
    details = "; ".join(
        f"{best} vs {o}: P({best} better) = {p[0]:.3f}, P(equivalent) = {p[1]:.3f}, "
        f"P({o} better) = {p[2]:.3f}"
        for o, p in found.items()
    )
    sentence = (
        f"Bayesian signed-rank test (Benavoli et al. 2017) on the values over the datasets, "
        f"region of practical equivalence (ROPE) {rope:g}: {details}."
    )
    return headline, sentence


def measure_verdict(
    across: AcrossTables,
    *,
    engine: str,
    measure: str,
    kappa: str = "",
    bayesian: pd.DataFrame | None = None,
    effects: pd.DataFrame | None = None,
    alpha: float | None = None,
    threshold: float = 0.95,
    short: bool = False,
) -> str:
    """The verdict on one engine and (measure, kappa): a headline and what supports it
    (``short``: the headline alone).

    Parameters
    ----------
    across : AcrossTables
        :func:`~pdmeasure.tables.stats_across.compare_across_datasets`, or its CSV files
        read back (:func:`~pdmeasure.tables.stats.read_stats_table`).
    engine, measure, kappa : str
        The comparison (``kappa`` ``""`` for every measure but pd).
    bayesian : DataFrame, optional
        :func:`~pdmeasure.tables.uncertainty_comparisons.signed_rank_table` (or
        ``uncertainty/across_signed_rank.csv`` read back): adds the probabilities.
    effects : DataFrame, optional
        :func:`~pdmeasure.tables.effect_sizes.effect_size_table`: adds Cliff's delta.
    alpha : float, optional
        The significance level (default: the ``alpha`` of the CD table).
    threshold : float
        Probability a Bayesian outcome needs (0.95, as the signed-rank table's verdicts).

    Returns
    -------
    str
        One paragraph of Markdown: the bold headline, then the sentences of the module
        docstring. A comparison that was not run says why (the omnibus table's note).
    """
    label = measure_label(measure, kappa)
    ranks = _rows(across.ranks, engine, measure, kappa)
    omnibus = _rows(across.omnibus, engine, measure, kappa)
    if ranks.empty or ranks["average_rank"].isna().all():
        notes = [str(n) for n in pd.unique(omnibus["note"].fillna(""))] if len(omnibus) else []
        why = "; ".join(n for n in notes if n) or "no results"
        return f"**{label} ({engine})**: not compared across datasets: {why}."
    cd_rows = _rows(across.cd, engine, measure, kappa)
    if alpha is None:
        alpha = float(cd_rows["alpha"].iloc[0]) if len(cd_rows) else math.nan
    cd = float(cd_rows["cd"].iloc[0]) if len(cd_rows) else math.nan
    mean_rank = pd.Series(
        ranks["average_rank"].to_numpy(dtype=float), index=ranks["classifier"].astype(str)
    ).sort_values(kind="stable")
    n = int(ranks["n_datasets"].iloc[0])
    top = float(mean_rank.iloc[0])
    best = [c for c, r in mean_rank.items() if r == top]
    others = [c for c in mean_rank.index if c != best[0]]
    test, chosen = _omnibus_sentence(omnibus, alpha)
    significant = chosen is not None and bool(chosen["significant"])
    posthoc = _rows(across.posthoc, engine, measure, kappa)
    nemenyi, pairs = _nemenyi_sentence(posthoc, cd, mean_rank, significant)
    sure = _how_sure(n, best[0], others, chosen, pairs)
    bayes_clause, bayes_sentence = _bayes_parts(
        _rows(bayesian, engine, measure, kappa), best[0], others, threshold
    )
    listed = ", ".join(f"{c} {r:.2f}" for c, r in mean_rank.items())
    parts = [
        f"**{label} ({engine})**: " + _headline(label, n, best, top, sure, bayes_clause),
        test if n >= 2 else "",
        f"Mean ranks (1 = best): {listed}.",
        nemenyi if n >= 2 else "",
        _effect_sentence(_rows(effects, engine, measure, kappa), best[0], others),
        bayes_sentence,
    ]
    if short:
        return parts[0]
    return " ".join(p for p in parts if p)


def _effect_sentence(rows: pd.DataFrame, best: str, others: list[str]) -> str:
    found = {o: _effect(rows, best, o) for o in others}
    listed = [f"{o} {e[0]:+.3f} ({e[1]})" for o, e in found.items() if e is not None]
    if not listed:
        return ""
    return (
        f"Effect size of {best} against each other classifier, Cliff's delta over the "
        f"datasets (positive: {best} better; magnitudes of Romano et al. 2006): "
        f"{', '.join(listed)}."
    )


def verdict_markdown(
    across: AcrossTables,
    *,
    bayesian: pd.DataFrame | None = None,
    effects: pd.DataFrame | None = None,
    keys: Sequence[tuple[str, str]] | None = None,
    alpha: float | None = None,
    short: bool = False,
) -> str:
    """Every verdict, one paragraph per engine and (measure, kappa), under a heading; with
    ``short``, each headline alone, one line each, under the heading "In short".

    ``keys`` picks and orders the (measure, kappa) comparisons (default: those of the
    omnibus table, in its order); the other parameters are :func:`measure_verdict`'s.
    """
    lines = ["## In short" if short else "## Verdicts", ""]
    for engine in pd.unique(across.omnibus["engine"]):
        rows = across.omnibus[across.omnibus["engine"] == engine]
        present = list(dict.fromkeys(zip(rows["measure"], rows["kappa"].fillna(""))))
        chosen = present if keys is None else [k for k in keys if k in present]
        lines += [f"### {engine}", ""]
        for measure, kappa in chosen:
            text = measure_verdict(
                across,
                engine=str(engine),
                measure=str(measure),
                kappa=str(kappa),
                bayesian=bayesian,
                effects=effects,
                alpha=alpha,
                short=short,
            )
            lines += [f"- {text}"] if short else [text, ""]
        if short:
            lines.append("")
    return "\n".join(lines)
