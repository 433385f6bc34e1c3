"""The statistics report in Markdown, rendered from the tidy tables (never recomputed).

:func:`significance_markdown` renders one dataset's significance table;
:func:`stats_report` the whole report: headline (accuracy and pd at the default kappa),
every measure across datasets with what N allows (:func:`power_table`) and the comparisons
not run (:func:`not_compared`), every dataset within.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence

import numpy as np
import pandas as pd
from tabulate import tabulate

from pdmeasure.measures.weights import DEFAULT_KAPPA, NO_KAPPA, PD
from pdmeasure.render.uncertainty_markdown import bayesian_markdown
from pdmeasure.tables.stats import POSTHOC_TESTS, AcrossTables, measure_label

#: Display name of each test (the ``test`` column of the tables) in the report.
TEST_TITLES = {
    "friedman": "Friedman chi-square",
    "iman_davenport": "Iman-Davenport F",
    "friedman_aligned_ranks": "Friedman aligned ranks",
    "quade": "Quade",
    "nemenyi": "Nemenyi",
    "holm_control": "Holm vs best-ranked",
    "wilcoxon_holm": "Wilcoxon (Holm)",
    "corrected_t": "corrected resampled t",
    "cv5x2_t": "5x2cv t",
    "cv5x2_f": "5x2cv F",
    "mcnemar": "McNemar",
}
#: The measures of the closing summary: accuracy and pd at the default kappa.
HEADLINE = (("accuracy", NO_KAPPA), (PD, DEFAULT_KAPPA))


def _fmt_p(value: float) -> str:
    if value is None or not np.isfinite(value):
        return "n/a"
    if value == 0.0:
        return "0"
    return f"{value:.2e}" if value < 1e-4 else f"{value:.4f}"


def _p(value: float, significant: bool) -> str:
    """A p-value as text, bold when its table marks it significant."""
    text = _fmt_p(value)
    return f"**{text}**" if text != "n/a" and significant else text


def _pair_text(pairs: Iterable[tuple[str, str, str]]) -> str:
    """Significant pairs ``(a, b, better)`` as ``A > B`` (``A != B`` when the direction is
    undecided)."""
    out = []
    for a, b, better in pairs:
        if better == b:
            a, b = b, a
        out.append(f"{a} > {b}" if better else f"{a} != {b}")
    return ", ".join(out) if out else "none"


def _table(frame: pd.DataFrame) -> str:
    # disable_numparse: cells are pre-formatted text ("0.9320" must not become "0.932")
    return frame.to_markdown(index=False, disable_numparse=True) if len(frame) else "_(no rows)_"


def significance_markdown(table: pd.DataFrame, *, alpha: float) -> str:
    """Markdown of one dataset's significance table: one table per measure.

    ``table`` is :func:`~pdmeasure.tables.stats_within.significance_table` of one (engine, dataset).
    """
    if table.empty:
        return (
            "# Significance of classifier differences\n\n"
            "Fewer than two classifiers were run: there is no pair to compare.\n"
        )
    engine, dataset = table["engine"].iloc[0], table["dataset"].iloc[0]
    p_columns = [c for c in table.columns if c.startswith("p_")]
    lines = [
        f"# Significance of classifier differences: {engine} / {dataset}",
        "",
        f"Holm-adjusted p-values over the pairs of each measure and test; bold = "
        f"significant at alpha = {alpha:g}. corrected t = Nadeau-Bengio corrected "
        "resampled t-test on the configured CV folds; 5x2cv t / F = Dietterich's paired "
        "t-test / Alpaydin's combined F on 5 x 2-fold CV; McNemar = on the per-sample "
        "predictions of the first CV repeat (accuracy and error rate only).",
        "",
    ]
    tests = [c[2:] for c in p_columns]
    headers = ["pair", "better", *(TEST_TITLES[t] for t in tests), "significant by"]
    for (measure, kappa), group in table.groupby(["measure", "kappa"], sort=False):
        lines += [
            f"## {measure_label(measure, kappa)}",
            "",
            _pairs_table(group, tests, headers),
            "",
        ]
    return "\n".join(lines)


def _pairs_table(group: pd.DataFrame, tests: Sequence[str], headers: Sequence[str]) -> str:
    """The Markdown table of one measure's pairs: the pair, the better classifier, each
    test's p-value (bold where ``significant_by`` lists the test) and ``significant_by``.

    The cells are built from the columns' values and handed to tabulate as rows, as
    ``DataFrame.to_markdown`` would hand them: building a frame per measure cost more than
    the tests themselves on small datasets.
    """
    listed = [set(text.split(";")) for text in group["significant_by"]]
    p_cells = [
        [_p(v, test in hits) for v, hits in zip(group[f"p_{test}"], listed, strict=True)]
        for test in tests
    ]
    better = ["" if pd.isna(b) else b for b in group["better"]]
    rows = zip(
        [f"{a} vs {b}" for a, b in zip(group["classifier_a"], group["classifier_b"])],
        better,
        *p_cells,
        ["-" if text == "" else text for text in group["significant_by"]],
    )
    # disable_numparse: cells are pre-formatted text ("0.9320" must not become "0.932")
    return tabulate(list(rows), headers=list(headers), tablefmt="pipe", disable_numparse=True)


def _omnibus_cells(omnibus: pd.DataFrame) -> dict:
    """Test title -> its p-value as text, bold where the table marks it significant."""
    return {
        TEST_TITLES[t]: _p(p, significant)
        for t, p, significant in omnibus[["test", "p_value", "significant"]].itertuples(False)
    }


def _by_measure(frame: pd.DataFrame, engine: str) -> Callable[[tuple], pd.DataFrame]:
    """The rows of ``engine`` in ``frame`` by ``(measure, kappa)``, in the frame's order (an
    empty frame for a key without rows); grouped once rather than selected per key."""
    rows = _select(frame, {"engine": engine})
    groups = dict(tuple(rows.groupby(["measure", "kappa"], sort=False)))
    return lambda key: groups.get(key, rows.iloc[:0])


def _across_summary(across: AcrossTables, engine: str) -> pd.DataFrame:
    rows = []
    ranks = across.ranks[across.ranks["engine"] == engine]
    omnibus, posthoc = _by_measure(across.omnibus, engine), _by_measure(across.posthoc, engine)
    for (measure, kappa), group in ranks.groupby(["measure", "kappa"], sort=False):
        omni, post = omnibus((measure, kappa)), posthoc((measure, kappa))
        best = (
            group.loc[group["average_rank"].idxmin()]
            if group["average_rank"].notna().any()
            else None
        )
        rows.append(
            {
                "measure": measure_label(measure, kappa),
                "N": int(group["n_datasets"].iloc[0]),
                "best (avg rank)": ""
                if best is None
                else f"{best['classifier']} ({best['average_rank']:.2f})",
                **_omnibus_cells(omni),
                **{TEST_TITLES[t]: _posthoc_cell(post, t) for t in POSTHOC_TESTS},
            }
        )
    return pd.DataFrame(rows)


def _posthoc_cell(post: pd.DataFrame, test: str) -> str:
    """Significant pairs of one post-hoc test, or n/a when the test was not run (N < 2)."""
    columns = ["test", "classifier_a", "classifier_b", "better", "significant"]
    rows = [row[1:] for row in post[columns].itertuples(False) if row[0] == test]
    return _pair_text(row[:3] for row in rows if row[3]) if rows else "n/a"


def _select(frame: pd.DataFrame, keys: Mapping[str, str]) -> pd.DataFrame:
    mask = np.ones(len(frame), dtype=bool)
    for column, value in keys.items():
        mask &= (frame[column] == value).to_numpy()
    return frame[mask]


def _within_summary(sig: pd.DataFrame) -> pd.DataFrame:
    p_columns = [c for c in sig.columns if c.startswith("p_")]
    rows = []
    for (measure, kappa), group in sig.groupby(["measure", "kappa"], sort=False):
        # plain tuples and sets: one pandas selection per test and key cost seconds per report
        pairs = list(group[["classifier_a", "classifier_b", "better"]].itertuples(False))
        named = [set(tests.split(";")) for tests in group["significant_by"]]
        row = {"measure": measure_label(measure, kappa)}
        for column in p_columns:
            test = column[2:]
            hits = [pair for pair, tests in zip(pairs, named, strict=True) if test in tests]
            row[TEST_TITLES[test]] = _pair_text(hits) if group[column].notna().any() else "n/a"
        rows.append(row)
    return pd.DataFrame(rows)


def power_table(across: AcrossTables, engine: str) -> pd.DataFrame:
    """What each test can show with the available N: one row per (N, test).

    ``smallest p`` is the ``min_p`` column (the smallest p-value the test can produce with N
    datasets and K classifiers, after the multiple-comparison adjustment for post-hoc tests);
    ``can reach alpha`` is the ``can_reach_alpha`` column: ``no`` when even a perfectly
    consistent ranking could not be significant.
    """
    omnibus = _select(across.omnibus, {"engine": engine})
    posthoc = _select(across.posthoc, {"engine": engine})
    size = omnibus.drop_duplicates(["measure", "kappa"]).set_index(["measure", "kappa"])[
        ["n_datasets", "n_classifiers"]
    ]
    posthoc = posthoc.join(size, on=["measure", "kappa"])
    rows = pd.concat([omnibus, posthoc], ignore_index=True)
    rows = (
        rows[rows["n_datasets"] >= 2]
        .drop_duplicates(["n_datasets", "test"])
        .sort_values(["n_datasets", "test"], kind="stable")
    )
    verdict = rows["can_reach_alpha"].map({True: "yes", False: "no"}).fillna("unknown")
    return pd.DataFrame(
        {
            "N": rows["n_datasets"].astype(int).astype(str),
            "K": rows["n_classifiers"].astype(int).astype(str),
            "test": [TEST_TITLES[t] for t in rows["test"]],
            "smallest p": [_fmt_p(v) for v in rows["min_p"]],
            "can reach alpha": verdict,
            # the control's name is not a power note
            "note": [n if t != "holm_control" else "" for t, n in zip(rows["test"], rows["note"])],
        }
    )


def not_compared(across: AcrossTables, engine: str) -> list[str]:
    """Why each (measure, kappa) with omnibus rows but no ranks was not compared across datasets.

    :func:`~pdmeasure.tables.stats_across.compare_across_datasets` writes only omnibus rows, with
    the reason as ``note``, for a comparison it refuses to run (pd at a kappa-vector name
    whose vectors differ between datasets). Returns ``"label: note"`` per such key.
    """
    omnibus = _select(across.omnibus, {"engine": engine})
    ranked = set(
        map(
            tuple,
            _select(across.ranks, {"engine": engine})[["measure", "kappa"]].itertuples(index=False),
        )
    )
    out = []
    for (measure, kappa), group in omnibus.groupby(["measure", "kappa"], sort=False):
        if (measure, kappa) not in ranked:
            notes = [n for n in pd.unique(group["note"].fillna("")) if n]
            out.append(f"{measure_label(measure, kappa)}: {'; '.join(notes) or 'not run'}")
    return out


def headline_text(across: AcrossTables, significance: pd.DataFrame) -> str:
    """Plain-language summary of the significant differences for accuracy and pd default."""
    lines = []
    for engine in pd.unique(across.ranks["engine"]):
        for measure, kappa in HEADLINE:
            sel = {"engine": engine, "measure": measure, "kappa": kappa}
            omni, post = _select(across.omnibus, sel), _select(across.posthoc, sel)
            if omni.empty:
                continue
            name = measure_label(measure, kappa)
            omnibus = ", ".join(f"{t} p = {p}" for t, p in _omnibus_cells(omni).items())
            post_sig = {TEST_TITLES[t]: _posthoc_cell(post, t) for t in POSTHOC_TESTS}
            lines.append(
                f"- **{engine}, {name}, across datasets** ({omnibus}); significant "
                "pairs: " + "; ".join(f"{t}: {v}" for t, v in post_sig.items())
            )
            sub = _select(significance, sel) if len(significance) else significance
            columns = ["classifier_a", "classifier_b", "better", "significant_by"]
            for dataset, group in sub.groupby("dataset", sort=False):
                text = (
                    ", ".join(
                        f"{_pair_text([(a, b, better)])} ({by})"
                        for a, b, better, by in group[columns].itertuples(False)
                        if by != ""
                    )
                    or "none"
                )
                lines.append(f"  - {dataset}: {text}")
    return "\n".join(lines)


def stats_report(
    across: AcrossTables,
    significance: pd.DataFrame,
    *,
    alpha: float,
    figures: Mapping[tuple[str, str, str], str] | None = None,
    bayesian: pd.DataFrame | None = None,
    skipped: Sequence[Mapping[str, object]] = (),
    failed: Sequence[Mapping[str, object]] = (),
    verdict: str = "",
    summary: str = "",
) -> str:
    """The statistics report: what did not run, the headline, every measure across datasets,
    every dataset within.

    Parameters
    ----------
    across : AcrossTables
        From :func:`~pdmeasure.tables.stats_across.compare_across_datasets` (or read back from its
        CSV files).
    significance : DataFrame
        :func:`~pdmeasure.tables.stats_within.significance_table` of every (engine, dataset),
        concatenated.
    alpha : float
    figures : mapping, optional
        (engine, measure, kappa) -> path of the CD diagram, relative to the report.
    bayesian : DataFrame, optional
        ``pdmeasure.tables.uncertainty.signed_rank_table``: adds the section
        :func:`~pdmeasure.render.uncertainty_markdown.bayesian_markdown` at the end.
    skipped : sequence of mapping, optional
        The files set aside before the run (the resolved run's ``skipped``: ``dataset``,
        ``path``, ``reason``): listed first, under the title.
    failed : sequence of mapping, optional
        The fits that failed (rows of the fitting jobs' status tables,
        :func:`pdmeasure.tables.fits.failed_fits`: ``engine``, ``dataset``, ``classifier``,
        ``reason``): listed next (:func:`failed_markdown`).
    verdict, summary : str, optional
        :func:`~pdmeasure.render.verdict.verdict_markdown` in short (``summary``: the first
        screen, after what did not run) and in full (``verdict``: before the details).
    """
    figures = figures or {}
    intro = _INTRO.format(alpha=alpha).split("\n")
    lines = [
        *intro[:2],
        *skipped_markdown(skipped),
        *failed_markdown(failed),
        *([summary, verdict, "## The tests in detail", ""] if summary or verdict else []),
        *intro[2:],
        headline_text(across, significance),
        "",
    ]
    for engine in pd.unique(across.ranks["engine"]):
        lines += _engine_section(across, significance, engine, figures)
    if bayesian is not None:
        lines += [bayesian_markdown(bayesian)]
    return "\n".join(lines)


def skipped_markdown(skipped: Sequence[Mapping[str, object]]) -> list[str]:
    """The lines that list the datasets set aside before the run (none: no lines)."""
    if not skipped:
        return []
    lines = [
        f"**Not run: {len(skipped)} file{'s' if len(skipped) > 1 else ''} set aside** "
        "(`dataset_files.<i>.skip_invalid`); nothing below includes "
        f"{'them' if len(skipped) > 1 else 'it'}:",
        "",
    ]
    for item in skipped:
        reason = " ".join(str(item["reason"]).split())
        lines.append(f"- `{item['dataset']}` ({item['path']}): {reason}")
    return [*lines, ""]


def failed_markdown(failed: Sequence[Mapping[str, object]]) -> list[str]:
    """The lines that list the fits that failed, each with its reason (none: no lines)."""
    if not failed:
        return []
    n = len(failed)
    lines = [
        f"**Failed fits: {n}** (listed in each fitting folder's fits.csv); every result "
        "below is built from the fits that finished: a comparison across datasets uses the "
        "datasets where all its classifiers finished, and says which it left out:",
        "",
    ]
    for item in failed:
        reason = " ".join(str(item["reason"]).split())
        lines.append(
            f"- `{item['classifier']}` on `{item['dataset']}` ({item['engine']}): {reason}"
        )
    return [*lines, ""]


#: The report's opening: the procedure, what power the tests have, how kappa vectors are
#: compared, and the headline section's title (its text is :func:`headline_text`).
_INTRO = """# Statistical comparison of classifiers

