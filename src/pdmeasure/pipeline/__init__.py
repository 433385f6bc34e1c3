"""The workflow's plumbing: what the Snakemake rules in ``workflow/`` run.

Config validation (:mod:`~pdmeasure.pipeline.config`, against the packaged
``config.schema.yaml``), dataset fetching (:mod:`~pdmeasure.pipeline.fetch`), the classifier
engines (:mod:`~pdmeasure.pipeline.engines`), confusion matrices in long format
(:mod:`~pdmeasure.pipeline.confusion`), the tidy tables of measures, kappa-grid histograms,
rankings and statistics, and atomic file output (:mod:`~pdmeasure.pipeline.io`).

Needs the ``[pipeline]`` extra (pandas, scikit-learn, snakemake, ucimlrepo, ...).
"""
