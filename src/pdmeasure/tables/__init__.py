"""The tidy tables and the analyses behind them, between the library and the pipeline.

Each module writes one kind of table and defines its column schema, once:

* :mod:`~pdmeasure.tables.io` -- atomic file output and the CSV convention for missing numbers;
* :mod:`~pdmeasure.tables.fits` -- the status of each classifier's fit (``fits.csv``);
* :mod:`~pdmeasure.tables.confusion` -- confusion matrices in long format, with their labels;
* :mod:`~pdmeasure.tables.measures` -- ``measures.csv``, every registry measure and pd;
* :mod:`~pdmeasure.tables.histograms` -- pd histograms over kappa grids;
* :mod:`~pdmeasure.tables.rankings` -- ranks of the classifiers by measure;
* :mod:`~pdmeasure.tables.exact` -- the exact kappa-space analysis of one dataset
  (:class:`~pdmeasure.tables.exact.DatasetAnalysis`, which the command line and the explorer
  also use) and its tables;
* :mod:`~pdmeasure.tables.folds`, :mod:`~pdmeasure.tables.stats`,
  :mod:`~pdmeasure.tables.stats_within`, :mod:`~pdmeasure.tables.stats_across` -- per-fold
  values and the statistical tests within and across datasets;
* :mod:`~pdmeasure.tables.uncertainty_schema`, :mod:`~pdmeasure.tables.uncertainty`,
  :mod:`~pdmeasure.tables.uncertainty_draws`, :mod:`~pdmeasure.tables.uncertainty_comparisons`
  -- draws, intervals, probabilities and verdicts.

Imports the library (:mod:`pdmeasure.measures`, :mod:`pdmeasure.exact`,
:mod:`pdmeasure.stats`, :mod:`pdmeasure.uncertainty`) and pandas; nothing of the pipeline,
the papers, rendering or the command line (the import-linter contract in ``pyproject.toml``).
"""
