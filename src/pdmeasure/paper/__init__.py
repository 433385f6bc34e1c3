"""Everything about the two seed papers, in one place.

:mod:`~pdmeasure.paper.facts` holds the papers' facts (which dataset is which table, the
classifiers, the printed precision) and every other module imports them from there;
:mod:`~pdmeasure.paper.published` reads the printed numbers and the errata (package data
``data/published.csv`` and ``data/errata.csv``); :mod:`~pdmeasure.paper.examples` holds the
papers' example matrices and :mod:`~pdmeasure.paper.example_tables` the tables computed from
them; :mod:`~pdmeasure.paper.kappa_search` and :mod:`~pdmeasure.paper.reproduction` compare the
pipeline's numbers with the printed ones.
"""
