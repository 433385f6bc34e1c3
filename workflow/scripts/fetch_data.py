"""Snakemake script of rule fetch_data: one dataset -> results/data/{dataset}.csv.

``snakemake`` is the object injected by Snakemake's ``script:`` directive.
"""

from pdmeasure.pipeline.fetch import fetch_dataset
from pdmeasure.pipeline.io import run_script, write_csv


def main(smk, log) -> None:
    name = smk.wildcards.dataset
    fetch = smk.params.fetch
    frame, source = fetch_dataset(name, fetch["dataset"], mirror=fetch["mirror"], logger=log)
    write_csv(frame, smk.output[0])
    log.info("dataset %s: source %s -> %s", name, source, smk.output[0])


if __name__ == "__main__":
    run_script(main, snakemake)  # noqa: F821
