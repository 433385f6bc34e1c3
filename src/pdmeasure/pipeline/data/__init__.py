"""Where a dataset's rows come from: its sources (UCI through ``ucimlrepo``, OpenML, a local
file), the offline UCI mirror and its manifest, the canonical data table, and the class order
checked against the data.

* :mod:`~pdmeasure.pipeline.data.sources` -- reading CSV, TSV and ARFF files;
* :mod:`~pdmeasure.pipeline.data.openml` -- OpenML: downloaded into scikit-learn's cache,
  read from the cached files;
* :mod:`~pdmeasure.pipeline.data.mirror` -- the mirror's ``MANIFEST.json`` and its files;
* :mod:`~pdmeasure.pipeline.data.fetch` -- fetching a dataset, and its description;
* :mod:`~pdmeasure.pipeline.data.canonical` -- the canonical table: written, read, checked;
* :mod:`~pdmeasure.pipeline.data.classes` -- the class order against the data's labels;
* :mod:`~pdmeasure.pipeline.data.text` -- decoding bytes and CSV rows with errors naming the fix.
"""
