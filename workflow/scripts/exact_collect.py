"""Snakemake script: per-(engine, dataset) exact tables -> one table each, plus robustness summary."""

import logging

import pandas as pd

from pdmeasure.pipeline.run import run_script
from pdmeasure.tables.exact import robustness_summary
from pdmeasure.tables.io import write_csv

_TEXT = {
    "engine": str,
    "dataset": str,
    "classifier": str,
    "classifier_a": str,
    "classifier_b": str,
    "winner": str,
    "challenger": str,
    "kappa_values": str,
    "default_kappa_values": str,
    "n_vectors": str,
}


def main(smk, log) -> None:
    for name in ("win", "share", "robustness", "summary"):
        frame = pd.concat(
            [pd.read_csv(p, dtype=_TEXT, keep_default_na=False) for p in smk.input[name]],
            ignore_index=True,
        )
        write_csv(frame, smk.output[name])
        if name == "robustness":
            frame["distance"] = frame["distance"].astype(float)
            write_csv(robustness_summary(frame), smk.output.robustness_summary)
        logging.info("%s: %d rows", name, len(frame))


if __name__ == "__main__":
    run_script(main, snakemake)  # noqa: F821
