# Module measures (step 4): every registry measure, and pd at the default kappa (eq. 31) and at
# each configured kappa vector, on every pooled confusion matrix -> results/measures.csv.


rule measures:
    input:
        confusion=f"{config['results']}/confusion_matrices.csv",
    output:
        measures=f"{config['results']}/measures.csv",
    params:
        zero_division=config.get("zero_division", 0.0),
    log:
        "logs/measures.log",
    script:
        "../scripts/compute_measures.py"


MEASURES_TARGETS = [f"{config['results']}/measures.csv"]
