# Module measures (DAG step 4): every registry measure, and pd at the default kappa (eq. 31)
# and at each configured kappa vector, on every pooled confusion matrix -> measures.csv.


rule measures:
    input:
        confusion=results_path("confusion_matrices.csv"),
    output:
        measures=results_path("measures.csv"),
    params:
        zero_division=config["zero_division"],
    log:
        "logs/measures.log",
    conda:
        CONDA_ENV
    script:
        "../scripts/compute_measures.py"


MEASURES_TARGETS = [results_path("measures.csv")]