Significance level alpha = {alpha:g}. Procedure of Stapor (2017) after Demsar (2006) \
and Garcia et al. (2010). Across datasets, each dataset is one block: ranks 1 = best, \
ties averaged. Post-hoc results are listed whatever the omnibus outcome; read them \
as confirmatory only where the omnibus test rejects.

**Power.** With only a handful of datasets these tests have little power. A \
non-significant result is not evidence that classifiers perform alike. The \
`min_p` column of the CSV tables gives the smallest p-value a test can reach with \
the available N, and the notes below say where N is below what a test needs.

**Kappa vectors.** pd at the default kappa (the class-share rule) is compared across \
datasets. pd at a named kappa vector is compared across datasets only where that \
name has the same vector (same values) on every dataset configuring it; a kappa \
vector is positional in each dataset's class order, so vectors that differ are \
different preferences and are not pooled.

## Accuracy and pd at the default kappa
"""


def _engine_section(
    across: AcrossTables,
    significance: pd.DataFrame,
    engine: str,
    figures: Mapping[tuple[str, str, str], str],
) -> list[str]:
    """One engine's lines: across datasets (tests, CD diagrams, power, what was not
    compared), then within each dataset."""
    lines = [
        f"## Across datasets: {engine}",
        "",
        "Omnibus p-values (bold = significant) and the pairs each post-hoc test finds significant.",
        "",
        _table(_across_summary(across, engine)),
        "",
    ]
    shown = [(key, path) for key, path in figures.items() if key[0] == engine]
    if shown:
        lines += [
            "Critical-difference diagrams: "
            + ", ".join(f"[{measure_label(m, k)}]({path})" for (_, m, k), path in shown),
            "",
        ]
    ranks = across.ranks[(across.ranks["engine"] == engine) & (across.ranks["n_datasets"] < 2)]
    single = [
        measure_label(m, k)
        for m, k in ranks[["measure", "kappa"]].drop_duplicates().itertuples(index=False)
    ]
    lines += [
        "What N allows (smallest attainable p-value per test):",
        "",
        _table(power_table(across, engine)),
        "",
    ]
    if single:
        lines += [f"On a single dataset, so not tested across datasets: {', '.join(single)}.", ""]
    refused = not_compared(across, engine)
    if refused:
        lines += ["Not compared across datasets:", "", *(f"- {x}" for x in refused), ""]
    sub = significance[significance["engine"] == engine] if len(significance) else significance
    for dataset, group in sub.groupby("dataset", sort=False):
        lines += [
            f"### Within {dataset} ({engine})",
            "",
            "Pairs significant after Holm's correction, per test.",
            "",
            _table(_within_summary(group)),
            "",
        ]
    return lines
