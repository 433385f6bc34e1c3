"""Snakemake script of rule fetch_data: one dataset -> results/data/{dataset}.csv and .json.

The JSON describes the table: its source, rows, target, class order, numeric features, missing
marker, and how many rows have no class (``missing_class_rows``).

``snakemake`` is the object injected by Snakemake's ``script:`` directive.
"""

from pdmeasure.pipeline.data.fetch import count_missing_class, fetch_dataset
from pdmeasure.pipeline.run import run_script
from pdmeasure.tables.io import write_csv, write_json


def main(smk, log) -> None:
    name = smk.wildcards.dataset
    params = smk.params.fetch
    dataset = params["dataset"]
    frame, source = fetch_dataset(
        name,
        dataset,
        mirror=params["mirror"],
        openml_cache=params["openml_cache"],
        openml_mirror=params["openml_mirror"],
        logger=log,
    )
    log.info("dataset %s: class order %s (%s)", name, dataset["classes"], dataset["class_order"])
    log.info("dataset %s: numeric features %s", name, dataset["numeric_features"])
    write_csv(frame, smk.output.table)
    about = {
        "dataset": name,
        "source": source,
        "rows": len(frame),
        "target": dataset["target"],
        "classes": list(dataset["classes"]),
        "class_order": dataset["class_order"],
        "numeric_features": list(dataset["numeric_features"]),
        "missing": dataset["missing"],
        # Rows whose class cell is the missing marker: kept in the table, left out of every
        # classifier's training and scoring (rule analyse lists them among the warnings).
        "missing_class_rows": count_missing_class(frame, dataset),
    }
    write_json(about, smk.output.about)
    log.info("dataset %s: source %s -> %s", name, source, smk.output.table)


if __name__ == "__main__":
    run_script(main, snakemake)  # noqa: F821
