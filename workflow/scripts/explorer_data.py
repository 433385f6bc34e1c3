"""Snakemake script of rule explorer_data: pooled matrices of one engine and dataset -> the
explorer's data (JSON)."""

import json
import logging
from pathlib import Path

from pdmeasure.pipeline.run import run_script
from pdmeasure.tables.confusion import pooled_matrices, read_long
from pdmeasure.tables.explorer import explorer_data, write_explorer_data


def main(smk, log) -> None:
    dataset = smk.wildcards.dataset
    pooled = pooled_matrices(read_long(smk.input.confusion), {dataset: smk.params.classes})
    matrices = {classifier: cm for (_, _, classifier), cm in pooled.items()}
    drawn = smk.input.get("uncertainty")  # the uncertainty module's draws, when it ran
    data = explorer_data(
        matrices,
        smk.params.classes,
        dataset=dataset,
        grid_values=smk.params.kappa_grid,
        zero_division=smk.params.zero_division,
        uncertainty=json.loads(Path(drawn).read_text(encoding="utf-8")) if drawn else None,
    )
    write_explorer_data(data, smk.output.data)
    logging.info(
        "%s/%s: %d classifiers -> %s", smk.wildcards.engine, dataset, len(matrices), smk.output.data
    )


if __name__ == "__main__":
    run_script(main, snakemake)  # noqa: F821
