"""The Markdown summary of the reproduction (``reproduction.md``), from its computed tables."""

from __future__ import annotations

import pandas as pd

from pdmeasure.paper.reproduction import ERRATA_DOC, NO_DATA_ENGINE


def _md(frame: pd.DataFrame) -> str:
    return frame.to_markdown(index=False, disable_numparse=True)


def _formatted(frame: pd.DataFrame, formats: dict[str, str]) -> pd.DataFrame:
    """A copy of ``frame`` with the named columns formatted (``".4f"``, ``"g"``)."""
    out = frame.copy()
    for column, spec in formats.items():
        out[column] = out[column].map(lambda v, spec=spec: format(v, spec))
    return out


def summary_markdown(tables: dict) -> str:
    """The short Markdown summary of ``reproduction.csv``.

    Sections: overall counts per engine; counts per paper, table and engine; counts per
    engine and paper classifier for paper 000 Tables 6-9; the errata cells; and, per engine,
    the value cells that differ most from the printed number.

    Parameters
    ----------
    tables : dict
        :func:`pdmeasure.paper.reproduction.summary_tables`.
    """
    counts = ", ".join(f"{count} {status}" for status, count in tables["overall"].items())
    lines = [
        "# Reproduction of the papers' published numbers",
        "",
        f"{sum(tables['overall'].values())} rows: one per published number and engine (engine "
        f"`{NO_DATA_ENGINE}`: tables that need no data). `match`: equal at the printed "
        f"precision; `erratum`: the printed number is wrong (see `{ERRATA_DOC}`); `differs`: "
        "computed by this run and different, for a known cause named in `reason` of "
        "`reproduction.csv`; `not_run`: not computed by this run (engine, dataset, classifier "
        "or kappa vector not in the config; `reason` says which).",
        "",
        f"Overall: {counts}.",
        "",
        "## Per engine",
        "",
        _md(tables["per_engine"]),
        "",
        "## Per table and engine",
        "",
        _md(tables["per_table"]),
    ]
    if not tables["per_classifier"].empty:
        lines += [
            "",
            "## Paper 000 Tables 6-9 per engine and paper classifier (values and ranks)",
            "",
            _md(tables["per_classifier"]),
        ]
    if not tables["errata"].empty:
        errata = _formatted(tables["errata"], {"reproduced": ".4f", "published": "g"})
        lines += ["", "## Errata", "", _md(errata)]
    if tables["largest"]:
        lines += ["", f"## Largest differences per engine (values, top {tables['top']})", ""]
        for engine, rows in tables["largest"].items():
            shown = _formatted(rows, dict.fromkeys(("published", "reproduced", "abs_diff"), ".4f"))
            lines += [f"### {engine}", "", _md(shown), ""]
    return "\n".join(lines).rstrip() + "\n"
