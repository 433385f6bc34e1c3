"""The workflow's plumbing: what the Snakemake rules in ``workflow/`` run, apart from the tables.

* :mod:`~pdmeasure.pipeline.config` -- ``config.yaml`` validated (the packaged
  ``config.schema.yaml``), resolved and checked across keys; the specs the jobs are given;
* :mod:`~pdmeasure.pipeline.data` -- the datasets' sources, the UCI mirror, the canonical table;
* :mod:`~pdmeasure.pipeline.engines` -- the classifier engines (scikit-learn, Weka);
* :mod:`~pdmeasure.pipeline.fitting`, :mod:`~pdmeasure.pipeline.parts` -- one classifier's
  fitting in its dataset's job, and the part jobs ``cv.parts`` cuts it into;
* :mod:`~pdmeasure.pipeline.failures` -- why a fit failed, in words that name the fix;
* :mod:`~pdmeasure.pipeline.cv5x2` -- the 5 x 2-fold CV of the paired tests;
* :mod:`~pdmeasure.pipeline.run` -- how a workflow script runs (its log, errors, CPU time);
* :mod:`~pdmeasure.pipeline.errors` -- the errors of the configuration and of fetching.

The tidy tables the jobs write live one layer down, in :mod:`pdmeasure.tables`.
Needs the ``[pipeline]`` extra (pandas, scikit-learn, snakemake, ucimlrepo, ...).
"""
