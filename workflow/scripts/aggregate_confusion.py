"""Snakemake script of rule aggregate_confusion: every confusion.csv -> confusion_matrices.csv.

``snakemake`` is the object injected by Snakemake's ``script:`` directive.
"""

from pdmeasure.pipeline.run import run_script
from pdmeasure.tables.confusion import LONG_COLUMNS, read_long
from pdmeasure.tables.io import write_csv


def main(smk, log) -> None:
    files = list(smk.input)
    frame = read_long(files)
    write_csv(frame[list(LONG_COLUMNS)], smk.output[0])
    log.info("%d files, %d rows -> %s", len(files), len(frame), smk.output[0])


if __name__ == "__main__":
    run_script(main, snakemake)  # noqa: F821
